//===- ConstantIterArgsTest.cpp - iter_args a loop brings back ------------===//
//
// pipeline/opt/ConstantIterArgs.h on hand-written loops: LDS copy bases
// updated as LdsCopies.h does (s_xor_b32 for two copies, add/compare/select
// for three), with as many updates per iteration as copies (the base holds
// one constant: folded) or fewer (it moves: left alone). The pipelined lit
// test (pipeline-loops-constant-bases.test) checks the kernels by execution.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "pipeline/opt/ConstantIterArgs.h"

#include <gtest/gtest.h>

using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

/// What is left in the loop body after the fold.
struct Folded {
  unsigned changed = 0;
  unsigned updates = 0; // s_xor_b32, s_add_u32 of the base, s_cselect_b32
  unsigned adds = 0;    // v_add_u32
  llvm::SmallVector<int64_t> immediates; // constant operands of the adds
  bool readsLane = false; // a ds_read_b32 addressed by the thread id
};

/// A loop of 8 iterations over `base` (init `init`) whose body runs
/// `update` (from %base to %next) and reads LDS at `v_add_u32 %base, tid`.
Folded fold(llvm::StringRef init, llvm::StringRef update) {
  std::string body = (llvm::Twine(R"(
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c8 = waveasm.constant 8 : !waveasm.imm<8>
    %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
    %c12288 = waveasm.constant 12288 : !waveasm.imm<12288>
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %z = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    )") + init + R"(
    %kend, %bend = waveasm.loop (%k = %k0, %base = %init)
        : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg) {
      )" + update + R"(
      %a = waveasm.v_add_u32 %base, %tid : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
      %v = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
      waveasm.buffer_store_dword %v, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %next) : !waveasm.sreg, !waveasm.sreg
    }
    waveasm.s_endpgm
  )")
                         .str();
  ParsedAnalysisProgram p(body);
  EXPECT_TRUE(p.module) << p.t.diagnostics;
  Folded f;
  if (!p.module)
    return f;
  LoopOp loop;
  p.program.walk([&](LoopOp l) { loop = l; });
  f.changed = foldConstantIterArgs(loop);
  for (mlir::Operation &op : loop.getBodyBlock()) {
    if (mlir::isa<S_XOR_B32, S_CSELECT_B32>(op) ||
        (mlir::isa<S_ADD_U32>(op) &&
         op.getOperand(0) != loop.getBodyBlock().getArgument(0)))
      ++f.updates;
    if (auto add = mlir::dyn_cast<V_ADD_U32>(op)) {
      ++f.adds;
      if (auto imm = mlir::dyn_cast<ImmType>(add.getSrc0().getType()))
        f.immediates.push_back(imm.getValue());
    }
    if (auto read = mlir::dyn_cast<DS_READ_B32>(op))
      if (mlir::Operation *def = read.getVaddr().getDefiningOp())
        f.readsLane =
            def->getName().getStringRef() == "waveasm.precolored.vreg";
  }
  return f;
}

/// Inits of the base: 0, or 4096 by a flip before the loop, or unknown.
constexpr const char *kZero =
    "%init = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg";
constexpr const char *kFlipped =
    "%init:2 = waveasm.s_xor_b32 %z, %c4096 : !waveasm.sreg, "
    "!waveasm.imm<4096> -> !waveasm.sreg, !waveasm.scc";
constexpr const char *kLoaded =
    "%init = waveasm.s_load_dword %srd, %c0 : !waveasm.psreg<4, 4>, "
    "!waveasm.imm<0> -> !waveasm.sreg";

/// `flips` flips of the base by 4096 an iteration (as LdsCopies.h updates
/// two copies), the last one copied to %next.
std::string flips(int flips) {
  std::string text, from = "%base";
  for (int i = 1; i <= flips; ++i) {
    std::string to = "%x" + std::to_string(i);
    text += "      " + to + ":2 = waveasm.s_xor_b32 " + from +
            ", %c4096 : !waveasm.sreg, !waveasm.imm<4096> -> !waveasm.sreg, "
            "!waveasm.scc\n";
    from = to + "#0";
  }
  return text + "      %next = waveasm.s_mov_b32 " + from +
         " : !waveasm.sreg -> !waveasm.sreg\n";
}

/// One add/compare/select step of three copies from `from` to `to`.
std::string rotate3(llvm::StringRef from, llvm::StringRef to) {
  return (llvm::Twine("      %") + to + "a:2 = waveasm.s_add_u32 " + from +
          ", %c4096 : !waveasm.sreg, !waveasm.imm<4096> -> !waveasm.sreg, "
          "!waveasm.scc\n      %" +
          to + "w = waveasm.s_cmp_ge_u32 %" + to +
          "a#0, %c12288 : !waveasm.sreg, !waveasm.imm<12288> -> "
          "!waveasm.scc\n      %" +
          to + " = waveasm.s_cselect_b32 %" + to + "w, %c0, %" + to +
          "a#0 : !waveasm.scc, !waveasm.imm<0>, !waveasm.sreg -> "
          "!waveasm.sreg\n")
      .str();
}

TEST(ConstantIterArgsTest, TwoXorsBringTheBaseBack) {
  // Base 0, two flips an iteration: 0 in every iteration; the add of 0
  // goes (the read takes the thread id) and so do the flips.
  Folded f = fold(kZero, flips(2));
  EXPECT_GT(f.changed, 0u);
  EXPECT_EQ(f.updates, 0u);
  EXPECT_EQ(f.adds, 0u);
  EXPECT_TRUE(f.readsLane);
}

TEST(ConstantIterArgsTest, ANonzeroConstantBecomesAnImmediate) {
  // Base 4096 (the second copy, computed by a flip before the loop).
  Folded f = fold(kFlipped, flips(2));
  EXPECT_EQ(f.updates, 0u);
  ASSERT_EQ(f.adds, 1u);
  EXPECT_EQ(f.immediates, llvm::SmallVector<int64_t>({4096}));
}

TEST(ConstantIterArgsTest, OneXorAlternates) {
  // One flip an iteration: 0, 4096, 0, ...: nothing folds.
  Folded f = fold(kZero, flips(1));
  EXPECT_EQ(f.changed, 0u);
  EXPECT_EQ(f.updates, 1u);
  EXPECT_EQ(f.adds, 1u);
  EXPECT_TRUE(f.immediates.empty());
}

TEST(ConstantIterArgsTest, ThreeCopiesThreeSteps) {
  // 0 -> 4096 -> 8192 -> 0 through add, compare, select.
  std::string steps =
      rotate3("%base", "r1") + rotate3("%r1", "r2") + rotate3("%r2", "next");
  Folded f = fold(kZero, steps);
  EXPECT_EQ(f.updates, 0u);
  EXPECT_EQ(f.adds, 0u);
  // Two steps of three copies: 0 -> 4096 -> 8192, not back.
  Folded g = fold(kZero, rotate3("%base", "r1") + rotate3("%r1", "next"));
  EXPECT_EQ(g.changed, 0u);
  EXPECT_EQ(g.updates, 4u); // two adds, two selects
  EXPECT_EQ(g.adds, 1u);
}

TEST(ConstantIterArgsTest, AnUnknownInitIsLeftAlone) {
  // The base starts at a value read from memory: unknown, even if two
  // flips bring it back.
  Folded f = fold(kLoaded, flips(2));
  EXPECT_EQ(f.changed, 0u);
  EXPECT_EQ(f.updates, 2u);
}

} // namespace
