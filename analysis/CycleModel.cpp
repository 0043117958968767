//===- CycleModel.cpp - in-order single-wave issue model ------------------===//
//
// The rules are in CycleModel.h; LDS bank conflicts are charged through the
// op facts (addLdsBankConflicts below says how). The simulator walks the ops of
// a region in order, keeping per value when it is ready (and, for load results,
// which counter slot produced it) and a small machine state: clock, MFMA pipe,
// outstanding memory ops per counter and what the waits so far guarantee.
// The machine state is small, so ifs and loops copy it instead of undoing.
//
//===----------------------------------------------------------------------===//

#include "analysis/CycleModel.h"

#include "analysis/LdsBankConflicts.h"
#include "analysis/LoopBounds.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;

/// Steady-state iterations beyond the minimum (max(3, prefetch distance +
/// 2)) before the mean of the last kSteadyWindow durations is taken instead
/// (CycleModel.h, "Loops").
static constexpr int32_t kExtraSteadyIterations = 6;
static constexpr size_t kSteadyWindow = 4;

std::string waveasm::describeBoundKind(const LoopTiming &loop) {
  if (loop.boundKind == "memory recurrence" && loop.memoryRecurrenceStore &&
      loop.memoryRecurrenceLoad)
    return ("memory recurrence: " +
            loop.memoryRecurrenceStore->getName().stripDialect() +
            " -> next iteration's " +
            loop.memoryRecurrenceLoad->getName().stripDialect())
        .str();
  if (loop.boundKind != "recurrence")
    return loop.boundKind.str();
  std::string text =
      "recurrence via iter_arg " + std::to_string(loop.recurrenceIterArg);
  if (loop.recurrenceDistance > 1)
    text += ", " + std::to_string(loop.recurrenceDistance) + " iterations";
  return text;
}

StringRef waveasm::stringifyStallReason(StallReason reason) {
  switch (reason) {
  case StallReason::None:
    return "none";
  case StallReason::Operand:
    return "operand";
  case StallReason::UncoveredLoad:
    return "uncovered load";
  case StallReason::MFMAPipe:
    return "MFMA pipe";
  case StallReason::MFMACoIssue:
    return "MFMA co-issue";
  case StallReason::WaitCnt:
    return "waitcnt";
  }
  return "none";
}

namespace waveasm {

class CycleSimulator {
public:
  explicit CycleSimulator(CycleModel &model)
      : model(model), index(model.index), target(model.target),
        facts(model.facts), values(index.getNumValues()) {}

  void run();

private:
  static constexpr unsigned kNone = ProgramIndex::kNone;

  enum class LoadKind : uint8_t { None, VM, LDS, SMEM, Flat };

  /// What a reader of a value needs to know.
  struct ValueState {
    int64_t readyAt = 0;
    unsigned loadOp = kNone; // the load that produced the data
    uint32_t seq = 0;        // in-order slot: vmcnt or LDS
    uint32_t oooSeq = 0;     // out-of-order lgkmcnt slot: SMEM, FLAT
    LoadKind load = LoadKind::None;
    bool fromMFMA = false;
    int64_t chainReadyAt = 0; // fromMFMA: when an accumulator chain reads it
  };

  struct MemEntry {
    int64_t issue;
    int64_t complete;
  };

  /// Everything but the per-value states; cheap to copy.
  struct MachineState {
    int64_t clock = 0;
    int64_t mfmaFree = 0;
    int64_t valuFree = 0; // first slot a VALU op may issue after an MFMA
    int64_t ldsFree = 0;  // first slot the LDS pipe takes another access
    // Outstanding ops per queue, in issue order.
    llvm::SmallVector<MemEntry, 16> vm, lds, ooo;
    int64_t lastVMComplete = 0, lastLDSComplete = 0;
    // Slots issued so far and slots below which completion is guaranteed.
    uint32_t vmIssued = 0, vmCovered = 0;
    uint32_t ldsIssued = 0, ldsCovered = 0;
    uint32_t oooIssued = 0, oooCovered = 0;
  };

  enum class Mode { Quiet, Program, Steady };

  void simulateRange(std::pair<unsigned, unsigned> range);
  void simulateOp(unsigned idx);
  void simulateLoop(unsigned idx);
  void simulateIf(unsigned idx);
  void transfer(unsigned idx);
  OpTiming issue(unsigned idx);
  void record(unsigned idx, OpTiming timing);
  void noteUncovered(unsigned user, unsigned valueId, unsigned load,
                     int64_t stall);
  bool isCovered(const ValueState &v) const;
  int64_t waitVM(int64_t t, unsigned n);
  int64_t waitLGKM(int64_t t, unsigned n);
  void shiftLoop(int64_t loopStart, int64_t delta);
  void bindBlockArgs(unsigned loopIdx, llvm::ArrayRef<ValueState> inits);
  llvm::SmallVector<ValueState> getIterArgStates(unsigned loopIdx);
  void analyzeLoop(unsigned loopIdx);

  CycleModel &model;
  const ProgramIndex &index;
  const TargetModel &target;
  llvm::ArrayRef<OpFacts> facts;
  std::vector<ValueState> values;
  MachineState state;
  Mode mode = Mode::Quiet;
  unsigned steadyLoop = kNone;
  int64_t iterationStart = 0;
  // (user, value, load) -> position in model.uncovered.
  llvm::DenseMap<std::tuple<unsigned, unsigned, unsigned>, unsigned>
      uncoveredSlot;
};

} // namespace waveasm

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
    UnitUsage usage = computeLoopUsage(index, facts, idx, tripCount);
    timing.unitCycles = usage.unitCycles;
    timing.issueCycles = usage.issueCycles;
    UnitUsage needed = computeLoopUsage(index, facts, idx, tripCount,
                                        /*mustExecuteOnly=*/true);
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
  while (iterations < maxIterations && !converged) {
    bindBlockArgs(loopIdx, getIterArgStates(loopIdx));
    iterationStart = iterationEnd;
    simulateRange(body);
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
    if (nextIds[i] != kNone && index.isDefinedInside(nextIds[i], idx))
      result.readyAt += delta;
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
  const OpFacts &f = facts[idx];
  bool isMFMA = f.unit == ExecUnit::MFMA;

  int64_t start = state.clock;
  int64_t ready = start;
  StallReason reason = StallReason::None;
  llvm::ArrayRef<unsigned> operands =
      index.getOperandIds(idx).take_front(f.numRead);
  for (auto [k, id] : llvm::enumerate(operands)) {
    if (id == kNone)
      continue;
    const ValueState &v = values[id];
    int64_t r = static_cast<int>(k) == f.tied && v.fromMFMA ? v.chainReadyAt
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
  switch (v.load) {
  case LoadKind::None:
    return true;
  case LoadKind::VM:
    return v.seq < state.vmCovered;
  case LoadKind::LDS:
    return v.seq < state.ldsCovered;
  case LoadKind::SMEM:
    return v.oooSeq < state.oooCovered;
  case LoadKind::Flat:
    return v.seq < state.vmCovered && v.oooSeq < state.oooCovered;
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

//===----------------------------------------------------------------------===//
// CycleModel
//===----------------------------------------------------------------------===//

/// LDS bank conflicts (LdsBankConflicts.h): a conflicting ds op's extra
/// slots add to its latency (its data returns later) and to its LDS pipe
/// occupancy, which the simulation holds the pipe for (the next ds op
/// starts no earlier) and the lower bound counts. Conflict-free ds ops keep
/// their facts: one issues per slot anyway, so the pipe never delays them.
static void addLdsBankConflicts(const ProgramIndex &index,
                                const LdsBankConflicts &banks,
                                std::vector<OpFacts> &facts) {
  for (const LdsAccessInfo &access : banks.getAccesses()) {
    if (!access.known || !access.extraSlots)
      continue;
    std::optional<unsigned> idx = index.lookup(access.op);
    if (!idx || facts[*idx].unit != ExecUnit::LDS)
      continue;
    facts[*idx].latency += static_cast<int32_t>(access.extraSlots);
    facts[*idx].occupancy += static_cast<int32_t>(access.extraSlots);
  }
}

CycleModel::CycleModel(const ProgramIndex &index, const TargetModel &target)
    : index(index), target(target), facts(computeOpFacts(index, target)),
      banks(std::make_unique<LdsBankConflicts>(index, target)) {
  addLdsBankConflicts(index, *banks, facts);
  CycleSimulator(*this).run();
}

const OpTiming *CycleModel::getTiming(Operation *op) const {
  std::optional<unsigned> idx = index.lookup(op);
  return idx ? &timeline[*idx] : nullptr;
}

const OpTiming *CycleModel::getSteadyTiming(unsigned idx) const {
  if (index.getParentLoop(idx) == ProgramIndex::kNone)
    return nullptr;
  return &steady[idx];
}

const OpTiming *CycleModel::getSteadyTiming(Operation *op) const {
  std::optional<unsigned> idx = index.lookup(op);
  return idx ? getSteadyTiming(*idx) : nullptr;
}

const LoopTiming *CycleModel::getLoopTiming(LoopOp loop) const {
  std::optional<unsigned> idx = index.lookup(loop);
  if (!idx || loopSlot[*idx] == ProgramIndex::kNone)
    return nullptr;
  return &loops[loopSlot[*idx]];
}
