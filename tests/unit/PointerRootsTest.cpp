//===- PointerRootsTest.cpp - kernel arguments of global pointers ---------===//
//
// analysis/PointerRoots.h: a pointer is traced to the kernel argument it
// comes from through extract/pack, 32-bit adds and copies and loop
// iter_args; mixing two arguments, a pointer loaded from memory and loop
// iter_args that swap pointers trace to none. alias() then separates two
// global accesses only when the program declares one of their two
// different arguments in noalias_args.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "analysis/MemoryAlias.h"
#include "analysis/PointerRoots.h"

#include <gtest/gtest.h>

using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

/// A program whose kernarg pointer is s[0:1] with `attrs` as its attribute
/// dictionary and `body` after the argument loads: %a (offset 0) and %b
/// (offset 8) as pairs, %cd (offsets 16 and 24 in one s_load_dwordx4), the
/// voffset %v, constants %c0, %c4, %c64 and the loaded (not kernarg)
/// pointer %loaded.
std::unique_ptr<ParsedAnalysisProgram> parse(llvm::StringRef body,
                                             llvm::StringRef attrs = "") {
  std::string text = (llvm::Twine(R"(
waveasm.program @k target = #waveasm.target<#waveasm.gfx942>
  abi = #waveasm.abi<tid = 0, kernarg = 0> )") +
                      attrs + R"( {
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %a = waveasm.s_load_dwordx2 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2> loc("a")
  %b = waveasm.s_load_dwordx2 %kargs, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg<2, 2> loc("b")
  %cd = waveasm.s_load_dwordx4 %kargs, %c16 : !waveasm.psreg<0, 2>, !waveasm.imm<16> -> !waveasm.sreg<4, 4>
  %loaded = waveasm.s_load_dwordx2 %a, %c0 : !waveasm.sreg<2, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2> loc("loaded")
)" + body + "\n}\n")
                         .str();
  auto p = ParsedAnalysisProgram::fromFile(text);
  EXPECT_TRUE(p->module) << p->t.diagnostics;
  return p;
}

std::optional<int64_t> argOf(ParsedAnalysisProgram &p, llvm::StringRef name) {
  mlir::Value v = p.value(name);
  EXPECT_TRUE(v) << name.str();
  return v ? getPointerArg(v) : std::nullopt;
}

// a + 64 as a 64-bit pair, the way the examples advance a pointer.
const char *kAdvance = R"(
  %lo = waveasm.extract %a[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %hi = waveasm.extract %a[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %nlo:2 = waveasm.s_add_u32 %lo, %c64 : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.sreg, !waveasm.scc
  %nhi:2 = waveasm.s_addc_u32 %nlo#1, %hi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
  %a64 = waveasm.pack %nlo#0, %nhi#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2> loc("a64")
  %d_lo = waveasm.extract %cd[2] : !waveasm.sreg<4, 4> -> !waveasm.sreg
  %d_hi = waveasm.extract %cd[3] : !waveasm.sreg<4, 4> -> !waveasm.sreg
  %d = waveasm.pack %d_lo, %d_hi : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2> loc("d")
  %mixed:2 = waveasm.s_add_u32 %lo, %d_lo : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc loc("mixed")
)";

TEST(PointerRoots, FollowsArithmeticExtractsAndPacks) {
  auto p = parse(kAdvance);
  EXPECT_EQ(argOf(*p, "a"), 0);
  EXPECT_EQ(argOf(*p, "b"), 8);
  EXPECT_EQ(argOf(*p, "a64"), 0);
  // The second pointer of an s_load_dwordx4: its dwords 2 and 3.
  EXPECT_EQ(argOf(*p, "d"), 24);
  // Two arguments mixed, a pointer read from memory: no argument.
  EXPECT_EQ(argOf(*p, "mixed"), std::nullopt);
  EXPECT_EQ(argOf(*p, "loaded"), std::nullopt);
}

TEST(PointerRoots, APointerDifferenceIsNotAnOffset) {
  // x + (b - x) is b: no argument; x + (an integer argument) stays x's.
  auto p = parse(R"(
  %alo = waveasm.extract %a[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %blo = waveasm.extract %b[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %diff:2 = waveasm.s_sub_u32 %blo, %alo : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %sum:2 = waveasm.s_add_u32 %alo, %diff#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc loc("sum")
  %n = waveasm.s_load_dword %kargs, %c64 : !waveasm.psreg<0, 2>, !waveasm.imm<64> -> !waveasm.sreg
  %scaled:2 = waveasm.s_lshl_b32 %n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
  %off:2 = waveasm.s_add_u32 %alo, %scaled#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc loc("off")
  %s64 = waveasm.s_mov_b32 %c64 : !waveasm.imm<64> -> !waveasm.sreg
  %neg:2 = waveasm.s_sub_u32 %s64, %alo : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc loc("neg")
)");
  EXPECT_EQ(argOf(*p, "sum"), std::nullopt);
  EXPECT_EQ(argOf(*p, "off"), 0);
  // 64 - x is not a pointer into x.
  EXPECT_EQ(argOf(*p, "neg"), std::nullopt);
}

// A loop carrying %p and %q; `yields` is what the condition passes on.
std::string loopBody(llvm::StringRef yields) {
  return (llvm::Twine(R"(
  %r:2 = waveasm.loop (%p = %a, %q = %b)
      : (!waveasm.sreg<2, 2>, !waveasm.sreg<2, 2>) -> (!waveasm.sreg<2, 2>, !waveasm.sreg<2, 2>) {
    %x = waveasm.global_load_dword %p, %v, %c0 : !waveasm.sreg<2, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg loc("load")
    waveasm.global_store_dword %x, %q, %v : !waveasm.vreg, !waveasm.sreg<2, 2>, !waveasm.pvreg<0> loc("store")
    %plo = waveasm.extract %p[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
    %phi = waveasm.extract %p[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
    %pn_lo:2 = waveasm.s_add_u32 %plo, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
    %pn_hi:2 = waveasm.s_addc_u32 %pn_lo#1, %phi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
    %pn = waveasm.pack %pn_lo#0, %pn_hi#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>
    %more = waveasm.s_cmp_lt_u32 %plo, %c64 : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args()") +
          yields + R"() : !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2>
  }
)")
      .str();
}

mlir::Value addressOf(ParsedAnalysisProgram &p, llvm::StringRef op) {
  mlir::Operation *o = p.op(op);
  EXPECT_TRUE(o) << op.str();
  return o ? getAddressPointer(o) : mlir::Value();
}

TEST(PointerRoots, FollowsLoopIterArgsThatKeepTheirArgument) {
  auto p = parse(loopBody("%pn, %q"));
  EXPECT_EQ(getPointerArg(addressOf(*p, "load")), 0);
  EXPECT_EQ(getPointerArg(addressOf(*p, "store")), 8);
}

TEST(PointerRoots, SwappedIterArgsHaveNoArgument) {
  // Ping-pong between two global buffers: each pointer is a and b in turn.
  auto p = parse(loopBody("%q, %p"));
  EXPECT_EQ(getPointerArg(addressOf(*p, "load")), std::nullopt);
  EXPECT_EQ(getPointerArg(addressOf(*p, "store")), std::nullopt);
}

TEST(PointerRoots, AliasSeparatesDeclaredArgumentsOnly) {
  auto alias = [](llvm::StringRef attrs, llvm::StringRef yields) {
    auto p = parse(loopBody(yields), attrs);
    return waveasm::alias(p->op("load"), p->op("store"));
  };
  // Different voffset-free bases: without a declaration, may alias.
  EXPECT_EQ(alias("", "%pn, %q"), AliasResult::MayAlias);
  EXPECT_EQ(alias("attributes {noalias_args = [0]}", "%pn, %q"),
            AliasResult::NoAlias);
  EXPECT_EQ(alias("attributes {noalias_args = [8]}", "%pn, %q"),
            AliasResult::NoAlias);
  // Another argument declared, or pointers that swap: may alias.
  EXPECT_EQ(alias("attributes {noalias_args = [16]}", "%pn, %q"),
            AliasResult::MayAlias);
  EXPECT_EQ(alias("attributes {noalias_args = [0, 8]}", "%q, %p"),
            AliasResult::MayAlias);
}

TEST(PointerRoots, HintNamesBothArguments) {
  auto p = parse(loopBody("%pn, %q"));
  EXPECT_EQ(noAliasHint(p->op("store"), p->op("load")),
            "through the kernel arguments at kernarg offsets 0 and 8: if "
            "they never overlap, declare noalias_args = [0, 8] on "
            "waveasm.program");
  auto swapped = parse(loopBody("%q, %p"));
  EXPECT_EQ(noAliasHint(swapped->op("store"), swapped->op("load")), "");
}

} // namespace
