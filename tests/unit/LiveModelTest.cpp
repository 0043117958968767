//===- LiveModelTest.cpp - the allocator's live intervals by class --------===//
//
// VGPR compaction builds the allocator's LiveModel of VGPR values only
// (`onlyClass`): an interval depends on nothing but its own value's
// definition and uses. Here the VGPR-only model of every input, allocated,
// is compared with the VGPR values of the model of every class: the same
// values in the same order with the same intervals, sizes and op numbers.
//
// The linear scan's rounds after copies build their model from the previous
// round's (buildIntervalsAfterInsertions). On every input and pipelined
// example, copies are inserted before a third of the ops (and every loop,
// condition and yield: the allocator's places) for their register operands,
// some into physical registers, and the model built from the one before
// must equal a fresh build field by field; an erased op falls back to a
// fresh build.
//
//===----------------------------------------------------------------------===//

#include "MlirInputs.h"

#include "pipeline/LiveIntervals.h"

#include "mlir/IR/Builders.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::regalloc;

namespace {

/// Allocates the programs of `module` (the compaction's input); false when
/// allocation fails (left out).
bool allocate(ModuleOp module) {
  PassManager pm(module->getContext());
  pm.nest<ProgramOp>().addPass(createWaveASMLinearScan());
  return succeeded(pm.run(module));
}

TEST(LiveModel, VGPROnlyIntervalsEqualTheVGPRsOfTheFullModel) {
  unsigned programs = 0, values = 0;
  test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        if (!allocate(module))
          return;
        for (ProgramOp program : module.getOps<ProgramOp>()) {
          if (program.getBody().empty())
            continue;
          LiveModel full(program), vgprs(program);
          full.includePhysical = vgprs.includePhysical = true;
          vgprs.onlyClass = RegClass::VGPR;
          full.buildIntervals();
          vgprs.buildIntervals();
          ASSERT_EQ(full.ops, vgprs.ops) << name;
          std::vector<const LiveValue *> expected;
          for (const LiveValue &info : full.values)
            if (info.regClass == RegClass::VGPR)
              expected.push_back(&info);
          ASSERT_EQ(expected.size(), vgprs.values.size()) << name;
          for (auto [id, info] : llvm::enumerate(vgprs.values)) {
            const LiveValue &want = *expected[id];
            EXPECT_EQ(info.value, want.value) << name;
            EXPECT_EQ(info.regClass, RegClass::VGPR) << name;
            EXPECT_EQ(info.size, want.size) << name;
            EXPECT_EQ(info.defOp, want.defOp) << name;
            EXPECT_EQ(info.live.start, want.live.start) << name;
            EXPECT_EQ(info.live.end, want.live.end) << name;
            EXPECT_EQ(vgprs.idOf(info.value), static_cast<int32_t>(id)) << name;
          }
          ++programs;
          values += vgprs.values.size();
        }
      });
  EXPECT_GT(programs, 50u);
  EXPECT_GT(values, 1000u);
}

/// What collectValues, computeIntervals and buildAliases/buildRootGroups
/// leave, compared field by field (`what` names the program).
void expectSameModel(LiveModel &got, LiveModel &want, const std::string &what,
                     unsigned &compared) {
  ASSERT_EQ(got.ops, want.ops) << what;
  for (auto [index, op] : llvm::enumerate(want.ops)) {
    EXPECT_EQ(got.tiedOperandAt(index), want.tiedOperandAt(index)) << what;
    if (op->getNumRegions())
      EXPECT_EQ(got.regionEndOf(op), want.regionEndOf(op)) << what;
  }
  auto sameValues = [&](ArrayRef<LiveValue> a, ArrayRef<LiveValue> b) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (auto [x, y] : llvm::zip(a, b)) {
      EXPECT_EQ(x.value, y.value) << what;
      EXPECT_EQ(x.regClass, y.regClass) << what;
      EXPECT_EQ(x.size, y.size) << what;
      EXPECT_EQ(x.align, y.align) << what;
      EXPECT_EQ(x.defOp, y.defOp) << what;
      EXPECT_EQ(x.live.start, y.live.start) << what;
      EXPECT_EQ(x.live.end, y.live.end) << what;
      EXPECT_EQ(x.parent, y.parent) << what;
      EXPECT_EQ(x.offset, y.offset) << what;
      EXPECT_EQ(x.fixed, y.fixed) << what;
      EXPECT_EQ(x.group, y.group) << what;
      EXPECT_EQ(x.precolored, y.precolored) << what;
      EXPECT_EQ(got.idOf(x.value), want.idOf(y.value)) << what;
      ++compared;
    }
  };
  sameValues(got.values, want.values);
  sameValues(got.trackedPhysical, want.trackedPhysical);
  for (int32_t id = 0, e = static_cast<int32_t>(want.values.size()); id < e;
       ++id)
    EXPECT_EQ(got.ownsPrecoloredRegisters(id), want.ownsPrecoloredRegisters(id))
        << what;
  EXPECT_EQ(got.valueIds.size(), want.valueIds.size()) << what;
}

/// Inserts copies as the allocator's rounds do: before every third op and
/// every loop, condition and yield, one per register operand of one
/// register (a VGPR or SGPR; every fourth into a physical register above
/// those in use), which the op then reads. Returns how many.
unsigned insertCopies(ArrayRef<Operation *> ops) {
  unsigned copies = 0;
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (index % 3 != 0 && !isa<LoopOp, ConditionOp, YieldOp>(op))
      continue;
    OpBuilder b(op);
    MLIRContext *ctx = op->getContext();
    for (OpOperand &operand : op->getOpOperands()) {
      Type type = operand.get().getType();
      std::optional<RegClass> cls = getRegClass(type);
      if (!cls || *cls == RegClass::AGPR || getRegSize(type) != 1)
        continue;
      bool physical = copies % 4 == 3;
      int64_t reg = *cls == RegClass::VGPR ? 200 : 90;
      Type copyType = physical ? getPhysicalType(ctx, *cls, reg, 1)
                      : *cls == RegClass::VGPR ? Type(VRegType::get(ctx, 1, 1))
                                               : Type(SRegType::get(ctx, 1, 1));
      Value copy =
          *cls == RegClass::VGPR
              ? V_MOV_B32::create(b, op->getLoc(), copyType, operand.get())
                    .getResult()
              : S_MOV_B32::create(b, op->getLoc(), copyType, operand.get())
                    .getResult();
      operand.set(copy);
      ++copies;
    }
  }
  return copies;
}

/// The allocator's model: virtual values, physical VGPRs tracked.
void buildAllocatorModel(LiveModel &model, LiveModel *previous) {
  model.trackPhysicalClass = RegClass::VGPR;
  if (previous)
    model.buildIntervalsAfterInsertions(*previous);
  else
    model.buildIntervals();
  model.buildGroups();
}

TEST(LiveModel, AfterInsertionsEqualsAFreshBuild) {
  unsigned programs = 0, copies = 0, compared = 0;
  test::forEachInputAndPipelinedExample(
      [&](ModuleOp input, const std::string &name) {
        // The copies make IR no pass expects: on a clone (the caller
        // pipelines `input` next).
        OwningOpRef<ModuleOp> module = input.clone();
        for (ProgramOp program : module->getOps<ProgramOp>()) {
          if (program.getBody().empty())
            continue;
          // The previous round's model, with its groups built (the
          // allocator ties on it before it inserts its copies).
          LiveModel before(program);
          buildAllocatorModel(before, nullptr);
          copies += insertCopies(before.ops);
          LiveModel after(program), fresh(program);
          buildAllocatorModel(after, &before);
          buildAllocatorModel(fresh, nullptr);
          expectSameModel(after, fresh, name, compared);
          ++programs;
        }
      });
  EXPECT_GT(programs, 50u);
  EXPECT_GT(copies, 1000u);
  EXPECT_GT(compared, 5000u);
}

TEST(LiveModel, AfterAnErasureBuildsAfresh) {
  test::TestContext t;
  auto module = t.parseModule(test::program(R"(
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %v = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg
  %dead = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg
  %w = waveasm.v_add_u32 %v, %v : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %w : !waveasm.vreg
  waveasm.s_endpgm)"));
  ASSERT_TRUE(module) << t.diagnostics;
  ProgramOp program = *module->getOps<ProgramOp>().begin();
  LiveModel before(program);
  buildAllocatorModel(before, nullptr);
  ASSERT_EQ(before.values.size(), 3u);
  before.values[1].value.getDefiningOp()->erase();
  LiveModel after(program), fresh(program);
  buildAllocatorModel(after, &before);
  buildAllocatorModel(fresh, nullptr);
  unsigned compared = 0;
  expectSameModel(after, fresh, "erased", compared);
  EXPECT_EQ(compared, 2u);
}

} // namespace
