//===- ImmediatesTest.cpp - the constant an immediate operand holds -------===//
//
// ir/Immediates.h: a constant's attribute, the attribute winning over the
// immediate type's parameter where they disagree (SPEC.md 5), nothing for
// a register.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "ir/Immediates.h"

#include <gtest/gtest.h>

using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

TEST(Immediates, AttributeThenTypeThenNothing) {
  auto p = ParsedAnalysisProgram::fromFile(R"(
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c7 = waveasm.constant 7 : !waveasm.imm<7> loc("seven")
  %odd = waveasm.constant 5 : !waveasm.imm<0> loc("disagree")
  %v = waveasm.v_mov_b32 %c7 : !waveasm.imm<7> -> !waveasm.vreg loc("mov")
  %w = waveasm.v_add_u32 %v, %odd : !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg loc("add")
  waveasm.s_endpgm
}
)");
  ASSERT_TRUE(p->module) << p->t.diagnostics;
  EXPECT_EQ(getImmediateValue(p->value("seven")), 7);
  EXPECT_EQ(getImmediateValue(p->value("disagree")), 5);
  // A register, even one moved from a constant, is not an immediate.
  EXPECT_EQ(getImmediateValue(p->value("mov")), std::nullopt);
  EXPECT_EQ(getImmediateValue(mlir::Value()), std::nullopt);
  // As an operand, the value the instruction is emitted with.
  EXPECT_EQ(getImmediateValue(p->op("add")->getOperand(1)), 5);
}

} // namespace
