//===- LdsRotation.cpp - LDS bases rotated by hand through iter_args ------===//

#include "analysis/LdsRotation.h"
#include "analysis/LdsBuffers.h"

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

/// One addend of an address: `value << shift`.
struct Addend {
  Value value;
  unsigned shift = 0;
};

/// The addends of `value` through adds, v_lshl_add_u32 (x << c) + y with a
/// constant c, and copies.
void collectAddends(ProgramOp program, Value value,
                    SmallVectorImpl<Addend> &out, bool shifts,
                    unsigned depth = 0) {
  value = throughCopies(value);
  Operation *def = value.getDefiningOp();
  if (depth < kMaxDepth && def &&
      cast<OpResult>(value).getResultNumber() == 0) {
    if (isa<S_ADD_U32, V_ADD_U32>(def)) {
      collectAddends(program, def->getOperand(0), out, shifts, depth + 1);
      collectAddends(program, def->getOperand(1), out, shifts, depth + 1);
      return;
    }
    if (shifts && isa<V_LSHL_ADD_U32>(def)) {
      std::optional<LdsAddressRange> c =
          getLdsAddressRange(program, def->getOperand(1));
      if (c && c->bases.size() == 1 && c->lo == c->hi &&
          c->bases.front() + c->lo >= 0 && c->bases.front() + c->lo < 32) {
        out.push_back({def->getOperand(0), unsigned(c->bases.front() + c->lo)});
        collectAddends(program, def->getOperand(2), out, shifts, depth + 1);
        return;
      }
    }
  }
  out.push_back({value, 0});
}

/// A value as a sum: its constant addends added up and the others, none
/// shifted (nullopt when one is).
struct SplitSum {
  int64_t constant = 0;
  SmallVector<Value, 2> rest;
};

void sortValues(SmallVectorImpl<Value> &values) {
  llvm::sort(values, [](Value a, Value b) {
    return a.getAsOpaquePointer() < b.getAsOpaquePointer();
  });
}

std::optional<SplitSum> splitSum(ProgramOp program, Value value) {
  SmallVector<Addend> addends;
  collectAddends(program, value, addends, /*shifts=*/false);
  SplitSum sum;
  for (Addend addend : addends) {
    std::optional<LdsAddressRange> range =
        getLdsAddressRange(program, addend.value);
    if (range && range->bases.size() == 1 && range->lo == range->hi)
      sum.constant += (range->bases.front() + range->lo) << addend.shift;
    else if (addend.shift)
      return std::nullopt;
    else
      sum.rest.push_back(addend.value);
  }
  sortValues(sum.rest);
  return sum;
}

} // namespace

LdsRotation::LdsRotation(LoopOp loop)
    : loop(loop), program(loop->getParentOfType<ProgramOp>()) {
  Block &body = loop.getBodyBlock();
  unsigned n = body.getNumArguments();
  next.assign(n, -1);
  init.assign(n, 0);
  shared.assign(n, {});
  lagged.assign(n, -1);
  laggedConstant.assign(n, 0);
  laggedRest.assign(n, {});
  auto condition = dyn_cast<ConditionOp>(body.getTerminator());
  if (!condition || !program || condition.getIterArgs().size() != n ||
      loop.getInitArgs().size() != n)
    return;
  for (unsigned k = 0; k < n; ++k) {
    auto arg =
        dyn_cast<BlockArgument>(throughCopies(condition.getIterArgs()[k]));
    if (!arg || arg.getOwner() != &body)
      continue;
    // The init: constants plus other addends, which every argument of the
    // rotation must share (a base promoted to VGPRs: buffer + lane offset).
    std::optional<SplitSum> start = splitSum(program, loop.getInitArgs()[k]);
    if (!start)
      continue;
    shared[k].assign(start->rest.begin(), start->rest.end());
    init[k] = start->constant;
    next[k] = arg.getArgNumber();
  }
  // An argument rotates only if its successor does (else its value in a
  // later iteration is not an init).
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned k = 0; k < n; ++k)
      if (next[k] >= 0 && (next[next[k]] < 0 || shared[k] != shared[next[k]])) {
        next[k] = -1;
        changed = true;
      }
  }
  placeLaggedArguments();
}

void LdsRotation::placeLaggedArguments() {
  Block &body = loop.getBodyBlock();
  auto condition = cast<ConditionOp>(body.getTerminator());
  unsigned n = next.size();
  // Each round places the arguments whose yield reads one placed before
  // (a value carried two steps goes through one carried one step).
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned k = 0; k < n; ++k) {
      if (next[k] >= 0 || lagged[k] >= 0)
        continue;
      std::optional<SplitSum> yield =
          splitSum(program, condition.getIterArgs()[k]);
      if (!yield)
        continue;
      // One rotating or lagged argument, the other addends from before the
      // loop (the same in every iteration).
      int from = -1;
      int64_t constant = yield->constant;
      SmallVector<Value, 2> rest;
      bool invariant = true;
      for (Value value : yield->rest) {
        auto arg = dyn_cast<BlockArgument>(value);
        if (arg && arg.getOwner() == &body && from < 0 &&
            (next[arg.getArgNumber()] >= 0 ||
             lagged[arg.getArgNumber()] >= 0)) {
          from = arg.getArgNumber();
          continue;
        }
        if (loop.getBody().isAncestor(value.getParentRegion())) {
          invariant = false;
          break;
        }
        rest.push_back(value);
      }
      if (!invariant || from < 0)
        continue;
      int target = from;
      if (lagged[from] >= 0) {
        target = lagged[from];
        constant += laggedConstant[from];
        rest.append(laggedRest[from].begin(), laggedRest[from].end());
      }
      sortValues(rest);
      std::optional<SplitSum> start = splitSum(program, loop.getInitArgs()[k]);
      if (!start)
        continue;
      // k yields target's value (plus the addends) of this iteration, which
      // is p's of the next one when the rotation forwards p into target;
      // k's init must then be p's init plus the same addends.
      for (unsigned p = 0; p < n; ++p) {
        if (next[p] != target)
          continue;
        SmallVector<Value, 2> expected(shared[p].begin(), shared[p].end());
        expected.append(rest.begin(), rest.end());
        sortValues(expected);
        if (start->constant != init[p] + constant || start->rest != expected)
          continue;
        lagged[k] = p;
        laggedConstant[k] = constant;
        laggedRest[k] = std::move(rest);
        changed = true;
        break;
      }
    }
  }
}

std::optional<LdsRotation::Footprint> LdsRotation::footprint(Operation *op) {
  auto [it, inserted] = cache.try_emplace(op);
  if (inserted)
    it->second = compute(op);
  return it->second;
}

namespace {

/// `op`'s LDS access and the addends of its address, when `op` is directly
/// in `loop`'s body and its address is one value.
std::optional<LdsAccessAddress> accessAddends(LoopOp loop, ProgramOp program,
                                              Operation *op,
                                              SmallVectorImpl<Addend> &out) {
  if (op->getBlock() != &loop.getBodyBlock())
    return std::nullopt;
  std::optional<LdsAccessAddress> access = getLdsAccessAddress(
      op, getTargetInfo(program.getTargetKind()).defaultWaveSize);
  if (access)
    collectAddends(program, access->address, out, /*shifts=*/true);
  return access;
}

/// Adds to [lo, hi) each addend's range over every iteration, lane and
/// wave; false when one is unbounded or may be negative.
bool addRanges(ProgramOp program, ArrayRef<Addend> addends, int64_t &lo,
               int64_t &hi) {
  for (Addend addend : addends) {
    std::optional<LdsAddressRange> range =
        getLdsAddressRange(program, addend.value);
    if (!range || range->bases.front() + range->lo < 0)
      return false;
    lo += (range->bases.front() + range->lo) << addend.shift;
    hi += (range->bases.back() + range->hi) << addend.shift;
  }
  return true;
}

} // namespace

std::optional<LdsRotation::Footprint> LdsRotation::compute(Operation *op) {
  SmallVector<Addend> addends;
  std::optional<LdsAccessAddress> access =
      accessAddends(loop, program, op, addends);
  if (!access)
    return std::nullopt;
  Footprint result;
  int64_t lo = access->offset, hi = access->offset;
  SmallVector<Addend> rest;
  for (Addend addend : addends) {
    auto arg = dyn_cast<BlockArgument>(addend.value);
    if (arg && !addend.shift && arg.getOwner() == &loop.getBodyBlock() &&
        result.arg < 0) {
      unsigned k = arg.getArgNumber();
      if (next[k] >= 0) {
        result.arg = k;
        continue;
      }
      // A lagged argument: the rotating one it follows plus its addends.
      if (lagged[k] >= 0) {
        result.arg = lagged[k];
        lo += laggedConstant[k];
        hi += laggedConstant[k];
        for (Value value : laggedRest[k])
          rest.push_back({value, 0});
        continue;
      }
    }
    rest.push_back(addend);
  }
  if (result.arg >= 0)
    for (Value value : shared[result.arg])
      rest.push_back({value, 0});
  if (!addRanges(program, rest, lo, hi))
    return std::nullopt;
  result.lo = lo;
  result.hi = hi + access->extent;
  return result;
}

std::optional<std::pair<int64_t, int64_t>>
LdsRotation::bytesAbove(Operation *op, Value base) {
  SmallVector<Addend> addends;
  std::optional<LdsAccessAddress> access =
      accessAddends(loop, program, op, addends);
  if (!access)
    return std::nullopt;
  int64_t lo = access->offset, hi = access->offset;
  SmallVector<Addend> rest;
  bool found = false;
  for (Addend addend : addends) {
    if (addend.value == base && !addend.shift && !found) {
      found = true;
      continue;
    }
    // Anything the loop computes may differ between iterations (another
    // base among them): only values from before the loop are a fixed rest.
    if (loop.getBody().isAncestor(addend.value.getParentRegion()))
      return std::nullopt;
    rest.push_back(addend);
  }
  if (!found || !addRanges(program, rest, lo, hi))
    return std::nullopt;
  return std::make_pair(lo, hi + access->extent);
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
