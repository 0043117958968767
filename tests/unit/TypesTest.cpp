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

// The cache keys spellings of up to 15 bytes by their packed bytes and
// longer ones by string: every spelling, cached or not, short or long, must
// give the type a fresh context parses from it (spellings that differ only
// past the eighth byte, or only in length, included).
TEST(Types, CachedSpellingsEqualFreshParses) {
  std::vector<std::string> spellings;
  for (const char *reg : {"vreg", "sreg", "areg"})
    for (int size : {1, 2, 4, 8, 16})
      for (int align : {1, 2, 4, 8})
        spellings.push_back(std::string(reg) + "<" + std::to_string(size) +
                            ", " + std::to_string(align) + ">");
  for (const char *reg : {"pvreg", "psreg", "pareg"})
    for (int index : {0, 1, 12, 100, 101, 255})
      for (int size : {1, 2, 4, 8, 16}) {
        spellings.push_back(std::string(reg) + "<" + std::to_string(index) +
                            ", " + std::to_string(size) + ">");
        spellings.push_back(std::string(reg) + "<" + std::to_string(index) +
                            ">");
      }
  for (long long value : {0LL, 1LL, 10LL, 100LL, -6LL, 123456LL, 1234567LL,
                          12345678LL, -1234567890LL, 123456789012LL})
    spellings.push_back("imm<" + std::to_string(value) + ">");
  spellings.push_back("vreg");
  spellings.push_back("scc");
  bool anyLong = false;
  for (const std::string &spelling : spellings)
    anyLong |= spelling.size() > 15;
  ASSERT_TRUE(anyLong);

  // The first parse of each spelling in its own context (the cache is per
  // thread and context: parsing in another context in between would empty
  // it, so all of these come first).
  std::vector<std::string> expected;
  for (const std::string &spelling : spellings) {
    TestContext fresh;
    Type type = fresh.parseType("!waveasm." + spelling);
    ASSERT_TRUE(type) << spelling << fresh.diagnostics;
    expected.push_back(waveasm::test::print(type));
  }
  TestContext cached;
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < spellings.size(); ++i) {
      // Each round in another order, so hits follow other spellings.
      size_t k = round == 1 ? spellings.size() - 1 - i
                            : (i * 7 + round) % spellings.size();
      Type got = cached.parseType("!waveasm." + spellings[k]);
      ASSERT_TRUE(got) << spellings[k] << cached.diagnostics;
      EXPECT_EQ(waveasm::test::print(got), expected[k])
          << spellings[k] << " (round " << round << ")";
    }
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
