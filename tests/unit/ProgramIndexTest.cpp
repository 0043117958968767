//===- ProgramIndexTest.cpp - op and value numbering ----------------------===//
//
// ProgramIndex::forEachUseFromOutside compares operand ids with the span of
// ids the loop's subtree defines (ProgramIndex.cpp): it must call back with
// exactly the operands, in order, that isDefinedInside places outside.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"
#include "MlirInputs.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;

namespace {

/// For every op of `module` with regions: forEachUseFromOutside against
/// the definition. Returns the ops checked.
unsigned checkUsesFromOutside(ModuleOp module, const std::string &what) {
  unsigned checked = 0;
  for (auto program : module.getOps<ProgramOp>()) {
    ProgramIndex index(program);
    for (unsigned idx = 0; idx < index.getNumOps(); ++idx) {
      if (index.getOp(idx)->getNumRegions() == 0)
        continue;
      std::vector<unsigned> expected, actual;
      for (unsigned op = idx; op <= index.getSubtreeEnd(idx); ++op)
        for (unsigned id : index.getOperandIds(op))
          if (id != ProgramIndex::kNone && !index.isDefinedInside(id, idx))
            expected.push_back(id);
      index.forEachUseFromOutside(idx,
                                  [&](unsigned id) { actual.push_back(id); });
      EXPECT_EQ(actual, expected) << what << ", op " << idx;
      ++checked;
    }
  }
  return checked;
}

} // namespace

// Nested loops and an if, a loop last in the program (its subtree ends the
// numbering), values from outside read at every depth.
TEST(ProgramIndex, UsesFromOutsideOfNestedRegions) {
  waveasm::test::ParsedAnalysisProgram p(R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %v0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%i = %i0, %v = %v0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %s:2 = waveasm.loop (%j = %i0, %w = %v) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
      %w1 = waveasm.v_add_u32 %w, %v0 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %j1, %sc = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %m = waveasm.s_cmp_lt_u32 %j1, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
      waveasm.condition %m : !waveasm.scc iter_args(%j1, %w1) : !waveasm.sreg, !waveasm.vreg
    }
    %q = waveasm.s_cmp_lt_u32 %i, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    %t = waveasm.if %q : !waveasm.scc -> !waveasm.vreg {
      %u = waveasm.v_add_u32 %s#1, %v0 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      waveasm.yield %u : !waveasm.vreg
    } else {
      waveasm.yield %v : !waveasm.vreg
    }
    %i1, %sc2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %n = waveasm.s_cmp_lt_u32 %i1, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %n : !waveasm.scc iter_args(%i1, %t) : !waveasm.sreg, !waveasm.vreg
  }
  )");
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  EXPECT_EQ(checkUsesFromOutside(*p.module, "nested"), 3u);
}

// Every loop and if of every input and pipelined example.
TEST(ProgramIndex, UsesFromOutsideOnEveryInput) {
  unsigned checked = 0;
  waveasm::test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        checked += checkUsesFromOutside(module, name);
      });
  EXPECT_GT(checked, 300u);
}
