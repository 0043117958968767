//===- ForEachOpTest.cpp - forEachOp* visit what Region::walk visits ------===//
//
// The passes that replaced Region::walk by pipeline/ForEachOp.h rely on the
// same ops in the same order (the SCC verifier's diagnostics, the loop list
// innermost first, the order arith legalization lowers in), and on the
// post-order visit surviving the erasure of the op it is given.
//
//===----------------------------------------------------------------------===//

#include "MlirInputs.h"
#include "TestUtils.h"

#include "pipeline/ForEachOp.h"

#include "ir/Dialect.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::TestContext;

namespace {

template <typename Fn> void forEachInput(Fn &&fn) {
  unsigned programs = 0;
  for (const std::string &path : test::allMlirInputs()) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      continue;
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule((*buffer)->getBuffer());
    if (!module)
      continue; // negative lit inputs
    for (ProgramOp program : module->getOps<ProgramOp>()) {
      ++programs;
      fn(program, path);
    }
  }
  EXPECT_GT(programs, 100u);
}

TEST(ForEachOp, VisitsWhatRegionWalkVisitsInItsOrder) {
  forEachInput([](ProgramOp program, const std::string &path) {
    std::vector<Operation *> walked, visited;
    program.getBody().walk([&](Operation *op) { walked.push_back(op); });
    forEachOpPostOrder(program.getBody(),
                       [&](Operation *op) { visited.push_back(op); });
    EXPECT_EQ(walked, visited) << path << ": post-order";
    walked.clear();
    visited.clear();
    program.getBody().walk<WalkOrder::PreOrder>(
        [&](Operation *op) { walked.push_back(op); });
    forEachOpPreOrder(program.getBody(),
                      [&](Operation *op) { visited.push_back(op); });
    EXPECT_EQ(walked, visited) << path << ": pre-order";
  });
}

TEST(ForEachOp, PostOrderMayEraseTheVisitedOp) {
  forEachInput([](ProgramOp program, const std::string &path) {
    // Every op without regions, results or uses goes, as it is visited;
    // the rest are visited all the same, in Region::walk's order.
    std::vector<Operation *> expected;
    program.getBody().walk([&](Operation *op) {
      if (op->getNumRegions() || op->getNumResults() ||
          op->hasTrait<mlir::OpTrait::IsTerminator>())
        expected.push_back(op);
    });
    std::vector<Operation *> kept;
    forEachOpPostOrder(program.getBody(), [&](Operation *op) {
      if (op->getNumRegions() || op->getNumResults() ||
          op->hasTrait<mlir::OpTrait::IsTerminator>())
        kept.push_back(op);
      else
        op->erase();
    });
    EXPECT_EQ(expected, kept) << path;
  });
}

} // namespace
