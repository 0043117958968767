//===- AdjacentBarriersTest.cpp - one barrier where two follow ------------===//
//
// pipeline/opt/AdjacentBarriers.h on straight-line code: two barriers with
// only register ops between become the later one; a memory access, a wait
// or a nested region between keeps both. The pipelined lit test
// (pipeline-loops-merge-barriers.test) checks the result by execution.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "pipeline/opt/AdjacentBarriers.h"

#include <gtest/gtest.h>

using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

/// The program body `barrier; <between>; barrier; use` merged: the
/// barriers left, and whether the one left is the later (its location).
struct Merged {
  unsigned erased = 0;
  unsigned barriers = 0;
  bool laterKept = false;
};

Merged merge(llvm::StringRef between) {
  std::string body = (llvm::Twine(R"(
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
    %a = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
    waveasm.s_barrier loc("first")
    )") + between + R"(
    waveasm.s_barrier loc("second")
    %y = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dword %y, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
    waveasm.s_endpgm
  )")
                         .str();
  ParsedAnalysisProgram p(body);
  EXPECT_TRUE(p.module) << p.t.diagnostics;
  Merged m;
  if (!p.module)
    return m;
  mlir::Block &block = p.program.getBodyBlock();
  m.erased = mergeAdjacentBarriers(block.begin(), block.end());
  for (mlir::Operation &op : block)
    if (mlir::isa<S_BARRIER>(op)) {
      ++m.barriers;
      if (auto loc = mlir::dyn_cast<mlir::NameLoc>(op.getLoc()))
        m.laterKept |= loc.getName() == "second";
    }
  return m;
}

} // namespace

TEST(AdjacentBarriers, RegisterOpsBetweenMakeOneBarrier) {
  // Nothing between, then VALU and SALU ops and an MFMA-free copy.
  for (llvm::StringRef between :
       {llvm::StringRef(""),
        llvm::StringRef("%b = waveasm.v_add_u32 %a, %c1 : !waveasm.vreg, "
                        "!waveasm.imm<1> -> !waveasm.vreg\n"
                        "%s = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> "
                        "!waveasm.sreg")}) {
    Merged m = merge(between);
    EXPECT_EQ(m.erased, 1u) << between.str();
    EXPECT_EQ(m.barriers, 1u) << between.str();
    // The later one stays: the ops between issue before it.
    EXPECT_TRUE(m.laterKept) << between.str();
  }
}

TEST(AdjacentBarriers, MemoryWaitsAndRegionsKeepBoth) {
  for (llvm::StringRef between : {
           // An LDS read and an LDS write: the first barrier orders them.
           llvm::StringRef("%x = waveasm.ds_read_b32 %a : !waveasm.vreg -> "
                           "!waveasm.vreg"),
           llvm::StringRef("waveasm.ds_write_b32 %a, %a : !waveasm.vreg, "
                           "!waveasm.vreg"),
           // A global load.
           llvm::StringRef("%g = waveasm.buffer_load_dword %srd, %tid, %c1 : "
                           "!waveasm.psreg<4, 4>, !waveasm.pvreg<0>, "
                           "!waveasm.imm<1> -> !waveasm.vreg"),
           // A wait: the second barrier may publish what it waited for.
           llvm::StringRef("waveasm.s_waitcnt_lgkmcnt 0"),
       }) {
    Merged m = merge(between);
    EXPECT_EQ(m.erased, 0u) << between.str();
    EXPECT_EQ(m.barriers, 2u) << between.str();
  }
}

TEST(AdjacentBarriers, RunsOfBarriers) {
  // Three in a row: one left, the last.
  Merged m = merge("waveasm.s_barrier loc(\"middle\")");
  EXPECT_EQ(m.erased, 2u);
  EXPECT_EQ(m.barriers, 1u);
  EXPECT_TRUE(m.laterKept);
}
