//===- LdsRotation.cpp - LDS bases rotated by hand through iter_args ------===//

#include "analysis/LdsRotation.h"
#include "analysis/LdsBuffers.h"

#include "ir/InstFacts.h"
#include "ir/TargetInfo.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace waveasm;

namespace {

constexpr unsigned kMaxDepth = 16;

/// `value` through register copies (the allocator's and the pipeliner's).
Value throughCopies(Value value) {
  for (unsigned depth = 0; depth < kMaxDepth; ++depth) {
    Operation *def = value.getDefiningOp();
    if (!def || !isa<S_MOV_B32, V_MOV_B32>(def))
      return value;
    value = def->getOperand(0);
  }
  return value;
}

/// The addends of `value` through adds and copies.
void collectAddends(Value value, SmallVectorImpl<Value> &out,
                    unsigned depth = 0) {
  value = throughCopies(value);
  Operation *def = value.getDefiningOp();
  if (depth < kMaxDepth && def &&
      cast<OpResult>(value).getResultNumber() == 0 &&
      isa<S_ADD_U32, V_ADD_U32>(def)) {
    collectAddends(def->getOperand(0), out, depth + 1);
    collectAddends(def->getOperand(1), out, depth + 1);
    return;
  }
  out.push_back(value);
}

int64_t intAttr(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return 0;
}

} // namespace

LdsRotation::LdsRotation(LoopOp loop)
    : loop(loop), program(loop->getParentOfType<ProgramOp>()) {
  Block &body = loop.getBodyBlock();
  unsigned n = body.getNumArguments();
  next.assign(n, -1);
  init.assign(n, 0);
  auto condition = dyn_cast<ConditionOp>(body.getTerminator());
  if (!condition || !program || condition.getIterArgs().size() != n ||
      loop.getInitArgs().size() != n)
    return;
  for (unsigned k = 0; k < n; ++k) {
    auto arg =
        dyn_cast<BlockArgument>(throughCopies(condition.getIterArgs()[k]));
    if (!arg || arg.getOwner() != &body)
      continue;
    std::optional<LdsAddressRange> start =
        getLdsAddressRange(program, loop.getInitArgs()[k]);
    if (!start || start->bases.size() != 1 || start->lo != start->hi)
      continue;
    next[k] = arg.getArgNumber();
    init[k] = start->bases.front() + start->lo;
  }
  // An argument rotates only if its successor does (else its value in a
  // later iteration is not an init).
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned k = 0; k < n; ++k)
      if (next[k] >= 0 && next[next[k]] < 0) {
        next[k] = -1;
        changed = true;
      }
  }
}

std::optional<LdsRotation::Footprint> LdsRotation::footprint(Operation *op) {
  auto [it, inserted] = cache.try_emplace(op);
  if (inserted)
    it->second = compute(op);
  return it->second;
}

std::optional<LdsRotation::Footprint> LdsRotation::compute(Operation *op) {
  if (op->getBlock() != &loop.getBodyBlock())
    return std::nullopt;
  InstFacts facts = lookupInstFacts(op);
  int64_t width = 4 * int64_t(facts.dataDwords);
  if (!facts.hasInfo || width == 0)
    return std::nullopt;
  Value address;
  int64_t offset = 0, extent = width;
  if (isa<BUFFER_LOAD_DWORD_LDS, BUFFER_LOAD_DWORDX4_LDS>(op)) {
    // One wave writes M0 + instOffset + lane * width (LdsBuffers.cpp).
    address = findM0Source(op);
    offset = intAttr(op, "instOffset");
    extent = getTargetInfo(program.getTargetKind()).defaultWaveSize * width;
  } else if (facts.unit == ExecUnit::LDS &&
             !isa<DS_READ2_B32, DS_READ2_B64, DS_WRITE2_B32, DS_WRITE2_B64>(
                 op) &&
             op->getNumOperands() > 0) {
    address = op->getOperand(op->getNumOperands() - 1);
    offset = intAttr(op, "offset");
  }
  if (!address)
    return std::nullopt;

  SmallVector<Value> addends;
  collectAddends(address, addends);
  Footprint result;
  int64_t lo = offset, hi = offset;
  for (Value addend : addends) {
    if (auto arg = dyn_cast<BlockArgument>(addend);
        arg && arg.getOwner() == &loop.getBodyBlock() &&
        next[arg.getArgNumber()] >= 0 && result.arg < 0) {
      result.arg = arg.getArgNumber();
      continue;
    }
    // Any other addend: its range over every iteration, lane and wave.
    std::optional<LdsAddressRange> range = getLdsAddressRange(program, addend);
    if (!range)
      return std::nullopt;
    lo += range->bases.front() + range->lo;
    hi += range->bases.back() + range->hi;
  }
  result.lo = lo;
  result.hi = hi + extent;
  return result;
}

bool LdsRotation::mayOverlap(Operation *first, Operation *second,
                             unsigned distance) {
  std::optional<Footprint> a = footprint(first), b = footprint(second);
  if (!a || !b)
    return true;
  // Walk the pair (first's argument in iteration t, second's in t +
  // distance) until it repeats: every pair of bases the two can have.
  auto step = [&](int k) { return k < 0 ? k : next[k]; };
  int x = a->arg, y = b->arg;
  for (unsigned i = 0; i < distance; ++i)
    y = step(y);
  llvm::DenseSet<std::pair<int, int>> seen;
  while (seen.insert({x, y}).second) {
    int64_t baseA = x < 0 ? 0 : init[x], baseB = y < 0 ? 0 : init[y];
    if (baseA + a->lo < baseB + b->hi && baseB + b->lo < baseA + a->hi)
      return true;
    x = step(x);
    y = step(y);
  }
  return false;
}
