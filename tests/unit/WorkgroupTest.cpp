//===- WorkgroupTest.cpp - waves of a program's workgroup -----------------===//
//
// ir/Workgroup.h: the waves a declared workgroup_size makes on the target's
// wave size, none for an undeclared one; only a declared single wave lets a
// barrier skip its LDS waits (pipeline/InsertWaitcnt.cpp (b)).
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "ir/Workgroup.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::test;

namespace {

/// The waves of a gfx942 program with `attributes` ("" for none), asked
/// through an op inside it.
std::optional<int64_t> wavesOf(TestContext &t, llvm::StringRef attributes,
                               bool &single) {
  std::string text =
      "waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = "
      "#waveasm.abi<> " +
      attributes.str() + " {\n  waveasm.s_barrier\n  waveasm.s_endpgm\n}\n";
  OwningOpRef<ModuleOp> module = t.parseModule(text);
  EXPECT_TRUE(module) << t.diagnostics;
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

} // namespace
