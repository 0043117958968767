//===- LinearScan.cpp - linear-scan register allocation -------------------===//
//
// `waveasm-linear-scan` (SPEC.md 14): assigns physical VGPR/SGPR/AGPR ranges
// to every virtual register value of a program and rewrites the types in
// place. The steps follow upstream's allocator:
//
//   1. rematerialize long-lived constant moves next to their users;
//   2. compute live intervals (LiveIntervals.h), merge pack operands into
//      the pack's registers, alias extract/insert results to their source,
//      and tie loop-carried values, if results and MFMA accumulators;
//   3. reserve precolored registers, the scratch VGPR v15 and the
//      `scalar_sgpr_base/count` SGPRs;
//   4. linear scan per register class over the intervals sorted by
//      (start, size desc, alignment desc, end desc), lowest aligned free
//      range first, long VGPR tuples from the top (bidirectional strategy),
//      a tie group's gaps lent to values inside them where that gains a
//      wave or fits the files (LifetimeHoles.h);
//   5. rewrite virtual types to physical ones, materialize inserts, and
//      record `_iterArgPhysRegs` on every `waveasm.condition`.
// There is no spilling: when a class runs out, the error is reported at the
// op where that class's pressure peaks, with the values live there.
//
// Differences from upstream, all for correctness (each is a case where
// upstream relies on the emitter to patch up mismatching registers, or
// silently shares a register between two live values):
//
//   * Ties are made only between values whose live intervals are disjoint
//     (LiveModel::tryTie), which covers upstream's swap and write-after-read
//     exceptions and every other conflict.
//   * Where a loop init, a condition iter_arg or an if yield cannot share
//     the register of its block argument / result (it is still used after
//     the loop, it is another block argument -- the "swap" pattern --, it is
//     defined before the last use of the block argument, it feeds two
//     positions, it comes from outside the if, ...), an explicit copy
//     (v_mov_b32; s_mov_b32 per word; AGPRs through v_accvgpr_read_b32) is
//     inserted and the copy is tied instead. Inits, block arguments,
//     iter_args and results then have identical types, `_iterArgPhysRegs`
//     equals the block arguments' registers, and the emitter has no copies
//     to add. Back-edge copies that form a cycle (swaps, rotations) go
//     through one temporary. Upstream leaves the types different and has
//     the emitter insert the moves (SPEC.md 14.4 step 9, 17.5); if a tie is
//     still impossible after the copies (not observed), the types are left
//     different in the same way.
//   * A duplicated init gets a real copy of the value; upstream gives the
//     second position `v_mov_b32 0`, which is only right for zero inits.
//   * Both yields of an if are tied to the result (upstream ties the then
//     yield only and extends its range over the result, which clobbers the
//     yielded value when it is also used after the if).
//   * An MFMA result is tied to its accumulator only if the accumulator
//     dies at the MFMA and is not also an A/B operand; upstream ties
//     unconditionally, overwriting an accumulator that is still needed. A
//     precolored accumulator passes its registers on the same way
//     (LiveModel::tryPin), when moreover no other value names them and its
//     op is not in a loop (which would name the ABI contents again).
//   * An insert updates its source's registers in place only when the source
//     dies there (a precolored tuple too, on the same conditions as an MFMA
//     accumulator); otherwise the source is copied first.
//   * A v_mov_b32 reading a physical SGPR that the program writes again is
//     not rematerialized (a clone could read the new value).
//   * The options are clamped to the target's register files so the output
//     always verifies.
//   * Upstream holds a tied class's registers over the envelope of its
//     ranges; here the gaps (a loop-carried value between its last read and
//     the definition of its next value, an if result's then-yield over the
//     else region) are lent to values living inside them when the envelope
//     allocation does not fit or costs a wave (allocateKept,
//     LifetimeHoles.h).
//
//===----------------------------------------------------------------------===//

#include "analysis/TargetModel.h"
#include "ir/DefinedValues.h"
#include "pipeline/AllocatedLiveModel.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/LifetimeHoles.h"
#include "pipeline/Literals.h"
#include "pipeline/LiveIntervals.h"
#include "pipeline/Passes.h"
#include "pipeline/TrialAllocation.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#include <deque>

#define DEBUG_TYPE "waveasm-linear-scan"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMLINEARSCAN
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;
using namespace waveasm::regalloc;

namespace {

/// The scratch VGPR the emitter stages literals in (SPEC.md 12.4).
/// Rematerialize constant moves whose range spans more points than this.
constexpr int64_t kRematThreshold = 10;

constexpr RegClass kClasses[] = {RegClass::VGPR, RegClass::SGPR,
                                 RegClass::AGPR};

unsigned classIndex(RegClass cls) { return static_cast<unsigned>(cls); }

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

/// Emits a copy of `src` as a new value of virtual type `resultType` (same
/// register class). VGPR tuples: one v_mov_b32 with a multi-register result.
/// SGPRs: s_mov_b32 per word (extract + pack for tuples; a 2-word s_mov_b64
/// would need an even register). AGPRs: per word v_accvgpr_read_b32 into a
/// VGPR, then v_mov_b32 into the AGPR.
Value emitCopy(OpBuilder &b, Location loc, Value src, Type resultType) {
  MLIRContext *ctx = b.getContext();
  RegClass cls = *getRegClass(resultType);
  int64_t size = getRegSize(resultType);
  if (cls == RegClass::VGPR)
    return V_MOV_B32::create(b, loc, resultType, src);
  auto copyWord = [&](Value word, Type type) -> Value {
    if (cls == RegClass::SGPR)
      return S_MOV_B32::create(b, loc, type, word);
    Value staged =
        V_ACCVGPR_READ_B32::create(b, loc, VRegType::get(ctx, 1, 1), word);
    return V_MOV_B32::create(b, loc, type, staged);
  };
  if (size == 1)
    return copyWord(src, resultType);
  Type wordType = cls == RegClass::SGPR ? Type(SRegType::get(ctx, 1, 1))
                                        : Type(ARegType::get(ctx, 1, 1));
  SmallVector<Value> words;
  for (int64_t k = 0; k < size; ++k) {
    Value word =
        ExtractOp::create(b, loc, wordType, src, static_cast<uint64_t>(k));
    words.push_back(copyWord(word, wordType));
  }
  return PackOp::create(b, loc, resultType, words);
}

/// A virtual type of `value`'s class and size (its own type if virtual).
Type virtualTypeOf(Value value) {
  Type type = value.getType();
  if (isVirtualReg(type))
    return type;
  MLIRContext *ctx = type.getContext();
  int64_t size = getRegSize(type);
  switch (*getRegClass(type)) {
  case RegClass::VGPR:
    return VRegType::get(ctx, size, 1);
  case RegClass::SGPR:
    return SRegType::get(ctx, size, 1);
  case RegClass::AGPR:
    return ARegType::get(ctx, size, 1);
  }
  llvm_unreachable("unknown register class");
}

/// Copies the tie analysis asks for; applied before the next analysis.
struct CopyPlan {
  SmallVector<std::pair<LoopOp, unsigned>> inits;
  llvm::MapVector<Operation *, SmallVector<unsigned>> iterArgs; // per loop
  SmallVector<std::pair<YieldOp, unsigned>> yields;
  SmallVector<InsertOp> inserts;
  bool empty() const {
    return inits.empty() && iterArgs.empty() && yields.empty() &&
           inserts.empty();
  }
};

/// Builds the tie groups (SPEC.md 14.3) on `model`; with `plan`, records
/// every loop/if tie that is impossible so a copy can make it possible.
/// Order matters: results to block arguments first (always possible), then
/// if yields, iter_args, inits, and MFMA accumulators last.
void buildTies(LiveModel &model, CopyPlan *plan) {
  SmallVector<LoopOp> loops;
  SmallVector<IfOp> ifs;
  SmallVector<std::pair<Operation *, int>> mfmas; // with the tied operand
  for (auto [index, op] : llvm::enumerate(model.ops)) {
    if (auto loop = dyn_cast<LoopOp>(op))
      loops.push_back(loop);
    else if (auto ifOp = dyn_cast<IfOp>(op))
      ifs.push_back(ifOp);
    else if (int tied = model.tiedOperandAt(index);
             op->getNumResults() == 1 && tied >= 0)
      mfmas.push_back({op, tied});
  }

  auto loopArgs = [](LoopOp loop) -> Block::BlockArgListType {
    if (loop.getBody().empty())
      return {};
    return loop.getBody().getArguments();
  };

  for (LoopOp loop : loops) {
    auto args = loopArgs(loop);
    for (auto [arg, result] : llvm::zip(args, loop.getResults()))
      model.tryTie(arg, result);
  }

  for (IfOp ifOp : ifs) {
    if (ifOp.getNumResults() == 0)
      continue;
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      YieldOp yield = ifOp.getYield(*region);
      if (!yield)
        continue;
      for (auto [i, value, result] :
           llvm::enumerate(yield.getValues(), ifOp.getResults())) {
        if (!isVirtualReg(result.getType()))
          continue;
        // Only a value computed in the region itself is tied: a value from
        // outside lives across the other region too, where the other yield
        // must be written into the same register.
        bool local =
            isa<OpResult>(value) && value.getParentBlock() == &region->front();
        if (!(local && model.tryTie(value, result)) && plan)
          plan->yields.push_back({yield, static_cast<unsigned>(i)});
      }
    }
  }

  for (LoopOp loop : loops) {
    ConditionOp condition = loop.getConditionOp();
    if (!condition)
      continue;
    auto args = loopArgs(loop);
    for (auto [i, value, arg] :
         llvm::enumerate(condition.getIterArgs(), args)) {
      if (!isVirtualReg(arg.getType()) || value == arg)
        continue;
      // Upstream never ties an iter_arg produced by a sub-dword buffer load
      // (SPEC.md 14.3, "WAR hazard"); it gets a copy here too.
      Operation *def = value.getDefiningOp();
      bool subDwordLoad =
          def && isa<BUFFER_LOAD_UBYTE, BUFFER_LOAD_SBYTE, BUFFER_LOAD_USHORT,
                     BUFFER_LOAD_SSHORT>(def);
      if ((subDwordLoad || !model.tryTie(value, arg)) && plan)
        plan->iterArgs[loop].push_back(static_cast<unsigned>(i));
    }
  }

  for (LoopOp loop : loops) {
    auto args = loopArgs(loop);
    for (auto [i, init, arg] : llvm::enumerate(loop.getInitArgs(), args)) {
      if (!isVirtualReg(arg.getType()))
        continue;
      if (!model.tryTie(init, arg) && plan)
        plan->inits.push_back({loop, static_cast<unsigned>(i)});
    }
  }

  for (auto [op, tied] : mfmas) {
    if (tied >= static_cast<int>(op->getNumOperands()))
      continue;
    Value acc = op->getOperand(tied), dst = op->getResult(0);
    std::optional<RegClass> accClass = getRegClass(acc.getType());
    if (!accClass || accClass != getRegClass(dst.getType()) ||
        *accClass == RegClass::SGPR)
      continue;
    // The accumulator must not also be read as A/B: tryTie's MFMA check
    // covers operands already in a group; this covers the same value.
    if (llvm::count(op->getOperands(), acc) > 1)
      continue;
    // A precolored accumulator keeps its registers for the result too.
    if (!model.tryTie(dst, acc))
      model.tryPin(dst, acc, op);
  }

  if (plan)
    for (InsertOp insert : model.inexactInserts)
      plan->inserts.push_back(insert);
}

/// Inserts the copies of `plan` (phase between the two analyses).
void applyCopies(CopyPlan &plan) {
  for (InsertOp insert : plan.inserts) {
    OpBuilder b(insert);
    Value source = insert.getVector();
    LLVM_DEBUG(if (getPrecoloredRange(source.getDefiningOp())) llvm::dbgs()
               << DEBUG_TYPE ": insert at " << insert.getLoc()
               << " works on a copy of its precolored tuple (it is read "
                  "later, other values name its registers, or its op is in "
                  "a loop)\n");
    insert.getVectorMutable().set(
        emitCopy(b, insert.getLoc(), source, source.getType()));
  }

  for (auto [yield, i] : plan.yields) {
    auto ifOp = cast<IfOp>(yield->getParentOp());
    OpBuilder b(yield);
    Value value = yield.getValues()[i];
    yield->setOperand(
        i, emitCopy(b, yield.getLoc(), value, ifOp.getResult(i).getType()));
  }

  for (auto &[op, positions] : plan.iterArgs) {
    auto loop = cast<LoopOp>(op);
    ConditionOp condition = loop.getConditionOp();
    Block::BlockArgListType args = loop.getBody().getArguments();
    OpBuilder b(condition);
    Location loc = condition.getLoc();
    // A parallel copy into the block arguments' registers. The copy into
    // position i overwrites block argument i's register, so it is emitted
    // only once every copy reading block argument i is done; a cycle (swap,
    // rotation) is broken by saving one block argument to a temporary.
    Block *body = &loop.getBody().front();
    llvm::SmallDenseMap<unsigned, Value> sources;    // position -> source
    llvm::SmallDenseMap<unsigned, unsigned> readers; // arg -> pending reads
    auto argOf = [&](Value v) -> std::optional<unsigned> {
      auto arg = dyn_cast<BlockArgument>(v);
      if (arg && arg.getOwner() == body)
        return arg.getArgNumber();
      return std::nullopt;
    };
    for (unsigned i : positions)
      sources[i] = condition.getIterArgs()[i];
    for (unsigned i : positions)
      if (std::optional<unsigned> k = argOf(sources[i]);
          k && *k != i && sources.count(*k))
        ++readers[*k];
    SmallVector<unsigned> pending(positions.begin(), positions.end());
    while (!pending.empty()) {
      auto ready = llvm::find_if(
          pending, [&](unsigned i) { return readers.lookup(i) == 0; });
      if (ready == pending.end()) {
        // Only cycles are left: save the first one's old value.
        unsigned i = pending.front();
        Value saved = emitCopy(b, loc, args[i], virtualTypeOf(args[i]));
        for (unsigned j : pending)
          if (j != i && sources[j] == args[i])
            sources[j] = saved;
        readers[i] = 0;
        continue;
      }
      unsigned i = *ready;
      pending.erase(ready);
      Value source = sources[i];
      condition.getIterArgsMutable()[i].set(
          emitCopy(b, loc, source, args[i].getType()));
      if (std::optional<unsigned> k = argOf(source); k && *k != i)
        if (auto it = readers.find(*k); it != readers.end() && it->second)
          --it->second;
    }
  }

  for (auto [loop, i] : plan.inits) {
    OpBuilder b(loop);
    Value init = loop.getInitArgs()[i];
    loop.getInitArgsMutable()[i].set(emitCopy(
        b, loop.getLoc(), init, loop.getBody().getArgument(i).getType()));
  }
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct AllocItem {
  int32_t group;
  RegClass regClass;
  int64_t start, end; // program points: the envelope
  int64_t size, align;
  /// The points the group holds when it has gaps to lend (LifetimeHoles.h),
  /// else empty: it holds [start, end].
  ArrayRef<Interval> held;
  Interval envelope;
  ArrayRef<Interval> points() const {
    return held.empty() ? ArrayRef<Interval>(&envelope, 1) : held;
  }
};

class RematScan;

struct LinearScanPass
    : public waveasm::impl::WaveASMLinearScanBase<LinearScanPass> {
  using WaveASMLinearScanBase::WaveASMLinearScanBase;

  void runOnOperation() override;

private:
  LogicalResult checkSupported(ArrayRef<Operation *> packsAndInserts);
  bool rematerialize(ProgramOp program, const RematScan &scan);
  bool copyPackOperands(ArrayRef<Operation *> packsAndInserts);
  /// Whether allocate() reports a failure (false while a first try may
  /// still be retried).
  bool reportFailures = true;
  /// One linear scan per class into `groupBase`. With `lendGaps`, a tie
  /// group's gaps (LifetimeHoles.h) go to values living inside them.
  /// `mayLend` (when given) tells whether a group has gaps (lent or not).
  LogicalResult allocate(LiveModel &model, ArrayRef<llvm::BitVector> reserved,
                         ArrayRef<int64_t> limits,
                         ArrayRef<std::string> reservedWhy,
                         SmallVectorImpl<int64_t> &groupBase, bool lendGaps,
                         bool *mayLend = nullptr);
  /// The allocation runOnOperation keeps: see there.
  LogicalResult
  allocateKept(LiveModel &model, ArrayRef<llvm::BitVector> reserved,
               ArrayRef<int64_t> limits, ArrayRef<std::string> reservedWhy,
               ArrayRef<std::pair<int32_t, int64_t>> reservedLoads,
               SmallVectorImpl<int64_t> &groupBase);
  void reportFailure(LiveModel &model, ArrayRef<AllocItem> items,
                     const AllocItem &failed, int64_t limit,
                     int64_t reservedCount, StringRef reservedWhy);
};

LogicalResult
LinearScanPass::checkSupported(ArrayRef<Operation *> packsAndInserts) {
  // The packs and inserts of the program, in its order: the first one that
  // is not supported is reported, as a walk would find it.
  auto check = [&](Operation *op) {
    if (auto insert = dyn_cast<InsertOp>(op)) {
      if (!isVirtualReg(insert.getResult().getType()))
        return WalkResult::advance();
      if (getRegSize(insert.getValue().getType()) != 1) {
        insert.emitOpError("multi-word insert is not yet supported");
        return WalkResult::interrupt();
      }
      if (getRegClass(insert.getValue().getType()) == RegClass::AGPR ||
          getRegClass(insert.getVector().getType()) == RegClass::AGPR) {
        insert.emitOpError("insert with AGPR operands is not yet supported");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    if (auto pack = dyn_cast<PackOp>(op)) {
      Type resultType = pack.getResult().getType();
      std::optional<RegClass> cls = getRegClass(resultType);
      bool anyVirtual = isVirtualReg(resultType);
      int64_t total = 0;
      for (auto [i, element] : llvm::enumerate(pack.getElements())) {
        anyVirtual |= isVirtualReg(element.getType());
        std::optional<RegClass> elementClass = getRegClass(element.getType());
        if (cls && elementClass && *elementClass != *cls) {
          pack.emitOpError("cannot determine the register class of operand #")
              << i << " in the pack: it is " << element.getType()
              << " but the packed registers are " << resultType;
          return WalkResult::interrupt();
        }
        total += getRegSize(element.getType());
      }
      if (anyVirtual && total > getRegSize(resultType)) {
        pack.emitOpError("operands cover ")
            << total << " registers but the result " << resultType
            << " has only " << getRegSize(resultType);
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    return WalkResult::advance();
  };
  for (Operation *op : packsAndInserts)
    if (check(op).wasInterrupted())
      return failure();
  return success();
}

/// A constant move upstream rematerializes: v_mov_b32 of an immediate or an
/// SGPR, s_mov_b32 of an immediate, with a virtual result.
bool isRematerializable(Operation *op) {
  if (op->getNumResults() != 1 || !isVirtualReg(op->getResult(0).getType()))
    return false;
  if (auto mov = dyn_cast<V_MOV_B32>(op)) {
    Type srcType = mov.getSrc().getType();
    return isa<ImmType>(srcType) || getRegClass(srcType) == RegClass::SGPR;
  }
  if (auto mov = dyn_cast<S_MOV_B32>(op))
    return isa<ImmType>(mov.getSrc().getType());
  return false;
}

/// Live-range lengths (in program points, with the loop rule of SPEC.md
/// 14.2) of the rematerializable moves only: one pre-order walk, no model.
/// The same walk collects the packs and inserts (the supported-input check
/// and the pack operand copies read them; each walked the program itself).
class RematScan {
public:
  llvm::MapVector<Value, std::pair<int64_t, int64_t>> ranges; // start, end
  /// Packs and inserts, in program order.
  SmallVector<Operation *> packsAndInserts;

  void run(Block &block) {
    visit(block);
    for (auto [value, loop] : extended) {
      std::pair<int64_t, int64_t> &range = ranges[value];
      range.second = std::max(range.second, loopEnd.lookup(loop));
    }
  }

private:
  int64_t counter = 0;
  SmallVector<std::pair<int64_t, Operation *>> loops; // enclosing, outermost
  SmallVector<std::pair<Value, Operation *>> extended;
  llvm::DenseMap<Operation *, int64_t> loopEnd;

  void visit(Block &block) {
    for (Operation &op : block) {
      int64_t index = counter++;
      for (Value operand : op.getOperands()) {
        // Only constant moves are in `ranges`: skip the lookup otherwise.
        Operation *def = operand.getDefiningOp();
        if (!def || !isa<V_MOV_B32, S_MOV_B32>(def))
          continue;
        auto it = ranges.find(operand);
        if (it == ranges.end())
          continue;
        it->second.second = std::max(it->second.second, index);
        // The outermost enclosing loop that starts after the definition.
        for (auto [start, loop] : loops)
          if (start > it->second.first) {
            extended.push_back({operand, loop});
            break;
          }
      }
      if (isRematerializable(&op))
        ranges[op.getResult(0)] = {index, index};
      else if (isa<PackOp, InsertOp>(op))
        packsAndInserts.push_back(&op);
      if (op.getNumRegions() == 0)
        continue;
      bool isLoop = isa<LoopOp>(op);
      if (isLoop)
        loops.push_back({index, &op});
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          visit(inner);
      if (isLoop) {
        loops.pop_back();
        loopEnd[&op] = counter - 1;
      }
    }
  }
};

/// The outermost loop around `user` that does not contain `def`, or null.
Operation *outermostLoopWithout(Operation *user, Operation *def) {
  Operation *outermost = nullptr;
  for (Operation *p = user->getParentOp(); p && !p->isAncestor(def);
       p = p->getParentOp())
    if (isa<LoopOp>(p))
      outermost = p;
  return outermost;
}

/// Physical SGPRs some op of the program writes (a result or a loop block
/// argument of physical SGPR type, other than the ABI's precolored values
/// and the aliases pack/extract/insert).
llvm::BitVector writtenPhysicalSGPRs(ProgramOp program) {
  llvm::BitVector written;
  auto note = [&](Type type) {
    std::optional<int64_t> index = getPhysicalIndex(type);
    if (!index || getRegClass(type) != RegClass::SGPR)
      return;
    int64_t end = *index + getRegSize(type);
    if (static_cast<int64_t>(written.size()) < end)
      written.resize(end);
    written.set(*index, end);
  };
  walkDefinedValues(program.getBody(), [&](Operation *, Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || !isa<PrecoloredSRegOp, PackOp, ExtractOp, InsertOp>(def))
      note(value.getType());
    return WalkResult::advance();
  });
  return written;
}

bool LinearScanPass::rematerialize(ProgramOp program, const RematScan &scan) {
  // SPEC.md 14.4 step 3: constant moves (v_mov_b32 of an immediate or an
  // SGPR, s_mov_b32 of an immediate) that live long are cloned right before
  // each user, and the original is erased. A VGPR (or AGPR) clone is never
  // placed inside a loop its original is outside of (it would execute on
  // every iteration): the users inside such a loop share one clone placed
  // right before the outermost of those loops, so the value is live across
  // that loop only, not from its definition on.
  // (SPEC.md says only that such a clone is not placed inside the loop; the
  // one before the loop is what lets a kernel whose broadcasts are used in
  // its loops fit where upstream's does. It never lengthens a range: it
  // lives within the original's.)
  bool changed = false;
  SmallVector<Operation *> candidates;
  for (auto &[value, range] : scan.ranges)
    if (!value.use_empty() && range.second - range.first > kRematThreshold)
      candidates.push_back(value.getDefiningOp());
  // Upstream: moves from any SGPR are cloned. A physical SGPR source may be
  // rewritten between the original and a clone, so such a move stays where
  // it is (the clone must read the same value).
  std::optional<llvm::BitVector> writtenSGPRs;
  auto readsRewrittenSGPR = [&](Operation *def) {
    Type srcType = def->getOperand(0).getType();
    std::optional<int64_t> index = getPhysicalIndex(srcType);
    if (!index)
      return false;
    if (!writtenSGPRs)
      writtenSGPRs = writtenPhysicalSGPRs(program);
    int64_t end =
        std::min<int64_t>(*index + getRegSize(srcType), writtenSGPRs->size());
    return *index < end && writtenSGPRs->find_first_in(*index, end) >= 0;
  };
  for (Operation *def : candidates) {
    if (readsRewrittenSGPR(def)) {
      LLVM_DEBUG(llvm::dbgs()
                 << DEBUG_TYPE ": kept " << def->getName() << " at "
                 << def->getLoc() << ": the program writes its SGPR again\n");
      continue;
    }
    bool vector = isa<V_MOV_B32>(def);
    Value original = def->getResult(0);
    // Insertion point -> the uses its clone serves. The flag tells a clone
    // before a loop for the uses inside it from one for the loop op's own
    // operands (an init, which must die at the loop to share the block
    // argument's registers).
    llvm::MapVector<std::pair<Operation *, unsigned>,
                    SmallVector<OpOperand *, 2>>
        clones;
    for (OpOperand &use : original.getUses()) {
      Operation *user = use.getOwner();
      Operation *loop = vector ? outermostLoopWithout(user, def) : nullptr;
      clones[{loop ? loop : user, loop ? 1u : 0u}].push_back(&use);
    }
    for (auto &[point, uses] : clones) {
      OpBuilder b(point.first);
      Value clone = b.clone(*def)->getResult(0);
      for (OpOperand *use : uses)
        use->set(clone);
    }
    LLVM_DEBUG(llvm::dbgs()
               << DEBUG_TYPE ": rematerialized " << def->getName() << " at "
               << def->getLoc() << ": " << clones.size() << " clone(s), "
               << llvm::count_if(clones,
                                 [](const auto &c) { return c.first.second; })
               << " before a loop\n");
    eraseOp(def);
    changed = true;
  }
  return changed;
}

bool LinearScanPass::copyPackOperands(ArrayRef<Operation *> packsAndInserts) {
  // SPEC.md 14.2: pack operands live at result base + offset. Operands that
  // cannot (defined by extract, used twice, block arguments, precolored, ...)
  // are copied right before the pack.
  llvm::DenseSet<Value> placed;
  bool changed = false;
  // Rematerialization erases and clones constant moves only: the packs
  // collected before it are the program's.
  for (Operation *op : packsAndInserts) {
    auto pack = dyn_cast<PackOp>(op);
    if (!pack)
      continue;
    Type resultType = pack.getResult().getType();
    std::optional<RegClass> cls = getRegClass(resultType);
    if (!cls)
      continue;
    bool resultVirtual = isVirtualReg(resultType);
    for (OpOperand &operand : pack->getOpOperands()) {
      Value element = operand.get();
      // Physical operands of a physical pack are already in place.
      if (!resultVirtual && !isVirtualReg(element.getType()))
        continue;
      if (isPackableValue(element, *cls) && placed.insert(element).second)
        continue;
      OpBuilder b(pack);
      operand.set(emitCopy(b, pack.getLoc(), element, virtualTypeOf(element)));
      placed.insert(operand.get());
      changed = true;
    }
  }
  return changed;
}

void LinearScanPass::runOnOperation() {
  ProgramOp program = getOperation();
  if (program.getBody().empty() || !definesVirtualRegisters(program.getBody()))
    return; // nothing to do (e.g. a second run)
  RematScan scan;
  scan.run(program.getBody().front());
  if (failed(checkSupported(scan.packsAndInserts)))
    return signalPassFailure();
  // Loop address promotion allocated a copy of this program already.
  if (auto trial = getCachedAnalysis<TrialAllocation>())
    if (adoptTrialAllocation(
            program, trial->get(),
            {maxVGPRs, maxSGPRs, maxAGPRs, bidirectionalThreshold})) {
      // The copy's ops are the program's now: its model numbers them.
      if (std::unique_ptr<LiveModel> &copyModel = trial->get().allocatedModel) {
        copyModel->program = program;
        getAnalysis<AllocatedLiveModel>().model = std::move(copyModel);
        markAnalysesPreserved<AllocatedLiveModel>();
      }
      return;
    }

  rematerialize(program, scan);
  copyPackOperands(scan.packsAndInserts);

  // Analysis on the IR as written: which ties are impossible? A copy can
  // change what else is possible (a copy in a then region competes with a
  // value yielded by the else region), so repeat a few times; what still
  // cannot be tied afterwards keeps differing types (upstream's behaviour).
  // The first model that asks for no copies is the one to allocate on.
  // A round after copies numbers the program the previous round numbered
  // plus the copies: it takes the previous round's values over
  // (buildIntervalsAfterInsertions) instead of collecting them again (a
  // loop whose iter_args swap, as a double buffer's do, always has copies).
  std::unique_ptr<LiveModel> allocatable, previous;
  auto buildModel = [&] {
    auto analysis = std::make_unique<LiveModel>(program);
    analysis->trackPhysicalClass = RegClass::VGPR; // for VGPR compaction
    if (previous)
      analysis->buildIntervalsAfterInsertions(*previous);
    else
      analysis->buildIntervals();
    previous.reset();
    analysis->buildGroups();
    return analysis;
  };
  for (int round = 0; round < 4 && !allocatable; ++round) {
    std::unique_ptr<LiveModel> analysis = buildModel();
    CopyPlan plan;
    buildTies(*analysis, &plan);
    if (plan.empty()) {
      allocatable = std::move(analysis);
    } else {
      applyCopies(plan);
      previous = std::move(analysis);
    }
  }
  if (!allocatable) {
    allocatable = buildModel();
    buildTies(*allocatable, /*plan=*/nullptr);
  }
  LiveModel &model = *allocatable;
  // Upstream: frees an unread load's registers at once, and the value given
  // them waits for the load to land. Here they stay the load's while it may
  // land (LiveModel::reserveUnreadLoads), unless the files are then too
  // small, when the allocation is made as upstream's.
  SmallVector<std::pair<int32_t, int64_t>> reservedLoads =
      model.reserveUnreadLoads();
  if (!model.unplacedPackOperands.empty()) {
    auto [pack, i] = model.unplacedPackOperands.front();
    pack.emitOpError("cannot place operand #")
        << i << " in the pack's registers";
    return signalPassFailure();
  }
  if (!model.inexactInserts.empty()) {
    model.inexactInserts.front().emitOpError(
        "cannot update the source's registers in place");
    return signalPassFailure();
  }

  // Register files, clamped to the target so the result verifies.
  const TargetInfo &target = getTargetInfo(program.getTargetKind());
  int64_t limits[3];
  limits[classIndex(RegClass::VGPR)] =
      std::clamp<int64_t>(maxVGPRs, 0, target.maxArchVGPRs);
  limits[classIndex(RegClass::SGPR)] =
      std::clamp<int64_t>(maxSGPRs, 0, target.maxSGPRs);
  limits[classIndex(RegClass::AGPR)] =
      std::clamp<int64_t>(maxAGPRs, 0, target.maxAGPRs);

  // Reserved registers: precolored ranges (by attribute and type), every
  // other physical value (partly allocated input), v15, scalar SGPRs.
  SmallVector<llvm::BitVector, 3> reserved;
  for (RegClass cls : kClasses)
    reserved.emplace_back(limits[classIndex(cls)]);
  auto reserve = [&](RegClass cls, int64_t index, int64_t size) {
    llvm::BitVector &bits = reserved[classIndex(cls)];
    for (int64_t r = std::max<int64_t>(index, 0),
                 e = std::min<int64_t>(index + size, bits.size());
         r < e; ++r)
      bits.set(r);
  };
  auto reserveType = [&](Type type) {
    if (std::optional<int64_t> index = getPhysicalIndex(type))
      reserve(*getRegClass(type), *index, getRegSize(type));
  };
  for (Operation *op : model.ops) {
    for (Type type : op->getResultTypes())
      reserveType(type);
    if (auto loop = dyn_cast<LoopOp>(op))
      if (!loop.getBody().empty())
        for (BlockArgument arg : loop.getBody().getArguments())
          reserveType(arg.getType());
    if (std::optional<PrecoloredRange> range = getPrecoloredRange(op))
      reserve(range->cls, range->index, range->size);
  }
  // For the overflow diagnostic: where the reserved registers come from.
  std::string reservedWhy[3] = {"precolored values", "precolored values",
                                "precolored values"};
  if (kScratchVGPR < limits[classIndex(RegClass::VGPR)]) {
    reserve(RegClass::VGPR, kScratchVGPR, 1);
    reservedWhy[classIndex(RegClass::VGPR)] += ", scratch v15";
  }
  auto base = program->getAttrOfType<IntegerAttr>("scalar_sgpr_base");
  auto count = program->getAttrOfType<IntegerAttr>("scalar_sgpr_count");
  if (base && count) {
    reserve(RegClass::SGPR, base.getInt(), count.getInt());
    reservedWhy[classIndex(RegClass::SGPR)] += ", scalar_sgpr_base/count";
  }

  SmallVector<int64_t> groupBase;
  if (failed(allocateKept(model, reserved, limits, reservedWhy, reservedLoads,
                          groupBase)))
    return signalPassFailure();

  // Rewrite. Inserts that were virtual get their slot written afterwards.
  SmallVector<InsertOp> inserts;
  for (Operation *op : model.ops)
    if (auto insert = dyn_cast<InsertOp>(op))
      if (isVirtualReg(insert.getResult().getType()))
        inserts.push_back(insert);

  MLIRContext *ctx = &getContext();
  // getPhysicalType keeps this thread's types of the context (its cache).
  for (int32_t id = 0, e = static_cast<int32_t>(model.values.size()); id < e;
       ++id) {
    auto [root, offset] = model.resolve(id);
    const LiveValue &rootInfo = model.values[root];
    int64_t index = rootInfo.fixed >= 0
                        ? rootInfo.fixed + offset
                        : groupBase[model.findGroup(rootInfo.group)] + offset;
    LiveValue &info = model.values[id];
    info.value.setType(getPhysicalType(ctx, info.regClass, index, info.size));
  }

  // SPEC.md 14.4 step 8: an insert's result is its source's registers; the
  // inserted word is moved into its slot unless it already sits there.
  bool addedOps = false;
  for (InsertOp insert : inserts) {
    std::optional<int64_t> vectorIndex =
        getPhysicalIndex(insert.getResult().getType());
    std::optional<int64_t> valueIndex =
        getPhysicalIndex(insert.getValue().getType());
    if (!vectorIndex)
      continue;
    int64_t slot = *vectorIndex + static_cast<int64_t>(insert.getIndex());
    if (valueIndex && *valueIndex == slot)
      continue;
    OpBuilder b(insert);
    RegClass cls = *getRegClass(insert.getResult().getType());
    Type slotType = getPhysicalType(ctx, cls, slot, 1);
    Value moved =
        cls == RegClass::SGPR
            ? S_MOV_B32::create(b, insert.getLoc(), slotType, insert.getValue())
                  .getResult()
            : V_MOV_B32::create(b, insert.getLoc(), slotType, insert.getValue())
                  .getResult();
    DCEProtectOp::create(b, insert.getLoc(), moved);
    addedOps = true;
  }

  LLVM_DEBUG(for (auto [index, op]
                  : llvm::enumerate(model.ops)) {
    int tied = model.tiedOperandAt(static_cast<int64_t>(index));
    if (tied < 0 || tied >= static_cast<int>(op->getNumOperands()) ||
        !getPrecoloredRange(op->getOperand(tied).getDefiningOp()))
      continue;
    bool kept = op->getResult(0).getType() == op->getOperand(tied).getType();
    llvm::dbgs() << DEBUG_TYPE ": MFMA at " << op->getLoc()
                 << (kept ? ": result in its precolored accumulator's "
                            "registers\n"
                          : ": result in other registers than its precolored "
                            "accumulator (still read later, registers named "
                            "by other values, op in a loop, or A/B there)\n");
  });

  // SPEC.md 3.5: the physical register of every iter_arg, for the emitter's
  // back-edge copies (equal to the block arguments' wherever tied).
  for (Operation *op : model.ops) {
    auto loop = dyn_cast<LoopOp>(op);
    if (!loop)
      continue;
    ConditionOp condition = loop.getConditionOp();
    if (!condition)
      continue;
    SmallVector<int64_t> regs;
    for (Value value : condition.getIterArgs())
      regs.push_back(getPhysicalIndex(value.getType()).value_or(-1));
    condition->setAttr("_iterArgPhysRegs", DenseI64ArrayAttr::get(ctx, regs));
  }

  // The model's intervals hold for the allocated program while its ops are
  // the ones numbered: VGPR compaction takes it over (AllocatedLiveModel.h).
  if (!addedOps) {
    getAnalysis<AllocatedLiveModel>().model = std::move(allocatable);
    markAnalysesPreserved<AllocatedLiveModel>();
  }
}

//===----------------------------------------------------------------------===//
// Linear scan
//===----------------------------------------------------------------------===//

/// Waves per SIMD the register use of an allocation allows the program:
/// each class up to its highest reserved or allocated register.
int64_t occupancyOf(LiveModel &model, ArrayRef<llvm::BitVector> reserved,
                    ArrayRef<int64_t> groupBase, bool reservedOnly) {
  int64_t used[3];
  for (RegClass cls : kClasses)
    used[classIndex(cls)] = reserved[classIndex(cls)].find_last() + 1;
  if (!reservedOnly)
    for (auto [g, base] : llvm::enumerate(groupBase))
      if (base >= 0) {
        const TieGroup &group = model.groups[g];
        int64_t &top = used[classIndex(group.regClass)];
        top = std::max(top, base + group.size);
      }
  const TargetModel &target = TargetModel::get(model.program.getTargetKind());
  return target.getProgramOccupancy(
      model.program, used[classIndex(RegClass::VGPR)],
      used[classIndex(RegClass::AGPR)], used[classIndex(RegClass::SGPR)]);
}

LogicalResult LinearScanPass::allocateKept(
    LiveModel &model, ArrayRef<llvm::BitVector> reserved,
    ArrayRef<int64_t> limits, ArrayRef<std::string> reservedWhy,
    ArrayRef<std::pair<int32_t, int64_t>> reservedLoads,
    SmallVectorImpl<int64_t> &groupBase) {
  // Upstream: a tie group holds its registers over its whole envelope. Here
  // its gaps are lent too (LifetimeHoles.h) where that gains the program a
  // wave or makes it fit the files; elsewhere the envelope allocation is
  // kept, since fewer registers at the same occupancy gain nothing, and a
  // value given a gap may follow the last read of those registers closely
  // enough to cost a nop (a store's data) the envelope allocation had not.
  // A failure is reported as the envelope allocation meets it.
  auto attempt = [&](bool report) -> LogicalResult {
    reportFailures = false;
    bool mayLend = false;
    if (succeeded(allocate(model, reserved, limits, reservedWhy, groupBase,
                           /*lendGaps=*/false, &mayLend))) {
      if (!mayLend)
        return success();
      int64_t waves = occupancyOf(model, reserved, groupBase, false);
      // Nothing to gain when the registers do not bind.
      if (waves >= occupancyOf(model, reserved, groupBase, true))
        return success();
      SmallVector<int64_t> lentBase;
      if (succeeded(allocate(model, reserved, limits, reservedWhy, lentBase,
                             /*lendGaps=*/true)) &&
          occupancyOf(model, reserved, lentBase, false) > waves)
        groupBase.swap(lentBase);
      return success();
    }
    if (succeeded(allocate(model, reserved, limits, reservedWhy, groupBase,
                           /*lendGaps=*/true)))
      return success();
    if (report) {
      reportFailures = true;
      if (succeeded(allocate(model, reserved, limits, reservedWhy, groupBase,
                             /*lendGaps=*/false)))
        return success();
    }
    return failure();
  };
  // Unread loads' registers stay reserved unless the files are then too
  // small (LiveModel::reserveUnreadLoads).
  if (succeeded(attempt(/*report=*/reservedLoads.empty())))
    return success();
  if (reservedLoads.empty())
    return failure();
  model.releaseUnreadLoads(reservedLoads);
  return attempt(/*report=*/true);
}

/// Lowest `align`-aligned base of `size` free registers, or -1.
int64_t findBottomUp(const llvm::BitVector &used, int64_t size, int64_t align) {
  int64_t limit = used.size();
  int64_t base = 0;
  while (base + size <= limit) {
    // Skip the busy run at `base`, align, and check the window.
    int free = used.find_first_unset_in(base, limit);
    if (free < 0)
      return -1;
    base = llvm::alignTo(static_cast<uint64_t>(free), align);
    if (base + size > limit)
      return -1;
    int busy = used.find_first_in(base, base + size);
    if (busy < 0)
      return base;
    base = busy + 1;
  }
  return -1;
}

/// Highest aligned base of `size` free registers ending at or below
/// `ceiling`, or -1.
int64_t findTopDown(const llvm::BitVector &used, int64_t size, int64_t align,
                    int64_t ceiling) {
  int64_t top = std::min<int64_t>(ceiling, used.size()) - size;
  if (top < 0)
    return -1;
  for (int64_t base = top / align * align; base >= 0; base -= align)
    if (used.find_first_in(base, base + size) < 0)
      return base;
  return -1;
}

/// Peak of simultaneously live registers over `items` (each occupies its
/// size over the points it holds, ends inclusive; at equal points removals
/// come first), and the first point where it is reached.
std::pair<int64_t, int64_t> peakPressure(ArrayRef<AllocItem> items) {
  // `items` are sorted by start. A sweep over the points the items span:
  // the registers live at p rise only where an item starts, so the first
  // point reaching the peak is an item's start, as a walk over the items
  // with a heap of the active ends finds it, at a fraction of the cost.
  if (items.empty())
    return {0, 0};
  int64_t first = items.front().start, last = first;
  for (const AllocItem &item : items)
    last = std::max(last, item.end);
  SmallVector<int64_t> delta(last - first + 2, 0);
  for (const AllocItem &item : items)
    for (const Interval &held : item.points()) {
      delta[held.start - first] += item.size;
      delta[held.end - first + 1] -= item.size;
    }
  int64_t live = 0, peak = 0, point = first;
  for (int64_t p = 0, e = last - first + 1; p < e; ++p) {
    live += delta[p];
    if (live > peak) {
      peak = live;
      point = first + p;
    }
  }
  return {peak, point};
}

LogicalResult LinearScanPass::allocate(LiveModel &model,
                                       ArrayRef<llvm::BitVector> reserved,
                                       ArrayRef<int64_t> limits,
                                       ArrayRef<std::string> reservedWhy,
                                       SmallVectorImpl<int64_t> &groupBase,
                                       bool lendGaps, bool *mayLend) {
  SmallVector<AllocItem> perClass[3];
  groupBase.assign(model.groups.size(), -1);
  // The held points of the groups with gaps to lend (few: loop-carried
  // values, if results); a deque keeps the items' references valid.
  std::deque<IntervalSet> heldPoints;
  GapsToHold gapsToHold;
  if (lendGaps)
    gapsToHold = findGapsToHold(model);
  for (int32_t g = 0, e = static_cast<int32_t>(model.groups.size()); g < e;
       ++g) {
    const TieGroup &group = model.groups[g];
    if (group.parent != g || group.occupancy.empty())
      continue;
    // Pinned into precolored registers, which are reserved.
    if (group.pinned >= 0) {
      groupBase[g] = group.pinned;
      continue;
    }
    AllocItem item{g,
                   group.regClass,
                   group.occupancy.front().start >> 1,
                   group.occupancy.back().end >> 1,
                   group.size,
                   group.align,
                   {},
                   {}};
    item.envelope = {item.start, item.end};
    if (mayLend && group.occupancy.size() > 1)
      *mayLend = true;
    if (lendGaps && group.occupancy.size() > 1) {
      IntervalSet held = pointsHeldBy(group.occupancy, gapsToHold.lookup(g));
      if (held.size() > 1)
        item.held = heldPoints.emplace_back(std::move(held));
    }
    perClass[classIndex(group.regClass)].push_back(item);
  }
  int64_t span = std::max<int64_t>(1, model.ops.size());

  for (RegClass cls : kClasses) {
    SmallVector<AllocItem> &items = perClass[classIndex(cls)];
    llvm::sort(items, [](const AllocItem &a, const AllocItem &b) {
      if (a.start != b.start)
        return a.start < b.start;
      if (a.size != b.size)
        return a.size > b.size;
      if (a.align != b.align)
        return a.align > b.align;
      if (a.end != b.end)
        return a.end > b.end;
      return a.group < b.group;
    });
    int64_t limit = limits[classIndex(cls)];
    llvm::BitVector used = reserved[classIndex(cls)];
    int64_t reservedCount = used.count();

    // Bidirectional strategy (SPEC.md 14.4 step 6): VGPR tuples living
    // longer than the threshold share of the program go to the top, below
    // the peak pressure, so short ranges keep the bottom unfragmented.
    int64_t ceiling = -1;
    if (cls == RegClass::VGPR && bidirectionalThreshold > 0)
      ceiling = std::min(limit, peakPressure(items).first + reservedCount);

    // The active items by their last point: an item's registers are freed
    // once the scan passes its end. Buckets per point, not a heap: the
    // points are the program's ops, and the order in which items ending
    // before one start free their (disjoint) registers does not matter.
    int64_t lastEnd = 0;
    for (const AllocItem &item : items)
      lastEnd = std::max(lastEnd, item.end);
    SmallVector<int32_t> endingAt(lastEnd + 1, -1),
        nextEnding(items.size(), -1);
    int64_t freedUpTo = 0; // every item ending before this point is freed
    // Active items with gaps to lend are not in `used`: an item after them
    // takes their registers only where it lives inside their gaps.
    SmallVector<int32_t> activeWithGaps;
    llvm::BitVector busy;
    for (size_t i = 0; i < items.size(); ++i) {
      const AllocItem &item = items[i];
      for (; freedUpTo < item.start; ++freedUpTo)
        for (int32_t done = endingAt[freedUpTo]; done >= 0;
             done = nextEnding[done]) {
          int64_t doneBase = groupBase[items[done].group];
          used.reset(doneBase, doneBase + items[done].size);
        }
      const llvm::BitVector *taken = &used;
      if (!activeWithGaps.empty()) {
        llvm::erase_if(activeWithGaps,
                       [&](int32_t k) { return items[k].end < item.start; });
        bool copied = false;
        for (int32_t k : activeWithGaps) {
          if (!intersects(item.points(), items[k].points()))
            continue;
          if (!copied)
            busy = used;
          copied = true;
          int64_t kBase = groupBase[items[k].group];
          busy.set(kBase, kBase + items[k].size);
        }
        if (copied)
          taken = &busy;
      }
      int64_t base = -1;
      if (ceiling >= 0 && item.size > 1 &&
          (item.end - item.start) * 100 > bidirectionalThreshold * span)
        base = findTopDown(*taken, item.size, item.align, ceiling);
      if (base < 0)
        base = findBottomUp(*taken, item.size, item.align);
      if (base < 0) {
        if (reportFailures)
          reportFailure(model, items, item, limit, reservedCount,
                        reservedWhy[classIndex(cls)]);
        return failure();
      }
      groupBase[item.group] = base;
      if (!item.held.empty()) {
        activeWithGaps.push_back(static_cast<int32_t>(i));
        continue;
      }
      used.set(base, base + item.size);
      nextEnding[i] = endingAt[item.end];
      endingAt[item.end] = static_cast<int32_t>(i);
    }
  }
  return success();
}

void LinearScanPass::reportFailure(LiveModel &model, ArrayRef<AllocItem> items,
                                   const AllocItem &failed, int64_t limit,
                                   int64_t reservedCount,
                                   StringRef reservedWhy) {
  StringRef className = getRegClassName(failed.regClass);
  auto [livePeak, point] = peakPressure(items);
  int64_t peak = livePeak + reservedCount;
  Operation *at = model.ops[std::min<size_t>(point, model.ops.size() - 1)];

  // The values occupying each group live at the peak: prefer a member whose
  // own interval covers the point, the widest one.
  llvm::MapVector<int32_t, Value> shown;
  llvm::DenseSet<int32_t> liveGroups;
  for (const AllocItem &item : items)
    if (llvm::any_of(item.points(), [&](const Interval &held) {
          return held.start <= point && point <= held.end;
        }))
      liveGroups.insert(item.group);
  llvm::DenseMap<int32_t, int64_t> shownSize;
  for (int32_t id = 0, e = static_cast<int32_t>(model.values.size()); id < e;
       ++id) {
    int32_t group = model.groupOfValue(model.values[id].value);
    if (group < 0 || !liveGroups.contains(group))
      continue;
    const LiveValue &info = model.values[id];
    bool covers =
        info.live.start <= 2 * point + 1 && 2 * point <= info.live.end;
    int64_t rank = (covers ? 1 << 20 : 0) + info.size;
    auto [it, inserted] = shownSize.try_emplace(group, rank);
    if (inserted || rank > it->second) {
      it->second = rank;
      shown[group] = info.value;
    }
  }
  SmallVector<std::pair<int64_t, Value>> entries;
  for (const AllocItem &item : items)
    if (liveGroups.contains(item.group))
      if (Value value = shown.lookup(item.group))
        entries.push_back({item.size, value});
  llvm::stable_sort(
      entries, [](const auto &a, const auto &b) { return a.first > b.first; });

  InFlightDiagnostic diag = at->emitError()
                            << "Failed to allocate " << className
                            << ": kernel requires " << peak << " but only "
                            << limit << " are available";
  {
    // Names as the printed program has them. The program is valid here (it
    // was verified, and rematerialization and copies keep it so): MLIR's
    // AsmState would verify it again, only to fall back to generic names
    // for invalid IR, three quarters of a failed allocation's cost (the
    // pipelining pass's register check fails this way).
    AsmState state(model.program, OpPrintingFlags().assumeVerified());
    std::string text;
    llvm::raw_string_ostream os(text);
    os << className << "s live here: " << peak << " = " << reservedCount
       << " reserved (" << reservedWhy << ") + " << livePeak << " in "
       << entries.size() << " values: ";
    constexpr size_t kMaxShown = 48;
    for (auto [i, entry] : llvm::enumerate(entries)) {
      if (i == kMaxShown) {
        os << ", ... and " << entries.size() - kMaxShown << " more";
        break;
      }
      if (i)
        os << ", ";
      entry.second.printAsOperand(os, state);
      os << " : " << entry.second.getType() << " (" << entry.first
         << (entry.first == 1 ? " reg)" : " regs)");
    }
    diag.attachNote() << text;
  }
  if (peak <= limit)
    diag.attachNote() << "no " << failed.align << "-aligned range of "
                      << failed.size << " free " << className
                      << "s was left (the register file is fragmented by "
                         "tuple alignment and reserved registers)";
  diag.attachNote() << "Register spilling is not supported; reduce register "
                       "pressure (e.g., smaller tile sizes, fewer unrolled "
                       "iterations).";
}

} // namespace
