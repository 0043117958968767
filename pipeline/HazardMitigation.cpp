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

#include "pipeline/HazardMitigation.h"
#include "pipeline/Passes.h"
#include "pipeline/StorageKeys.h"

#include "analysis/HazardRules.h"
#include "analysis/TargetModel.h"
#include "ir/InstFacts.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/Debug.h"

#include <algorithm>
#include <memory>

#define DEBUG_TYPE "waveasm-hazard-mitigation"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMHAZARDMITIGATION
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

/// What a recent instruction did to a storage key (analysis/HazardRules.h:
/// the rules the simulator checks this pass with).
using Source = HazardSource;

/// Pre-order position of no op: the producer of a copy into a loop block
/// argument (which has no defining op).
constexpr uint32_t kNoOp = ~0u;

struct Record {
  Source source;
  // The key holds the producer's whole result, unchanged (accumulator
  // chains need the same registers).
  bool exact;
  int64_t clock;      // issue clock of the producer
  int64_t waitStates; // MFMA: wait states before its result may be read
  uint32_t producer;  // pre-order position of the producer, or kNoOp
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
  explicit State(const RegisterSlots &slots) : records(slots) {}
  int64_t now = 0;
  int64_t lastPrune = 0;
  StorageMap<Records> records;
  bool operator==(const State &other) const {
    return now == other.now && records == other.records;
  }
};

/// How the consumer reads an operand.
using Reader = HazardReader;

//===----------------------------------------------------------------------===//
// What the walk needs of every op, computed once
//===----------------------------------------------------------------------===//
//
// The walk visits a loop body several times (until the head state is
// stable, then once more to insert the nops). Everything it asks of the IR
// -- storage keys, interface facts, the emitter's copies -- is the same on
// every visit, so it is gathered first into vectors indexed by pre-order
// position.

/// An operand of an instruction.
struct Read {
  KeySpan keys;
  Reader reader;
  std::optional<PhysRange> range; // the SrcC operand's, for chain checks
};

/// A result of an instruction and the record it leaves (none: the keys'
/// records are dropped).
struct Def {
  KeySpan keys;
  std::optional<Source> source;
  bool trans; // a transcendental result: a Trans record too
};

/// A value entering a loop block argument or an if result: copied by the
/// emitter (a v_mov, i.e. a VALU write, when `to` is a vector register) or
/// passed in place.
struct Move {
  KeySpan from;
  KeySpan to;
  bool copy;
  bool toVector;
  uint32_t producer; // the op defining `to` (the if), or kNoOp
};

struct LoopFacts {
  SmallVector<KeySpan, 4> initReads; // vector inits the entry copies read
  SmallVector<Move, 4> entry;        // init i -> block argument i
  SmallVector<Move, 4> latch;        // iter_arg i -> block argument i
  SmallVector<Move, 4> exit;         // block argument i -> result i
};

struct IfFacts {
  SmallVector<Move, 4> yields[2]; // per region: yielded value i -> result i
};

enum class Kind : uint8_t {
  Clock,     // only advances the clock by `width`
  Inst,      // reads, writes and records of an instruction
  Alias,     // pack/extract/insert: results are the operands' storage
  CopyReads, // condition/yield: the emitter's copies read vector values
  Loop,
  If,
};

struct Node {
  Kind kind = Kind::Clock;
  ExecUnit unit = ExecUnit::None;
  bool hasResult = false; // the writer side of an accumulator chain
  int64_t width = 0;
  int64_t mfmaWaitStates = 0;
  std::optional<PhysRange> result0; // MFMA: its result's registers
  // Inst: ranges of `reads` and `defs`. Alias: range of `spans` (the results
  // that are not registers). CopyReads: range of `spans`.
  uint32_t begin = 0, end = 0;
  uint32_t defsBegin = 0, defsEnd = 0;
  KeySpan written;        // Inst: every result. Alias: every operand.
  KeySpan writtenOperand; // v_accvgpr_write_b32: its destination AGPR
  KeySpan storeData;      // 3-4 dword VMEM store: its data VGPRs
  KeySpan implicitUses;   // VCC, M0, EXEC read
  KeySpan implicitDefs;   // VCC, M0, EXEC written
  KeySpan m0Def;          // SALU: M0, when among implicitDefs
  uint32_t facts = 0;     // Loop: index in `loops`; If: in `ifs`
  /// Wait states to put before the op (Inst, CopyReads, Loop), from the
  /// op's latest visit; see Walker::walkProgram.
  int64_t need = 0;
};

class Walker {
public:
  Walker(ProgramOp program, const TargetModel &model, HazardLoopWalk loopWalk);

  /// Walks the program, then inserts the nops. A walk only records the
  /// wait states each op needs: a loop body is walked until the state at
  /// its head is stable, and the last of these walks, from that state, is
  /// the one whose needs stand -- each op's latest record. Inserting them
  /// afterwards saves walking every loop body once more to insert them.
  void walkProgram() {
    State state(slots);
    walkRange(0, ops.size(), state);
    insertNops();
  }

private:
  void build(uint32_t pos, llvm::DenseMap<Operation *, LoopCopies> &loopCopies);
  /// What build asks of every instruction that depends on its class alone
  /// (not s_nop, whose width is its count): looked at once per class.
  struct ClassInfo {
    InstFacts facts;
    int64_t width = 0;
    std::optional<OperandHazardReaders> readers;
    bool readsMayWait = false;
    /// An MFMA's read wait states (TargetModel::getMFMAReadWaitStates),
    /// unless they depend on the op's attributes (the scaled f8f6f4 forms'
    /// formats): then asked per op.
    std::optional<int64_t> mfmaWaitStates;
    /// Per register class of a result (RegClass, then none): the record it
    /// leaves and whether it is a transcendental result too.
    std::optional<Source> resultSource[4];
    bool transResult[4] = {};
  };
  const ClassInfo &getClassInfo(Operation *op);
  Move makeMove(Value from, Value to, bool copy, uint32_t producer);

  /// Walks the ops at positions [begin, end) that are not nested in others.
  void walkRange(uint32_t begin, uint32_t end, State &state);
  /// The previous walk of a loop body (see walkBody).
  struct BodyMemo {
    uint32_t pos = 0; // 0: no walk recorded yet
    int64_t nowAtPos = 0;
    std::optional<State> atPos; // canonicalized
    std::optional<State> end;
  };
  /// walkRange over a loop body that resumes the previous walk of the same
  /// body (`memo`) where the states agree: at a top-level op more than the
  /// largest wait past the body's start, the walk's canonical state is
  /// compared with the previous walk's there; equal, the rest of the body
  /// would be walked exactly as before (every op's need is already
  /// recorded), so the previous end state, moved to this walk's clock,
  /// stands for it. Returns whether it resumed (never with
  /// HazardLoopWalk::Full).
  bool walkBody(uint32_t begin, uint32_t end, State &state, BodyMemo &memo);
  /// Every clock of `state` moved by `shift`.
  static void shiftClock(State &state, int64_t shift);
  void walkOp(uint32_t pos, State &state);
  void walkInst(uint32_t pos, State &state);
  void walkLoop(uint32_t pos, State &state);
  void walkIf(uint32_t pos, State &state);

  ArrayRef<StorageKey> keys(KeySpan span) const { return arena.get(span); }

  /// Wait states still needed before the op at `readerPos` reads `keys`.
  int64_t readNeed(const State &state, ArrayRef<StorageKey> keys,
                   const Reader &reader, const std::optional<PhysRange> &range,
                   uint32_t readerPos) const;
  int64_t implicitReadNeed(const State &state, ArrayRef<StorageKey> keys,
                           ExecUnit unit) const;
  /// Wait states still needed before the op at `writerPos` overwrites
  /// `keys` (`asResult`: with its result, which may continue a chain).
  int64_t writeNeed(const State &state, ArrayRef<StorageKey> keys,
                    uint32_t writerPos, bool asResult) const;
  int64_t remaining(const State &state, const Record &record,
                    int64_t required) const {
    if (required <= 0)
      return 0;
    int64_t have = state.now - record.clock - 1;
    return std::max<int64_t>(0, required - have);
  }
  /// The MFMA at `mfmaPos` continues the accumulator chain of `record`
  /// through `key`, reading or writing `range`.
  bool isChain(const Record &record, StorageKey key, uint32_t mfmaPos,
               const std::optional<PhysRange> &range) const;

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
      const Records *list = state.records.lookup(key);
      if (!list)
        continue;
      for (Record record : *list) {
        record.exact &= exact;
        merged.push_back(record);
      }
    }
    for (StorageKey key : to)
      state.records[key] = merged;
  }
  /// The emitter's copy (v_mov_b32 / v_accvgpr_*) reading vector `keys`.
  int64_t copyNeed(const State &state, KeySpan keys) const {
    Reader reader;
    reader.unit = ExecUnit::VALU;
    return readNeed(state, this->keys(keys), reader, std::nullopt, kNoOp);
  }
  void applyMoves(State &state, ArrayRef<Move> moves) const;

  /// `state` with clocks relative to its `now` (which becomes 0) and only
  /// the records within the window: states at joins compare equal when
  /// they mean the same.
  State canonicalized(const State &state) const;
  void prune(State &state) const;
  static void join(State &into, const State &other);
  /// The op at `pos` waits `need` wait states (recorded for insertNops).
  void waitStates(uint32_t pos, int64_t need, State &state) {
    nodes[pos].need = need;
    if (need > 0)
      state.now += need;
  }
  void insertNops();

  const TargetModel &model;
  HazardLoopWalk loopWalk;
  int64_t window = 0;
  std::vector<PreorderOp> ops;
  std::vector<Node> nodes;
  KeyArena arena;
  std::vector<Read> reads;
  std::vector<Def> defs;
  std::vector<KeySpan> spans;
  std::vector<LoopFacts> loops;
  std::vector<IfFacts> ifs;
  RegisterSlots slots;
  llvm::SmallDenseMap<const void *, std::unique_ptr<ClassInfo>, 32> classInfos;
  /// The classes' facts by TypeID, direct-mapped in front of classInfos:
  /// asked of every op, where the map's probe cost several times a slot's.
  struct ClassSlot {
    const void *id = nullptr;
    const ClassInfo *info = nullptr;
  };
  static constexpr unsigned kClassSlots = 64;
  ClassSlot classSlots[kClassSlots];
  ClassInfo unsharedInfo; // an unregistered op's, for the op being built
};

Walker::Walker(ProgramOp program, const TargetModel &model,
               HazardLoopWalk loopWalk)
    : model(model), loopWalk(loopWalk) {
  for (unsigned k = 0; k < kNumHazardKinds; ++k)
    window = std::max(window, model.hazardWaitStates[k]);
  window = std::max<int64_t>(window, 20) + 1; // MFMA reads: up to 20

  ops = flattenPreorder(program.getBodyBlock());
  nodes.resize(ops.size());
  // About the keys of an op's operands and results (allocated code: a
  // register per key, an MFMA's accumulator many).
  arena.reserve(ops.size() * 8);
  reads.reserve(ops.size() * 2);
  defs.reserve(ops.size());
  // Loops come before their conditions in pre-order.
  llvm::DenseMap<Operation *, LoopCopies> loopCopies;
  for (uint32_t pos = 0, e = ops.size(); pos < e; ++pos)
    build(pos, loopCopies);
}

/// Whether a read by an op of `unit` can need wait states: for a reader of
/// any other unit (SALU, SMEM, branches, pseudo ops) getReadHazardWaitStates
/// is 0 under every rule and source (HazardRulesTest checks it), so the walk
/// need not look its operands up. Implicit reads are not covered (M0 written
/// by SALU, then read by any unit).
static bool readsMayNeedWaitStates(ExecUnit unit) {
  return unit == ExecUnit::VALU || unit == ExecUnit::MFMA ||
         unit == ExecUnit::VMEM || unit == ExecUnit::LDS;
}

const Walker::ClassInfo &Walker::getClassInfo(Operation *op) {
  // An unregistered op's TypeID is void's: no class to share facts with.
  TypeID id = op->getName().getTypeID();
  bool shared = id != TypeID::get<void>();
  ClassSlot &slot =
      classSlots[(reinterpret_cast<uintptr_t>(id.getAsOpaquePointer()) >> 3) %
                 kClassSlots];
  if (shared) {
    if (slot.id == id.getAsOpaquePointer())
      return *slot.info;
    auto it = classInfos.find(id.getAsOpaquePointer());
    if (it != classInfos.end()) {
      slot = {id.getAsOpaquePointer(), it->second.get()};
      return *it->second;
    }
  }
  ClassInfo info;
  info.facts = lookupInstFacts(op);
  info.width = getHazardClockWidth(op, info.facts);
  info.readers.emplace(op, info.facts);
  info.readsMayWait = readsMayNeedWaitStates(info.facts.unit);
  if (info.facts.unit == ExecUnit::MFMA &&
      !isOpType<V_MFMA_SCALE_F32_16X16X128_F8F6F4,
                V_MFMA_SCALE_F32_32X32X64_F8F6F4>(id))
    info.mfmaWaitStates = model.getMFMAReadWaitStates(op);
  for (unsigned c = 0; c < 4; ++c) {
    std::optional<RegClass> cls;
    if (c < 3)
      cls = static_cast<RegClass>(c);
    info.resultSource[c] = getResultHazardSource(info.facts, cls);
    info.transResult[c] = isTransResult(info.facts, cls);
  }
  if (!shared) {
    unsharedInfo = std::move(info);
    return unsharedInfo;
  }
  const ClassInfo &kept =
      *classInfos
           .try_emplace(id.getAsOpaquePointer(),
                        std::make_unique<ClassInfo>(std::move(info)))
           .first->second;
  slot = {id.getAsOpaquePointer(), &kept};
  return kept;
}

Move Walker::makeMove(Value from, Value to, bool copy, uint32_t producer) {
  std::optional<RegClass> cls = getRegClass(to.getType());
  return {arena.add(from), arena.add(to), copy, cls && *cls != RegClass::SGPR,
          producer};
}

void Walker::build(uint32_t pos,
                   llvm::DenseMap<Operation *, LoopCopies> &loopCopies) {
  Operation *op = ops[pos].op;
  Node &node = nodes[pos];
  auto isVector = [](Value value) {
    std::optional<RegClass> cls = getRegClass(value.getType());
    return cls && *cls != RegClass::SGPR;
  };
  TypeID id = op->getName().getTypeID();

  if (isOpType<LoopOp>(id)) {
    auto loop = cast<LoopOp>(op);
    node.kind = Kind::Loop;
    node.facts = loops.size();
    const LoopCopies &copies = loopCopies[op] = getLoopCopies(loop);
    LoopFacts facts;
    Block &body = loop.getBodyBlock();
    for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
      if (copies.inits[i] && isVector(init))
        facts.initReads.push_back(arena.add(init));
      facts.entry.push_back(
          makeMove(init, body.getArgument(i), copies.inits[i], kNoOp));
    }
    if (ConditionOp condition = loop.getConditionOp())
      for (auto [i, value] : llvm::enumerate(condition.getIterArgs()))
        facts.latch.push_back(
            makeMove(value, body.getArgument(i), copies.latches[i], kNoOp));
    for (auto [i, result] : llvm::enumerate(loop.getResults()))
      facts.exit.push_back(
          makeMove(body.getArgument(i), result, /*copy=*/false, kNoOp));
    loops.push_back(std::move(facts));
    return;
  }
  if (isOpType<IfOp>(id)) {
    auto ifOp = cast<IfOp>(op);
    node.kind = Kind::If;
    node.facts = ifs.size();
    IfFacts facts;
    forEachIfYield(ifOp, [&](unsigned r, Value value, Value result, bool copy) {
      facts.yields[r].push_back(makeMove(value, result, copy, pos));
    });
    ifs.push_back(std::move(facts));
    return;
  }
  if (isOpType<PackOp, ExtractOp, InsertOp>(id)) {
    node.kind = Kind::Alias;
    node.written = arena.addAll(op->getOperands());
    node.begin = spans.size();
    arena.addAliasResultSpans(op, spans);
    node.end = spans.size();
    return;
  }
  if (isOpType<ConditionOp>(id)) {
    auto condition = cast<ConditionOp>(op);
    node.kind = Kind::CopyReads;
    node.begin = spans.size();
    const LoopCopies &copies = loopCopies.find(op->getParentOp())->second;
    for (auto [i, value] : llvm::enumerate(condition.getIterArgs()))
      if (copies.latches[i] && isVector(value))
        spans.push_back(arena.add(value));
    node.end = spans.size();
    return;
  }
  if (isOpType<YieldOp>(id)) {
    auto yield = cast<YieldOp>(op);
    node.kind = Kind::CopyReads;
    node.begin = spans.size();
    if (isa<IfOp>(op->getParentOp()))
      for (auto [i, value] : llvm::enumerate(yield.getValues()))
        if (isYieldCopy(yield, i) && isVector(value))
          spans.push_back(arena.add(value));
    node.end = spans.size();
    return;
  }

  if (isOpType<S_NOP>(id)) {
    node.width = getHazardClockWidth(op, lookupInstFacts(op));
    return; // Kind::Clock
  }
  const ClassInfo &info = getClassInfo(op);
  const InstFacts &facts = info.facts;
  node.width = info.width;
  if (!facts.hasInfo || node.width == 0)
    return; // Kind::Clock

  node.kind = Kind::Inst;
  ExecUnit unit = facts.unit;
  node.unit = unit;
  auto addImplicitKeys = [&](unsigned mask) {
    if (!(mask & (ImpVCC | ImpM0 | ImpEXEC)))
      return KeySpan();
    SmallVector<StorageKey, 4> keys;
    getImplicitKeys(mask, keys);
    return arena.addKeys(keys);
  };
  node.implicitUses = addImplicitKeys(facts.implicitUses);
  node.implicitDefs = addImplicitKeys(facts.implicitDefs);
  if (unit == ExecUnit::SALU && (facts.implicitDefs & ImpM0))
    node.m0Def = addImplicitKeys(ImpM0);
  node.hasResult = op->getNumResults() != 0;

  // Reads (an op whose reads no rule covers has none to check).
  node.begin = reads.size();
  std::optional<unsigned> writtenOperand;
  const OperandHazardReaders &readers = *info.readers;
  unsigned index = 0;
  for (Value operand : op->getOperands()) {
    if (!info.readsMayWait)
      break; // (v_accvgpr_write_b32, whose operand 1 is written, is VALU)
    if (readers.isWritten(index)) {
      writtenOperand = index++; // v_accvgpr_write_b32's destination AGPR
      continue;
    }
    Read read;
    // An immediate or SCC operand holds no record (getRegisterStorageKeys).
    read.keys = arena.addRegisters(operand);
    if (!read.keys.size) {
      ++index;
      continue;
    }
    read.reader = readers.get(index++);
    if (read.reader.mfmaAcc)
      read.range = getPhysRange(operand);
    reads.push_back(read);
  }
  node.end = reads.size();

  // Writes and the records they leave.
  if (unit == ExecUnit::MFMA) {
    node.mfmaWaitStates = info.mfmaWaitStates ? *info.mfmaWaitStates
                                              : model.getMFMAReadWaitStates(op);
    if (node.hasResult)
      node.result0 = getPhysRange(op->getResult(0));
  }
  node.defsBegin = defs.size();
  for (Value result : op->getResults()) {
    std::optional<RegClass> cls = getRegClass(result.getType());
    unsigned c = cls ? static_cast<unsigned>(*cls) : 3;
    Def def;
    def.source = info.resultSource[c];
    // A result of no register class (SCC) that leaves no record only drops
    // records, and none is ever left on one: nothing to do.
    if (!cls && !def.source)
      continue;
    def.keys = arena.add(result);
    def.trans = info.transResult[c];
    defs.push_back(def);
  }
  node.defsEnd = defs.size();
  // The results' keys were added back to back: `written` spans them all.
  if (node.defsEnd != node.defsBegin) {
    uint32_t first = defs[node.defsBegin].keys.begin;
    const KeySpan &last = defs.back().keys;
    node.written = {first, last.begin + last.size - first};
  }
  if (writtenOperand)
    node.writtenOperand = arena.add(op->getOperand(*writtenOperand));
  // A 3-4 dword store reads its data VGPRs after issue.
  if (readsLargeStoreData(op, facts))
    node.storeData = arena.add(op->getOperand(0));
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

bool Walker::isChain(const Record &record, StorageKey key, uint32_t mfmaPos,
                     const std::optional<PhysRange> &range) const {
  if (ops[record.producer].op->getName() != ops[mfmaPos].op->getName())
    return false;
  if (!isRegKey(key))
    return record.exact;
  const std::optional<PhysRange> &produced = nodes[record.producer].result0;
  return produced && range && *produced == *range;
}

int64_t Walker::readNeed(const State &state, ArrayRef<StorageKey> keys,
                         const Reader &reader,
                         const std::optional<PhysRange> &range,
                         uint32_t readerPos) const {
  int64_t need = 0;
  for (StorageKey key : keys) {
    const Records *list = state.records.lookup(key);
    if (!list)
      continue;
    for (const Record &record : *list) {
      bool chain = record.source == Source::MFMA && reader.mfmaAcc &&
                   isChain(record, key, readerPos, range);
      int64_t required = getReadHazardWaitStates(
          model, record.source, record.waitStates, reader, chain);
      need = std::max(need, remaining(state, record, required));
    }
  }
  return need;
}

int64_t Walker::implicitReadNeed(const State &state, ArrayRef<StorageKey> keys,
                                 ExecUnit unit) const {
  int64_t need = 0;
  for (StorageKey key : keys) {
    const Records *list = state.records.lookup(key);
    if (!list)
      continue;
    for (const Record &record : *list) {
      int64_t required =
          getImplicitReadHazardWaitStates(model, record.source, unit);
      need = std::max(need, remaining(state, record, required));
    }
  }
  return need;
}

int64_t Walker::writeNeed(const State &state, ArrayRef<StorageKey> keys,
                          uint32_t writerPos, bool asResult) const {
  int64_t need = 0;
  for (StorageKey key : keys) {
    if (!isRegKey(key))
      continue; // an SSA value is written once
    const Records *list = state.records.lookup(key);
    if (!list)
      continue;
    for (const Record &record : *list) {
      // The next MFMA of an accumulator chain writes the same registers by
      // design.
      bool chain = record.source == Source::MFMA && asResult &&
                   isChain(record, key, writerPos, nodes[writerPos].result0);
      int64_t required = getWriteHazardWaitStates(model, record.source,
                                                  record.waitStates, chain);
      need = std::max(need, remaining(state, record, required));
    }
  }
  return need;
}

void Walker::applyMoves(State &state, ArrayRef<Move> moves) const {
  for (const Move &move : moves) {
    if (!move.copy) {
      transfer(state, keys(move.from), keys(move.to), /*exact=*/true);
    } else if (move.toVector) {
      define(state, keys(move.to),
             Record{Source::ValuVGPR, false, state.now, 0, move.producer});
    } else {
      define(state, keys(move.to), std::nullopt); // s_mov_b32
    }
  }
}

State Walker::canonicalized(const State &state) const {
  State result(slots);
  result.records.reserve(state.records.size());
  state.records.forEach([&](StorageKey key, const Records &list) {
    Records kept;
    for (Record record : list) {
      int64_t age = state.now - record.clock;
      if (age > window)
        continue;
      record.clock = -age;
      kept.push_back(record);
    }
    if (!kept.empty())
      result.records[key] = std::move(kept);
  });
  return result;
}

// Both canonical: a producer recorded on either side is recorded, at its
// most recent clock.
void Walker::join(State &into, const State &other) {
  other.records.forEach([&](StorageKey key, const Records &list) {
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
  });
}

void Walker::insertNops() {
  for (auto [op, node] : llvm::zip(ops, nodes)) {
    int64_t need = node.need;
    if (need <= 0)
      continue;
    OpBuilder builder(op.op);
    // s_nop takes 4 bits (up to 16 wait states); like LLVM, emit at most 8
    // wait states per s_nop.
    while (need > 0) {
      int64_t chunk = std::min<int64_t>(need, 8);
      S_NOP::create(builder, op.op->getLoc(), static_cast<uint32_t>(chunk - 1));
      need -= chunk;
    }
  }
}

void Walker::walkRange(uint32_t begin, uint32_t end, State &state) {
  for (uint32_t pos = begin; pos < end; pos = ops[pos].end + 1) {
    walkOp(pos, state);
    // Records older than the largest wait can never matter again: drop
    // them now and then, so the state stays proportional to the window.
    if (state.now - state.lastPrune > 4 * window) {
      prune(state);
      state.lastPrune = state.now;
    }
  }
}

bool Walker::walkBody(uint32_t begin, uint32_t end, State &state,
                      BodyMemo &memo) {
  if (loopWalk == HazardLoopWalk::Full) {
    walkRange(begin, end, state);
    return false;
  }
  // A walk depends on nothing but its state, and on the state only through
  // the records within the window (canonicalized keeps exactly those,
  // relative to `now`): from equal canonical states two walks of the same
  // ops record the same needs and end in states that differ only by the
  // clock (and by records past the window, which no need reads).
  int64_t start = state.now;
  for (uint32_t pos = begin; pos < end; pos = ops[pos].end + 1) {
    if (memo.pos == pos) {
      State here = canonicalized(state);
      if (here == *memo.atPos) {
        int64_t shift = state.now - memo.nowAtPos;
        LLVM_DEBUG(llvm::dbgs()
                   << DEBUG_TYPE ": loop body resumes the previous walk at op "
                   << pos << "\n");
        state = *memo.end;
        shiftClock(state, shift);
        return true;
      }
      memo.atPos = std::move(here);
      memo.nowAtPos = state.now;
    } else if (!memo.pos && state.now - start > window) {
      memo.pos = pos;
      memo.atPos = canonicalized(state);
      memo.nowAtPos = state.now;
    }
    walkOp(pos, state);
    if (state.now - state.lastPrune > 4 * window) {
      prune(state);
      state.lastPrune = state.now;
    }
  }
  if (memo.pos)
    memo.end = state;
  return false;
}

void Walker::shiftClock(State &state, int64_t shift) {
  state.now += shift;
  state.lastPrune += shift;
  state.records.forEach([&](StorageKey, Records &list) {
    for (Record &record : list)
      record.clock += shift;
  });
}

void Walker::prune(State &state) const {
  SmallVector<StorageKey> dead;
  state.records.forEach([&](StorageKey key, Records &list) {
    llvm::erase_if(list, [&](const Record &record) {
      return state.now - record.clock > window;
    });
    if (list.empty())
      dead.push_back(key);
  });
  for (StorageKey key : dead)
    state.records.erase(key);
}

void Walker::walkOp(uint32_t pos, State &state) {
  const Node &node = nodes[pos];
  switch (node.kind) {
  case Kind::Loop:
    return walkLoop(pos, state);
  case Kind::If:
    return walkIf(pos, state);
  case Kind::Alias: {
    // Non-emitting: the result is its operands' storage.
    for (KeySpan to : ArrayRef(spans).slice(node.begin, node.end - node.begin))
      transfer(state, keys(node.written), keys(to), /*exact=*/false);
    return;
  }
  case Kind::CopyReads: {
    int64_t need = 0;
    for (KeySpan read :
         ArrayRef(spans).slice(node.begin, node.end - node.begin))
      need = std::max(need, copyNeed(state, read));
    waitStates(pos, need, state);
    return;
  }
  case Kind::Clock:
    state.now += node.width;
    return;
  case Kind::Inst:
    return walkInst(pos, state);
  }
}

void Walker::walkInst(uint32_t pos, State &state) {
  const Node &node = nodes[pos];
  int64_t need = 0;
  for (const Read &read :
       ArrayRef(reads).slice(node.begin, node.end - node.begin))
    need = std::max(
        need, readNeed(state, keys(read.keys), read.reader, read.range, pos));
  need = std::max(need,
                  implicitReadNeed(state, keys(node.implicitUses), node.unit));
  need = std::max(need, writeNeed(state, keys(node.written), pos,
                                  /*asResult=*/node.hasResult));
  if (node.writtenOperand.size)
    need = std::max(need, writeNeed(state, keys(node.writtenOperand), pos,
                                    /*asResult=*/false));

  waitStates(pos, need, state);

  // The op issues at `now`; record what it produced.
  int64_t clock = state.now;
  for (const Def &def :
       ArrayRef(defs).slice(node.defsBegin, node.defsEnd - node.defsBegin)) {
    std::optional<Record> record;
    if (def.source)
      record =
          Record{*def.source, true, clock,
                 *def.source == Source::MFMA ? node.mfmaWaitStates : 0, pos};
    define(state, keys(def.keys), record);
    if (def.trans)
      addRecord(state, keys(def.keys),
                Record{Source::Trans, true, clock, 0, pos});
  }
  if (node.writtenOperand.size)
    define(state, keys(node.writtenOperand),
           Record{Source::ValuVGPR, true, clock, 0, pos});
  if (node.implicitDefs.size) {
    std::optional<Record> record;
    if (node.unit == ExecUnit::VALU)
      record = Record{Source::ValuSGPR, true, clock, 0, pos};
    define(state, keys(node.implicitDefs), record);
    if (node.m0Def.size)
      define(state, keys(node.m0Def),
             Record{Source::SaluM0, true, clock, 0, pos});
  }
  if (node.storeData.size)
    addRecord(state, keys(node.storeData),
              Record{Source::StoreData, true, clock, 0, pos});
  state.now += node.width;
}

void Walker::walkLoop(uint32_t pos, State &state) {
  const LoopFacts &facts = loops[nodes[pos].facts];
  // Init copies (v_mov before the loop) read the init.
  int64_t need = 0;
  for (KeySpan read : facts.initReads)
    need = std::max(need, copyNeed(state, read));
  waitStates(pos, need, state);

  State entry = state;
  applyMoves(entry, facts.entry);
  entry = canonicalized(entry);

  // The head sees the entry and the end of the previous iteration: iterate
  // until stable. Records older than the largest wait are dropped, so the
  // state is small and this converges in a few rounds.
  uint32_t bodyBegin = pos + 1, bodyEnd = ops[pos].end + 1;
  constexpr unsigned kMaxIterations = 64;
  State head = entry;
  State latch(slots);
  BodyMemo memo;
  bool converged = false;
  for (unsigned iter = 0; iter < kMaxIterations && !converged; ++iter) {
    latch = head;
    bool resumed = walkBody(bodyBegin, bodyEnd, latch, memo);
    applyMoves(latch, facts.latch);
    // A walk that resumed ends where the previous one did, moved in time:
    // its canonical latch state is the previous one's, which the head
    // already joined, and a join adds nothing to a state that holds it
    // (a record of the same origin keeps its latest clock), so the head
    // is stable. (HazardWalkTest compares with HazardLoopWalk::Full.)
    if (resumed) {
      converged = true;
      break;
    }
    State next = head;
    join(next, canonicalized(latch));
    converged = next == head;
    if (!converged)
      head = std::move(next);
  }
  // Converged: the last walk started from the fixed point, its records and
  // its latch state stand. Otherwise walk once more from the last head.
  if (!converged) {
    latch = head;
    walkBody(bodyBegin, bodyEnd, latch, memo);
    applyMoves(latch, facts.latch);
  }
  applyMoves(latch, facts.exit);
  state = std::move(latch);
}

void Walker::walkIf(uint32_t pos, State &state) {
  const IfFacts &facts = ifs[nodes[pos].facts];
  const PreorderOp &op = ops[pos];
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
    mitigateHazards(program, *model);
  }
};

} // namespace

void waveasm::mitigateHazards(ProgramOp program, const TargetModel &model,
                              HazardLoopWalk walk) {
  Walker walker(program, model, walk);
  walker.walkProgram();
}
