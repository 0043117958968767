//===- BufferLoadStrengthReduction.cpp - voffsets out of loops, soffset bumps //
//
// `waveasm-buffer-load-strength-reduction` (SPEC.md 18.3). A buffer load in
// a loop body whose voffset is recomputed from the induction variable (block
// argument 0, stepped by `s_add_u32(iv, c)` as iter_arg 0) with address
// arithmetic moves by a constant stride per iteration (InductionStride.h).
// Per loop, inner loops first:
//
//   1. candidates are grouped by (descriptor, stride, original soffset);
//   2. the voffset chains of all candidates are cloned once before the loop
//      with the block arguments replaced by their inits, CSE'd as they are
//      cloned;
//   3. in a group of two or more loads, a precomputed voffset is split into
//      (VGPR base, SGPR addends, constant); loads with the group's first
//      base use that base, the constant in `offset` (when the total stays
//      <= 4095, the constant is >= 0 and the load is not an `_lds` load) and
//      the addends in their soffset; other loads keep the precomputed
//      voffset;
//   4. the loop is rebuilt with one SGPR iter_arg per group (init: the
//      original soffset; an immediate -- or here also a physical SGPR -- is
//      moved into a virtual SGPR with `s_mov_b32` first); the
//      loads take the hoisted voffset and the group's soffset (plus
//      `s_add_u32 soff, addends` where needed: after the direct-to-LDS load
//      or before the barrier ahead of the first load that reads the sum,
//      else at the top of the body; see placeAddendSum);
//   5. `s_add_u32 soff, stride` per group is placed before the compare that
//      feeds the condition (it writes SCC), its result yielded.
// Chain ops of the body and pre-loop clones left without uses are erased.
// Finally, over the whole program: a buffer load with constant-0 soffset
// whose voffset is `v_add_u32(vgpr, sgpr)` used only as buffer-load
// voffsets gets voffset = vgpr, soffset = sgpr.
//
// Differences from upstream, for correctness:
//   * the trip count for the overflow check (|stride| x trips > 2^31-1
//     rejects the load) comes from analysis/TripCount.h, which also sees
//     `s_mov_b32` inits (every example has one), the other compares and a
//     `trip_count` attribute; upstream only sees `s_cmp_lt_u32(next_iv, C)`
//     with a `constant` init and skips the check otherwise;
//   * a loop in which an SCC value defined before it is read is left alone:
//     the `s_add_u32`s placed before and at the top of the body would
//     clobber it;
//   * upstream rebuilds the loop and reverts when a value of the old body is
//     still used outside it; here every check precedes the first change, the
//     body moves into the new loop (LoopRewrite.h) and nothing is reverted.
// A load or loop that does not qualify is left alone; `--debug-only=<flag
// name>` says why.
//
//===----------------------------------------------------------------------===//

#include "pipeline/DeferredErase.h"
#include "pipeline/ForEachOp.h"
#include "pipeline/Passes.h"
#include "pipeline/opt/AffineAddress.h"
#include "pipeline/opt/InductionStride.h"
#include "pipeline/opt/LoadsAfterReads.h"
#include "pipeline/opt/LoopRewrite.h"

#include "analysis/TripCount.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "waveasm-buffer-load-strength-reduction"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMBUFFERLOADSTRENGTHREDUCTION
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

constexpr int64_t kMaxInstOffset = 4095;
constexpr llvm::StringLiteral kInstOffset = "instOffset";

struct Candidate {
  Operation *load;
  BufferLoadOperands operands;
  int64_t stride;
};

/// Loads of one (descriptor, stride, original soffset).
using GroupKey = std::tuple<Value, int64_t, Value>;
using Groups = llvm::MapVector<GroupKey, SmallVector<Candidate>>;

Value operandOf(const Candidate &c, unsigned index) {
  return c.load->getOperand(index);
}

int64_t getInstOffset(Operation *load) {
  auto attr = load->getAttrOfType<IntegerAttr>(kInstOffset);
  return attr ? attr.getInt() : 0;
}

bool isVGPRValue(Value v) { return getRegClass(v.getType()) == RegClass::VGPR; }
bool isSGPRValue(Value v) { return getRegClass(v.getType()) == RegClass::SGPR; }

/// An SGPR that is certainly zero.
bool isProvablyZero(Value v) {
  if (getConstantValue(v) == 0)
    return true;
  auto mov = v.getDefiningOp<S_MOV_B32>();
  return mov && getConstantValue(mov.getSrc()) == 0;
}

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

void logLoad(Operation *load, const char *why, Operation *culprit = nullptr) {
  LLVM_DEBUG({
    llvm::dbgs() << DEBUG_TYPE << ": load at " << load->getLoc()
                 << " not rewritten: " << why;
    if (culprit)
      llvm::dbgs() << " ('" << culprit->getName() << "' at "
                   << culprit->getLoc() << ")";
    llvm::dbgs() << "\n";
  });
}

void logLoop(LoopOp loop, const char *why) {
  LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE << ": loop at " << loop.getLoc()
                          << " not rewritten: " << why << "\n");
}

/// Upstream: 2^31 - 1 is the largest soffset the check allows.
constexpr int64_t kMaxSoffset = (int64_t(1) << 31) - 1;

/// The loop's candidates, grouped; empty when the loop does not qualify.
Groups findCandidates(LoopOp loop) {
  Groups groups;
  if (isRegisterAllocated(loop)) {
    logLoop(loop, "it is register-allocated");
    return groups;
  }
  const char *why = nullptr;
  std::optional<InductionVariable> iv = getInductionVariable(loop, why);
  if (!iv) {
    logLoop(loop, why);
    return groups;
  }
  Block &body = loop.getBodyBlock();
  Operation *compare = loop.getConditionOp().getCondition().getDefiningOp();
  if (!compare || compare->getBlock() != &body) {
    logLoop(loop, "the loop condition is not computed in the body");
    return groups;
  }
  // Asked once, for the first load that needs it (inferring a count can
  // simulate the compare).
  std::optional<TripCount> trips;
  auto tripLimit = [&]() -> std::optional<int64_t> {
    if (!trips)
      trips = getTripCount(loop);
    if (trips->source == TripCountSource::Default)
      return std::nullopt;
    return kMaxSoffset / std::max<int64_t>(trips->count, 1);
  };

  StrideAnalysis strides(loop, *iv);
  for (Operation &op : body.without_terminator()) {
    std::optional<BufferLoadOperands> operands = getBufferLoadOperands(&op);
    if (!operands)
      continue;
    Value voffset = op.getOperand(operands->voffset);
    Operation *def = voffset.getDefiningOp();
    if (!def || def->getBlock() != &body)
      continue; // not recomputed in this body
    const StrideAnalysis::Stride &s = strides.get(voffset);
    if (s.error) {
      logLoad(&op, s.error, s.culprit);
      continue;
    }
    if (!s.dependsOnIV) {
      logLoad(&op, "the voffset does not depend on the induction variable");
      continue;
    }
    if (s.perIteration == 0) {
      logLoad(&op, "stride 0");
      continue;
    }
    if (std::optional<int64_t> limit = tripLimit();
        limit && std::abs(s.perIteration) > *limit) {
      logLoad(&op, "stride x trip count exceeds 2^31 - 1");
      continue;
    }
    Value soffset = op.getOperand(operands->soffset);
    if (!isDefinedOutside(soffset, loop)) {
      logLoad(&op, "the soffset is computed in the loop");
      continue;
    }
    Value srd = op.getOperand(operands->srd);
    groups[{srd, s.perIteration, soffset}].push_back(
        {&op, *operands, s.perIteration});
  }
  if (groups.empty())
    return groups;

  // SCC read in the loop but written before it.
  WalkResult scc = loop.getBody().walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (isa<SCCType>(v.getType()) && isDefinedOutside(v, loop))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (scc.wasInterrupted()) {
    logLoop(loop, "an SCC value defined before the loop is read in it");
    groups.clear();
  }
  return groups;
}

//===----------------------------------------------------------------------===//
// Pre-loop clones
//===----------------------------------------------------------------------===//

/// Structural identity of cloned ops (MLIR's CSE key).
struct ClonedOpInfo : llvm::DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *op) {
    return OperationEquivalence::computeHash(
        const_cast<Operation *>(op), OperationEquivalence::directHashValue,
        OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations);
  }
  static bool isEqual(const Operation *lhs, const Operation *rhs) {
    if (lhs == rhs)
      return true;
    if (lhs == getEmptyKey() || lhs == getTombstoneKey() ||
        rhs == getEmptyKey() || rhs == getTombstoneKey())
      return false;
    return OperationEquivalence::isEquivalentTo(
        const_cast<Operation *>(lhs), const_cast<Operation *>(rhs),
        OperationEquivalence::IgnoreLocations);
  }
};

/// The voffset chains of a loop's candidates evaluated before the loop at
/// the first iteration.
class ChainClones {
public:
  explicit ChainClones(LoopOp loop) : builder(loop) {
    for (auto [arg, init] :
         llvm::zip(loop.getBodyBlock().getArguments(), loop.getInitArgs()))
      mapping.map(arg, init);
  }

  /// Clones the body-block ops in `chainOps` (in body order) before the
  /// loop. A clone structurally equal to an earlier one is dropped at once
  /// and the body op is mapped to the earlier clone.
  ///
  /// Upstream: clones every chain, then runs a local CSE over them while it
  /// still holds the clones' values; when two groups share one voffset
  /// expression CSE erases a clone the pass then uses (SPEC.md 21 item 16).
  /// Here `mapping` is the replacement map: a dropped clone never had a use
  /// and every hoisted value is looked up through the map, after CSE.
  void clone(Block &body, const llvm::DenseSet<Operation *> &chainOps) {
    for (Operation &op : body) {
      if (!chainOps.contains(&op))
        continue;
      Operation *copy = builder.clone(op, mapping);
      if (copy->hasAttr("no_cse")) {
        clones.push_back(copy);
        continue;
      }
      auto [it, inserted] = unique.insert(copy);
      if (inserted) {
        clones.push_back(copy);
        continue;
      }
      mapping.map(op.getResults(), (*it)->getResults());
      copy->erase();
    }
  }

  Value lookup(Value bodyValue) const {
    return mapping.lookupOrDefault(bodyValue);
  }
  OpBuilder &getBuilder() { return builder; }

  /// Erases the clones nothing ended up using.
  void eraseUnused() {
    for (Operation *op : llvm::reverse(clones))
      if (op->use_empty())
        eraseOp(op);
  }

private:
  OpBuilder builder;
  IRMapping mapping;
  llvm::DenseSet<Operation *, ClonedOpInfo> unique;
  SmallVector<Operation *> clones;
};

/// The body-block ops the candidates' voffsets are computed by.
llvm::DenseSet<Operation *> collectChainOps(Block &body, const Groups &groups) {
  llvm::DenseSet<Operation *> ops;
  SmallVector<Operation *> stack;
  for (const auto &[key, loads] : groups)
    for (const Candidate &c : loads)
      stack.push_back(operandOf(c, c.operands.voffset).getDefiningOp());
  while (!stack.empty()) {
    Operation *op = stack.pop_back_val();
    if (!op || op->getBlock() != &body || !ops.insert(op).second)
      continue;
    for (Value v : op->getOperands())
      stack.push_back(v.getDefiningOp());
  }
  return ops;
}

/// A precomputed voffset as base + SGPR addends + constant.
struct SplitOffset {
  Value base;
  SmallVector<Value> sgprAddends;
  int64_t constant = 0;
};

SplitOffset splitOffset(Value voffset) {
  SplitOffset split;
  Value v = voffset;
  while (auto add = v.getDefiningOp<V_ADD_U32>()) {
    if (std::optional<int64_t> c = getConstantValue(add.getSrc1())) {
      split.constant += *c;
      v = add.getSrc0();
    } else if (std::optional<int64_t> c = getConstantValue(add.getSrc0())) {
      split.constant += *c;
      v = add.getSrc1();
    } else {
      break;
    }
  }
  while (auto add = v.getDefiningOp<V_ADD_U32>()) {
    Value lhs = add.getSrc0(), rhs = add.getSrc1();
    if (isVGPRValue(lhs) && isSGPRValue(rhs)) {
      split.sgprAddends.push_back(rhs);
      v = lhs;
    } else if (isSGPRValue(lhs) && isVGPRValue(rhs)) {
      split.sgprAddends.push_back(lhs);
      v = rhs;
    } else {
      break;
    }
  }
  // A voffset operand must be a VGPR: `v_add_u32(sgpr, 4000)` is not split
  // into an SGPR base (found by LoopOptTest's random programs).
  if (!isVGPRValue(v))
    return SplitOffset{voffset, {}, 0};
  split.base = v;
  return split;
}

//===----------------------------------------------------------------------===//
// Rewrite
//===----------------------------------------------------------------------===//

/// How one load is rewritten.
struct LoadPlan {
  Value voffset;
  int64_t instOffset;
  /// Pre-loop SGPR added to the group's soffset, or null.
  Value addend;
};

/// Sums `addends` (pre-loop SGPRs) before the loop, skipping provable
/// zeros; null when nothing is left.
Value sumAddends(OpBuilder &b, Location loc, ArrayRef<Value> addends) {
  Value sum;
  Type sreg = SRegType::get(b.getContext(), 1, 1);
  for (Value addend : addends) {
    if (isProvablyZero(addend))
      continue;
    sum = sum ? S_ADD_U32::create(b, loc, sreg, SCCType::get(b.getContext()),
                                  sum, addend)
                    .getDst()
              : addend;
  }
  return sum;
}

/// In a pipelined kernel, step j's voffset is step 0's at counter + j: a
/// load of the group whose hoisted voffset is an earlier load's (one that
/// uses the first base) plus a constant (AffineAddress.h) takes that load's
/// base and SGPR addend, the constant's low 12 bits in `offset` and the
/// rest (all of it for an `_lds` load, which has no offset here) added to
/// the addend, one `s_add_u32` per distinct addend per kernel iteration, so
/// a kernel of U steps keeps one VGPR per group instead of one per load
/// (VGPRs cost waves; a SALU slot per kernel iteration is cheap). Loops as
/// written keep SPEC.md 18.3's plan.
void shareKernelBases(ArrayRef<Candidate> loads,
                      MutableArrayRef<LoadPlan> plans, ArrayRef<Value> hoisted,
                      Value firstBase, OpBuilder &pre, Location loc) {
  AffineAddresses affine;
  // (hoisted voffset, plan, the constant its hoisted voffset adds to the
  // first base) of the loads on the first base.
  SmallVector<std::tuple<Value, LoadPlan, int64_t>> anchors;
  llvm::SmallDenseMap<std::pair<Value, int64_t>, Value> addends;
  for (auto [c, plan, voffset] : llvm::zip(loads, plans, hoisted)) {
    if (plan.voffset == firstBase) {
      // The plan's offset is the load's own plus that constant.
      anchors.push_back(
          {voffset, plan, plan.instOffset - getInstOffset(c.load)});
      continue;
    }
    for (const auto &[anchorVoffset, anchor, anchorConstant] : anchors) {
      std::optional<uint32_t> d =
          affine.constantDifference(voffset, anchorVoffset);
      // A difference of 2^31 or more is a load below the anchor.
      if (!d || *d >= (uint32_t(1) << 31))
        continue;
      // The anchor's hoisted voffset is firstBase + its addend + its
      // constant (not its own offset); this load reads d bytes further
      // plus its own offset.
      int64_t total = anchorConstant + int64_t(*d) + plan.instOffset;
      int64_t inField =
          c.operands.toLDS ? plan.instOffset : total % (kMaxInstOffset + 1);
      int64_t rest = total - inField;
      Value &addend = addends[{anchor.addend, rest}];
      if (!addend && rest != 0) {
        Value imm = getImmediate(pre, loc, rest);
        addend =
            anchor.addend ? sumAddends(pre, loc, {anchor.addend, imm}) : imm;
      }
      plan.voffset = firstBase;
      plan.instOffset = inField;
      plan.addend = rest != 0 ? addend : anchor.addend;
      break;
    }
  }
}

SmallVector<LoadPlan> planGroup(ArrayRef<Candidate> loads, ChainClones &clones,
                                Location loc, bool kernel) {
  SmallVector<LoadPlan> plans;
  for (const Candidate &c : loads)
    plans.push_back({clones.lookup(operandOf(c, c.operands.voffset)),
                     getInstOffset(c.load), Value()});
  if (loads.size() < 2)
    return plans;
  SmallVector<Value> hoisted;
  for (const LoadPlan &plan : plans)
    hoisted.push_back(plan.voffset);
  SmallVector<SplitOffset> splits;
  for (const LoadPlan &plan : plans)
    splits.push_back(splitOffset(plan.voffset));
  Value firstBase = splits.front().base;
  for (auto [c, plan, split] : llvm::zip(loads, plans, splits)) {
    if (split.base != firstBase)
      continue;
    int64_t total = plan.instOffset + split.constant;
    if (split.constant != 0 &&
        (split.constant < 0 || total > kMaxInstOffset || c.operands.toLDS))
      continue;
    plan.voffset = firstBase;
    plan.instOffset = total;
    plan.addend = sumAddends(clones.getBuilder(), loc, split.sgprAddends);
  }
  if (kernel && firstBase)
    shareKernelBases(loads, plans, hoisted, firstBase, clones.getBuilder(),
                     loc);
  return plans;
}

/// Whether an SCC value defined in `body` before `at` is read at or after
/// it (an op inserted before `at` that writes SCC would clobber it).
bool sccLiveBefore(Block &body, Operation *at) {
  for (Operation &op : body) {
    if (&op == at)
      return false;
    for (Value result : op.getResults()) {
      if (!isa<SCCType>(result.getType()))
        continue;
      for (Operation *user : result.getUsers()) {
        Operation *userInBody = body.findAncestorOpInBlock(*user);
        if (!userInBody || !userInBody->isBeforeInBlock(at))
          return true;
      }
    }
  }
  return false;
}

/// Where `s_add_u32 soff, addend` goes, `firstUser` being the first load of
/// the body that reads the sum: right after the direct-to-LDS load before
/// it in its step (no barrier in between), else before the barrier ahead
/// of it, else at the top of the body; never where an SCC value is live
/// (the add writes SCC), the next candidate then.
///
/// Upstream: at the top of the body (SPEC.md 18.3 step 4). In a pipelined
/// kernel of U steps each step's loads have their own sum, and the top of
/// the body is the head of the first step, between the back edge and that
/// step's direct-to-LDS load: the preshuffled mxfp4 kernel issued six adds
/// there, so its first DMA, which the barrier four steps on waits for,
/// issued six slots late. Right before its load an add delays that load (a
/// 2-stage kernel whose steps wait for the loads of the step before lost a
/// slot a step); after the step's DMA it delays neither the DMA nor, in
/// the steps whose loads follow a barrier and no DMA, the barrier's
/// window; before that barrier it issues while the wave drains the step
/// before (the preshuffled kernel: 160 -> 157 slots for 6 steps).
OpBuilder placeAddendSum(Block &body, Operation *firstUser) {
  Operation *barrier = nullptr;
  for (Operation *op = firstUser->getPrevNode(); op && !barrier;
       op = op->getPrevNode()) {
    if (isDirectToLds(op) && !sccLiveBefore(body, op->getNextNode()))
      return OpBuilder(op->getNextNode());
    if (isa<S_BARRIER>(op))
      barrier = op;
  }
  if (barrier && !sccLiveBefore(body, barrier))
    return OpBuilder(barrier);
  return OpBuilder::atBlockBegin(&body);
}

void rewriteLoop(LoopOp loop, Groups &groups) {
  MLIRContext *ctx = loop.getContext();
  Location loc = loop.getLoc();
  Block &body = loop.getBodyBlock();
  ConditionOp cond = loop.getConditionOp();
  Operation *compare = cond.getCondition().getDefiningOp();
  Type sreg = SRegType::get(ctx, 1, 1);
  Type scc = SCCType::get(ctx);

  llvm::DenseSet<Operation *> chainOps = collectChainOps(body, groups);
  ChainClones clones(loop);
  clones.clone(body, chainOps);
  OpBuilder &pre = clones.getBuilder();

  SmallVector<Value> inits(loop.getInitArgs());
  SmallVector<Value> iterArgs(cond.getIterArgs());
  OpBuilder bump(compare);
  for (auto &[key, loads] : groups) {
    auto [srd, stride, soffset] = key;
    SmallVector<LoadPlan> plans =
        planGroup(loads, clones, loc, getPipelinedKernelSteps(loop) != 0);
    // The block argument is a virtual SGPR; an immediate or a physical
    // SGPR init is copied into one (init and block argument then have one
    // type, and the precolored register is not tied to the bumped value).
    Value init = soffset;
    if (init.getType() != sreg)
      init = S_MOV_B32::create(pre, loc, sreg, soffset);
    inits.push_back(init);
    BlockArgument soff = body.addArgument(sreg, loc);
    // One `s_add_u32 soff, addend` per distinct addend of the group.
    llvm::SmallDenseMap<Value, Value> withAddend;
    for (auto [c, plan] : llvm::zip(loads, plans)) {
      Value loadSoffset = soff;
      if (plan.addend) {
        Value &sum = withAddend[plan.addend];
        if (!sum) {
          OpBuilder at = placeAddendSum(body, c.load);
          sum =
              S_ADD_U32::create(at, loc, sreg, scc, soff, plan.addend).getDst();
        }
        loadSoffset = sum;
      }
      c.load->setOperand(c.operands.voffset, plan.voffset);
      c.load->setOperand(c.operands.soffset, loadSoffset);
      if (plan.instOffset != getInstOffset(c.load))
        c.load->setAttr(kInstOffset, IntegerAttr::get(IntegerType::get(ctx, 64),
                                                      plan.instOffset));
    }
    Value step = getImmediate(pre, loc, stride);
    iterArgs.push_back(
        S_ADD_U32::create(bump, loc, sreg, scc, soff, step).getDst());
  }
  cond.getIterArgsMutable().assign(iterArgs);

  // The body's chain ops that only the loads used, last use first.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (chainOps.contains(&op) && op.use_empty())
      eraseOp(&op);
  clones.eraseUnused();

  replaceLoopKeepingResults(loop, inits);
}

/// The whole-program peephole: constant-0 soffset and voffset
/// `v_add_u32(vgpr, sgpr)` used only as buffer-load voffsets.
void foldSgprAddendsIntoSoffset(ProgramOp program) {
  llvm::SetVector<Operation *> adds;
  forEachOpPostOrder(program.getBody(), [&](Operation *op) {
    std::optional<BufferLoadOperands> operands = getBufferLoadOperands(op);
    if (!operands || getConstantValue(op->getOperand(operands->soffset)) != 0)
      return;
    auto add = op->getOperand(operands->voffset).getDefiningOp<V_ADD_U32>();
    if (!add)
      return;
    Value lhs = add.getSrc0(), rhs = add.getSrc1();
    Value vgpr = isVGPRValue(lhs) ? lhs : rhs;
    Value sgpr = isVGPRValue(lhs) ? rhs : lhs;
    if (!isVGPRValue(vgpr) || !isSGPRValue(sgpr))
      return;
    for (OpOperand &use : add->getUses()) {
      std::optional<BufferLoadOperands> user =
          getBufferLoadOperands(use.getOwner());
      if (!user || use.getOperandNumber() != user->voffset)
        return;
    }
    op->setOperand(operands->voffset, vgpr);
    op->setOperand(operands->soffset, sgpr);
    adds.insert(add);
  });
  for (Operation *add : adds)
    if (add->use_empty())
      eraseOp(add);
}

struct BufferLoadStrengthReductionPass
    : public waveasm::impl::WaveASMBufferLoadStrengthReductionBase<
          BufferLoadStrengthReductionPass> {
  void runOnOperation() override {
    for (LoopOp loop : collectLoopsInnerFirst(getOperation())) {
      Groups groups = findCandidates(loop);
      if (groups.empty())
        continue;
      LLVM_DEBUG({
        llvm::dbgs() << DEBUG_TYPE << ": loop at " << loop.getLoc() << ":";
        for (const auto &[key, loads] : groups)
          llvm::dbgs() << " group (stride " << std::get<1>(key) << ", "
                       << loads.size() << " load(s))";
        llvm::dbgs() << "\n";
      });
      rewriteLoop(loop, groups);
    }
    foldSgprAddendsIntoSoffset(getOperation());
  }
};

} // namespace
