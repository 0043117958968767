//===- LoopBoundsProgramTest.cpp - a lower bound of a whole program -------===//
//
// analysis/LoopBoundsProgram.h on hand-computed programs (gfx942, issue
// slots: VMEM 100, VALU 1, SALU 1, one slot each), where the cycle model's
// in-order schedule is the best one, so the bound is tight; a short counted
// loop whose bound pays the load latency once and then the trips; and
// every example: the bound never exceeds the model's est_cycles.
//
//===----------------------------------------------------------------------===//

#include "CycleModelTestUtils.h"
#include "TestUtils.h"

#include "analysis/CycleModel.h"
#include "analysis/LoopBoundsProgram.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::kModelPrelude;
using waveasm::test::Modeled;

namespace {

ProgramBound boundOf(const Modeled &m,
                     int64_t maxInstances = kMaxTracedInstances) {
  return computeProgramBound(*m.index, m.model->getOpFacts(), maxInstances);
}

} // namespace

// One chain: load (issued at 0, data at 100), v_add (100, ready 101),
// store (101), s_endpgm waiting for the store's 100: it issues at 201, the
// program ends at 202. The critical path is the same 202: no schedule of
// these ops is faster, and the bound is tight.
TEST(ProgramBound, OneChainIsTheCriticalPath) {
  Modeled m((llvm::Twine(kModelPrelude) + R"(
  %v = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %w = waveasm.v_add_u32 %v, %v : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %w, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
)")
                .str());
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  EXPECT_EQ(m.model->getTotalCycles(), 202);
  ProgramBound bound = boundOf(m);
  EXPECT_EQ(bound.criticalPath, 202);
  EXPECT_EQ(bound.cycles, 202);
  EXPECT_EQ(bound.kind, "critical path");
  EXPECT_EQ(bound.instances, 4);
  EXPECT_FALSE(bound.truncated);
}

// Three loads a chain reads: a and b feed the first v_add, c the second.
// The longest path is b -> v_add -> v_add -> store -> end, 203 from b's
// issue, but the three loads share the issue stage: whichever issues last
// issues at 2 or later, and from any of them 201 or more remain (c: 100 +
// 1 + the store's 100 + the end's slot). So no schedule ends before
// 0 + 3 + 201 = 204 (the issue relaxation over {a, b, c}), and the model's
// in-order schedule does: loads at 0, 1, 2, v_adds at 101 and 102, the
// store at 103, s_endpgm at 203.
TEST(ProgramBound, LoadsSharingTheIssueStageBeatTheCriticalPath) {
  Modeled m((llvm::Twine(kModelPrelude) + R"(
  %a = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 4 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %c = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 8 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %s1 = waveasm.v_add_u32 %a, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %s2 = waveasm.v_add_u32 %s1, %c : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %s2, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
)")
                .str());
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  EXPECT_EQ(m.model->getTotalCycles(), 204);
  ProgramBound bound = boundOf(m);
  EXPECT_EQ(bound.criticalPath, 203);
  EXPECT_EQ(bound.cycles, 204);
  EXPECT_EQ(bound.kind, "issue");
}

// A counted loop of 4 trips (inferred: i from 0 while i + 1 < 4), each
// loading a dword and adding it to the carried sum, then the sum stored.
// Per iteration the loop's own bound is its 5 issue slots (load, v_add,
// s_add, s_cmp, condition): 4 x 5 = 20 says nothing of the latency. Traced,
// the last load waits for 4 counter increments (i0's s_mov at 0, ready 1,
// then s_add after s_add: the 4th load issues at 4 at the earliest), its
// data at 104, the last v_add at 104, the store at 105 and the end at
// 105 + 100 + 1 = 206, a path no schedule shortens.
TEST(ProgramBound, ShortCountedLoopPaysTheLatencyOnceAndItsTrips) {
  Modeled m((llvm::Twine(kModelPrelude) + R"(
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %p0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %i_end, %sum = waveasm.loop (%i = %i0, %acc = %p0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %q = waveasm.buffer_load_dword %srd, %tid, %i : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %acc_n = waveasm.v_add_u32 %q, %acc : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %i_n, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %acc_n) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %sum, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
)")
                .str());
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  ASSERT_EQ(m.loop().tripCount.count, 4);
  EXPECT_EQ(m.loop().lowerBoundCycles, 5);
  ProgramBound bound = boundOf(m);
  // s_mov, v_mov, 4 x 5 in the loop, the store and s_endpgm.
  EXPECT_EQ(bound.instances, 24);
  EXPECT_EQ(bound.criticalPath, 206);
  EXPECT_GE(bound.cycles, 206);
  EXPECT_LE(bound.cycles, m.model->getTotalCycles());
  // The trace cut after the first iteration leaves a smaller bound, never a
  // larger one.
  ProgramBound cut = boundOf(m, 7);
  EXPECT_TRUE(cut.truncated);
  EXPECT_EQ(cut.instances, 7);
  EXPECT_LE(cut.cycles, bound.cycles);
}

// Every example as written: no schedule beats the bound, the model's
// in-order one included.
TEST(ProgramBound, NeverAboveTheModelOnTheExamples) {
  for (const std::string &path : waveasm::test::exampleKernelPaths()) {
    std::string text = waveasm::test::readFileText(path);
    auto p = waveasm::test::ParsedAnalysisProgram::fromFile(text);
    if (!p->module)
      continue; // invalid_* examples
    for (ProgramOp program : p->module->getOps<ProgramOp>()) {
      ProgramIndex index(program);
      CycleModel model(index, TargetModel::get(program.getTargetKind()));
      ProgramBound bound = computeProgramBound(index, model.getOpFacts());
      EXPECT_GT(bound.cycles, 0) << path;
      EXPECT_LE(bound.cycles, model.getTotalCycles()) << path;
    }
  }
}
