//===- CloneInOrder.cpp - one-pass clone of SSA-ordered IR ----------------===//

#include "pipeline/CloneInOrder.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

namespace {

/// Clones `source`'s regions into `copy`'s (same number, empty), block by
/// block as Region::cloneInto does: every block and its arguments mapped
/// first (successors may name a later block), then the ops in order, each
/// created with its operands and followed by its own regions, which adds
/// the uses in the order MLIR's clone sets them (pre-order). False on a
/// forward reference to a value defined inside `root`.
bool cloneRegions(Operation *root, Operation *source, Operation *copy,
                  IRMapping &mapper) {
  auto options = Operation::CloneOptions::all().cloneRegions(false);
  for (auto [from, to] : llvm::zip(source->getRegions(), copy->getRegions())) {
    if (from.empty())
      continue;
    for (Block &block : from) {
      Block *newBlock = new Block();
      mapper.map(&block, newBlock);
      for (BlockArgument arg : block.getArguments())
        if (!mapper.contains(arg))
          mapper.map(arg, newBlock->addArgument(arg.getType(), arg.getLoc()));
      to.push_back(newBlock);
    }
    for (auto [block, newBlock] : llvm::zip(from, to)) {
      for (Operation &op : block) {
        Operation *newOp = op.clone(mapper, options);
        newBlock.push_back(newOp);
        // An operand the mapper did not know kept its source value: fine
        // for a value from outside `root`, a forward reference otherwise.
        for (auto [was, now] :
             llvm::zip(op.getOperands(), newOp->getOperands()))
          if (was == now) {
            Region *region = was.getParentRegion();
            if (region && root->isAncestor(region->getParentOp()))
              return false;
          }
        if (op.getNumRegions() != 0 && !cloneRegions(root, &op, newOp, mapper))
          return false;
      }
    }
  }
  return true;
}

/// Forgets every entry `cloneRegions` may have made for `root`'s contents.
void unmapContents(Operation *root, IRMapping &mapper) {
  root->walk([&](Operation *op) {
    if (op == root)
      return;
    mapper.erase(op);
    for (Value result : op->getResults())
      mapper.erase(result);
  });
  for (Region &region : root->getRegions())
    region.walk([&](Block *block) {
      mapper.erase(block);
      for (BlockArgument arg : block->getArguments())
        mapper.erase(arg);
    });
}

} // namespace

Operation *waveasm::cloneInOrder(Operation *op, IRMapping &mapper,
                                 bool *fellBack) {
  if (fellBack)
    *fellBack = false;
  Operation *copy =
      op->clone(mapper, Operation::CloneOptions::all().cloneRegions(false));
  // MLIR's clone maps `op`'s results after its regions: a use inside them
  // (invalid, but possible in unverified IR) keeps the source value.
  for (Value result : op->getResults())
    mapper.erase(result);
  bool complete = cloneRegions(op, op, copy, mapper);
  if (complete) {
    mapper.map(op->getResults(), copy->getResults());
    return copy;
  }
  // The partial copy's ops use each other and possibly source values; its
  // destruction drops those uses first.
  copy->destroy();
  unmapContents(op, mapper);
  mapper.erase(op);
  for (Value result : op->getResults())
    mapper.erase(result);
  if (fellBack)
    *fellBack = true;
  return op->clone(mapper);
}
