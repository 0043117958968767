//===- TypesTest.cpp - register and immediate types -----------------------===//

#include "TestUtils.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::print;
using waveasm::test::TestContext;

TEST(Types, VirtualDefaultsAndPrinting) {
  TestContext t;
  auto v = dyn_cast_or_null<VRegType>(t.parseType("!waveasm.vreg"));
  ASSERT_TRUE(v);
  EXPECT_EQ(v.getSize(), 1);
  EXPECT_EQ(v.getAlignment(), 1);
  EXPECT_EQ(print(Type(v)), "!waveasm.vreg");

  // Textual vreg<4> means alignment 1 (SPEC.md 2.2), distinct from vreg<4, 4>.
  Type four = t.parseType("!waveasm.vreg<4>");
  Type fourAligned = t.parseType("!waveasm.vreg<4, 4>");
  EXPECT_EQ(cast<VRegType>(four).getAlignment(), 1);
  EXPECT_EQ(cast<VRegType>(fourAligned).getAlignment(), 4);
  EXPECT_NE(four, fourAligned);
  EXPECT_EQ(print(four), "!waveasm.vreg<4>");
  EXPECT_EQ(print(t.parseType("!waveasm.sreg<4, 1>")), "!waveasm.sreg<4>");
  // Unlike upstream, a size-1 register keeps a non-default alignment.
  EXPECT_EQ(print(t.parseType("!waveasm.areg<1, 2>")), "!waveasm.areg<1, 2>");
}

TEST(Types, PhysicalAndImmediate) {
  TestContext t;
  auto p = dyn_cast_or_null<PVRegType>(t.parseType("!waveasm.pvreg<8, 4>"));
  ASSERT_TRUE(p);
  EXPECT_EQ(p.getIndex(), 8);
  EXPECT_EQ(p.getSize(), 4);
  EXPECT_EQ(print(t.parseType("!waveasm.psreg<5, 1>")), "!waveasm.psreg<5>");
  auto imm = dyn_cast_or_null<ImmType>(t.parseType("!waveasm.imm<0x10>"));
  ASSERT_TRUE(imm);
  EXPECT_EQ(imm.getValue(), 16);
  EXPECT_EQ(print(Type(imm)), "!waveasm.imm<16>");
  EXPECT_EQ(cast<ImmType>(t.parseType("!waveasm.imm<-1>")).getValue(), -1);
  EXPECT_TRUE(isa_and_nonnull<SCCType>(t.parseType("!waveasm.scc")));
}

TEST(Types, InvalidTypesDiagnose) {
  TestContext t;
  EXPECT_FALSE(t.parseType("!waveasm.vreg<0>"));
  EXPECT_NE(t.diagnostics.find("register count must be at least 1"),
            std::string::npos);
  t.diagnostics.clear();
  EXPECT_FALSE(t.parseType("!waveasm.pvreg"));
  EXPECT_NE(t.diagnostics.find("expected '<'"), std::string::npos);
  t.diagnostics.clear();
  EXPECT_FALSE(t.parseType("!waveasm.pvreg<-3>"));
  EXPECT_NE(t.diagnostics.find("must be non-negative"), std::string::npos);
  t.diagnostics.clear();
  EXPECT_FALSE(t.parseType("!waveasm.vrog"));
  EXPECT_NE(t.diagnostics.find("unknown  type `vrog` in dialect `waveasm`"),
            std::string::npos);
}

// The dialect caches parsed spellings: a repeated spelling must give the
// same type, in a module as alone, and an invalid one must be diagnosed
// every time.
TEST(Types, RepeatedSpellingsParseAlike) {
  TestContext t;
  Type first = t.parseType("!waveasm.vreg<4, 4>");
  Type second = t.parseType("!waveasm.vreg<4, 4>");
  ASSERT_TRUE(first);
  EXPECT_EQ(first, second);
  EXPECT_EQ(first, t.parseType("!waveasm.vreg<4,4>"));
  EXPECT_NE(first, t.parseType("!waveasm.vreg<4>"));
  EXPECT_EQ(cast<ImmType>(t.parseType("!waveasm.imm<-6>")).getValue(), -6);
  EXPECT_EQ(cast<ImmType>(t.parseType("!waveasm.imm<-6>")).getValue(), -6);
  EXPECT_EQ(cast<ImmType>(t.parseType("!waveasm.imm<6>")).getValue(), 6);
  // After a cached type, the parser continues right behind it.
  OwningOpRef<ModuleOp> module = t.parseModule(waveasm::test::program(R"(
  %a = waveasm.constant -6 : !waveasm.imm<-6>
  %b = waveasm.constant -6 : !waveasm.imm<-6>
  %v = waveasm.v_mov_b32 %a : !waveasm.imm<-6> -> !waveasm.vreg<4, 4>
  waveasm.s_endpgm
)"));
  EXPECT_TRUE(module) << t.diagnostics;

  for (int i = 0; i < 2; ++i) {
    t.diagnostics.clear();
    EXPECT_FALSE(t.parseType("!waveasm.vreg<0>"));
    EXPECT_NE(t.diagnostics.find("register count must be at least 1"),
              std::string::npos);
  }
}

TEST(Types, RegisterQueries) {
  TestContext t;
  Type v4 = t.parseType("!waveasm.vreg<4, 4>");
  Type pv = t.parseType("!waveasm.pvreg<12, 4>");
  Type s = t.parseType("!waveasm.sreg<2, 2>");
  Type a = t.parseType("!waveasm.pareg<3>");
  Type imm = t.parseType("!waveasm.imm<7>");
  EXPECT_EQ(getRegClass(v4), RegClass::VGPR);
  EXPECT_EQ(getRegClass(pv), RegClass::VGPR);
  EXPECT_EQ(getRegClass(s), RegClass::SGPR);
  EXPECT_EQ(getRegClass(a), RegClass::AGPR);
  EXPECT_FALSE(getRegClass(imm).has_value());
  EXPECT_EQ(getRegSize(v4), 4);
  EXPECT_EQ(getRegAlignment(v4), 4);
  EXPECT_EQ(getPhysicalIndex(pv), 12);
  EXPECT_FALSE(getPhysicalIndex(v4).has_value());
  EXPECT_TRUE(isVirtualReg(v4));
  EXPECT_TRUE(isPhysicalReg(pv));
}

TEST(Types, Compatibility) {
  TestContext t;
  Type v4 = t.parseType("!waveasm.vreg<4>");
  Type v44 = t.parseType("!waveasm.vreg<4, 4>");
  Type v2 = t.parseType("!waveasm.vreg<2>");
  Type p1 = t.parseType("!waveasm.pvreg<1>");
  Type p3 = t.parseType("!waveasm.pvreg<3>");
  Type p3x4 = t.parseType("!waveasm.pvreg<3, 4>");
  Type s = t.parseType("!waveasm.sreg");
  // Same family, same size: compatible whatever the alignment or index.
  EXPECT_TRUE(areTypesCompatible(v4, v44));
  EXPECT_TRUE(areTypesCompatible(p1, p3));
  EXPECT_FALSE(areTypesCompatible(v4, v2));
  EXPECT_FALSE(areTypesCompatible(p1, p3x4));
  // Virtual vs physical of one class: half-allocated IR.
  EXPECT_TRUE(areTypesCompatible(v2, p3x4));
  EXPECT_FALSE(areTypesCompatible(v4, s));
}
