//===- EpiloguePrefetchTest.cpp - a kernel's epilogue loads issued early --===//
//
// pipeline/opt/EpiloguePrefetch.h on hand-written programs: a loop, then
// straight code with a barrier and a register load whose address a VALU op
// computes. The load and its address move up to the loop when nothing
// stops them; a store before it that may write its bytes keeps it below
// the barrier, registers live above the kernel's peak keep it below them,
// and an earlier load keeps it below that load. The pipelined lit test
// (pipeline-loops-epilogue-prefetch.test) checks the rewrite by execution.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "pipeline/opt/EpiloguePrefetch.h"

#include <gtest/gtest.h>

using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

struct Hoisted {
  unsigned moved = 0;
  /// The ops from the loop to the load (exclusive), by name.
  std::vector<std::string> before;
};

/// A loop of 8 iterations whose body is `body` (it may read %k), then
/// `tail` (up to the load's address), then the address, the load of
/// `srd_in`, a store of its value to `srd_out` and `after`.
Hoisted hoist(llvm::StringRef body, llvm::StringRef tail,
              llvm::StringRef after = "") {
  std::string text = (llvm::Twine(R"(
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c2 = waveasm.constant 2 : !waveasm.imm<2>
    %c3 = waveasm.constant 3 : !waveasm.imm<3>
    %c8 = waveasm.constant 8 : !waveasm.imm<8>
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %srd_in = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
    %srd_out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
      )") + body + R"(
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
    }
    )" + tail + R"(
    %a = waveasm.v_lshl_add_u32 %tid, %c2, %kend : !waveasm.pvreg<0>, !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
    %v = waveasm.buffer_load_dword %srd_in, %a, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.buffer_store_dword %v, %srd_out, %tid : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.pvreg<0>
    )" + after + R"(
    waveasm.s_endpgm
  )")
                         .str();
  ParsedAnalysisProgram p(text);
  EXPECT_TRUE(p.module) << p.t.diagnostics;
  Hoisted h;
  if (!p.module)
    return h;
  LoopOp loop;
  p.program.walk([&](LoopOp l) { loop = l; });
  h.moved = hoistEpiloguePrefetch(loop);
  // The load is the one whose value the last store writes.
  mlir::Operation *load = nullptr;
  p.program.walk([&](BUFFER_STORE_DWORD store) {
    load = store->getOperand(0).getDefiningOp();
  });
  for (mlir::Operation *op = loop->getNextNode(); op && op != load;
       op = op->getNextNode())
    h.before.push_back(op->getName().getStringRef().str());
  return h;
}

/// A body holding five vector registers at its peak (the thread id and a
/// four-register LDS read).
constexpr llvm::StringLiteral kReadLds = R"(
      %r = waveasm.ds_read_b128 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<4, 4>
)";

TEST(EpiloguePrefetchTest, MovesAboveBarrierToTheLoop) {
  Hoisted h = hoist(kReadLds, R"(
    %x = waveasm.v_mov_b32 %c3 : !waveasm.imm<3> -> !waveasm.vreg
    waveasm.s_barrier
  )");
  EXPECT_EQ(h.moved, 1u);
  EXPECT_EQ(h.before, (std::vector<std::string>{"waveasm.v_lshl_add_u32"}));
}

TEST(EpiloguePrefetchTest, StoreBeforeKeepsItBelowTheBarrier) {
  // The loop stores through the descriptor the load reads: another wave's
  // store before the barrier would be read before it.
  Hoisted h = hoist(kReadLds.str() + R"(
      waveasm.buffer_store_dword %tid, %srd_in, %tid : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  )",
                    R"(
    %x = waveasm.v_mov_b32 %c3 : !waveasm.imm<3> -> !waveasm.vreg
    waveasm.s_barrier
    %y = waveasm.v_mov_b32 %c2 : !waveasm.imm<2> -> !waveasm.vreg
  )");
  // Above the op after the barrier, not above the barrier.
  EXPECT_EQ(h.moved, 1u);
  EXPECT_EQ(h.before,
            (std::vector<std::string>{"waveasm.v_mov_b32", "waveasm.s_barrier",
                                      "waveasm.v_lshl_add_u32"}));
}

TEST(EpiloguePrefetchTest, RegistersAboveTheKernelsPeakKeepItBelow) {
  // Four registers live after the loop and the thread id, at the loop's
  // peak of five: the load's register would make six.
  Hoisted h = hoist(kReadLds, R"(
    %w = waveasm.v_mov_b32 %c3 {no_cse} : !waveasm.imm<3> -> !waveasm.vreg<4, 4>
    waveasm.s_barrier
  )",
                    R"(
    waveasm.buffer_store_dwordx4 %w, %srd_out, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<8, 4>, !waveasm.pvreg<0>
  )");
  EXPECT_EQ(h.moved, 0u);
  EXPECT_EQ(h.before,
            (std::vector<std::string>{"waveasm.v_mov_b32", "waveasm.s_barrier",
                                      "waveasm.v_lshl_add_u32"}));
}

TEST(EpiloguePrefetchTest, StaysBelowAnEarlierLoad) {
  Hoisted h = hoist(kReadLds, R"(
    waveasm.s_barrier
    %u = waveasm.buffer_load_dword %srd_in, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.s_barrier
  )");
  // The first load moves to the loop, the second right after it.
  EXPECT_EQ(h.moved, 2u);
  EXPECT_EQ(h.before, (std::vector<std::string>{"waveasm.buffer_load_dword",
                                                "waveasm.v_lshl_add_u32"}));
}

} // namespace
