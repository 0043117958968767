//===- AttrsTest.cpp - target and ABI attributes --------------------------===//

#include "TestUtils.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::print;
using waveasm::test::TestContext;

TEST(Attrs, TargetBothForms) {
  TestContext t;
  auto full = dyn_cast_or_null<TargetAttr>(
      t.parseAttr("#waveasm.target<#waveasm.gfx942, 5>"));
  auto defaulted = dyn_cast_or_null<TargetAttr>(
      t.parseAttr("#waveasm.target<#waveasm.gfx942>"));
  ASSERT_TRUE(full);
  ASSERT_TRUE(defaulted);
  EXPECT_EQ(full, defaulted);
  EXPECT_EQ(full.getCodeObjectVersion(), 5);
  EXPECT_EQ(full.getTargetKind().getTargetKind(), TargetKind::gfx942);
  EXPECT_EQ(print(Attribute(full)), "#waveasm.target<#waveasm.gfx942>");
  auto v4 =
      cast<TargetAttr>(t.parseAttr("#waveasm.target<#waveasm.gfx950, 4>"));
  EXPECT_EQ(print(Attribute(v4)), "#waveasm.target<#waveasm.gfx950, 4>");
  EXPECT_EQ(v4.getTargetKind().getTargetKind(), TargetKind::gfx950);
}

TEST(Attrs, TargetRejectsNonTargetKind) {
  TestContext t;
  EXPECT_FALSE(t.parseAttr("#waveasm.target<42 : i64>"));
  EXPECT_NE(t.diagnostics.find("invalid kind of attribute specified"),
            std::string::npos);
  EXPECT_NE(t.diagnostics.find("which is to be a `TargetAttrInterface`"),
            std::string::npos);
}

TEST(Attrs, ABIOrderAndDefaults) {
  TestContext t;
  auto abi = dyn_cast_or_null<ABIAttr>(
      t.parseAttr("#waveasm.abi<kernarg = 0, wg_id_x = 2, tid = 1>"));
  ASSERT_TRUE(abi);
  EXPECT_EQ(abi.getTid(), 1);
  EXPECT_EQ(abi.getKernarg(), 0);
  EXPECT_EQ(abi.getWgIdX(), 2);
  EXPECT_FALSE(abi.getWgIdY().has_value());
  EXPECT_EQ(print(Attribute(abi)), "#waveasm.abi<tid = 1, wg_id_x = 2>");
  EXPECT_EQ(print(t.parseAttr("#waveasm.abi<tid = 0, kernarg = 0>")),
            "#waveasm.abi<>");
  EXPECT_FALSE(t.parseAttr("#waveasm.abi<bogus = 1>"));
  EXPECT_NE(
      t.diagnostics.find("duplicate or unknown struct parameter name: bogus"),
      std::string::npos);
}

TEST(Attrs, TargetTable) {
  for (TargetKind kind :
       {TargetKind::gfx942, TargetKind::gfx950, TargetKind::gfx1250}) {
    const TargetInfo &info = getTargetInfo(kind);
    EXPECT_EQ(info.kind, kind);
    EXPECT_EQ(parseTargetKind(info.name), kind);
  }
  EXPECT_EQ(getTargetInfo(TargetKind::gfx942).maxLgkmcnt, 15);
  EXPECT_EQ(getTargetInfo(TargetKind::gfx1250).maxAGPRs, 0);
  EXPECT_FALSE(parseTargetKind("gfx90a").has_value());
}
