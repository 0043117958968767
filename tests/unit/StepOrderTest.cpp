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

namespace {

// A stage-0 prefetch through a 64-bit pointer add (s_add_u32's carry read
// by s_addc_u32 as an SSA value) after an SCC writer that stays (an LDS
// copy base's s_xor_b32), and a stage-1 store of the loaded tile.
const char *kPrefetch = R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %p = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %p0 = waveasm.s_mov_b64 %p : !waveasm.psreg<0, 2> -> !waveasm.sreg<2, 2>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend, %bend, %pend = waveasm.loop (%k = %k0, %b = %b0, %ptr = %p0)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg<2, 2>) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg<2, 2>) {
    %bx:2 = waveasm.s_xor_b32 %b, %c4096 : !waveasm.sreg, !waveasm.imm<4096> -> !waveasm.sreg, !waveasm.scc
    %lo = waveasm.extract %ptr[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
    %hi = waveasm.extract %ptr[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
    %a:2 = waveasm.s_add_u32 %lo, %c64 : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.sreg, !waveasm.scc
    %h:2 = waveasm.s_addc_u32 %a#1, %hi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
    %np = waveasm.pack %a#0, %h#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>
    %v = waveasm.global_load_dwordx4 %np, %tid, %c0 : !waveasm.sreg<2, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    waveasm.buffer_store_dwordx4 %v, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %bx#0, %np) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg<2, 2>
  }
  waveasm.s_endpgm
)";

} // namespace

// The carry the hoisted s_addc_u32 reads is the hoisted s_add_u32's SSA
// value, which moves with it: the prefetch goes ahead of the s_xor_b32
// (an SCC writer it passes) to the top of the step. Read as a plain SCC
// read (before), the s_xor_b32 held the whole prefetch at the end of the
// step (gemm_f16_32x32x8: its first MFMA of a step waited behind it).
TEST(StepOrderPrefetch, ACarryFromTheHoistedAddDoesNotHoldThePrefetch) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kPrefetch));
  ASSERT_TRUE(module) << t.diagnostics;
  LoopOp loop;
  module->walk([&](LoopOp l) { loop = l; });
  ASSERT_TRUE(loop);
  LoopStages stages;
  stages.numStages = 2;
  for (Operation &op : loop.getBodyBlock().without_terminator()) {
    stages.ops.push_back(&op);
    stages.stages.push_back(isa<BUFFER_STORE_DWORDX4>(op) ? 1 : 0);
  }
  SmallVector<Operation *> order =
      computeStepOrder(stages, StepOrder::LateFirst);
  ASSERT_EQ(order.size(), stages.ops.size());
  auto position = [&](auto isOp) {
    return llvm::find_if(order, isOp) - order.begin();
  };
  auto load =
      position([](Operation *op) { return isa<GLOBAL_LOAD_DWORDX4>(op); });
  auto flip = position([](Operation *op) { return isa<S_XOR_B32>(op); });
  auto store =
      position([](Operation *op) { return isa<BUFFER_STORE_DWORDX4>(op); });
  EXPECT_LT(load, flip);
  EXPECT_LT(load, store);
  // The carry pair stays in order, next to each other.
  auto add = position([&](Operation *op) {
    return isa<S_ADD_U32>(op) && op != stages.ops[stages.ops.size() - 2];
  });
  auto addc = position([](Operation *op) { return isa<S_ADDC_U32>(op); });
  EXPECT_EQ(addc, add + 1);
}
