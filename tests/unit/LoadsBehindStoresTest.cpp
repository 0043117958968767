//===- LoadsBehindStoresTest.cpp - loads a declaration could move ahead ---===//
//
// analysis/LoadsBehindStores.h on an outer loop over tiles: its head loads
// a tile through one pointer, an inner loop runs, its tail stores through
// another. Precolored descriptors and kernel arguments not declared apart
// give a finding naming the store and the declaration; the same
// descriptor, arguments declared apart and a loop without an inner loop
// (nothing, or only an `if`) give none.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "analysis/LoadsBehindStores.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

/// How %ld and %st are defined and their types.
struct Pointers {
  std::string text, loadType, storeType;
};

/// What sits between the load and the store of the outer loop's body.
enum class Inner { Loop, If, None };

/// An outer loop: `load` through %ld, an inner loop (or an `if`, or
/// nothing), `store` through %st.
std::unique_ptr<ParsedAnalysisProgram> parse(const Pointers &pointers,
                                             llvm::StringRef attrs = "",
                                             Inner kind = Inner::Loop,
                                             bool storeFirst = false) {
  std::string inner = kind == Inner::Loop ? R"(
    %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %a = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
      %i1:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %m = waveasm.s_cmp_lt_u32 %i1#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
      waveasm.condition %m : !waveasm.scc iter_args(%i1#0) : !waveasm.sreg
    })"
                      : kind == Inner::If ? R"(
    %t = waveasm.s_cmp_lt_u32 %n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.if %t : !waveasm.scc {
      waveasm.s_nop 0
      waveasm.yield
    })"
                                          : "";
  std::string load = "\n    %x = waveasm.buffer_load_dwordx4 %ld, %v, %c0 : " +
                     pointers.loadType +
                     ", !waveasm.pvreg<0>, !waveasm.imm<0> -> "
                     "!waveasm.vreg<4, 4> loc(\"load\")";
  std::string store = "\n    waveasm.buffer_store_dwordx4 %x0, %st, %v : "
                      "!waveasm.vreg<4, 4>, " +
                      pointers.storeType + ", !waveasm.pvreg<0> loc(\"store\")";
  std::string text = (llvm::Twine(R"(
waveasm.program @k target = #waveasm.target<#waveasm.gfx942>
  abi = #waveasm.abi<tid = 0, kernarg = 0> attributes {workgroup_size = [64, 1, 1])") +
                      attrs + R"(} {
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
)" + pointers.text + R"(
  %x0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %n0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%n = %n0) : (!waveasm.sreg) -> !waveasm.sreg {)" +
                      (storeFirst ? store + inner + load
                                  : load + inner + store) +
                      R"(
    %n1:2 = waveasm.s_add_u32 %n, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %again = waveasm.s_cmp_lt_u32 %n1#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %again : !waveasm.scc iter_args(%n1#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
)")
                         .str();
  auto p = ParsedAnalysisProgram::fromFile(text);
  EXPECT_TRUE(p->module) << p->t.diagnostics;
  return p;
}

/// %ld and %st preset in SGPRs (as the examples' descriptors are).
Pointers precolored(int load, int store) {
  auto one = [](const char *name, int first) {
    return llvm::formatv("  %{0} = waveasm.precolored.sreg {1}, 4 : "
                         "!waveasm.psreg<{1}, 4>\n",
                         name, first)
        .str();
  };
  auto type = [](int first) {
    return llvm::formatv("!waveasm.psreg<{0}, 4>", first).str();
  };
  return {one("ld", load) + one("st", store), type(load), type(store)};
}

/// %ld and %st built from the kernel arguments at kernarg offsets 8 and 16.
const Pointers kFromArguments = {R"(
  %nrec = waveasm.s_mov_b32 %c16 : !waveasm.imm<16> -> !waveasm.sreg
  %ldp = waveasm.s_load_dwordx2 %kargs, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg<2, 2>
  %stp = waveasm.s_load_dwordx2 %kargs, %c16 : !waveasm.psreg<0, 2>, !waveasm.imm<16> -> !waveasm.sreg<2, 2>
  %ld0 = waveasm.extract %ldp[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %ld1 = waveasm.extract %ldp[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %ld = waveasm.pack %ld0, %ld1, %nrec, %nrec : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>
  %st0 = waveasm.extract %stp[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %st1 = waveasm.extract %stp[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %st = waveasm.pack %st0, %st1, %nrec, %nrec : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>
)",
                                 "!waveasm.sreg<4, 4>", "!waveasm.sreg<4, 4>"};

TEST(LoadsBehindStores, PrecoloredDescriptorsNameTheStoreAndTheWayApart) {
  auto p = parse(precolored(8, 12));
  std::vector<LoadBehindStore> found = findLoadsBehindStores(p->program);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].load, p->op("load"));
  EXPECT_EQ(found[0].store, p->op("store"));
  EXPECT_FALSE(found[0].sameIteration);
  EXPECT_NE(found[0].apart.find("precolored descriptors s[8:11] and s[12:15]"),
            std::string::npos)
      << found[0].apart;
  EXPECT_NE(found[0].apart.find("noalias_args"), std::string::npos);
}

TEST(LoadsBehindStores, StoreBeforeTheLoadIsTheSameIteration) {
  auto p = parse(precolored(8, 12), "", Inner::Loop, /*storeFirst=*/true);
  std::vector<LoadBehindStore> found = findLoadsBehindStores(p->program);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].sameIteration);
}

TEST(LoadsBehindStores, OneDescriptorOrOverlappingRegistersGiveNothing) {
  EXPECT_TRUE(findLoadsBehindStores(parse(precolored(8, 8))->program).empty());
  EXPECT_TRUE(findLoadsBehindStores(parse(precolored(8, 10))->program).empty());
}

TEST(LoadsBehindStores, KernelArgumentsProposeTheirDeclaration) {
  auto p = parse(kFromArguments);
  std::vector<LoadBehindStore> found = findLoadsBehindStores(p->program);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].apart.find("kernarg offsets 8 and 16"), std::string::npos)
      << found[0].apart;
  EXPECT_NE(found[0].apart.find("noalias_args = [8, 16]"), std::string::npos)
      << found[0].apart;
}

TEST(LoadsBehindStores, DeclaredApartGivesNothing) {
  EXPECT_TRUE(findLoadsBehindStores(
                  parse(kFromArguments, ", noalias_args = [8, 16]")->program)
                  .empty());
}

TEST(LoadsBehindStores, LoopWithoutInnerLoopGivesNothing) {
  EXPECT_TRUE(
      findLoadsBehindStores(parse(precolored(8, 12), "", Inner::None)->program)
          .empty());
}

// An `if` is not a loop: nothing rotates the body around it.
TEST(LoadsBehindStores, LoopHoldingOnlyAnIfGivesNothing) {
  EXPECT_TRUE(
      findLoadsBehindStores(parse(precolored(8, 12), "", Inner::If)->program)
          .empty());
}

} // namespace
