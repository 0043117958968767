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
//  (b) s_barrier waits only for what the barrier orders between waves (in a
//      workgroup declared single-wave, ir/Workgroup.h, nothing): LDS
//      reads/writes (lgkmcnt), VMEM stores and the direct-to-LDS loads it
//      publishes (vmcnt); plain VMEM loads (prefetches into VGPRs) and, in a
//      loop that rotates its LDS buffers by hand, direct-to-LDS loads into
//      buffers nothing reads before the next barrier, and LDS reads of
//      buffers nothing writes before it, stay in flight; outside loop
//      bodies (a pipelined loop's fill and drain) likewise by byte ranges
//      (LdsAccessBytes), up to a region, where the barrier waits;
//  (c) operands of loads and stores are checked like any other use;
//  (d) SMEM returns out of order: a wait for an s_load result, or for any
//      lgkm op issued before a still-outstanding s_load, is lgkmcnt(0), and
//      while one is outstanding a counted wait completes nothing (the
//      s_loads may land early and leave the n to older ops); FLAT
//      counts on both counters and only a full wait is safe; LDS DMA
//      (*_lds loads) and ds_* ops that touch LDS are ordered against each
//      other across the two counters;
//  (e) loops: the body is iterated to a fixed point with the back edge
//      merged into the loop head, so a value loaded in one iteration and
//      used in the next is waited for at its use (or at the latch when the
//      emitter copies it there); s_endpgm implies a full wait;
//  (f) waits already in the input update the state (nothing is waited for
//      twice); finally every run of adjacent waits, inserted or not, merges
//      into one (upstream merges pairs only);
//  (g) thresholds above the counter's encodable range are clamped to
//      max - 1 (as LLVM's SIInsertWaitcnts does) instead of becoming 0, and
//      there is no "40 ops cover LGKM latency" shortcut: latency is not
//      completion;
//  (h) a loop marked `waveasm.counted_waits` (a software-pipelined steady
//      state, CountedWaits.h) is walked ticketed whatever the mode, so its
//      loads of later iterations stay in flight across the back edge (a
//      program holding one carries it too and is walked ticketed whole);
//      in its body a wait folds into the wait before it where the earlier
//      wait, made as strict as both, costs at most the slot saved
//      (FoldWaits.h).
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

#include "pipeline/CountedWaits.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/FoldWaits.h"
#include "pipeline/Passes.h"
#include "pipeline/StorageKeys.h"

#include "analysis/LdsBuffers.h"
#include "analysis/LdsRotation.h"
#include "analysis/TargetModel.h"
#include "ir/InstFacts.h"
#include "ir/Workgroup.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <tuple>

#define DEBUG_TYPE "waveasm-insert-waitcnt"

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

/// An outstanding direct-to-LDS load (vmcnt): the op (pre-order position,
/// kUnknownDma when the barrier rule cannot reason about it) and the loop
/// back edges crossed since it issued, which say how many iterations
/// before the current one it belongs to.
constexpr uint32_t kUnknownDma = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kMaxDmaEdges = 8;
struct DmaTicket {
  uint32_t op = kUnknownDma;
  uint32_t edges = 0;
  int64_t score = 0;
  bool sameKey(const DmaTicket &other) const {
    return op == other.op && edges == other.edges;
  }
  bool operator<(const DmaTicket &other) const {
    return op < other.op || (op == other.op && edges < other.edges);
  }
  bool operator==(const DmaTicket &other) const {
    return sameKey(other) && score == other.score;
  }
};

/// Adds `ticket` to `dmas` (sorted by key), keeping the younger score of a
/// key: the same op at the same distance is published by the same
/// barriers, and vmcnt completes in order.
void addDma(SmallVectorImpl<DmaTicket> &dmas, const DmaTicket &ticket) {
  auto it = llvm::lower_bound(dmas, ticket);
  if (it != dmas.end() && it->sameKey(ticket))
    it->score = std::max(it->score, ticket.score);
  else
    dmas.insert(it, ticket);
}

struct CounterState {
  explicit CounterState(const RegisterSlots &slots) : pending(slots) {}
  int64_t ub = 0;
  int64_t lb = 0;
  StorageMap<Pending> pending;
  // Youngest ticket per event class (0: none).
  int64_t lastOutOfOrder = 0; // SMEM, FLAT
  int64_t lastLDSRead = 0;
  int64_t lastLDSWrite = 0;
  int64_t lastGlobalWrite = 0;
  // Outstanding direct-to-LDS loads (vmcnt), sorted by key.
  SmallVector<DmaTicket, 4> dmas;
  // Outstanding LDS reads (lgkmcnt), sorted by key: the same tickets, for
  // the barrier rule's other half (which reads a barrier must wait for).
  SmallVector<DmaTicket, 4> ldsReads;
  // Set at a label (a join with unknown predecessors): every wait on this
  // counter is a full one until one has happened.
  bool forceZero = false;
  size_t pruneAt = 256; // not part of the state's meaning

  bool operator==(const CounterState &other) const {
    return ub == other.ub && lb == other.lb && pending == other.pending &&
           lastOutOfOrder == other.lastOutOfOrder &&
           lastLDSRead == other.lastLDSRead &&
           lastLDSWrite == other.lastLDSWrite &&
           lastGlobalWrite == other.lastGlobalWrite && dmas == other.dmas &&
           ldsReads == other.ldsReads && forceZero == other.forceZero;
  }
};

struct State {
  explicit State(const RegisterSlots &slots)
      : counters{CounterState(slots), CounterState(slots)} {}
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

std::optional<MemEvent> classify(Operation *op, const InstFacts &info) {
  if (!info.hasInfo)
    return std::nullopt;
  WaitCounter counter = info.waitCounter;
  if (counter == WaitCounter::None)
    return std::nullopt;
  MemEvent event;
  event.counters[VM] =
      counter == WaitCounter::VMCnt || counter == WaitCounter::VMAndLGKM;
  event.counters[LGKM] =
      counter == WaitCounter::LGKMCnt || counter == WaitCounter::VMAndLGKM;
  // Differs from upstream (d): SMEM and FLAT complete out of order.
  event.outOfOrder =
      info.unit == ExecUnit::SMEM || counter == WaitCounter::VMAndLGKM;
  unsigned reads = info.memReads;
  unsigned writes = info.memWrites;
  event.ldsRead = reads & MemLDS;
  event.ldsWrite = writes & MemLDS;
  event.globalWrite = writes & MemGlobal;
  event.isLoad = reads != 0 && (op->getNumResults() > 0 ||
                                ((writes & MemLDS) && !(reads & MemLDS)));
  return event;
}

bool isWaitOp(Operation *op) {
  return isOpType<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT>(
      op->getName().getTypeID());
}

bool isBranch(TypeID id) {
  return isOpType<S_BRANCH, S_CBRANCH_SCC0, S_CBRANCH_SCC1, S_CBRANCH_VCCZ,
                  S_CBRANCH_VCCNZ, S_CBRANCH_EXECZ, S_CBRANCH_EXECNZ>(id);
}

/// Makes the wait ops of one run of the pass. The generated builders look
/// the op's name up by its string and unique a new count attribute for
/// every wait: about 2K instructions a wait, a tenth of this pass on a
/// 300-op loop. The names are resolved once here and the attributes kept.
class WaitFactory {
public:
  explicit WaitFactory(MLIRContext *ctx)
      : i32(IntegerType::get(ctx, 32)),
        vmName(S_WAITCNT_VMCNT::getOperationName(), ctx),
        lgkmName(S_WAITCNT_LGKMCNT::getOperationName(), ctx),
        bothName(S_WAITCNT::getOperationName(), ctx) {}

  /// The count attribute of a wait for `n` (null for kNoWait).
  IntegerAttr count(int64_t n) {
    if (n == kNoWait)
      return {};
    IntegerAttr &attr = counts[n];
    if (!attr)
      attr = IntegerAttr::get(i32, n);
    return attr;
  }

  /// A wait op for the thresholds (kNoWait: that counter is not waited
  /// for), in upstream's forms: one counter -> s_waitcnt_vmcnt /
  /// s_waitcnt_lgkmcnt, both -> s_waitcnt.
  Operation *create(OpBuilder &builder, Location loc, int64_t vm,
                    int64_t lgkm) {
    if (lgkm == kNoWait) {
      OperationState state(loc, vmName);
      S_WAITCNT_VMCNT::build(builder, state, count(vm));
      return builder.create(state);
    }
    if (vm == kNoWait) {
      OperationState state(loc, lgkmName);
      S_WAITCNT_LGKMCNT::build(builder, state, count(lgkm));
      return builder.create(state);
    }
    OperationState state(loc, bothName);
    S_WAITCNT::build(builder, state, count(vm), count(lgkm), IntegerAttr());
    return builder.create(state);
  }

private:
  Type i32;
  OperationName vmName, lgkmName, bothName;
  llvm::SmallDenseMap<int64_t, IntegerAttr, 8> counts;
};

/// The thresholds of a run of wait ops, per counter the minimum (kNoWait:
/// the counter is not waited for).
struct WaitCounts {
  int64_t vm = kNoWait, lgkm = kNoWait, exp = kNoWait;
  bool full = false; // an s_waitcnt without fields: everything

  void add(Operation *op) {
    if (auto wait = dyn_cast<S_WAITCNT>(op)) {
      if (!wait.getVmcnt() && !wait.getLgkmcnt() && !wait.getExpcnt())
        full = true;
      if (wait.getVmcnt())
        vm = std::min<int64_t>(vm, *wait.getVmcnt());
      if (wait.getLgkmcnt())
        lgkm = std::min<int64_t>(lgkm, *wait.getLgkmcnt());
      if (wait.getExpcnt())
        exp = std::min<int64_t>(exp, *wait.getExpcnt());
    } else if (auto wait = dyn_cast<S_WAITCNT_VMCNT>(op)) {
      vm = std::min<int64_t>(vm, wait.getCount());
    } else if (auto wait = dyn_cast<S_WAITCNT_LGKMCNT>(op)) {
      lgkm = std::min<int64_t>(lgkm, wait.getCount());
    }
  }
};

/// Replaces a run of adjacent wait ops by one with the per-counter minimum
/// (SPEC.md 15). A member that can express the result is kept and updated
/// (an s_waitcnt, or the run's common single-counter form), so the wait
/// keeps its place in the input's source map; otherwise a new s_waitcnt
/// takes the first member's place and location.
void mergeWaitRun(ArrayRef<Operation *> run, WaitFactory &waits) {
  WaitCounts counts;
  for (Operation *op : run)
    counts.add(op);
  Operation *kept = nullptr;
  if (auto it =
          llvm::find_if(run, [](Operation *op) { return isa<S_WAITCNT>(op); });
      it != run.end()) {
    kept = *it;
    auto wait = cast<S_WAITCNT>(kept);
    auto attr = [&](int64_t n) {
      return waits.count(counts.full ? kNoWait : n);
    };
    wait.setVmcntAttr(attr(counts.vm));
    wait.setLgkmcntAttr(attr(counts.lgkm));
    wait.setExpcntAttr(attr(counts.exp));
  } else if (counts.lgkm == kNoWait) { // all s_waitcnt_vmcnt
    kept = run.front();
    cast<S_WAITCNT_VMCNT>(kept).setCount(static_cast<uint32_t>(counts.vm));
  } else if (counts.vm == kNoWait) { // all s_waitcnt_lgkmcnt
    kept = run.front();
    cast<S_WAITCNT_LGKMCNT>(kept).setCount(static_cast<uint32_t>(counts.lgkm));
  } else {
    OpBuilder builder(run.front());
    kept = waits.create(builder, run.front()->getLoc(), counts.vm, counts.lgkm);
  }
  for (Operation *op : run)
    if (op != kept)
      eraseOp(op);
}

/// Merges every run of adjacent wait ops of the program into one, waits of
/// the input included. Upstream: merges pairs in one pass, so a run of three
/// keeps two waits; here a run of any length becomes one.
/// mergeAdjacentWaits in `block` and the blocks nested in it. (A walk of
/// the blocks through Operation::walk called back on every op of the
/// program first, a third of the merge.)
void mergeAdjacentWaitsIn(Block &block, WaitFactory &waits) {
  SmallVector<Operation *, 4> run;
  for (Operation &op : block) {
    if (isWaitOp(&op)) {
      run.push_back(&op);
      continue;
    }
    if (run.size() > 1)
      mergeWaitRun(run, waits);
    run.clear();
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        mergeAdjacentWaitsIn(nested, waits);
  }
  if (run.size() > 1)
    mergeWaitRun(run, waits);
}

void mergeAdjacentWaits(ProgramOp program, WaitFactory &waits) {
  mergeAdjacentWaitsIn(program.getBodyBlock(), waits);
}

//===----------------------------------------------------------------------===//
// What the walk needs of every op, computed once
//===----------------------------------------------------------------------===//
//
// The walk visits a loop body several times (until the head state is
// stable, then once more to insert the waits). Everything it asks of the IR
// -- storage keys, interface facts, the emitter's copies -- is the same on
// every visit, so it is gathered first into vectors indexed by pre-order
// position.

/// A value entering a loop block argument or an if result: copied by the
/// emitter (`to` starts with nothing pending) or passed in place (`to`
/// inherits what is pending on `from`).
struct Move {
  KeySpan from;
  KeySpan to;
  bool copy;
};

struct LoopFacts {
  KeySpan initUses;           // inits the entry copies read
  KeySpan initWritten;        // registers those copies write
  SmallVector<Move, 4> entry; // init i -> block argument i
  SmallVector<Move, 4> latch; // iter_arg i -> block argument i
  SmallVector<Move, 4> exit;  // block argument i -> result i
  /// The fixed point was not reached: the loop waits for everything at its
  /// head (decided once, kept for every later walk).
  bool drained = false;
};

struct IfFacts {
  SmallVector<Move, 4> yields[2]; // per region: yielded value i -> result i
};

enum class Kind : uint8_t {
  None,   // no effect on the counters
  Wait,   // s_waitcnt* and s_endpgm: the thresholds in `wait`
  Label,  // a join with unknown predecessors
  Alias,  // pack/extract/insert: results are the operands' storage
  Copies, // condition/yield: the emitter's copies read and write registers
  Inst,   // reads, writes and possibly a memory event
  Loop,
  If,
};

struct Node {
  Kind kind = Kind::None;
  bool isBarrier = false;
  /// Wait: threshold per counter, -1 for none.
  int64_t wait[kNumCounters] = {-1, -1};
  /// Inst: the keys of every operand. Copies: the values the op and its
  /// copies read. Alias: every operand. If: the condition.
  KeySpan uses;
  /// Inst: every result (and the AGPR v_accvgpr_write_b32 writes). Copies:
  /// the registers the copies write.
  KeySpan written;
  /// Alias: range of `spans` holding the results that are not registers.
  uint32_t begin = 0, end = 0;
  std::optional<MemEvent> event; // Inst
  uint32_t facts = 0;            // Loop: index in `loops`; If: in `ifs`
  /// The waits the op's latest visit asked for (see Walker::walkProgram):
  /// before it (Inst, Copies, Loop, If), after it (Inst, insert-after-loads)
  /// and at the head of the body (Loop, when drained).
  Needs before, after, drain;
};

class Walker {
public:
  Walker(ProgramOp program, const TargetInfo &target, bool ticketed,
         bool insertAfterLoads, bool orderLDSAcrossCounters,
         bool barrierSkipsLDS, WaitFactory &waits);

  /// Walks the program, then inserts the waits. A walk only records the
  /// waits each op needs: a loop body is walked until the state at its head
  /// is stable, and the last of these walks, from that state, is the one
  /// whose needs stand -- each op's latest record. Inserting them afterwards
  /// saves walking every loop body once more to insert them.
  void walkProgram() {
    State state(slots);
    walkRange(0, ops.size(), state);
    insertWaits();
  }

private:
  void build(uint32_t pos, llvm::DenseMap<Operation *, LoopCopies> &loopCopies);
  /// The register keys of `values`, in the arena.
  KeySpan addRegisterKeys(ArrayRef<Value> values);

  /// Walks the ops at positions [begin, end) that are not nested in others.
  void walkRange(uint32_t begin, uint32_t end, State &state);
  /// Drops the entries of completed tickets once the map has doubled.
  static void pruneCompleted(State &state);
  void walkOp(uint32_t pos, State &state);
  void walkInst(uint32_t pos, State &state);
  void walkLoop(uint32_t pos, State &state);
  void walkLoopBody(uint32_t pos, State &state);
  void walkIf(uint32_t pos, State &state);
  /// The previous walk of a loop body (see walkBody): its states at the
  /// checkpoints (the body's top-level ops number kFirstCheckpoint, twice
  /// that, four times that, ...: a few copies of the state per walk, and
  /// the first early enough to resume most of a body) and at its end.
  struct BodyMemo {
    SmallVector<State, 0> at;
    std::optional<State> end;
  };
  static constexpr unsigned kFirstCheckpoint = 32;
  /// walkRange over a loop body that resumes the previous walk of the same
  /// body where the two walks' states mean the same (sameMeaning): the rest
  /// of the body would be walked as before, every op's waits are already
  /// recorded, and the previous end state stands for this walk's.
  void walkBody(uint32_t begin, uint32_t end, State &state, BodyMemo &memo);
  /// Whether `a` and `b` lead to the same waits and states from here on:
  /// equal tickets and bounds, and equal outstanding entries (score above
  /// lb; a completed entry or event counts as none wherever it is read).
  static bool sameMeaning(const State &a, const State &b);

  ArrayRef<StorageKey> keys(KeySpan span) const { return arena.get(span); }

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
  /// Reading `keys`: wait for the loads still writing them.
  void addUseNeeds(const State &state, ArrayRef<StorageKey> keys,
                   Needs &needs) const {
    for (StorageKey key : keys) {
      for (unsigned c = 0; c < kNumCounters; ++c) {
        const CounterState &cs = state.counters[c];
        const Pending *entry = cs.pending.lookup(key);
        if (!entry)
          continue;
        if (std::optional<int64_t> n =
                needFor(cs, entry->score, entry->outOfOrder, c))
          needs.add(c, *n);
      }
    }
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
        const Pending *entry = cs.pending.lookup(key);
        if (!entry)
          continue;
        if (self && self->counters[c] && !self->outOfOrder &&
            !entry->outOfOrder && !cs.forceZero &&
            cs.lastOutOfOrder < entry->score)
          continue;
        if (std::optional<int64_t> n =
                needFor(cs, entry->score, entry->outOfOrder, c))
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

  // --- direct-to-LDS loads and barriers (b) -------------------------------
  /// The ticket key of a direct-to-LDS load at `pos`: the op. In a loop
  /// body LdsRotation places its bytes per iteration; a barrier outside
  /// any loop body compares byte ranges (LdsAccessBytes).
  uint32_t dmaKey(uint32_t pos) const {
    Operation *op = ops[pos].op;
    return isa<BUFFER_LOAD_DWORD_LDS, BUFFER_LOAD_DWORDX4_LDS>(op)
               ? pos
               : kUnknownDma;
  }
  /// The ticket key of an LDS read at `pos` (one that writes no LDS),
  /// likewise, in a loop with direct-to-LDS loads (the rotations the rule
  /// is for; elsewhere every barrier waits for the read, and the walk
  /// saves the window's footprints).
  uint32_t readKey(uint32_t pos) {
    Operation *op = ops[pos].op;
    InstFacts facts = lookupInstFacts(op);
    auto loop = dyn_cast<LoopOp>(op->getParentOp());
    if (!loop || !(facts.memReads & MemLDS) || (facts.memWrites & MemLDS) ||
        isa<RawOp>(op))
      return kUnknownDma;
    auto [it, inserted] = loopHasDma.try_emplace(loop, false);
    if (inserted)
      for (Operation &other : loop.getBodyBlock())
        it->second |=
            isa<BUFFER_LOAD_DWORD_LDS, BUFFER_LOAD_DWORDX4_LDS>(other);
    return it->second ? pos : kUnknownDma;
  }
  static void crossBackEdge(State &state) {
    for (CounterState &cs : state.counters)
      for (SmallVector<DmaTicket, 4> *list : {&cs.dmas, &cs.ldsReads}) {
        SmallVector<DmaTicket, 4> moved;
        for (DmaTicket ticket : *list) {
          if (ticket.op != kUnknownDma && ++ticket.edges > kMaxDmaEdges)
            ticket = DmaTicket{kUnknownDma, 0, ticket.score};
          addDma(moved, ticket);
        }
        *list = std::move(moved);
      }
  }
  /// Leaving a loop: its iterations mean nothing outside it (a new entry
  /// starts the rotation again), so a ticket keeps its op only for the
  /// barriers outside loop bodies, which compare byte ranges over every
  /// iteration; its edges become kMaxDmaEdges, so the next back edge
  /// crossed forgets the op.
  static void leaveLoop(State &state) {
    for (CounterState &cs : state.counters)
      for (SmallVector<DmaTicket, 4> *list : {&cs.dmas, &cs.ldsReads}) {
        SmallVector<DmaTicket, 4> moved;
        for (const DmaTicket &ticket : *list)
          addDma(moved, ticket.op == kUnknownDma
                            ? ticket
                            : DmaTicket{ticket.op, kMaxDmaEdges, ticket.score});
        *list = std::move(moved);
      }
  }
  /// Whether the barrier at `barrierPos` publishes the load of `ticket`
  /// (cached: a loop body is walked several times); with `read`, whether
  /// it must order the LDS read of `ticket` before other waves' writes.
  bool barrierPublishes(uint32_t barrierPos, const DmaTicket &ticket,
                        bool read = false);
  bool computeBarrierPublishes(Operation *barrier, Operation *access,
                               unsigned edges, bool read);
  bool straightWindowTouches(Operation *barrier, Operation *access, bool read);

  // --- state updates -------------------------------------------------------
  static void applyWait(State &state, unsigned c, int64_t n) {
    CounterState &cs = state.counters[c];
    // With an out-of-order event (SMEM, FLAT) outstanding, a wait for n > 0
    // proves nothing about any event: the out-of-order ones may have landed
    // early and left the n to older in-order ones (an LDS read, then two
    // s_loads, then lgkmcnt(1): the read may be the one left), and the
    // out-of-order ones themselves may be among the n. Only a full wait
    // completes them (LLVM's SIInsertWaitcnts applyWaitcnt does the same).
    if (n > 0 && cs.lastOutOfOrder > cs.lb)
      return;
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
        const Pending *entry = cs.pending.lookup(key);
        if (!entry || entry->score <= cs.lb)
          continue;
        if (!out[c]) {
          out[c] = *entry;
        } else {
          out[c]->score = std::max(out[c]->score, entry->score);
          out[c]->outOfOrder |= entry->outOfOrder;
        }
      }
    }
  }
  /// `to` now holds what `from` holds (a value passed in place).
  static void transfer(State &state, ArrayRef<StorageKey> fromKeys,
                       ArrayRef<StorageKey> toKeys) {
    if (llvm::equal(fromKeys, toKeys))
      return;
    std::optional<Pending> entry[kNumCounters];
    mergedEntry(state, fromKeys, entry);
    eraseKeys(state, toKeys);
    for (unsigned c = 0; c < kNumCounters; ++c)
      if (entry[c])
        for (StorageKey key : toKeys)
          state.counters[c].pending[key] = *entry[c];
  }
  void applyMoves(State &state, ArrayRef<Move> moves) const {
    for (const Move &move : moves) {
      if (move.copy)
        eraseKeys(state, keys(move.to)); // a fresh copy: nothing pending
      else
        transfer(state, keys(move.from), keys(move.to));
    }
  }

  /// `state` with scores as ages (clamped at the counter's maximum): the
  /// lattice of states at joins is finite.
  State canonicalized(const State &state) const;
  void join(State &into, const State &other) const;

  static void applyNeeds(State &state, const Needs &needs) {
    for (unsigned c = 0; c < kNumCounters; ++c)
      if (needs.count[c] != kNoWait)
        applyWait(state, c, needs.count[c]);
  }
  void insertWaits();
  /// Puts a wait for `needs` before `op` (or after it).
  void insertWait(Operation *op, const Needs &needs, bool after);

  bool ticketed;
  bool insertAfterLoads;
  bool orderLDSAcrossCounters;
  /// The workgroup is declared one wave: a barrier waits for no LDS access
  /// and no store.
  bool barrierSkipsLDS;
  WaitFactory &waits;
  int64_t caps[kNumCounters];
  std::vector<PreorderOp> ops;
  std::vector<Node> nodes;
  KeyArena arena;
  std::vector<KeySpan> spans;
  std::vector<LoopFacts> loops;
  std::vector<IfFacts> ifs;
  RegisterSlots slots;
  llvm::DenseMap<Operation *, std::unique_ptr<LdsRotation>> rotations;
  std::unique_ptr<LdsAccessBytes> accessBytes; // built on first use
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, bool> publishes;
  /// Per loop: whether its body has a direct-to-LDS load (readKey).
  llvm::DenseMap<Operation *, bool> loopHasDma;
};

Walker::Walker(ProgramOp program, const TargetInfo &target, bool ticketed,
               bool insertAfterLoads, bool orderLDSAcrossCounters,
               bool barrierSkipsLDS, WaitFactory &waits)
    : ticketed(ticketed), insertAfterLoads(insertAfterLoads),
      orderLDSAcrossCounters(orderLDSAcrossCounters),
      barrierSkipsLDS(barrierSkipsLDS), waits(waits) {
  caps[VM] = target.maxVmcnt;
  caps[LGKM] = target.maxLgkmcnt;
  ops = flattenPreorder(program.getBodyBlock());
  nodes.resize(ops.size());
  // About the keys of an op's operands and results (allocated code: a
  // register per key, an MFMA's accumulator many).
  arena.reserve(ops.size() * 8);
  // Loops come before their conditions in pre-order.
  llvm::DenseMap<Operation *, LoopCopies> loopCopies;
  for (uint32_t pos = 0, e = ops.size(); pos < e; ++pos)
    build(pos, loopCopies);
}

KeySpan Walker::addRegisterKeys(ArrayRef<Value> values) {
  SmallVector<StorageKey, 8> keys;
  for (Value value : values)
    getStorageKeys(value, keys);
  llvm::erase_if(keys, [](StorageKey k) { return !isRegKey(k); });
  return arena.addKeys(keys);
}

void Walker::build(uint32_t pos,
                   llvm::DenseMap<Operation *, LoopCopies> &loopCopies) {
  Operation *op = ops[pos].op;
  Node &node = nodes[pos];
  auto move = [&](Value from, Value to, bool copy) {
    return Move{arena.add(from), arena.add(to), copy};
  };
  TypeID id = op->getName().getTypeID();

  // Waits of the input (and ours, when a walk sees them again).
  if (isOpType<S_WAITCNT>(id)) {
    auto wait = cast<S_WAITCNT>(op);
    node.kind = Kind::Wait;
    bool full = !wait.getVmcnt() && !wait.getLgkmcnt() && !wait.getExpcnt();
    if (full || wait.getVmcnt())
      node.wait[VM] = full ? 0 : *wait.getVmcnt();
    if (full || wait.getLgkmcnt())
      node.wait[LGKM] = full ? 0 : *wait.getLgkmcnt();
    return;
  }
  if (isOpType<S_WAITCNT_VMCNT>(id)) {
    node.kind = Kind::Wait;
    node.wait[VM] = cast<S_WAITCNT_VMCNT>(op).getCount();
    return;
  }
  if (isOpType<S_WAITCNT_LGKMCNT>(id)) {
    node.kind = Kind::Wait;
    node.wait[LGKM] = cast<S_WAITCNT_LGKMCNT>(op).getCount();
    return;
  }
  if (isOpType<S_ENDPGM>(id)) {
    // s_endpgm implies a full wait (SCHEDULING-FACTS.md): nothing before it.
    node.kind = Kind::Wait;
    node.wait[VM] = node.wait[LGKM] = 0;
    return;
  }
  if (isOpType<LoopOp>(id)) {
    auto loop = cast<LoopOp>(op);
    node.kind = Kind::Loop;
    node.facts = loops.size();
    const LoopCopies &copies = loopCopies[op] = getLoopCopies(loop);
    LoopFacts facts;
    Block &body = loop.getBodyBlock();
    // Inits the emitter copies into the block argument are read at the loop.
    SmallVector<Value> copiedInits, copiedArgs;
    for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
      if (copies.inits[i]) {
        copiedInits.push_back(init);
        copiedArgs.push_back(body.getArgument(i));
      }
      facts.entry.push_back(move(init, body.getArgument(i), copies.inits[i]));
    }
    facts.initUses = arena.addAll(copiedInits);
    facts.initWritten = addRegisterKeys(copiedArgs);
    if (ConditionOp condition = loop.getConditionOp())
      for (auto [i, value] : llvm::enumerate(condition.getIterArgs()))
        facts.latch.push_back(
            move(value, body.getArgument(i), copies.latches[i]));
    for (auto [i, result] : llvm::enumerate(loop.getResults()))
      facts.exit.push_back(move(body.getArgument(i), result, /*copy=*/false));
    loops.push_back(std::move(facts));
    return;
  }
  if (isOpType<IfOp>(id)) {
    auto ifOp = cast<IfOp>(op);
    node.kind = Kind::If;
    node.facts = ifs.size();
    node.uses = arena.add(ifOp.getCondition());
    IfFacts facts;
    forEachIfYield(ifOp, [&](unsigned r, Value value, Value result, bool copy) {
      facts.yields[r].push_back(move(value, result, copy));
    });
    ifs.push_back(std::move(facts));
    return;
  }
  if (isOpType<LabelOp>(id)) {
    node.kind = Kind::Label;
    return;
  }
  if (isOpType<RawOp, CommentOp, DCEProtectOp, ConstantOp, PrecoloredVRegOp,
               PrecoloredSRegOp, PrecoloredARegOp>(id) ||
      isBranch(id))
    return; // Kind::None
  if (isOpType<PackOp, ExtractOp, InsertOp>(id)) {
    node.kind = Kind::Alias;
    node.uses = arena.addAll(op->getOperands());
    node.begin = spans.size();
    arena.addAliasResultSpans(op, spans);
    node.end = spans.size();
    return;
  }
  if (isOpType<ConditionOp>(id)) {
    auto condition = cast<ConditionOp>(op);
    node.kind = Kind::Copies;
    auto loop = cast<LoopOp>(op->getParentOp());
    const LoopCopies &copies = loopCopies.find(loop)->second;
    SmallVector<Value> read = {condition.getCondition()}, written;
    for (auto [i, value] : llvm::enumerate(condition.getIterArgs())) {
      if (!copies.latches[i])
        continue; // passed in place: read where the block argument is used
      read.push_back(value);
      written.push_back(loop.getBodyBlock().getArgument(i));
    }
    node.uses = arena.addAll(read);
    node.written = addRegisterKeys(written);
    return;
  }
  if (isOpType<YieldOp>(id)) {
    auto yield = cast<YieldOp>(op);
    auto ifOp = dyn_cast<IfOp>(op->getParentOp());
    if (!ifOp)
      return; // Kind::None
    node.kind = Kind::Copies;
    SmallVector<Value> read, written;
    for (auto [i, value] : llvm::enumerate(yield.getValues())) {
      if (!isYieldCopy(yield, i))
        continue;
      read.push_back(value);
      written.push_back(ifOp.getResult(i));
    }
    node.uses = arena.addAll(read);
    node.written = addRegisterKeys(written);
    return;
  }

  node.kind = Kind::Inst;
  node.event = classify(op, lookupInstFacts(op));
  node.isBarrier = isOpType<S_BARRIER>(id);
  // Differs from upstream (c): every operand is a use, also the address and
  // data operands of loads and stores. Immediates and SCC are never
  // outstanding (no memory op writes them): no keys
  // (getRegisterStorageKeys).
  node.uses = arena.addAllRegisters(op->getOperands());
  node.written = arena.addAllRegisters(op->getResults());
  // v_accvgpr_write_b32 writes its AGPR operand (added right after: the
  // span grows over it).
  if (isOpType<V_ACCVGPR_WRITE_B32>(id))
    node.written.size += arena.add(op->getOperand(1)).size;
}

State Walker::canonicalized(const State &state) const {
  State result(slots);
  for (unsigned c = 0; c < kNumCounters; ++c) {
    const CounterState &cs = state.counters[c];
    CounterState &out = result.counters[c];
    int64_t top = caps[c] + 1;
    auto rescore = [&](int64_t score) -> int64_t {
      if (score <= cs.lb)
        return 0;
      return top - std::min(cs.ub - score, caps[c]);
    };
    cs.pending.forEach([&](StorageKey key, const Pending &entry) {
      if (int64_t score = rescore(entry.score))
        out.pending[key] = Pending{score, entry.outOfOrder};
    });
    out.lastOutOfOrder = rescore(cs.lastOutOfOrder);
    out.lastLDSRead = rescore(cs.lastLDSRead);
    out.lastLDSWrite = rescore(cs.lastLDSWrite);
    out.lastGlobalWrite = rescore(cs.lastGlobalWrite);
    for (DmaTicket ticket : cs.dmas)
      if ((ticket.score = rescore(ticket.score)))
        addDma(out.dmas, ticket);
    for (DmaTicket ticket : cs.ldsReads)
      if ((ticket.score = rescore(ticket.score)))
        addDma(out.ldsReads, ticket);
    out.lb = top - std::min(cs.ub - cs.lb, top);
    out.ub = top;
    out.forceZero = cs.forceZero;
    out.pruneAt = cs.pruneAt;
  }
  return result;
}

// Both states canonical: the result is outstanding where either is, with the
// younger ticket (the smaller safe threshold).
void Walker::join(State &into, const State &other) const {
  for (unsigned c = 0; c < kNumCounters; ++c) {
    CounterState &a = into.counters[c];
    const CounterState &b = other.counters[c];
    a.lb = std::min(a.lb, b.lb);
    b.pending.forEach([&](StorageKey key, const Pending &entry) {
      if (Pending *mine = a.pending.lookup(key)) {
        mine->score = std::max(mine->score, entry.score);
        mine->outOfOrder |= entry.outOfOrder;
      } else {
        a.pending[key] = entry;
      }
    });
    a.lastOutOfOrder = std::max(a.lastOutOfOrder, b.lastOutOfOrder);
    a.lastLDSRead = std::max(a.lastLDSRead, b.lastLDSRead);
    a.lastLDSWrite = std::max(a.lastLDSWrite, b.lastLDSWrite);
    a.lastGlobalWrite = std::max(a.lastGlobalWrite, b.lastGlobalWrite);
    for (const DmaTicket &ticket : b.dmas)
      addDma(a.dmas, ticket);
    for (const DmaTicket &ticket : b.ldsReads)
      addDma(a.ldsReads, ticket);
    a.forceZero |= b.forceZero;
  }
}

void Walker::insertWaits() {
  for (auto [op, node] : llvm::zip(ops, nodes)) {
    insertWait(op.op, node.before, /*after=*/false);
    if (node.drain.any())
      insertWait(&cast<LoopOp>(op.op).getBodyBlock().front(), node.drain,
                 /*after=*/false);
    insertWait(op.op, node.after, /*after=*/true);
  }
}

void Walker::insertWait(Operation *op, const Needs &needs, bool after) {
  if (!needs.any())
    return;
  OpBuilder builder(op->getContext());
  if (after)
    builder.setInsertionPointAfter(op);
  else
    builder.setInsertionPoint(op);
  // A wait next to another one merges with it afterwards
  // (mergeAdjacentWaits).
  waits.create(builder, op->getLoc(), needs.count[VM], needs.count[LGKM]);
}

void Walker::walkRange(uint32_t begin, uint32_t end, State &state) {
  for (uint32_t pos = begin; pos < end; pos = ops[pos].end + 1) {
    walkOp(pos, state);
    pruneCompleted(state);
  }
}

void Walker::pruneCompleted(State &state) {
  // Entries of completed tickets never matter again: drop them whenever
  // the map has doubled, so the state follows what is in flight.
  for (CounterState &cs : state.counters) {
    if (cs.pending.size() < cs.pruneAt)
      continue;
    SmallVector<StorageKey> done;
    cs.pending.forEach([&](StorageKey key, const Pending &entry) {
      if (entry.score <= cs.lb)
        done.push_back(key);
    });
    for (StorageKey key : done)
      cs.pending.erase(key);
    cs.pruneAt = std::max<size_t>(256, 2 * cs.pending.size());
  }
}

void Walker::walkBody(uint32_t begin, uint32_t end, State &state,
                      BodyMemo &memo) {
  SmallVector<State, 0> seen;
  unsigned count = 0, checkpoint = kFirstCheckpoint;
  for (uint32_t pos = begin; pos < end; pos = ops[pos].end + 1) {
    if (count == checkpoint) {
      checkpoint *= 2;
      size_t index = seen.size();
      if (memo.end && index < memo.at.size() &&
          sameMeaning(memo.at[index], state)) {
        LLVM_DEBUG(llvm::dbgs()
                   << DEBUG_TYPE ": loop body resumes the previous walk at op "
                   << pos << "\n");
        // The previous walk's later states mean what this walk's would.
        std::move(seen.begin(), seen.end(), memo.at.begin());
        state = *memo.end;
        return;
      }
      seen.push_back(state);
    }
    ++count;
    walkOp(pos, state);
    pruneCompleted(state);
  }
  memo.at = std::move(seen);
  memo.end = state;
}

bool Walker::sameMeaning(const State &a, const State &b) {
  for (unsigned c = 0; c < kNumCounters; ++c) {
    const CounterState &x = a.counters[c], &y = b.counters[c];
    if (x.ub != y.ub || x.lb != y.lb || x.forceZero != y.forceZero)
      return false;
    int64_t lb = x.lb;
    auto live = [&](int64_t score) { return score > lb ? score : 0; };
    if (live(x.lastOutOfOrder) != live(y.lastOutOfOrder) ||
        live(x.lastLDSRead) != live(y.lastLDSRead) ||
        live(x.lastLDSWrite) != live(y.lastLDSWrite) ||
        live(x.lastGlobalWrite) != live(y.lastGlobalWrite))
      return false;
    auto sameTickets = [&](ArrayRef<DmaTicket> p, ArrayRef<DmaTicket> q) {
      auto isLive = [&](const DmaTicket &t) { return t.score > lb; };
      auto pl = llvm::make_filter_range(p, isLive);
      auto ql = llvm::make_filter_range(q, isLive);
      return llvm::equal(pl, ql);
    };
    if (!sameTickets(x.dmas, y.dmas) || !sameTickets(x.ldsReads, y.ldsReads))
      return false;
    size_t liveEntries = 0;
    bool same = true;
    x.pending.forEach([&](StorageKey key, const Pending &entry) {
      if (!same || entry.score <= lb)
        return;
      ++liveEntries;
      const Pending *other = y.pending.lookup(key);
      same = other && *other == entry;
    });
    if (!same)
      return false;
    y.pending.forEach([&](StorageKey, const Pending &entry) {
      liveEntries -= entry.score > lb;
    });
    if (liveEntries != 0)
      return false;
  }
  return true;
}

void Walker::walkOp(uint32_t pos, State &state) {
  Node &node = nodes[pos];
  switch (node.kind) {
  case Kind::None:
    return;
  case Kind::Wait:
    for (unsigned c = 0; c < kNumCounters; ++c)
      if (node.wait[c] >= 0)
        applyWait(state, c, node.wait[c]);
    return;
  case Kind::Label:
    // A label joins paths the IR does not show (branches have no CFG edges).
    for (CounterState &cs : state.counters)
      cs.forceZero = true;
    return;
  case Kind::Alias: {
    // Non-emitting: the result is the operands' storage.
    std::optional<Pending> entry[kNumCounters];
    mergedEntry(state, keys(node.uses), entry);
    for (KeySpan span :
         ArrayRef(spans).slice(node.begin, node.end - node.begin)) {
      ArrayRef<StorageKey> resultKeys = keys(span);
      eraseKeys(state, resultKeys);
      for (unsigned c = 0; c < kNumCounters; ++c)
        if (entry[c])
          for (StorageKey key : resultKeys)
            state.counters[c].pending[key] = *entry[c];
    }
    return;
  }
  case Kind::Copies: {
    Needs needs;
    addUseNeeds(state, keys(node.uses), needs);
    addWriteNeeds(state, keys(node.written), nullptr, needs);
    applyNeeds(state, needs);
    node.before = needs;
    eraseKeys(state, keys(node.written));
    return;
  }
  case Kind::Inst:
    return walkInst(pos, state);
  case Kind::Loop:
    return walkLoop(pos, state);
  case Kind::If:
    return walkIf(pos, state);
  }
}

void Walker::walkInst(uint32_t pos, State &state) {
  Node &node = nodes[pos];
  const std::optional<MemEvent> &event = node.event;
  ArrayRef<StorageKey> written = keys(node.written);

  Needs needs;
  addUseNeeds(state, keys(node.uses), needs);
  addWriteNeeds(state, written, event ? &*event : nullptr, needs);

  if (event && orderLDSAcrossCounters) {
    // Differs from upstream (d): LDS written by DMA (*_lds loads, vmcnt) and
    // LDS accessed by ds_* ops (lgkmcnt) are ordered only by waiting on the
    // other counter. Applied when the workgroup is a single wave (or its size
    // is unknown): there no barrier publishes the LDS data. In a multi-wave
    // workgroup, DMA'd LDS is shared data that an s_barrier publishes -- and
    // the barrier that publishes it waits for the DMA (b) -- so ds_* ops
    // between a DMA and that barrier are taken to touch other LDS (the
    // double-buffer pattern);
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

  if (node.isBarrier) {
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
      // A single-wave workgroup shares its LDS with no other wave: its own
      // ds ops execute in order and (d) orders them against its
      // direct-to-LDS loads, so the barrier waits for no LDS access (LLVM
      // makes that barrier a wave barrier, which waits for nothing). The
      // gemm_loop step waited out the LDS latency after its ds_writes. Nor
      // for its stores: no wave of the workgroup reads them after the
      // barrier, and a barrier orders nothing between workgroups (the
      // nested GEMM's barrier after its C stores waited ~100 slots for
      // them while the next tile's loads flew).
      if (barrierSkipsLDS)
        continue;
      addMarkNeeds(state, c, cs.lastGlobalWrite, needs);
      if (orderLDSAcrossCounters) {
        addMarkNeeds(state, c, cs.lastLDSRead, needs);
      } else {
        // Differs from upstream (b): only the LDS reads whose bytes some
        // wave may write after this barrier and before the next one; a
        // read of a buffer rewritten later (a spare buffer in the
        // rotation, LdsDeepening.h) stays in flight until the barrier
        // before that write, which sees it still outstanding.
        // Youngest first: waiting for one covers every older read.
        SmallVector<const DmaTicket *, 8> young;
        for (const DmaTicket &ticket : cs.ldsReads)
          if (ticket.score > cs.lb)
            young.push_back(&ticket);
        llvm::sort(young, [](const DmaTicket *a, const DmaTicket *b) {
          return a->score > b->score;
        });
        for (const DmaTicket *ticket : young)
          if (barrierPublishes(pos, *ticket, true)) {
            addMarkNeeds(state, c, ticket->score, needs);
            break;
          }
      }
      if (c == VM && !orderLDSAcrossCounters) {
        // Differs from upstream (b): only the direct-to-LDS loads whose
        // bytes some wave accesses after this barrier and before the next
        // one; a load into a buffer read later (the loop rotates three or
        // more LDS buffers) stays in flight until the barrier that
        // publishes it, which sees it still outstanding.
        for (const DmaTicket &ticket : cs.dmas)
          if (ticket.score > cs.lb && barrierPublishes(pos, ticket))
            addMarkNeeds(state, c, ticket.score, needs);
      } else {
        addMarkNeeds(state, c, cs.lastLDSWrite, needs);
      }
    }
  }

  applyNeeds(state, needs);
  node.before = needs;
  node.after = Needs();

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
    if (event->ldsRead) {
      cs.lastLDSRead = score;
      addDma(cs.ldsReads, DmaTicket{readKey(pos), 0, score});
    }
    if (event->ldsWrite) {
      cs.lastLDSWrite = score;
      if (c == VM)
        addDma(cs.dmas, DmaTicket{dmaKey(pos), 0, score});
    }
    if (event->globalWrite)
      cs.lastGlobalWrite = score;
    for (StorageKey key : written)
      cs.pending[key] = Pending{score, event->outOfOrder};
    if (insertAfterLoads && event->isLoad)
      afterNeeds.add(c, 0);
  }
  applyNeeds(state, afterNeeds);
  node.after = afterNeeds;
}

bool Walker::barrierPublishes(uint32_t barrierPos, const DmaTicket &ticket,
                              bool read) {
  if (ticket.op == kUnknownDma)
    return true;
  // Ticket ops are distinct (a read is no DMA): the key needs no `read`.
  auto [it, inserted] =
      publishes.try_emplace({barrierPos, ticket.op, ticket.edges}, true);
  if (inserted)
    it->second = computeBarrierPublishes(ops[barrierPos].op, ops[ticket.op].op,
                                         ticket.edges, read);
  return it->second;
}

/// The window of a barrier in a loop body: the ops after it up to the next
/// barrier, across the back edge into the next iteration (and past the
/// loop's end on the exit path). The load issued `edges` back edges before
/// the barrier is published there when an LDS access of the window may
/// touch its bytes (LdsRotation, with the two ops' iteration distance); a
/// read (`read`) must be done there when an LDS write of the window may.
bool Walker::computeBarrierPublishes(Operation *barrier, Operation *dma,
                                     unsigned edges, bool read) {
  auto loop = dyn_cast<LoopOp>(barrier->getParentOp());
  if (!loop)
    return straightWindowTouches(barrier, dma, read);
  if (dma->getParentOp() != loop.getOperation() ||
      edges >= kMaxDmaEdges) // left its loop (leaveLoop)
    return true;
  Block &body = loop.getBodyBlock();
  // Back edges of nested loops would count as this loop's.
  for (Operation &op : body)
    if (op.getNumRegions())
      return true;
  // Raw text may touch anything; other ops without facts (constants,
  // pack/extract/insert) touch no memory.
  auto accessesLds = [](Operation *op) {
    InstFacts facts = lookupInstFacts(op);
    return isa<RawOp>(op) || (((facts.memReads | facts.memWrites) & MemLDS) &&
                              !isa<S_BARRIER>(op));
  };
  auto conflicts = [&](Operation *op) {
    return accessesLds(op) && (!read || isa<RawOp>(op) ||
                               (lookupInstFacts(op).memWrites & MemLDS));
  };
  std::unique_ptr<LdsRotation> &rotation = rotations[loop];
  if (!rotation)
    rotation = std::make_unique<LdsRotation>(loop);
  unsigned distance = edges;
  Operation *op = barrier->getNextNode();
  for (;;) {
    if (op == barrier)
      return false; // the only barrier: the window is one whole iteration
    if (isa<S_BARRIER>(op))
      return false;
    if (isa<ConditionOp>(op)) {
      // The exit path: what follows the loop up to a barrier or the end
      // (s_endpgm waits for everything); beyond the loop's block, unknown.
      Operation *after = loop->getNextNode();
      for (; after && !isa<S_BARRIER, S_ENDPGM>(after);
           after = after->getNextNode())
        if (after->getNumRegions() || accessesLds(after))
          return true;
      if (!after)
        return true;
      op = &body.front();
      ++distance;
      continue;
    }
    if (conflicts(op) && rotation->mayOverlap(dma, op, distance))
      return true;
    op = op->getNextNode();
  }
}

/// The window of a barrier outside any loop body (a pipelined loop's fill
/// and drain, straight code): the ops after it in its block up to the next
/// barrier or s_endpgm (a branch in it may jump past both: then anything
/// may read the bytes). The access (a load, or a read with `read`) is
/// published there when an LDS access of the window (a write with `read`)
/// may touch its bytes, by byte ranges over every iteration (LdsAccessBytes;
/// a load of a loop body: any of them). A region in the window, or the
/// block's end before a barrier, may touch anything: a barrier right
/// before a loop waits for what the loop reads, and so it should, since a
/// load still in flight at the loop's entry would make every iteration's
/// waits stricter (the loop's head joins its entry state; the preshuffled
/// mxfp4 kernel went 166 -> 208 slots an iteration that way).
bool Walker::straightWindowTouches(Operation *barrier, Operation *access,
                                   bool read) {
  if (!accessBytes)
    accessBytes =
        std::make_unique<LdsAccessBytes>(barrier->getParentOfType<ProgramOp>());
  for (Operation *op = barrier->getNextNode();; op = op->getNextNode()) {
    if (!op || op->getNumRegions() || isa<RawOp>(op) ||
        isBranch(op->getName().getTypeID()))
      return true;
    if (isa<S_BARRIER, S_ENDPGM>(op))
      return false;
    InstFacts facts = lookupInstFacts(op);
    uint8_t touched =
        read ? facts.memWrites : uint8_t(facts.memReads | facts.memWrites);
    if ((touched & MemLDS) && accessBytes->mayOverlap(access, op))
      return true;
  }
}

void Walker::walkLoop(uint32_t pos, State &state) {
  // A pipelined loop counts its waits in every mode (CountedWaits.h); the
  // state is the same in both modes, only the thresholds differ.
  bool savedTicketed = ticketed;
  if (ops[pos].op->hasAttr(kCountedWaitsAttrName))
    ticketed = true;
  walkLoopBody(pos, state);
  ticketed = savedTicketed;
}

void Walker::walkLoopBody(uint32_t pos, State &state) {
  Node &node = nodes[pos];
  LoopFacts &facts = loops[node.facts];
  // Inits the emitter copies into the block argument are read at the loop.
  Needs needs;
  addUseNeeds(state, keys(facts.initUses), needs);
  addWriteNeeds(state, keys(facts.initWritten), nullptr, needs);
  applyNeeds(state, needs);
  node.before = needs;
  eraseKeys(state, keys(facts.initWritten));

  State entry = state;
  applyMoves(entry, facts.entry);
  entry = canonicalized(entry);

  uint32_t bodyBegin = pos + 1, bodyEnd = ops[pos].end + 1;
  auto drainAtHead = [&](State &head) {
    node.drain = Needs();
    if (!facts.drained)
      return;
    node.drain.add(VM, 0);
    node.drain.add(LGKM, 0);
    applyNeeds(head, node.drain);
  };

  // Differs from upstream (e): iterate the body until the state at the loop
  // head (entry joined with the back edge) is stable. The join only grows,
  // over a finite lattice; the bound is a safety net, after which the loop
  // waits for everything at its head (which converges at once).
  constexpr unsigned kMaxIterations = 64;
  State head = entry;
  State latch(slots);
  BodyMemo memo;
  bool converged = false;
  for (unsigned attempt = 0; attempt < 2 && !converged; ++attempt) {
    head = entry;
    for (unsigned iter = 0; iter < kMaxIterations; ++iter) {
      latch = head;
      drainAtHead(latch);
      walkBody(bodyBegin, bodyEnd, latch, memo);
      applyMoves(latch, facts.latch);
      crossBackEdge(latch);
      State next = head;
      join(next, canonicalized(latch));
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
      facts.drained = true;
  }

  // Converged: the last walk started from the fixed point, its records and
  // its latch state stand. Otherwise walk once more from the last head. The
  // exit sees the latch state.
  if (!converged) {
    latch = head;
    drainAtHead(latch);
    walkBody(bodyBegin, bodyEnd, latch, memo);
    applyMoves(latch, facts.latch);
    crossBackEdge(latch);
  }
  applyMoves(latch, facts.exit);
  leaveLoop(latch);
  state = std::move(latch);
}

void Walker::walkIf(uint32_t pos, State &state) {
  const IfFacts &facts = ifs[nodes[pos].facts];
  const PreorderOp &op = ops[pos];
  Needs needs;
  addUseNeeds(state, keys(nodes[pos].uses), needs);
  applyNeeds(state, needs);
  nodes[pos].before = needs;

  std::pair<uint32_t, uint32_t> ranges[2] = {{pos + 1, op.secondRegion},
                                             {op.secondRegion, op.end + 1}};
  auto walkRegion = [&](unsigned r) {
    State branch = state;
    walkRange(ranges[r].first, ranges[r].second, branch);
    applyMoves(branch, facts.yields[r]);
    return canonicalized(branch);
  };
  State thenState = walkRegion(0);
  State elseState = walkRegion(1);
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
    // A single-wave workgroup has no barrier protocol for LDS: (d) orders
    // its ds ops against its DMA also when the size is unknown, (b) drops
    // the barrier's LDS waits only when it is declared.
    std::optional<int64_t> waves = getWorkgroupWaves(program);
    bool singleWave = !waves || *waves <= 1;
    bool ticketed = ticketedWaitcnt;
    if (ticketedByWorkgroup) {
      // The production driver's rule (SPEC.md 13): waves in M are the x
      // work items over the subgroup size, waves in N the y work items.
      const WaveASMToolDefaults &tool = getWaveASMToolDefaults();
      int64_t x = tool.workgroupSize[0], y = tool.workgroupSize[1];
      if (std::optional<std::array<int64_t, 3>> size =
              getDeclaredWorkgroupSize(program)) {
        x = (*size)[0];
        y = (*size)[1];
      }
      int64_t subgroup = std::max<int64_t>(tool.subgroupSize, 1);
      ticketed = (x + subgroup - 1) / subgroup >= 2 && y >= 2;
    }
    // A program holding a pipelined kernel counts its waits everywhere, as
    // the kernel does: its prologue and epilogue are the pipeline's fill
    // and drain (CountedWaits.h).
    if (program->hasAttr(kCountedWaitsAttrName))
      ticketed = true;
    WaitFactory waits(program.getContext());
    Walker walker(program, target, ticketed, insertAfterLoads, singleWave,
                  /*barrierSkipsLDS=*/waves && *waves <= 1, waits);
    walker.walkProgram();
    // SPEC.md 15: finally, in every mode, adjacent waits merge.
    mergeAdjacentWaits(program, waits);
    // Differs from upstream: in a pipelined steady state a wait folds into
    // the one before it where that costs no more than its issue slot
    // (FoldWaits.h); the folded waits are left next to it, to merge.
    if (foldCountedWaits(program, TargetModel::get(program.getTargetKind())))
      mergeAdjacentWaits(program, waits);
  }
};

} // namespace
