//===- TargetModelTest.cpp - per-target tables and overrides --------------===//

#include "TestUtils.h"

#include "analysis/MFMATable.h"
#include "analysis/TargetModel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace waveasm;

TEST(TargetModel, VGPROccupancyTable) {
  const TargetModel &m = TargetModel::get(TargetKind::gfx942);
  // SCHEDULING-FACTS.md: <=64 -> 8, 65-72 -> 7, 73-80 -> 6, 81-96 -> 5,
  // 97-128 -> 4, 129-168 -> 3, 169-256 -> 2 (8-register granules).
  EXPECT_EQ(m.getOccupancy(64, 0, 0), 8);
  EXPECT_EQ(m.getOccupancy(65, 0, 0), 7);
  EXPECT_EQ(m.getOccupancy(80, 0, 0), 6);
  EXPECT_EQ(m.getOccupancy(84, 0, 0), 5);
  EXPECT_EQ(m.getOccupancy(128, 0, 0), 4);
  EXPECT_EQ(m.getOccupancy(168, 0, 0), 3);
  EXPECT_EQ(m.getOccupancy(256, 0, 0), 2);
}

TEST(TargetModel, VGPRsAndAGPRsShareOneFile) {
  // gfx90a and later: AGPRs start at accum_offset (VGPRs rounded up to 4)
  // and the table applies to the sum (SCHEDULING-FACTS.md "Occupancy").
  for (TargetKind kind : {TargetKind::gfx942, TargetKind::gfx950}) {
    const TargetModel &m = TargetModel::get(kind);
    EXPECT_EQ(m.getVGPRFileUse(16, 100), 116);
    EXPECT_EQ(m.getVGPRFileUse(17, 8), 28);
    EXPECT_EQ(m.getVGPRFileUse(0, 8), 12);
    EXPECT_EQ(m.getVGPRFileUse(40, 0), 40);
    EXPECT_EQ(m.getOccupancy(16, 100, 0), 4); // 116 -> 120
    EXPECT_EQ(m.getOccupancy(60, 0, 0), 8);
    EXPECT_EQ(m.getOccupancy(60, 8, 0), 7);    // 68 -> 72
    EXPECT_EQ(m.getOccupancy(100, 100, 0), 2); // 204: each alone gives 4
    EXPECT_EQ(m.getOccupancy(256, 256, 0), 1);
  }
  // No AGPRs on gfx1250: VGPRs alone.
  EXPECT_EQ(TargetModel::get(TargetKind::gfx1250).getVGPRFileUse(40, 8), 40);
}

TEST(TargetModel, BreakpointNamesTheNextWave) {
  const TargetModel &m = TargetModel::get(TargetKind::gfx942);
  auto next = m.getNextVGPRBreakpoint(84); // 5 waves now
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->first, 80); // free 4 VGPRs...
  EXPECT_EQ(next->second, 6); // ...to reach 6 waves
  EXPECT_FALSE(m.getNextVGPRBreakpoint(40).has_value());
}

TEST(TargetModel, LDSLimitCountsWavesPerWorkgroup) {
  const TargetModel &m = TargetModel::get(TargetKind::gfx942);
  // 64 KiB per CU, 12 KiB per workgroup: 5 workgroups per CU. With 4 waves
  // each, 20 waves over 4 SIMDs: 5 per SIMD; with 1 wave each, 1 per SIMD.
  EXPECT_EQ(m.getOccupancy(16, 0, 0, 12288, 4), 5);
  EXPECT_EQ(m.getOccupancy(16, 0, 0, 12288, 1), 1);
  // gfx950 has 160 KiB of LDS per CU.
  const TargetModel &m950 = TargetModel::get(TargetKind::gfx950);
  EXPECT_EQ(m950.getOccupancy(16, 0, 0, 12288, 4), 8);
}

TEST(TargetModel, OverridesByName) {
  llvm::Expected<TargetModel> m = TargetModel::getWithOverrides(
      TargetKind::gfx942, {"latency.vmem_load=120", "hazard.trans_to_valu=2"});
  ASSERT_TRUE(static_cast<bool>(m));
  EXPECT_EQ(m->getLatency(LatencyClass::VMEMLoad), 120);
  EXPECT_EQ(m->getHazardWaitStates(HazardKind::TransToValu), 2);
  // The shared table is untouched.
  EXPECT_EQ(
      TargetModel::get(TargetKind::gfx942).getLatency(LatencyClass::VMEMLoad),
      100);
  llvm::Expected<TargetModel> bad =
      TargetModel::getWithOverrides(TargetKind::gfx942, {"latency.vmem=x"});
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("NAME=N"), std::string::npos);
}

TEST(TargetModel, PerTargetLatencies) {
  EXPECT_EQ(
      TargetModel::get(TargetKind::gfx942).getLatency(LatencyClass::LDSLoad),
      20);
  EXPECT_EQ(
      TargetModel::get(TargetKind::gfx1250).getLatency(LatencyClass::VMEMLoad),
      80);
}

namespace {

/// An MFMA of `name` with A/B operands of `abRegs` VGPRs (the co-issue rule
/// reads their width) and the given f8f6f4 formats.
struct MFMAOps {
  test::TestContext t;
  mlir::OwningOpRef<mlir::ModuleOp> module;

  mlir::Operation *make(llvm::StringRef name, int abRegs = 2,
                        std::optional<std::pair<int, int>> formats = {}) {
    if (!module)
      module = mlir::ModuleOp::create(mlir::UnknownLoc::get(&t.ctx));
    mlir::OpBuilder b(&t.ctx);
    b.setInsertionPointToEnd(module->getBody());
    mlir::Type ab = t.parseType(("!waveasm.vreg<" + llvm::Twine(abRegs) + ", " +
                                 llvm::Twine(abRegs) + ">")
                                    .str());
    mlir::Type acc = t.parseType("!waveasm.vreg<4, 4>");
    mlir::OperationState state(mlir::UnknownLoc::get(&t.ctx), name);
    mlir::Value a =
        mlir::UnrealizedConversionCastOp::create(
            b, state.location, mlir::TypeRange{ab}, mlir::ValueRange{})
            .getResult(0);
    state.addOperands({a, a});
    state.addTypes(acc);
    if (formats) {
      state.addAttribute("cbsz", b.getI64IntegerAttr(formats->first));
      state.addAttribute("blgp", b.getI64IntegerAttr(formats->second));
    }
    return b.create(state);
  }
};

} // namespace

// SCHEDULING-FACTS.md "Units": passes = FLOP of the shape / (FLOP per SIMD
// per clock) / 4 clocks per pass, the rate from the published dense peak.
// The model's table must agree with the formula for every dense shape.
TEST(TargetModel, MFMAPassesFollowThePublishedPeaks) {
  auto rate = [](double peakTFlops, double cus, double ghz) {
    double perClock = peakTFlops * 1e12 / (cus * 4 * ghz * 1e9);
    return std::exp2(std::round(std::log2(perClock))); // "~" rounded peaks
  };
  struct Row {
    TargetKind target;
    const char *name;
    double m, n, k, rate;
  };
  double f16_942 = rate(1307.4, 304, 2.1), fp8_942 = rate(2614.9, 304, 2.1),
         f32_942 = rate(163.4, 304, 2.1);
  double f16_950 = rate(2500, 256, 2.4), fp8_950 = rate(5000, 256, 2.4),
         fp4_950 = rate(10000, 256, 2.4);
  EXPECT_EQ(f16_942, 512);
  EXPECT_EQ(fp8_942, 1024);
  EXPECT_EQ(f32_942, 64);
  EXPECT_EQ(f16_950, 1024);
  EXPECT_EQ(fp8_950, 2048);
  EXPECT_EQ(fp4_950, 4096);
  const Row rows[] = {
      {TargetKind::gfx942, "waveasm.v_mfma_f32_16x16x16_f16", 16, 16, 16,
       f16_942},
      {TargetKind::gfx942, "waveasm.v_mfma_f32_32x32x8_f16", 32, 32, 8,
       f16_942},
      {TargetKind::gfx942, "waveasm.v_mfma_f32_16x16x16_bf16", 16, 16, 16,
       f16_942},
      {TargetKind::gfx942, "waveasm.v_mfma_f32_16x16x32_fp8_fp8", 16, 16, 32,
       fp8_942},
      {TargetKind::gfx942, "waveasm.v_mfma_f32_32x32x16_bf8_fp8", 32, 32, 16,
       fp8_942},
      {TargetKind::gfx942, "waveasm.v_mfma_f32_16x16x4_f32", 16, 16, 4,
       f32_942},
      {TargetKind::gfx942, "waveasm.v_mfma_f32_32x32x2_f32", 32, 32, 2,
       f32_942},
      {TargetKind::gfx942, "waveasm.v_mfma_f64_16x16x4_f64", 16, 16, 4,
       f32_942},
      {TargetKind::gfx950, "waveasm.v_mfma_f32_16x16x32_f16", 16, 16, 32,
       f16_950},
      {TargetKind::gfx950, "waveasm.v_mfma_f32_16x16x32_bf16", 16, 16, 32,
       f16_950},
  };
  MFMAOps ops;
  for (const Row &row : rows) {
    double passes = 2 * row.m * row.n * row.k / row.rate / 4;
    EXPECT_EQ(TargetModel::get(row.target).getMFMAPasses(ops.make(row.name)),
              passes)
        << row.name;
  }
  // Scaled MFMA on gfx950: fp8 operands (cbsz = blgp = 0) at the fp8 rate,
  // fp4 (4) at the fp4 rate.
  const TargetModel &m950 = TargetModel::get(TargetKind::gfx950);
  EXPECT_EQ(m950.getMFMAPasses(ops.make(
                "waveasm.v_mfma_scale_f32_16x16x128_f8f6f4", 8, {{0, 0}})),
            2 * 16 * 16 * 128 / fp8_950 / 4);
  EXPECT_EQ(m950.getMFMAPasses(ops.make(
                "waveasm.v_mfma_scale_f32_32x32x64_f8f6f4", 4, {{4, 4}})),
            2 * 32 * 32 * 64 / fp4_950 / 4);
}

// The shapes the dense peaks do not cover follow LLVM's scheduling model
// (`llvm-mca -instruction-info`: RThroughput = passes).
TEST(TargetModel, MFMABlockShapesFollowLLVM) {
  MFMAOps ops;
  const TargetModel &m942 = TargetModel::get(TargetKind::gfx942);
  const TargetModel &m950 = TargetModel::get(TargetKind::gfx950);
  EXPECT_EQ(m942.getMFMAPasses(ops.make("waveasm.v_mfma_f32_16x16x4_f16")), 8);
  EXPECT_EQ(m942.getMFMAPasses(ops.make("waveasm.v_mfma_f32_32x32x4_bf16")),
            16);
  EXPECT_EQ(m942.getMFMAPasses(ops.make("waveasm.v_mfma_f32_4x4x4_f16")), 2);
  EXPECT_EQ(m942.getMFMAPasses(ops.make("waveasm.v_mfma_i32_16x16x4_i8")), 8);
  EXPECT_EQ(m942.getMFMAPasses(ops.make("waveasm.v_mfma_f64_4x4x4_f64")), 4);
  EXPECT_EQ(m950.getMFMAPasses(ops.make("waveasm.v_mfma_f64_16x16x4_f64")), 16);
  // Older shapes keep their gfx942 pass counts on gfx950.
  EXPECT_EQ(m950.getMFMAPasses(ops.make("waveasm.v_mfma_f32_16x16x16_f16")), 4);
}

// A plain VALU op costs one slot and a 16x16x16 f16 MFMA four: the model
// no longer overstates MFMA against VALU (it used to charge 32 against 1).
TEST(TargetModel, OneUnitForVALUAndMFMA) {
  MFMAOps ops;
  const TargetModel &m = TargetModel::get(TargetKind::gfx942);
  EXPECT_EQ(m.getLatency(LatencyClass::VALU), 1);
  EXPECT_EQ(m.getLatency(LatencyClass::Trans), 4);
  mlir::Operation *mfma = ops.make("waveasm.v_mfma_f32_16x16x16_f16");
  EXPECT_EQ(m.getUnitOccupancy(mfma), 4);
  // Result read as SrcA/SrcB or by a VALU op: 8 wait states, then issue.
  EXPECT_EQ(m.getMFMAReadWaitStates(mfma), 8);
  EXPECT_EQ(m.getOpLatency(mfma), 9);
  // An accumulator chain reads it at the pipe's rate.
  EXPECT_EQ(m.getMFMAChainLatency(mfma), 4);
  mlir::Operation *big = ops.make("waveasm.v_mfma_f32_32x32x8_f16");
  EXPECT_EQ(m.getMFMAReadWaitStates(big), 12);
  // SGEMM and DGEMM producers have their own wait states.
  EXPECT_EQ(
      m.getMFMAReadWaitStates(ops.make("waveasm.v_mfma_f32_32x32x2_f32", 1)),
      18);
  EXPECT_EQ(m.getMFMAReadWaitStates(ops.make("waveasm.v_mfma_f64_16x16x4_f64")),
            19);
}

TEST(TargetModel, VALUCoIssueAfterMFMA) {
  MFMAOps ops;
  const TargetModel &m942 = TargetModel::get(TargetKind::gfx942);
  const TargetModel &m950 = TargetModel::get(TargetKind::gfx950);
  // XDL: 1 + widest A/B source bytes / 16: 8 bytes -> the next slot.
  EXPECT_EQ(
      m942.getValuCoIssueDelay(ops.make("waveasm.v_mfma_f32_16x16x16_f16", 2)),
      1);
  // 32 bytes (8 VGPRs of fp8) -> 3 slots.
  EXPECT_EQ(m950.getValuCoIssueDelay(ops.make(
                "waveasm.v_mfma_scale_f32_16x16x128_f8f6f4", 8, {{0, 0}})),
            3);
  // SGEMM/DGEMM: passes + 2 for every VALU op.
  EXPECT_EQ(
      m942.getValuCoIssueDelay(ops.make("waveasm.v_mfma_f32_16x16x4_f32", 1)),
      10);
  EXPECT_EQ(
      m942.getValuCoIssueDelay(ops.make("waveasm.v_mfma_f64_16x16x4_f64", 2)),
      10);
}

// getMFMATableRow reads the MFMA table through a per-thread cache keyed by
// the op class: for every op class of the dialect (an op of each, created
// without operands), in two contexts and in both orders (so that classes
// sharing a cache slot evict each other), the cached row must be the one
// the table gives by name. A cache that answered for the wrong class (no
// key check, a key of the slot instead of the class) fails here.
TEST(TargetModel, CachedMFMARowsEqualTheTableByName) {
  unsigned mfmas = 0, checked = 0;
  for (int round = 0; round < 2; ++round) {
    test::TestContext t;
    mlir::OpBuilder b(&t.ctx);
    std::vector<mlir::Operation *> ops;
    for (mlir::RegisteredOperationName name : t.ctx.getRegisteredOperations()) {
      if (name.getDialectNamespace() != "waveasm")
        continue;
      mlir::OperationState state(b.getUnknownLoc(), name);
      ops.push_back(mlir::Operation::create(state));
    }
    ASSERT_GT(ops.size(), 256u); // more classes than cache slots
    if (round == 1)
      std::reverse(ops.begin(), ops.end());
    for (int pass = 0; pass < 2; ++pass)
      for (mlir::Operation *op : ops) {
        std::optional<MFMATableRow> cached = getMFMATableRow(op);
        std::optional<MFMATableRow> byName =
            getMFMATableRow(op, /*byName=*/true);
        ASSERT_EQ(cached.has_value(), byName.has_value())
            << op->getName().getStringRef().str();
        if (cached) {
          EXPECT_TRUE(*cached == *byName) << op->getName().getStringRef().str();
          mfmas += round == 0 && pass == 0;
        }
        ++checked;
      }
    for (mlir::Operation *op : ops)
      op->destroy();
  }
  // The table's opcodes are ops of the dialect (a misspelled name would
  // never be found).
  EXPECT_GE(mfmas, 20u);
  EXPECT_GT(checked, 1000u);
}
