//===- StepOrderTest.cpp - a pipelined step's implicit registers ----------===//
//
// pipeline/opt/StepOrder.h keepsImplicitRegisterFlow: a step's order must
// give every reader of VCC the writer the loop as written gives it (the
// highest stage, an older iteration, first; each iteration in body order).
// Stage 0 adds a 64-bit sum through VCC (v_add_co_u32 -> v_addc_co_u32),
// stage 1 selects on a compare (v_cmp_gt_i32 -> v_cndmask_b32).
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "analysis/LoopStages.h"
#include "pipeline/opt/StepOrder.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::test;

namespace {

const char *kOps = R"(
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %w = waveasm.precolored.vreg 1 : !waveasm.pvreg<1>
  %lo:2 = waveasm.v_add_co_u32 %v, %w : !waveasm.pvreg<0>, !waveasm.pvreg<1> -> !waveasm.vreg, !waveasm.sreg<2>
  %hi:2 = waveasm.v_addc_co_u32 %v, %w : !waveasm.pvreg<0>, !waveasm.pvreg<1> -> !waveasm.vreg, !waveasm.sreg<2>
  waveasm.v_cmp_gt_i32 %v, %w : !waveasm.pvreg<0>, !waveasm.pvreg<1>
  %sel = waveasm.v_cndmask_b32 %v, %w, %w : !waveasm.pvreg<0>, !waveasm.pvreg<1>, !waveasm.pvreg<1> -> !waveasm.vreg
  waveasm.s_endpgm
)";

} // namespace

TEST(StepOrderImplicitRegisters, ReadersKeepTheirWriters) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kOps));
  ASSERT_TRUE(module) << t.diagnostics;
  SmallVector<Operation *> ops;
  module->walk([&](Operation *op) {
    if (isa<V_ADD_CO_U32, V_ADDC_CO_U32, V_CMP_GT_I32, V_CNDMASK_B32>(op))
      ops.push_back(op);
  });
  ASSERT_EQ(ops.size(), 4u);
  Operation *add = ops[0], *addc = ops[1], *cmp = ops[2], *sel = ops[3];
  LoopStages stages;
  stages.numStages = 2;
  stages.ops.assign(ops.begin(), ops.end());
  stages.stages = {0, 0, 1, 1};
  auto keeps = [&](std::initializer_list<Operation *> order) {
    return keepsImplicitRegisterFlow(stages, SmallVector<Operation *>(order));
  };
  // As written: the older iteration's compare pair, then the carry pair.
  EXPECT_TRUE(keeps({cmp, sel, add, addc}));
  // Each reader still reads its own writer, but VCC is left holding the
  // compare's mask instead of the carry: the next step's first reader
  // (none here) would differ, and so may code after the loop.
  EXPECT_FALSE(keeps({add, addc, cmp, sel}));
  // The review's miscompile: the carry-out first, the compare pair
  // between, the carry-in reads the mask.
  EXPECT_FALSE(keeps({add, cmp, sel, addc}));
  EXPECT_FALSE(keeps({cmp, add, sel, addc}));
  // Ops without implicit registers may go anywhere: only VCC users here.
  stages.stages = {0, 0, 0, 0};
  EXPECT_TRUE(keeps({add, addc, cmp, sel}));
  EXPECT_FALSE(keeps({cmp, add, addc, sel}));
}
