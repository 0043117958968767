//===- OuterOverlap.cpp - a loop's iterations overlapped around its kernel ===//
//
// See OuterOverlap.h. The rotation is exact: the dynamic sequence
// head(0) kernel(0) tail(0) head(1) ... tail(n-1) is the same as written;
// only the list schedule of tail(t) + head(t+1) moves ops, and only along
// the dependences below.
//
//===----------------------------------------------------------------------===//

#include "pipeline/opt/OuterOverlap.h"

#include "analysis/MemoryAlias.h"
#include "analysis/PointerRoots.h"
#include "analysis/TargetModel.h"
#include "analysis/TripCount.h"
#include "ir/InstFacts.h"
#include "ir/RegisterTypes.h"
#include "ir/Workgroup.h"
#include "pipeline/CountedWaits.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/opt/LoopRewrite.h"
#include "pipeline/opt/StepMerge.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace waveasm;

namespace {
/// An outer body [head, kernel, tail, condition] taken apart.
struct Shape {
  LoopOp kernel;
  ConditionOp cond;
  SmallVector<Operation *> head, tail;
  /// Head values read by the kernel, the tail or the condition: what the
  /// rotated loop carries from head(t+1) to the next iteration.
  SmallVector<Value> carried;
  /// The tail ops the exit condition reads (body order).
  llvm::SetVector<Operation *> slice;
  /// The outer trip count when the IR gives it.
  std::optional<int64_t> trips;
};
} // namespace

bool waveasm::holdsInnerRegion(LoopOp loop) {
  return llvm::any_of(loop.getBodyBlock().without_terminator(),
                      [](Operation &op) { return op.getNumRegions() != 0; });
}

static std::string analyse(LoopOp outer, Shape &s) {
  if (isRegisterAllocated(outer))
    return "its registers are allocated";
  Block &body = outer.getBodyBlock();
  s.cond = dyn_cast<ConditionOp>(body.getTerminator());
  if (!s.cond)
    return "its body does not end in a condition";
  Operation *inner = nullptr;
  unsigned regions = 0;
  for (Operation &op : body.without_terminator())
    if (op.getNumRegions()) {
      ++regions;
      inner = &op;
    }
  if (!regions)
    return "it holds no inner loop";
  if (regions > 1)
    return "it holds more than one inner loop (or a guard beside its "
           "kernel)";
  s.kernel = dyn_cast<LoopOp>(inner);
  if (!s.kernel)
    return "its inner loop is guarded (a trip count the IR does not give): "
           "the rotation needs the kernel alone";
  if (!s.kernel->hasAttr(kCountedWaitsAttrName))
    return "its inner loop is not pipelined";
  bool beforeKernel = true;
  for (Operation &op : body.without_terminator()) {
    if (&op == inner) {
      beforeKernel = false;
      continue;
    }
    // Waits, raw text, labels, priorities: the list schedule has no rule
    // for them.
    if (lookupInstFacts(&op).pinned && !isa<S_BARRIER>(op))
      return ("its body has " + op.getName().getStringRef() +
              ", which the rotation cannot order")
          .str();
    if (!isa<ConstantOp>(op))
      (beforeKernel ? s.head : s.tail).push_back(&op);
  }
  llvm::SmallPtrSet<Operation *, 32> inHead(s.head.begin(), s.head.end());
  for (Operation *op : s.head)
    for (Value r : op->getResults()) {
      bool readLater = llvm::any_of(r.getUsers(), [&](Operation *user) {
        Operation *top = body.findAncestorOpInBlock(*user);
        return top && !inHead.contains(top);
      });
      if (!readLater)
        continue;
      if (!isa<VRegType, SRegType, ARegType>(r.getType()))
        return "a value of its head that is not a virtual register (" +
               std::string(isa<SCCType>(r.getType()) ? "SCC" : "physical") +
               ") is read after its inner loop";
      s.carried.push_back(r);
    }
  // The exit condition's slice: evaluated again on the next iteration's
  // values, so it must be pure scalar work outside the kernel.
  SmallVector<Value> work{s.cond.getCondition()};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || isa<ConstantOp>(def) ||
        !seen.insert(def).second)
      continue;
    if (def == inner)
      return "its exit condition reads its inner loop's results";
    if (readsMemory(def) || writesMemory(def) ||
        (lookupInstFacts(def).implicitUses & ~ImpSCC))
      return "its exit condition reads memory or an implicit register";
    llvm::append_range(work, def->getOperands());
  }
  for (Operation *op : s.tail)
    if (seen.contains(op))
      s.slice.insert(op);
  TripCount trips = getTripCount(outer);
  if (trips.source == TripCountSource::Inferred) {
    if (trips.count < 2)
      return "it runs once: no next iteration to overlap";
    s.trips = trips.count;
  }
  return "";
}

std::string waveasm::checkOuterOverlap(LoopOp outer) {
  Shape s;
  return analyse(outer, s);
}

/// Whether a global or scalar load may read bytes some store of `loop`
/// writes (any iteration, any wave): only arguments declared apart
/// (`noalias_args`) say no, since a barrier between a store and a load of
/// other waves is what orders them.
static bool mayMeetStore(Operation *load, LoopOp loop) {
  return loop
      ->walk([&](Operation *op) {
        if (op->getNumRegions() || !(memWrites(op) & (MemGlobal | MemScalar)))
          return WalkResult::advance();
        return inDistinctNoAliasArgs(load, op) ? WalkResult::advance()
                                               : WalkResult::interrupt();
      })
      .wasInterrupted();
}

/// Reorders `ops` (consecutive, in one block, no regions) by a list
/// schedule on an issue clock (StepClock): among the ops whose
/// predecessors have issued, the first whose operands are ready, the loads
/// of the next iteration's head (and what their addresses need) before the
/// rest, else body order; when none is ready, the one ready first, a
/// barrier before it (so a barrier fills a slot that would stall anyway).
static void interleave(ArrayRef<Operation *> ops, size_t tailOps, LoopOp loop,
                       const TargetModel *target) {
  size_t n = ops.size();
  DenseMap<Operation *, unsigned> index;
  for (auto [i, op] : llvm::enumerate(ops))
    index[op] = i;
  // preds[j]: (i, latency); latency 0 is an order edge.
  SmallVector<SmallVector<std::pair<unsigned, int64_t>>> preds(n);
  auto order = [&](unsigned i, unsigned j) { preds[j].push_back({i, 0}); };
  bool singleWave = isDeclaredSingleWave(loop);
  int lastLds = -1, lastImplicit = -1;
  SmallVector<unsigned> barriers, globals;
  for (auto [j, op] : llvm::enumerate(ops)) {
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (auto it = index.find(def); it != index.end())
          preds[j].push_back(
              {it->second,
               std::max<int64_t>(1, target ? target->getOpLatency(def) : 1)});
    bool barrier = isa<S_BARRIER>(op);
    // Every LDS access and barrier in its order: the bases of the tail's
    // epilogue come out of the kernel (any buffer of a rotation).
    if (barrier || isLdsAccess(op)) {
      if (lastLds >= 0)
        order(lastLds, j);
      lastLds = j;
    }
    InstFacts facts = lookupInstFacts(op);
    if ((facts.implicitUses | facts.implicitDefs) &
        (ImpVCC | ImpEXEC | ImpM0)) {
      if (lastImplicit >= 0)
        order(lastImplicit, j);
      lastImplicit = j;
    }
    unsigned global = (memReads(op) | memWrites(op)) & (MemGlobal | MemScalar);
    if (global) {
      for (unsigned i : globals)
        if (((memWrites(ops[i]) | memWrites(op)) & (MemGlobal | MemScalar)) &&
            alias(ops[i], op) != AliasResult::NoAlias)
          order(i, j);
      // A store stays on its side of a barrier; a load crosses one only
      // when no store of the loop may write its bytes. A single wave's
      // barrier orders no memory access (ir/Workgroup.h).
      bool pinned = !singleWave && (writesMemory(op) || mayMeetStore(op, loop));
      if (pinned)
        for (unsigned b : barriers)
          order(b, j);
      globals.push_back(j);
    }
    if (barrier) {
      for (unsigned g : globals)
        if (!singleWave && (writesMemory(ops[g]) || mayMeetStore(ops[g], loop)))
          order(g, j);
      barriers.push_back(j);
    }
  }
  // The next head's loads and their producers in the region go first.
  SmallVector<bool> prefetch(n, false);
  SmallVector<unsigned> stack;
  for (size_t j = tailOps; j < n; ++j)
    if ((memReads(ops[j]) & MemGlobal) && !writesMemory(ops[j]))
      stack.push_back(j);
  while (!stack.empty()) {
    unsigned j = stack.pop_back_val();
    if (prefetch[j])
      continue;
    prefetch[j] = true;
    for (auto [i, latency] : preds[j])
      if (latency)
        stack.push_back(i);
  }
  SmallVector<unsigned> waiting(n);
  SmallVector<SmallVector<unsigned>> succs(n);
  for (size_t j = 0; j < n; ++j)
    for (auto [i, latency] : preds[j]) {
      ++waiting[j];
      succs[i].push_back(j);
    }
  SmallVector<int64_t> ready(n, 0);
  SmallVector<bool> done(n, false);
  StepClock clock(target, !singleWave);
  SmallVector<Operation *> schedule;
  for (size_t k = 0; k < n; ++k) {
    int best = -1;
    std::tuple<bool, int64_t, bool, size_t> bestKey;
    for (size_t j = 0; j < n; ++j) {
      if (done[j] || waiting[j])
        continue;
      // A barrier waits for the stores and LDS accesses before it: it goes
      // as late as it can, into a slot nothing else is ready for.
      bool late = ready[j] > clock.now() || isa<S_BARRIER>(ops[j]);
      std::tuple<bool, int64_t, bool, size_t> key{
          late, late ? std::max(ready[j], clock.now()) : 0, !prefetch[j], j};
      if (best < 0 || key < bestKey) {
        best = j;
        bestKey = key;
      }
    }
    assert(best >= 0 && "the dependences form a cycle");
    done[best] = true;
    int64_t slot = clock.issue(ops[best], ready[best]);
    schedule.push_back(ops[best]);
    for (unsigned s : succs[best]) {
      --waiting[s];
      for (auto [i, latency] : preds[s])
        if (i == unsigned(best))
          ready[s] = std::max(ready[s], slot + std::max<int64_t>(1, latency));
    }
  }
  Operation *anchor = ops.back()->getNextNode();
  for (Operation *op : schedule)
    op->moveBefore(anchor);
}

LoopOp waveasm::overlapOuterIterations(LoopOp outer,
                                       const TargetModel *target) {
  Shape s;
  std::string why = analyse(outer, s);
  assert(why.empty() && "checkOuterOverlap first");
  (void)why;
  Block &body = outer.getBodyBlock();
  // Constants leave the body: nothing then carries an immediate.
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
    if (isa<ConstantOp>(op))
      op.moveBefore(outer);
  Location loc = outer.getLoc();
  unsigned numArgs = body.getNumArguments();
  OpBuilder b(outer);

  // Tile 0's head, before everything.
  IRMapping first;
  for (auto [arg, init] : llvm::zip(body.getArguments(), outer.getInitArgs()))
    first.map(arg, init);
  for (Operation *op : s.head)
    b.clone(*op, first);

  auto cloneTile = [&](OpBuilder &at, IRMapping &m) {
    at.clone(*s.kernel, m);
    for (Operation *op : s.tail)
      at.clone(*op, m);
    SmallVector<Value> yields;
    for (Value v : s.cond.getIterArgs())
      yields.push_back(m.lookupOrDefault(v));
    return yields;
  };
  auto exitOf = [&](OpBuilder &at, IRMapping &m) {
    for (Operation *op : s.slice)
      at.clone(*op, m);
    return m.lookupOrDefault(s.cond.getCondition());
  };

  LoopOp rotated;
  auto buildRotated = [&](OpBuilder &at) {
    SmallVector<Value> inits(outer.getInitArgs());
    SmallVector<Type> types(body.getArgumentTypes());
    for (Value v : s.carried) {
      inits.push_back(first.lookup(v));
      types.push_back(v.getType());
    }
    rotated = LoopOp::create(at, loc, types, inits);
    rotated->setDiscardableAttrs(outer->getDiscardableAttrDictionary());
    rotated->removeAttr(kTripCountAttrName);
    if (s.trips)
      rotated->setAttr(kTripCountAttrName, at.getI64IntegerAttr(*s.trips - 1));
    // Its body keeps the next tile's loads in flight into the kernel: its
    // waits are counted (CountedWaits.h), not vmcnt(0); so are the
    // program's (the peeled head(0) and last tile), as for any program
    // holding a kernel.
    markCountedWaits(rotated);
    Block *nb = new Block();
    rotated.getBody().push_back(nb);
    for (Type t : types)
      nb->addArgument(t, loc);
    OpBuilder rb = OpBuilder::atBlockEnd(nb);
    IRMapping cur;
    for (unsigned i = 0; i < numArgs; ++i)
      cur.map(body.getArgument(i), nb->getArgument(i));
    for (auto [j, v] : llvm::enumerate(s.carried))
      cur.map(v, nb->getArgument(numArgs + j));
    // Kernel(t), tail(t), then head(t+1) on the values tile t yields.
    SmallVector<Value> yields = cloneTile(rb, cur);
    Operation *kernelCopy = &nb->front();
    IRMapping next;
    for (unsigned i = 0; i < numArgs; ++i)
      next.map(body.getArgument(i), yields[i]);
    for (Operation *op : s.head)
      rb.clone(*op, next);
    SmallVector<Operation *> region;
    for (Operation *op = kernelCopy->getNextNode(); op; op = op->getNextNode())
      region.push_back(op);
    // Tile t+1's exit: does tile t+2 exist?
    Value c = exitOf(rb, next);
    for (Value v : s.carried)
      yields.push_back(next.lookup(v));
    ConditionOp::create(rb, s.cond.getLoc(), c, yields);
    if (!region.empty())
      interleave(region, s.tail.size(), rotated, target);
    at.setInsertionPointAfter(rotated);
    IRMapping last;
    for (unsigned i = 0; i < numArgs + s.carried.size(); ++i) {
      Value from =
          i < numArgs ? Value(body.getArgument(i)) : s.carried[i - numArgs];
      last.map(from, rotated.getResult(i));
    }
    return cloneTile(at, last);
  };

  SmallVector<Value> results;
  if (s.trips) {
    results = buildRotated(b);
  } else {
    // Tile 0's exit decides: a second tile runs the rotated loop, else
    // tile 0's kernel and tail alone.
    Value c0 = exitOf(b, first);
    auto ifOp = IfOp::create(b, loc, outer.getResultTypes(), c0);
    OpBuilder thenB =
        OpBuilder::atBlockEnd(b.createBlock(&ifOp.getThenRegion()));
    YieldOp::create(thenB, loc, buildRotated(thenB));
    OpBuilder elseB =
        OpBuilder::atBlockEnd(b.createBlock(&ifOp.getElseRegion()));
    YieldOp::create(elseB, loc, cloneTile(elseB, first));
    results.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  }
  for (auto [k, result] : llvm::enumerate(outer.getResults()))
    result.replaceAllUsesWith(results[k]);
  noteReplacement(outer, rotated);
  eraseOp(outer);
  return rotated;
}
