//===- CycleModelTest.cpp - in-order issue model --------------------------===//
//
// gfx942 numbers (TargetModel), in issue slots: VALU 1, transcendental 4,
// SALU 1, SMEM 16, VMEM 100, LDS 20, branch/sync 1;
// v_mfma_f32_16x16x16_f16 4 passes (pipe occupancy and SrcC chain latency
// 4), result latency 9 (8 wait states), VALU co-issue 1 slot after it (A/B
// 8 bytes). Every expectation is computed by hand in the comments; `@N` is
// an issue slot.
//
//===----------------------------------------------------------------------===//

#include "CycleModelTestUtils.h"

#include "analysis/Annotations.h"
#include "analysis/CycleModel.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::kModelPrelude;
using waveasm::test::Modeled;
using waveasm::test::ParsedAnalysisProgram;

namespace {

std::string withPrelude(llvm::StringRef body) {
  return (llvm::Twine(kModelPrelude) + body).str();
}

} // namespace

TEST(CycleModel, DependentVALUChain) {
  Modeled m(withPrelude(R"(
    %a = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg loc("a")
    %b = waveasm.v_add_u32 %a, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("b")
    %e = waveasm.v_exp_f32 %b : !waveasm.vreg -> !waveasm.vreg loc("e")
    %d = waveasm.v_add_u32 %e, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("d")
    waveasm.s_endpgm loc("end")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // Pseudo ops take no cycle. a @0; b needs a at 0+1=1 and issues @1; e
  // needs b at 2 @2 (trans, latency 4); d needs e at 2+4=6 but could go @3:
  // stall 3, @6; s_endpgm @7; the clock ends at 8.
  EXPECT_FALSE(
      m.model->getTiming(m.p.program.getBodyBlock().front().getNextNode())
          ->issued);
  EXPECT_EQ(m.at("a").issueCycle, 0);
  EXPECT_EQ(m.at("b").issueCycle, 1);
  EXPECT_EQ(m.at("b").stall, 0);
  EXPECT_EQ(m.at("e").issueCycle, 2);
  EXPECT_EQ(m.at("e").latency, 4);
  EXPECT_EQ(m.at("d").issueCycle, 6);
  EXPECT_EQ(m.at("d").stall, 3);
  EXPECT_EQ(m.at("d").reason, StallReason::Operand);
  EXPECT_EQ(m.at("end").issueCycle, 7);
  EXPECT_EQ(m.model->getTotalCycles(), 8);
  // Critical path: a ends 1, b 2, e 6, d 7.
  EXPECT_EQ(m.model->getCriticalPath(), 7);
}

TEST(CycleModel, LoadWaitUse) {
  Modeled m(withPrelude(R"(
    %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg loc("load")
    %y = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg loc("filler")
    waveasm.s_waitcnt vmcnt(0) loc("wait")
    %z = waveasm.v_add_u32 %x, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("use")
    waveasm.s_endpgm loc("end")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // load @0, data at 100; filler @1; the wait could issue @2 and stalls
  // latency - distance = 100 - 2 = 98, @100; the use @101 without stall.
  EXPECT_EQ(m.at("load").issueCycle, 0);
  EXPECT_EQ(m.at("load").latency, 100);
  EXPECT_EQ(m.at("filler").issueCycle, 1);
  EXPECT_EQ(m.at("wait").stall, 98);
  EXPECT_EQ(m.at("wait").reason, StallReason::WaitCnt);
  EXPECT_EQ(m.at("wait").issueCycle, 100);
  EXPECT_EQ(m.at("use").issueCycle, 101);
  EXPECT_EQ(m.at("use").stall, 0);
  EXPECT_EQ(m.at("end").issueCycle, 102);
  EXPECT_EQ(m.model->getTotalCycles(), 103);
  EXPECT_TRUE(m.model->getUncoveredDependencies().empty());
}

TEST(CycleModel, UncoveredLoadUseStallsAndIsReported) {
  Modeled m(withPrelude(R"(
    %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg loc("load")
    %z = waveasm.v_add_u32 %x, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("use")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // load @0; the use could issue @1, waits for the data until 100: stall 99.
  EXPECT_EQ(m.at("use").issueCycle, 100);
  EXPECT_EQ(m.at("use").stall, 99);
  EXPECT_EQ(m.at("use").reason, StallReason::UncoveredLoad);
  ASSERT_EQ(m.model->getUncoveredDependencies().size(), 1u);
  const UncoveredDependency &dep = m.model->getUncoveredDependencies()[0];
  EXPECT_EQ(dep.user, m.p.op("use"));
  EXPECT_EQ(dep.load, m.p.op("load"));
  EXPECT_EQ(dep.value, m.p.value("load"));
  EXPECT_EQ(dep.stallCycles, 99);
}

TEST(CycleModel, TwoLoadsVmcntOneIsInOrder) {
  Modeled m(withPrelude(R"(
    %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg loc("x")
    %y = waveasm.buffer_load_dword %srd, %tid, %c4 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<4> -> !waveasm.vreg loc("y")
    waveasm.s_waitcnt vmcnt(1) loc("wait1")
    %u = waveasm.v_add_u32 %x, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("use_x")
    waveasm.s_waitcnt vmcnt(0) loc("wait0")
    %w = waveasm.v_add_u32 %y, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("use_y")
    waveasm.s_endpgm loc("end")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // x @0 (data 100), y @1 (data 101). vmcnt(1) @2 waits for the oldest
  // only: until 100, stall 98. use_x @101 (x covered). vmcnt(0) @102: y
  // arrived at 101, no stall. use_y @103. s_endpgm @104.
  EXPECT_EQ(m.at("wait1").issueCycle, 100);
  EXPECT_EQ(m.at("wait1").stall, 98);
  EXPECT_EQ(m.at("use_x").issueCycle, 101);
  EXPECT_EQ(m.at("wait0").issueCycle, 102);
  EXPECT_EQ(m.at("wait0").stall, 0);
  EXPECT_EQ(m.at("use_y").issueCycle, 103);
  EXPECT_EQ(m.model->getTotalCycles(), 105);
  EXPECT_TRUE(m.model->getUncoveredDependencies().empty());
}

TEST(CycleModel, VmcntOneLeavesTheYoungestUncovered) {
  Modeled m(withPrelude(R"(
    %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg loc("x")
    %y = waveasm.buffer_load_dword %srd, %tid, %c4 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<4> -> !waveasm.vreg loc("y")
    waveasm.s_waitcnt vmcnt(1) loc("wait1")
    %w = waveasm.v_add_u32 %y, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("use_y")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // wait1 @100 covers x only; use_y could go @101, y arrived at 101: no
  // stall, but the read is not guaranteed by any wait.
  EXPECT_EQ(m.at("use_y").issueCycle, 101);
  EXPECT_EQ(m.at("use_y").stall, 0);
  ASSERT_EQ(m.model->getUncoveredDependencies().size(), 1u);
  EXPECT_EQ(m.model->getUncoveredDependencies()[0].load, m.p.op("y"));
  EXPECT_EQ(m.model->getUncoveredDependencies()[0].stallCycles, 0);
}

TEST(CycleModel, StoresCountOnVmcntInOrder) {
  // A 10-cycle store makes the in-order rule visible.
  llvm::Expected<TargetModel> target = TargetModel::getWithOverrides(
      TargetKind::gfx942, {"latency.vmem_store=10"});
  ASSERT_TRUE(static_cast<bool>(target));
  Modeled m(withPrelude(R"(
    %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg loc("x")
    waveasm.buffer_store_dword %tid, %srd, %tid : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0> loc("store")
    waveasm.s_waitcnt vmcnt(1) loc("wait1")
    %v = waveasm.v_add_u32 %x, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("use_x")
  )"),
            *target);
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // x @0 completes at 100; the store @1 would be done at 11 but completes
  // in order, at 100. vmcnt(1) @2 needs the oldest (x): until 100.
  EXPECT_EQ(m.at("wait1").issueCycle, 100);
  EXPECT_EQ(m.at("use_x").issueCycle, 101);
  EXPECT_TRUE(m.model->getUncoveredDependencies().empty());
}

TEST(CycleModel, LDSReadFeedsMFMA) {
  Modeled m(withPrelude(R"(
    %acc = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4> loc("acc")
    %f = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2> loc("read")
    waveasm.s_waitcnt lgkmcnt(0) loc("wait")
    %m = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("mfma")
    waveasm.s_endpgm loc("end")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // acc @0; read @1, data at 21; the wait could go @2: stall 19, @21; the
  // MFMA @22 (acc ready at 1); s_endpgm @23 (no memory outstanding).
  EXPECT_EQ(m.at("read").issueCycle, 1);
  EXPECT_EQ(m.at("read").latency, 20);
  EXPECT_EQ(m.at("wait").stall, 19);
  EXPECT_EQ(m.at("mfma").issueCycle, 22);
  EXPECT_EQ(m.at("mfma").stall, 0);
  EXPECT_EQ(m.at("mfma").latency, 9);
  EXPECT_EQ(m.at("end").issueCycle, 23);
  EXPECT_EQ(m.model->getTotalCycles(), 24);
  // Critical path: read ends 0 + 20 (address ready at 0), MFMA 20 + 9.
  EXPECT_EQ(m.model->getCriticalPath(), 29);
}

TEST(CycleModel, LDSReadFeedsMFMAWithoutWait) {
  Modeled m(withPrelude(R"(
    %acc = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %f = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2> loc("read")
    %m = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("mfma")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // read @1, data at 21; the MFMA could go @2: stall 19, uncovered (one
  // report for the operand, read twice).
  EXPECT_EQ(m.at("mfma").issueCycle, 21);
  EXPECT_EQ(m.at("mfma").reason, StallReason::UncoveredLoad);
  ASSERT_EQ(m.model->getUncoveredDependencies().size(), 1u);
  EXPECT_EQ(m.model->getUncoveredDependencies()[0].stallCycles, 19);
}

TEST(CycleModel, LgkmcntMixesInOrderLDSAndOutOfOrderSMEM) {
  // A slow scalar load (64 slots, a scalar-cache miss) so the LDS read
  // returns first.
  llvm::Expected<TargetModel> slowSMEM =
      TargetModel::getWithOverrides(TargetKind::gfx942, {"latency.smem=64"});
  ASSERT_TRUE(bool(slowSMEM));
  Modeled m(withPrelude(R"(
    %k = waveasm.s_load_dwordx2 %srd, %c0 : !waveasm.psreg<4, 4>, !waveasm.imm<0> -> !waveasm.sreg<2, 2> loc("smem")
    %f = waveasm.ds_read_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg loc("lds")
    waveasm.s_waitcnt lgkmcnt(1) loc("wait1")
    %u = waveasm.v_add_u32 %f, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("use_lds")
    waveasm.s_waitcnt lgkmcnt(0) loc("wait0")
    %x, %scc = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg<2, 2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc loc("use_smem")
  )"),
            *slowSMEM);
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // s_load @0 (data 64), ds_read @1 (data 21). lgkmcnt(1) @2: two
  // outstanding, so it waits for the first completion, the LDS read at 21
  // (stall 19). It guarantees neither: the one op still allowed
  // outstanding could be the read (SMEM returns out of order). use_lds @22
  // finds the data there (no stall) but is reported. lgkmcnt(0) @23 waits
  // for the s_load until 64 (stall 41); use_smem @65 is covered.
  EXPECT_EQ(m.at("wait1").issueCycle, 21);
  EXPECT_EQ(m.at("wait1").stall, 19);
  EXPECT_EQ(m.at("use_lds").issueCycle, 22);
  EXPECT_EQ(m.at("use_lds").stall, 0);
  EXPECT_EQ(m.at("wait0").issueCycle, 64);
  EXPECT_EQ(m.at("wait0").stall, 41);
  EXPECT_EQ(m.at("use_smem").issueCycle, 65);
  ASSERT_EQ(m.model->getUncoveredDependencies().size(), 1u);
  EXPECT_EQ(m.model->getUncoveredDependencies()[0].user, m.p.op("use_lds"));
  EXPECT_EQ(m.model->getUncoveredDependencies()[0].load, m.p.op("lds"));
}

TEST(CycleModel, LgkmcntOneCoversOlderLDSReads) {
  Modeled m(withPrelude(R"(
    %f = waveasm.ds_read_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg loc("first")
    %g = waveasm.ds_read_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg loc("second")
    waveasm.s_waitcnt lgkmcnt(1) loc("wait1")
    %u = waveasm.v_add_u32 %f, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("use")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // Reads @0 and @1 (data 20, 21, in order); lgkmcnt(1) @2 waits for the
  // older one until 20 (stall 18) and covers it; use @21.
  EXPECT_EQ(m.at("wait1").issueCycle, 20);
  EXPECT_EQ(m.at("use").issueCycle, 21);
  EXPECT_TRUE(m.model->getUncoveredDependencies().empty());
}

const char *kTwoAccumulators = R"(
    %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2> loc("a")
    %z0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4> loc("z0")
    %z1 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4> loc("z1")
)";

TEST(CycleModel, IndependentMFMAsShareThePipe) {
  Modeled m(withPrelude(std::string(kTwoAccumulators) + R"(
    %m0 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %z0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("m0")
    %m1 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %z1 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("m1")
    waveasm.s_endpgm loc("end")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // a @0, z0 @1, z1 @2; m0 @3 holds the pipe for its 4 passes, until 7;
  // m1 could go @4: stall 3 for the pipe, @7; s_endpgm @8.
  EXPECT_EQ(m.at("m0").issueCycle, 3);
  EXPECT_EQ(m.at("m1").issueCycle, 7);
  EXPECT_EQ(m.at("m1").stall, 3);
  EXPECT_EQ(m.at("m1").reason, StallReason::MFMAPipe);
  EXPECT_EQ(m.model->getTotalCycles(), 9);
  // Critical path: both MFMAs start at 1 (operands ready), end at 1 + 9.
  EXPECT_EQ(m.model->getCriticalPath(), 10);
}

TEST(CycleModel, AccumulatorChain) {
  Modeled m(withPrelude(std::string(kTwoAccumulators) + R"(
    %m0 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %z0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("m0")
    %m1 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %m0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("m1")
    waveasm.s_endpgm loc("end")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // m0 @3; m1 reads its result as SrcC, forwarded after the 4 passes: at
  // 7, when the pipe is free too: stall 3, @7; s_endpgm @8.
  EXPECT_EQ(m.at("m1").issueCycle, 7);
  EXPECT_EQ(m.at("m1").stall, 3);
  EXPECT_EQ(m.at("m1").reason, StallReason::Operand);
  EXPECT_EQ(m.model->getTotalCycles(), 9);
  // Critical path: m0 starts 1, m1 starts 1 + 4 = 5, ends 5 + 9 = 14.
  EXPECT_EQ(m.model->getCriticalPath(), 14);
}

TEST(CycleModel, MFMAResultAsSrcAWaitsForLatencyOnly) {
  Modeled m(withPrelude(std::string(kTwoAccumulators) + R"(
    %m0 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %z0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("m0")
    %m1 = waveasm.v_mfma_f32_16x16x16_f16 %m0, %a, %z1 : !waveasm.vreg<4, 4>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("m1")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // m0 @3, pipe free at 7, result readable as SrcA at 3 + 8 wait states +
  // 1 = 12 (not forwarded like SrcC): m1 @12.
  EXPECT_EQ(m.at("m1").issueCycle, 12);
  EXPECT_EQ(m.at("m1").reason, StallReason::Operand);
}

TEST(CycleModel, VALUWaitsOutTheCoIssueGapAfterAnSGEMM) {
  Modeled m(withPrelude(R"(
    %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg loc("a")
    %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4> loc("z")
    %m = waveasm.v_mfma_f32_16x16x4_f32 %a, %a, %z : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("mfma")
    %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg loc("salu")
    %v = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg loc("valu")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // a @0, z @1, the f32 MFMA (SGEMM, 8 passes) @2: VALU ops of the wave
  // wait passes + 2 = 10 slots, until 12. The SALU op is not held @3; the
  // independent v_add could go @4: stall 8, @12.
  EXPECT_EQ(m.at("mfma").issueCycle, 2);
  EXPECT_EQ(m.at("salu").issueCycle, 3);
  EXPECT_EQ(m.at("valu").issueCycle, 12);
  EXPECT_EQ(m.at("valu").stall, 8);
  EXPECT_EQ(m.at("valu").reason, StallReason::MFMACoIssue);
}

TEST(CycleModel, VALUIssuesRightAfterAnXDLMFMA) {
  Modeled m(withPrelude(std::string(kTwoAccumulators) + R"(
    %m0 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %z0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("m0")
    %v = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg loc("valu")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // f16 sources of 8 bytes per lane: 1 + 8 / 16 = 1 slot, the next one.
  EXPECT_EQ(m.at("m0").issueCycle, 3);
  EXPECT_EQ(m.at("valu").issueCycle, 4);
  EXPECT_EQ(m.at("valu").stall, 0);
}

TEST(CycleModel, SNopCostsNPlusOne) {
  Modeled m(withPrelude(R"(
    %a = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg loc("a")
    waveasm.s_nop 3 loc("nop")
    %b = waveasm.v_add_u32 %a, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("b")
    waveasm.s_endpgm loc("end")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // a @0; s_nop 3 @1 holds issue 4 cycles; b @5; s_endpgm @6.
  EXPECT_EQ(m.at("nop").issueCycle, 1);
  EXPECT_EQ(m.at("nop").issueCycles, 4);
  EXPECT_EQ(m.at("b").issueCycle, 5);
  EXPECT_EQ(m.at("b").stall, 0);
  EXPECT_EQ(m.model->getTotalCycles(), 7);
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

const char *kPrefetchLoop = R"(
  %first = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg loc("first")
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %i_end, %last = waveasm.loop (%i = %i0, %cur = %first) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    waveasm.s_waitcnt vmcnt(0) loc("wait")
    %v = waveasm.v_add_u32 %cur, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("use")
    %next = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg loc("prefetch")
    %i_n, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %next) : !waveasm.sreg, !waveasm.vreg loc("cond")
  } loc("loop")
  waveasm.s_endpgm loc("end")
)";

TEST(CycleModel, LoopSteadyStateDiffersFromFirstIteration) {
  Modeled m(withPrelude(kPrefetchLoop));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  ASSERT_EQ(m.model->getLoops().size(), 1u);
  const LoopTiming &loop = m.model->getLoops()[0];
  // Trip count: i goes 0 -> 1, 2, 3, 4 and the body runs while i_n < 4:
  // 4 iterations, inferred from the s_cmp_lt_u32 / s_add_u32 shape.
  EXPECT_EQ(loop.tripCount.count, 4);
  EXPECT_EQ(loop.tripCount.source, TripCountSource::Inferred);
  // In isolation, iteration 1 (inits ready, nothing outstanding): wait @0,
  // use @1, prefetch @2 (data 102), s_add @3, s_cmp @4, condition @5: 6.
  EXPECT_EQ(loop.firstIterationCycles, 6);
  // Iteration 2 from 6: the wait stalls for the prefetch until 102 (96),
  // use @103, prefetch @104, s_add @105, s_cmp @106, condition @107: ends
  // at 108, 102 cycles.
  EXPECT_EQ(loop.steadyStateCycles, 102);
  const OpTiming *wait = m.model->getSteadyTiming(m.p.op("wait"));
  ASSERT_TRUE(wait);
  EXPECT_EQ(wait->stall, 96);
  EXPECT_EQ(wait->issueCycle, 96); // 102 - 6, relative to the iteration
  EXPECT_EQ(m.model->getSteadyTiming(m.p.op("use"))->issueCycle, 97);
  EXPECT_FALSE(m.model->getSteadyTiming(m.p.op("first")));
  // Iteration 3 reads iteration 2's prefetch the same way: 102 again, so
  // the model stops there (prefetch distance 1: at least 3 iterations).
  EXPECT_EQ(loop.prefetchDistance, 1);
  EXPECT_EQ(loop.steadyIterations, 3);
  // Resources per iteration: 6 issue slots as compiled, 5 without the wait
  // (LoopBounds.h); no unit is busier (SALU 2). The only recurrence is the
  // counter's s_add (1).
  EXPECT_EQ(loop.issueCycles, 6);
  EXPECT_EQ(loop.resourceBoundCycles, 5);
  EXPECT_EQ(loop.recurrenceBoundCycles, 1);
  EXPECT_EQ(loop.lowerBoundCycles, 5);
  EXPECT_EQ(loop.busiestUnit, "issue");
  EXPECT_EQ(loop.boundKind, "issue");
  EXPECT_EQ(loop.unitCycles[static_cast<unsigned>(ExecUnit::SALU)], 2);
  // Critical path of one iteration: the prefetch, 100.
  EXPECT_EQ(loop.criticalPath, 100);

  // Program timeline: first @0 (data 100), s_mov @1, loop label at 2, wait
  // @2 stalls 98 until 100, use @101, prefetch @102 (data 202), s_add @103,
  // s_cmp @104, condition @105; then 3 more iterations of 102 cycles: clock
  // 106 + 306 = 412, the prefetch shifted to data at 508. s_endpgm waits for
  // it: stall 96, @508; total 509.
  EXPECT_EQ(m.at("wait").issueCycle, 100);
  EXPECT_EQ(m.at("wait").stall, 98);
  EXPECT_EQ(m.at("prefetch").issueCycle, 102);
  EXPECT_EQ(m.at("cond").issueCycle, 105);
  EXPECT_EQ(m.at("end").stall, 96);
  EXPECT_EQ(m.at("end").issueCycle, 508);
  EXPECT_EQ(m.model->getTotalCycles(), 509);
  // Program critical path: first 100, use 101.
  EXPECT_EQ(m.model->getCriticalPath(), 101);
  EXPECT_TRUE(m.model->getUncoveredDependencies().empty());
}

TEST(CycleModel, LoopCarriedAccumulatorChain) {
  Modeled m(withPrelude(R"(
    %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
    %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %i_end, %acc_end = waveasm.loop (%i = %i0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>) {
      %m = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("mfma")
      %i_n, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %i_n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc iter_args(%i_n, %m) : !waveasm.sreg, !waveasm.vreg<4, 4>
    } {trip_count = 10 : i64}
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  const LoopTiming &loop = m.model->getLoops()[0];
  EXPECT_EQ(loop.tripCount.count, 10);
  EXPECT_EQ(loop.tripCount.source, TripCountSource::Attribute);
  // Isolated iteration 1: MFMA @0 (pipe and SrcC forward at 4), s_add @1,
  // s_cmp @2, condition @3: 4 slots. Iteration 2: the MFMA reads the
  // carried accumulator as SrcC at 4, when the pipe frees: @4, no stall;
  // s_add 5, s_cmp 6, condition 7: ends at 8, 4 slots.
  EXPECT_EQ(loop.firstIterationCycles, 4);
  EXPECT_EQ(loop.steadyStateCycles, 4);
  EXPECT_EQ(m.model->getSteadyTiming(m.p.op("mfma"))->stall, 0);
  // The MFMA pipe (4 passes) bounds the iteration at 4, as do the 4 issue
  // slots; the critical path of one iteration is the MFMA's result latency.
  EXPECT_EQ(loop.lowerBoundCycles, 4);
  EXPECT_EQ(loop.busiestUnit, "MFMA");
  EXPECT_EQ(loop.criticalPath, 9);
  // Program: a @0, z @1, i0 @2; MFMA @3 (z ready at 2), s_add 4, s_cmp 5,
  // condition 6 -> clock 7, plus 9 * 4: 43.
  EXPECT_EQ(m.model->getTotalCycles(), 43);
}

TEST(CycleModel, NestedLoopUsesInnerSteadyState) {
  Modeled m(withPrelude(R"(
    %j0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %j_end = waveasm.loop (%j = %j0) : (!waveasm.sreg) -> !waveasm.sreg {
      %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
      %i_end = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
        %v = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
        %i_n, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
        %more = waveasm.s_cmp_lt_u32 %i_n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
        waveasm.condition %more : !waveasm.scc iter_args(%i_n) : !waveasm.sreg
      } loc("inner")
      %j_n, %scc2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %again = waveasm.s_cmp_lt_u32 %j_n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
      waveasm.condition %again : !waveasm.scc iter_args(%j_n) : !waveasm.sreg
    } loc("outer")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  ASSERT_EQ(m.model->getLoops().size(), 2u);
  const LoopTiming *outer =
      m.model->getLoopTiming(cast<LoopOp>(m.p.op("outer")));
  const LoopTiming *inner =
      m.model->getLoopTiming(cast<LoopOp>(m.p.op("inner")));
  // Inner: 4 instructions, no stalls: 4 cycles per iteration, 4 trips.
  EXPECT_EQ(inner->steadyStateCycles, 4);
  EXPECT_EQ(inner->tripCount.count, 4);
  // Outer iteration: s_mov, inner first iteration 4 + 3 * 4, s_add, s_cmp,
  // condition: 1 + 16 + 3 = 20.
  EXPECT_EQ(outer->steadyStateCycles, 20);
  // Outer resources: issue 1 + 4 * 4 + 3 = 20; VALU 4.
  EXPECT_EQ(outer->issueCycles, 20);
  EXPECT_EQ(outer->unitCycles[static_cast<unsigned>(ExecUnit::VALU)], 4);
  // Program: j0 @0, then 4 outer iterations of 20: 1 + 80.
  EXPECT_EQ(m.model->getTotalCycles(), 81);
}

TEST(CycleModel, IfContinuesFromTheLongerRegion) {
  Modeled m(withPrelude(R"(
    %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %cond = waveasm.s_cmp_eq_u32 %s, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc
    %r = waveasm.if %cond : !waveasm.scc -> !waveasm.vreg {
      %t = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg loc("t")
      waveasm.yield %t : !waveasm.vreg
    } else {
      waveasm.s_nop 5
      %e = waveasm.v_exp_f32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg loc("e")
      waveasm.yield %e : !waveasm.vreg
    } loc("if")
    %u = waveasm.v_add_u32 %r, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("u")
  )"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  // s_mov @0, s_cmp @1, if (s_cbranch) @2. Then: t @3, ends at 4. Else:
  // s_nop 5 @3 (6 slots), e @9 (ready 13), ends at 10: the else region is
  // longer, its yield gives r. u could go @10, waits for e: @13.
  EXPECT_EQ(m.at("if").issueCycle, 2);
  EXPECT_EQ(m.at("t").issueCycle, 3);
  EXPECT_EQ(m.at("e").issueCycle, 9);
  EXPECT_EQ(m.at("u").issueCycle, 13);
  EXPECT_EQ(m.at("u").stall, 3);
  EXPECT_EQ(m.model->getTotalCycles(), 14);
}

//===----------------------------------------------------------------------===//
// Annotations: liveness and timing per op
//===----------------------------------------------------------------------===//

TEST(Annotations, CombineTimingAndRegisters) {
  ParsedAnalysisProgram p(withPrelude(kPrefetchLoop));
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  ProgramAnnotations a(p.program);
  // Op numbers: srd 0, tid 1, constants 2-4, first 5, i0 6, loop 7, wait 8,
  // use 9, prefetch 10, s_add 11, s_cmp 12, condition 13, s_endpgm 14.
  // Ranges: srd [0,13] and tid [1,13] (read inside the loop); the carried
  // vector block {first, cur, next, last} [5,13]; the counter block
  // {i0, i, i_n, i_end} [6,13]; `use`'s result is never read: [9,9].
  const InstAnnotation *use = a.lookup(p.op("use"));
  ASSERT_TRUE(use);
  EXPECT_TRUE(use->issued);
  EXPECT_EQ(use->unit, ExecUnit::VALU);
  EXPECT_EQ(use->latency, 1);
  EXPECT_EQ(use->issueCycle, 101); // as in LoopSteadyStateDiffers...
  EXPECT_EQ(use->stall, 0);
  EXPECT_TRUE(use->inLoop);
  EXPECT_EQ(use->steadyIssueCycle, 97);
  // After `use`: tid + the vector block = 2 VGPRs (its own result is dead);
  // srd + the counter = 5 SGPRs. While it issues, its result counts too.
  EXPECT_EQ(use->liveAfter.vgprs(), 2);
  EXPECT_EQ(use->liveAfter.sgprs(), 5);
  EXPECT_EQ(use->pressure.vgprs(), 3);
  const InstAnnotation *wait = a.lookup(p.op("wait"));
  EXPECT_EQ(wait->unit, ExecUnit::Sync);
  EXPECT_EQ(wait->stallReason, StallReason::WaitCnt);
  EXPECT_EQ(wait->steadyStall, 96);
  EXPECT_FALSE(a.lookup(p.op("first"))->inLoop);
  EXPECT_EQ(a.lookup(p.program), nullptr);
  EXPECT_EQ(a.getTotalCycles(), 509);
  EXPECT_EQ(a.getPeak(RegClass::VGPR).regs, 3);
  // 3 VGPRs, 5 SGPRs (-> 16), no LDS: 8 waves per SIMD.
  EXPECT_EQ(a.getOccupancy(), 8);
}
