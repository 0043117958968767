//===- VectorPressureBoundTest.cpp - the bound against Liveness's peak ----===//
//
// Loop address promotion promotes at once when a bound of the live vector
// registers is far below its limit (pipeline/opt/VectorPressureBound.h), and
// counts them exactly only otherwise: the decision is the exact one only if
// the bound is never below Liveness's peak VGPRs plus peak AGPRs. Checked on
// every input, the pipelined examples and random programs with packs,
// extracts, inserts, MFMAs, loops and ifs, and on the two shapes where a
// bound over the values' own ranges and widths would fall short.
//
//===----------------------------------------------------------------------===//

#include "AllocationPrograms.h"
#include "AnalysisTestUtils.h"
#include "MlirInputs.h"
#include "RandomPrograms.h"

#include "analysis/Liveness.h"
#include "pipeline/opt/VectorPressureBound.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

int64_t exactPeak(ProgramOp program) {
  ProgramIndex index(program);
  Liveness liveness(index);
  return liveness.getPeak(RegClass::VGPR).regs +
         liveness.getPeak(RegClass::AGPR).regs;
}

/// The bound and the exact peak of every program of `module`.
void expectBounded(ModuleOp module, const std::string &what) {
  for (ProgramOp program : module.getOps<ProgramOp>()) {
    int64_t exact = exactPeak(program);
    int64_t bound = boundVectorRegisterPeak(program);
    EXPECT_GE(bound, exact) << what << " @" << program.getSymName().str();
  }
}

// A value yielded by the then region shares its register block with the
// if's result, whose envelope spans the else region: %x lives there beside
// the block's 2 registers (6), where neither %t nor %e does.
const char *kThenYieldGap = R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %cond = waveasm.s_cmp_eq_u32 %s, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc
  %r = waveasm.if %cond : !waveasm.scc -> !waveasm.vreg<2, 2> {
    %t = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg<2, 2>
    waveasm.yield %t : !waveasm.vreg<2, 2>
  } else {
    %x = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    waveasm.ds_write_b128 %x, %c0 : !waveasm.vreg<4, 4>, !waveasm.imm<0>
    %e = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg<2, 2>
    waveasm.yield %e : !waveasm.vreg<2, 2>
  }
  waveasm.ds_write_b64 %r, %c0 : !waveasm.vreg<2, 2>, !waveasm.imm<0>
  waveasm.s_endpgm
)";

// An extract's result lives in its source's 4 registers after the source
// dies: beside %w that is 8, where the values' own widths give 5.
const char *kNarrowAlias = R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %q = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %lo = waveasm.extract %q[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %w = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %w, %c0 : !waveasm.vreg<4, 4>, !waveasm.imm<0>
  waveasm.ds_write_b32 %lo, %c0 : !waveasm.vreg, !waveasm.imm<0>
  waveasm.s_endpgm
)";

TEST(VectorPressureBound, ThenYieldCoversTheElseRegion) {
  ParsedAnalysisProgram p(kThenYieldGap);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  EXPECT_EQ(exactPeak(p.program), 6);
  EXPECT_GE(boundVectorRegisterPeak(p.program), 6);
}

TEST(VectorPressureBound, AliasCountsItsWidestMember) {
  ParsedAnalysisProgram p(kNarrowAlias);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  EXPECT_EQ(exactPeak(p.program), 8);
  EXPECT_GE(boundVectorRegisterPeak(p.program), 8);
}

TEST(VectorPressureBound, EveryInput) {
  unsigned checked = 0;
  test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &what) {
        expectBounded(module, what);
        ++checked;
      });
  EXPECT_GT(checked, 100u);
}

TEST(VectorPressureBound, RandomPrograms) {
  for (unsigned seed = 1; seed <= 300; ++seed) {
    test::TestContext t;
    std::string text = test::allocation::Generator(seed).program();
    OwningOpRef<ModuleOp> module = t.parseModule(text);
    ASSERT_TRUE(module) << t.diagnostics << text;
    expectBounded(*module, "allocation seed " + std::to_string(seed));
    std::string dead = test::DeadCodeGenerator(seed).program();
    OwningOpRef<ModuleOp> other = t.parseModule(dead);
    ASSERT_TRUE(other) << t.diagnostics << dead;
    expectBounded(*other, "dead-code seed " + std::to_string(seed));
  }
}

} // namespace
