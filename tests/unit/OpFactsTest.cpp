//===- OpFactsTest.cpp - per-op timing facts ------------------------------===//
//
// computeOpFacts remembers an MFMA's TargetModel figures per op name and
// A/B operand sizes (OpFacts.cpp): every MFMA's facts must still be the
// figures TargetModel gives that op. It reads the rest of an op's class
// from a per-thread table: every op's facts must still be what IssueRules.h
// and TargetModel answer for that op.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"
#include "MlirInputs.h"

#include "analysis/IssueRules.h"
#include "analysis/OpFacts.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;

namespace {

/// The facts of a parsed program's ops, looked up by their loc names.
class FactsByName {
public:
  FactsByName(waveasm::test::ParsedAnalysisProgram &p, TargetKind target)
      : p(p), index(p.program),
        facts(computeOpFacts(index, TargetModel::get(target))) {}
  const OpFacts &operator()(llvm::StringRef name) const {
    return facts[*index.lookup(p.op(name))];
  }

private:
  waveasm::test::ParsedAnalysisProgram &p;
  ProgramIndex index;
  std::vector<OpFacts> facts;
};

/// Checks every MFMA of `module`; returns how many there were.
unsigned checkMFMAFacts(ModuleOp module, const std::string &what) {
  unsigned mfmas = 0;
  for (auto program : module.getOps<ProgramOp>()) {
    ProgramIndex index(program);
    const TargetModel &target = TargetModel::get(program.getTargetKind());
    std::vector<OpFacts> facts = computeOpFacts(index, target);
    for (unsigned idx = 0; idx < index.getNumOps(); ++idx) {
      if (facts[idx].unit != ExecUnit::MFMA)
        continue;
      Operation *op = index.getOp(idx);
      EXPECT_EQ(facts[idx].latency, target.getOpLatency(op)) << what;
      EXPECT_EQ(facts[idx].occupancy, target.getUnitOccupancy(op)) << what;
      EXPECT_EQ(facts[idx].chainLatency, target.getMFMAChainLatency(op))
          << what;
      EXPECT_EQ(facts[idx].coIssueDelay, target.getValuCoIssueDelay(op))
          << what;
      ++mfmas;
    }
  }
  return mfmas;
}

/// Checks every op of `module` against the rules the facts stand for;
/// returns how many ops there were.
unsigned checkEveryOpsFacts(ModuleOp module, const std::string &what) {
  unsigned ops = 0;
  for (auto program : module.getOps<ProgramOp>()) {
    ProgramIndex index(program);
    const TargetModel &target = TargetModel::get(program.getTargetKind());
    std::vector<OpFacts> facts = computeOpFacts(index, target);
    for (unsigned idx = 0; idx < index.getNumOps(); ++idx, ++ops) {
      Operation *op = index.getOp(idx);
      const OpFacts &f = facts[idx];
      std::string where = what + ": " + op->getName().getStringRef().str();
      OpShape shape = isa<LoopOp>(op)        ? OpShape::Loop
                      : isa<IfOp>(op)        ? OpShape::If
                      : isa<ConditionOp>(op) ? OpShape::Condition
                                             : OpShape::Plain;
      EXPECT_EQ(f.shape, shape) << where;
      EXPECT_EQ(f.issued, takesIssueSlot(op)) << where;
      EXPECT_EQ(f.issueCycles, getIssueCycles(op)) << where;
      EXPECT_EQ(f.numRead, getNumReadOperands(op)) << where;
      WaitThresholds wait = getWaitThresholds(op);
      EXPECT_EQ(f.vmWait, wait.vmcnt ? int32_t(*wait.vmcnt) : -1) << where;
      EXPECT_EQ(f.lgkmWait, wait.lgkmcnt ? int32_t(*wait.lgkmcnt) : -1)
          << where;
      InstFacts info = getInstFacts(op);
      EXPECT_EQ(f.unit, info.unit) << where;
      EXPECT_EQ(f.counter, info.waitCounter) << where;
      if (!info.hasInfo)
        continue;
      EXPECT_EQ(f.latency, target.getOpLatency(op)) << where;
      EXPECT_EQ(f.occupancy, target.getUnitOccupancy(op)) << where;
      EXPECT_EQ(f.tied, info.unit == ExecUnit::MFMA ? info.tiedOperand : -1)
          << where;
    }
  }
  return ops;
}

} // namespace

// Waits, nops (s_nop 3 holds the issue stage 4 cycles), a loop, an if and
// its condition's operand count: the facts of a class are read once, the
// counts of each op every time.
TEST(OpFacts, PerOpFactsOfOneClassDiffer) {
  waveasm::test::ParsedAnalysisProgram p(R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %v = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_nop 0 loc("nop0")
  waveasm.s_nop 3 loc("nop3")
  waveasm.s_waitcnt_vmcnt 2 loc("vm2")
  waveasm.s_waitcnt_vmcnt 0 loc("vm0")
  waveasm.s_waitcnt_lgkmcnt 1 loc("lgkm1")
  waveasm.s_endpgm
  )");
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  EXPECT_EQ(checkEveryOpsFacts(*p.module, "small"), 8u);
  FactsByName at(p, TargetKind::gfx942);
  EXPECT_EQ(at("nop0").issueCycles, 1);
  EXPECT_EQ(at("nop3").issueCycles, 4);
  EXPECT_EQ(at("vm2").vmWait, 2);
  EXPECT_EQ(at("vm0").vmWait, 0);
  EXPECT_EQ(at("lgkm1").lgkmWait, 1);
  EXPECT_EQ(at("lgkm1").vmWait, -1);
}

// Every op of every input and pipelined example (loops, ifs, conditions,
// waits, nops the hazard pass inserted).
TEST(OpFacts, EveryOpsFactsAreTheIssueRulesOnEveryInput) {
  unsigned ops = 0;
  waveasm::test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        ops += checkEveryOpsFacts(module, name);
      });
  EXPECT_GT(ops, 10000u);
}

// One MFMA form with A/B operands of two sizes (co-issue delay 1 + 8/16 and
// 1 + 16/16), in virtual and physical registers.
TEST(OpFacts, MFMAFactsFollowTheOperandSizes) {
  waveasm::test::ParsedAnalysisProgram p(R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %w = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %pa = waveasm.precolored.vreg 8, 2 : !waveasm.pvreg<8, 2>
  %m0 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %z : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("narrow")
  %m1 = waveasm.v_mfma_f32_16x16x16_f16 %w, %w, %m0 : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("wide")
  %m2 = waveasm.v_mfma_f32_16x16x16_f16 %pa, %pa, %m1 : !waveasm.pvreg<8, 2>, !waveasm.pvreg<8, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("physical")
  %m3 = waveasm.v_mfma_f32_16x16x16_f16 %a, %w, %m2 : !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("mixed")
  waveasm.s_endpgm
  )");
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  EXPECT_EQ(checkMFMAFacts(*p.module, "sizes"), 4u);
  FactsByName at(p, TargetKind::gfx942);
  EXPECT_EQ(at("narrow").coIssueDelay, 1);
  EXPECT_EQ(at("wide").coIssueDelay, 2);
  EXPECT_EQ(at("physical").coIssueDelay, 1);
  EXPECT_EQ(at("mixed").coIssueDelay, 2);
}

// The scaled f8f6f4 MFMA runs fp6/fp4 operands at twice the fp8 rate: its
// passes (occupancy, chain latency, read latency) follow its format
// attributes, not only its name and sizes.
TEST(OpFacts, ScaledMFMAFactsFollowTheFormats) {
  waveasm::test::ParsedAnalysisProgram p(R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %s = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %m0 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %a, %a, %z, %s, %s {blgp = 0 : i32, cbsz = 0 : i32} : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4> loc("fp8")
  %m1 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %a, %a, %m0, %s, %s {blgp = 4 : i32, cbsz = 4 : i32} : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4> loc("fp4")
  %m2 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %a, %a, %m1, %s, %s {blgp = 0 : i32, cbsz = 0 : i32} : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4> loc("fp8 again")
  waveasm.s_endpgm
  )",
                                         "gfx950");
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  EXPECT_EQ(checkMFMAFacts(*p.module, "formats"), 3u);
  FactsByName at(p, TargetKind::gfx950);
  EXPECT_EQ(at("fp4").occupancy * 2, at("fp8").occupancy);
  EXPECT_EQ(at("fp8 again").occupancy, at("fp8").occupancy);
}

// Every MFMA of every input and pipelined example.
TEST(OpFacts, MFMAFactsAreTheTargetModelsOnEveryInput) {
  unsigned mfmas = 0;
  waveasm::test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        mfmas += checkMFMAFacts(module, name);
      });
  EXPECT_GT(mfmas, 1000u);
}
