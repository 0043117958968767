//===- DefinedValuesTest.cpp - walkDefinedValues' order and set -----------===//
//
// ir/DefinedValues.h walks the ops itself instead of through Region::walk
// (the verifier runs it over every value of every program). It must visit
// the same (op, value) pairs in the same order as Region::walk's post-order
// did, and stop where the callback interrupts: the first out-of-range
// register the program verifier reports, and the register lists the linear
// scan and the metrics build, depend on that order.
//
//===----------------------------------------------------------------------===//

#include "RandomPrograms.h"
#include "TestUtils.h"

#include "ir/DefinedValues.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::DeadCodeGenerator;
using waveasm::test::TestContext;

namespace {

using Visit = std::pair<Operation *, Value>;

/// The order through MLIR's walk (the implementation before).
std::vector<Visit> referenceOrder(Region &region) {
  std::vector<Visit> visits;
  region.walk([&](Operation *op) {
    for (Value result : op->getResults())
      visits.emplace_back(op, result);
    for (Region &nested : op->getRegions())
      for (Block &block : nested)
        for (BlockArgument arg : block.getArguments())
          visits.emplace_back(op, arg);
  });
  return visits;
}

std::vector<Visit> walkedOrder(Region &region, size_t stopAfter = SIZE_MAX) {
  std::vector<Visit> visits;
  WalkResult result =
      walkDefinedValues(region, [&](Operation *op, Value value) {
        visits.emplace_back(op, value);
        return visits.size() == stopAfter ? WalkResult::interrupt()
                                          : WalkResult::advance();
      });
  EXPECT_EQ(result.wasInterrupted(), visits.size() == stopAfter);
  return visits;
}

void expectSameOrder(ModuleOp module, const std::string &what) {
  for (auto program : module.getOps<ProgramOp>()) {
    Region &body = program.getBody();
    std::vector<Visit> reference = referenceOrder(body);
    ASSERT_FALSE(reference.empty()) << what;
    EXPECT_EQ(walkedOrder(body), reference) << what;
    // Interrupted halfway: exactly the prefix.
    size_t half = reference.size() / 2 + 1;
    std::vector<Visit> prefix(reference.begin(), reference.begin() + half);
    EXPECT_EQ(walkedOrder(body, half), prefix) << what;
  }
}

} // namespace

TEST(DefinedValues, SameOrderAsRegionWalkOnRandomPrograms) {
  for (unsigned seed = 1; seed <= 100; ++seed) {
    TestContext t;
    std::string text = DeadCodeGenerator(seed).program();
    OwningOpRef<ModuleOp> module = t.parseModule(text);
    ASSERT_TRUE(module) << t.diagnostics << text;
    expectSameOrder(*module, "seed " + std::to_string(seed));
  }
}

TEST(DefinedValues, SameOrderAsRegionWalkOnExamples) {
  std::vector<std::string> paths = waveasm::test::exampleKernelPaths();
  ASSERT_FALSE(paths.empty());
  for (const std::string &path : paths) {
    std::string text = waveasm::test::readFileText(path);
    ASSERT_FALSE(text.empty()) << path;
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule(text);
    ASSERT_TRUE(module) << path << t.diagnostics;
    expectSameOrder(*module, path);
  }
}
