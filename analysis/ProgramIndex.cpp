//===- ProgramIndex.cpp - op and value numbering of one program -----------===//

#include "analysis/ProgramIndex.h"

using namespace mlir;
using namespace waveasm;

namespace {
/// Ops, values and operands of the ops of `region`, nested ones included.
struct Counts {
  size_t ops = 0, values = 0, operands = 0;
};

void count(Region &region, Counts &counts) {
  for (Block &block : region)
    for (Operation &op : block) {
      ++counts.ops;
      counts.values += op.getNumResults();
      counts.operands += op.getNumOperands();
      for (Region &nested : op.getRegions()) {
        for (Block &nestedBlock : nested)
          counts.values += nestedBlock.getNumArguments();
        count(nested, counts);
      }
    }
}
} // namespace

ProgramIndex::ProgramIndex(ProgramOp program) : program(program) {
  // Sizes first, then the tables per op and per value written in place
  // (ops, values and operandIds grow: their sizes count what is numbered):
  // a growth check per entry cost more than this walk. A plain recursion:
  // Operation::walk calls back out of line.
  Counts counts;
  count(program.getBody(), counts);
  ops.reserve(counts.ops);
  opNumbers.reserve(counts.ops);
  subtreeEnd.resize(counts.ops);
  parentLoop.resize(counts.ops);
  firstResult.resize(counts.ops);
  firstBlockArg.resize(counts.ops);
  operandBegin.resize(counts.ops + 1);
  operandIds.reserve(counts.operands);
  values.reserve(counts.values);
  valueInfo.resize(counts.values);

  operandBegin[0] = 0;
  for (Operation &op : program.getBodyBlock())
    visit(&op, kNone);
  assert(ops.size() == counts.ops && values.size() == counts.values &&
         operandIds.size() == counts.operands && "the walk counted them all");
}

unsigned ProgramIndex::addValue(Value value, unsigned defOp, bool isBlockArg) {
  // One decode of the type gives both the class and the size.
  RegTypeInfo type = getRegTypeInfo(value.getType());
  unsigned id = values.size();
  values.push_back(value);
  valueInfo[id] = {defOp,
                   type.cls ? static_cast<int8_t>(*type.cls) : int8_t(-1),
                   isBlockArg, static_cast<int32_t>(type.size)};
  return id;
}

void ProgramIndex::visit(Operation *op, unsigned loop) {
  unsigned idx = ops.size();
  ops.push_back(op);
  opNumbers[op] = idx;
  parentLoop[idx] = loop;

  // Operands were numbered before: SSA dominance in single-block regions
  // puts every definition before its uses in pre-order.
  for (Value operand : op->getOperands()) {
    // Most operands are results: their owner's number is the one lookup
    // (lookupValue's general path handles block arguments).
    unsigned id = kNone;
    if (auto result = dyn_cast<OpResult>(operand)) {
      auto it = opNumbers.find(result.getOwner());
      if (it != opNumbers.end())
        id = firstResult[it->second] + result.getResultNumber();
    } else if (std::optional<unsigned> arg = lookupValue(operand)) {
      id = *arg;
    }
    operandIds.push_back(id);
  }
  operandBegin[idx + 1] = operandIds.size();

  firstResult[idx] = values.size();
  for (Value result : op->getResults())
    addValue(result, idx, /*isBlockArg=*/false);
  firstBlockArg[idx] = values.size();
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
