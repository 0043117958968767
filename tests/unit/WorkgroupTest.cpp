//===- WorkgroupTest.cpp - waves of a program's workgroup -----------------===//
//
// ir/Workgroup.h: the waves a declared workgroup_size makes on the target's
// wave size, none for an undeclared one; only a declared single wave lets a
// barrier skip its LDS waits (pipeline/InsertWaitcnt.cpp (b)); the declared
// dimensions every analysis reads (occupancy, bank conflicts, the
// simulator).
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "ir/Workgroup.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::test;

namespace {

/// A gfx942 program with `attributes` ("" for none) holding a barrier.
OwningOpRef<ModuleOp> programWith(TestContext &t, llvm::StringRef attributes) {
  std::string text =
      "waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = "
      "#waveasm.abi<> " +
      attributes.str() + " {\n  waveasm.s_barrier\n  waveasm.s_endpgm\n}\n";
  OwningOpRef<ModuleOp> module = t.parseModule(text);
  EXPECT_TRUE(module) << t.diagnostics;
  return module;
}

/// The waves of a program with `attributes`, asked through an op inside it.
std::optional<int64_t> wavesOf(TestContext &t, llvm::StringRef attributes,
                               bool &single) {
  OwningOpRef<ModuleOp> module = programWith(t, attributes);
  if (!module)
    return std::nullopt;
  Operation *barrier = nullptr;
  module->walk([&](S_BARRIER op) { barrier = op; });
  single = isDeclaredSingleWave(barrier);
  return getWorkgroupWaves(barrier);
}

TEST(Workgroup, WavesFromTheDeclaredSize) {
  TestContext t;
  bool single = false;
  EXPECT_EQ(wavesOf(t, "attributes {workgroup_size = [64, 1, 1]}", single), 1);
  EXPECT_TRUE(single);
  EXPECT_EQ(wavesOf(t, "attributes {workgroup_size = [32, 2, 1]}", single), 1);
  EXPECT_TRUE(single);
  // 65 work items are two waves of 64 (the second one lane).
  EXPECT_EQ(wavesOf(t, "attributes {workgroup_size = [65, 1, 1]}", single), 2);
  EXPECT_FALSE(single);
  EXPECT_EQ(wavesOf(t, "attributes {workgroup_size = [64, 2, 2]}", single), 4);
  EXPECT_FALSE(single);
  // No size: unknown, not a single wave for the barrier rule.
  EXPECT_EQ(wavesOf(t, "", single), std::nullopt);
  EXPECT_FALSE(single);
  EXPECT_EQ(getWorkgroupWaves(nullptr), std::nullopt);
}

/// The declared dimensions and work items of a program with `attributes`.
std::optional<std::array<int64_t, 3>>
dimsOf(TestContext &t, llvm::StringRef attributes, int64_t &workItems) {
  OwningOpRef<ModuleOp> module = programWith(t, attributes);
  if (!module)
    return std::nullopt;
  Operation *program = &module->getBody()->front();
  workItems = getWorkgroupWorkItems(program, 256);
  return getDeclaredWorkgroupSize(program);
}

TEST(Workgroup, DimensionsFromTheDeclaredSize) {
  TestContext t;
  int64_t items = 0;
  using Dims = std::array<int64_t, 3>;
  EXPECT_EQ(dimsOf(t, "attributes {workgroup_size = [64, 2, 3]}", items),
            (Dims{64, 2, 3}));
  EXPECT_EQ(items, 384);
  // Missing dimensions are 1; a zero counts as 1 (the emitter rejects it).
  EXPECT_EQ(dimsOf(t, "attributes {workgroup_size = [128]}", items),
            (Dims{128, 1, 1}));
  EXPECT_EQ(items, 128);
  EXPECT_EQ(dimsOf(t, "attributes {workgroup_size = [0, 4]}", items),
            (Dims{1, 4, 1}));
  EXPECT_EQ(items, 4);
  // Undeclared: the caller's fallback.
  EXPECT_EQ(dimsOf(t, "", items), std::nullopt);
  EXPECT_EQ(items, 256);
}

} // namespace
