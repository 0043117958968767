//===- HazardMitigation.cpp - s_nop insertion for software hazards --------===//
//
// `waveasm-hazard-mitigation` (SPEC.md 16): puts `s_nop N` (N+1 wait states)
// before an instruction that would otherwise read or overwrite a register
// too soon after the instruction that produced it. Upstream handles two
// rules (trans VALU -> VALU use, VALU -> v_readfirstlane, one wait state
// each, only against the immediately preceding instruction). This pass
// handles every rule of SCHEDULING-FACTS.md that this IR can express, with
// the wait states of the target model (analysis/TargetModel.h):
//
//   producer                        consumer                         states
//   transcendental VALU             non-trans VALU/MFMA reading it       1
//   VALU writes a VGPR              v_readfirstlane / v_readlane src     1
//   VALU writes an SGPR or VCC      VMEM reading that SGPR               5
//   VALU writes an SGPR or VCC      v_readlane/v_writelane lane select   4
//   VALU writes an SGPR or VCC      VALU reading it (SGPR operand, or    2
//                                   VCC implicitly: v_cndmask_b32,
//                                   v_addc_co_u32, v_subb_co_u32)
//   SALU writes M0                  *_lds load (reads M0)                1
//   MFMA result                     SrcA/SrcB (or scale) of an MFMA,  5-20
//                                   any VALU read, VMEM/LDS data or    (by
//                                   address, or an overwrite (WAW);  passes)
//                                   an accumulator chain (same opcode,
//                                   SrcC = the previous result, same
//                                   registers) needs none
//   3-4 dword VMEM store            op overwriting its data VGPRs        1
//
// Differs from upstream: upstream compares a consumer with the nearest
// earlier emitting op only and matches registers by equal base index; here
// every producer within the largest wait is remembered, and registers alias
// when their ranges overlap. Before allocation no register is ever
// rewritten (SSA), so the overwrite rules (store data, MFMA WAW) can only
// fire on allocated IR. More than 8 wait states are split into several
// s_nops of at most 8 (s_nop 7), as LLVM does.
//
// Wait states are counted in emitted instructions between producer and
// consumer, on a clock: every emitting op advances it by 1, `s_nop N` by
// N+1; non-emitting ops, comments, labels, raw text and the structure ops
// (loop, if, condition, yield) by 0 -- conservative, since a loop's back
// edge and an if's branches emit at least as many instructions as counted.
// The state (recent producers per storage) flows through `if` regions and
// around loop back edges to a fixed point, so the last instructions of a
// loop body are seen before the first of the next iteration. Storage is an
// SSA value before allocation and a physical register after (overlapping
// ranges alias), see StorageKeys.h. Where the emitter copies a value into a
// loop block argument or an if result, the copy (a v_mov) is modelled as a
// VALU read of the value and a VALU write of the target.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Passes.h"
#include "pipeline/StorageKeys.h"

#include "analysis/TargetModel.h"

#include "mlir/IR/Builders.h"

#include <algorithm>

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMHAZARDMITIGATION
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

/// What a recent instruction did to a storage key.
enum class Source : uint8_t {
  Trans,     // a transcendental VALU op wrote it
  ValuVGPR,  // a VALU op wrote it (vector register)
  ValuSGPR,  // a VALU op wrote it (SGPR or VCC)
  SaluM0,    // an SALU op wrote M0
  MFMA,      // an MFMA wrote it
  StoreData, // a 3-4 dword VMEM store read it as data
};

struct Record {
  Source source;
  // The key holds the producer's whole result, unchanged (accumulator
  // chains need the same registers).
  bool exact;
  int64_t clock;      // issue clock of the producer
  int64_t waitStates; // MFMA: wait states before its result may be read
  Operation *producer;
  bool sameOrigin(const Record &other) const {
    return source == other.source && producer == other.producer &&
           exact == other.exact;
  }
  bool operator==(const Record &other) const {
    return sameOrigin(other) && clock == other.clock &&
           waitStates == other.waitStates;
  }
};

using Records = SmallVector<Record, 2>;

struct State {
  int64_t now = 0;
  int64_t lastPrune = 0;
  llvm::DenseMap<StorageKey, Records> records;
  bool operator==(const State &other) const {
    return now == other.now && records == other.records;
  }
};

/// How the consumer reads an operand.
struct Reader {
  ExecUnit unit = ExecUnit::None;
  bool trans = false;
  bool readLaneSource = false; // VGPR source of v_readfirstlane/v_readlane
  bool laneSelect = false;     // lane operand of v_readlane/v_writelane
  Operation *mfmaAcc = nullptr; // the MFMA whose SrcC this operand is
  bool isVector() const {
    return unit == ExecUnit::VALU || unit == ExecUnit::MFMA;
  }
};

int64_t waitStatesOf(Operation *op) {
  if (auto nop = dyn_cast<S_NOP>(op))
    return static_cast<int64_t>(nop.getCount()) + 1;
  // s_sched_barrier only steers a compiler's scheduler: count it as nothing.
  if (isa<CommentOp, LabelOp, RawOp, S_SCHED_BARRIER, LoopOp, IfOp,
          ConditionOp, YieldOp, ProgramOp>(op))
    return 0;
  auto info = dyn_cast<InstInfoOpInterface>(op);
  if (!info || info.isNonEmitting())
    return 0;
  return 1;
}

class Walker {
public:
  Walker(Operation *program, const TargetModel &model)
      : order(program), copies(order), model(model) {
    for (unsigned k = 0; k < kNumHazardKinds; ++k)
      window = std::max(window, model.hazardWaitStates[k]);
    window = std::max<int64_t>(window, 20) + 1; // MFMA reads: up to 20
  }

  void walkBlock(Block &block, State &state, bool materialize);

private:
  void walkOp(Operation *op, State &state, bool materialize);
  void walkLoop(LoopOp loop, State &state, bool materialize);
  void walkIf(IfOp ifOp, State &state, bool materialize);

  int64_t states(HazardKind kind) const {
    return model.getHazardWaitStates(kind);
  }

  /// Wait states still needed before reading `value` as `reader`.
  int64_t readNeed(const State &state, Value value, const Reader &reader) const;
  int64_t implicitReadNeed(const State &state, unsigned mask,
                           ExecUnit unit) const;
  /// Wait states still needed before `writer` overwrites `keys`.
  int64_t writeNeed(const State &state, ArrayRef<StorageKey> keys,
                    Operation *writer, Value writtenValue) const;
  int64_t remaining(const State &state, const Record &record,
                    int64_t required) const {
    if (required <= 0)
      return 0;
    int64_t have = state.now - record.clock - 1;
    return std::max<int64_t>(0, required - have);
  }
  bool isChain(const Record &record, StorageKey key, Operation *mfma,
               Value operand) const;

  /// `keys` now hold a fresh result of `source` (older records dropped).
  static void define(State &state, ArrayRef<StorageKey> keys,
                     std::optional<Record> record) {
    for (StorageKey key : keys) {
      if (!record) {
        state.records.erase(key);
        continue;
      }
      Records &list = state.records[key];
      list.clear();
      list.push_back(*record);
    }
  }
  static void addRecord(State &state, ArrayRef<StorageKey> keys,
                        const Record &record) {
    for (StorageKey key : keys)
      state.records[key].push_back(record);
  }
  /// `to` now holds what `from` holds (passed in place, or through a
  /// non-emitting pack/extract/insert when `exact` is false).
  static void transfer(State &state, ArrayRef<StorageKey> from,
                       ArrayRef<StorageKey> to, bool exact) {
    if (llvm::equal(from, to))
      return;
    Records merged;
    for (StorageKey key : from) {
      auto it = state.records.find(key);
      if (it == state.records.end())
        continue;
      for (Record record : it->second) {
        record.exact &= exact;
        merged.push_back(record);
      }
    }
    for (StorageKey key : to)
      state.records[key] = merged;
  }
  /// The emitter's copy of `from` into `to` (v_mov / s_mov) at `at`.
  int64_t copyNeed(const State &state, Value from) const;
  void copyDefine(State &state, Value to) const;

  void canonicalize(State &state) const;
  void prune(State &state) const;
  static void join(State &into, const State &other);
  void emitNops(Operation *op, int64_t need, State &state, bool materialize);

  ProgramOrder order;
  CopyModel copies;
  const TargetModel &model;
  int64_t window = 0;
};

bool Walker::isChain(const Record &record, StorageKey key, Operation *mfma,
                     Value operand) const {
  if (!mfma || record.producer->getName() != mfma->getName())
    return false;
  if (!isRegKey(key))
    return record.exact;
  std::optional<PhysRange> produced =
      getPhysRange(record.producer->getResult(0));
  std::optional<PhysRange> read = getPhysRange(operand);
  return produced && read && *produced == *read;
}

int64_t Walker::readNeed(const State &state, Value value,
                         const Reader &reader) const {
  SmallVector<StorageKey, 4> keys;
  getStorageKeys(value, keys);
  int64_t need = 0;
  for (StorageKey key : keys) {
    auto it = state.records.find(key);
    if (it == state.records.end())
      continue;
    for (const Record &record : it->second) {
      int64_t required = 0;
      switch (record.source) {
      case Source::Trans:
        if (reader.isVector() && !reader.trans)
          required = states(HazardKind::TransToValu);
        break;
      case Source::ValuVGPR:
        if (reader.readLaneSource)
          required = states(HazardKind::ValuToReadFirstLane);
        break;
      case Source::ValuSGPR:
        if (reader.unit == ExecUnit::VMEM)
          required = states(HazardKind::ValuSgprToVmem);
        if (reader.laneSelect)
          required =
              std::max(required, states(HazardKind::ValuSgprToLaneSelect));
        if (reader.isVector())
          required =
              std::max(required, states(HazardKind::ValuSgprToValuConst));
        break;
      case Source::MFMA:
        if (reader.mfmaAcc && isChain(record, key, reader.mfmaAcc, value))
          break; // accumulator chain: the hardware forwards SrcC
        if (reader.isVector() || reader.unit == ExecUnit::VMEM ||
            reader.unit == ExecUnit::LDS)
          required = record.waitStates;
        break;
      case Source::SaluM0:
      case Source::StoreData:
        break;
      }
      need = std::max(need, remaining(state, record, required));
    }
  }
  return need;
}

int64_t Walker::implicitReadNeed(const State &state, unsigned mask,
                                 ExecUnit unit) const {
  SmallVector<StorageKey, 4> keys;
  getImplicitKeys(mask, keys);
  int64_t need = 0;
  for (StorageKey key : keys) {
    auto it = state.records.find(key);
    if (it == state.records.end())
      continue;
    for (const Record &record : it->second) {
      int64_t required = 0;
      if (record.source == Source::ValuSGPR &&
          (unit == ExecUnit::VALU || unit == ExecUnit::MFMA))
        required = states(HazardKind::ValuSgprToValuConst); // VCC
      if (record.source == Source::SaluM0)
        required = states(HazardKind::SaluM0ToLdsDirect);
      need = std::max(need, remaining(state, record, required));
    }
  }
  return need;
}

int64_t Walker::writeNeed(const State &state, ArrayRef<StorageKey> keys,
                          Operation *writer, Value writtenValue) const {
  int64_t need = 0;
  for (StorageKey key : keys) {
    if (!isRegKey(key))
      continue; // an SSA value is written once
    auto it = state.records.find(key);
    if (it == state.records.end())
      continue;
    for (const Record &record : it->second) {
      int64_t required = 0;
      if (record.source == Source::StoreData)
        required = states(HazardKind::LargeStoreDataOverwrite);
      if (record.source == Source::MFMA) {
        // Overwriting an MFMA result in flight (WAW); the next MFMA of an
        // accumulator chain writes the same registers by design.
        bool chain = writer && writtenValue &&
                     isChain(record, key, writer, writtenValue);
        if (!chain)
          required = record.waitStates;
      }
      need = std::max(need, remaining(state, record, required));
    }
  }
  return need;
}

int64_t Walker::copyNeed(const State &state, Value from) const {
  std::optional<RegClass> cls = getRegClass(from.getType());
  if (!cls || *cls == RegClass::SGPR)
    return 0; // s_mov_b32: no SALU hazard in the table
  Reader reader;
  reader.unit = ExecUnit::VALU; // v_mov_b32 / v_accvgpr_*
  return readNeed(state, from, reader);
}

void Walker::copyDefine(State &state, Value to) const {
  SmallVector<StorageKey, 4> keys;
  getStorageKeys(to, keys);
  std::optional<RegClass> cls = getRegClass(to.getType());
  if (cls && *cls != RegClass::SGPR)
    define(state, keys,
           Record{Source::ValuVGPR, false, state.now, 0, to.getDefiningOp()});
  else
    define(state, keys, std::nullopt);
}

void Walker::canonicalize(State &state) const {
  llvm::DenseMap<StorageKey, Records> records;
  for (auto &[key, list] : state.records) {
    Records kept;
    for (Record record : list) {
      int64_t age = state.now - record.clock;
      if (age > window)
        continue;
      record.clock = -age;
      kept.push_back(record);
    }
    if (!kept.empty())
      records[key] = std::move(kept);
  }
  state.records = std::move(records);
  state.now = 0;
  state.lastPrune = 0;
}

// Both canonical: a producer recorded on either side is recorded, at its
// most recent clock.
void Walker::join(State &into, const State &other) {
  for (auto &[key, list] : other.records) {
    Records &mine = into.records[key];
    for (const Record &record : list) {
      auto it = llvm::find_if(
          mine, [&](const Record &r) { return r.sameOrigin(record); });
      if (it == mine.end()) {
        mine.push_back(record);
      } else {
        it->clock = std::max(it->clock, record.clock);
        it->waitStates = std::max(it->waitStates, record.waitStates);
      }
    }
  }
}

void Walker::emitNops(Operation *op, int64_t need, State &state,
                      bool materialize) {
  if (need <= 0)
    return;
  state.now += need;
  if (!materialize)
    return;
  OpBuilder builder(op);
  // s_nop takes 4 bits (up to 16 wait states); like LLVM, emit at most 8
  // wait states per s_nop.
  while (need > 0) {
    int64_t chunk = std::min<int64_t>(need, 8);
    S_NOP::create(builder, op->getLoc(), static_cast<uint32_t>(chunk - 1));
    need -= chunk;
  }
}

void Walker::walkBlock(Block &block, State &state, bool materialize) {
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  for (Operation *op : ops) {
    walkOp(op, state, materialize);
    // Records older than the largest wait can never matter again: drop
    // them now and then, so the state stays proportional to the window.
    if (state.now - state.lastPrune > 4 * window) {
      prune(state);
      state.lastPrune = state.now;
    }
  }
}

void Walker::prune(State &state) const {
  SmallVector<StorageKey> dead;
  for (auto &[key, list] : state.records) {
    llvm::erase_if(list, [&](const Record &record) {
      return state.now - record.clock > window;
    });
    if (list.empty())
      dead.push_back(key);
  }
  for (StorageKey key : dead)
    state.records.erase(key);
}

void Walker::walkOp(Operation *op, State &state, bool materialize) {
  if (auto loop = dyn_cast<LoopOp>(op))
    return walkLoop(loop, state, materialize);
  if (auto ifOp = dyn_cast<IfOp>(op))
    return walkIf(ifOp, state, materialize);

  if (isa<PackOp, ExtractOp, InsertOp>(op)) {
    // Non-emitting: the result is its operands' storage.
    SmallVector<StorageKey, 8> from;
    for (Value operand : op->getOperands())
      getStorageKeys(operand, from);
    for (Value result : op->getResults()) {
      SmallVector<StorageKey, 4> to;
      getStorageKeys(result, to);
      if (!llvm::all_of(to, isRegKey))
        transfer(state, from, to, /*exact=*/false);
    }
    return;
  }

  if (auto condition = dyn_cast<ConditionOp>(op)) {
    auto loop = cast<LoopOp>(op->getParentOp());
    int64_t need = 0;
    for (auto [i, value] : llvm::enumerate(condition.getIterArgs()))
      if (copies.isLatchCopy(loop, i))
        need = std::max(need, copyNeed(state, value));
    emitNops(op, need, state, materialize);
    return;
  }
  if (auto yield = dyn_cast<YieldOp>(op)) {
    int64_t need = 0;
    if (isa<IfOp>(op->getParentOp()))
      for (auto [i, value] : llvm::enumerate(yield.getValues()))
        if (copies.isYieldCopy(yield, i))
          need = std::max(need, copyNeed(state, value));
    emitNops(op, need, state, materialize);
    return;
  }

  int64_t width = waitStatesOf(op);
  auto info = dyn_cast<InstInfoOpInterface>(op);
  if (!info || width == 0 || isa<S_NOP>(op)) {
    state.now += width;
    return;
  }

  ExecUnit unit = info.getExecUnit();
  bool readLane = isa<V_READFIRSTLANE_B32, V_READLANE_B32>(op);
  bool laneOp = isa<V_READLANE_B32, V_WRITELANE_B32>(op);
  int tied = info.getTiedOperandIndex();

  // Reads.
  int64_t need = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned index = operand.getOperandNumber();
    if (isa<V_ACCVGPR_WRITE_B32>(op) && index == 1)
      continue; // the destination AGPR
    Reader reader;
    reader.unit = unit;
    reader.trans = info.getLatencyClass() == LatencyClass::Trans;
    reader.readLaneSource = readLane && index == 0;
    reader.laneSelect = laneOp && index == 1;
    if (unit == ExecUnit::MFMA && static_cast<int>(index) == tied)
      reader.mfmaAcc = op;
    need = std::max(need, readNeed(state, operand.get(), reader));
  }
  need = std::max(need, implicitReadNeed(state, info.getImplicitUses(), unit));

  // Writes.
  SmallVector<StorageKey, 8> written;
  for (Value result : op->getResults())
    getStorageKeys(result, written);
  need = std::max(need, writeNeed(state, written, op,
                                  op->getNumResults() ? op->getResult(0)
                                                      : Value()));
  SmallVector<StorageKey, 4> writtenOperand;
  if (isa<V_ACCVGPR_WRITE_B32>(op)) {
    getStorageKeys(op->getOperand(1), writtenOperand);
    need = std::max(need, writeNeed(state, writtenOperand, op, Value()));
  }

  emitNops(op, need, state, materialize);

  // The op issues at `now`; record what it produced.
  int64_t clock = state.now;
  LatencyClass latency = info.getLatencyClass();
  for (Value result : op->getResults()) {
    SmallVector<StorageKey, 4> keys;
    getStorageKeys(result, keys);
    std::optional<RegClass> cls = getRegClass(result.getType());
    std::optional<Record> record;
    if (unit == ExecUnit::MFMA)
      record = Record{Source::MFMA, true, clock,
                      model.getMFMAReadWaitStates(op), op};
    else if (unit == ExecUnit::VALU && cls == RegClass::SGPR)
      record = Record{Source::ValuSGPR, true, clock, 0, op};
    else if (unit == ExecUnit::VALU && cls)
      record = Record{Source::ValuVGPR, true, clock, 0, op};
    define(state, keys, record);
    if (unit == ExecUnit::VALU && cls && cls != RegClass::SGPR &&
        latency == LatencyClass::Trans)
      addRecord(state, keys, Record{Source::Trans, true, clock, 0, op});
  }
  if (!writtenOperand.empty())
    define(state, writtenOperand,
           Record{Source::ValuVGPR, true, clock, 0, op});
  unsigned defs = info.getImplicitDefs();
  if (defs & (ImpVCC | ImpM0 | ImpEXEC)) {
    SmallVector<StorageKey, 4> keys;
    getImplicitKeys(defs, keys);
    std::optional<Record> record;
    if (unit == ExecUnit::VALU)
      record = Record{Source::ValuSGPR, true, clock, 0, op};
    define(state, keys, record);
    if (unit == ExecUnit::SALU && (defs & ImpM0)) {
      SmallVector<StorageKey, 1> m0;
      getImplicitKeys(ImpM0, m0);
      define(state, m0, Record{Source::SaluM0, true, clock, 0, op});
    }
  }
  // A 3-4 dword store reads its data VGPRs after issue.
  if (latency == LatencyClass::VMEMStore && info.getDataDwords() >= 3 &&
      op->getNumOperands() > 0) {
    SmallVector<StorageKey, 4> keys;
    getStorageKeys(op->getOperand(0), keys);
    addRecord(state, keys, Record{Source::StoreData, true, clock, 0, op});
  }
  state.now += width;
}

void Walker::walkLoop(LoopOp loop, State &state, bool materialize) {
  Block &body = loop.getBodyBlock();
  // Init copies (v_mov before the loop) read the init.
  int64_t need = 0;
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs()))
    if (copies.isInitCopy(loop, i))
      need = std::max(need, copyNeed(state, init));
  emitNops(loop, need, state, materialize);

  State entry = state;
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
    if (copies.isInitCopy(loop, i)) {
      copyDefine(entry, body.getArgument(i));
    } else {
      SmallVector<StorageKey, 4> from, to;
      getStorageKeys(init, from);
      getStorageKeys(body.getArgument(i), to);
      transfer(entry, from, to, /*exact=*/true);
    }
  }
  canonicalize(entry);

  ConditionOp condition = loop.getConditionOp();
  auto backEdge = [&](State &latch) {
    if (!condition)
      return;
    for (auto [i, value] : llvm::enumerate(condition.getIterArgs())) {
      if (copies.isLatchCopy(loop, i)) {
        copyDefine(latch, body.getArgument(i));
      } else {
        SmallVector<StorageKey, 4> from, to;
        getStorageKeys(value, from);
        getStorageKeys(body.getArgument(i), to);
        transfer(latch, from, to, /*exact=*/true);
      }
    }
  };

  // The head sees the entry and the end of the previous iteration: iterate
  // until stable. Records older than the largest wait are dropped, so the
  // state is small and this converges in a few rounds.
  constexpr unsigned kMaxIterations = 64;
  State head = entry;
  for (unsigned iter = 0; iter < kMaxIterations; ++iter) {
    State latch = head;
    walkBlock(body, latch, /*materialize=*/false);
    backEdge(latch);
    canonicalize(latch);
    State next = head;
    join(next, latch);
    if (next == head)
      break;
    head = std::move(next);
  }

  State latch = head;
  walkBlock(body, latch, materialize);
  backEdge(latch);
  for (auto [i, result] : llvm::enumerate(loop.getResults())) {
    SmallVector<StorageKey, 4> from, to;
    getStorageKeys(body.getArgument(i), from);
    getStorageKeys(result, to);
    transfer(latch, from, to, /*exact=*/true);
  }
  state = std::move(latch);
}

void Walker::walkIf(IfOp ifOp, State &state, bool materialize) {
  auto walkRegion = [&](Region &region) {
    State branch = state;
    if (!region.empty()) {
      walkBlock(region.front(), branch, materialize);
      if (YieldOp yield = ifOp.getYield(region)) {
        for (auto [i, value] : llvm::enumerate(yield.getValues())) {
          if (i >= ifOp.getNumResults())
            break;
          if (copies.isYieldCopy(yield, i)) {
            copyDefine(branch, ifOp.getResult(i));
          } else {
            SmallVector<StorageKey, 4> from, to;
            getStorageKeys(value, from);
            getStorageKeys(ifOp.getResult(i), to);
            transfer(branch, from, to, /*exact=*/true);
          }
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

struct HazardMitigationPass
    : public waveasm::impl::WaveASMHazardMitigationBase<HazardMitigationPass> {
  using WaveASMHazardMitigationBase::WaveASMHazardMitigationBase;
  // No pass statistics: Debian's LLVM compiles them out, and
  // compileAndMeasure counts inserted nops by comparing op counts.

  void runOnOperation() override {
    ProgramOp program = getOperation();
    // The option names the target of a program without one; every program
    // has one (it is required), so it is only validated (upstream's text).
    if (!parseTargetKind(target)) {
      program.emitError() << "Invalid target architecture: '" << target
                          << "'. Supported targets: " << listTargetKinds();
      return signalPassFailure();
    }
    llvm::Expected<TargetModel> model = TargetModel::getWithOverrides(
        program.getTargetKind(), llvm::to_vector(modelOverrides));
    if (!model) {
      program.emitError(llvm::toString(model.takeError()));
      return signalPassFailure();
    }
    Walker walker(program, *model);
    State state;
    walker.walkBlock(program.getBodyBlock(), state, /*materialize=*/true);
  }
};

} // namespace
