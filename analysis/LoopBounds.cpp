//===- LoopBounds.cpp - resource, recurrence and latency bounds -----------===//

#include "analysis/LoopBounds.h"

#include "analysis/LoopInvariantBases.h"
#include "analysis/MemoryAlias.h"
#include "analysis/PointerRoots.h"
#include "ir/OpClassTable.h"
#include "ir/RegisterTypes.h"
#include "ir/Workgroup.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <functional>
#include <limits>
#include <optional>

using namespace mlir;
using namespace waveasm;

namespace {
/// What isScheduleArtifact knows from an op's class: waits and nops are
/// artifacts, moves are when they copy within one register class.
enum class ArtifactClass : uint8_t { Never, Always, Move };

ArtifactClass classifyArtifact(Operation *op) {
  if (isa<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT, S_WAITCNT_EXPCNT,
          S_NOP>(op))
    return ArtifactClass::Always;
  if (isa<V_MOV_B32, V_MOV_B64, S_MOV_B32, S_MOV_B64>(op))
    return ArtifactClass::Move;
  return ArtifactClass::Never;
}
} // namespace

bool waveasm::isScheduleArtifact(Operation *op) {
  // The class's answer per thread (OpClassTable.h): the bounds ask it of
  // every op of a loop body, the nine isa tests cost more than the lookup.
  // An unregistered op is none of these classes.
  static thread_local OpClassTable<ArtifactClass, 128> classes;
  if (!op->getName().isRegistered())
    return false;
  switch (classes.get(op, classifyArtifact)) {
  case ArtifactClass::Never:
    return false;
  case ArtifactClass::Always:
    return true;
  case ArtifactClass::Move:
    break;
  }
  if (op->getNumOperands() != 1 || op->getNumResults() != 1)
    return false;
  // A copy or rename within one register class; an immediate or an
  // SGPR->VGPR broadcast makes a value any schedule needs.
  std::optional<RegClass> from = getRegClass(op->getOperand(0).getType());
  return from && from == getRegClass(op->getResult(0).getType());
}

//===----------------------------------------------------------------------===//
// Resource usage
//===----------------------------------------------------------------------===//

int64_t UnitUsage::getLowerBound() const {
  int64_t bound = issueCycles;
  for (int64_t cycles : unitCycles)
    bound = std::max(bound, cycles);
  return bound;
}

StringRef UnitUsage::getBusiestUnit() const {
  unsigned best = 0;
  for (unsigned u = 1; u < unitCycles.size(); ++u)
    if (unitCycles[u] > unitCycles[best])
      best = u;
  if (issueCycles > unitCycles[best])
    return "issue";
  return stringifyExecUnit(static_cast<ExecUnit>(best));
}

namespace {
/// The usage of every op and of the ops any schedule must execute, summed
/// in one walk (the second leaves out isScheduleArtifact's ops).
struct Usages {
  UnitUsage every, needed;
};

/// Adds `inner` (a nested loop's body) `trips` times.
void addTimes(UnitUsage &usage, const UnitUsage &inner, int64_t trips) {
  for (unsigned u = 0; u < usage.unitCycles.size(); ++u)
    usage.unitCycles[u] += trips * inner.unitCycles[u];
  usage.issueCycles += trips * inner.issueCycles;
}

/// Adds per unit the cheaper of two regions of which only one runs.
void addCheaper(UnitUsage &usage, const UnitUsage &a, const UnitUsage &b) {
  for (unsigned u = 0; u < usage.unitCycles.size(); ++u)
    usage.unitCycles[u] += std::min(a.unitCycles[u], b.unitCycles[u]);
  usage.issueCycles += std::min(a.issueCycles, b.issueCycles);
}

/// `withEvery`: also the usage of every op (else `every` stays empty).
Usages usageOf(const ProgramIndex &index, llvm::ArrayRef<OpFacts> facts,
               std::pair<unsigned, unsigned> range, TripCountFn tripCount,
               bool withEvery) {
  Usages usage;
  if (range.first > range.second)
    return usage;
  for (unsigned idx = range.first; idx <= range.second;
       idx = index.getSubtreeEnd(idx) + 1) {
    const OpFacts &f = facts[idx];
    if (f.shape == OpShape::Loop) {
      Usages inner = usageOf(index, facts, index.getRegionRange(idx, 0),
                             tripCount, withEvery);
      int64_t trips = tripCount(idx);
      addTimes(usage.every, inner.every, trips);
      addTimes(usage.needed, inner.needed, trips);
      continue;
    }
    if (f.shape == OpShape::If) {
      // Only one region runs: per unit, the cheaper one is a safe bound.
      Usages thenUsage = usageOf(index, facts, index.getRegionRange(idx, 0),
                                 tripCount, withEvery);
      Usages elseUsage = usageOf(index, facts, index.getRegionRange(idx, 1),
                                 tripCount, withEvery);
      addCheaper(usage.every, thenUsage.every, elseUsage.every);
      addCheaper(usage.needed, thenUsage.needed, elseUsage.needed);
    }
    if (!f.issued)
      continue;
    auto add = [&](UnitUsage &to) {
      to.unitCycles[static_cast<unsigned>(f.unit)] += f.occupancy;
      to.issueCycles += f.issueCycles;
    };
    if (withEvery)
      add(usage.every);
    if (!isScheduleArtifact(index.getOp(idx)))
      add(usage.needed);
  }
  return usage;
}
} // namespace

UnitUsage waveasm::computeLoopUsage(const ProgramIndex &index,
                                    llvm::ArrayRef<OpFacts> facts,
                                    unsigned loopIdx, TripCountFn tripCount,
                                    bool mustExecuteOnly) {
  Usages usage = usageOf(index, facts, index.getRegionRange(loopIdx, 0),
                         tripCount, /*withEvery=*/!mustExecuteOnly);
  return mustExecuteOnly ? usage.needed : usage.every;
}

LoopUsages waveasm::computeLoopUsages(const ProgramIndex &index,
                                      llvm::ArrayRef<OpFacts> facts,
                                      unsigned loopIdx, TripCountFn tripCount) {
  Usages usage = usageOf(index, facts, index.getRegionRange(loopIdx, 0),
                         tripCount, /*withEvery=*/true);
  return {usage.every, usage.needed};
}

//===----------------------------------------------------------------------===//
// Recurrence bound
//===----------------------------------------------------------------------===//

namespace {

constexpr int64_t kNoPath = std::numeric_limits<int64_t>::min() / 4;
constexpr unsigned kMaxKarpArgs = 128;

/// The loop's iter_args: block argument ids and the ids of the condition
/// operands that become them in the next iteration.
struct Carried {
  llvm::SmallVector<unsigned> args, next;
};

Carried getCarried(const ProgramIndex &index, unsigned loopIdx) {
  Carried c;
  auto loop = cast<LoopOp>(index.getOp(loopIdx));
  ConditionOp cond = loop.getConditionOp();
  if (!cond)
    return c;
  llvm::ArrayRef<unsigned> next =
      index.getOperandIds(*index.lookup(cond)).drop_front();
  unsigned n =
      std::min<unsigned>(loop.getBodyBlock().getNumArguments(), next.size());
  for (unsigned i = 0; i < n; ++i) {
    c.args.push_back(index.getBlockArgId(loopIdx, i));
    c.next.push_back(next[i]);
  }
  return c;
}

/// Longest latency-weighted paths from one block argument through the ops
/// of the loop body's top level (nested loops and ifs are not crossed).
/// Value ids of a loop subtree are contiguous from its first block argument
/// (ProgramIndex numbers in pre-order), so the distances live in a vector
/// over that span. The ops are flattened once (operands as span offsets,
/// latencies, free or not) and walked once per iter_arg.
class CarriedPaths {
public:
  CarriedPaths(const ProgramIndex &index, llvm::ArrayRef<OpFacts> facts,
               unsigned loopIdx) {
    auto [first, last] = index.getRegionRange(loopIdx, 0);
    lo = index.getBlockArgId(loopIdx, 0);
    unsigned hi =
        lo +
        cast<LoopOp>(index.getOp(loopIdx)).getBodyBlock().getNumArguments();
    for (unsigned idx = first; first <= last && idx <= last; ++idx)
      if (unsigned n = index.getNumResults(idx))
        hi = std::max(hi, index.getResultId(idx, n - 1) + 1);
    auto local = [&](unsigned id) -> int32_t {
      return id != ProgramIndex::kNone && id >= lo && id < hi
                 ? static_cast<int32_t>(id - lo)
                 : -1;
    };
    // At most every op of the body and every operand it has.
    if (first <= last) {
      ops.reserve(last - first + 1);
      operands.reserve(index.getOperandIds(last).end() -
                       index.getOperandIds(first).begin());
    }
    for (unsigned idx = first; first <= last && idx <= last;
         idx = index.getSubtreeEnd(idx) + 1) {
      const OpFacts &f = facts[idx];
      if (f.shape != OpShape::Plain)
        continue;
      FlatOp op;
      op.idx = idx;
      op.operandBegin = operands.size();
      llvm::ArrayRef<unsigned> ids = index.getOperandIds(idx);
      if (f.issued)
        ids = ids.take_front(f.numRead);
      for (auto [k, id] : llvm::enumerate(ids))
        if (int32_t l = local(id); l >= 0)
          operands.push_back({l, static_cast<int>(k) == f.tied});
      op.operandEnd = operands.size();
      if (op.operandBegin == op.operandEnd)
        continue; // reads nothing of the loop: no path goes through it
      bool free = !f.issued || isScheduleArtifact(index.getOp(idx));
      op.latency = free ? 0 : f.latency;
      op.passChain = free;
      op.chainLatency =
          !free && f.unit == ExecUnit::MFMA ? f.chainLatency : kNoChain;
      unsigned n = index.getNumResults(idx);
      op.resultBegin = n ? local(index.getResultId(idx, 0)) : 0;
      op.numResults = n;
      ops.push_back(op);
    }
    dist.assign(hi - lo, kNoPath);
    chain.assign(hi - lo, kNoPath);
    userBegin.assign(hi - lo + 1, 0);
    for (const auto &[id, tied] : operands)
      ++userBegin[id + 1];
    for (size_t id = 0; id < hi - lo; ++id)
      userBegin[id + 1] += userBegin[id];
    users.resize(operands.size());
    std::vector<unsigned> fill(userBegin.begin(), userBegin.end() - 1);
    for (auto [k, op] : llvm::enumerate(ops))
      for (size_t o = op.operandBegin; o < op.operandEnd; ++o)
        users[fill[operands[o].first]++] = unsigned(k);
    pending.resize(ops.size());
  }

  /// Distances from block argument `argId` (at 0) to every value. Only the
  /// ops a path from the argument reaches are visited, in body order (a
  /// pipelined kernel carries hundreds of iter_args, and walking its whole
  /// body for each was most of its cycle model): an op is pending once one
  /// of its operands is reached, and the users of a value come after its
  /// definition, so each is final when visited. `fullWalk` visits every op
  /// instead, the definition the sparse walk must equal
  /// (computeRecurrenceBoundByFullWalk).
  void from(unsigned argId, bool fullWalk = false) {
    clear();
    set(argId - lo, 0, kNoPath);
    if (fullWalk) {
      for (const FlatOp &op : ops)
        visit(op);
      return;
    }
    pending.reset();
    markUsers(argId - lo);
    walkPending();
  }

  /// Distances from the results of the body's op `idx`, issued at 0: each
  /// result ready at `latency` (the op's own latency).
  void fromResultsOf(const ProgramIndex &index, unsigned idx, int64_t latency) {
    clear();
    pending.reset();
    for (unsigned i = 0, e = index.getNumResults(idx); i < e; ++i) {
      unsigned id = index.getResultId(idx, i);
      if (id == ProgramIndex::kNone || id < lo || id - lo >= dist.size())
        continue;
      set(id - lo, latency, kNoPath);
      markUsers(id - lo);
    }
    walkPending();
  }

  /// Bounds the walks of the memory recurrence: afterwards, for a value at
  /// span offset v, sinkBound[v] is at least the longest latency path from v
  /// to an operand of an op `sinkCross` gives a cost (not kNoPath), plus
  /// that cost. A path's steps are bounded by each op's larger latency (its
  /// own or, for an MFMA, the accumulator chain's), so the bound covers
  /// `dist` and `chain` alike. One walk of the body backwards: the users of
  /// a value come after its definition.
  void computeSinkBounds(llvm::function_ref<int64_t(unsigned idx)> sinkCross) {
    sinkBound.assign(dist.size(), kNoPath);
    for (const FlatOp &op : llvm::reverse(ops)) {
      int64_t through = kNoPath;
      for (unsigned i = 0; i < op.numResults; ++i)
        through = std::max(through, sinkBound[op.resultBegin + i]);
      int64_t step = op.chainLatency == kNoChain
                         ? op.latency
                         : std::max(op.latency, op.chainLatency);
      int64_t bound = through == kNoPath ? kNoPath : through + step;
      bound = std::max(bound, sinkCross(op.idx));
      if (bound == kNoPath)
        continue;
      for (size_t k = op.operandBegin; k < op.operandEnd; ++k) {
        int64_t &at = sinkBound[operands[k].first];
        at = std::max(at, bound);
      }
    }
  }

  /// After computeSinkBounds: at least the largest `at(operand)` plus cost
  /// over the sinks' operands that fromResultsOf(index, idx, latency) can
  /// reach, kNoPath when it reaches none.
  int64_t sinkBoundFromResultsOf(const ProgramIndex &index, unsigned idx,
                                 int64_t latency) const {
    int64_t best = kNoPath;
    for (unsigned i = 0, e = index.getNumResults(idx); i < e; ++i) {
      unsigned id = index.getResultId(idx, i);
      if (id == ProgramIndex::kNone || id < lo || id - lo >= dist.size())
        continue;
      best = std::max(best, sinkBound[id - lo]);
    }
    return best == kNoPath ? kNoPath : best + latency;
  }

  /// When `id` is ready, kNoPath if not reached; an MFMA result counts
  /// when the next accumulator may read it (the smaller figure keeps the
  /// bound valid whoever reads it).
  int64_t at(unsigned id) const {
    if (id == ProgramIndex::kNone || id < lo || id - lo >= dist.size())
      return kNoPath;
    int64_t d = dist[id - lo];
    if (d != kNoPath && chain[id - lo] != kNoPath)
      d = std::min(d, chain[id - lo]);
    return d;
  }

private:
  void clear() {
    for (int32_t id : touched) {
      dist[id] = kNoPath;
      chain[id] = kNoPath;
    }
    touched.clear();
  }
  /// Visits the pending ops in body order, marking the users of what each
  /// reaches.
  void walkPending() {
    for (int k = pending.find_first(); k >= 0; k = pending.find_next(k)) {
      const FlatOp &op = ops[k];
      if (!visit(op))
        continue;
      for (unsigned i = 0; i < op.numResults; ++i)
        markUsers(op.resultBegin + i);
    }
  }

  static constexpr int32_t kNoChain = -1;
  struct FlatOp {
    unsigned idx = 0; // the op's position in the index
    size_t operandBegin = 0, operandEnd = 0;
    int32_t latency = 0;
    int32_t chainLatency = kNoChain;
    bool passChain = false;
    int32_t resultBegin = 0;
    unsigned numResults = 0;
  };

  void set(int32_t id, int64_t d, int64_t c) {
    dist[id] = d;
    chain[id] = c;
    touched.push_back(id);
  }
  void markUsers(int32_t id) {
    for (unsigned u = userBegin[id], e = userBegin[id + 1]; u < e; ++u)
      pending.set(users[u]);
  }
  /// Sets the results of `op` from its reached operands; false when none
  /// is reached.
  bool visit(const FlatOp &op) {
    int64_t start = kNoPath, startChain = kNoPath;
    for (size_t k = op.operandBegin; k < op.operandEnd; ++k) {
      auto [id, tied] = operands[k];
      if (dist[id] == kNoPath)
        continue;
      int64_t r = tied && chain[id] != kNoPath ? chain[id] : dist[id];
      if (r > start) {
        start = r;
        startChain = chain[id];
      }
    }
    if (start == kNoPath)
      return false;
    int64_t finish = start + op.latency;
    int64_t finishChain = op.passChain ? startChain
                          : op.chainLatency != kNoChain
                              ? start + op.chainLatency
                              : kNoPath;
    for (unsigned i = 0; i < op.numResults; ++i)
      set(op.resultBegin + i, finish, finishChain);
    return true;
  }

  unsigned lo = 0;
  std::vector<FlatOp> ops;
  std::vector<std::pair<int32_t, bool>> operands; // span offset, tied
  std::vector<int64_t> dist, chain;
  /// computeSinkBounds' bound per span offset.
  std::vector<int64_t> sinkBound;
  /// The span offsets set since the last reset.
  std::vector<int32_t> touched;
  /// users[userBegin[id] .. userBegin[id + 1]): the ops (positions in
  /// `ops`, ascending) reading span offset `id`.
  std::vector<unsigned> userBegin, users;
  llvm::BitVector pending;
};

} // namespace

/// The loop's CarriedPaths, built on first use: the register and the
/// memory recurrence bounds of one loop share it.
struct LazyCarriedPaths {
  const ProgramIndex &index;
  llvm::ArrayRef<OpFacts> facts;
  unsigned loopIdx;
  std::optional<CarriedPaths> paths;
  CarriedPaths &get() {
    if (!paths)
      paths.emplace(index, facts, loopIdx);
    return *paths;
  }
};

static RecurrenceBound recurrenceBound(const ProgramIndex &index,
                                       llvm::ArrayRef<OpFacts> facts,
                                       unsigned loopIdx, bool fullWalk,
                                       LazyCarriedPaths &lazyPaths) {
  RecurrenceBound best;
  Carried carried = getCarried(index, loopIdx);
  unsigned n = carried.args.size();
  if (n == 0)
    return best;

  // weight[i][j]: longest path from argument i to the next value of j.
  std::vector<int64_t> weight(static_cast<size_t>(n) * n, kNoPath);
  CarriedPaths &paths = lazyPaths.get();
  bool any = false;
  for (unsigned i = 0; i < n; ++i) {
    paths.from(carried.args[i], fullWalk);
    for (unsigned j = 0; j < n; ++j) {
      weight[i * n + j] = paths.at(carried.next[j]);
      any |= weight[i * n + j] != kNoPath;
    }
  }
  if (!any)
    return best;

  // Each edge spans one iteration. The best cycle mean (Karp): walks[k][v]
  // is the heaviest walk of k edges ending at v, pred its previous vertex;
  // the heaviest walk of n edges contains a cycle of the best mean, found
  // by tracing it back.
  auto consider = [&](int64_t sum, int32_t length, unsigned arg) {
    if (length <= 0 || sum <= 0)
      return;
    int64_t cycles = (sum + length - 1) / length;
    if (cycles > best.cycles ||
        (cycles == best.cycles && length < best.distance)) {
      best.cycles = cycles;
      best.iterArg = static_cast<int32_t>(arg);
      best.distance = length;
    }
  };
  for (unsigned i = 0; i < n; ++i)
    if (weight[i * n + i] != kNoPath)
      consider(weight[i * n + i], 1, i);
  // Karp is cubic in the iter_args; beyond kMaxKarpArgs (no loop of ours
  // comes near) only the one-iteration cycles above count, still a bound.
  if (n > kMaxKarpArgs)
    return best;

  std::vector<int64_t> walks(static_cast<size_t>(n + 1) * n, kNoPath);
  std::vector<unsigned> pred(static_cast<size_t>(n + 1) * n, 0);
  for (unsigned v = 0; v < n; ++v)
    walks[v] = 0;
  // The edges of each argument in ascending target order: a kernel's
  // arguments reach few others, and the cubic loop over the whole matrix
  // was most of its cycle model. Same updates in the same order (u, then
  // v ascending) as the dense loop the full walk keeps.
  std::vector<unsigned> edgeBegin(n + 1, 0);
  std::vector<std::pair<unsigned, int64_t>> edges;
  for (unsigned u = 0; u < n; ++u) {
    for (unsigned v = 0; v < n && !fullWalk; ++v)
      if (int64_t w = weight[u * n + v]; w != kNoPath)
        edges.push_back({v, w});
    edgeBegin[u + 1] = edges.size();
  }
  for (unsigned k = 1; k <= n; ++k)
    for (unsigned u = 0; u < n; ++u) {
      int64_t wu = walks[(k - 1) * n + u];
      if (wu == kNoPath)
        continue;
      auto relax = [&](unsigned v, int64_t w) {
        if (w != kNoPath && wu + w > walks[k * n + v]) {
          walks[k * n + v] = wu + w;
          pred[k * n + v] = u;
        }
      };
      if (!fullWalk) {
        for (unsigned e = edgeBegin[u]; e < edgeBegin[u + 1]; ++e)
          relax(edges[e].first, edges[e].second);
        continue;
      }
      for (unsigned v = 0; v < n; ++v)
        relax(v, weight[u * n + v]);
    }
  for (unsigned v = 0; v < n; ++v) {
    if (walks[n * n + v] == kNoPath)
      continue;
    // Trace the walk back; the first repeated vertex closes a cycle.
    std::vector<int> seenAt(n, -1);
    unsigned at = v;
    for (int k = static_cast<int>(n); k >= 0; --k) {
      if (seenAt[at] >= 0) {
        int from = seenAt[at];
        consider(walks[from * n + at] - walks[k * n + at], from - k, at);
        break;
      }
      seenAt[at] = k;
      if (k == 0)
        break;
      at = pred[k * n + at];
    }
  }
  return best;
}

RecurrenceBound waveasm::computeRecurrenceBound(const ProgramIndex &index,
                                                llvm::ArrayRef<OpFacts> facts,
                                                unsigned loopIdx) {
  LazyCarriedPaths paths{index, facts, loopIdx, std::nullopt};
  return recurrenceBound(index, facts, loopIdx, /*fullWalk=*/false, paths);
}

RecurrenceBound
waveasm::computeRecurrenceBoundByFullWalk(const ProgramIndex &index,
                                          llvm::ArrayRef<OpFacts> facts,
                                          unsigned loopIdx) {
  LazyCarriedPaths paths{index, facts, loopIdx, std::nullopt};
  return recurrenceBound(index, facts, loopIdx, /*fullWalk=*/true, paths);
}

//===----------------------------------------------------------------------===//
// Memory recurrence bound
//===----------------------------------------------------------------------===//

/// Whether `store` of one iteration may write bytes `load` reads in the
/// next one, by the rules every reordering of the loop obeys
/// (LoopStages.h's memory edges): the alias analysis answers across
/// iterations only where the bases it compares are invariant in the loop,
/// and two kernel arguments declared apart stay apart in every iteration.
static bool mayFeedNextIteration(Operation *store, Operation *load,
                                 LoopOp loop) {
  unsigned conflict = memWrites(store) & memReads(load);
  if (!conflict)
    return false;
  if (!(conflict & MemLDS) && inDistinctNoAliasArgs(store, load))
    return false;
  return !(hasLoopInvariantBases(store, loop) &&
           hasLoopInvariantBases(load, loop) &&
           alias(store, load) == AliasResult::NoAlias);
}

static MemoryRecurrenceBound
memoryRecurrenceBound(const ProgramIndex &index, llvm::ArrayRef<OpFacts> facts,
                      unsigned loopIdx, LazyCarriedPaths &lazyPaths,
                      bool everyLoad) {
  MemoryRecurrenceBound best;
  auto loop = cast<LoopOp>(index.getOp(loopIdx));
  auto [first, last] = index.getRegionRange(loopIdx, 0);
  if (first > last)
    return best;
  // The body's own memory ops and barriers (nested loops and ifs are not
  // crossed, as for the register recurrences).
  // Each with the memory spaces it reads or writes (asked once per op, not
  // once per pair).
  SmallVector<unsigned> loads, stores, barriers;
  SmallVector<unsigned> loadReads, storeWrites;
  for (unsigned idx = first; idx <= last; idx = index.getSubtreeEnd(idx) + 1) {
    const OpFacts &f = facts[idx];
    if (f.shape != OpShape::Plain || !f.issued)
      continue;
    Operation *op = index.getOp(idx);
    if (isa<S_BARRIER>(op)) {
      barriers.push_back(idx);
      continue;
    }
    if (unsigned reads = memReads(op)) {
      loads.push_back(idx);
      loadReads.push_back(reads);
    }
    if (unsigned writes = memWrites(op)) {
      stores.push_back(idx);
      storeWrites.push_back(writes);
    }
  }
  if (loads.empty() || stores.empty())
    return best;
  // Between the waves of a workgroup, an LDS write reaches a read only
  // through a barrier after the write has completed (InsertWaitcnt.cpp
  // (b)): where a barrier of the body lies between the two, the write's
  // latency and the barrier's slot come before the next iteration's load.
  // Only for ds writes (lgkmcnt): every barrier waits for them. A barrier
  // waits for a direct-to-LDS load only where it publishes its bytes (the
  // rotation of LdsRotation.h, which the alias check does not follow), so
  // a DMA keeps its issue slot alone, as a lower bound must.
  std::optional<int64_t> waves =
      getWorkgroupWaves(loop->getParentOfType<ProgramOp>());
  bool severalWaves = waves && *waves > 1;
  CarriedPaths &paths = lazyPaths.get();
  // A walk from a load finds a longer cycle only where some store is far
  // enough from it: one walk backwards bounds, for every load at once, the
  // longest cycle any store may close with it (each store's largest
  // crossing below), and a load whose bound does not beat the best so far
  // is not walked. The loads are taken in the same order and a cycle must
  // still be strictly longer to replace the best, so the result is the
  // walk of every load's (`everyLoad`, LoopBoundsTest compares them); on a
  // 300-op loop most of the 70 walks are skipped.
  if (!everyLoad) {
    int64_t barrierIssue = 0;
    for (unsigned barrier : barriers)
      barrierIssue =
          std::max<int64_t>(barrierIssue, facts[barrier].issueCycles);
    // By position in the body (the flattened ops are its top level).
    std::vector<int64_t> crossAt(last - first + 1, kNoPath);
    for (auto [s, store] : llvm::enumerate(stores)) {
      const OpFacts &f = facts[store];
      int64_t cross = f.issueCycles;
      if (severalWaves && f.counter == WaitCounter::LGKMCnt &&
          (storeWrites[s] & MemLDS) && !barriers.empty())
        cross = std::max(cross, std::max<int64_t>(f.issueCycles, f.latency) +
                                    barrierIssue);
      crossAt[store - first] = cross;
    }
    paths.computeSinkBounds([&](unsigned idx) { return crossAt[idx - first]; });
  }
  for (auto [l, load] : llvm::enumerate(loads)) {
    if (!everyLoad && paths.sinkBoundFromResultsOf(
                          index, load, facts[load].latency) <= best.cycles)
      continue;
    Operation *loadOp = index.getOp(load);
    bool walked = false;
    // Stores are in body order: the first one after the load onwards.
    for (size_t s = llvm::upper_bound(stores, load) - stores.begin();
         s < stores.size(); ++s) {
      unsigned store = stores[s];
      unsigned conflict = storeWrites[s] & loadReads[l];
      if (!conflict)
        continue;
      Operation *storeOp = index.getOp(store);
      if (!walked) {
        paths.fromResultsOf(index, load, facts[load].latency);
        walked = true;
      }
      // The store issues once every operand it reads is ready.
      int64_t start = kNoPath;
      const OpFacts &f = facts[store];
      for (unsigned id : index.getOperandIds(store).take_front(f.numRead))
        start = std::max(start, paths.at(id));
      if (start == kNoPath)
        continue;
      int64_t cross = f.issueCycles;
      if (severalWaves && f.counter == WaitCounter::LGKMCnt &&
          (conflict & MemLDS))
        for (unsigned barrier : barriers)
          if (barrier > store || barrier < load) {
            cross = std::max<int64_t>(f.issueCycles, f.latency) +
                    facts[barrier].issueCycles;
            break;
          }
      int64_t cycles = start + cross;
      if (cycles <= best.cycles || !mayFeedNextIteration(storeOp, loadOp, loop))
        continue;
      best.cycles = cycles;
      best.load = loadOp;
      best.store = storeOp;
    }
  }
  return best;
}

MemoryRecurrenceBound
waveasm::computeMemoryRecurrenceBound(const ProgramIndex &index,
                                      llvm::ArrayRef<OpFacts> facts,
                                      unsigned loopIdx) {
  LazyCarriedPaths paths{index, facts, loopIdx, std::nullopt};
  return memoryRecurrenceBound(index, facts, loopIdx, paths,
                               /*everyLoad=*/false);
}

MemoryRecurrenceBound
waveasm::computeMemoryRecurrenceBoundByEveryLoad(const ProgramIndex &index,
                                                 llvm::ArrayRef<OpFacts> facts,
                                                 unsigned loopIdx) {
  LazyCarriedPaths paths{index, facts, loopIdx, std::nullopt};
  return memoryRecurrenceBound(index, facts, loopIdx, paths,
                               /*everyLoad=*/true);
}

LoopRecurrenceBounds
waveasm::computeLoopRecurrenceBounds(const ProgramIndex &index,
                                     llvm::ArrayRef<OpFacts> facts,
                                     unsigned loopIdx) {
  LazyCarriedPaths paths{index, facts, loopIdx, std::nullopt};
  LoopRecurrenceBounds bounds;
  bounds.registers =
      recurrenceBound(index, facts, loopIdx, /*fullWalk=*/false, paths);
  bounds.memory =
      memoryRecurrenceBound(index, facts, loopIdx, paths, /*everyLoad=*/false);
  return bounds;
}

//===----------------------------------------------------------------------===//
// Prefetch distance and latency limit
//===----------------------------------------------------------------------===//

static bool isVgprLoad(const ProgramIndex &index, llvm::ArrayRef<OpFacts> facts,
                       unsigned idx) {
  const OpFacts &f = facts[idx];
  if (!f.issued ||
      (f.counter != WaitCounter::VMCnt && f.counter != WaitCounter::VMAndLGKM))
    return false;
  for (unsigned i = 0, e = index.getNumResults(idx); i < e; ++i)
    if (index.getRegClass(index.getResultId(idx, i)) == RegClass::VGPR)
      return true;
  return false;
}

unsigned waveasm::getPrefetchDistance(const ProgramIndex &index,
                                      llvm::ArrayRef<OpFacts> facts,
                                      unsigned loopIdx) {
  Carried carried = getCarried(index, loopIdx);
  unsigned n = carried.args.size();
  if (n == 0)
    return 0;
  // depth[i]: iterations between the load whose data argument i holds and
  // the iteration that reads it (0: no load; -2: being computed).
  std::vector<int> depth(n, -1);
  auto argPosition = [&](unsigned id) -> int {
    if (!index.isBlockArg(id) || index.getDefOp(id) != loopIdx ||
        id - carried.args.front() >= n)
      return -1;
    return static_cast<int>(id - carried.args.front());
  };
  std::function<int(unsigned)> argDepth;
  // How many iterations the data of value `id` has already travelled: a
  // load made in this iteration counts 1 once carried; aliases (free ops)
  // and moves pass it on.
  std::function<int(unsigned, unsigned)> valueDepth = [&](unsigned id,
                                                          unsigned budget) {
    if (id == ProgramIndex::kNone || budget == 0 ||
        !index.isDefinedInside(id, loopIdx))
      return -1;
    if (int pos = argPosition(id); pos >= 0)
      return argDepth(pos);
    unsigned def = index.getDefOp(id);
    if (isVgprLoad(index, facts, def))
      return 0;
    if (facts[def].shape != OpShape::Plain ||
        (facts[def].issued && !isScheduleArtifact(index.getOp(def))))
      return -1;
    int d = -1;
    for (unsigned operand : index.getOperandIds(def))
      d = std::max(d, valueDepth(operand, budget - 1));
    return d;
  };
  argDepth = [&](unsigned i) {
    if (depth[i] == -2)
      return -1; // a rotation among arguments that no load feeds
    if (depth[i] != -1)
      return depth[i];
    depth[i] = -2;
    int d = valueDepth(carried.next[i], 8);
    depth[i] = d < 0 ? 0 : d + 1;
    return depth[i];
  };
  // Only data from a load counts: valueDepth returns -1 for values made by
  // other ops, 0 for a load of this iteration.
  unsigned best = 0;
  for (unsigned i = 0; i < n; ++i)
    best = std::max<unsigned>(best, std::max(argDepth(i), 0));
  return best;
}

LatencyLimit waveasm::computeLatencyLimit(const ProgramIndex &index,
                                          llvm::ArrayRef<OpFacts> facts,
                                          unsigned loopIdx,
                                          int64_t freeVgprEntries) {
  LatencyLimit limit;
  auto [first, last] = index.getRegionRange(loopIdx, 0);
  for (unsigned idx = first; first <= last && idx <= last; ++idx) {
    if (!isVgprLoad(index, facts, idx))
      continue;
    limit.loadLatency =
        std::max<int64_t>(limit.loadLatency, facts[idx].latency);
    for (unsigned i = 0, e = index.getNumResults(idx); i < e; ++i) {
      unsigned res = index.getResultId(idx, i);
      if (index.getRegClass(res) == RegClass::VGPR)
        limit.loadVgprs += index.getRegSize(res);
    }
  }
  if (limit.loadVgprs == 0)
    return {};
  limit.maxDistance = getPrefetchDistance(index, facts, loopIdx) +
                      std::max<int64_t>(0, freeVgprEntries) / limit.loadVgprs;
  limit.cycles =
      (limit.loadLatency + 1 + limit.maxDistance) / (limit.maxDistance + 1);
  return limit;
}

//===----------------------------------------------------------------------===//
// Critical path
//===----------------------------------------------------------------------===//

CriticalPaths::CriticalPaths(const ProgramIndex &index,
                             llvm::ArrayRef<OpFacts> facts)
    : index(index), facts(facts), ready(index.getNumValues(), 0),
      chainReady(index.getNumValues(), kNoChain) {}

int64_t CriticalPaths::ofProgram() {
  std::fill(ready.begin(), ready.end(), 0);
  std::fill(chainReady.begin(), chainReady.end(), kNoChain);
  if (index.getNumOps() == 0)
    return 0;
  return walk(0, index.getNumOps() - 1);
}

int64_t CriticalPaths::ofLoop(unsigned loopIdx) {
  index.forEachUseFromOutside(loopIdx, [&](unsigned id) {
    ready[id] = 0;
    chainReady[id] = kNoChain;
  });
  Block &body = cast<LoopOp>(index.getOp(loopIdx)).getBodyBlock();
  for (unsigned i = 0; i < body.getNumArguments(); ++i) {
    ready[index.getBlockArgId(loopIdx, i)] = 0;
    chainReady[index.getBlockArgId(loopIdx, i)] = kNoChain;
  }
  auto [first, last] = index.getRegionRange(loopIdx, 0);
  return first <= last ? walk(first, last) : 0;
}

int64_t CriticalPaths::walk(unsigned begin, unsigned end) {
  constexpr unsigned kNone = ProgramIndex::kNone;
  auto copy = [&](unsigned to, unsigned from) {
    if (from == kNone)
      return;
    ready[to] = ready[from];
    chainReady[to] = chainReady[from];
  };
  int64_t longest = 0;
  for (unsigned idx = begin; idx <= end; idx = index.getSubtreeEnd(idx) + 1) {
    const OpFacts &f = facts[idx];
    llvm::ArrayRef<unsigned> operands = index.getOperandIds(idx);
    if (f.shape == OpShape::Loop) {
      auto loop = cast<LoopOp>(index.getOp(idx));
      unsigned numArgs = loop.getBodyBlock().getNumArguments();
      for (unsigned i = 0; i < numArgs && i < operands.size(); ++i)
        copy(index.getBlockArgId(idx, i), operands[i]);
      auto [first, last] = index.getRegionRange(idx, 0);
      if (first <= last)
        longest = std::max(longest, walk(first, last));
      if (ConditionOp cond = loop.getConditionOp()) {
        llvm::ArrayRef<unsigned> next =
            index.getOperandIds(*index.lookup(cond)).drop_front();
        for (unsigned i = 0; i < index.getNumResults(idx) && i < next.size();
             ++i)
          copy(index.getResultId(idx, i), next[i]);
      }
      continue;
    }

    // Start when the latest operand is ready; remember it for aliases.
    int64_t start = 0;
    unsigned latest = kNone;
    for (unsigned k = 0; k < f.numRead && k < operands.size(); ++k) {
      unsigned id = operands[k];
      if (id == kNone)
        continue;
      int64_t r = static_cast<int>(k) == f.tied && chainReady[id] != kNoChain
                      ? chainReady[id]
                      : ready[id];
      if (latest == kNone || r > start) {
        start = std::max(start, r);
        latest = id;
      }
    }

    if (f.shape == OpShape::If) {
      auto ifOp = cast<IfOp>(index.getOp(idx));
      longest = std::max(longest, start + f.latency);
      for (unsigned r = 0; r < 2; ++r) {
        auto [first, last] = index.getRegionRange(idx, r);
        if (first <= last)
          longest = std::max(longest, walk(first, last));
      }
      // Results: the later of the two yields.
      for (unsigned i = 0; i < index.getNumResults(idx); ++i) {
        unsigned res = index.getResultId(idx, i);
        ready[res] = 0;
        chainReady[res] = kNoChain;
        for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
          if (YieldOp yield = ifOp.getYield(*region)) {
            llvm::ArrayRef<unsigned> yielded =
                index.getOperandIds(*index.lookup(yield));
            if (i < yielded.size() && yielded[i] != kNone &&
                ready[yielded[i]] >= ready[res])
              copy(res, yielded[i]);
          }
      }
      continue;
    }

    if (!f.issued) {
      // Register aliases and constants: ready with their latest operand.
      for (unsigned i = 0; i < index.getNumResults(idx); ++i) {
        unsigned res = index.getResultId(idx, i);
        ready[res] = start;
        chainReady[res] = latest != kNone ? chainReady[latest] : kNoChain;
      }
      continue;
    }
    int64_t finish = start + f.latency;
    longest = std::max(longest, finish);
    for (unsigned i = 0; i < index.getNumResults(idx); ++i) {
      ready[index.getResultId(idx, i)] = finish;
      chainReady[index.getResultId(idx, i)] =
          f.unit == ExecUnit::MFMA ? start + f.chainLatency : kNoChain;
    }
  }
  return longest;
}
