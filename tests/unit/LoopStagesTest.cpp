//===- LoopStagesTest.cpp - stage assignment and its rules ----------------===//
//
// analysis/LoopStages.h on small loops: loads and their address arithmetic
// and the loop control in stage 0, consumers late; each rule, broken by
// hand-edited stages, is named; a shared-memory dependence forbids
// pipelining.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "analysis/LoopStages.h"
#include "pipeline/opt/StepOrder.h"

#include "mlir/IR/Builders.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::test;

namespace {

// The values every loop below starts from.
const char *kPrelude = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
)";

// Body ops: 0 soff, 1 x (load), 2 y (x + x), 3 acc', 4 k', 5 more.
const std::string kSum = std::string(kPrelude) + R"(
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %soff:2 = waveasm.s_lshl_b32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.sreg, !waveasm.scc
    %x = waveasm.buffer_load_dword %srd, %tid, %soff#0 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %y = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %a = waveasm.v_add_u32 %acc, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %a) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.s_endpgm
)";

LoopOp firstLoop(ModuleOp module) {
  LoopOp loop;
  module.walk([&](LoopOp l) { loop = l; });
  return loop;
}

void setStages(LoopOp loop, ArrayRef<int> stages) {
  Builder b(loop);
  for (auto [op, s] :
       llvm::zip(loop.getBodyBlock().without_terminator(), stages))
    op.setAttr(kStageAttrName, b.getI32IntegerAttr(s));
}

} // namespace

TEST(LoopStages, LoadsEarlyConsumersLate) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kSum));
  ASSERT_TRUE(module) << t.diagnostics;
  LoopStages two = computeLoopStages(firstLoop(*module), 2);
  ASSERT_TRUE(two.ok()) << two.failure;
  EXPECT_EQ(two.stages, (SmallVector<int>{0, 0, 1, 1, 0, 0}));
  EXPECT_EQ(two.clusters, (SmallVector<int>{0, 0, 1, 1, 2, 2}));
  // Three stages: the register load's direct consumer is two steps after
  // it (its latency is more than a step), with the accumulation.
  LoopStages three = computeLoopStages(firstLoop(*module), 3);
  ASSERT_TRUE(three.ok()) << three.failure;
  EXPECT_EQ(three.stages, (SmallVector<int>{0, 0, 2, 2, 0, 0}));
  // Four stages: no MFMA keeps the last stage for itself (a streaming
  // loop), so the consumer takes it, three steps after the load (an MFMA
  // loop's consumers take the stage before the last).
  LoopStages four = computeLoopStages(firstLoop(*module), 4);
  ASSERT_TRUE(four.ok()) << four.failure;
  EXPECT_EQ(four.stages, (SmallVector<int>{0, 0, 3, 3, 0, 0}));
}

TEST(LoopStages, HandEditsAreCheckedByTheSameRules) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kSum));
  ASSERT_TRUE(module) << t.diagnostics;
  LoopOp loop = firstLoop(*module);
  EXPECT_FALSE(hasLoopStages(loop));
  // Legal: everything but the accumulation early.
  setStages(loop, {0, 0, 0, 1, 0, 0});
  LoopStages legal = readLoopStages(loop);
  EXPECT_TRUE(legal.ok()) << legal.failure;
  EXPECT_EQ(legal.numStages, 2);
  // SSA: the consumer before its load.
  setStages(loop, {0, 1, 0, 1, 0, 0});
  LoopStages ssa = readLoopStages(loop);
  EXPECT_NE(ssa.failure.find("uses the result of 'waveasm.buffer_load_dword'"),
            std::string::npos)
      << ssa.failure;
  // Iterations: the increment after the ops reading its previous value.
  setStages(loop, {0, 0, 1, 1, 1, 0});
  LoopStages carried = readLoopStages(loop);
  EXPECT_NE(carried.failure.find("reads iter_arg 0"), std::string::npos)
      << carried.failure;
  // Loop control.
  setStages(loop, {0, 0, 1, 1, 0, 1});
  LoopStages control = readLoopStages(loop);
  EXPECT_NE(control.failure.find("loop control"), std::string::npos)
      << control.failure;
  // A missing annotation.
  loop.getBodyBlock().front().removeAttr(kStageAttrName);
  EXPECT_NE(readLoopStages(loop).failure.find("has no waveasm.stage"),
            std::string::npos);
}

TEST(LoopStages, LDSDependenceKeepsOneStage) {
  // The load's value goes through LDS: ds_write, the barrier and ds_read
  // share a stage (any two lanes may exchange data); the global load still
  // runs ahead of them.
  TestContext t;
  OwningOpRef<ModuleOp> module =
      t.parseModule(program(std::string(kPrelude) + R"(
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %x = waveasm.buffer_load_dword %srd, %tid, %k : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    waveasm.ds_write_b32 %x, %tid : !waveasm.vreg, !waveasm.pvreg<0>
    waveasm.s_barrier
    %y = waveasm.ds_read_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
    %s = waveasm.v_add_u32 %acc, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %s) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(module) << t.diagnostics;
  LoopStages stages = computeLoopStages(firstLoop(*module), 2);
  ASSERT_TRUE(stages.ok()) << stages.failure;
  // load 0; ds_write, barrier, ds_read, add 1; control 0.
  EXPECT_EQ(stages.stages, (SmallVector<int>{0, 1, 1, 1, 1, 0, 0}));
  // Moving the LDS read alone to stage 0 breaks the LDS rule.
  setStages(firstLoop(*module), {0, 1, 1, 0, 1, 0, 0});
  LoopStages edited = readLoopStages(firstLoop(*module));
  EXPECT_NE(edited.failure.find("writes LDS memory"), std::string::npos)
      << edited.failure;
}

TEST(LoopStages, PrivateLDSSplitsIntoCopies) {
  // LDS private to an iteration: write, barrier, read, barrier. The writes
  // (and the barrier publishing them) run a stage before the reads (and the
  // barrier after them), so two copies of the buffer are in flight; without
  // copies, or without the second barrier, everything LDS shares a stage.
  const std::string body = std::string(kPrelude) + R"(
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %x = waveasm.buffer_load_dword %srd, %tid, %k : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    waveasm.ds_write_b32 %x, %tid : !waveasm.vreg, !waveasm.pvreg<0>
    waveasm.s_barrier
    %y = waveasm.ds_read_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
    %s = waveasm.v_add_u32 %acc, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.s_barrier
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %s) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.s_endpgm
)";
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(body));
  ASSERT_TRUE(module) << t.diagnostics;
  LoopOp loop = firstLoop(*module);
  EXPECT_EQ(ldsCopyShape(loop), "");
  LoopStages stages = computeLoopStages(loop, 2);
  ASSERT_TRUE(stages.ok()) << stages.failure;
  // load, ds_write, barrier 0; ds_read, add, barrier 1; control 0.
  EXPECT_EQ(stages.stages, (SmallVector<int>{0, 0, 0, 1, 1, 1, 0, 0}));
  EXPECT_EQ(stages.ldsCopies, 2);
  // Three stages: the write consumes the load (stage 1), reads last.
  LoopStages three = computeLoopStages(loop, 3);
  ASSERT_TRUE(three.ok()) << three.failure;
  EXPECT_EQ(three.stages, (SmallVector<int>{0, 1, 1, 2, 2, 2, 0, 0}));
  EXPECT_EQ(three.ldsCopies, 2);
  // Four and five stages: the reads (and the barrier after them) get a
  // stage of their own before the last, the writes (and the barrier
  // publishing them) the one before that, as far from the load as that
  // leaves; still two copies in flight.
  LoopStages four = computeLoopStages(loop, 4);
  ASSERT_TRUE(four.ok()) << four.failure;
  EXPECT_EQ(four.stages, (SmallVector<int>{0, 1, 1, 2, 3, 2, 0, 0}));
  EXPECT_EQ(four.ldsCopies, 2);
  LoopStages five = computeLoopStages(loop, 5);
  ASSERT_TRUE(five.ok()) << five.failure;
  EXPECT_EQ(five.stages, (SmallVector<int>{0, 2, 2, 3, 4, 3, 0, 0}));
  EXPECT_EQ(five.ldsCopies, 2);
  // Copies not allowed: the old rule, LDS in one stage.
  LoopStages single = computeLoopStages(loop, 2, /*allowLdsCopies=*/false);
  ASSERT_TRUE(single.ok()) << single.failure;
  EXPECT_EQ(single.stages, (SmallVector<int>{0, 1, 1, 1, 1, 1, 0, 0}));
  EXPECT_EQ(single.ldsCopies, 1);
  // A hand edit reading a copy two iterations old needs three copies.
  setStages(loop, {0, 0, 0, 2, 2, 2, 0, 0});
  LoopStages edited = readLoopStages(loop);
  ASSERT_TRUE(edited.ok()) << edited.failure;
  EXPECT_EQ(edited.numStages, 3);
  EXPECT_EQ(edited.ldsCopies, 3);

  // Without the barrier after the read, the next iteration's write could
  // overtake another wave's read: no copies, and the shape says why.
  std::string noWar = body;
  noWar.erase(noWar.rfind("    waveasm.s_barrier\n"),
              std::string("    waveasm.s_barrier\n").size());
  OwningOpRef<ModuleOp> racy = t.parseModule(program(noWar));
  ASSERT_TRUE(racy) << t.diagnostics;
  EXPECT_NE(ldsCopyShape(firstLoop(*racy)).find("write-after-read"),
            std::string::npos);
  EXPECT_EQ(computeLoopStages(firstLoop(*racy), 2).ldsCopies, 1);
}

// Step order (pipeline/opt/StepOrder.h, late-first): a barrier of the LDS
// stage waits while the LDS access before it drains (the LDS latency, 20
// slots on gfx942): the MFMAs of the last stage (4 pipe slots each) issue
// first until 20 slots have passed, then the barrier and the read after it,
// then the last MFMA. The loop counter's add (stage 0's rest, no memory)
// issues while the first MFMA holds the pipe, not after the step's last
// MFMA (StepMerge.h "nearest"). Body ops: 0 soff, 1 load, 2 ds_write,
// 3 s_barrier, 4 ds_read, 5-10 MFMAs, 11 k', 12 more.
TEST(StepOrder, BarrierWaitsOutTheLdsDrainOnly) {
  const std::string body = std::string(kPrelude) + R"(
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %r:2 = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>) {
    %soff:2 = waveasm.s_lshl_b32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.sreg, !waveasm.scc
    %x = waveasm.buffer_load_dword %srd, %tid, %soff#0 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    waveasm.ds_write_b32 %x, %tid : !waveasm.vreg, !waveasm.pvreg<0>
    waveasm.s_barrier
    %f = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
    %m1 = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m2 = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %m1 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m3 = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %m2 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m4 = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %m3 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m5 = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %m4 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m6 = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %m5 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %m6) : !waveasm.sreg, !waveasm.vreg<4, 4>
  }
  waveasm.s_endpgm
)";
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(body));
  ASSERT_TRUE(module) << t.diagnostics;
  LoopOp loop = firstLoop(*module);
  // Three stages: the load and loop control, the LDS group (the write
  // address is not the copy shape's: one barrier only), the MFMAs.
  setStages(loop, {0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 0, 0});
  LoopStages stages = readLoopStages(loop);
  ASSERT_TRUE(stages.ok()) << stages.failure;
  SmallVector<Operation *> order =
      computeStepOrder(stages, StepOrder::LateFirst);
  SmallVector<int> positions;
  for (Operation *op : order)
    positions.push_back(stages.indexOf(op));
  EXPECT_EQ(positions,
            (SmallVector<int>{0, 1, 2, 5, 11, 6, 7, 8, 9, 3, 4, 10, 12}));
}
