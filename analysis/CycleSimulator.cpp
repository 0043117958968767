//===- CycleSimulator.cpp - the cycle model's simulation ------------------===//
//
// The rules are in CycleModel.h; how the simulator keeps its state and when
// it stops re-simulating a loop body, in CycleSimulator.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/CycleSimulator.h"

#include "analysis/LoopBounds.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;

/// Steady-state iterations beyond the minimum (max(3, prefetch distance +
/// 2)) before the mean of the last kSteadyWindow durations is taken instead
/// (CycleModel.h, "Loops").
static constexpr int32_t kExtraSteadyIterations = 6;
static constexpr size_t kSteadyWindow = 4;

CycleSimulator::CycleSimulator(CycleModel &model, Options options)
    : model(model), index(model.index), facts(model.facts), options(options),
      values(index.getNumValues()) {}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

void CycleSimulator::run() {
  unsigned numOps = index.getNumOps();
  model.timeline.assign(numOps, {});
  model.steady.assign(numOps, {});
  model.loopSlot.assign(numOps, kNone);

  llvm::ArrayRef<unsigned> loopIdxs = index.getLoops();
  for (unsigned idx : loopIdxs) {
    model.loopSlot[idx] = model.loops.size();
    LoopTiming timing;
    timing.loop = cast<LoopOp>(index.getOp(idx));
    timing.index = idx;
    timing.tripCount = getTripCount(timing.loop);
    model.loops.push_back(timing);
  }
  auto tripCount = [&](unsigned loopIdx) {
    return model.loops[model.loopSlot[loopIdx]].tripCount.count;
  };

  // Inner loops first: an outer loop's simulation costs its inner loops
  // with their steady state.
  CriticalPaths paths(index, facts);
  for (unsigned idx : llvm::reverse(loopIdxs)) {
    analyzeLoop(idx);
    LoopTiming &timing = model.loops[model.loopSlot[idx]];
    LoopUsages usages = computeLoopUsages(index, facts, idx, tripCount);
    timing.unitCycles = usages.every.unitCycles;
    timing.issueCycles = usages.every.issueCycles;
    const UnitUsage &needed = usages.mustExecute;
    timing.resourceBoundCycles = needed.getLowerBound();
    timing.busiestUnit = needed.getBusiestUnit();
    LoopRecurrenceBounds bounds =
        computeLoopRecurrenceBounds(index, facts, idx);
    const RecurrenceBound &recurrence = bounds.registers;
    timing.recurrenceBoundCycles = recurrence.cycles;
    timing.recurrenceIterArg = recurrence.iterArg;
    timing.recurrenceDistance = recurrence.distance;
    const MemoryRecurrenceBound &memory = bounds.memory;
    timing.memoryRecurrenceBoundCycles = memory.cycles;
    timing.memoryRecurrenceLoad = memory.load;
    timing.memoryRecurrenceStore = memory.store;
    bool recurrenceBinds = recurrence.cycles > timing.resourceBoundCycles;
    timing.lowerBoundCycles =
        recurrenceBinds ? recurrence.cycles : timing.resourceBoundCycles;
    timing.boundKind = recurrenceBinds ? "recurrence" : timing.busiestUnit;
    if (memory.cycles > timing.lowerBoundCycles) {
      timing.lowerBoundCycles = memory.cycles;
      timing.boundKind = "memory recurrence";
    }
    timing.criticalPath = paths.ofLoop(idx);
  }

  state = MachineState();
  mode = Mode::Program;
  if (numOps != 0)
    simulateRange({0, numOps - 1});
  model.totalCycles = state.clock;
  model.criticalPath = paths.ofProgram();

  // Present them in program order of the reader, then of the load.
  auto key = [&](const UncoveredDependency &dep) {
    return std::make_pair(*index.lookup(dep.user),
                          dep.load ? *index.lookup(dep.load) : kNone);
  };
  llvm::stable_sort(model.uncovered, [&](const UncoveredDependency &a,
                                         const UncoveredDependency &b) {
    return key(a) < key(b);
  });
}

/// Iterations in isolation (values from outside ready at 0, no memory
/// outstanding) until the duration converges; the rule is in CycleModel.h.
void CycleSimulator::analyzeLoop(unsigned loopIdx) {
  MachineState saved = state;
  state = MachineState();
  index.forEachUseFromOutside(loopIdx,
                              [&](unsigned id) { values[id] = ValueState(); });
  unsigned numArgs =
      cast<LoopOp>(index.getOp(loopIdx)).getBodyBlock().getNumArguments();
  bindBlockArgs(loopIdx, llvm::SmallVector<ValueState>(numArgs));

  std::pair<unsigned, unsigned> body = index.getRegionRange(loopIdx, 0);
  mode = Mode::Quiet;
  simulateRange(body);
  ++stats.bodyPasses;
  int64_t firstEnd = state.clock;

  LoopTiming &timing = model.loops[model.loopSlot[loopIdx]];
  timing.prefetchDistance =
      static_cast<int32_t>(getPrefetchDistance(index, facts, loopIdx));
  // Iteration d + 1 is the first to wait on a load the model issued (the
  // first iteration is the cold one): compare it and the next at least.
  int32_t minIterations = std::max(3, timing.prefetchDistance + 2);
  int32_t maxIterations = minIterations + kExtraSteadyIterations;
  llvm::SmallVector<int64_t, 16> durations;
  int64_t iterationEnd = firstEnd;
  int32_t iterations = 1;
  bool converged = false;
  mode = Mode::Steady;
  steadyLoop = loopIdx;
  // The start of the last steady iteration simulated, while an iteration
  // starting in it shifted would run as it did (CycleSimulator.h).
  std::optional<IterationStart> previous;
  while (iterations < maxIterations && !converged) {
    llvm::SmallVector<ValueState> args = getIterArgStates(loopIdx);
    bindBlockArgs(loopIdx, args);
    iterationStart = iterationEnd;
    if (options.skipRepeatedIterations) {
      IterationStart start{state, std::move(args)};
      if (previous && repeatsShifted(*previous, start)) {
        // This iteration and every later one would take the last one's
        // cycles: the search converges at the minimum count or at this one,
        // whichever comes later, and the steady timings and uncovered
        // dependencies it would record are the ones the last one recorded.
        int32_t stop = std::max(iterations + 1, minIterations);
        stats.skippedIterations += static_cast<unsigned>(stop - iterations);
        iterations = stop;
        converged = true;
        break;
      }
      previous = std::move(start);
    }
    unshiftedValue = false;
    simulateRange(body);
    ++stats.bodyPasses;
    if (unshiftedValue)
      previous.reset();
    iterationEnd = state.clock;
    durations.push_back(std::max<int64_t>(0, iterationEnd - iterationStart));
    ++iterations;
    converged = iterations >= minIterations &&
                durations.back() == durations[durations.size() - 2];
  }
  int64_t steady = durations.back();
  if (!converged) {
    // Still changing at the cap: a periodic pattern; its mean.
    size_t window = std::min<size_t>(kSteadyWindow, durations.size());
    int64_t sum = 0;
    for (int64_t d : llvm::ArrayRef(durations).take_back(window))
      sum += d;
    steady =
        (sum + static_cast<int64_t>(window) - 1) / static_cast<int64_t>(window);
  }

  timing.firstIterationCycles = firstEnd;
  timing.steadyStateCycles = steady;
  timing.steadyIterations = iterations;
  state = saved;
  mode = Mode::Quiet;
  steadyLoop = kNone;
}

/// The rules, for an iteration k + 1 starting at `next` and the iteration k
/// that started at `prev`, `shift` cycles earlier (k's duration): every op
/// of k + 1 then issues `shift` cycles after its issue in k, with the same
/// stall and reason, and the same uncovered reads. By induction over the
/// ops, each value of k + 1 is its value in k shifted (times later by
/// `shift`, counter slots by the slots k issued) or, for a value as from
/// outside (ready at 0, no load, no MFMA), the same:
///  - an issued op compares operand times with its start, no earlier than
///    the clock, so a time at or before the clock never delays it: a value
///    as from outside delays no op in either iteration, and of the machine's
///    times (pipes free, last completions) only how far they lie ahead of
///    the clock counts;
///  - free ops take the latest of their operands: every other value must be
///    ready after 0 in k (so after `shift` in k + 1) for it to beat a value
///    as from outside in both iterations or in neither; the block arguments
///    are checked, results of ops issued in k are ready after k's start
///    (> 0), and simulateLoop flags the one other source (unshiftedValue);
///  - a queue entry completed by the clock is dropped by the next look at
///    its queue (ooo: all of them; in order: the completed front), and a
///    nested loop shifts only entries issued after it starts;
///  - a wait covers the slots below its count's mark (issued - N), which
///    moves with the slots; a slot issued in the iteration is at or above
///    the covered mark of its start, so only the waits decide for it, and a
///    loaded block argument is covered at both starts or at neither (then
///    its slot is shifted too): the covered marks themselves may differ.
bool CycleSimulator::repeatsShifted(const IterationStart &prev,
                                    const IterationStart &next) {
  const MachineState &a = prev.machine, &b = next.machine;
  int64_t shift = b.clock - a.clock;
  if (a.clock <= 0 || shift < 0 || prev.args.size() != next.args.size())
    return false;
  auto sameAhead = [&](int64_t x, int64_t y) {
    return std::max<int64_t>(x - a.clock, 0) ==
           std::max<int64_t>(y - b.clock, 0);
  };
  if (!sameAhead(a.mfmaFree, b.mfmaFree) ||
      !sameAhead(a.valuFree, b.valuFree) || !sameAhead(a.ldsFree, b.ldsFree) ||
      !sameAhead(a.lastVMComplete, b.lastVMComplete) ||
      !sameAhead(a.lastLDSComplete, b.lastLDSComplete))
    return false;
  int64_t vmSlots = int64_t(b.vmIssued) - a.vmIssued;
  int64_t ldsSlots = int64_t(b.ldsIssued) - a.ldsIssued;
  int64_t oooSlots = int64_t(b.oooIssued) - a.oooIssued;

  // The entries still outstanding at the clock (in order: after the
  // completed front), or nullopt if a completed one was issued at the
  // clock (a nested loop starting there would shift it).
  auto outstanding =
      [](llvm::ArrayRef<MemEntry> queue, int64_t clock,
         bool inOrder) -> std::optional<llvm::SmallVector<MemEntry, 16>> {
    llvm::SmallVector<MemEntry, 16> kept;
    for (const MemEntry &e : queue) {
      bool drop = e.complete <= clock && (!inOrder || kept.empty());
      if (drop && e.issue >= clock)
        return std::nullopt;
      if (!drop)
        kept.push_back(e);
    }
    return kept;
  };
  auto sameQueue = [&](llvm::ArrayRef<MemEntry> x, llvm::ArrayRef<MemEntry> y,
                       bool inOrder) {
    auto kx = outstanding(x, a.clock, inOrder);
    auto ky = outstanding(y, b.clock, inOrder);
    if (!kx || !ky || kx->size() != ky->size())
      return false;
    for (auto [ex, ey] : llvm::zip(*kx, *ky))
      if (ey.issue != ex.issue + shift || ey.complete != ex.complete + shift)
        return false;
    return true;
  };
  if (!sameQueue(a.vm, b.vm, /*inOrder=*/true) ||
      !sameQueue(a.lds, b.lds, /*inOrder=*/true) ||
      !sameQueue(a.ooo, b.ooo, /*inOrder=*/false))
    return false;

  for (auto [x, y] : llvm::zip(prev.args, next.args)) {
    if (isAsFromOutside(x)) {
      if (!isAsFromOutside(y))
        return false;
      continue;
    }
    if (x.readyAt <= 0 || y.readyAt != x.readyAt + shift || y.load != x.load ||
        y.fromMFMA != x.fromMFMA)
      return false;
    if (x.fromMFMA && y.chainReadyAt != x.chainReadyAt + shift)
      return false;
    if (x.load == LoadKind::None)
      continue;
    if (y.loadOp != x.loadOp || coveredIn(x, a) != coveredIn(y, b))
      return false;
    if (coveredIn(x, a))
      continue; // covered for good: its slots no longer count
    bool inOrderSlot = true, oooSlot = true;
    switch (x.load) {
    case LoadKind::None:
      break;
    case LoadKind::VM:
      inOrderSlot = int64_t(y.seq) - x.seq == vmSlots;
      break;
    case LoadKind::LDS:
      inOrderSlot = int64_t(y.seq) - x.seq == ldsSlots;
      break;
    case LoadKind::SMEM:
      oooSlot = int64_t(y.oooSeq) - x.oooSeq == oooSlots;
      break;
    case LoadKind::Flat:
      inOrderSlot = int64_t(y.seq) - x.seq == vmSlots;
      oooSlot = int64_t(y.oooSeq) - x.oooSeq == oooSlots;
      break;
    }
    if (!inOrderSlot || !oooSlot)
      return false;
  }
  return true;
}

CycleSimulator::Stats CycleSimulator::rerun(CycleModel &model,
                                            Options options) {
  model.loops.clear();
  model.uncovered.clear();
  CycleSimulator simulator(model, options);
  simulator.run();
  return simulator.getStats();
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

void CycleSimulator::simulateRange(std::pair<unsigned, unsigned> range) {
  if (range.first > range.second)
    return;
  for (unsigned idx = range.first; idx <= range.second;
       idx = index.getSubtreeEnd(idx) + 1)
    simulateOp(idx);
}

void CycleSimulator::simulateOp(unsigned idx) {
  switch (facts[idx].shape) {
  case OpShape::Loop:
    return simulateLoop(idx);
  case OpShape::If:
    return simulateIf(idx);
  case OpShape::Plain:
  case OpShape::Condition:
    if (!facts[idx].issued)
      return transfer(idx);
    return record(idx, issue(idx));
  }
}

void CycleSimulator::bindBlockArgs(unsigned loopIdx,
                                   llvm::ArrayRef<ValueState> inits) {
  unsigned numArgs =
      cast<LoopOp>(index.getOp(loopIdx)).getBodyBlock().getNumArguments();
  for (unsigned i = 0; i < numArgs; ++i)
    values[index.getBlockArgId(loopIdx, i)] =
        i < inits.size() ? inits[i] : ValueState();
}

llvm::SmallVector<CycleSimulator::ValueState>
CycleSimulator::getIterArgStates(unsigned loopIdx) {
  llvm::SmallVector<ValueState> states;
  ConditionOp cond = cast<LoopOp>(index.getOp(loopIdx)).getConditionOp();
  if (!cond)
    return states;
  for (unsigned id : index.getOperandIds(*index.lookup(cond)).drop_front())
    states.push_back(id == kNone ? ValueState() : values[id]);
  return states;
}

/// First iteration in context; the remaining ones are costed with the
/// loop's steady state (see CycleModel.h).
void CycleSimulator::simulateLoop(unsigned idx) {
  OpTiming timing;
  timing.issueCycle = state.clock;
  record(idx, timing);

  int64_t start = state.clock;
  llvm::SmallVector<ValueState> inits;
  for (unsigned id : index.getOperandIds(idx))
    inits.push_back(id == kNone ? ValueState() : values[id]);
  bindBlockArgs(idx, inits);
  simulateRange(index.getRegionRange(idx, 0));
  ++stats.bodyPasses;

  llvm::SmallVector<ValueState> next = getIterArgStates(idx);
  const LoopTiming &loop = model.loops[model.loopSlot[idx]];
  int64_t delta = (loop.tripCount.count - 1) * loop.steadyStateCycles;
  if (delta > 0)
    shiftLoop(start, delta);

  ConditionOp cond = LoopOp(loop.loop).getConditionOp();
  llvm::ArrayRef<unsigned> nextIds;
  if (cond)
    nextIds = index.getOperandIds(*index.lookup(cond)).drop_front();
  for (unsigned i = 0; i < index.getNumResults(idx) && i < next.size(); ++i) {
    ValueState result = next[i];
    // Values made by the last iteration are `delta` later than the first's.
    if (nextIds[i] != kNone && index.isDefinedInside(nextIds[i], idx)) {
      // A value as from outside (ready at 0) made later by a constant is
      // the same in every iteration around this loop, not shifted with it.
      if (delta != 0 && isAsFromOutside(result))
        unshiftedValue = true;
      result.readyAt += delta;
    }
    values[index.getResultId(idx, i)] = result;
  }
}

void CycleSimulator::shiftLoop(int64_t loopStart, int64_t delta) {
  state.clock += delta;
  if (state.mfmaFree > loopStart)
    state.mfmaFree += delta;
  if (state.valuFree > loopStart)
    state.valuFree += delta;
  if (state.ldsFree > loopStart)
    state.ldsFree += delta;
  for (auto *queue : {&state.vm, &state.lds, &state.ooo})
    for (MemEntry &entry : *queue)
      if (entry.issue >= loopStart) {
        entry.issue += delta;
        entry.complete += delta;
      }
  if (state.lastVMComplete > loopStart)
    state.lastVMComplete += delta;
  if (state.lastLDSComplete > loopStart)
    state.lastLDSComplete += delta;
}

/// Both regions from the same state; the later one continues.
void CycleSimulator::simulateIf(unsigned idx) {
  record(idx, issue(idx));
  auto ifOp = cast<IfOp>(index.getOp(idx));
  MachineState before = state;
  simulateRange(index.getRegionRange(idx, 0));
  MachineState afterThen = state;
  state = before;
  simulateRange(index.getRegionRange(idx, 1));
  bool useThen = afterThen.clock >= state.clock;
  // A likely branch the IR names is the figure (versioning's fast copy).
  if (auto likely = ifOp->getAttrOfType<StringAttr>(kLikelyBranchAttr))
    if (likely.getValue() == "then" || likely.getValue() == "else")
      useThen = likely.getValue() == "then";
  if (useThen)
    state = afterThen;
  YieldOp yield =
      ifOp.getYield(useThen ? ifOp.getThenRegion() : ifOp.getElseRegion());
  for (unsigned i = 0; i < index.getNumResults(idx); ++i) {
    ValueState result;
    if (yield) {
      llvm::ArrayRef<unsigned> yielded =
          index.getOperandIds(*index.lookup(yield));
      if (i < yielded.size() && yielded[i] != kNone)
        result = values[yielded[i]];
    }
    values[index.getResultId(idx, i)] = result;
  }
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

/// An op that takes no cycle: its results are register aliases (or
/// constants) ready when its latest operand is.
void CycleSimulator::transfer(unsigned idx) {
  OpTiming timing;
  timing.issueCycle = state.clock;
  record(idx, timing);
  unsigned numResults = index.getNumResults(idx);
  if (numResults == 0)
    return;
  ValueState merged;
  bool first = true;
  for (unsigned id : index.getOperandIds(idx)) {
    if (id == kNone)
      continue;
    const ValueState &v = values[id];
    if (first || v.readyAt > merged.readyAt ||
        (v.readyAt == merged.readyAt && merged.load == LoadKind::None)) {
      merged = v;
      first = false;
    }
  }
  for (unsigned i = 0; i < numResults; ++i)
    values[index.getResultId(idx, i)] = merged;
}

OpTiming CycleSimulator::issue(unsigned idx) {
  // Raw pointers in the operand loop: the simulation issues every op of a
  // loop body three times or more, and the checked ArrayRef accessors
  // (assertions are on in every build here) cost a third of this loop.
  const OpFacts &f = facts.data()[idx];
  bool isMFMA = f.unit == ExecUnit::MFMA;

  int64_t start = state.clock;
  int64_t ready = start;
  StallReason reason = StallReason::None;
  llvm::ArrayRef<unsigned> operandIds = index.getOperandIds(idx);
  const unsigned *ids = operandIds.data();
  size_t numRead = std::min<size_t>(f.numRead, operandIds.size());
  const ValueState *vals = values.data();
  for (size_t k = 0; k < numRead; ++k) {
    unsigned id = ids[k];
    if (id == kNone)
      continue;
    const ValueState &v = vals[id];
    int64_t r = static_cast<int64_t>(k) == f.tied && v.fromMFMA ? v.chainReadyAt
                                                                : v.readyAt;
    bool uncovered = v.load != LoadKind::None && !isCovered(v);
    if (uncovered)
      noteUncovered(idx, id, v.loadOp, std::max<int64_t>(0, r - start));
    if (r > ready) {
      ready = r;
      reason = uncovered ? StallReason::UncoveredLoad : StallReason::Operand;
    }
  }
  if (isMFMA && state.mfmaFree > ready) {
    ready = state.mfmaFree;
    reason = StallReason::MFMAPipe;
  }
  if (f.unit == ExecUnit::VALU && state.valuFree > ready) {
    ready = state.valuFree;
    reason = StallReason::MFMACoIssue;
  }
  if (f.vmWait >= 0) {
    int64_t t = waitVM(ready, f.vmWait);
    if (t > ready) {
      ready = t;
      reason = StallReason::WaitCnt;
    }
  }
  if (f.lgkmWait >= 0) {
    int64_t t = waitLGKM(ready, f.lgkmWait);
    if (t > ready) {
      ready = t;
      reason = StallReason::WaitCnt;
    }
  }

  OpTiming timing;
  timing.issued = true;
  timing.issueCycle = ready;
  timing.stall = ready - start;
  timing.reason = reason;
  timing.latency = f.latency;
  timing.issueCycles = f.issueCycles;
  state.clock = ready + timing.issueCycles;
  if (isMFMA) {
    state.mfmaFree = ready + f.occupancy;
    state.valuFree = std::max(state.valuFree, ready + f.coIssueDelay);
  }

  ValueState result;
  result.readyAt = ready + timing.latency;
  result.fromMFMA = isMFMA;
  result.chainReadyAt = ready + f.chainLatency;
  int64_t complete = ready + timing.latency;
  if (f.unit == ExecUnit::LDS) {
    // The LDS pipe: a bank conflict of an earlier access delays this one.
    int64_t start = std::max(ready, state.ldsFree);
    complete = start + timing.latency;
    state.ldsFree = start + f.occupancy;
  }
  auto pushInOrder = [&](llvm::SmallVector<MemEntry, 16> &queue,
                         int64_t &last) {
    // Completed entries no longer count; dropping them bounds the queue.
    while (!queue.empty() && queue.front().complete <= ready)
      queue.erase(queue.begin());
    complete = std::max(complete, last);
    last = complete;
    queue.push_back({ready, complete});
  };
  auto pushOutOfOrder = [&]() {
    llvm::erase_if(state.ooo,
                   [&](const MemEntry &e) { return e.complete <= ready; });
    state.ooo.push_back({ready, complete});
  };
  switch (f.counter) {
  case WaitCounter::None:
    break;
  case WaitCounter::VMCnt:
    pushInOrder(state.vm, state.lastVMComplete);
    result.load = LoadKind::VM;
    result.seq = state.vmIssued++;
    break;
  case WaitCounter::LGKMCnt:
    if (f.unit == ExecUnit::SMEM) {
      pushOutOfOrder();
      result.load = LoadKind::SMEM;
      result.oooSeq = state.oooIssued++;
    } else {
      pushInOrder(state.lds, state.lastLDSComplete);
      result.load = LoadKind::LDS;
      result.seq = state.ldsIssued++;
    }
    break;
  case WaitCounter::VMAndLGKM:
    pushInOrder(state.vm, state.lastVMComplete);
    pushOutOfOrder();
    result.load = LoadKind::Flat;
    result.seq = state.vmIssued++;
    result.oooSeq = state.oooIssued++;
    break;
  }
  if (result.load != LoadKind::None) {
    result.readyAt = complete;
    result.loadOp = idx;
  }
  for (unsigned i = 0, e = index.getNumResults(idx); i < e; ++i)
    values[index.getResultId(idx, i)] = result;
  return timing;
}

//===----------------------------------------------------------------------===//
// Memory counters
//===----------------------------------------------------------------------===//

bool CycleSimulator::isCovered(const ValueState &v) const {
  return coveredIn(v, state);
}

bool CycleSimulator::coveredIn(const ValueState &v, const MachineState &m) {
  switch (v.load) {
  case LoadKind::None:
    return true;
  case LoadKind::VM:
    return v.seq < m.vmCovered;
  case LoadKind::LDS:
    return v.seq < m.ldsCovered;
  case LoadKind::SMEM:
    return v.oooSeq < m.oooCovered;
  case LoadKind::Flat:
    return v.seq < m.vmCovered && v.oooSeq < m.oooCovered;
  }
  return true;
}

int64_t CycleSimulator::waitVM(int64_t t, unsigned n) {
  auto &vm = state.vm;
  while (!vm.empty() && vm.front().complete <= t)
    vm.erase(vm.begin());
  // In order: the oldest size - n must complete.
  if (vm.size() > n) {
    size_t drained = vm.size() - n;
    t = std::max(t, vm[drained - 1].complete);
    vm.erase(vm.begin(), vm.begin() + drained);
  }
  if (state.vmIssued > n)
    state.vmCovered = std::max(state.vmCovered, state.vmIssued - n);
  return t;
}

int64_t CycleSimulator::waitLGKM(int64_t t, unsigned n) {
  auto prune = [&](int64_t time) {
    while (!state.lds.empty() && state.lds.front().complete <= time)
      state.lds.erase(state.lds.begin());
    llvm::erase_if(state.ooo,
                   [&](const MemEntry &e) { return e.complete <= time; });
  };
  prune(t);
  size_t outstanding = state.lds.size() + state.ooo.size();
  if (outstanding > n) {
    // LDS and SMEM share the counter: wait for the (outstanding - n)-th
    // completion, whichever queue it is in.
    llvm::SmallVector<int64_t, 32> times;
    for (const MemEntry &e : state.lds)
      times.push_back(e.complete);
    for (const MemEntry &e : state.ooo)
      times.push_back(e.complete);
    size_t k = outstanding - n - 1;
    std::nth_element(times.begin(), times.begin() + k, times.end());
    t = std::max(t, times[k]);
    prune(t);
  }
  // In-order LDS: all but the n youngest; SMEM returns out of order, so
  // only lgkmcnt(0) guarantees it.
  if (state.ldsIssued > n)
    state.ldsCovered = std::max(state.ldsCovered, state.ldsIssued - n);
  if (n == 0)
    state.oooCovered = state.oooIssued;
  return t;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

void CycleSimulator::record(unsigned idx, OpTiming timing) {
  if (mode == Mode::Program) {
    model.timeline[idx] = timing;
  } else if (mode == Mode::Steady && index.getParentLoop(idx) == steadyLoop) {
    timing.issueCycle -= iterationStart;
    model.steady[idx] = timing;
  }
}

void CycleSimulator::noteUncovered(unsigned user, unsigned valueId,
                                   unsigned load, int64_t stall) {
  if (mode == Mode::Quiet)
    return;
  auto [it, inserted] =
      uncoveredSlot.try_emplace({user, valueId, load}, model.uncovered.size());
  if (!inserted) {
    int64_t &known = model.uncovered[it->second].stallCycles;
    known = std::max(known, stall);
    return;
  }
  model.uncovered.push_back({index.getOp(user),
                             load == kNone ? nullptr : index.getOp(load),
                             index.getValue(valueId), stall});
}
