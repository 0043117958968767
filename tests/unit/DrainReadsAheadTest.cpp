//===- DrainReadsAheadTest.cpp - a drain step's LDS reads a step earlier --===//
//
// pipeline/opt/DrainReadsAhead.h on hand-written programs: a loop, then
// straight code of two steps, each a barrier, an LDS read and a VALU op
// using it, then the stores. The second barrier orders nothing the first
// does not, so it goes and the second read moves above the first step's
// VALU op; an LDS write after it, or a global load between the two
// barriers, keeps it (and the read below it). The pipelined lit test
// (pipeline-loops-drain-reads-ahead.test) checks the rewrite by execution,
// and pipeline-loops-epilogue-prefetch.test the register bound (the
// 8-buffer preshuffle stays at 4 waves).
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "pipeline/opt/DrainReadsAhead.h"

#include <gtest/gtest.h>

using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

struct Drained {
  unsigned changed = 0;
  /// The ops after the loop, by name without the dialect prefix, up to the
  /// first store.
  std::vector<std::string> after;
};

/// A loop of 8 iterations, then the first step, `between` after its read
/// and VALU op, the second step, and `tail` before the stores.
Drained drain(llvm::StringRef between, llvm::StringRef tail = "") {
  std::string text = (llvm::Twine(R"(
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c8 = waveasm.constant 8 : !waveasm.imm<8>
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %srd_in = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
    %srd_out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
    }
    waveasm.s_barrier
    %r0 = waveasm.ds_read_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
    %u0 = waveasm.v_add_u32 %r0, %r0 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    )") + between + R"(
    waveasm.s_barrier
    %r1 = waveasm.ds_read_b32 %tid {offset = 256 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
    %u1 = waveasm.v_add_u32 %r1, %r1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    )" + tail + R"(
    waveasm.buffer_store_dword %u0, %srd_out, %tid : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.pvreg<0>
    waveasm.buffer_store_dword %u1, %srd_out, %tid offset : 256 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.pvreg<0>
    waveasm.s_endpgm
  )")
                         .str();
  ParsedAnalysisProgram p(text);
  EXPECT_TRUE(p.module) << p.t.diagnostics;
  Drained d;
  if (!p.module)
    return d;
  LoopOp loop;
  p.program.walk([&](LoopOp l) { loop = l; });
  d.changed = hoistDrainReads(loop);
  for (mlir::Operation *op = loop->getNextNode();
       op && !mlir::isa<BUFFER_STORE_DWORD>(op); op = op->getNextNode())
    d.after.push_back(
        op->getName().getStringRef().drop_front(strlen("waveasm.")).str());
  return d;
}

TEST(DrainReadsAheadTest, SecondBarrierGoesAndTheReadMovesAhead) {
  Drained d = drain("");
  // One barrier erased, one read moved.
  EXPECT_EQ(d.changed, 2u);
  EXPECT_EQ(d.after,
            (std::vector<std::string>{"s_barrier", "ds_read_b32", "ds_read_b32",
                                      "v_add_u32", "v_add_u32"}));
}

TEST(DrainReadsAheadTest, LdsWriteAfterKeepsTheBarrier) {
  // Another wave's read of the first step would race with the write.
  Drained d = drain("", R"(
    waveasm.ds_write_b32 %u1, %tid {offset = 512 : i64} : !waveasm.vreg, !waveasm.pvreg<0>
  )");
  EXPECT_EQ(d.changed, 0u);
  EXPECT_EQ(d.after, (std::vector<std::string>{
                         "s_barrier", "ds_read_b32", "v_add_u32", "s_barrier",
                         "ds_read_b32", "v_add_u32", "ds_write_b32"}));
}

TEST(DrainReadsAheadTest, GlobalLoadBetweenKeepsTheBarrier) {
  // A store after the second barrier may overwrite what the load reads.
  Drained d = drain(R"(
    %g = waveasm.buffer_load_dword %srd_in, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  )");
  EXPECT_EQ(d.changed, 0u);
  EXPECT_EQ(d.after,
            (std::vector<std::string>{"s_barrier", "ds_read_b32", "v_add_u32",
                                      "buffer_load_dword", "s_barrier",
                                      "ds_read_b32", "v_add_u32"}));
}

TEST(DrainReadsAheadTest, RawTextKeepsTheBarriers) {
  // Raw text may write LDS (here it does): the barrier after it orders that
  // write before the second read of other waves, the one before it orders
  // their first reads before the write.
  Drained d = drain(R"(
    waveasm.raw "ds_write_b32 v0, v1"
  )");
  EXPECT_EQ(d.after, (std::vector<std::string>{"s_barrier", "ds_read_b32",
                                               "v_add_u32", "raw", "s_barrier",
                                               "ds_read_b32", "v_add_u32"}));
}

} // namespace
