//===- OccupancyTest.cpp - what limits occupancy, hand-computed -----------===//
//
// gfx942: VGPR file breakpoints 64/72/80/96/128/168/256/512 -> 8..1 waves,
// granule 8; SGPRs 800 per SIMD, granule 16; 64 KiB LDS per CU; at most 8
// waves per SIMD, 4 SIMDs per CU. gfx950: the same with 160 KiB of LDS.
//
//===----------------------------------------------------------------------===//

#include "analysis/Occupancy.h"

#include <gtest/gtest.h>

using namespace waveasm;

namespace {

OccupancyExplanation explain(TargetKind kind, OccupancyInput input) {
  return explainOccupancy(TargetModel::get(kind), input);
}

TEST(Occupancy, VGPRLimited) {
  // 90 VGPRs round to 96: 5 waves; 80 gives 6.
  OccupancyExplanation e =
      explain(TargetKind::gfx942, {/*vgprs=*/90, 0, /*sgprs=*/30, 0, 4});
  EXPECT_EQ(e.waves, 5);
  EXPECT_EQ(e.limitedBy, OccupancyLimiter::VGPR);
  EXPECT_EQ(e.vgprFileUse, 96);
  EXPECT_EQ(e.sgprWaves, 8); // 32 SGPRs: 25, capped at 8
  EXPECT_EQ(e.cutForNextWave, 16);
  EXPECT_EQ(e.nextWaves, 6);
  EXPECT_EQ(e.summarize(),
            "5 waves, limited by VGPR: 96 \xE2\x86\x92 5 waves; -16 VGPR "
            "\xE2\x86\x92 6 waves");
  // The same registers on gfx950.
  EXPECT_EQ(explain(TargetKind::gfx950, {90, 0, 30, 0, 4}).waves, 5);
}

TEST(Occupancy, AGPRsShareTheVGPRFile) {
  // 64 VGPRs (accum_offset 64) + 64 AGPRs = 128 entries: 4 waves; 96 gives
  // 5, so 32 registers of either class.
  OccupancyExplanation e =
      explain(TargetKind::gfx942, {/*vgprs=*/64, /*agprs=*/64, 20, 0, 4});
  EXPECT_EQ(e.waves, 4);
  EXPECT_EQ(e.limitedBy, OccupancyLimiter::VGPR);
  EXPECT_EQ(e.vgprFileUse, 128);
  EXPECT_EQ(e.cutForNextWave, 32);
  EXPECT_EQ(e.summarize(), "4 waves, limited by VGPR: 64 VGPR + 64 AGPR = 128 "
                           "\xE2\x86\x92 4 waves; -32 VGPR/AGPR \xE2\x86\x92 5 "
                           "waves");
  // VGPRs round up to 4 before the AGPRs: 61 + 64 is still 128.
  EXPECT_EQ(explain(TargetKind::gfx942, {61, 64, 20, 0, 4}).vgprFileUse, 128);
}

TEST(Occupancy, SGPRLimited) {
  // 102 SGPRs round to 112: 800 / 112 = 7 waves; 96 (800 / 8 = 100, down
  // to the granule) gives 8.
  OccupancyExplanation e =
      explain(TargetKind::gfx942, {/*vgprs=*/32, 0, /*sgprs=*/102, 0, 4});
  EXPECT_EQ(e.waves, 7);
  EXPECT_EQ(e.limitedBy, OccupancyLimiter::SGPR);
  EXPECT_EQ(e.sgprUse, 112);
  EXPECT_EQ(e.cutForNextWave, 16);
  EXPECT_EQ(e.summarize(), "7 waves, limited by SGPR: 112 \xE2\x86\x92 7 "
                           "waves; -16 SGPR \xE2\x86\x92 8 waves; VGPRs would "
                           "allow 8");
}

TEST(Occupancy, LDSLimited) {
  // 4 KiB per 1-wave workgroup: 64 KiB / 4 KiB = 16 workgroups per CU, 16
  // waves over 4 SIMDs = 4 per SIMD. 5 waves need 20 workgroups: 65536 / 20
  // = 3276, down to 128-byte blocks 3200, so 896 bytes less.
  OccupancyExplanation e =
      explain(TargetKind::gfx942, {32, 0, 20, /*ldsBytes=*/4096, 1});
  EXPECT_EQ(e.waves, 4);
  EXPECT_EQ(e.limitedBy, OccupancyLimiter::LDS);
  EXPECT_EQ(e.workgroupsPerCUByLDS, 16);
  EXPECT_EQ(e.cutForNextWave, 896);
  EXPECT_EQ(e.summarize(),
            "4 waves, limited by LDS: 4 KiB per 1-wave workgroup, 16 "
            "workgroups per CU; -0.9 KiB LDS \xE2\x86\x92 5 waves; VGPRs "
            "would allow 8");
  // gfx950's 160 KiB: the same kernel is not LDS-bound.
  EXPECT_EQ(explain(TargetKind::gfx950, {32, 0, 20, 4096, 1}).waves, 8);
  // 32 KiB per 4-wave workgroup: 2 per CU on gfx942 (2 waves), 5 on gfx950
  // (5 waves; 6 need 6 workgroups: 163840 / 6 = 27306 -> 27264 bytes).
  EXPECT_EQ(explain(TargetKind::gfx942, {32, 0, 20, 32768, 4}).waves, 2);
  OccupancyExplanation e950 =
      explain(TargetKind::gfx950, {32, 0, 20, 32768, 4});
  EXPECT_EQ(e950.waves, 5);
  EXPECT_EQ(e950.limitedBy, OccupancyLimiter::LDS);
  EXPECT_EQ(e950.cutForNextWave, 32768 - 27264);
}

TEST(Occupancy, WorkgroupSizeLimited) {
  // 768 work items = 12 waves: 32 wave slots per CU hold 2 workgroups, 24
  // waves = 6 per SIMD; 10-wave workgroups fit 3 (30 waves, 7 per SIMD).
  OccupancyExplanation e = explain(TargetKind::gfx942, {32, 0, 20, 0, 12});
  EXPECT_EQ(e.waves, 6);
  EXPECT_EQ(e.limitedBy, OccupancyLimiter::Workgroup);
  EXPECT_EQ(e.workgroupsPerCUBySize, 2);
  EXPECT_EQ(e.cutForNextWave, 2);
  EXPECT_EQ(e.summarize(),
            "6 waves, limited by workgroup size: 12 waves per workgroup, 2 "
            "workgroups per CU; 10-wave workgroups \xE2\x86\x92 7 waves; "
            "VGPRs would allow 8");
  // 16-wave (1024 work-item) workgroups fill the CU exactly: 8.
  EXPECT_EQ(explain(TargetKind::gfx942, {32, 0, 20, 0, 16}).waves, 8);
}

TEST(Occupancy, TargetMaximumAndTies) {
  OccupancyExplanation e = explain(TargetKind::gfx942, {8, 0, 8, 0, 4});
  EXPECT_EQ(e.waves, 8);
  EXPECT_EQ(e.limitedBy, OccupancyLimiter::Target);
  EXPECT_EQ(e.summarize(), "8 waves, the target's maximum");
  // VGPRs and LDS both allow 5: no single cut gains a wave, so none is
  // proposed.
  OccupancyExplanation tie =
      explain(TargetKind::gfx942, {90, 0, 20, /*ldsBytes=*/12800, 4});
  EXPECT_EQ(tie.vgprWaves, 5);
  EXPECT_EQ(tie.ldsWaves, 5);
  EXPECT_EQ(tie.waves, 5);
  EXPECT_EQ(tie.nextWaves, 0);
  EXPECT_EQ(tie.summarize(), "5 waves, limited by VGPR: 96 \xE2\x86\x92 5 "
                             "waves");
}

TEST(Occupancy, TargetModelAgrees) {
  // TargetModel::getOccupancy is this analysis' wave count.
  const TargetModel &m = TargetModel::get(TargetKind::gfx942);
  EXPECT_EQ(m.getOccupancy(90, 0, 30, 0, 4), 5);
  EXPECT_EQ(m.getOccupancy(32, 0, 20, 4096, 1), 4);
  EXPECT_EQ(m.getOccupancy(32, 0, 20, 0, 12), 6);
}

} // namespace
