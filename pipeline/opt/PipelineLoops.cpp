//===- PipelineLoops.cpp - software pipelining of waveasm.loop ------------===//
//
// `waveasm-pipeline-loops` (seed 003's Pipeline). From the stage annotations
// (analysis/LoopStages.h; computed when the loop has none) a loop of S
// stages becomes
//
//   prologue:  steps 0 .. S-2, step t runs stage q of iteration t - q
//              for q <= t;
//   kernel:    a waveasm.loop whose body is one steady-state step: stage q
//              of iteration t - q for every q, in body order; it runs
//              N - S + 1 times and continues while stage 0's condition
//              (of the newest iteration) holds;
//   epilogue:  steps N .. N+S-2, stage q of iteration t - q for q > t-N.
//
// A value of iteration j defined in stage d and last read in stage u
// (a block argument read in stage s counts as the previous iteration's
// yielded value read in stage s + 1) crosses u - d step boundaries, so the
// kernel carries it in u - d iter_args, rotated on the back edge: slot o
// (d < o <= u) holds the value of the iteration that started o steps ago.
// The loop's results are the last iteration's yields, read after the
// epilogue.
//
// Trip counts: a counted loop whose count N is known (analysis/TripCount.h,
// inferred) is pipelined when N >= S, else left alone with a remark. Any
// other loop is guarded: the loop-control slice (pure scalar ops) is
// evaluated for iterations 0 .. S-2 before the loop; when every one of
// those conditions holds (N >= S) a `waveasm.if` runs the pipelined code,
// else the original loop.
//
// LDS ping/pong: when the stages put an iteration's LDS writes in an
// earlier stage than its reads (LoopStages::ldsCopies = C > 1), the loop
// first gets C rotating copies of its LDS buffers (pipeline/opt/LdsCopies.h:
// a copy base iter_arg added to each LDS address), so the base crosses
// stages like any value and each in-flight iteration works on its own
// copy. A plan that does not fit the target's LDS refuses the loop with the
// buffers and the bytes over; other reasons against copies fall back to
// one LDS stage.
//
// Automatic choice (`num-stages=0` without annotations, `unroll=0`): each
// candidate is pipelined on a copy of the program (a trial). Stages: 2 up
// to the count whose load distance covers the global-load latency at the
// loop's compiled lower bound per step (5 to 12), until the cheap estimate
// (the cycle model on the copy before allocation) of 2 stages runs at the
// loop's lower bound; each candidate is compiled with its unroll and the
// fewest cycles per wave win (a candidate's cycles over the waves its
// registers leave, but no less than the slots it holds a pipe the SIMD's
// waves share: the matrix pipe always, the VALU when that is the kernel's
// busiest unit: a gain is weighed against the occupancy it costs the same
// way for every loop; as few, the fewest cycles; a stage more must gain
// more than 1%), a remark
// naming a faster count refused for its occupancy and a chosen one that
// costs occupancy. Unroll: neededUnroll, lowered while the occupancy drops;
// with a trip count the IR gives, the steady state straight (no kernel)
// when it has fewer steps than that, or when the kernel would run at most
// twice and the straight program measures fewer cycles per wave
// (preferStraight).
// Trials are memoized per loop, a staging's step order is computed once,
// a (stages, steps) pipelined copy is made once and shared by the estimate
// and the compile that measure it, one Compiler serves every compile of the
// pass, and the chosen trial's copy becomes the program (no second
// pipelining).
//
// Kernel control: with U > 1 steps per kernel iteration and a count the IR
// does not give, the kernel goes on while the next U iterations exist;
// a counter rising below an invariant bound needs only the furthest
// compare. A kernel whose later stages store to global memory drains the
// prologue's loads at its entry (an s_waitcnt vmcnt(0)), so its counted
// waits count the steady state's queue, stores included.
//
// Barriers: the stages of a step bring their barriers together; where two
// follow each other with nothing between that touches memory, the emitted
// code keeps the later one (pipeline/opt/AdjacentBarriers.h). A kernel with
// direct-to-LDS loads whose epilogue reads LDS before a barrier gets one
// right after it (pipeline/opt/KernelExitBarrier.h), so its last barrier
// does not wait for the loads in flight.
//
// Profitability (`only-if-profitable`): each loop is pipelined on the
// program, the program compiled and measured (pipeline/CompileAndMeasure.h,
// the production backend and cycle model) before and after, and the input
// restored unless est_cycles went down (for a loop whose trip count the IR
// does not give, its cycles per iteration as written: PipelinedCycles.h);
// a remark gives both figures.
//
// Outer loops (`overlap-outer`, on by default): once its inner loop is
// pipelined, a loop holding the kernel is rotated so one iteration's
// epilogue and tail overlap the next one's head and prologue
// (pipeline/opt/OuterOverlap.h), kept when est_cycles drop (per iteration
// without a known count), with a remark either way. The inner loop's stage
// count weighs each compiled candidate's program rotated too, when the
// rotation would pay (rotatedCycles). A program that gets a kernel counts
// its waits (pipeline/CountedWaits.h), so the rotation is measured against
// a counted program and gets no credit for the attribute.
//
// Iter_args rotated by hand (a yield of another block argument or of a
// value defined outside) first get an explicit copy in the body
// (pipeline/opt/RotatedIterArgs.h), removed again when the loop is left
// alone.
//
//===----------------------------------------------------------------------===//

#include "analysis/CycleModel.h"
#include "analysis/Liveness.h"
#include "analysis/LoopBounds.h"
#include "analysis/LoopStages.h"
#include "analysis/MemoryAlias.h"
#include "analysis/TargetModel.h"
#include "analysis/TripCount.h"
#include "ir/LoopNumbering.h"
#include "ir/ThisThreadDiagnostics.h"
#include "ir/Workgroup.h"
#include "pipeline/AllocationCheck.h"
#include "pipeline/CloneInOrder.h"
#include "pipeline/CompileAndMeasure.h"
#include "pipeline/CountedWaits.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/Passes.h"
#include "pipeline/PipelinedCycles.h"
#include "pipeline/opt/AdjacentBarriers.h"
#include "pipeline/opt/ConstantIterArgs.h"
#include "pipeline/opt/DescriptorVersioning.h"
#include "pipeline/opt/DrainReadsAhead.h"
#include "pipeline/opt/EpiloguePrefetch.h"
#include "pipeline/opt/FillCopies.h"
#include "pipeline/opt/KernelExitBarrier.h"
#include "pipeline/opt/LdsCopies.h"
#include "pipeline/opt/LdsDeepening.h"
#include "pipeline/opt/LoadsAfterReads.h"
#include "pipeline/opt/LoopRewrite.h"
#include "pipeline/opt/M0AboveBarrier.h"
#include "pipeline/opt/OperandFacts.h"
#include "pipeline/opt/OuterOverlap.h"
#include "pipeline/opt/PairLdsReads.h"
#include "pipeline/opt/PrefetchAddresses.h"
#include "pipeline/opt/RemovedByCleanups.h"
#include "pipeline/opt/RotatedIterArgs.h"
#include "pipeline/opt/StepMerge.h"
#include "pipeline/opt/StepOrder.h"
#include "pipeline/opt/WaveCost.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#define DEBUG_TYPE "waveasm-pipeline-loops"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMPIPELINELOOPS
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

using Key = std::pair<Value, int>;

/// The `steps` of a trial or pipeline() (and Pipeliner::unroll) asking for
/// the steady state straight, without a kernel (a known trip count).
constexpr int kStraightSteps = -1;

/// One loop's pipelining plan and the code generator.
class Pipeliner {
public:
  Pipeliner(LoopOp loop, const LoopStages &stages)
      : loop(loop), body(loop.getBodyBlock()), st(stages),
        numStages(stages.numStages),
        cond(cast<ConditionOp>(body.getTerminator())),
        stageName(StringAttr::get(loop.getContext(), kStageAttrName)),
        clusterName(StringAttr::get(loop.getContext(), kClusterAttrName)) {}

  /// Why the loop's shape is not supported, or "".
  std::string check();
  /// Rewrites the loop (check() passed). `staticTrips` when known; else
  /// `hintedTrips`, a `trip_count` attribute the guarded kernel inherits
  /// (less the prologue's iterations).
  void rewrite(std::optional<int64_t> staticTrips,
               std::optional<int64_t> hintedTrips);
  /// Steps per kernel iteration that give every carried value its own
  /// registers (modulo variable expansion; after check()): a value defined
  /// in stage d and last read in the body at offset u is live in u - d
  /// steps at once, one more when that read comes after the definition in
  /// the step's order. With at least that many steps unrolled, each slot's
  /// yield is a value defined in the kernel body after the slot's block
  /// argument is dead, so the allocator ties the two: no rotation copy,
  /// and no copy that reads a load still in flight.
  int neededUnroll() const;

  /// The issue order of a step's ops (before check()).
  StepOrder stepOrder = StepOrder::Body;
  /// The step's ops in that order when the caller has it already (the
  /// same loop staged the same way); else check() computes it.
  SmallVector<Operation *> givenOrder;
  /// The order check() used (after check()).
  ArrayRef<Operation *> getOrder() const { return order; }
  /// The steady-state loop (after rewrite()); null when it ran straight.
  LoopOp getKernel() const { return kernel; }
  /// Whether rewrite() emitted the steady state straight, without a
  /// kernel (`unroll` kStraightSteps and a known trip count).
  bool isStraight() const { return straight; }
  /// Steps per kernel iteration (>= 1, before rewrite()), or
  /// kStraightSteps: with a known trip count, the steady state without a
  /// kernel (else one step per kernel iteration).
  int unroll = 1;

private:
  int stageOf(Operation *op) const { return stageOfOp.lookup(op); }
  int defStage(Value v) const { return stageOf(bodyOpOf(v.getDefiningOp())); }
  Operation *bodyOpOf(Operation *op) const {
    while (op && op->getBlock() != &body)
      op = op->getParentOp();
    return op;
  }
  bool isBodyResult(Value v) const {
    Operation *def = v.getDefiningOp();
    return def && bodyOpOf(def);
  }
  /// The value used for `v` by an op of the iteration `o` steps old, in a
  /// step whose values are `map` (keyed by (body value, offset)).
  Value lookup(DenseMap<Key, Value> &map, Value v, int o);
  /// Clones the ops of stages [lo, hi] (in step order) into `b`, stage q
  /// at offset q; each clone's results go to `map`.
  /// With `forwardCopies` (an epilogue step) a same-type register copy is
  /// not cloned: its result is its source (forwardedCopy).
  void emitStep(OpBuilder &b, DenseMap<Key, Value> &map, int lo, int hi,
                llvm::function_ref<bool(Operation *)> only = nullptr,
                bool forwardCopies = false);
  /// The slots of the step after the one whose values are `step`: slot o
  /// is the value of offset o - 1.
  DenseMap<Key, Value> advance(DenseMap<Key, Value> &step);
  /// The slots the kernel carries: (value, offset) for offset in (d, u].
  void computeSlots();
  /// The steady-state loop: `steps` steps per iteration. With `lookahead`
  /// (a guarded loop unrolled: steps > 1) it continues only while the
  /// next `steps` iterations all exist and carries one more iter_arg, 1
  /// when at least the next iteration exists (`more`, after the loop).
  LoopOp emitKernel(OpBuilder &b, DenseMap<Key, Value> &map,
                    std::optional<int64_t> kernelTrips, int steps,
                    bool lookahead, Value *more = nullptr);
  /// Prologue, kernel and epilogue at `b`; the loop's results. `steadySteps`
  /// (N - S + 1) when the trip count is known: its remainder modulo the
  /// unroll is peeled before the kernel. Else the kernel inherits
  /// `hintedTrips` and a remainder loop of one step per iteration, behind a
  /// `waveasm.if`, runs the last steps.
  SmallVector<Value> emitPipelined(OpBuilder &b,
                                   std::optional<int64_t> steadySteps,
                                   std::optional<int64_t> hintedTrips);
  /// The guard's condition: loop control of iterations 0 .. S+U-3 all true
  /// (the prologue and one kernel iteration run).
  Value emitGuard(OpBuilder &b);
  /// Emits the conditions of iterations first .. last, evaluated with the
  /// control slice from `absolute` (values keyed by (body value,
  /// iteration)), and hands each to `fold` (LoopRewrite.h's guard).
  void foldConditions(OpBuilder &b, DenseMap<Key, Value> &absolute, int first,
                      int last, llvm::function_ref<void(Value)> fold);
  llvm::SetVector<Operation *> controlSlice();
  /// Whether the loop goes on while a counter rising by a positive
  /// constant each iteration (block argument k + c, yielded as iter_arg k)
  /// is below a bound defined outside the loop (`s_cmp_lt_u32` or
  /// `_i32`): a true condition then implies every earlier one, as long as
  /// the counter does not wrap within one kernel iteration of `steps`
  /// steps, which holds when the bound is known to stay `steps` increments
  /// below the compare's largest value (a constant, a shifted or masked
  /// value: boundMaximum).
  bool risingExit(int steps) const;
  /// With a rising exit: the slot holding the counter the newest iteration
  /// yields, after a kernel (key (counter, 1) of the next step).
  Key remainderCounterSlot() const;
  /// With a rising exit, after a kernel (`map` its results): the newest
  /// iteration's compare on the counter it yielded, i.e. whether the next
  /// iteration exists.
  Value remainderCondition(OpBuilder &b, DenseMap<Key, Value> &map);
  /// Whether a body op after stage 0 writes global memory through a
  /// vmcnt-counted store.
  bool laterStageStore() const;

public:
  /// Why no guard can be built (the control slice is not pure), or "".
  std::string checkGuard();
  /// Every yield leaves the kernel (the guarded form yields all results).
  bool allResults = false;

private:
  LoopOp loop;
  Block &body;
  const LoopStages &st;
  int numStages;
  ConditionOp cond;
  /// Attribute names removed from every clone, uniqued once.
  StringAttr stageName, clusterName;
  /// The first kernel emitted: the steady state (not a remainder loop).
  LoopOp kernel;
  /// The steady state's N - S + 1 steps were emitted without a kernel.
  bool straight = false;
  DenseMap<Operation *, int> stageOfOp;
  /// Per yielded body value: last-use offset (u).
  DenseMap<Value, int> lastUse;
  /// Per body value read in the body at a later offset: the largest such
  /// offset and the latest step position reading it there.
  DenseMap<Value, std::pair<int, int>> bodyUse;
  /// Body ops in step order, and each one's position in it.
  SmallVector<Operation *> order;
  DenseMap<Operation *, int> positionOf;
  SmallVector<Key> slots;
  /// Iter_args yielding their own block argument (invariant through the
  /// loop): block argument k is init k throughout.
  SmallVector<bool> passThrough;
};

std::string Pipeliner::check() {
  for (auto [i, op] : llvm::enumerate(st.ops))
    stageOfOp[op] = st.stages[i];
  order = givenOrder.empty() ? computeStepOrder(st, stepOrder)
                             : std::move(givenOrder);
  for (auto [i, op] : llvm::enumerate(order))
    positionOf[op] = i;
  passThrough.assign(body.getNumArguments(), false);
  for (auto [k, v] : llvm::enumerate(cond.getIterArgs())) {
    if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == &body) {
      if (arg.getArgNumber() != k)
        return "iter_arg " + std::to_string(k) +
               " yields another block argument (a rotation)";
      passThrough[k] = true;
      continue;
    }
    if (!isBodyResult(v))
      return "iter_arg " + std::to_string(k) +
             " yields a value defined outside the loop";
  }
  if (!isBodyResult(cond.getCondition()))
    return "the condition is not computed in the loop";
  if (isa<SCCType>(cond.getCondition().getType()) == false &&
      !isa<SRegType>(cond.getCondition().getType()))
    return "the condition is neither SCC nor an SGPR";
  computeSlots();
  return "";
}

void Pipeliner::computeSlots() {
  // Last use per body value, in offsets from its own iteration.
  auto noteUse = [&](Value v, int useOffset) {
    auto [it, inserted] = lastUse.try_emplace(v, useOffset);
    if (!inserted)
      it->second = std::max(it->second, useOffset);
  };
  auto noteBodyUse = [&](Value v, int useOffset, Operation *user) {
    int pos = positionOf.lookup(user);
    auto [it, inserted] = bodyUse.try_emplace(v, useOffset, pos);
    if (inserted)
      return;
    if (useOffset > it->second.first)
      it->second = {useOffset, pos};
    else if (useOffset == it->second.first)
      it->second.second = std::max(it->second.second, pos);
  };
  for (Operation *op : st.ops) {
    int s = stageOf(op);
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        if (auto arg = dyn_cast<BlockArgument>(v)) {
          if (arg.getOwner() != &body || passThrough[arg.getArgNumber()])
            continue;
          Value yielded = cond.getIterArgs()[arg.getArgNumber()];
          noteUse(yielded, s + 1);
          noteBodyUse(yielded, s + 1, op);
        } else if (isBodyResult(v)) {
          noteUse(v, s);
          if (bodyOpOf(v.getDefiningOp()) != op)
            noteBodyUse(v, s, op);
        }
      }
    });
  }
  // Results read after the loop: the last iteration's yields, carried out
  // of the kernel when they were defined in it.
  for (auto [k, v] : llvm::enumerate(cond.getIterArgs()))
    if (!passThrough[k] && (allResults || !loop.getResult(k).use_empty()))
      noteUse(v, defStage(v) + 1);
  // Deterministic order: body order of the definitions.
  for (Operation *op : st.ops)
    for (Value r : op->getResults()) {
      auto it = lastUse.find(r);
      if (it == lastUse.end())
        continue;
      for (int o = stageOf(op) + 1; o <= it->second; ++o)
        slots.push_back({r, o});
    }
}

int Pipeliner::neededUnroll() const {
  int needed = 1;
  for (auto &[v, use] : bodyUse) {
    Operation *def = bodyOpOf(v.getDefiningOp());
    int d = stageOf(def);
    int live = use.first - d + (use.second > positionOf.lookup(def) ? 1 : 0);
    needed = std::max(needed, live);
  }
  // With LDS copies, a multiple of their count: each step's copy base is
  // then the same in every kernel iteration, and its updates and address
  // adds fold away (ConstantIterArgs.h; gemm_loop in 9 stages: 8 steps
  // instead of 7, 22.6 -> 19.5 slots per iteration).
  if (st.ldsCopies > 1)
    needed = int(llvm::alignTo(needed, st.ldsCopies));
  return needed;
}

DenseMap<Key, Value> Pipeliner::advance(DenseMap<Key, Value> &step) {
  DenseMap<Key, Value> next;
  for (const Key &slot : slots)
    next[slot] = step.lookup({slot.first, slot.second - 1});
  return next;
}

Value Pipeliner::lookup(DenseMap<Key, Value> &map, Value v, int o) {
  if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == &body) {
    unsigned k = arg.getArgNumber();
    if (passThrough[k])
      return loop.getInitArgs()[k];
    return lookup(map, cond.getIterArgs()[k], o + 1);
  }
  if (!isBodyResult(v))
    return v;
  Value found = map.lookup({v, o});
  assert(found && "a value crosses stages without a slot");
  return found;
}

/// A copy within one register class whose result has its source's type
/// (`s_mov_b32`/`v_mov_b32` of a register value: the rotation copies of
/// RotatedIterArgs.h, a body's own renames), not marked `no_cse`. In SSA
/// its result is its source, so the epilogue, straight-line code after
/// the kernel, needs no instruction for it: there a rotation by hand
/// became a chain of such copies, three SALU moves and their address adds
/// a step (the nested GEMM's K loop in 7 stages: 15 `s_mov_b32` and the
/// `v_add_u32` of each copy, which CSE cannot share while each step names
/// its own copy, before its first LDS reads). The kernel keeps its copies
/// (each unrolled step names its own registers, a back edge may need
/// one). So does the prologue: its values are the kernel's inits, and
/// forwarding them there changed the kernels the later rewrites make
/// (rotating4 padded in 5 stages 36.8 -> 39.0 slots per iteration).
static bool forwardedCopy(Operation *op) {
  return isScheduleArtifact(op) && op->getNumOperands() == 1 &&
         op->getOperand(0).getType() == op->getResult(0).getType() &&
         !op->hasAttr("no_cse");
}

void Pipeliner::emitStep(OpBuilder &b, DenseMap<Key, Value> &map, int lo,
                         int hi, llvm::function_ref<bool(Operation *)> only,
                         bool forwardCopies) {
  for (Operation *op : order) {
    int q = stageOf(op);
    if (q < lo || q > hi || (only && !only(op)))
      continue;
    if (forwardCopies && forwardedCopy(op)) {
      Value source = op->getOperand(0);
      auto arg = dyn_cast<BlockArgument>(source);
      if ((arg && arg.getOwner() == &body) || isBodyResult(source))
        source = lookup(map, source, q);
      map[{op->getResult(0), q}] = source;
      continue;
    }
    IRMapping mapping;
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        if (mapping.contains(v))
          continue;
        auto arg = dyn_cast<BlockArgument>(v);
        bool bodyArg = arg && arg.getOwner() == &body;
        // Values of other body ops, not those op defines inside itself.
        bool otherOp =
            !arg && isBodyResult(v) && bodyOpOf(v.getDefiningOp()) != op;
        if (bodyArg || otherOp)
          mapping.map(v, lookup(map, v, q));
      }
    });
    Operation *clone = b.clone(*op, mapping);
    clone->removeAttr(stageName);
    clone->removeAttr(clusterName);
    for (auto [from, to] : llvm::zip(op->getResults(), clone->getResults()))
      map[{from, q}] = to;
  }
}

/// The largest value `v` can have as an unsigned 32-bit number, where the
/// IR says (a constant, `s_lshr_b32` by a constant, `s_and_b32` with one,
/// `s_min_u32` of a bounded value, `s_add_u32` of two that cannot carry,
/// a copy); none elsewhere.
static std::optional<uint64_t> boundMaximum(Value v, int depth = 0) {
  if (std::optional<int64_t> c = getConstant32(v))
    return uint64_t(uint32_t(*c));
  Operation *def = v.getDefiningOp();
  if (!def || depth > 4 || v != def->getResult(0))
    return std::nullopt;
  if (isa<S_LSHR_B32>(def))
    if (std::optional<int64_t> c = getConstant32(def->getOperand(1)))
      return uint64_t(UINT32_MAX) >> (*c & 31);
  if (isa<S_AND_B32>(def))
    for (Value operand : def->getOperands())
      if (std::optional<int64_t> c = getConstant32(operand))
        return uint64_t(uint32_t(*c));
  if (isa<S_ADD_U32>(def)) {
    std::optional<uint64_t> a = boundMaximum(def->getOperand(0), depth + 1);
    std::optional<uint64_t> b = boundMaximum(def->getOperand(1), depth + 1);
    if (a && b && *a + *b <= uint64_t(UINT32_MAX))
      return *a + *b;
    return std::nullopt;
  }
  if (isa<S_MOV_B32>(def))
    return boundMaximum(def->getOperand(0), depth + 1);
  if (isa<S_MIN_U32>(def)) {
    std::optional<uint64_t> a = boundMaximum(def->getOperand(0), depth + 1);
    std::optional<uint64_t> b = boundMaximum(def->getOperand(1), depth + 1);
    if (a && b)
      return std::min(*a, *b);
    return a ? a : b;
  }
  return std::nullopt;
}

bool Pipeliner::risingExit(int steps) const {
  ConditionOp cond = this->cond;
  LoopOp loop = this->loop;
  Value condition = cond.getCondition();
  Operation *cmp = condition.getDefiningOp();
  if (!isa_and_nonnull<S_CMP_LT_U32, S_CMP_LT_I32>(cmp) ||
      cmp->getBlock() != &body)
    return false;
  Value counter = cmp->getOperand(0), bound = cmp->getOperand(1);
  if (loop.getBody().isAncestor(bound.getParentRegion()))
    return false;
  auto add = counter.getDefiningOp<S_ADD_U32>();
  if (!add || add->getBlock() != &body)
    return false;
  auto arg = dyn_cast<BlockArgument>(add->getOperand(0));
  std::optional<int64_t> step = getConstant32(add->getOperand(1));
  if (!arg || arg.getOwner() != &body || !step || *step <= 0)
    return false;
  // Only with a bound known to stay clear of the wrap: otherwise a counter
  // near it would compare below the bound again and the kernel would not
  // stop (bound 0xFFFFFFFF, u32).
  std::optional<uint64_t> maximum = boundMaximum(bound);
  uint64_t largest =
      isa<S_CMP_LT_I32>(cmp) ? uint64_t(INT32_MAX) : uint64_t(UINT32_MAX);
  uint64_t reach = uint64_t(std::max(steps, 1)) * uint64_t(*step);
  if (!maximum || *maximum > largest || reach > largest - *maximum)
    return false;
  return cond.getIterArgs()[arg.getArgNumber()] == counter;
}

Key Pipeliner::remainderCounterSlot() const {
  ConditionOp cond = this->cond;
  Operation *cmp = cond.getCondition().getDefiningOp();
  return {cmp->getOperand(0), 1};
}

Value Pipeliner::remainderCondition(OpBuilder &b, DenseMap<Key, Value> &map) {
  Operation *cmp = cond.getCondition().getDefiningOp();
  IRMapping mapping;
  mapping.map(cmp->getOperand(0), map.lookup(remainderCounterSlot()));
  return b.clone(*cmp, mapping)->getResult(0);
}

bool Pipeliner::laterStageStore() const {
  return llvm::any_of(st.ops, [&](Operation *op) {
    auto info = dyn_cast<InstInfoOpInterface>(op);
    return stageOf(op) > 0 && info &&
           info.getWaitCounter() == WaitCounter::VMCnt &&
           (memWrites(op) & MemGlobal);
  });
}

LoopOp Pipeliner::emitKernel(OpBuilder &b, DenseMap<Key, Value> &map,
                             std::optional<int64_t> kernelTrips, int steps,
                             bool lookahead, Value *more) {
  MLIRContext *ctx = b.getContext();
  Type sgpr = SRegType::get(ctx, 1, 1), scc = SCCType::get(ctx);
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (const Key &slot : slots) {
    inits.push_back(map.lookup(slot));
    types.push_back(slot.first.getType());
  }
  // With a rising exit the kernel's own condition is its furthest compare
  // and the remainder's (does iteration t + 1 exist?) is iteration t's
  // compare, evaluated after the kernel on the counter it leaves
  // (remainderCondition): the kernel carries no flag for it (3 SALU ops
  // per kernel iteration: the compare, a move and a select).
  bool rising = lookahead && risingExit(steps) &&
                llvm::is_contained(slots, remainderCounterSlot());
  bool carryFlag = lookahead && !rising;
  Value one, zero;
  if (carryFlag) {
    one = ConstantOp::create(b, loop.getLoc(), ImmType::get(ctx, 1), 1);
    zero = ConstantOp::create(b, loop.getLoc(), ImmType::get(ctx, 0), 0);
    inits.push_back(S_MOV_B32::create(b, loop.getLoc(), sgpr, one));
    types.push_back(sgpr);
  }
  // A global store of a later stage counts in vmcnt in the steady state
  // but not in the prologue, whose steps have none yet: the wait pass
  // joins the two at the kernel's head and counts every wait of the kernel
  // as the prologue would, so it waits for loads steps younger than the
  // one a step reads (attention #1 in 5 stages: vmcnt(4) instead of 8, 40
  // slots per kernel iteration). Draining the prologue's loads once at the
  // entry leaves the back edge's counts.
  if (laterStageStore())
    S_WAITCNT_VMCNT::create(b, loop.getLoc(), 0);
  auto kernel = LoopOp::create(b, loop.getLoc(), types, inits);
  if (!this->kernel)
    this->kernel = kernel;
  if (kernelTrips)
    kernel->setAttr(kTripCountAttrName, b.getI64IntegerAttr(*kernelTrips));
  // Loads of later iterations stay in flight across the back edge, and
  // the prologue's into the kernel: the program counts its waits too.
  markCountedWaits(kernel);
  if (steps > 1)
    kernel->setAttr(kPipelineStepsAttrName, b.getI64IntegerAttr(steps));
  Block *kb = b.createBlock(&kernel.getBody());
  DenseMap<Key, Value> step;
  for (auto [i, slot] : llvm::enumerate(slots))
    step[slot] = kb->addArgument(types[i], loop.getLoc());
  if (carryFlag)
    kb->addArgument(sgpr, loop.getLoc());
  OpBuilder kbuilder = OpBuilder::atBlockEnd(kb);
  // Steps t .. t + steps - 1; between two of them the slots move by one
  // offset, by renaming only.
  for (int i = 0; i < steps; ++i) {
    if (i)
      step = advance(step);
    emitStep(kbuilder, step, 0, numStages - 1);
  }
  // Slot o of the next kernel iteration is the value of offset o - 1 of
  // the last step.
  SmallVector<Value> next;
  for (const Key &slot : slots)
    next.push_back(step.lookup({slot.first, slot.second - 1}));
  Value c = lookup(step, cond.getCondition(), 0);
  if (lookahead) {
    // The kernel goes on only if t + 1 .. t + steps all exist.
    DenseMap<Key, Value> absolute;
    for (auto &[key, value] : step)
      if (key.second == 0)
        absolute[key] = value;
    if (rising) {
      // A counter compared below an invariant bound: iteration t + steps
      // - 1's condition implies the earlier ones, so it alone decides; the
      // other compares are dead (the counters' adds remain). Saves two
      // SALU ops per step (attention #0 in 5 stages: 152 -> 144 slots per
      // kernel iteration, bound 134).
      foldConditions(kbuilder, absolute, 1, steps - 1,
                     [&](Value each) { c = each; });
    } else {
      // The newest iteration t's condition (t + 1 exists), kept for the
      // remainder.
      Value s1 = S_MOV_B32::create(kbuilder, loop.getLoc(), sgpr, one);
      Value next1 = foldLoopCondition(kbuilder, loop.getLoc(), c, s1);
      Value all = next1;
      foldConditions(kbuilder, absolute, 1, steps - 1, [&](Value each) {
        all = foldLoopCondition(kbuilder, loop.getLoc(), each, all);
      });
      c = S_CMP_NE_U32::create(kbuilder, loop.getLoc(), scc, all, zero);
      next.push_back(next1);
    }
  }
  ConditionOp::create(kbuilder, cond.getLoc(), c, next);
  b.setInsertionPointAfter(kernel);
  map.clear();
  for (auto [i, slot] : llvm::enumerate(slots))
    map[slot] = kernel.getResult(i);
  if (more)
    *more = carryFlag ? kernel.getResults().back() : Value();
  return kernel;
}

SmallVector<Value>
Pipeliner::emitPipelined(OpBuilder &b, std::optional<int64_t> steadySteps,
                         std::optional<int64_t> hintedTrips) {
  // Prologue, in absolute iterations: (v, j) holds v of iteration j; the
  // yields of iteration -1 are the inits. A step's lookups go through a
  // view keyed by offset t - j.
  DenseMap<Key, Value> absolute;
  for (auto [k, v] : llvm::enumerate(cond.getIterArgs()))
    if (!passThrough[k])
      absolute[{v, -1}] = loop.getInitArgs()[k];
  for (int t = 0; t + 1 < numStages; ++t) {
    DenseMap<Key, Value> view;
    for (auto &[key, value] : absolute)
      view[{key.first, t - key.second}] = value;
    emitStep(b, view, 0, t);
    for (auto &[key, value] : view)
      absolute[{key.first, t - key.second}] = value;
  }
  // The kernel starts at step S-1.
  DenseMap<Key, Value> map;
  for (auto &[key, value] : absolute)
    map[{key.first, numStages - 1 - key.second}] = value;
  if (steadySteps && unroll == kStraightSteps) {
    // Known count, steady state straight (chosen by the caller: steps
    // without a kernel, each value in registers of its own). The
    // program's fill and drain keep their loads in flight as a kernel's
    // would (CountedWaits.h).
    straight = true;
    for (int64_t r = 0; r < *steadySteps; ++r) {
      emitStep(b, map, 0, numStages - 1);
      map = advance(map);
    }
    if (auto program = loop->getParentOfType<ProgramOp>())
      program->setAttr(kCountedWaitsAttrName, b.getUnitAttr());
  } else if (steadySteps) {
    // Known count: the steps that do not fill a whole kernel iteration run
    // before it, so the kernel's own condition (is there a next
    // iteration?) also says that `unroll` more steps remain.
    int steps = int(std::min<int64_t>(unroll, *steadySteps));
    for (int64_t r = 0; r < *steadySteps % steps; ++r) {
      emitStep(b, map, 0, numStages - 1);
      map = advance(map);
    }
    emitKernel(b, map, *steadySteps / steps, steps, /*lookahead=*/false);
  } else if (unroll == 1) {
    emitKernel(b, map, hintedTrips, 1, /*lookahead=*/false);
  } else {
    std::optional<int64_t> kernelTrips;
    if (hintedTrips && *hintedTrips >= unroll)
      kernelTrips = *hintedTrips / unroll;
    Value more;
    emitKernel(b, map, kernelTrips, unroll, /*lookahead=*/true, &more);
    // The last 0 .. unroll-1 steps: a loop of one step per iteration,
    // entered when the next iteration exists.
    MLIRContext *ctx = b.getContext();
    Value go;
    if (more) {
      Value zero =
          ConstantOp::create(b, loop.getLoc(), ImmType::get(ctx, 0), 0);
      go =
          S_CMP_NE_U32::create(b, loop.getLoc(), SCCType::get(ctx), more, zero);
    } else {
      go = remainderCondition(b, map);
    }
    SmallVector<Type> types;
    SmallVector<Value> passed;
    for (const Key &slot : slots) {
      types.push_back(slot.first.getType());
      passed.push_back(map.lookup(slot));
    }
    auto rest = IfOp::create(b, loop.getLoc(), types, go);
    OpBuilder thenB =
        OpBuilder::atBlockEnd(b.createBlock(&rest.getThenRegion()));
    DenseMap<Key, Value> inner = map;
    emitKernel(thenB, inner, std::nullopt, 1, /*lookahead=*/false);
    SmallVector<Value> ran;
    for (const Key &slot : slots)
      ran.push_back(inner.lookup(slot));
    YieldOp::create(thenB, loop.getLoc(), ran);
    OpBuilder elseB =
        OpBuilder::atBlockEnd(b.createBlock(&rest.getElseRegion()));
    YieldOp::create(elseB, loop.getLoc(), passed);
    b.setInsertionPointAfter(rest);
    for (auto [i, slot] : llvm::enumerate(slots))
      map[slot] = rest.getResult(i);
  }
  // Epilogue: the kernel's results are the slots of step N; step N-1+e
  // runs the stages of iterations that exist (q >= e), then every value
  // is one step older.
  for (int e = 1; e < numStages; ++e) {
    emitStep(b, map, e, numStages - 1, nullptr, /*forwardCopies=*/true);
    DenseMap<Key, Value> shifted;
    for (auto &[key, value] : map)
      shifted[{key.first, key.second + 1}] = value;
    map = std::move(shifted);
  }
  // After the last step (N+S-2) the last iteration, N-1, is S steps old.
  SmallVector<Value> results;
  for (auto [k, v] : llvm::enumerate(cond.getIterArgs())) {
    if (passThrough[k]) {
      results.push_back(loop.getInitArgs()[k]);
      continue;
    }
    results.push_back(map.lookup({v, numStages}));
  }
  return results;
}

llvm::SetVector<Operation *> Pipeliner::controlSlice() {
  // The condition's producers and, through block arguments, the producers
  // of the iter_args they read.
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work{cond.getCondition()};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == &body && !passThrough[arg.getArgNumber()])
        work.push_back(cond.getIterArgs()[arg.getArgNumber()]);
      continue;
    }
    Operation *op = v.getDefiningOp() ? bodyOpOf(v.getDefiningOp()) : nullptr;
    if (!op || !slice.insert(op))
      continue;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        work.push_back(operand);
    });
  }
  // Body order, so clones see their operands first.
  llvm::SetVector<Operation *> ordered;
  for (Operation *op : st.ops)
    if (slice.contains(op))
      ordered.insert(op);
  return ordered;
}

std::string Pipeliner::checkGuard() {
  for (Operation *op : controlSlice())
    if (op->getNumRegions() || readsMemory(op) || writesMemory(op))
      return "the loop control reads memory, so no guard can count the "
             "iterations before the loop";
  return "";
}

void Pipeliner::foldConditions(OpBuilder &b, DenseMap<Key, Value> &absolute,
                               int first, int last,
                               llvm::function_ref<void(Value)> fold) {
  llvm::SetVector<Operation *> slice = controlSlice();
  for (int j = first; j <= last; ++j) {
    // Iteration j's control slice, all of it at offset 0 (its own step).
    DenseMap<Key, Value> view;
    for (auto &[key, value] : absolute)
      view[{key.first, j - key.second}] = value;
    SmallVector<std::pair<Operation *, int>> saved;
    for (Operation *op : slice)
      saved.push_back({op, stageOfOp[op]});
    for (Operation *op : slice)
      stageOfOp[op] = 0;
    emitStep(b, view, 0, 0, [&](Operation *op) { return slice.contains(op); });
    for (auto [op, s] : saved)
      stageOfOp[op] = s;
    for (auto &[key, value] : view)
      absolute[{key.first, j - key.second}] = value;
    fold(absolute.lookup({cond.getCondition(), j}));
  }
}

Value Pipeliner::emitGuard(OpBuilder &b) {
  LoopGuardBuilder guard(b, loop.getLoc());
  DenseMap<Key, Value> absolute;
  for (auto [k, v] : llvm::enumerate(cond.getIterArgs()))
    if (!passThrough[k])
      absolute[{v, -1}] = loop.getInitArgs()[k];
  foldConditions(b, absolute, 0, numStages + unroll - 3,
                 [&](Value c) { guard.fold(b, c); });
  return guard.test(b);
}

/// The matrix pipe's passes of one iteration of `loop`: the slots each wave
/// holds the pipe the SIMD's waves share (WaveCost.h's floor).
/// The deepening remarks' words for a kernel of `steps` steps an
/// iteration; "" for the pass's own unroll (0).
static std::string stepsAnIteration(int steps) {
  return steps ? llvm::formatv(", {0} steps an iteration", steps).str() : "";
}

static int64_t mfmaPassesOf(LoopOp loop, const TargetModel &target) {
  int64_t passes = 0;
  loop.getBody().walk(
      [&](Operation *op) { passes += target.getMFMAPasses(op); });
  return passes;
}

/// One barrier where two follow (AdjacentBarriers.h) among the ops
/// [begin, end) and in the blocks nested in them, the fallback loop (the
/// input as written) excepted.
static void mergeBarriersIn(Block::iterator begin, Block::iterator end,
                            Operation *fallback) {
  Operation *before =
      begin == begin->getBlock()->begin() ? nullptr : &*std::prev(begin);
  Block *block = begin->getBlock();
  mergeAdjacentBarriers(begin, end);
  // The first op may have been an erased barrier.
  begin = before ? std::next(before->getIterator()) : block->begin();
  for (Operation &op : llvm::make_range(begin, end)) {
    if (&op == fallback)
      continue;
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        if (!nested.empty())
          mergeBarriersIn(nested.begin(), nested.end(), fallback);
  }
}

void Pipeliner::rewrite(std::optional<int64_t> staticTrips,
                        std::optional<int64_t> hintedTrips) {
  OpBuilder b(loop);
  SmallVector<Value> results;
  Operation *before = loop->getPrevNode();
  Operation *fallback = nullptr;
  if (staticTrips) {
    results = emitPipelined(b, *staticTrips - numStages + 1, std::nullopt);
  } else {
    Value guard = emitGuard(b);
    auto ifOp = IfOp::create(b, loop.getLoc(), loop.getResultTypes(), guard);
    OpBuilder thenB =
        OpBuilder::atBlockEnd(b.createBlock(&ifOp.getThenRegion()));
    std::optional<int64_t> steadySteps;
    if (hintedTrips && *hintedTrips >= numStages)
      steadySteps = *hintedTrips - numStages + 1;
    SmallVector<Value> piped = emitPipelined(thenB, std::nullopt, steadySteps);
    YieldOp::create(thenB, loop.getLoc(), piped);
    OpBuilder elseB =
        OpBuilder::atBlockEnd(b.createBlock(&ifOp.getElseRegion()));
    Operation *original = elseB.clone(*loop);
    fallback = original;
    original->walk([](Operation *op) {
      op->removeAttr(kStageAttrName);
      op->removeAttr(kClusterAttrName);
      op->removeAttr(kNumStagesAttrName);
    });
    YieldOp::create(elseB, loop.getLoc(), original->getResults());
    results.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  }
  // The emitted code: from the op after `before` up to the loop.
  Block *block = loop->getBlock();
  Block::iterator first =
      before ? std::next(before->getIterator()) : block->begin();
  if (first != loop->getIterator())
    mergeBarriersIn(first, loop->getIterator(), fallback);
  // The merge may have erased the first op (a barrier): start again.
  first = before ? std::next(before->getIterator()) : block->begin();
  // Each kernel's rotations that its steps bring back folded
  // (RotatedIterArgs.h, ConstantIterArgs.h: the LDS copy bases become
  // constants), and a barrier after each kernel whose epilogue reads LDS
  // first, so the kernel's last barrier leaves its direct-to-LDS loads in
  // flight (KernelExitBarrier.h).
  SmallVector<LoopOp> kernels;
  for (Operation &op : llvm::make_range(first, loop->getIterator()))
    if (&op != fallback)
      op.walk([&](LoopOp x) {
        if (x->hasAttr(kCountedWaitsAttrName) &&
            !(fallback && fallback->isAncestor(x)))
          kernels.push_back(x);
      });
  for (LoopOp x : kernels) {
    foldInvariantRotations(x);
    foldConstantIterArgs(x);
    hoistPairAddresses(x);
    hoistPrefetchAddresses(
        x.getBodyBlock(),
        TargetModel::get(x->getParentOfType<ProgramOp>().getTargetKind()));
    insertKernelExitBarrier(x);
  }
  for (auto [k, result] : llvm::enumerate(loop.getResults()))
    if (!result.use_empty())
      result.replaceAllUsesWith(results[k]);
  eraseOp(loop);
  // The straight code after each kernel (its drain, a deepening's last
  // iterations) issues its register loads as early as their operands and
  // the kernel's registers allow (EpiloguePrefetch.h).
  for (LoopOp x : kernels)
    hoistEpiloguePrefetch(x);
}

/// The program as it was before a loop was pipelined, to put back when the
/// result is not kept, and the copies of the loops still to visit. After a
/// restore the scan goes on with those copies: collecting the loops again
/// would also find the kernels and fallbacks that pipelining the earlier
/// loops made, shift every later index and reach the same loop again (a
/// pass that never ended on two loops, the second one refused).
struct ProgramBackup {
  OwningOpRef<ProgramOp> copy;
  SmallVector<Operation *> laterCopies;

  ProgramBackup(ProgramOp program, ArrayRef<LoopOp> later) {
    // The mapping pairs each op with its copy (as adoptModule reads it).
    IRMapping mapping;
    copy = cast<ProgramOp>(cloneInOrder(program, mapping));
    for (LoopOp l : later)
      laterCopies.push_back(mapping.lookup(l.getOperation()));
  }

  /// Puts the copy's regions and attributes into `program`; `loops[i]` (the
  /// loop not kept) is dropped from the scan's view, the loops after it
  /// become their copies.
  void restore(ProgramOp program, SmallVectorImpl<LoopOp> &loops, size_t i) {
    program.getBody().takeBody(copy->getBody());
    program->setAttrs((*copy)->getAttrDictionary());
    loops.truncate(i + 1);
    for (Operation *later : laterCopies)
      loops.push_back(cast<LoopOp>(later));
    // The loop at `i` was in the replaced region: it is not visited again,
    // and nothing may read it.
    loops[i] = LoopOp();
  }
};

struct PipelineLoopsPass
    : public waveasm::impl::WaveASMPipelineLoopsBase<PipelineLoopsPass> {
  using WaveASMPipelineLoopsBase::WaveASMPipelineLoopsBase;

  void runOnOperation() override {
    if (!parseStepOrder(stepOrder)) {
      getOperation().emitError("waveasm-pipeline-loops: order must be "
                               "'late-first', 'reads-first' or 'body', not '")
          << stepOrder << "'";
      return signalPassFailure();
    }
    if (ldsBuffers < 0 || ldsBuffers == 1 || ldsBuffers > kMaxLdsBuffers) {
      getOperation().emitError("waveasm-pipeline-loops: lds-buffers must be "
                               "0 or 2 to ")
          << kMaxLdsBuffers << ", not " << int(ldsBuffers);
      return signalPassFailure();
    }
    if (ldsSpare < 0 || ldsSpare > 1 || (ldsSpare && ldsBuffers < 4)) {
      getOperation().emitError("waveasm-pipeline-loops: lds-spare must be 0, "
                               "or 1 with lds-buffers 4 or more, not ")
          << int(ldsSpare);
      return signalPassFailure();
    }
    if (loadsAfterReads != "auto" && loadsAfterReads != "never" &&
        loadsAfterReads != "always") {
      getOperation().emitError("waveasm-pipeline-loops: loads-after-reads "
                               "must be 'auto', 'never' or 'always', not '")
          << loadsAfterReads << "'";
      return signalPassFailure();
    }
    if (versionDescriptors != "auto" && versionDescriptors != "never" &&
        versionDescriptors != "always") {
      getOperation().emitError("waveasm-pipeline-loops: version-descriptors "
                               "must be 'auto', 'never' or 'always', not '")
          << versionDescriptors << "'";
      return signalPassFailure();
    }
    if (pairLdsReads != "auto" && pairLdsReads != "never" &&
        pairLdsReads != "always") {
      getOperation().emitError("waveasm-pipeline-loops: pair-lds-reads "
                               "must be 'auto', 'never' or 'always', not '")
          << pairLdsReads << "'";
      return signalPassFailure();
    }
    if (unroll < 0 || numStages < 0) {
      getOperation().emitError("waveasm-pipeline-loops: unroll and "
                               "num-stages must not be negative");
      return signalPassFailure();
    }
    SmallVector<LoopOp> loops;
    getOperation()->walk<WalkOrder::PreOrder>(
        [&](LoopOp l) { loops.push_back(l); });
    // The loop holding the one asked for keeps its number (pre-order: the
    // pipelined code follows it), so it is found again afterwards.
    int64_t outerIndex = loopIndex >= 0 ? -2 : -1;
    if (loopIndex >= 0 && loopIndex < int64_t(loops.size()))
      if (auto parent = dyn_cast<LoopOp>(loops[loopIndex]->getParentOp()))
        outerIndex = llvm::find(loops, parent) - loops.begin();
    auto overlapAtEnd = llvm::make_scope_exit([&] {
      keepM0AboveBarriersIfFaster();
      if (overlapOuter && outerIndex != -2)
        overlapOuterLoops(outerIndex);
      keepFillAndDrainRewritesIfFaster();
    });
    std::optional<ProgramMetrics> baseline;
    // By index: a loop not kept puts the program back as it was before it
    // (ProgramBackup), and the loops still to visit become their copies.
    for (size_t i = 0; i < loops.size(); ++i) {
      LoopOp l = loops[i];
      if (loopIndex >= 0 && int64_t(i) != loopIndex)
        continue;
      if (isRegisterAllocated(l) ||
          l.getBodyBlock()
              .walk([](LoopOp) { return WalkResult::interrupt(); })
              .wasInterrupted()) {
        LLVM_DEBUG(llvm::dbgs()
                   << "loop " << i << ": allocated or not innermost\n");
        continue;
      }
      auto later = MutableArrayRef<LoopOp>(loops).drop_front(i + 1);
      ProgramOp program = getOperation();
      if (!onlyIfProfitable) {
        // Stages or steps the user chose (options or annotations) may need
        // more registers than the file holds, and so may the automatic
        // choice where it is not compiled (two stages at the estimate's
        // bound: the generated 300-op loop needs 271 VGPRs of 256): such a
        // program is not kept. The check compiles only near the files, and
        // not a choice its trial compiled.
        ProgramBackup backup(program, later);
        Location loc = l.getLoc();
        LoopOp input = l;
        deepenedUnroll = 0;
        deepenedOrder.reset();
        pairIfFaster(l);
        if (ldsBuffers != 2)
          loops[i] = l = deepenIfFaster(l);
        if (l == input)
          sinkLoadsIfFaster(l);
        if (!pipelineChoosing(l, later) || choiceCompiled)
          continue;
        std::string why = registersThatDoNotFit(program);
        if (why.empty())
          continue;
        backup.restore(program, loops, i);
        emitRemark(loc)
            << "loop not pipelined: the pipelined program does "
               "not compile: "
            << why << "; fewer stages or a smaller unroll need fewer registers";
        continue;
      }
      // Without a trip count est_cycles count one iteration: the loop's
      // cycles per iteration as written decide (PipelinedCycles.h).
      std::optional<unsigned> perIteration = perIterationComparisonLoop(l);
      if (!baseline)
        baseline = measure(program);
      if (!baseline) {
        l.emitRemark("loop not pipelined: the input does not compile, so "
                     "profitability cannot be measured");
        return;
      }
      Location loc = l.getLoc();
      // The backup and the baseline are the input before the deepening
      // too, so a deepened loop that is not faster goes back as written.
      ProgramBackup backup(program, later);
      LoopOp input = l;
      deepenedUnroll = 0;
      deepenedOrder.reset();
      pairIfFaster(l);
      if (ldsBuffers != 2)
        loops[i] = l = deepenIfFaster(l);
      bool deepened = l != input;
      if (!deepened)
        sinkLoadsIfFaster(l);
      bool pipelined = pipelineChoosing(l, later);
      if (!pipelined && !deepened)
        continue;
      std::optional<ProgramMetrics> after = measure(program);
      int64_t cyclesBefore =
          comparedCycles(*baseline, *backup.copy, perIteration);
      std::optional<int64_t> cyclesAfter;
      if (after)
        cyclesAfter = comparedCycles(*after, program, perIteration);
      if (cyclesAfter && *cyclesAfter < cyclesBefore) {
        emitRemark(loc) << (pipelined ? "loop pipelined" : "loop deepened")
                        << ": "
                        << describeComparedCycles(cyclesBefore, *cyclesAfter,
                                                  perIteration.has_value());
        baseline = after;
        continue;
      }
      // Not better: the input comes back (regions and attributes).
      backup.restore(program, loops, i);
      InFlightDiagnostic diag = emitRemark(loc)
                                << "loop not pipelined: not profitable, ";
      if (!after)
        diag << "est_cycles " << baseline->est_cycles
             << " as written, the pipelined program does not compile";
      else if (perIteration && *cyclesAfter / kComparedCyclesScale !=
                                   cyclesBefore / kComparedCyclesScale)
        diag << llvm::formatv("the loop's cycles per iteration {0:f1} as "
                              "written, {1:f1} pipelined",
                              loopCyclesOf(cyclesBefore),
                              loopCyclesOf(*cyclesAfter))
                    .str();
      else
        diag << "est_cycles " << baseline->est_cycles << " as written, "
             << after->est_cycles << " pipelined";
    }
  }

  /// The trials of this pass's choices run the pass on copies
  /// (pipelinedMetrics), on this thread: their depth, so that only the
  /// outermost run moves M0 writes (below).
  static unsigned &trialDepth() {
    static thread_local unsigned depth = 0;
    return depth;
  }

  /// In the program the pass keeps, each direct-to-LDS kernel's M0 writes
  /// above the barriers before them (M0AboveBarrier.h), kept only when the
  /// program's est_cycles drop at no cost in occupancy: the waits folded
  /// around a barrier may cost more than the slot gained. The trials leave
  /// them, so the choices compare what they did before.
  void keepM0AboveBarriersIfFaster() {
    if (trialDepth() != 0)
      return;
    ProgramOp program = getOperation();
    SmallVector<LoopOp> kernels;
    program->walk([&](LoopOp x) {
      if (x->hasAttr(kCountedWaitsAttrName) &&
          llvm::any_of(x.getBodyBlock(),
                       [](Operation &op) { return isDirectToLds(&op); }))
        kernels.push_back(x);
    });
    auto hoist = [&] {
      SmallVector<M0Move> moves;
      for (LoopOp x : kernels)
        moves.append(hoistM0AboveBarriers(x.getBodyBlock()));
      return moves;
    };
    SmallVector<M0Move> moves = hoist();
    if (moves.empty())
      return;
    std::optional<ProgramMetrics> after = measure(program);
    undoM0Moves(moves);
    std::optional<ProgramMetrics> before = measure(program);
    LLVM_DEBUG(llvm::dbgs() << "est_cycles with M0 writes above barriers: "
                            << (before ? before->est_cycles : -1) << " -> "
                            << (after ? after->est_cycles : -1) << "\n");
    if (after && before && after->est_cycles < before->est_cycles &&
        after->occupancy >= before->occupancy)
      hoist();
  }

  /// On the program kept (an outer rotation included), each where it
  /// measures faster (keepIfFaster): the fill's copies of constants
  /// forwarded (FillCopies.h), then the drain's barriers that order
  /// nothing more erased and its LDS reads a step ahead
  /// (DrainReadsAhead.h). The trials have neither, so every choice and
  /// remark is as before.
  void keepFillAndDrainRewritesIfFaster() {
    std::optional<ProgramMetrics> current;
    keepIfFaster("the fill's copies forwarded", forwardFillCopies, current);
    keepIfFaster(
        "the drain's LDS reads ahead",
        [](ProgramOp program) {
          unsigned moved = 0;
          program->walk([&](LoopOp x) {
            if (x->hasAttr(kCountedWaitsAttrName))
              moved += hoistDrainReads(x);
          });
          return moved;
        },
        current);
  }

  /// `rewrite` applied to a copy of the program kept (the pass's last
  /// rewrites, on the program it keeps) where it changed something and
  /// the program's est_cycles drop at no cost in occupancy and no loop's
  /// cycles per iteration rise. `current`: the kept program's metrics,
  /// measured once for both rewrites (nullopt: not yet).
  void keepIfFaster(llvm::StringRef what,
                    llvm::function_ref<unsigned(ProgramOp)> rewrite,
                    std::optional<ProgramMetrics> &current) {
    if (trialDepth() != 0)
      return;
    ProgramOp program = getOperation();
    OwningOpRef<ProgramOp> rewritten = cast<ProgramOp>(program->clone());
    if (rewrite(*rewritten) == 0)
      return;
    if (!current)
      current = measure(program);
    const std::optional<ProgramMetrics> &before = current;
    std::optional<ProgramMetrics> after = measure(*rewritten);
    LLVM_DEBUG(llvm::dbgs() << "est_cycles with " << what << ": "
                            << (before ? before->est_cycles : -1) << " -> "
                            << (after ? after->est_cycles : -1) << "\n");
    if (!after || !before || after->est_cycles >= before->est_cycles ||
        after->occupancy < before->occupancy ||
        after->loops.size() != before->loops.size())
      return;
    // The kernels' steps too: the rewrites touch only the code around
    // them, but the allocation that follows may move a kernel's waits
    // (the preshuffle's fill copies forwarded: 160 -> 163 a kernel
    // iteration for 4 fewer slots in all).
    for (auto [a, b] : llvm::zip(after->loops, before->loops))
      if (a.est_cycles_per_iter > b.est_cycles_per_iter)
        return;
    program.getBody().takeBody(rewritten->getBody());
    current = std::move(after);
  }

  /// Rotates the loops holding a pipelined kernel (the one numbered
  /// `only`, or every one at -1) so that one iteration's epilogue and tail
  /// overlap the next one's head and prologue (OuterOverlap.h), kept only
  /// when the program's est_cycles drop; a remark either way.
  void overlapOuterLoops(int64_t only) {
    ProgramOp program = getOperation();
    auto collect = [&] {
      SmallVector<LoopOp> all;
      program->walk<WalkOrder::PreOrder>([&](LoopOp l) { all.push_back(l); });
      return all;
    };
    // Later loops first: a rotation renumbers only the loops after it.
    for (int64_t i = int64_t(collect().size()) - 1; i >= 0; --i) {
      if (only >= 0 && i != only)
        continue;
      SmallVector<LoopOp> loops = collect();
      LoopOp outer = loops[i];
      if (!holdsInnerRegion(outer) || isRegisterAllocated(outer))
        continue;
      Location loc = outer.getLoc();
      std::string why = checkOuterOverlap(outer);
      DescriptorVersioning plan;
      if (versionDescriptors == "never")
        plan.failure = "version-descriptors=never";
      else
        plan = planDescriptorVersioning(outer);
      // A loop the check would help but cannot be built for says why.
      if (!plan.ok() && plan.loadsBehind)
        emitRemark(loc) << "outer loop not versioned on its descriptors: "
                        << plan.failure;
      if (!why.empty() && !plan.ok()) {
        emitRemark(loc) << "outer loop not rotated: " << why;
        continue;
      }
      // Without a trip count est_cycles count one iteration (and the
      // rotation's peeled tile looks like a loss): the loop's cycles per
      // iteration decide then (the rotated loop keeps its number).
      bool perIteration =
          getTripCount(outer).source != TripCountSource::Inferred;
      auto cost = [&](const ProgramMetrics &m) {
        if (!perIteration)
          return m.est_cycles;
        return size_t(i) < m.loops.size() ? m.loops[i].est_cycles_per_iter
                                          : std::numeric_limits<int64_t>::max();
      };
      std::optional<ProgramMetrics> before = measure(program);
      // The loop as written, for the versioning below (it versions the
      // loop before any rotation: each copy is rotated on its own).
      std::optional<ProgramBackup> unrotated;
      if (plan.ok())
        unrotated.emplace(program, ArrayRef<LoopOp>{});
      std::optional<ProgramMetrics> decided = before;
      bool rotated = false;
      const char *what = perIteration ? "cycles per iteration " : "est_cycles ";
      if (!why.empty()) {
        emitRemark(loc) << "outer loop not rotated: " << why;
      } else {
        ProgramBackup backup(program, {});
        overlapOuterIterations(outer,
                               &TargetModel::get(program.getTargetKind()));
        std::optional<ProgramMetrics> after = measure(program);
        if (before && after && cost(*after) < cost(*before)) {
          emitRemark(loc) << "outer loop rotated: one iteration's epilogue "
                             "overlaps the next one's prologue, "
                          << what << cost(*before) << " -> " << cost(*after);
          rotated = true;
          decided = after;
        } else {
          backup.restore(program, loops, i);
          InFlightDiagnostic diag =
              emitRemark(loc) << "outer loop not rotated: not profitable, ";
          if (!before || !after)
            diag << "the " << (before ? "rotated" : "input")
                 << " program does not compile";
          else
            diag << what << cost(*before) << " as written, " << cost(*after)
                 << " rotated";
        }
      }
      if (plan.ok())
        versionOuterLoop(i, *unrotated, decided, rotated, perIteration, cost);
    }
  }

  /// Versions outer loop `i` on its precolored descriptors being apart
  /// (DescriptorVersioning.h) when `version-descriptors` forces it or, at
  /// auto, when the program with the check and the copies (the fast copy
  /// rotated where it can be, the slow one as the rotation just decided)
  /// measures fewer than `decided`, the program so far: est_cycles of its
  /// likely branch (the cycle model follows `waveasm.likely`), the check
  /// included; per iteration (no trip count), the fast copy's cycles per
  /// iteration plus the check's slots, as if paid every iteration. A
  /// remark says what was versioned, why and both figures.
  void
  versionOuterLoop(int64_t i, ProgramBackup &unrotated,
                   const std::optional<ProgramMetrics> &decided,
                   bool rotateSlow, bool perIteration,
                   llvm::function_ref<int64_t(const ProgramMetrics &)> cost) {
    ProgramOp program = getOperation();
    SmallVector<LoopOp> loops;
    program->walk<WalkOrder::PreOrder>([&](LoopOp l) { loops.push_back(l); });
    Location loc = loops[i].getLoc();
    ProgramBackup kept(program, {});
    unrotated.restore(program, loops, i);
    loops.clear();
    program->walk<WalkOrder::PreOrder>([&](LoopOp l) { loops.push_back(l); });
    // The caller's plan read the program before this restore: planned
    // again on the loop as written (the same loop, the same answer).
    DescriptorVersioning again = planDescriptorVersioning(loops[i]);
    if (!again.ok())
      return kept.restore(program, loops, i);
    VersionedLoop v = versionLoop(loops[i], again);
    const TargetModel *target = &TargetModel::get(program.getTargetKind());
    bool fastRotated = checkOuterOverlap(v.fast).empty();
    if (fastRotated)
      overlapOuterIterations(v.fast, target);
    if (rotateSlow)
      overlapOuterIterations(v.slow, target);
    // Both copies rotated start with the same peeled tile: its loads go
    // ahead of the check, which then issues under their latency.
    hoistSharedHead(v);
    std::optional<ProgramMetrics> after = measure(program);
    auto costOf = [&](const ProgramMetrics &m) {
      return cost(m) + (perIteration ? int64_t(v.checkSlots) : 0);
    };
    std::string figures;
    if (decided && after)
      figures =
          llvm::formatv("{0}{1} -> {2} in the likely branch ({3} the "
                        "check's {4} slots)",
                        perIteration ? "cycles per iteration " : "est_cycles ",
                        cost(*decided), costOf(*after),
                        perIteration ? "plus" : "with", v.checkSlots)
              .str();
    bool faster = decided && after && costOf(*after) < cost(*decided);
    if (versionDescriptors == "always" || faster) {
      emitRemark(loc) << "outer loop versioned: " << again.loadsBehind
                      << " load" << (again.loadsBehind == 1 ? "" : "s")
                      << " of its body stay behind its stores only because "
                         "their buffer descriptors are precolored; a "
                         "run-time check ("
                      << again.describe()
                      << ") selects a copy whose loads may pass the stores"
                      << (fastRotated ? " (rotated)" : "")
                      << ", else the loop as written"
                      << (rotateSlow ? " (rotated)" : "") << "; "
                      << (figures.empty() ? std::string("not measured")
                                          : figures);
      return;
    }
    kept.restore(program, loops, i);
    InFlightDiagnostic diag = emitRemark(loc)
                              << "outer loop not versioned on its descriptors ("
                              << again.describe() << "): not profitable, ";
    if (!decided || !after)
      diag << "the " << (decided ? "versioned" : "input")
           << " program does not compile";
    else
      diag << figures;
  }

  /// `l` with its two-buffer LDS rotation made deeper
  /// (pipeline/opt/LdsDeepening.h) when `lds-buffers` forces it or, at 0,
  /// to the 3 or 4 buffers (or 5 or 6 with one spare) whose program, pipelined
  /// with this pass's options, measures the fewest est_cycles, fewer than the
  /// program pipelined as it is (the rewrite needs a trip count known from the
  /// IR, so the whole program's figure counts prologue and epilogue; on a tie
  /// the fewer buffers, which cost less LDS and occupancy). A remark gives
  /// the figures and the occupancy lost. Stages written for the body stay
  /// its own: such a loop is left alone.
  ///
  /// Forced or chosen, a buffer count is pipelined the same way: its loads
  /// in body order and after the reads (LdsDeepening.h loadsAfterReads)
  /// are both measured and the one with fewer est_cycles kept, so
  /// `lds-buffers=6 lds-spare=1` gives what the automatic choice of those
  /// buffers gives (the direct mxfp4 loop in 5 stages took the deepening's
  /// own default, loads after the reads: 1905 est_cycles, where the choice
  /// keeps body order, 1876).
  LoopOp deepenIfFaster(LoopOp l) {
    deepenedUnroll = 0;
    deepenedOrder.reset();
    if (hasLoopStages(l) && numStages == 0)
      return l;
    int forced = ldsBuffers >= 3 ? int(ldsBuffers) : 0;
    LdsDeepening plan = planLdsDeepening(l, forced, forced ? ldsSpare : 0);
    if (!plan.ok()) {
      // Forced buffers the loop cannot take are said (8 of rotating4's 9
      // KiB buffers are over gfx950's LDS); unforced, most loops have no
      // rotation to deepen, and that goes unsaid.
      if (forced)
        emitRemark(l.getLoc())
            << "LDS rotation not deepened (lds-buffers=" << forced
            << (ldsSpare ? " lds-spare=1" : "") << "): " << plan.failure;
      LLVM_DEBUG(llvm::dbgs()
                 << "LDS rotation not deepened: " << plan.failure << "\n");
      return l;
    }
    Location loc = l.getLoc();
    std::optional<ProgramMetrics> asIs;
    if (!forced) {
      asIs = pipelinedMetrics(l, 0);
      // What the loop gets when it is not deepened: sinkLoadsIfFaster may
      // then issue its loads after its reads (rotating4 at 128 K steps in
      // 5 stages: 6740 in body order, 5704 so; a 5-buffer deepening at
      // 5931 beat only the first).
      if (loadsAfterReads != "never" && planLoadsAfterReads(l).ok()) {
        std::optional<ProgramMetrics> sunk =
            pipelinedMetrics(l, 0, nullptr, /*loadsAfterReads=*/true);
        if (loadsAfterReads == "always" ||
            (sunk && (!asIs || sunk->est_cycles < asIs->est_cycles)))
          asIs = std::move(sunk);
      }
    }
    // Weighed per wave as the stage count is (WaveCost.h): at another
    // occupancy than the best so far, a candidate must win per wave. The
    // matrix pipe's passes over the loop's trips floor every candidate
    // alike (each runs the same MFMAs). At the same occupancy, fewer
    // est_cycles (a spare buffer: by more than 1%, see below). mxfp4 direct
    // in 2 stages: 6 buffers with a spare, 2412 at 3 waves, against 4
    // buffers, 2455 at 5 (804 against 491 cycles per wave).
    const TargetModel &target =
        TargetModel::get(l->getParentOfType<ProgramOp>().getTargetKind());
    double matrixPipe = double(mfmaPassesOf(l, target)) *
                        double(std::max<int64_t>(plan.trips, 1));
    auto cost = [&](const ProgramMetrics &m) {
      return WaveCost{double(m.est_cycles), m.occupancy, matrixPipe};
    };
    auto better = [&](const ProgramMetrics &m, const ProgramMetrics &other,
                      bool spareCosts) {
      if (m.occupancy <= 0 || other.occupancy <= 0 ||
          m.occupancy == other.occupancy)
        return spareCosts ? m.est_cycles * 100 < other.est_cycles * 99
                          : m.est_cycles < other.est_cycles;
      return cost(m).beats(cost(other), kStageGain);
    };
    // Forced: the buffers asked for. Else the buffer counts without a spare
    // buffer up to two more than the loop rotates (R), then R + 3 up to
    // kMaxLdsBuffers with one (for two buffers 5 to 8: the loads 3 to 6
    // steps ahead, the barriers free of the previous step's reads; R + 2
    // with one runs them as far ahead as R + 1 without) where LDS allows
    // R + 2.
    SmallVector<std::pair<int, int>> configs;
    if (forced) {
      configs.push_back({plan.buffers, plan.spare});
    } else {
      for (int buffers = plan.rotation + 1; buffers <= plan.buffers; ++buffers)
        configs.push_back({buffers, 0});
      if (plan.buffers == plan.rotation + 2)
        for (int buffers = plan.rotation + 3; buffers <= kMaxLdsBuffers;
             ++buffers)
          configs.push_back({buffers, 1});
    }
    // Per buffer count, the loads in body order and, where possible, after
    // the reads (LdsDeepening.h loadsAfterReads); a tie keeps body order.
    // Each with the pass's unroll and, where that is automatic, with one
    // step per buffer: the kernel's rotation then comes back to itself
    // every iteration and its copies fold (RotatedIterArgs.h
    // foldInvariantRotations), which the automatic unroll (the steps the
    // carried values need) does not ask for. The preshuffled loop in 5
    // stages, 7 buffers with a spare: 31.7 slots a step at the automatic 6
    // steps, 24.3 at 7.
    //
    // With a spare buffer and the loads in body order, and no `order` given,
    // the late-first step order is also measured as reads-first
    // (StepReadsFirst.h): each stage's LDS reads ahead of the load the body
    // issues before them, the load right after. The preshuffled mxfp4 loop,
    // 7 buffers, one spare: 173 -> 165 slots per 7-step kernel iteration,
    // 1427 -> 1382 est_cycles, 4 waves either way (the direct mxfp4 loop's
    // 6 buffers measure 1468 so, 1452 late-first: late-first kept).
    StepOrder passOrder = *parseStepOrder(stepOrder);
    // Every candidate measured; the kept one (`best`) and the one of fewest
    // est_cycles (`fastest`, named when its occupancy loses it) by index.
    struct Measured {
      ProgramMetrics metrics;
      int buffers, spare;
      bool afterReads;
      StepOrder order;
      int steps;
      std::shared_ptr<PipelinedProgram> copy;
    };
    std::vector<Measured> measured;
    std::optional<size_t> best, fastest;
    // Reads-first second, unless given (it would measure each twice).
    SmallVector<StepOrder, 2> candidateOrders{passOrder};
    if (passOrder != StepOrder::ReadsFirst)
      candidateOrders.push_back(StepOrder::ReadsFirst);
    for (auto [buffers, spare] : configs)
      for (bool afterReads : {false, true})
        for (StepOrder order : candidateOrders)
          for (int steps : {0, buffers}) {
            if (steps && unroll != 0)
              continue;
            if (order != passOrder &&
                (stepOrder.hasValue() || afterReads || !spare))
              continue;
            LdsDeepening candidate = planLdsDeepening(l, buffers, spare);
            if (!candidate.ok() ||
                (afterReads && !canIssueLoadsAfterReads(candidate)))
              continue;
            std::shared_ptr<PipelinedProgram> copy;
            std::optional<ProgramMetrics> m =
                pipelinedMetrics(l, buffers, &copy, afterReads, spare,
                                 std::nullopt, steps, order);
            LLVM_DEBUG(llvm::dbgs()
                       << "est_cycles pipelined with " << buffers
                       << " LDS buffers" << (spare ? ", one spare" : "")
                       << (afterReads ? ", loads after reads" : "")
                       << (order != passOrder ? ", reads first" : "")
                       << (steps ? ", one step per buffer" : "") << ": "
                       << (m ? m->est_cycles : -1) << "\n");
            // A spare buffer costs LDS (and so occupancy) for the barrier's
            // drain alone: only for a gain above 1%, the stage count's rule
            // (forced, it is the only count).
            bool spareCosts = spare && !forced;
            if (!m)
              continue;
            if (!fastest ||
                m->est_cycles < measured[*fastest].metrics.est_cycles)
              fastest = measured.size();
            if (!best || better(*m, measured[*best].metrics, spareCosts))
              best = measured.size();
            measured.push_back({*m, buffers, spare, afterReads, order, steps,
                                std::move(copy)});
          }
    if (forced) {
      // The user vouches for the buffers: deepened even when neither order
      // compiles here (the pass then pipelines the rewrite as it is).
      if (best) {
        plan.loadsAfterReads = measured[*best].afterReads;
        deepenedUnroll = measured[*best].steps;
        if (measured[*best].order != passOrder)
          deepenedOrder = measured[*best].order;
      }
      emitRemark(loc) << "LDS rotation deepened to " << plan.buffers
                      << " buffers (lds-buffers=" << forced
                      << (plan.spare ? ", one spare" : "") << ")"
                      << (plan.loadsAfterReads ? ", loads after the reads" : "")
                      << (deepenedOrder ? ", reads first" : "")
                      << stepsAnIteration(deepenedUnroll);
      deepenedCopy = best ? measured[*best].copy : nullptr;
      return applyLdsDeepening(plan);
    }
    if (best) {
      // The 1% a spare buffer must gain keeps a candidate whose program is
      // no slower than the kept one but whose kernel runs faster: such a
      // candidate (the same occupancy, no more est_cycles, and more than
      // 1% fewer cycles per input iteration, kStageGain) is kept instead,
      // the fastest kernel of them. The program's figure does not tell
      // them apart; the kernel is what a longer trip count repeats. The
      // preshuffled mxfp4 loop with each step's B-load soffset sum after
      // its DMA: 6 buffers in body order, 1386 est_cycles at 26.3 slots
      // per input iteration, against 7 buffers reads-first, 1379 at 23.4,
      // which the 1% rule refused.
      std::optional<unsigned> number = getLoopNumber(l);
      auto perIteration = [&](const Measured &c) -> std::optional<double> {
        if (!number || !c.copy)
          return std::nullopt;
        auto programs = c.copy->module->getOps<ProgramOp>();
        if (programs.empty())
          return std::nullopt;
        return cyclesPerInputIteration(c.metrics, *programs.begin(), *number);
      };
      const Measured &kept = measured[*best];
      std::optional<double> keptPerIteration = perIteration(kept);
      std::optional<size_t> steadier;
      double fewest = keptPerIteration.value_or(0);
      for (size_t i = 0; keptPerIteration && i < measured.size(); ++i) {
        const Measured &c = measured[i];
        if (i == *best || c.metrics.occupancy != kept.metrics.occupancy ||
            c.metrics.est_cycles > kept.metrics.est_cycles)
          continue;
        std::optional<double> cycles = perIteration(c);
        if (cycles && *cycles < *keptPerIteration * kStageGain &&
            *cycles < fewest) {
          fewest = *cycles;
          steadier = i;
        }
      }
      if (steadier) {
        const Measured &c = measured[*steadier];
        LLVM_DEBUG(llvm::dbgs()
                   << "kept " << c.buffers << " LDS buffers"
                   << (c.afterReads ? ", loads after reads" : "")
                   << (c.order != passOrder ? ", reads first" : "")
                   << " for its kernel: " << fewest << " against "
                   << *keptPerIteration << " per input iteration\n");
        best = steadier;
      }
    }
    LLVM_DEBUG(llvm::dbgs() << "est_cycles pipelined with 2 LDS buffers: "
                            << (asIs ? asIs->est_cycles : -1) << "\n");
    bool deepens =
        best && (!asIs || better(measured[*best].metrics, *asIs, false));
    if (const ProgramMetrics *kept = deepens ? &measured[*best].metrics
                                     : asIs  ? &*asIs
                                             : nullptr;
        kept && fastest) {
      const Measured &f = measured[*fastest];
      if (f.metrics.est_cycles < kept->est_cycles &&
          f.metrics.occupancy < kept->occupancy &&
          // Only where it is more per wave, as the remark says (both at the
          // pipe's floor, the fastest lost by the 1% rule instead).
          cost(f.metrics).perWave() > cost(*kept).perWave())
        emitLostOccupancy(loc, f.metrics, f.buffers, f.spare, f.steps,
                          f.order != passOrder, *kept, cost(f.metrics),
                          cost(*kept));
    }
    if (!deepens)
      return l;
    const Measured &chosen = measured[*best];
    if (chosen.buffers != plan.buffers || chosen.spare != plan.spare)
      plan = planLdsDeepening(l, chosen.buffers, chosen.spare);
    plan.loadsAfterReads = chosen.afterReads;
    deepenedUnroll = chosen.steps;
    if (chosen.order != passOrder)
      deepenedOrder = chosen.order;
    InFlightDiagnostic diag =
        emitRemark(loc) << "LDS rotation deepened to " << chosen.buffers
                        << " buffers" << (chosen.spare ? ", one spare" : "")
                        << (chosen.afterReads ? ", loads after the reads" : "")
                        << (deepenedOrder ? ", reads first" : "")
                        << stepsAnIteration(chosen.steps)
                        << ": est_cycles pipelined "
                        << (asIs ? std::to_string(asIs->est_cycles) : "?")
                        << " -> " << chosen.metrics.est_cycles << ", lds_size "
                        << plan.ldsBefore << " -> " << plan.ldsAfter;
    if (asIs && chosen.metrics.occupancy < asIs->occupancy)
      diag << ", occupancy " << asIs->occupancy << " -> "
           << chosen.metrics.occupancy << " waves";
    diag.report();
    deepenedCopy = chosen.copy;
    return applyLdsDeepening(plan);
  }

  /// The remark for a deepening faster than the kept program but refused
  /// for the occupancy it costs.
  void emitLostOccupancy(Location loc, const ProgramMetrics &fastest,
                         int buffers, int spare, int steps, bool readsFirst,
                         const ProgramMetrics &kept,
                         const WaveCost &fastestCost,
                         const WaveCost &keptCost) {
    std::string unrolled = stepsAnIteration(steps);
    std::string options = spare ? " lds-spare=1" : "";
    if (steps)
      options += llvm::formatv(" unroll={0}", steps).str();
    if (readsFirst) {
      unrolled = ", reads first" + unrolled;
      options += " order=reads-first";
    }
    emitRemark(loc) << llvm::formatv(
        "LDS rotation not deepened to {0} buffers{1}{9}: est_cycles {2} at "
        "{3} waves against {4} at {5} is more cycles per wave ({6:F1} "
        "against {7:F1}; lds-buffers={0}{8} forces it)",
        buffers, spare ? ", one spare" : "", fastest.est_cycles,
        fastest.occupancy, kept.est_cycles, kept.occupancy,
        fastestCost.perWave(), keptCost.perWave(), options, unrolled);
  }

  /// Whether `l` is pipelined with its ds_read_b64 pairs read as
  /// ds_read2_b64 (PairLdsReads.h): always, never, or at auto where the
  /// program pipelined so (with this pass's options) measures fewer
  /// est_cycles than without (a remark gives both). A pair issues its
  /// second read early, which lengthens a fragment's life and changes the
  /// step order: the double buffer gains (36.5 -> 33.8 slots per
  /// iteration).
  void pairIfFaster(LoopOp l) {
    pairNow = pairLdsReads == "always";
    // The gain is the barrier's LDS drain starting earlier: a single-wave
    // workgroup's barrier waits for no LDS access (ir/Workgroup.h), so
    // there a pair only lengthens a fragment's life (gemm_loop 19.5 ->
    // 19.2 but the triple buffer, whose outer loop is then rotated, 18.3 ->
    // 21.0 slots per iteration in the whole program).
    if (pairLdsReads != "auto" || !hasLdsReadPairs(l) ||
        isDeclaredSingleWave(l->getParentOfType<ProgramOp>()))
      return;
    std::optional<ProgramMetrics> unpaired =
        pipelinedMetrics(l, 0, nullptr, false, 0, /*pair=*/false);
    std::shared_ptr<PipelinedProgram> pairedCopy;
    std::optional<ProgramMetrics> paired =
        pipelinedMetrics(l, 0, &pairedCopy, false, 0, /*pair=*/true);
    LLVM_DEBUG(llvm::dbgs()
               << "est_cycles pipelined, reads unpaired: "
               << (unpaired ? unpaired->est_cycles : -1)
               << ", paired: " << (paired ? paired->est_cycles : -1) << "\n");
    pairNow =
        paired && (!unpaired || paired->est_cycles < unpaired->est_cycles);
    if (!pairNow)
      return;
    emitRemark(l.getLoc())
        << "ds_read_b64 pairs read as ds_read2_b64: est_cycles pipelined "
        << (unpaired ? std::to_string(unpaired->est_cycles) : "?") << " -> "
        << paired->est_cycles;
    // That copy is the loop pipelined with its pairs, as the choice would
    // pipeline it again (its whole stage and unroll search: a third of the
    // pass's cost on the double buffer): pipelineChoosing adopts it, unless
    // the LDS deepening or the loads after the reads win after this.
    deepenedCopy = std::move(pairedCopy);
  }

  /// `l`'s direct-to-LDS loads issued after its LDS reads
  /// (pipeline/opt/LoadsAfterReads.h) when `loads-after-reads` is always
  /// or, at auto, when the program pipelined with this pass's options that
  /// way measures fewer est_cycles than in body order (a remark gives both).
  /// Stages written for the body stay its own: such a loop is left alone.
  void sinkLoadsIfFaster(LoopOp l) {
    if (loadsAfterReads == "never" || (hasLoopStages(l) && numStages == 0))
      return;
    LoadsAfterReads plan = planLoadsAfterReads(l);
    if (!plan.ok()) {
      LLVM_DEBUG(llvm::dbgs() << "loads not moved: " << plan.failure << "\n");
      return;
    }
    Location loc = l.getLoc();
    if (loadsAfterReads == "always") {
      emitRemark(loc) << "direct-to-LDS loads issued after the LDS reads "
                         "(loads-after-reads=always)";
      // A copy kept by an earlier step (the paired reads') is of the loop
      // before this rewrite: adopting it would drop the rewrite.
      deepenedCopy.reset();
      applyLoadsAfterReads(plan);
      return;
    }
    std::shared_ptr<PipelinedProgram> sunkCopy;
    std::optional<ProgramMetrics> asIs = pipelinedMetrics(l, 0);
    std::optional<ProgramMetrics> sunk =
        pipelinedMetrics(l, 0, &sunkCopy, /*loadsAfterReads=*/true);
    LLVM_DEBUG(llvm::dbgs()
               << "est_cycles pipelined, loads in body order: "
               << (asIs ? asIs->est_cycles : -1) << ", after the reads: "
               << (sunk ? sunk->est_cycles : -1) << "\n");
    if (!sunk || (asIs && sunk->est_cycles >= asIs->est_cycles))
      return;
    emitRemark(loc) << "direct-to-LDS loads issued after the LDS reads: "
                       "est_cycles pipelined "
                    << (asIs ? std::to_string(asIs->est_cycles) : "?") << " -> "
                    << sunk->est_cycles;
    applyLoadsAfterReads(plan);
    deepenedCopy = std::move(sunkCopy);
  }

  /// A program pipelined on a copy (pipelinedMetrics): its module, the
  /// mapping of the program's ops into it, and the remarks the pass gave
  /// there.
  struct PipelinedProgram {
    OwningOpRef<ModuleOp> module;
    IRMapping mapping;
    SmallVector<std::pair<Location, std::string>> remarks;
  };
  /// The deepened (or reordered) and pipelined copy deepenIfFaster (or
  /// sinkLoadsIfFaster) chose: pipelineChoosing adopts it instead of
  /// pipelining the rewritten loop again (the same IR: the pass with the
  /// same options on the same rewrite).
  std::shared_ptr<PipelinedProgram> deepenedCopy;
  /// Whether the loop being pipelined reads its ds_read_b64 pairs as
  /// ds_read2_b64 (pairIfFaster).
  bool pairNow = false;
  /// The steps per kernel iteration deepenIfFaster chose for the deepened
  /// loop (0: the pass's own unroll), for pipelineChoosing when it cannot
  /// adopt the measured copy.
  int deepenedUnroll = 0;
  /// The step order deepenIfFaster measured best for the deepened loop
  /// (nullopt: the `order` option's), for the same.
  std::optional<StepOrder> deepenedOrder;
  /// The step order the loop being pipelined takes.
  StepOrder currentOrder() const {
    return deepenedOrder.value_or(*parseStepOrder(stepOrder));
  }

  /// The metrics of the program after pipelining `l` on a copy (with this
  /// pass's options), first deepened to `buffers` LDS buffers unless 0
  /// (its loads after the reads with `loadsAfterReads`), else with its
  /// direct-to-LDS loads after the reads (LoadsAfterReads.h) when
  /// `loadsAfterReads`; nullopt when that fails or does not compile.
  std::optional<ProgramMetrics>
  pipelinedMetrics(LoopOp l, int buffers,
                   std::shared_ptr<PipelinedProgram> *keep = nullptr,
                   bool loadsAfterReads = false, int spare = 0,
                   std::optional<bool> pair = std::nullopt, int steps = 0,
                   std::optional<StepOrder> order = std::nullopt) {
    ProgramOp program = getOperation();
    auto kept = std::make_shared<PipelinedProgram>();
    // Only this thread's: a module's programs run in parallel on one
    // context, and another program's remarks are not this copy's.
    ThisThreadDiagnosticHandler quiet(program.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Remark)
        kept->remarks.push_back({d.getLocation(), d.str()});
    });
    IRMapping &mapping = kept->mapping;
    OwningOpRef<ProgramOp> copy = cast<ProgramOp>(program->clone(mapping));
    auto copied = cast<LoopOp>(mapping.lookup(l.getOperation()));
    if (buffers) {
      LdsDeepening plan = planLdsDeepening(copied, buffers, spare);
      if (!plan.ok())
        return std::nullopt;
      plan.loadsAfterReads = loadsAfterReads;
      copied = applyLdsDeepening(plan);
    } else if (loadsAfterReads) {
      LoadsAfterReads plan = planLoadsAfterReads(copied);
      if (!plan.ok())
        return std::nullopt;
      applyLoadsAfterReads(plan);
    }
    std::optional<unsigned> number = getLoopNumber(copied);
    int64_t found = number ? int64_t(*number) : -1;
    WaveASMPipelineLoopsOptions options;
    options.numStages = numStages;
    options.unroll = steps ? steps : unroll;
    options.stepOrder =
        order ? stepOrderName(*order) : stepOrderName(currentOrder());
    options.loopIndex = found;
    options.ldsBuffers = 2;
    options.loadsAfterReads = "never";
    // Decided for this loop already (pairIfFaster).
    options.pairLdsReads = pair.value_or(pairNow) ? "always" : "never";
    // The outer loop is rotated once, by this pass at its end: a copy
    // rotated here would be adopted and then rotated again (a second,
    // guarded rotation and contradicting remarks).
    options.overlapOuter = false;
    PassManager pm(program.getContext(), ProgramOp::getOperationName());
    pm.addPass(createWaveASMPipelineLoops(options));
    ++trialDepth();
    LogicalResult ran = pm.run(*copy);
    --trialDepth();
    if (failed(ran))
      return std::nullopt;
    OwningOpRef<ModuleOp> &module = kept->module;
    module = ModuleOp::create(program.getLoc());
    module->getBody()->push_back(copy.release());
    std::optional<ProgramMetrics> metrics = measureModule(*module);
    if (keep && metrics)
      *keep = std::move(kept);
    return metrics;
  }

  /// Makes the one program of `module`, a copy of the program (`mapping`:
  /// the program's ops to the copy's), the program (its body and
  /// attributes); `later`, the loops still to be visited, are mapped to the
  /// copy's. False, and nothing changed, when one of them has no copy.
  bool adoptModule(ModuleOp module, IRMapping &mapping,
                   MutableArrayRef<LoopOp> later) {
    for (LoopOp x : later)
      if (!mapping.lookupOrNull(x.getOperation()))
        return false;
    ProgramOp program = getOperation();
    ProgramOp copy = *module.getOps<ProgramOp>().begin();
    program.getBody().takeBody(copy.getBody());
    program->setAttrs(copy->getAttrDictionary());
    for (LoopOp &x : later)
      x = cast<LoopOp>(mapping.lookup(x.getOperation()));
    return true;
  }

  /// Makes `kept` the program (adoptModule), with its remarks.
  bool adoptProgram(PipelinedProgram &kept, MutableArrayRef<LoopOp> later) {
    if (!adoptModule(*kept.module, kept.mapping, later))
      return false;
    for (auto &[loc, text] : kept.remarks)
      emitRemark(loc) << text;
    return true;
  }

  /// What pipelining a loop on a copy of the program gives.
  struct Trial {
    bool ok = false;
    /// Pipeliner::neededUnroll of the loop.
    int neededUnroll = 1;
    /// Waves per SIMD: estimated from the copy's register pressure
    /// (Liveness peaks before allocation, the program's LDS), or, when
    /// `compiled`, the occupancy compile-and-measure reports (0 when the
    /// copy does not compile).
    int64_t waves = 0;
    /// When `timed`: the cycle model's steady state of the pipelined loop
    /// per input iteration (the kernel's cycles over its steps), and the
    /// kernel's lower bound per input iteration. Compiled: the metrics'
    /// est_cycles_per_iter (allocation, waits, hazards: what the table in
    /// bench/README.md reports); else on the copy as pipelined, before
    /// allocation and waits, so a load's reader waits exactly until the
    /// data arrives (cheap, but blind to the compiled loop's copies and
    /// waits).
    bool timed = false;
    double cyclesPerIteration = 0;
    double lowerBound = 0;
    /// Compiled: the slots per input iteration the kernel holds a pipe its
    /// SIMD's waves share (SCHEDULING-FACTS.md "Units"): the matrix pipe's
    /// passes, or the VALU's slots when that is its busiest unit, the
    /// more: however many waves run, each costs the SIMD at least that
    /// long.
    double sharedPipe = 0;
    /// Compiled: the whole program's est_cycles (prologue and epilogue
    /// included), or those of the program with the loop around the kernel
    /// rotated (rotatedCycles) when they are fewer.
    int64_t programCycles = 0;
    /// Compiled with its steady state straight (no kernel).
    bool straight = false;
  };

  /// The est_cycles of the program in `module` with the loop holding
  /// `kernel` rotated (OuterOverlap.h), as overlapOuterLoops will rotate it
  /// where that pays; nullopt when it cannot be or its count is not known
  /// (it is then judged per iteration). The nested GEMM's inner loop: 9
  /// stages x8 give the fewest cycles unrotated (1025 against 1125 for 7
  /// x6), but rotated 7 stages give 950 and 9 stages 1046.
  std::optional<int64_t> rotatedCycles(ModuleOp module, LoopOp kernel) {
    auto outer =
        dyn_cast_or_null<LoopOp>(kernel ? kernel->getParentOp() : nullptr);
    if (!overlapOuter || !outer || !checkOuterOverlap(outer).empty() ||
        getTripCount(outer).source != TripCountSource::Inferred)
      return std::nullopt;
    IRMapping mapping;
    OwningOpRef<ModuleOp> rotated = cast<ModuleOp>(module->clone(mapping));
    auto copied = cast<LoopOp>(mapping.lookup(outer.getOperation()));
    overlapOuterIterations(
        copied, &TargetModel::get(
                    copied->getParentOfType<ProgramOp>().getTargetKind()));
    std::optional<ProgramMetrics> metrics = measureModule(*rotated);
    if (!metrics)
      return std::nullopt;
    return metrics->est_cycles;
  }

  /// What one loop's choice has computed so far. Every trial pipelines a
  /// copy of the same loop in the same program, so a trial's result
  /// depends only on (stages, steps, compiled), and the step order of a
  /// staging is the same list of body positions in every copy (it is a
  /// function of the body and its stages: StepOrder.h).
  struct ChoiceCache {
    std::map<std::tuple<int, int, bool>, Trial> trials;
    std::map<std::vector<int>, std::vector<unsigned>> orders;
    /// The body positions the production order's optimizations remove
    /// (RemovedByCleanups.h), per body (its ops' names): one run of them
    /// for every staging of the loop and its copies.
    std::map<std::vector<const void *>, std::vector<unsigned>> removed;
    /// The program pipelined by a successful trial (alone in a module),
    /// by (stages, steps), and the map from the program's ops to the
    /// copy's: the chosen one becomes the program instead of pipelining the
    /// loop once more.
    struct PipelinedCopy {
      OwningOpRef<ModuleOp> module;
      IRMapping mapping;
      /// What pipeline() made of it (the kernel is the copy's).
      int neededUnroll = 1;
      int steps = 1;
      LoopOp kernel;
      bool straight = false;
      /// The copy's VGPR and AGPR peaks before allocation, when a trial
      /// counted them (Liveness): the register check of the adopted copy
      /// takes them instead of counting the same IR again.
      std::optional<std::pair<int64_t, int64_t>> peaks;
    };
    std::map<std::pair<int, int>, PipelinedCopy> copies;
  };
  /// The cache of the loop being chosen for (null outside pipelineChoosing).
  ChoiceCache *cache = nullptr;
  /// Whether the program the last successful pipelineChoosing made was
  /// compiled by its trial or by pipelinedMetrics (so its registers fit;
  /// the check after it need not compile again).
  bool choiceCompiled = false;
  /// The VGPR and AGPR peaks of the program the last pipelineChoosing
  /// adopted, when its trial counted them (PipelinedCopy::peaks).
  std::optional<std::pair<int64_t, int64_t>> adoptedPeaks;

  /// The order one step of `stages` issues its ops in: computed once per
  /// staging of the loop being chosen for (it is the costliest part of a
  /// trial's pipelining), else each time.
  SmallVector<Operation *> stepOrderOf(const LoopStages &stages,
                                       StepOrder order) {
    if (!cache)
      return computeStepOrder(stages, order);
    std::vector<int> key{int(order), stages.numStages, stages.ldsCopies,
                         int(stages.ops.size())};
    key.insert(key.end(), stages.stages.begin(), stages.stages.end());
    auto [it, inserted] = cache->orders.try_emplace(std::move(key));
    if (!inserted) {
      SmallVector<Operation *> result;
      for (unsigned i : it->second)
        result.push_back(stages.ops[i]);
      return result;
    }
    std::vector<const void *> body;
    for (Operation *op : stages.ops)
      body.push_back(op->getName().getAsOpaquePointer());
    auto [known, fresh] = cache->removed.try_emplace(std::move(body));
    // Only a body with LDS accesses: the cover and drain rules the removed
    // ops steer apply there, and no figure of a loop without LDS moved
    // with them (the pipelining table), while one run of the optimizations
    // costs ~1.5-2 ms of CPU on the 300-op bench loop (no LDS), a third of
    // its pipelining.
    if (fresh && llvm::any_of(stages.ops, isLdsAccess)) {
      llvm::DenseSet<Operation *> gone =
          removedByCleanups(cast<LoopOp>(stages.ops.front()->getParentOp()));
      for (auto [i, op] : llvm::enumerate(stages.ops))
        if (gone.contains(op))
          known->second.push_back(i);
    }
    llvm::DenseSet<Operation *> removed;
    for (unsigned i : known->second)
      removed.insert(stages.ops[i]);
    SmallVector<Operation *> result = computeStepOrder(stages, order, &removed);
    DenseMap<Operation *, unsigned> position;
    for (auto [i, op] : llvm::enumerate(stages.ops))
      position[op] = i;
    for (Operation *op : result)
      it->second.push_back(position.lookup(op));
    return result;
  }

  /// Pipelines `l` on a copy of the program, without remarks; `timed` also
  /// runs the cycle model on the pipelined copy. Memoized per loop.
  Trial trial(LoopOp l, int stages, int steps, bool compiled = false,
              bool timed = false) {
    auto key = std::make_tuple(stages, steps, compiled);
    if (cache)
      if (auto it = cache->trials.find(key);
          it != cache->trials.end() && (it->second.timed || !timed || compiled))
        return it->second;
    ProgramOp program = getOperation();
    ThisThreadDiagnosticHandler quiet(program.getContext());
    Trial result;
    // A trial of the same (stages, steps) pipelined the loop already, and
    // pipelining is a function of the program and those two: its copy is
    // the IR this trial would make (the estimate's trial of a staging and
    // its compiled trial share one), and nothing below changes it
    // (compile-and-measure works on a clone).
    ChoiceCache::PipelinedCopy fresh;
    ChoiceCache::PipelinedCopy *copy = &fresh;
    if (cache)
      if (auto it = cache->copies.find({stages, steps});
          it != cache->copies.end())
        copy = &it->second;
    if (copy == &fresh) {
      // The copy lives in a module of its own: compile-and-measure takes it
      // as it is (no second clone to wrap it), and a chosen copy is
      // adopted.
      fresh.module = ModuleOp::create(program.getLoc());
      OpBuilder builder = OpBuilder::atBlockEnd(fresh.module->getBody());
      builder.clone(*program, fresh.mapping);
      auto copied = cast<LoopOp>(fresh.mapping.lookup(l.getOperation()));
      Pipelined pipelined;
      result.ok = pipeline(copied, stages, steps, &pipelined);
      fresh.neededUnroll = pipelined.neededUnroll;
      fresh.steps = pipelined.steps;
      fresh.kernel = pipelined.kernel;
      fresh.straight = pipelined.straight;
    } else {
      result.ok = true;
    }
    result.neededUnroll = copy->neededUnroll;
    ProgramOp copyProgram = *copy->module->getOps<ProgramOp>().begin();
    Pipelined pipelined;
    pipelined.steps = copy->steps;
    pipelined.kernel = copy->kernel;
    pipelined.straight = copy->straight;
    if (result.ok && compiled) {
      // The kernel's place among the loops (pre-order), as the metrics
      // list them.
      int kernelIndex = -1, numLoops = 0;
      copyProgram->walk<WalkOrder::PreOrder>([&](LoopOp x) {
        if (x == pipelined.kernel)
          kernelIndex = numLoops;
        ++numLoops;
      });
      const TargetModel &target = TargetModel::get(copyProgram.getTargetKind());
      int64_t mfmaPasses =
          pipelined.kernel ? mfmaPassesOf(pipelined.kernel, target) : 0;
      if (std::optional<ProgramMetrics> metrics =
              measureModule(*copy->module)) {
        result.waves = metrics->occupancy;
        result.programCycles = metrics->est_cycles;
        // The pass rotates the loop around the kernel at its end where
        // that pays: the choice weighs the program it will keep.
        if (std::optional<int64_t> rotated =
                rotatedCycles(*copy->module, pipelined.kernel))
          result.programCycles = std::min(result.programCycles, *rotated);
        if (kernelIndex >= 0 && int(metrics->loops.size()) == numLoops) {
          const LoopMetrics &kernel = metrics->loops[kernelIndex];
          result.timed = true;
          result.cyclesPerIteration =
              double(kernel.est_cycles_per_iter) / pipelined.steps;
          result.lowerBound =
              double(kernel.lower_bound_cycles) / pipelined.steps;
          if (kernel.busiest_unit == stringifyExecUnit(ExecUnit::MFMA) ||
              kernel.busiest_unit == stringifyExecUnit(ExecUnit::VALU))
            result.sharedPipe =
                double(kernel.resource_bound_cycles) / pipelined.steps;
          // The matrix pipe's passes floor a wave's share whatever the
          // kernel's busiest unit: more waves do not run them faster.
          // mxfp4 preshuffle (issue-bound kernels): 2 stages at 8 waves,
          // 2466 cycles, looked cheaper per wave than 3 at 4, 1909, though
          // both need the pipe 480 slots a wave (16 an iteration, 30).
          result.sharedPipe =
              std::max(result.sharedPipe, double(mfmaPasses) / pipelined.steps);
        } else if (pipelined.straight) {
          // No kernel: the choice weighs the whole program (the trip count
          // is known), so the figure per input iteration is the program's
          // share of each, an upper bound of a steady state's, and no
          // bound is claimed. The matrix pipe floors it as it floors a
          // kernel's: one iteration's passes.
          result.straight = true;
          result.timed = true;
          int64_t trips = std::max<int64_t>(getTripCount(l).count, 1);
          result.cyclesPerIteration =
              double(metrics->est_cycles) / double(trips);
          result.sharedPipe = double(mfmaPassesOf(l, target));
        }
      }
    } else if (result.ok) {
      ProgramIndex index(copyProgram);
      Liveness live(index);
      const TargetModel &target = TargetModel::get(copyProgram.getTargetKind());
      result.waves = target.getProgramOccupancy(
          copyProgram, live.getPeak(RegClass::VGPR).regs,
          live.getPeak(RegClass::AGPR).regs, live.getPeak(RegClass::SGPR).regs);
      copy->peaks = {live.getPeak(RegClass::VGPR).regs,
                     live.getPeak(RegClass::AGPR).regs};
      if (timed && pipelined.kernel) {
        CycleModel model(index, target);
        if (const LoopTiming *kernel = model.getLoopTiming(pipelined.kernel)) {
          result.timed = true;
          result.cyclesPerIteration =
              double(kernel->steadyStateCycles) / pipelined.steps;
          result.lowerBound =
              double(kernel->lowerBoundCycles) / pipelined.steps;
        }
      }
    }
    if (cache) {
      cache->trials[key] = result;
      if (result.ok && copy == &fresh)
        cache->copies[{stages, steps}] = std::move(fresh);
    }
    return result;
  }

  /// The automatic unroll of `l` in `stages` stages: neededUnroll, lowered
  /// while the estimated occupancy is below that of one step per kernel
  /// iteration (where the estimate says it drops, the allocator decides:
  /// the estimate counts no coalescing across the unrolled steps and can
  /// be pessimistic).
  struct UnrollChoice {
    int steps = 1;
    /// neededUnroll, and when it was lowered, the waves it would have
    /// given and those kept (for the remark).
    int needed = 1;
    std::optional<int64_t> cappedWaves;
    int64_t baseWaves = 0;
  };
  UnrollChoice chooseUnroll(LoopOp l, int stages) {
    UnrollChoice choice;
    Trial base = trial(l, stages, 1);
    choice.needed = base.neededUnroll;
    choice.baseWaves = base.waves;
    for (int u = base.neededUnroll; base.ok && u > 1; --u) {
      Trial t = trial(l, stages, u);
      if (t.ok && t.waves >= base.waves) {
        choice.steps = u;
        break;
      }
      Trial compiledBase = trial(l, stages, 1, /*compiled=*/true);
      t = trial(l, stages, u, /*compiled=*/true);
      if (t.ok && t.waves > 0 && t.waves >= compiledBase.waves) {
        choice.steps = u;
        break;
      }
      if (u == base.neededUnroll) {
        choice.cappedWaves = t.waves;
        choice.baseWaves = compiledBase.waves;
      }
    }
    // Not for stages written on the loop (the Conductor's pipeline
    // strategy and code action ask for a kernel of them).
    if (base.ok && stages > 0)
      preferStraight(l, stages, choice);
    return choice;
  }

  /// With a trip count the IR gives (N), the steady state's N - S + 1
  /// steps straight, without a kernel (kStraightSteps), where a kernel of U
  /// steps does not pay: always when N - S + 1 < U (the kernel could not
  /// run one iteration of them, and one capped below U copies loads still
  /// in flight on its back edge), and when the kernel would run at most
  /// twice (N - S + 1 <= 2 U: at most twice the kernel's code) and the
  /// straight program, compiled, costs fewer cycles per wave (WaveCost.h,
  /// by more than 1%). A kernel iteration waits out one load latency at
  /// its last step (its first step's load is read there), a short count
  /// pays that for few steps, and straight the production cleanups fold
  /// the epilogue's steps with the steady ones (scale_pack, 16 trips, 5
  /// stages: x6 twice, 486 cycles; straight, 455, both at 7 waves).
  void preferStraight(LoopOp l, int stages, UnrollChoice &choice) {
    TripCount trips = getTripCount(l);
    if (trips.source != TripCountSource::Inferred)
      return;
    int64_t steady = trips.count - stages + 1;
    // Fewer steady steps than a kernel iteration needs (scale_pack, 16
    // trips, 9 stages: the kernel capped to x3, 601 cycles; straight, 364).
    // Straight code has no kernel whose unroll a cap lowered: no remark
    // about one.
    auto takeStraight = [&] {
      choice.steps = kStraightSteps;
      choice.cappedWaves.reset();
    };
    if (steady < choice.needed)
      return takeStraight();
    if (steady > 2 * int64_t(choice.steps))
      return;
    Trial kernel = trial(l, stages, choice.steps, /*compiled=*/true);
    Trial flat = trial(l, stages, kStraightSteps, /*compiled=*/true);
    if (!flat.ok || !flat.straight || flat.waves <= 0)
      return;
    LLVM_DEBUG(llvm::dbgs()
               << stages << " stages: kernel x" << choice.steps << " "
               << kernel.programCycles << " cycles at " << kernel.waves
               << " waves, straight " << flat.programCycles << " at "
               << flat.waves << "\n");
    auto cost = [&](const Trial &t) {
      return WaveCost{double(t.programCycles), t.waves,
                      t.sharedPipe * double(trips.count)};
    };
    if (kernel.ok && kernel.waves > 0 &&
        !cost(flat).beats(cost(kernel), kStageGain))
      return;
    takeStraight();
  }

  /// The automatic stage count. The candidates are 2 up to the count whose
  /// load distance covers the global-load latency at the loop's lower
  /// bound per step (maxStagesFor). When two stages run at the loop's lower
  /// bound by the cheap estimate, two it is. Else each candidate is
  /// pipelined with its own unroll (chooseUnroll) and compiled, in order,
  /// until one runs at its lower bound, and the best wins; a stage more
  /// must gain more than 1% (kStageGain). Best: the fewest cycles per wave
  /// (a candidate's cycles over the waves per SIMD its compiled registers
  /// leave, but at least the slots its kernel holds the SIMD's matrix pipe,
  /// or its VALU when that is its busiest unit: waves share those, so split-K,
  /// MFMA-bound at 2 to 6 stages, costs 256 slots per wave whatever its
  /// occupancy, and as few per wave the fewest cycles win: 5 stages at 3
  /// waves, 653 cycles, against 2 at 5, 880), the one rule that weighs a
  /// gain against the occupancy it
  /// costs for every loop: a deeper pipeline that drops from 8 to 7 waves
  /// must run more than 12.5% faster. Cycles: with a trip count known from
  /// the IR, the whole program's est_cycles (a deeper pipeline's longer
  /// prologue and epilogue count: 32x32 GEMM, trip 8, 4 stages 1176 against
  /// 5 stages 1322 although 5 run an iteration 1.4% faster); else
  /// est_cycles_per_iter per input iteration. A faster candidate refused
  /// for the occupancy it costs is named in a remark, and so is a chosen
  /// one that costs occupancy. `keptSteps`: the steps per kernel iteration
  /// the loop will be pipelined with whatever the count (the `unroll`
  /// option, or a deepening's one step per buffer; 0: each count's own):
  /// the remarks quote the chosen count's program at those steps, the one
  /// kept, not the one scored.
  int chooseStages(LoopOp l, int keptSteps) {
    auto estimate = [&](int s) {
      Trial t = trial(l, s, 1, /*compiled=*/false, /*timed=*/true);
      LLVM_DEBUG(llvm::dbgs() << s << " stages, estimate: "
                              << t.cyclesPerIteration << " per iteration "
                              << "(bound " << t.lowerBound << "), " << t.waves
                              << " waves\n");
      return t;
    };
    Trial two = estimate(2);
    // Two stages at the lower bound already (a resource-bound loop): more
    // stages only hide latency, and there is none to hide. Later counts
    // are not cut by the estimate: it sees no waits or copies, and
    // compiled they may still differ (dot-static: 3 stages at the bound by
    // the estimate, 4 compiled 30% faster than 2 and 3).
    if (!two.ok || (two.timed && two.cyclesPerIteration <= two.lowerBound) ||
        !estimate(3).ok)
      return 2;
    TripCount trips = getTripCount(l);
    bool wholeProgram = trips.source == TripCountSource::Inferred;
    struct Scored {
      int stages = 0;
      int steps = 0;
      double cycles = 0;
      double perIteration = 0;
      int64_t waves = 0;
      /// Trial::sharedPipe per input iteration and in the unit of `cycles`.
      double pipePerIteration = 0;
      double sharedPipe = 0;
      /// What a wave costs its SIMD (WaveCost.h).
      WaveCost cost() const { return {cycles, waves, sharedPipe}; }
      bool atSharedPipe() const { return cost().atSharedPipe(); }
      bool beats(const Scored &other) const {
        return cost().beats(other.cost(), kStageGain);
      }
    };
    std::optional<Scored> best, firstWaves, fastest;
    // The compiled lower bound per input iteration (about the same for
    // every stage count), set by the first compiled candidate.
    double bound = 0;
    int maxStages = kMaxStages;
    for (int s = 2; s <= maxStages; ++s) {
      Trial guess = estimate(s);
      if (!guess.ok)
        break;
      // Even at the lower bound, with the waves its estimated registers
      // leave (a deeper count holds more), this count would not beat the
      // best per wave: no compile for it or a deeper one.
      if (best && bound > 0 && guess.waves > 0) {
        double bestPerWave = std::max(best->perIteration / double(best->waves),
                                      best->pipePerIteration);
        double reachable = bound / double(guess.waves);
        if (reachable > bestPerWave ||
            (reachable >= bestPerWave &&
             bound >= best->perIteration * kStageGain))
          break;
      }
      int steps = chooseUnroll(l, s).steps;
      Trial t = trial(l, s, steps, /*compiled=*/true);
      LLVM_DEBUG(llvm::dbgs() << s << " stages x" << steps
                              << ", compiled: " << t.cyclesPerIteration
                              << " per iteration, " << t.waves << " waves\n");
      if (!t.ok || !t.timed || t.waves <= 0)
        continue;
      if (bound <= 0) {
        bound = t.lowerBound;
        maxStages = maxStagesFor(l, bound);
      }
      Scored c{s,
               steps,
               wholeProgram ? double(t.programCycles) : t.cyclesPerIteration,
               t.cyclesPerIteration,
               t.waves,
               t.sharedPipe,
               wholeProgram ? t.sharedPipe * double(trips.count)
                            : t.sharedPipe};
      if (!firstWaves)
        firstWaves = c;
      bool faster = !fastest || c.cycles < fastest->cycles * kStageGain;
      if (faster)
        fastest = c;
      if (!best || c.beats(*best)) {
        best = c;
      } else if (c.waves < best->waves && !faster) {
        // It lost on the waves its registers cost, and a deeper count
        // holds more registers still. While deeper counts still run
        // faster, they go on, so the remark names the fastest and the
        // waves it costs (scale_pack, 16 trips, every count straight
        // from 5 on: 5 stages at 7 waves, 455 cycles, kept; 6 to 12
        // stages 439 at 6, 380 at 5, 372, 364, 356 and 348 at 4, 340 at
        // 3 waves, the last named).
        break;
      }
      if (t.cyclesPerIteration <= t.lowerBound)
        break;
    }
    if (!best)
      return 2;
    // Scored at its own unroll, kept at another (preshuffle at 24 K steps:
    // 3 stages scored at 4 steps, 1508 cycles, kept at the deepening's 5,
    // 1483): the remarks say what the program kept costs. The choice
    // stands: it compares every count at its own unroll.
    if (keptSteps && keptSteps != best->steps) {
      Trial kept = trial(l, best->stages, keptSteps, /*compiled=*/true);
      if (kept.ok && kept.timed && kept.waves > 0) {
        best->steps = keptSteps;
        best->cycles =
            wholeProgram ? double(kept.programCycles) : kept.cyclesPerIteration;
        best->perIteration = kept.cyclesPerIteration;
        best->waves = kept.waves;
      }
    }
    auto cyclesText = [&](const Scored &c) {
      return llvm::formatv("{0:F1} {1} at {2} waves", c.cycles,
                           wholeProgram ? "cycles" : "per iteration", c.waves)
          .str();
    };
    // The options are named as the LDS deepening's remark names its own
    // (emitLostOccupancy), which bench/pipeline_table.py runs again.
    if (fastest && fastest->stages != best->stages)
      emitRemark(l.getLoc()) << llvm::formatv(
          "{0} stages not taken: {1} against {2} stages' {3} is more cycles "
          "per wave ({4:F1} against {5:F1}; num-stages={0} forces it)",
          fastest->stages, cyclesText(*fastest), best->stages,
          cyclesText(*best), fastest->cost().perWave(), best->cost().perWave());
    if (firstWaves && firstWaves->stages != best->stages &&
        best->waves < firstWaves->waves) {
      InFlightDiagnostic diag = emitRemark(l.getLoc());
      diag << best->stages << " stages cost occupancy: " << cyclesText(*best)
           << " against " << firstWaves->stages << " stages' "
           << cyclesText(*firstWaves);
      if (best->atSharedPipe() && firstWaves->atSharedPipe())
        diag << llvm::formatv(", both held by a pipe the SIMD's waves share "
                              "({0:F1} cycles per wave), fewer cycles",
                              best->sharedPipe)
                    .str();
      else
        diag << ", fewer cycles per wave";
    }
    return best->stages;
  }

  /// The most stages worth trying for `l`, whose pipelined step takes at
  /// least `stepBound` slots: enough for a load read S - 2 steps after it
  /// (a consumer in the stage before the MFMAs) to be covered by the
  /// global-load latency, at least kMaxStages and at most
  /// kMaxLatencyStages (streaming loops of ~10 slots per step want ~10:
  /// strength reduction). A short loop whose trip count T the IR gives
  /// (T <= kMaxShortLoopStages) and whose latency rule the cap cut tries
  /// every count up to T: its deep counts run straight, and straight the
  /// fill issues only the loads' stages, more steps per load latency than
  /// the step bound says, so even the uncut rule stops too early
  /// (scale_pack, 16 trips, 9 slots per step: 14 by the latency, 12 by the
  /// cap; straight, 12 to 15 stages run 340, 332, 324 and 307 cycles at 3
  /// waves, its program bound 306). chooseStages goes deeper only while a
  /// count runs faster, so the extra compiles stop at the first count that
  /// does not. Loops the cap did not cut keep the latency rule: their
  /// kernels' choices stand (the nested GEMM's 16-trip inner loop, 8 by
  /// the rule, takes another count up to 16 and its outer loop is then
  /// no longer rotated).
  int maxStagesFor(LoopOp l, double stepBound) {
    const TargetModel &target =
        TargetModel::get(l->getParentOfType<ProgramOp>().getTargetKind());
    double latency = double(target.getLatency(LatencyClass::VMEMLoad));
    if (stepBound <= 0)
      return kMaxStages;
    int needed = int(std::ceil(latency / stepBound)) + 2;
    int stages = std::clamp(needed, kMaxStages, kMaxLatencyStages);
    TripCount trips = getTripCount(l);
    if (needed > kMaxLatencyStages &&
        trips.source == TripCountSource::Inferred &&
        trips.count <= kMaxShortLoopStages)
      stages = std::max(stages, int(trips.count));
    return stages;
  }

  /// The fewest stages the automatic count may try up to.
  static constexpr int kMaxStages = 5;
  /// The most stages the automatic count tries.
  static constexpr int kMaxLatencyStages = 12;
  /// The longest trip count whose every stage count is a candidate
  /// (maxStagesFor): twice the latency rule's cap, as many compiles at most.
  static constexpr int kMaxShortLoopStages = 2 * kMaxLatencyStages;
  /// A stage more is taken only when it is more than 1% faster per
  /// iteration: a smaller gain does not pay for the longer prologue and
  /// epilogue and the registers of one more iteration in flight.
  static constexpr double kStageGain = 0.99;

  /// Makes the copy a trial pipelined in `stages` stages and `steps` steps
  /// the program (its body and attributes: LDS copies grow the LDS size),
  /// the same IR pipelining the loop again would give; `later`, the loops
  /// still to be visited, are mapped to the copy's. False when no such
  /// copy was kept.
  bool adoptCopy(int stages, int steps, MutableArrayRef<LoopOp> later) {
    auto it = cache->copies.find({stages, steps});
    if (it == cache->copies.end())
      return false;
    if (!adoptModule(*it->second.module, it->second.mapping, later))
      return false;
    adoptedPeaks = it->second.peaks;
    return true;
  }

  /// Pipelines `l` with the options' stages and unroll; where they are
  /// automatic, they are chosen by trials on copies of the program
  /// (chooseStages, chooseUnroll), and the chosen copy becomes the
  /// program. `later` are the loops still to be visited (kept valid).
  bool pipelineChoosing(LoopOp l, MutableArrayRef<LoopOp> later) {
    if (std::shared_ptr<PipelinedProgram> kept = std::move(deepenedCopy)) {
      deepenedCopy.reset();
      // Only with no loop left to visit: the pass run on the copy may have
      // adopted a copy of its own, so the mapping's values are gone and
      // the later loops cannot be found in it.
      // pipelinedMetrics keeps a copy only when it compiled: it fits.
      if (later.empty() && adoptProgram(*kept, later)) {
        choiceCompiled = true;
        return true;
      }
    }
    adoptedPeaks.reset();
    ChoiceCache choices;
    cache = &choices;
    llvm::scope_exit forget([&] { cache = nullptr; });
    bool annotated = hasLoopStages(l) && numStages == 0;
    int stages = numStages;
    if (!annotated && stages == 0)
      stages = chooseStages(l, deepenedUnroll ? deepenedUnroll : int(unroll));
    UnrollChoice choice;
    choice.steps = deepenedUnroll ? deepenedUnroll : int(unroll);
    if (choice.steps == 0)
      choice = chooseUnroll(l, stages);
    Location loc = l.getLoc();
    // A choice whose copy was compiled is known to fit the register files.
    auto compiledTrial = choices.trials.find({stages, choice.steps, true});
    choiceCompiled = compiledTrial != choices.trials.end() &&
                     compiledTrial->second.ok &&
                     compiledTrial->second.waves > 0;
    if (!adoptCopy(stages, choice.steps, later) &&
        !pipeline(l, stages, choice.steps))
      return false;
    if (choice.cappedWaves)
      emitRemark(loc) << "steady state of " << choice.steps << " step"
                      << (choice.steps == 1 ? "" : "s")
                      << " per iteration, not the " << choice.needed
                      << " that give every value in flight its own "
                         "registers: they would lower the estimated "
                         "occupancy from "
                      << choice.baseWaves << " to " << *choice.cappedWaves
                      << " waves (unroll=" << choice.needed << " forces them)";
    return true;
  }

  /// The metrics of the one program of `module` after the measuring
  /// backend (the compiler works on a clone; the module is not changed),
  /// nullopt when it fails. One Compiler serves every trial and measure of
  /// the pass: its pass manager and target models are built once.
  std::optional<ProgramMetrics>
  measureModule(ModuleOp module, std::string *firstError = nullptr) {
    // A failed compile reports through the context; it only means "no".
    ThisThreadDiagnosticHandler quiet(module.getContext(),
                                      firstErrorInto(firstError));
    FailureOr<CompileResult> result = getCompiler(module)->compile(module);
    if (failed(result) || result->programs.empty())
      return std::nullopt;
    return std::move(result->programs.front().metrics);
  }
  /// The measure's options: metrics only.
  static CompileOptions measuringOptions() {
    CompileOptions options;
    options.emitAssembly = false;
    options.judgeByCyclesOnly();
    return options;
  }
  Compiler *getCompiler(ModuleOp module) {
    if (!compiler)
      compiler.reset(new Compiler(module.getContext(), measuringOptions()));
    return compiler.get();
  }
  /// A diagnostic handler that keeps the first error's text in `firstError`
  /// (if not null).
  static std::function<void(Diagnostic &)>
  firstErrorInto(std::string *firstError) {
    return [firstError](Diagnostic &d) {
      if (firstError && firstError->empty() &&
          d.getSeverity() == DiagnosticSeverity::Error)
        *firstError = d.str();
    };
  }
  /// Built on first use; a copy of the pass (MLIR clones passes per
  /// thread) builds its own.
  template <typename T> struct Lazy : std::unique_ptr<T> {
    Lazy() = default;
    Lazy(const Lazy &) {}
    Lazy &operator=(const Lazy &) {
      this->reset();
      return *this;
    }
  };
  Lazy<Compiler> compiler;
  /// The register check's pipeline (up to allocation).
  Lazy<AllocationCheck> allocationCheck;

  /// The program's metrics after the measuring backend (a clone is
  /// compiled; the program is not changed), nullopt when it does not
  /// compile.
  std::optional<ProgramMetrics> measure(ProgramOp program,
                                        std::string *firstError = nullptr) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(program.getLoc());
    OpBuilder::atBlockEnd(module->getBody()).clone(*program);
    return measureModule(*module, firstError);
  }

  /// Empty when the program's registers fit in the target's files; else
  /// why not. The estimate before allocation (Liveness peaks) decides
  /// alone while it stays well below the files; near or above them the
  /// program is allocated (the backend up to allocation, not compiled and
  /// measured) and allocation's own error is the answer.
  std::string registersThatDoNotFit(ProgramOp program) {
    // The peaks of the adopted copy's trial are those of this very IR (the
    // copy's body became the program's; nothing changed it since).
    auto countPeaks = [&] {
      ProgramIndex index(program);
      Liveness live(index);
      return std::pair<int64_t, int64_t>(live.getPeak(RegClass::VGPR).regs,
                                         live.getPeak(RegClass::AGPR).regs);
    };
    std::pair<int64_t, int64_t> peaks =
        adoptedPeaks ? *adoptedPeaks : countPeaks();
    // Checked by tests/lit/pipeline/pipeline-loops-register-peaks.test.
    LLVM_DEBUG({
      if (adoptedPeaks) {
        std::pair<int64_t, int64_t> fresh = countPeaks();
        llvm::dbgs() << "register check: the trial's peaks (v" << peaks.first
                     << ", a" << peaks.second << ") "
                     << (fresh == peaks ? "equal" : "differ from")
                     << " a fresh count (v" << fresh.first << ", a"
                     << fresh.second << ")\n";
      }
    });
    const TargetInfo &info = getTargetInfo(program.getTargetKind());
    auto [vgprs, agprs] = peaks;
    if (vgprs <= info.maxArchVGPRs * 3 / 4 &&
        (info.maxAGPRs == 0 || agprs <= info.maxAGPRs * 3 / 4))
      return "";
    // Allocation alone answers (AllocationCheck.h: compile()'s verdict and
    // error), on a copy it may change (made in one pass, CloneInOrder.h).
    OwningOpRef<ModuleOp> module = ModuleOp::create(program.getLoc());
    IRMapping mapping;
    module->getBody()->push_back(cloneInOrder(program, mapping));
    std::string error;
    ThisThreadDiagnosticHandler quiet(program.getContext(),
                                      firstErrorInto(&error));
    if (!allocationCheck)
      allocationCheck.reset(
          new AllocationCheck(program.getContext(), measuringOptions()));
    if (succeeded(allocationCheck->run(*module)))
      return "";
    return error.empty() ? "it fails in the backend" : error;
  }

  /// The copies inserted into a loop whose stages were written (by hand or
  /// by the Conductor) before the copies existed: they get the lowest
  /// stage readLoopStages accepts, so the rules, not a guess, decide (none
  /// accepted: they keep the last tried and readLoopStages says why).
  static void stageRotationCopies(LoopOp l, const RotationCopies &rotations) {
    auto numStages = l->getAttrOfType<IntegerAttr>(kNumStagesAttrName);
    int n = numStages ? int(numStages.getInt()) : 2;
    auto i32 = IntegerType::get(l->getContext(), 32);
    for (int s = 0; s < n; ++s) {
      for (Operation *copy : rotations.getOps())
        copy->setAttr(kStageAttrName, IntegerAttr::get(i32, s));
      if (readLoopStages(l).ok())
        return;
    }
  }

  /// What pipeline() made of a loop.
  struct Pipelined {
    /// Pipeliner::neededUnroll of the loop.
    int neededUnroll = 1;
    /// Steps per kernel iteration, and the kernel (the steady state).
    int steps = 1;
    LoopOp kernel;
    /// The steady state ran straight (Pipeliner::isStraight): no kernel.
    bool straight = false;
  };

  /// Pipelines `l` in `stageCount` stages (0: its annotations) with `steps`
  /// steps per kernel iteration; false (with a remark) when it is left
  /// alone. `out` receives what was made.
  bool pipeline(LoopOp l, int stageCount, int steps, Pipelined *out = nullptr) {
    RotationCopies rotations = RotationCopies::materialize(l);
    auto refuse = [&](const std::string &why, Operation *where) {
      rotations.undo();
      InFlightDiagnostic diag = l.emitRemark("loop not pipelined: ") << why;
      if (where && where != l)
        diag.attachNote(where->getLoc()) << "here";
      return false;
    };
    if (!rotations.ok())
      return refuse(rotations.failure, nullptr);
    bool annotated = hasLoopStages(l) && stageCount == 0;
    int wanted = stageCount ? stageCount : 2;
    if (annotated && !rotations.empty())
      stageRotationCopies(l, rotations);
    LoopStages stages =
        annotated ? readLoopStages(l) : computeLoopStages(l, wanted);
    if (!stages.ok())
      return refuse(stages.failure, stages.failureOp);
    if (stages.numStages < 2)
      return refuse("fewer than 2 stages", nullptr);
    LdsCopyPlan copies;
    if (stages.ldsCopies > 1) {
      copies = planLdsCopies(l, stages.ldsCopies);
      if (!copies.ok() && (annotated || copies.outOfMemory))
        return refuse("LDS ping/pong: " + copies.failure, nullptr);
      if (!copies.ok()) {
        // The copies cannot be placed: LDS traffic stays in one stage.
        LLVM_DEBUG(llvm::dbgs() << "no LDS copies: " << copies.failure << "\n");
        stages = computeLoopStages(l, wanted, /*allowLdsCopies=*/false);
        if (!stages.ok())
          return refuse(stages.failure, stages.failureOp);
      }
    }
    TripCount trips = getTripCount(l);
    StepOrder order = currentOrder();
    // Checked on the loop as it is; without LDS copies the same plan is
    // the one rewritten below.
    auto pipeliner = std::make_unique<Pipeliner>(l, stages);
    pipeliner->stepOrder = order;
    pipeliner->givenOrder = stepOrderOf(stages, order);
    pipeliner->allResults = trips.source != TripCountSource::Inferred;
    if (std::string why = pipeliner->check(); !why.empty())
      return refuse(why, nullptr);
    if (pipeliner->allResults)
      if (std::string why = pipeliner->checkGuard(); !why.empty())
        return refuse(why, nullptr);
    std::optional<int64_t> staticTrips;
    if (trips.source == TripCountSource::Inferred) {
      if (trips.count < stages.numStages)
        return refuse("trip count " + std::to_string(trips.count) +
                          " is below the " + std::to_string(stages.numStages) +
                          " stages",
                      nullptr);
      staticTrips = trips.count;
    }
    std::optional<int64_t> hinted;
    if (trips.source == TripCountSource::Attribute)
      hinted = trips.count;
    bool changed = false;
    if (stages.ldsCopies > 1) {
      SmallVector<Operation *> added;
      l = applyLdsCopies(l, copies, added);
      stages = restage(l, stages, added);
      changed = true;
    }
    // After the copies, whose address adds the pairs share.
    if (pairNow)
      changed |= pairReads(l, stages);
    if (changed) {
      pipeliner = std::make_unique<Pipeliner>(l, stages);
      pipeliner->stepOrder = order;
      pipeliner->givenOrder = stepOrderOf(stages, order);
      pipeliner->allResults = trips.source != TripCountSource::Inferred;
      if (std::string why = pipeliner->check(); !why.empty()) {
        l.emitError("pipelining after adding LDS copies or pairing LDS "
                    "reads failed: ")
            << why;
        signalPassFailure();
        return false;
      }
    }
    // Straight needs the count (the choice asks only then).
    if (steps == kStraightSteps && !staticTrips)
      steps = 0;
    pipeliner->unroll = steps ? steps : pipeliner->neededUnroll();
    if (out) {
      out->neededUnroll = pipeliner->neededUnroll();
      out->steps = pipeliner->unroll;
    }
    pipeliner->rewrite(staticTrips, hinted);
    if (out) {
      out->kernel = pipeliner->getKernel();
      out->straight = pipeliner->isStraight();
    }
    return true;
  }

  /// The body's ds_read_b64 pairs read as ds_read2_b64 (PairLdsReads.h),
  /// the ops made in the stage of the reads they replace, so the step order
  /// sees one LDS access per pair; false when nothing paired.
  static bool pairReads(LoopOp loop, LoopStages &stages) {
    DenseMap<Operation *, int> stageOf;
    for (auto [op, s] : llvm::zip(stages.ops, stages.stages))
      stageOf[op] = s;
    if (!waveasm::pairLdsReads(loop, &stageOf))
      return false;
    stages = stagesOf(loop, stages, stageOf);
    return true;
  }

  /// `loop`'s body ops in order with their stages in `stageOf`, the stage
  /// count and LDS copies of `old`.
  static LoopStages stagesOf(LoopOp loop, const LoopStages &old,
                             const DenseMap<Operation *, int> &stageOf) {
    LoopStages result;
    result.numStages = old.numStages;
    result.ldsCopies = old.ldsCopies;
    for (Operation &op : loop.getBodyBlock().without_terminator()) {
      result.ops.push_back(&op);
      result.stages.push_back(stageOf.lookup(&op));
    }
    result.clusters = computeClusters(result.stages);
    return result;
  }

  /// The stages of `loop` after the LDS copies added `added`: body ops keep
  /// theirs, the copy base update runs in stage 0 (with the loop control),
  /// an address add in the earliest stage of the ops using it.
  static LoopStages restage(LoopOp loop, const LoopStages &old,
                            ArrayRef<Operation *> added) {
    DenseMap<Operation *, int> stageOf;
    for (auto [op, s] : llvm::zip(old.ops, old.stages))
      stageOf[op] = s;
    for (Operation *op : added) {
      if (!isa<V_ADD_U32>(op)) {
        stageOf[op] = 0;
        continue;
      }
      int s = old.numStages - 1;
      for (Operation *user : op->getUsers())
        s = std::min(s, stageOf.lookup(user));
      stageOf[op] = s;
    }
    return stagesOf(loop, old, stageOf);
  }
};

} // namespace
