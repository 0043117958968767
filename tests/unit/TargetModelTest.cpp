//===- TargetModelTest.cpp - per-target tables and overrides --------------===//

#include "TestUtils.h"

#include "analysis/TargetModel.h"

#include <gtest/gtest.h>

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
  // AGPRs have their own pool by the same rule.
  EXPECT_EQ(m.getOccupancy(16, 100, 0), 4);
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
