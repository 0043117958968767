//===- OpFactsTest.cpp - per-op timing facts ------------------------------===//
//
// computeOpFacts remembers an MFMA's TargetModel figures per op name and
// A/B operand sizes (OpFacts.cpp): every MFMA's facts must still be the
// figures TargetModel gives that op.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"
#include "MlirInputs.h"

#include "analysis/OpFacts.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;

namespace {

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

} // namespace

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
  ProgramIndex index(p.program);
  std::vector<OpFacts> facts =
      computeOpFacts(index, TargetModel::get(TargetKind::gfx942));
  auto at = [&](llvm::StringRef name) {
    return facts[*index.lookup(p.op(name))];
  };
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
  ProgramIndex index(p.program);
  std::vector<OpFacts> facts =
      computeOpFacts(index, TargetModel::get(TargetKind::gfx950));
  auto at = [&](llvm::StringRef name) {
    return facts[*index.lookup(p.op(name))];
  };
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
