//===- ProgramIndex.cpp - op and value numbering of one program -----------===//

#include "analysis/ProgramIndex.h"

using namespace mlir;
using namespace waveasm;

ProgramIndex::ProgramIndex(ProgramOp program) : program(program) {
  // Sizes first: growing the tables op by op costs more than this walk.
  size_t numOps = 0, numValues = 0, numOperands = 0;
  program.getBody().walk([&](Operation *op) {
    ++numOps;
    numValues += op->getNumResults();
    numOperands += op->getNumOperands();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        numValues += block.getNumArguments();
  });
  ops.reserve(numOps);
  opNumbers.reserve(numOps);
  subtreeEnd.reserve(numOps);
  parentLoop.reserve(numOps);
  firstResult.reserve(numOps);
  firstBlockArg.reserve(numOps);
  operandBegin.reserve(numOps + 1);
  operandIds.reserve(numOperands);
  values.reserve(numValues);
  valueInfo.reserve(numValues);

  operandBegin.push_back(0);
  for (Operation &op : program.getBodyBlock())
    visit(&op, kNone);
}

unsigned ProgramIndex::addValue(Value value, unsigned defOp, bool isBlockArg) {
  // One decode of the type gives both the class and the size.
  RegTypeInfo type = getRegTypeInfo(value.getType());
  values.push_back(value);
  valueInfo.push_back({defOp,
                       type.cls ? static_cast<int8_t>(*type.cls) : int8_t(-1),
                       isBlockArg, static_cast<int32_t>(type.size)});
  return values.size() - 1;
}

void ProgramIndex::visit(Operation *op, unsigned loop) {
  unsigned idx = ops.size();
  ops.push_back(op);
  opNumbers[op] = idx;
  subtreeEnd.push_back(idx);
  parentLoop.push_back(loop);

  // Operands were numbered before: SSA dominance in single-block regions
  // puts every definition before its uses in pre-order.
  for (Value operand : op->getOperands()) {
    // Most operands are results: their owner's number is the one lookup
    // (lookupValue's general path handles block arguments).
    if (auto result = dyn_cast<OpResult>(operand)) {
      auto it = opNumbers.find(result.getOwner());
      operandIds.push_back(it == opNumbers.end()
                               ? kNone
                               : firstResult[it->second] +
                                     result.getResultNumber());
      continue;
    }
    std::optional<unsigned> id = lookupValue(operand);
    operandIds.push_back(id ? *id : kNone);
  }
  operandBegin.push_back(operandIds.size());

  firstResult.push_back(values.size());
  for (Value result : op->getResults())
    addValue(result, idx, /*isBlockArg=*/false);
  firstBlockArg.push_back(values.size());
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        addValue(arg, idx, /*isBlockArg=*/true);

  bool isLoop = isa<LoopOp>(op);
  if (isLoop)
    loops.push_back(idx);
  unsigned innerLoop = isLoop ? idx : loop;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block)
        visit(&nested, innerLoop);
  subtreeEnd[idx] = ops.size() - 1;
}

std::optional<unsigned> ProgramIndex::lookup(Operation *op) const {
  auto it = opNumbers.find(op);
  if (it == opNumbers.end())
    return std::nullopt;
  return it->second;
}

std::optional<unsigned> ProgramIndex::lookupValue(Value value) const {
  if (auto result = dyn_cast<OpResult>(value)) {
    std::optional<unsigned> def = lookup(result.getOwner());
    if (!def)
      return std::nullopt;
    return firstResult[*def] + result.getResultNumber();
  }
  auto arg = cast<BlockArgument>(value);
  Operation *owner = arg.getOwner()->getParentOp();
  std::optional<unsigned> def = owner ? lookup(owner) : std::nullopt;
  if (!def)
    return std::nullopt;
  // Only single-block regions carry arguments in WaveASM (the loop body).
  unsigned offset = 0;
  for (Region &region : owner->getRegions())
    for (Block &block : region) {
      if (&block == arg.getOwner())
        return firstBlockArg[*def] + offset + arg.getArgNumber();
      offset += block.getNumArguments();
    }
  return std::nullopt;
}

std::pair<unsigned, unsigned>
ProgramIndex::getRegionRange(unsigned idx, unsigned regionNo) const {
  Operation *op = ops[idx];
  unsigned first = idx + 1;
  for (unsigned r = 0; r < regionNo; ++r)
    first = getRegionRange(idx, r).second + 1;
  Region &region = op->getRegion(regionNo);
  if (region.empty() || region.back().empty())
    return {first, first - 1};
  return {first, subtreeEnd[*lookup(&region.back().back())]};
}

void ProgramIndex::forEachUseFromOutside(
    unsigned loopIdx, llvm::function_ref<void(unsigned)> fn) const {
  // Numbered in pre-order, the values defined inside the loop (its block
  // arguments, then the values of the ops of its regions) are the ids from
  // its first block argument up to the first value of the op after its
  // subtree, and the operands of the loop and of those ops lie together in
  // operandIds: one pass over a slice, comparing with two bounds
  // (isDefinedInside asks each value's definition).
  unsigned end = subtreeEnd[loopIdx];
  unsigned lo = firstBlockArg[loopIdx];
  unsigned hi = end + 1 < ops.size() ? firstResult[end + 1] : values.size();
  for (unsigned k = operandBegin[loopIdx], e = operandBegin[end + 1]; k < e;
       ++k) {
    unsigned id = operandIds[k];
    if (id != kNone && (id < lo || id >= hi))
      fn(id);
  }
}
