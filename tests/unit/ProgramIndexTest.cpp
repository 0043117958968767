//===- ProgramIndexTest.cpp - op and value numbering ----------------------===//
//
// ProgramIndex::forEachUseFromOutside compares operand ids with the span of
// ids the loop's subtree defines (ProgramIndex.cpp): it must call back with
// exactly the operands, in order, that isDefinedInside places outside. The
// index sizes its tables first and writes them in place: every table must
// be what the pre-order walk of the program defines.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"
#include "MlirInputs.h"

#include "ir/RegisterTypes.h"

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

/// Every table of the index of each program of `module` against its
/// definition: the ops in Region::walk's pre-order, each op's results then
/// its regions' block arguments numbered in that order, operands by those
/// numbers, subtree ends, innermost loops, register classes and sizes.
/// Counts the ops checked in `checked`.
void checkTables(ModuleOp module, const std::string &what, unsigned &checked) {
  for (auto program : module.getOps<ProgramOp>()) {
    ProgramIndex index(program);
    std::vector<Operation *> ops;
    program.getBody().walk<WalkOrder::PreOrder>(
        [&](Operation *op) { ops.push_back(op); });
    ASSERT_EQ(index.getNumOps(), ops.size()) << what;
    llvm::DenseMap<Value, unsigned> ids;
    std::vector<unsigned> loops;
    for (auto [idx, op] : llvm::enumerate(ops)) {
      ASSERT_EQ(index.getOp(idx), op) << what;
      ASSERT_EQ(index.lookup(op), std::optional<unsigned>(idx)) << what;
      auto define = [&](Value value, bool isBlockArg) {
        unsigned id = ids.size();
        ids[value] = id;
        ASSERT_LT(id, index.getNumValues()) << what;
        EXPECT_EQ(index.getValue(id), value) << what;
        EXPECT_EQ(index.lookupValue(value), std::optional<unsigned>(id))
            << what;
        EXPECT_EQ(index.getDefOp(id), idx) << what;
        EXPECT_EQ(index.isBlockArg(id), isBlockArg) << what;
        RegTypeInfo type = getRegTypeInfo(value.getType());
        EXPECT_EQ(index.getRegClass(id), type.cls) << what;
        EXPECT_EQ(index.getRegSize(id), type.size) << what;
      };
      llvm::ArrayRef<unsigned> operandIds = index.getOperandIds(idx);
      ASSERT_EQ(operandIds.size(), op->getNumOperands()) << what;
      for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
        auto it = ids.find(operand);
        EXPECT_EQ(operandIds[k],
                  it == ids.end() ? ProgramIndex::kNone : it->second)
            << what << ", op " << idx << " operand " << k;
      }
      for (auto [i, result] : llvm::enumerate(op->getResults())) {
        EXPECT_EQ(index.getResultId(idx, i), ids.size()) << what;
        define(result, false);
      }
      unsigned args = 0;
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments()) {
            EXPECT_EQ(index.getBlockArgId(idx, args++), ids.size()) << what;
            define(arg, true);
          }
      unsigned end = idx;
      while (end + 1 < ops.size() && op->isProperAncestor(ops[end + 1]))
        ++end;
      EXPECT_EQ(index.getSubtreeEnd(idx), end) << what;
      auto loop = op->getParentOfType<LoopOp>();
      bool inProgram = loop && program->isProperAncestor(loop);
      EXPECT_EQ(index.getParentLoop(idx),
                inProgram ? *index.lookup(loop) : ProgramIndex::kNone)
          << what;
      if (isa<LoopOp>(op))
        loops.push_back(idx);
      ++checked;
    }
    EXPECT_EQ(index.getNumValues(), ids.size()) << what;
    EXPECT_EQ(index.getLoops(), llvm::ArrayRef(loops)) << what;
  }
}

} // namespace

// Every table of every input and pipelined example.
TEST(ProgramIndex, TablesAreThePreOrderNumbering) {
  unsigned checked = 0;
  waveasm::test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        checkTables(module, name, checked);
      });
  EXPECT_GT(checked, 10000u);
}

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
