//===- SCCClobbers.cpp - where SCC is overwritten -------------------------===//

#include "pipeline/SCCClobbers.h"

#include "ir/Dialect.h"
#include "ir/InstFacts.h"

using namespace mlir;
using namespace waveasm;

bool waveasm::opWritesSCC(Operation *op) {
  if (lookupInstFacts(op).implicitDefs & ImpSCC)
    return true;
  // The emitter tests an SGPR condition with s_cmp_lg.
  if (auto ifOp = dyn_cast<IfOp>(op))
    return !isa<SCCType>(ifOp.getCondition().getType());
  if (auto cond = dyn_cast<ConditionOp>(op))
    return !isa<SCCType>(cond.getCondition().getType());
  return false;
}

bool waveasm::writesSCC(Operation *op) {
  if (opWritesSCC(op))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block)
        if (writesSCC(&nested))
          return true;
  return false;
}

SCCClobbers::SCCClobbers(Operation *root) {
  for (Region &region : root->getRegions())
    for (Block &block : region)
      numberBlock(block);
}

bool SCCClobbers::numberBlock(Block &block) {
  std::vector<int32_t> counts;
  counts.reserve(block.getOperations().size() + 1);
  counts.push_back(0);
  int32_t position = 0;
  for (Operation &op : block) {
    bool writes = opWritesSCC(&op);
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        writes |= numberBlock(nested);
    info[&op] = {position++, writes};
    counts.push_back(counts.back() + (writes ? 1 : 0));
  }
  bool any = counts.back() > 0;
  prefix[&block] = std::move(counts);
  return any;
}

bool SCCClobbers::writes(Operation *op) const {
  auto it = info.find(op);
  return it != info.end() ? it->second.writes : writesSCC(op);
}

int32_t SCCClobbers::countIn(Block *block, int32_t from, int32_t to) const {
  if (from > to)
    return 0;
  const std::vector<int32_t> &counts = prefix.find(block)->second;
  return counts[to + 1] - counts[from];
}

template <typename RangeFn, typename OpFn>
void SCCClobbers::walkPath(Operation *producer, Operation *consumer,
                           RangeFn onRange, OpFn onOp) const {
  Block *home = producer->getBlock();
  Operation *cur = consumer;
  while (cur->getBlock() != home) {
    Block *block = cur->getBlock();
    Operation *parent = cur->getParentOp();
    auto it = info.find(cur);
    if (!parent || it == info.end() || isa<ProgramOp>(parent)) {
      // The producer does not enclose the consumer (invalid IR): everything
      // before it counts.
      onOp(cur);
      return;
    }
    int32_t position = it->second.position;
    if (isa<LoopOp>(parent)) {
      // The producer is outside this loop: from the second iteration on, the
      // whole body has run since the consumer last read SCC.
      int32_t last =
          static_cast<int32_t>(prefix.find(block)->second.size()) - 2;
      if (onRange(block, 0, last))
        return;
    } else {
      if (onRange(block, 0, position - 1))
        return;
      if (opWritesSCC(parent) && onOp(parent))
        return;
    }
    cur = parent;
  }
  onRange(home, info.find(producer)->second.position + 1,
          info.find(cur)->second.position - 1);
}

bool SCCClobbers::clobberedBetween(Operation *producer,
                                   Operation *consumer) const {
  bool clobbered = false;
  walkPath(
      producer, consumer,
      [&](Block *block, int32_t from, int32_t to) {
        clobbered = countIn(block, from, to) > 0;
        return clobbered;
      },
      [&](Operation *) { return clobbered = true; });
  return clobbered;
}

SmallVector<Operation *>
SCCClobbers::collectBetween(Operation *producer, Operation *consumer) const {
  SmallVector<Operation *> found;
  walkPath(
      producer, consumer,
      [&](Block *block, int32_t from, int32_t to) {
        if (countIn(block, from, to) == 0)
          return false;
        for (Operation &op : *block) {
          int32_t position = info.find(&op)->second.position;
          if (position > to)
            break;
          if (position >= from && info.find(&op)->second.writes)
            found.push_back(&op);
        }
        return false;
      },
      [&](Operation *op) {
        found.push_back(op);
        return false;
      });
  return found;
}
