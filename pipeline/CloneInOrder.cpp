//===- CloneInOrder.cpp - one-pass clone of SSA-ordered IR ----------------===//

#include "pipeline/CloneInOrder.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;

void ClonedValues::reset() {
  size_t capacity = std::max<size_t>(16, llvm::NextPowerOf2(2 * size));
  if (slots.size() == capacity)
    std::fill(slots.begin(), slots.end(), Slot());
  else
    slots.assign(capacity, Slot());
  mask = capacity - 1;
  size = 0;
}

void ClonedValues::grow() {
  std::vector<Slot> old(2 * slots.size());
  old.swap(slots);
  mask = slots.size() - 1;
  for (const Slot &slot : old)
    if (slot.from)
      place(slot.from, slot.to);
}

namespace {

/// One clone of `root`: the ops created in pre-order, each with its mapped
/// operands, as Operation::clone would create it.
class InOrderCloner {
public:
  InOrderCloner(Operation *root, IRMapping &mapper, CloneInOrderOptions options)
      : root(root), mapper(mapper), options(options),
        mapperHasValues(!mapper.getValueMap().empty()) {
    if (options.values)
      options.values->reset();
  }

  /// `op` without its regions (the same fields Operation::clone copies:
  /// location, name, result types, operands, discardable attributes,
  /// properties, successors, region count). Null on a forward reference:
  /// an operand defined inside `root` and not mapped yet. `mapResults`
  /// false leaves the results unmapped (the root's: MLIR's clone maps them
  /// after its regions).
  Operation *copyOp(Operation &op, bool mapResults);

  /// Clones `source`'s regions into `copy`'s (same number, empty), block by
  /// block as Region::cloneInto does: every block and its arguments mapped
  /// first (successors may name a later block), then the ops in order, each
  /// created with its operands and followed by its own regions, which adds
  /// the uses in the order MLIR's clone sets them (pre-order). False on a
  /// forward reference.
  bool cloneRegions(Operation *source, Operation *copy);

private:
  /// The copy of `value` so far, or null.
  Value lookupValue(Value value) const {
    if (!options.values)
      return mapper.lookupOrNull(value);
    if (const void *copy = options.values->lookup(value.getAsOpaquePointer()))
      return Value::getFromOpaquePointer(copy);
    return mapperHasValues ? mapper.lookupOrNull(value) : Value();
  }
  void mapValue(Value from, Value to) {
    if (options.values)
      options.values->insert(from.getAsOpaquePointer(),
                             to.getAsOpaquePointer());
    else
      mapper.map(from, to);
  }

  Operation *root;
  IRMapping &mapper;
  CloneInOrderOptions options;
  /// Whether the caller mapped values before the clone.
  bool mapperHasValues;
  // Reused by every op (each is created before the next is looked at).
  SmallVector<Value, 8> operands;
  SmallVector<Block *, 2> successors;
};

Operation *InOrderCloner::copyOp(Operation &op, bool mapResults) {
  operands.clear();
  for (Value value : op.getOperands()) {
    Value mapped = lookupValue(value);
    if (!mapped) {
      // Unmapped: a value from outside `root` stays (as in MLIR's clone);
      // one defined inside it is used before its definition.
      Region *region = value.getParentRegion();
      if (&op != root && region && root->isAncestor(region->getParentOp()))
        return nullptr;
      mapped = value;
    }
    operands.push_back(mapped);
  }
  successors.clear();
  for (Block *successor : op.getSuccessors())
    successors.push_back(mapper.lookupOrDefault(successor));
  // Operation::clone's create: the raw dictionary holds the discardable
  // attributes only (the inherent ones are in the properties).
  Operation *copy = Operation::create(
      op.getLoc(), op.getName(), op.getResultTypes(), operands,
      op.getRawDictionaryAttrs(), op.getPropertiesStorage(), successors,
      op.getNumRegions());
  if (options.mapOps)
    mapper.map(&op, copy);
  if (mapResults)
    for (auto [from, to] : llvm::zip(op.getResults(), copy->getResults()))
      mapValue(from, to);
  return copy;
}

bool InOrderCloner::cloneRegions(Operation *source, Operation *copy) {
  for (auto [from, to] : llvm::zip(source->getRegions(), copy->getRegions())) {
    if (from.empty())
      continue;
    for (Block &block : from) {
      Block *newBlock = new Block();
      mapper.map(&block, newBlock);
      for (BlockArgument arg : block.getArguments())
        if (!(mapperHasValues && mapper.contains(arg)))
          mapValue(arg, newBlock->addArgument(arg.getType(), arg.getLoc()));
      to.push_back(newBlock);
    }
    for (auto [block, newBlock] : llvm::zip(from, to)) {
      for (Operation &op : block) {
        Operation *newOp = copyOp(op, /*mapResults=*/true);
        if (!newOp)
          return false;
        newBlock.push_back(newOp);
        if (op.getNumRegions() != 0 && !cloneRegions(&op, newOp))
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
                                 bool *fellBack, CloneInOrderOptions options) {
  if (fellBack)
    *fellBack = false;
  InOrderCloner cloner(op, mapper, options);
  Operation *copy = cloner.copyOp(*op, /*mapResults=*/false);
  if (cloner.cloneRegions(op, copy)) {
    mapper.map(op->getResults(), copy->getResults());
    return copy;
  }
  // The partial copy's ops use each other and values from outside `op`;
  // its destruction drops those uses first.
  copy->destroy();
  unmapContents(op, mapper);
  if (options.values)
    options.values->reset();
  mapper.erase(op);
  if (fellBack)
    *fellBack = true;
  return op->clone(mapper);
}
