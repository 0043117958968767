//===- StepReadsFirst.cpp - a stage's LDS reads ahead of its loads --------===//

#include "pipeline/opt/StepReadsFirst.h"
#include "pipeline/opt/LoadsAfterReads.h"
#include "pipeline/opt/StepMerge.h"
#include "pipeline/opt/StepOrder.h"

#include "ir/Dialect.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace waveasm;

/// A pure op (results, no region, no LDS access) whose every result only
/// ops of `set` read: it goes where they go.
static bool onlyFeeds(Operation *op, const llvm::DenseSet<Operation *> &set) {
  return op->getNumResults() && !op->use_empty() && op->getNumRegions() == 0 &&
         !isLdsAccess(op) && llvm::all_of(op->getUsers(), [&](Operation *user) {
           return set.contains(user);
         });
}

bool waveasm::moveReadsAheadOfLoads(SmallVectorImpl<Operation *> &stream,
                                    MayPassFn mayPass) {
  // The load group: the loads, the M0 writes, and (last op first, so users
  // come before their operands) the ops whose every result only the group
  // reads.
  llvm::DenseSet<Operation *> group;
  for (Operation *op : stream)
    if (isDirectToLds(op) || isa<S_MOV_B32_M0>(op))
      group.insert(op);
  if (llvm::none_of(stream, isDirectToLds))
    return false;
  for (Operation *op : llvm::reverse(stream))
    if (!group.contains(op) && onlyFeeds(op, group))
      group.insert(op);
  size_t first = 0;
  while (first < stream.size() && !group.contains(stream[first]))
    ++first;
  // The reads after the group's first op and before the first ordering op,
  // and (first user first) the ops after that op whose results only moved
  // ops read: their addresses.
  size_t end = first;
  while (end < stream.size() && !isOrderingOp(stream[end]))
    ++end;
  llvm::DenseSet<Operation *> moved;
  for (size_t i = first; i < end; ++i)
    if (isLdsAccess(stream[i]) && !isDirectToLds(stream[i]) &&
        !group.contains(stream[i]))
      moved.insert(stream[i]);
  if (moved.empty())
    return false;
  for (size_t i = end; i-- > first;) {
    Operation *op = stream[i];
    if (!moved.contains(op) && !group.contains(op) && onlyFeeds(op, moved))
      moved.insert(op);
  }
  // A read whose address another op of the range computes, read by
  // something else too, stays: moving the read alone would put it before
  // its operand.
  for (size_t i = first; i < end; ++i) {
    Operation *op = stream[i];
    if (!moved.contains(op))
      continue;
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      for (size_t j = first; j < i; ++j)
        if (stream[j] == def && !moved.contains(def))
          return false;
    }
    // Every op it passes must allow it.
    for (size_t j = first; j < i; ++j)
      if (!moved.contains(stream[j]) && !mayPass(op, stream[j]))
        return false;
  }
  SmallVector<Operation *> reordered(stream.begin(), stream.begin() + first);
  for (size_t i = first; i < end; ++i)
    if (moved.contains(stream[i]))
      reordered.push_back(stream[i]);
  for (size_t i = first; i < stream.size(); ++i)
    if (!moved.contains(stream[i]))
      reordered.push_back(stream[i]);
  stream.assign(reordered.begin(), reordered.end());
  return true;
}
