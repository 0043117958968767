//===- Liveness.cpp - live ranges and register pressure -------------------===//

#include "analysis/Liveness.h"

#include "ir/InstFacts.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;

namespace {

constexpr unsigned kNone = ProgramIndex::kNone;

/// Disjoint intervals of one tied group, sorted by start. Members touching
/// at one point (a read and a tied write at the same op) are merged.
using IntervalSet = llvm::SmallVector<LiveRange, 2>;

/// True if the sets overlap beyond single touching points.
bool conflicts(const IntervalSet &a, const IntervalSet &b) {
  for (const LiveRange &x : a)
    for (const LiveRange &y : b)
      if (x.start < y.end && y.start < x.end)
        return true;
  return false;
}

IntervalSet unionOf(const IntervalSet &a, const IntervalSet &b) {
  IntervalSet all(a.begin(), a.end());
  all.append(b.begin(), b.end());
  llvm::sort(all, [](const LiveRange &x, const LiveRange &y) {
    return x.start < y.start;
  });
  IntervalSet merged;
  for (const LiveRange &r : all) {
    if (!merged.empty() && r.start <= merged.back().end)
      merged.back().end = std::max(merged.back().end, r.end);
    else
      merged.push_back(r);
  }
  return merged;
}

} // namespace

Liveness::Liveness(const ProgramIndex &index) : index(index) {
  computeRanges();
  computeGroups();
  computePressure();
}

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

void Liveness::computeRanges() {
  unsigned numValues = index.getNumValues();
  ranges.assign(numValues, {});
  for (unsigned id = 0; id < numValues; ++id) {
    unsigned def = index.getDefOp(id);
    unsigned start = def;
    // Loop and if results take their value at the end of the regions.
    if (!index.isBlockArg(id) && index.getOp(def)->getNumRegions() != 0)
      start = index.getSubtreeEnd(def);
    ranges[id] = {start, start};
  }

  for (unsigned idx = 0, e = index.getNumOps(); idx < e; ++idx) {
    for (unsigned id : index.getOperandIds(idx)) {
      if (id == kNone || !index.getRegClass(id))
        continue;
      unsigned &end = ranges[id].end;
      end = std::max(end, idx);
      // Live across every enclosing loop that does not contain the
      // definition: the next iteration needs the value again.
      for (unsigned loop = index.getParentLoop(idx);
           loop != kNone && !index.isDefinedInside(id, loop);
           loop = index.getParentLoop(loop))
        end = std::max(end, index.getSubtreeEnd(loop));
    }
  }

  lastRealUse.resize(numValues);
  for (unsigned id = 0; id < numValues; ++id) {
    lastRealUse[id] = ranges[id].end;
    // A block argument's register receives the next iteration's value at
    // the terminator.
    if (index.isBlockArg(id))
      ranges[id].end =
          std::max(ranges[id].end, index.getSubtreeEnd(index.getDefOp(id)));
  }
}

//===----------------------------------------------------------------------===//
// Tied groups
//===----------------------------------------------------------------------===//

unsigned Liveness::find(unsigned id) {
  while (groupOf[id] != id) {
    groupOf[id] = groupOf[groupOf[id]];
    id = groupOf[id];
  }
  return id;
}

void Liveness::computeGroups() {
  unsigned numValues = index.getNumValues();
  groupOf.resize(numValues);
  for (unsigned id = 0; id < numValues; ++id)
    groupOf[id] = id;

  auto sameClass = [&](unsigned a, unsigned b) {
    if (a == kNone || b == kNone)
      return false;
    std::optional<RegClass> ca = index.getRegClass(a);
    return ca && ca == index.getRegClass(b);
  };
  // The core of a range is where the value is really needed: a block
  // argument's extension to the terminator is only a reservation.
  auto core = [&](unsigned id) {
    return LiveRange{ranges[id].start, lastRealUse[id]};
  };

  // Interval sets of the groups formed so far (absent: the singleton core).
  llvm::DenseMap<unsigned, IntervalSet> sets;
  auto setOf = [&](unsigned root) -> IntervalSet {
    auto it = sets.find(root);
    if (it != sets.end())
      return it->second;
    return {core(root)};
  };
  // Register aliases (pack, extract, insert) are one block by construction.
  auto alias = [&](unsigned a, unsigned b) {
    if (!sameClass(a, b))
      return;
    unsigned ra = find(a), rb = find(b);
    if (ra == rb)
      return;
    IntervalSet merged = unionOf(setOf(ra), setOf(rb));
    sets.erase(rb);
    sets[ra] = std::move(merged);
    groupOf[rb] = ra;
  };
  // Handoffs (`from` dies where `to` starts): only between disjoint groups.
  struct Handoff {
    unsigned from, to;
  };
  std::vector<Handoff> handoffs;
  auto handoff = [&](unsigned from, unsigned to) {
    if (sameClass(from, to) && from != to)
      handoffs.push_back({from, to});
  };

  for (unsigned idx = 0, e = index.getNumOps(); idx < e; ++idx) {
    Operation *op = index.getOp(idx);
    llvm::ArrayRef<unsigned> operands = index.getOperandIds(idx);
    if (isa<PackOp>(op)) {
      for (unsigned input : operands)
        if (input != kNone && index.getValue(input).hasOneUse())
          alias(index.getResultId(idx, 0), input);
    } else if (isa<ExtractOp>(op)) {
      alias(operands[0], index.getResultId(idx, 0));
    } else if (isa<InsertOp>(op)) {
      alias(operands[1], index.getResultId(idx, 0));
    } else if (auto loop = dyn_cast<LoopOp>(op)) {
      ConditionOp cond = loop.getConditionOp();
      llvm::ArrayRef<unsigned> iterArgs;
      if (cond)
        iterArgs = index.getOperandIds(*index.lookup(cond)).drop_front();
      unsigned numArgs = loop.getBodyBlock().getNumArguments();
      for (unsigned i = 0; i < numArgs; ++i) {
        unsigned arg = index.getBlockArgId(idx, i);
        if (i < op->getNumResults())
          handoff(arg, index.getResultId(idx, i));
        if (i < iterArgs.size()) {
          unsigned next = iterArgs[i];
          // Swap pattern, loop-invariant yields and values defined before
          // a later read of the argument (WAR) keep their own register.
          bool swap = next != kNone && index.isBlockArg(next) &&
                      index.getDefOp(next) == idx;
          if (next != kNone && !swap && index.isDefinedInside(next, idx) &&
              ranges[next].start >= lastRealUse[arg])
            handoff(arg, next);
        }
        if (i < operands.size()) {
          unsigned init = operands[i];
          bool duplicate = llvm::is_contained(operands.take_front(i), init);
          if (init != kNone && !duplicate && ranges[init].end == idx)
            handoff(init, arg);
        }
      }
    } else if (auto ifOp = dyn_cast<IfOp>(op)) {
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
        YieldOp yield = ifOp.getYield(*region);
        if (!yield)
          continue;
        unsigned yieldIdx = *index.lookup(yield);
        llvm::ArrayRef<unsigned> values = index.getOperandIds(yieldIdx);
        for (unsigned i = 0; i < values.size() && i < op->getNumResults();
             ++i) {
          unsigned v = values[i];
          // Only values made in the region and dying at its yield: a value
          // from before the if may be live in both regions.
          if (v != kNone && index.getDefOp(v) > idx &&
              index.getDefOp(v) <= yieldIdx && ranges[v].end == yieldIdx)
            handoff(v, index.getResultId(idx, i));
        }
      }
    } else if (InstFacts facts = lookupInstFacts(op); facts.hasInfo) {
      // The facts table instead of an interface cast per op (the cast was
      // a fifth of this function).
      int tied = facts.tiedOperand;
      if (tied >= 0 && static_cast<unsigned>(tied) < operands.size() &&
          op->getNumResults() != 0) {
        unsigned acc = operands[tied];
        if (acc != kNone && lastRealUse[acc] == idx)
          handoff(acc, index.getResultId(idx, 0));
      }
    }
  }

  // Chains grow at their end: apply handoffs in order of the receiving
  // value's start so each one is checked against the group built so far.
  llvm::stable_sort(handoffs, [&](const Handoff &a, const Handoff &b) {
    return ranges[a.to].start < ranges[b.to].start;
  });
  for (const Handoff &h : handoffs) {
    unsigned ra = find(h.from), rb = find(h.to);
    if (ra == rb)
      continue;
    IntervalSet sa = setOf(ra), sb = setOf(rb);
    if (conflicts(sa, sb))
      continue;
    sets.erase(rb);
    sets[ra] = unionOf(sa, sb);
    groupOf[rb] = ra;
  }

  // Envelopes over the full ranges, sizes of the widest member.
  groupRange.assign(numValues, {});
  groupSize.assign(numValues, 0);
  std::vector<bool> seen(numValues, false);
  for (unsigned id = 0; id < numValues; ++id) {
    if (!index.getRegClass(id))
      continue;
    unsigned root = find(id);
    if (!seen[root]) {
      seen[root] = true;
      groupRoots.push_back(root);
      groupRange[root] = ranges[id];
    }
    LiveRange &env = groupRange[root];
    env.start = std::min(env.start, ranges[id].start);
    env.end = std::max(env.end, ranges[id].end);
    groupSize[root] = std::max<int32_t>(groupSize[root], index.getRegSize(id));
  }
  for (unsigned id = 0; id < numValues; ++id)
    find(id); // flatten, so getGroup is a plain read
}

//===----------------------------------------------------------------------===//
// Pressure
//===----------------------------------------------------------------------===//

void Liveness::computePressure() {
  unsigned numOps = index.getNumOps();
  // Differences at range starts and one past range ends, then prefix sums.
  std::vector<RegCounts> occupied(numOps + 1), after(numOps + 1);
  for (unsigned root : groupRoots) {
    RegClass cls = *index.getRegClass(root);
    LiveRange env = groupRange[root];
    int32_t size = groupSize[root];
    occupied[env.start][cls] += size;
    occupied[env.end + 1][cls] -= size;
    if (env.end > env.start) {
      after[env.start][cls] += size;
      after[env.end][cls] -= size;
    }
  }
  pressure.resize(numOps);
  liveAfter.resize(numOps);
  RegCounts runOccupied, runAfter;
  for (unsigned p = 0; p < numOps; ++p) {
    for (unsigned c = 0; c < 3; ++c) {
      runOccupied.regs[c] += occupied[p].regs[c];
      runAfter.regs[c] += after[p].regs[c];
      PressurePeak &peak = peaks[c];
      if (p == 0 || runOccupied.regs[c] > peak.regs)
        peak = {runOccupied.regs[c], index.getOp(p), p};
    }
    pressure[p] = runOccupied;
    liveAfter[p] = runAfter;
  }
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

bool Liveness::isTracked(Value value) const {
  std::optional<unsigned> id = index.lookupValue(value);
  return id && index.getRegClass(*id);
}

std::optional<LiveRange> Liveness::getRange(Value value) const {
  std::optional<unsigned> id = index.lookupValue(value);
  if (!id || !index.getRegClass(*id))
    return std::nullopt;
  return ranges[*id];
}

RegCounts Liveness::getPressure(Operation *op) const {
  std::optional<unsigned> idx = index.lookup(op);
  return idx ? pressure[*idx] : RegCounts();
}

RegCounts Liveness::getLiveAfter(Operation *op) const {
  std::optional<unsigned> idx = index.lookup(op);
  return idx ? liveAfter[*idx] : RegCounts();
}

llvm::SmallVector<Value> Liveness::getLiveIn(unsigned idx) const {
  llvm::SmallVector<Value> result;
  for (unsigned id = 0, e = index.getNumValues(); id < e; ++id)
    if (index.getRegClass(id) && ranges[id].start < idx &&
        ranges[id].end >= idx)
      result.push_back(index.getValue(id));
  return result;
}

llvm::SmallVector<Value> Liveness::getLiveOut(unsigned idx) const {
  llvm::SmallVector<Value> result;
  for (unsigned id = 0, e = index.getNumValues(); id < e; ++id)
    if (index.getRegClass(id) && ranges[id].start <= idx &&
        ranges[id].end > idx)
      result.push_back(index.getValue(id));
  return result;
}

llvm::SmallVector<LiveValue> Liveness::getLiveValuesAt(unsigned idx) const {
  // Best member per covering group: one whose range covers the point with
  // the latest start, else the latest started before it.
  llvm::DenseMap<unsigned, unsigned> best;
  for (unsigned root : groupRoots)
    if (groupRange[root].covers(idx))
      best[root] = kNone;
  for (unsigned id = 0, e = index.getNumValues(); id < e; ++id) {
    if (!index.getRegClass(id) || ranges[id].start > idx)
      continue;
    auto it = best.find(groupOf[id]);
    if (it == best.end())
      continue;
    auto rank = [&](unsigned v) {
      return std::make_pair(ranges[v].covers(idx), ranges[v].start);
    };
    if (it->second == kNone || rank(id) > rank(it->second))
      it->second = id;
  }
  llvm::SmallVector<LiveValue> result;
  for (auto [root, member] : best) {
    unsigned id = member == kNone ? root : member;
    result.push_back({index.getValue(id), *index.getRegClass(root),
                      groupSize[root], groupRange[root]});
  }
  llvm::sort(result, [](const LiveValue &a, const LiveValue &b) {
    if (a.regClass != b.regClass)
      return a.regClass < b.regClass;
    if (a.size != b.size)
      return a.size > b.size;
    return a.range.start < b.range.start;
  });
  return result;
}

llvm::SmallVector<Value> Liveness::getLiveIn(Operation *op) const {
  std::optional<unsigned> idx = index.lookup(op);
  return idx ? getLiveIn(*idx) : llvm::SmallVector<Value>();
}

llvm::SmallVector<Value> Liveness::getLiveOut(Operation *op) const {
  std::optional<unsigned> idx = index.lookup(op);
  return idx ? getLiveOut(*idx) : llvm::SmallVector<Value>();
}

llvm::SmallVector<LiveValue> Liveness::getLiveValuesAt(Operation *op) const {
  std::optional<unsigned> idx = index.lookup(op);
  return idx ? getLiveValuesAt(*idx) : llvm::SmallVector<LiveValue>();
}
