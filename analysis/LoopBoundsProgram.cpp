//===- LoopBoundsProgram.cpp - a lower bound of a whole program -----------===//

#include "analysis/LoopBoundsProgram.h"

#include "analysis/LoopBounds.h"
#include "analysis/TripCount.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace waveasm;

namespace {

/// One executed op of the unrolled program.
struct Instance {
  int64_t head = 0;
  int64_t tail = 0;
  int32_t issue = 0;
  int32_t occupancy = 0;
  ExecUnit unit = ExecUnit::None;
  unsigned predBegin = 0, predEnd = 0;
};

/// Where a value's readiness comes from: the instance that made it (-1:
/// ready at the start) and when it is ready for a plain reader and for an
/// MFMA reading it as its accumulator.
struct ValueSource {
  int64_t instance = -1;
  int64_t ready = 0;
  int64_t chainReady = 0;
};

class Tracer {
public:
  Tracer(const ProgramIndex &index, llvm::ArrayRef<OpFacts> facts,
         int64_t maxInstances)
      : index(index), facts(facts), maxInstances(maxInstances),
        values(index.getNumValues()), freeOp(index.getNumOps()) {
    // Per op, not per traced instance (a loop's ops are traced per trip).
    for (unsigned idx = 0; idx < index.getNumOps(); ++idx)
      freeOp[idx] = !facts[idx].issued || isScheduleArtifact(index.getOp(idx));
  }

  void traceRange(unsigned begin, unsigned end);
  bool full() const { return int64_t(trace.size()) >= maxInstances; }

  std::vector<Instance> trace;
  /// (producer instance, edge latency), by Instance::predBegin/predEnd.
  std::vector<std::pair<unsigned, int64_t>> preds;
  /// Memory ops' completion latency (0: not a memory op), by instance.
  std::vector<int64_t> completion;
  bool truncated = false;

private:
  void traceOp(unsigned idx);
  void forward(unsigned to, unsigned from) {
    if (from != ProgramIndex::kNone)
      values[to] = values[from];
  }

  const ProgramIndex &index;
  llvm::ArrayRef<OpFacts> facts;
  int64_t maxInstances;
  std::vector<ValueSource> values;
  std::vector<bool> freeOp;
};

void Tracer::traceRange(unsigned begin, unsigned end) {
  for (unsigned idx = begin; idx <= end && !truncated;
       idx = index.getSubtreeEnd(idx) + 1) {
    if (facts[idx].shape != OpShape::Loop) {
      traceOp(idx);
      continue;
    }
    auto loop = cast<LoopOp>(index.getOp(idx));
    llvm::ArrayRef<unsigned> operands = index.getOperandIds(idx);
    unsigned numArgs = loop.getBodyBlock().getNumArguments();
    for (unsigned i = 0; i < numArgs && i < operands.size(); ++i)
      forward(index.getBlockArgId(idx, i), operands[i]);
    // A trip count the IR does not give: the body runs at least once.
    TripCount trips = getTripCount(loop);
    int64_t count = trips.source == TripCountSource::Default ? 1 : trips.count;
    auto [first, last] = index.getRegionRange(idx, 0);
    ConditionOp cond = loop.getConditionOp();
    llvm::ArrayRef<unsigned> next;
    if (cond)
      next = index.getOperandIds(*index.lookup(cond)).drop_front();
    for (int64_t t = 0; t < count && first <= last && !truncated; ++t) {
      traceRange(first, last);
      // The next iteration's block arguments (the last one's: the results).
      for (unsigned i = 0; i < numArgs && i < next.size(); ++i)
        forward(index.getBlockArgId(idx, i), next[i]);
    }
    for (unsigned i = 0; i < index.getNumResults(idx) && i < next.size(); ++i)
      forward(index.getResultId(idx, i), next[i]);
  }
}

void Tracer::traceOp(unsigned idx) {
  const OpFacts &f = facts[idx];
  llvm::ArrayRef<unsigned> operands = index.getOperandIds(idx);
  // Ops a schedule need not execute pass their latest operand on, as do
  // register aliases and constants.
  if (freeOp[idx]) {
    ValueSource latest;
    bool any = false;
    for (unsigned id : operands)
      if (id != ProgramIndex::kNone &&
          (!any || values[id].ready > latest.ready)) {
        latest = values[id];
        any = true;
      }
    for (unsigned i = 0; i < index.getNumResults(idx); ++i)
      values[index.getResultId(idx, i)] = latest;
    return;
  }
  if (full()) {
    truncated = true;
    return;
  }
  Instance inst;
  inst.issue = f.issueCycles;
  inst.occupancy = f.occupancy;
  inst.unit = f.unit;
  inst.predBegin = preds.size();
  unsigned self = trace.size();
  // An `if` reads only its condition (numRead); its regions are left out.
  for (unsigned k = 0; k < f.numRead && k < operands.size(); ++k) {
    unsigned id = operands[k];
    if (id == ProgramIndex::kNone)
      continue;
    const ValueSource &v = values[id];
    int64_t ready = int(k) == f.tied ? v.chainReady : v.ready;
    inst.head = std::max(inst.head, ready);
    if (v.instance >= 0)
      preds.push_back({unsigned(v.instance), ready - trace[v.instance].head});
  }
  inst.predEnd = preds.size();
  int64_t latency = f.shape == OpShape::If ? 0 : f.latency;
  for (unsigned i = 0; i < index.getNumResults(idx); ++i) {
    ValueSource &r = values[index.getResultId(idx, i)];
    r.instance = self;
    r.ready = inst.head + latency;
    // Only an MFMA's result reaches an accumulator early.
    r.chainReady = f.unit == ExecUnit::MFMA ? inst.head + f.chainLatency
                                            : inst.head + latency;
  }
  completion.push_back(f.counter != WaitCounter::None ? f.latency : 0);
  trace.push_back(inst);
}

/// max over S of min_S head + sum_S occ + min_S (tail - occ), for the sets
/// S = {i : key(i) >= x} of every x, `key` head or tail - occ, over the
/// instances `ids` that occupy one unit for `occ(i)`.
template <typename Occ>
int64_t relaxation(const std::vector<Instance> &trace,
                   const std::vector<unsigned> &ids, Occ occ, bool byHead) {
  struct Item {
    int64_t key, occ, other;
  };
  std::vector<Item> items;
  items.reserve(ids.size());
  for (unsigned i : ids) {
    int64_t o = occ(i);
    int64_t head = trace[i].head, rest = trace[i].tail - o;
    items.push_back(byHead ? Item{head, o, rest} : Item{rest, o, head});
  }
  llvm::sort(items, [](const Item &a, const Item &b) { return a.key > b.key; });
  int64_t best = 0, sum = 0;
  int64_t minOther = std::numeric_limits<int64_t>::max();
  for (const Item &item : items) {
    sum += item.occ;
    minOther = std::min(minOther, item.other);
    // item.key is the smallest key so far: the set's min.
    best = std::max(best, item.key + sum + minOther);
  }
  return best;
}

} // namespace

ProgramBound waveasm::computeProgramBound(const ProgramIndex &index,
                                          llvm::ArrayRef<OpFacts> facts,
                                          int64_t maxInstances) {
  ProgramBound bound;
  if (index.getNumOps() == 0)
    return bound;
  Tracer tracer(index, facts, maxInstances);
  tracer.traceRange(0, index.getNumOps() - 1);
  std::vector<Instance> &trace = tracer.trace;
  bound.instances = trace.size();
  bound.truncated = tracer.truncated;
  // s_endpgm waits for every memory counter (CycleModel.h), so a memory
  // op's completion and its slot are part of the path to the end.
  Operation *terminator = index.getProgram().getBody().front().empty()
                              ? nullptr
                              : &index.getProgram().getBody().front().back();
  int64_t endSlot = terminator && isa<S_ENDPGM>(terminator) ? 1 : -1;
  for (unsigned i = 0; i < trace.size(); ++i) {
    trace[i].tail = trace[i].issue;
    if (endSlot > 0 && tracer.completion[i] > 0)
      trace[i].tail = std::max(trace[i].tail, tracer.completion[i] + endSlot);
  }
  for (unsigned i = trace.size(); i-- > 0;)
    for (unsigned p = trace[i].predBegin; p < trace[i].predEnd; ++p) {
      auto [from, edge] = tracer.preds[p];
      trace[from].tail = std::max(trace[from].tail, edge + trace[i].tail);
    }
  for (const Instance &inst : trace)
    bound.criticalPath = std::max(bound.criticalPath, inst.head + inst.tail);
  bound.cycles = bound.criticalPath;
  bound.kind = "critical path";

  std::vector<unsigned> all(trace.size());
  for (unsigned i = 0; i < trace.size(); ++i)
    all[i] = i;
  auto consider = [&](int64_t cycles, StringRef kind) {
    if (cycles > bound.cycles) {
      bound.cycles = cycles;
      bound.kind = kind.str();
    }
  };
  auto issueOcc = [&](unsigned i) { return int64_t(trace[i].issue); };
  for (bool byHead : {true, false})
    consider(relaxation(trace, all, issueOcc, byHead), "issue");
  auto unitOcc = [&](unsigned i) { return int64_t(trace[i].occupancy); };
  for (unsigned u = 0; u < 9; ++u) {
    auto unit = static_cast<ExecUnit>(u);
    if (unit == ExecUnit::None)
      continue;
    std::vector<unsigned> ids;
    for (unsigned i = 0; i < trace.size(); ++i)
      if (trace[i].unit == unit)
        ids.push_back(i);
    if (ids.empty())
      continue;
    for (bool byHead : {true, false})
      consider(relaxation(trace, ids, unitOcc, byHead),
               stringifyExecUnit(unit));
  }
  return bound;
}
