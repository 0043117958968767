//===- LiveModelTest.cpp - the allocator's live intervals by class --------===//
//
// VGPR compaction builds the allocator's LiveModel of VGPR values only
// (`onlyClass`): an interval depends on nothing but its own value's
// definition and uses. Here the VGPR-only model of every input, allocated,
// is compared with the VGPR values of the model of every class: the same
// values in the same order with the same intervals, sizes and op numbers.
//
//===----------------------------------------------------------------------===//

#include "MlirInputs.h"

#include "pipeline/LiveIntervals.h"

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

} // namespace
