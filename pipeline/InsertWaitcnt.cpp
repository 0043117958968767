//===- InsertWaitcnt.cpp - s_waitcnt insertion (ticketing) ----------------===//
//
// `waveasm-insert-waitcnt` (SPEC.md 15): every memory op takes a ticket on
// the counter(s) that track it; an op reading storage written by an
// outstanding memory op waits for threshold = last_ticket - ticket (the
// number of younger ops on that counter), only as strictly as needed. The
// walk follows upstream's Ticketing pass, with the corrections below, each
// marked "Differs from upstream" where it is implemented:
//
//  (a) stores and atomics take tickets too (VMEM stores on vmcnt, ds_write on
//      lgkmcnt), so an s_barrier after a ds_write gets lgkmcnt(0);
//  (b) s_barrier waits only for what the barrier orders between waves: LDS
//      reads/writes (lgkmcnt), VMEM stores and direct-to-LDS loads (vmcnt);
//      plain VMEM loads (prefetches into VGPRs) stay in flight;
//  (c) operands of loads and stores are checked like any other use;
//  (d) SMEM returns out of order: a wait for an s_load result, or for any
//      lgkm op issued before a still-outstanding s_load, is lgkmcnt(0); FLAT
//      counts on both counters and only a full wait is safe; LDS DMA
//      (*_lds loads) and ds_* ops that touch LDS are ordered against each
//      other across the two counters;
//  (e) loops: the body is iterated to a fixed point with the back edge
//      merged into the loop head, so a value loaded in one iteration and
//      used in the next is waited for at its use (or at the latch when the
//      emitter copies it there); s_endpgm implies a full wait;
//  (f) waits already in the input update the state (nothing is waited for
//      twice) and an inserted wait next to one merges into it;
//  (g) thresholds above the counter's encodable range are clamped to
//      max - 1 (as LLVM's SIInsertWaitcnts does) instead of becoming 0, and
//      there is no "40 ops cover LGKM latency" shortcut: latency is not
//      completion.
//
// Uses through pack/extract/insert (non-emitting) are traced to the loads
// behind them, and loop block arguments, loop results and if results inherit
// the pending loads of the values flowing into them (StorageKeys.h). After
// register allocation storage is tracked per physical register, which also
// catches a register rewritten while a load into it is still outstanding.
//
// State per counter (scores are tickets): ub = last ticket issued, lb = every
// ticket <= lb is known complete, the youngest outstanding ticket that wrote
// each storage key, and the youngest tickets of a few event classes (out of
// order, LDS read, LDS write, global write). At joins (loop head, if exit)
// states are normalised to ages (ub - score, clamped at the counter's
// maximum), so the lattice is finite and the loop fixed point terminates.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Passes.h"
#include "pipeline/StorageKeys.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <limits>

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMINSERTWAITCNT
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

enum Counter : unsigned { VM = 0, LGKM = 1 };
constexpr unsigned kNumCounters = 2;
constexpr int64_t kNoWait = std::numeric_limits<int64_t>::max();

/// The youngest outstanding event that wrote a storage key.
struct Pending {
  int64_t score = 0;
  bool outOfOrder = false; // some event behind it returns out of order
  bool operator==(const Pending &other) const {
    return score == other.score && outOfOrder == other.outOfOrder;
  }
  bool operator!=(const Pending &other) const { return !(*this == other); }
};

struct CounterState {
  int64_t ub = 0;
  int64_t lb = 0;
  llvm::DenseMap<StorageKey, Pending> pending;
  // Youngest ticket per event class (0: none).
  int64_t lastOutOfOrder = 0; // SMEM, FLAT
  int64_t lastLDSRead = 0;
  int64_t lastLDSWrite = 0;
  int64_t lastGlobalWrite = 0;
  // Set at a label (a join with unknown predecessors): every wait on this
  // counter is a full one until one has happened.
  bool forceZero = false;
  size_t pruneAt = 256; // not part of the state's meaning

  bool operator==(const CounterState &other) const {
    return ub == other.ub && lb == other.lb && pending == other.pending &&
           lastOutOfOrder == other.lastOutOfOrder &&
           lastLDSRead == other.lastLDSRead &&
           lastLDSWrite == other.lastLDSWrite &&
           lastGlobalWrite == other.lastGlobalWrite &&
           forceZero == other.forceZero;
  }
};

struct State {
  CounterState counters[kNumCounters];
  bool operator==(const State &other) const {
    return counters[VM] == other.counters[VM] &&
           counters[LGKM] == other.counters[LGKM];
  }
};

/// Needed threshold per counter (kNoWait: none).
struct Needs {
  int64_t count[kNumCounters] = {kNoWait, kNoWait};
  void add(unsigned c, int64_t n) { count[c] = std::min(count[c], n); }
  bool any() const { return count[VM] != kNoWait || count[LGKM] != kNoWait; }
};

/// What an op does to the counters.
struct MemEvent {
  bool counters[kNumCounters] = {false, false};
  bool outOfOrder = false;
  bool ldsRead = false, ldsWrite = false, globalWrite = false;
  bool isLoad = false; // writes registers (or LDS, for DMA) from memory
};

std::optional<MemEvent> classify(Operation *op) {
  auto info = dyn_cast<InstInfoOpInterface>(op);
  if (!info)
    return std::nullopt;
  WaitCounter counter = info.getWaitCounter();
  if (counter == WaitCounter::None)
    return std::nullopt;
  MemEvent event;
  event.counters[VM] =
      counter == WaitCounter::VMCnt || counter == WaitCounter::VMAndLGKM;
  event.counters[LGKM] =
      counter == WaitCounter::LGKMCnt || counter == WaitCounter::VMAndLGKM;
  // Differs from upstream (d): SMEM and FLAT complete out of order.
  event.outOfOrder = info.getExecUnit() == ExecUnit::SMEM ||
                     counter == WaitCounter::VMAndLGKM;
  unsigned reads = info.getMemReads();
  unsigned writes = info.getMemWrites();
  event.ldsRead = reads & MemLDS;
  event.ldsWrite = writes & MemLDS;
  event.globalWrite = writes & MemGlobal;
  event.isLoad = reads != 0 && (op->getNumResults() > 0 ||
                                ((writes & MemLDS) && !(reads & MemLDS)));
  return event;
}

bool isWaitOp(Operation *op) {
  return isa<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT>(op);
}

bool isBranch(Operation *op) {
  return isa<S_BRANCH, S_CBRANCH_SCC0, S_CBRANCH_SCC1, S_CBRANCH_VCCZ,
             S_CBRANCH_VCCNZ, S_CBRANCH_EXECZ, S_CBRANCH_EXECNZ>(op);
}

class Walker {
public:
  Walker(Operation *program, const TargetInfo &target, bool ticketed,
         bool insertAfterLoads, bool orderLDSAcrossCounters)
      : order(program), copies(order), ticketed(ticketed),
        insertAfterLoads(insertAfterLoads),
        orderLDSAcrossCounters(orderLDSAcrossCounters) {
    caps[VM] = target.maxVmcnt;
    caps[LGKM] = target.maxLgkmcnt;
  }

  void walkBlock(Block &block, State &state, bool materialize);

private:
  void walkOp(Operation *op, State &state, bool materialize);
  void walkLoop(LoopOp loop, State &state, bool materialize);
  void walkIf(IfOp ifOp, State &state, bool materialize);

  // --- needs ---------------------------------------------------------------
  std::optional<int64_t> needFor(const CounterState &c, int64_t score,
                                 bool outOfOrder, unsigned counter) const {
    if (score <= c.lb)
      return std::nullopt;
    // Differs from upstream (d): an out-of-order event, or any event older
    // than an outstanding out-of-order one, is only safe with a full wait.
    if (!ticketed || outOfOrder || c.forceZero || c.lastOutOfOrder >= score)
      return 0;
    // Differs from upstream (g): clamp instead of falling back to 0.
    return std::min(c.ub - score, caps[counter] - 1);
  }
  void addKeyNeeds(const State &state, StorageKey key, Needs &needs) const {
    for (unsigned c = 0; c < kNumCounters; ++c) {
      const CounterState &cs = state.counters[c];
      auto it = cs.pending.find(key);
      if (it == cs.pending.end())
        continue;
      if (std::optional<int64_t> n =
              needFor(cs, it->second.score, it->second.outOfOrder, c))
        needs.add(c, *n);
    }
  }
  void addUseNeeds(const State &state, Value value, Needs &needs) const {
    SmallVector<StorageKey, 4> keys;
    getStorageKeys(value, keys);
    for (StorageKey key : keys)
      addKeyNeeds(state, key, needs);
  }
  /// Overwriting `keys` while a load into them is outstanding (WAW): a later
  /// load on the same in-order counter lands after it and needs no wait.
  void addWriteNeeds(const State &state, ArrayRef<StorageKey> keys,
                     const MemEvent *self, Needs &needs) const {
    for (StorageKey key : keys) {
      if (!isRegKey(key))
        continue; // SSA values are written once
      for (unsigned c = 0; c < kNumCounters; ++c) {
        const CounterState &cs = state.counters[c];
        auto it = cs.pending.find(key);
        if (it == cs.pending.end())
          continue;
        if (self && self->counters[c] && !self->outOfOrder &&
            !it->second.outOfOrder && !cs.forceZero &&
            cs.lastOutOfOrder < it->second.score)
          continue;
        if (std::optional<int64_t> n =
                needFor(cs, it->second.score, it->second.outOfOrder, c))
          needs.add(c, *n);
      }
    }
  }
  void addMarkNeeds(const State &state, unsigned c, int64_t score,
                    Needs &needs) const {
    if (score == 0)
      return;
    if (std::optional<int64_t> n =
            needFor(state.counters[c], score, /*outOfOrder=*/false, c))
      needs.add(c, *n);
  }

  // --- state updates -------------------------------------------------------
  static void applyWait(State &state, unsigned c, int64_t n) {
    CounterState &cs = state.counters[c];
    cs.lb = std::max(cs.lb, cs.ub - n);
    if (n == 0)
      cs.forceZero = false;
  }
  static void eraseKeys(State &state, ArrayRef<StorageKey> keys) {
    for (CounterState &cs : state.counters)
      for (StorageKey key : keys)
        cs.pending.erase(key);
  }
  /// The youngest pending entry over `from`, per counter.
  static void mergedEntry(const State &state, ArrayRef<StorageKey> from,
                          std::optional<Pending> out[kNumCounters]) {
    for (unsigned c = 0; c < kNumCounters; ++c) {
      const CounterState &cs = state.counters[c];
      for (StorageKey key : from) {
        auto it = cs.pending.find(key);
        if (it == cs.pending.end() || it->second.score <= cs.lb)
          continue;
        if (!out[c]) {
          out[c] = it->second;
        } else {
          out[c]->score = std::max(out[c]->score, it->second.score);
          out[c]->outOfOrder |= it->second.outOfOrder;
        }
      }
    }
  }
  /// `to` now holds what `from` holds (a value passed in place).
  static void transfer(State &state, Value from, Value to) {
    SmallVector<StorageKey, 4> fromKeys, toKeys;
    getStorageKeys(from, fromKeys);
    getStorageKeys(to, toKeys);
    if (fromKeys == toKeys)
      return;
    std::optional<Pending> entry[kNumCounters];
    mergedEntry(state, fromKeys, entry);
    eraseKeys(state, toKeys);
    for (unsigned c = 0; c < kNumCounters; ++c)
      if (entry[c])
        for (StorageKey key : toKeys)
          state.counters[c].pending[key] = *entry[c];
  }
  static void clearValue(State &state, Value value) {
    SmallVector<StorageKey, 4> keys;
    getStorageKeys(value, keys);
    eraseKeys(state, keys);
  }

  void canonicalize(State &state) const;
  void join(State &into, const State &other) const;

  /// Applies `needs` to the state and, when materializing, puts the wait
  /// before `op` (or after it), merged into an adjacent wait op.
  void emitWait(Operation *op, const Needs &needs, State &state,
                bool materialize, bool after = false);

  ProgramOrder order;
  CopyModel copies;
  bool ticketed;
  bool insertAfterLoads;
  bool orderLDSAcrossCounters;
  int64_t caps[kNumCounters];
  llvm::DenseSet<Operation *> insertedOps;
  llvm::DenseSet<Operation *> drainedLoops;
};

void Walker::canonicalize(State &state) const {
  for (unsigned c = 0; c < kNumCounters; ++c) {
    CounterState &cs = state.counters[c];
    int64_t top = caps[c] + 1;
    auto rescore = [&](int64_t score) -> int64_t {
      if (score <= cs.lb)
        return 0;
      return top - std::min(cs.ub - score, caps[c]);
    };
    llvm::DenseMap<StorageKey, Pending> pending;
    for (auto &[key, entry] : cs.pending)
      if (int64_t score = rescore(entry.score))
        pending[key] = Pending{score, entry.outOfOrder};
    cs.pending = std::move(pending);
    cs.lastOutOfOrder = rescore(cs.lastOutOfOrder);
    cs.lastLDSRead = rescore(cs.lastLDSRead);
    cs.lastLDSWrite = rescore(cs.lastLDSWrite);
    cs.lastGlobalWrite = rescore(cs.lastGlobalWrite);
    cs.lb = top - std::min(cs.ub - cs.lb, top);
    cs.ub = top;
  }
}

// Both states canonical: the result is outstanding where either is, with the
// younger ticket (the smaller safe threshold).
void Walker::join(State &into, const State &other) const {
  for (unsigned c = 0; c < kNumCounters; ++c) {
    CounterState &a = into.counters[c];
    const CounterState &b = other.counters[c];
    a.lb = std::min(a.lb, b.lb);
    for (auto &[key, entry] : b.pending) {
      auto [it, inserted] = a.pending.try_emplace(key, entry);
      if (!inserted) {
        it->second.score = std::max(it->second.score, entry.score);
        it->second.outOfOrder |= entry.outOfOrder;
      }
    }
    a.lastOutOfOrder = std::max(a.lastOutOfOrder, b.lastOutOfOrder);
    a.lastLDSRead = std::max(a.lastLDSRead, b.lastLDSRead);
    a.lastLDSWrite = std::max(a.lastLDSWrite, b.lastLDSWrite);
    a.lastGlobalWrite = std::max(a.lastGlobalWrite, b.lastGlobalWrite);
    a.forceZero |= b.forceZero;
  }
}

void Walker::emitWait(Operation *op, const Needs &needs, State &state,
                      bool materialize, bool after) {
  if (!needs.any())
    return;
  for (unsigned c = 0; c < kNumCounters; ++c)
    if (needs.count[c] != kNoWait)
      applyWait(state, c, needs.count[c]);
  if (!materialize)
    return;

  OpBuilder builder(op->getContext());
  Location loc = op->getLoc();
  int64_t vm = needs.count[VM], lgkm = needs.count[LGKM];
  std::optional<int64_t> exp;
  bool wasInserted = true;
  // Merge into a wait op right before `op` (SPEC.md 15: adjacent waits
  // merge, per-counter minimum). The merged op keeps the status of the op it
  // replaces: tightening a wait of the input inserts nothing.
  Operation *prev = after ? nullptr : op->getPrevNode();
  if (prev && isWaitOp(prev)) {
    wasInserted = insertedOps.contains(prev);
    if (auto wait = dyn_cast<S_WAITCNT>(prev)) {
      if (!wait.getVmcnt() && !wait.getLgkmcnt() && !wait.getExpcnt())
        return; // already a full wait
      if (wait.getVmcnt())
        vm = std::min<int64_t>(vm, *wait.getVmcnt());
      if (wait.getLgkmcnt())
        lgkm = std::min<int64_t>(lgkm, *wait.getLgkmcnt());
      if (wait.getExpcnt())
        exp = *wait.getExpcnt();
    } else if (auto wait = dyn_cast<S_WAITCNT_VMCNT>(prev)) {
      vm = std::min<int64_t>(vm, wait.getCount());
    } else if (auto wait = dyn_cast<S_WAITCNT_LGKMCNT>(prev)) {
      lgkm = std::min<int64_t>(lgkm, wait.getCount());
    }
    insertedOps.erase(prev);
    builder.setInsertionPoint(prev);
  } else {
    prev = nullptr;
    if (after)
      builder.setInsertionPointAfter(op);
    else
      builder.setInsertionPoint(op);
  }

  Operation *wait;
  // Upstream's forms: one counter -> s_waitcnt_vmcnt / s_waitcnt_lgkmcnt,
  // both (or a merge keeping expcnt) -> s_waitcnt.
  if (vm != kNoWait && lgkm == kNoWait && !exp) {
    wait = S_WAITCNT_VMCNT::create(builder, loc, static_cast<uint32_t>(vm));
  } else if (lgkm != kNoWait && vm == kNoWait && !exp) {
    wait =
        S_WAITCNT_LGKMCNT::create(builder, loc, static_cast<uint32_t>(lgkm));
  } else {
    auto attr = [&](int64_t n) -> IntegerAttr {
      if (n == kNoWait)
        return {};
      return builder.getI32IntegerAttr(static_cast<int32_t>(n));
    };
    wait = S_WAITCNT::create(builder, loc, attr(vm), attr(lgkm),
                             exp ? attr(*exp) : IntegerAttr());
  }
  if (prev) {
    if (Location prevLoc = prev->getLoc(); prevLoc != loc)
      wait->setLoc(prevLoc);
    prev->erase();
  }
  if (wasInserted)
    insertedOps.insert(wait);
}

void Walker::walkBlock(Block &block, State &state, bool materialize) {
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  for (Operation *op : ops) {
    walkOp(op, state, materialize);
    // Entries of completed tickets never matter again: drop them whenever
    // the map has doubled, so the state follows what is in flight.
    for (CounterState &cs : state.counters) {
      if (cs.pending.size() < cs.pruneAt)
        continue;
      SmallVector<StorageKey> done;
      for (auto &[key, entry] : cs.pending)
        if (entry.score <= cs.lb)
          done.push_back(key);
      for (StorageKey key : done)
        cs.pending.erase(key);
      cs.pruneAt = std::max<size_t>(256, 2 * cs.pending.size());
    }
  }
}

void Walker::walkOp(Operation *op, State &state, bool materialize) {
  // Waits of the input (and ours, when a walk sees them again).
  if (auto wait = dyn_cast<S_WAITCNT>(op)) {
    bool full = !wait.getVmcnt() && !wait.getLgkmcnt() && !wait.getExpcnt();
    if (full || wait.getVmcnt())
      applyWait(state, VM, full ? 0 : *wait.getVmcnt());
    if (full || wait.getLgkmcnt())
      applyWait(state, LGKM, full ? 0 : *wait.getLgkmcnt());
    return;
  }
  if (auto wait = dyn_cast<S_WAITCNT_VMCNT>(op))
    return applyWait(state, VM, wait.getCount());
  if (auto wait = dyn_cast<S_WAITCNT_LGKMCNT>(op))
    return applyWait(state, LGKM, wait.getCount());
  if (isa<S_ENDPGM>(op)) {
    // s_endpgm implies a full wait (SCHEDULING-FACTS.md): nothing before it.
    applyWait(state, VM, 0);
    applyWait(state, LGKM, 0);
    return;
  }
  if (auto loop = dyn_cast<LoopOp>(op))
    return walkLoop(loop, state, materialize);
  if (auto ifOp = dyn_cast<IfOp>(op))
    return walkIf(ifOp, state, materialize);
  if (isa<LabelOp>(op)) {
    // A label joins paths the IR does not show (branches have no CFG edges).
    for (CounterState &cs : state.counters)
      cs.forceZero = true;
    return;
  }
  if (isa<RawOp, CommentOp, DCEProtectOp, ConstantOp, PrecoloredVRegOp,
          PrecoloredSRegOp, PrecoloredARegOp>(op) ||
      isBranch(op))
    return;
  if (isa<PackOp, ExtractOp, InsertOp>(op)) {
    // Non-emitting: the result is the operands' storage.
    SmallVector<StorageKey, 8> from;
    for (Value operand : op->getOperands())
      getStorageKeys(operand, from);
    std::optional<Pending> entry[kNumCounters];
    mergedEntry(state, from, entry);
    for (Value result : op->getResults()) {
      SmallVector<StorageKey, 4> keys;
      getStorageKeys(result, keys);
      if (llvm::all_of(keys, isRegKey))
        continue; // allocated: the registers already say it
      eraseKeys(state, keys);
      for (unsigned c = 0; c < kNumCounters; ++c)
        if (entry[c])
          for (StorageKey key : keys)
            state.counters[c].pending[key] = *entry[c];
    }
    return;
  }

  Needs needs;
  if (auto condition = dyn_cast<ConditionOp>(op)) {
    auto loop = cast<LoopOp>(op->getParentOp());
    addUseNeeds(state, condition.getCondition(), needs);
    SmallVector<StorageKey, 8> written;
    for (auto [i, value] : llvm::enumerate(condition.getIterArgs())) {
      if (!copies.isLatchCopy(loop, i))
        continue; // passed in place: read where the block argument is used
      addUseNeeds(state, value, needs);
      getStorageKeys(loop.getBodyBlock().getArgument(i), written);
    }
    llvm::erase_if(written, [](StorageKey k) { return !isRegKey(k); });
    addWriteNeeds(state, written, nullptr, needs);
    emitWait(op, needs, state, materialize);
    eraseKeys(state, written);
    return;
  }
  if (auto yield = dyn_cast<YieldOp>(op)) {
    auto ifOp = dyn_cast<IfOp>(op->getParentOp());
    if (!ifOp)
      return;
    SmallVector<StorageKey, 8> written;
    for (auto [i, value] : llvm::enumerate(yield.getValues())) {
      if (!copies.isYieldCopy(yield, i))
        continue;
      addUseNeeds(state, value, needs);
      getStorageKeys(ifOp.getResult(i), written);
    }
    llvm::erase_if(written, [](StorageKey k) { return !isRegKey(k); });
    addWriteNeeds(state, written, nullptr, needs);
    emitWait(op, needs, state, materialize);
    eraseKeys(state, written);
    return;
  }

  std::optional<MemEvent> event = classify(op);
  // Differs from upstream (c): every operand is a use, also the address and
  // data operands of loads and stores.
  for (Value operand : op->getOperands())
    addUseNeeds(state, operand, needs);

  SmallVector<StorageKey, 8> written;
  for (Value result : op->getResults())
    getStorageKeys(result, written);
  if (isa<V_ACCVGPR_WRITE_B32>(op))
    getStorageKeys(op->getOperand(1), written);
  addWriteNeeds(state, written, event ? &*event : nullptr, needs);

  if (event && orderLDSAcrossCounters) {
    // Differs from upstream (d): LDS written by DMA (*_lds loads, vmcnt) and
    // LDS accessed by ds_* ops (lgkmcnt) are ordered only by waiting on the
    // other counter. Applied when the workgroup is a single wave (or its size
    // is unknown): there no barrier publishes the LDS data. In a multi-wave
    // workgroup, DMA'd LDS is shared data that an s_barrier publishes -- and
    // the barrier waits for the DMA (b) -- so ds_* ops between a DMA and the
    // next barrier are taken to touch other LDS (the double-buffer pattern);
    // waiting there would serialise the prefetch this pattern exists for.
    for (unsigned c = 0; c < kNumCounters; ++c) {
      if (event->counters[c])
        continue; // same counter: issued and executed in order
      const CounterState &cs = state.counters[c];
      if (event->ldsRead || event->ldsWrite)
        addMarkNeeds(state, c, cs.lastLDSWrite, needs);
      if (event->ldsWrite)
        addMarkNeeds(state, c, cs.lastLDSRead, needs);
    }
  }

  if (isa<S_BARRIER>(op)) {
    // Differs from upstream (b): drain only what the barrier orders between
    // waves. LDS reads and writes (lgkmcnt) -- a ds_write before the barrier
    // must land, a ds_read must be done before another wave overwrites the
    // buffer; VMEM stores and *_lds loads (vmcnt), which write memory other
    // waves read. Outstanding VMEM loads into VGPRs (prefetches) are private
    // to the wave and keep flying; upstream drains vmcnt whenever any VMEM
    // load was issued. Since vmcnt completes in order, waiting for the
    // youngest store/DMA ticket may still leave younger loads in flight.
    for (unsigned c = 0; c < kNumCounters; ++c) {
      const CounterState &cs = state.counters[c];
      if (cs.forceZero && cs.ub > cs.lb) {
        needs.add(c, 0);
        continue;
      }
      addMarkNeeds(state, c, cs.lastLDSRead, needs);
      addMarkNeeds(state, c, cs.lastLDSWrite, needs);
      addMarkNeeds(state, c, cs.lastGlobalWrite, needs);
    }
  }

  emitWait(op, needs, state, materialize);

  if (!event) {
    eraseKeys(state, written);
    return;
  }

  // Issue: the op takes the next ticket on each of its counters. Differs
  // from upstream (a): stores and atomics take tickets too.
  eraseKeys(state, written);
  Needs afterNeeds;
  for (unsigned c = 0; c < kNumCounters; ++c) {
    if (!event->counters[c])
      continue;
    CounterState &cs = state.counters[c];
    int64_t score = ++cs.ub;
    if (event->outOfOrder)
      cs.lastOutOfOrder = score;
    if (event->ldsRead)
      cs.lastLDSRead = score;
    if (event->ldsWrite)
      cs.lastLDSWrite = score;
    if (event->globalWrite)
      cs.lastGlobalWrite = score;
    for (StorageKey key : written)
      cs.pending[key] = Pending{score, event->outOfOrder};
    if (insertAfterLoads && event->isLoad)
      afterNeeds.add(c, 0);
  }
  emitWait(op, afterNeeds, state, materialize, /*after=*/true);
}

void Walker::walkLoop(LoopOp loop, State &state, bool materialize) {
  Block &body = loop.getBodyBlock();
  // Inits the emitter copies into the block argument are read at the loop.
  Needs needs;
  SmallVector<StorageKey, 8> written;
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
    if (!copies.isInitCopy(loop, i))
      continue;
    addUseNeeds(state, init, needs);
    getStorageKeys(body.getArgument(i), written);
  }
  llvm::erase_if(written, [](StorageKey k) { return !isRegKey(k); });
  addWriteNeeds(state, written, nullptr, needs);
  emitWait(loop, needs, state, materialize);
  eraseKeys(state, written);

  State entry = state;
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
    if (copies.isInitCopy(loop, i))
      clearValue(entry, body.getArgument(i));
    else
      transfer(entry, init, body.getArgument(i));
  }
  canonicalize(entry);

  ConditionOp condition = loop.getConditionOp();
  auto backEdge = [&](State &latch) {
    if (!condition)
      return;
    for (auto [i, value] : llvm::enumerate(condition.getIterArgs())) {
      if (copies.isLatchCopy(loop, i))
        clearValue(latch, body.getArgument(i));
      else
        transfer(latch, value, body.getArgument(i));
    }
  };
  auto drainAtHead = [&](State &head, bool mat) {
    if (!drainedLoops.contains(loop))
      return;
    Needs full;
    full.add(VM, 0);
    full.add(LGKM, 0);
    emitWait(&body.front(), full, head, mat);
  };

  // Differs from upstream (e): iterate the body until the state at the loop
  // head (entry joined with the back edge) is stable. The join only grows,
  // over a finite lattice; the bound is a safety net, after which the loop
  // waits for everything at its head (which converges at once).
  constexpr unsigned kMaxIterations = 64;
  State head = entry;
  bool converged = false;
  for (unsigned attempt = 0; attempt < 2 && !converged; ++attempt) {
    head = entry;
    for (unsigned iter = 0; iter < kMaxIterations; ++iter) {
      State latch = head;
      drainAtHead(latch, /*mat=*/false);
      walkBlock(body, latch, /*materialize=*/false);
      backEdge(latch);
      canonicalize(latch);
      State next = head;
      join(next, latch);
      // Widening: a loop that leaves ops in flight every iteration (stores,
      // unused loads) lowers lb by one per round; after a few rounds assume
      // the most outstanding ops. Harmless: the map holds only entries that
      // are outstanding on some path anyway.
      if (iter >= 3)
        for (unsigned c = 0; c < kNumCounters; ++c)
          if (next.counters[c].lb < head.counters[c].lb)
            next.counters[c].lb = 0;
      if (next == head) {
        converged = true;
        break;
      }
      head = std::move(next);
    }
    if (!converged)
      drainedLoops.insert(loop);
  }

  // Final walk from the fixed point; the exit sees the latch state.
  State latch = head;
  drainAtHead(latch, materialize);
  walkBlock(body, latch, materialize);
  backEdge(latch);
  for (auto [i, result] : llvm::enumerate(loop.getResults()))
    transfer(latch, body.getArgument(i), result);
  state = std::move(latch);
}

void Walker::walkIf(IfOp ifOp, State &state, bool materialize) {
  Needs needs;
  addUseNeeds(state, ifOp.getCondition(), needs);
  emitWait(ifOp, needs, state, materialize);

  auto walkRegion = [&](Region &region) {
    State branch = state;
    if (!region.empty()) {
      walkBlock(region.front(), branch, materialize);
      if (YieldOp yield = ifOp.getYield(region)) {
        for (auto [i, value] : llvm::enumerate(yield.getValues())) {
          if (i >= ifOp.getNumResults())
            break;
          if (copies.isYieldCopy(yield, i))
            clearValue(branch, ifOp.getResult(i));
          else
            transfer(branch, value, ifOp.getResult(i));
        }
      }
    }
    canonicalize(branch);
    return branch;
  };
  State thenState = walkRegion(ifOp.getThenRegion());
  State elseState = walkRegion(ifOp.getElseRegion());
  join(thenState, elseState);
  state = std::move(thenState);
}

struct InsertWaitcntPass
    : public waveasm::impl::WaveASMInsertWaitcntBase<InsertWaitcntPass> {
  using WaveASMInsertWaitcntBase::WaveASMInsertWaitcntBase;
  // No pass statistics: Debian's LLVM compiles them out, and
  // compileAndMeasure counts inserted waits by comparing op counts.

  void runOnOperation() override {
    ProgramOp program = getOperation();
    const TargetInfo &target = getTargetInfo(program.getTargetKind());
    // A single-wave workgroup has no barrier protocol for LDS (see (d)).
    bool singleWave = true;
    if (std::optional<ArrayAttr> size = program.getWorkgroupSize()) {
      int64_t threads = 1;
      for (Attribute dim : *size)
        if (auto value = dyn_cast<IntegerAttr>(dim))
          threads *= value.getInt();
      singleWave = threads <= target.defaultWaveSize;
    }
    Walker walker(program, target, ticketedWaitcnt, insertAfterLoads,
                  singleWave);
    State state;
    walker.walkBlock(program.getBodyBlock(), state, /*materialize=*/true);
  }
};

} // namespace
