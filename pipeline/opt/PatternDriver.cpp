//===- PatternDriver.cpp - worklist driver for rewrite patterns -----------===//

#include "pipeline/opt/PatternDriver.h"

#include "pipeline/DeferredErase.h"
#include "pipeline/ForEachOp.h"

#include "ir/Dialect.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

#include <vector>

using namespace mlir;
using namespace waveasm;

namespace {

/// Ops waiting to be visited, first in first out, each at most once. An
/// erased op is dropped from `pending`; its stale slot is skipped.
class OpQueue {
public:
  void push(Operation *op) {
    if (pending.insert(op).second)
      queue.push_back(op);
  }
  /// Pushes `ops`, distinct and none pending, with the set sized for them
  /// at once (grown from empty, it rehashed every entry several times).
  void pushDistinct(llvm::ArrayRef<Operation *> ops) {
    pending.reserve(pending.size() + ops.size());
    queue.reserve(queue.size() + ops.size());
    for (Operation *op : ops) {
      pending.insert(op);
      queue.push_back(op);
    }
  }
  void remove(Operation *op) { pending.erase(op); }
  Operation *pop() {
    while (next < queue.size()) {
      Operation *op = queue[next++];
      if (pending.erase(op))
        return op;
    }
    queue.clear();
    next = 0;
    return nullptr;
  }

private:
  std::vector<Operation *> queue;
  size_t next = 0;
  llvm::DenseSet<Operation *> pending;
};

/// Whether a pattern of the set could match an op: one rooted on its name,
/// a match-any pattern that `anyOpMayMatch` does not rule out, or PDL. An
/// op no pattern can match is never queued: trying it would only fail (a
/// failed match changes nothing), and the rest keep their order. At 20k
/// instructions most ops have no peephole rule, and queueing and trying
/// each was half of the pass.
class MatchFilter {
public:
  MatchFilter(const FrozenRewritePatternSet &patterns,
              function_ref<bool(Operation *)> anyOpMayMatch)
      : patterns(patterns), anyOpMayMatch(anyOpMayMatch),
        everyOp(patterns.getPDLByteCode() ||
                (!patterns.getMatchAnyOpNativePatterns().empty() &&
                 !anyOpMayMatch)),
        anyOp(!patterns.getMatchAnyOpNativePatterns().empty()) {}

  bool operator()(Operation *op) {
    if (everyOp)
      return true;
    return patterns.getOpSpecificNativePatterns().count(op->getName()) ||
           (anyOp && anyOpMayMatch(op));
  }

private:
  const FrozenRewritePatternSet &patterns;
  function_ref<bool(Operation *)> anyOpMayMatch;
  bool everyOp, anyOp;
};

/// An op a rewrite may have left dead that the driver may erase.
bool isErasableWhenUnused(Operation *op) {
  return op->getNumResults() > 0 && op->use_empty() &&
         op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         !isa<PrecoloredVRegOp, PrecoloredSRegOp, PrecoloredARegOp>(op);
}

class WorklistRewriter final : public PatternRewriter,
                               public RewriterBase::Listener {
public:
  WorklistRewriter(MLIRContext *context, const char *debugType,
                   MatchFilter &mayMatch)
      : PatternRewriter(context), debugType(debugType), mayMatch(mayMatch) {
    setListener(this);
  }

  /// Queues `op` unless no pattern can match it.
  void enqueue(Operation *op) {
    if (mayMatch(op))
      worklist.push(op);
  }
  /// Whether a pattern may match `op`.
  bool mayMatchOp(Operation *op) { return mayMatch(op); }

  OpQueue worklist;
  /// Ops that lost a use in the current rewrite.
  OpQueue maybeDead;
  /// The pattern being tried, for the log.
  StringRef currentPattern;

  void eraseOp(Operation *op) override {
    if (op->getNumRegions())
      return PatternRewriter::eraseOp(op);
    assert(op->use_empty() && "erasing an op whose results are used");
    notifyOperationErased(op);
    waveasm::eraseOp(op);
  }

  /// Erases what the last rewrite left dead, transitively.
  void eraseDeadOps() {
    while (Operation *op = maybeDead.pop())
      if (isErasableWhenUnused(op)) {
        DEBUG_WITH_TYPE(debugType, llvm::dbgs()
                                       << "[" << debugType << "] erased dead '"
                                       << op->getName() << "' at "
                                       << op->getLoc() << "\n");
        eraseOp(op);
      }
  }

private:
  /// `value` is about to lose its use by `user`: its definition may become
  /// dead, and when one use remains, a pattern that wants a single-use
  /// operand may now match that user. (Revisiting every user of a value
  /// with many, such as a shared constant, on each rewrite would make the
  /// driver quadratic.)
  void losingUse(Value value, Operation *user) {
    if (Operation *def = value.getDefiningOp())
      maybeDead.push(def);
    Operation *other = nullptr;
    unsigned count = 0;
    for (OpOperand &use : value.getUses()) {
      if (++count > 2)
        return;
      if (use.getOwner() != user)
        other = use.getOwner();
    }
    if (other)
      enqueue(other);
  }

  void startOpModification(Operation *op) override {
    for (Value operand : op->getOperands())
      losingUse(operand, op);
    PatternRewriter::startOpModification(op);
  }

  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    enqueue(op);
  }

  void notifyOperationModified(Operation *op) override {
    enqueue(op);
    for (Operation *user : op->getUsers())
      enqueue(user);
  }

  void notifyOperationErased(Operation *op) override {
    worklist.remove(op);
    maybeDead.remove(op);
    for (Value operand : op->getOperands())
      losingUse(operand, op);
  }

  void
  notifyMatchFailure(Location loc,
                     function_ref<void(Diagnostic &)> reasonCallback) override {
    DEBUG_WITH_TYPE(debugType, {
      Diagnostic diag(loc, DiagnosticSeverity::Remark);
      reasonCallback(diag);
      llvm::dbgs() << "[" << debugType << "] '" << currentPattern
                   << "' not applied at " << loc << ": " << diag.str() << "\n";
    });
  }

  const char *debugType;
  MatchFilter &mayMatch;
};

} // namespace

bool waveasm::applyPatternsWithWorklist(
    Operation *root, const FrozenRewritePatternSet &patterns,
    const char *debugType, function_ref<bool(Operation *)> anyOpMayMatch) {
  MatchFilter mayMatch(patterns, anyOpMayMatch);
  WorklistRewriter rewriter(root->getContext(), debugType, mayMatch);
  size_t numOps = 0;
  std::vector<Operation *> initial;
  for (Region &region : root->getRegions())
    forEachOpPreOrder(region, [&](Operation *op) {
      if (rewriter.mayMatchOp(op))
        initial.push_back(op);
      ++numOps;
    });
  rewriter.worklist.pushDistinct(initial);

  PatternApplicator applicator(patterns);
  applicator.applyDefaultCostModel();
  // Every pattern removes or simplifies instructions, so a fixed point comes
  // long before this; the budget only guards against a pattern pair undoing
  // each other.
  size_t budget = 16 * numOps + 64, rewrites = 0;
  while (Operation *op = rewriter.worklist.pop()) {
    if (rewrites == budget) {
      DEBUG_WITH_TYPE(debugType, llvm::dbgs() << "[" << debugType
                                              << "] rewrite budget of "
                                              << budget << " exhausted\n");
      break;
    }
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    auto onSuccess = [&](const Pattern &pattern) {
      DEBUG_WITH_TYPE(debugType, llvm::dbgs()
                                     << "[" << debugType << "] applied '"
                                     << pattern.getDebugName() << "' at " << loc
                                     << "\n");
      return success();
    };
    auto canApply = [&](const Pattern &pattern) {
      rewriter.currentPattern = pattern.getDebugName();
      return true;
    };
    if (failed(applicator.matchAndRewrite(op, rewriter, canApply,
                                          /*onFailure=*/{}, onSuccess)))
      continue;
    ++rewrites;
    rewriter.eraseDeadOps();
  }
  return rewrites != 0;
}
