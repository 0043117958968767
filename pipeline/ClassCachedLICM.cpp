//===- ClassCachedLICM.cpp - the pipeline's loop-invariant code motion ----===//
//
// MLIR's LICM pass walks the loops innermost first and hoists, per loop,
// every op that is memory-effect free, speculatable and whose operands are
// defined outside the loop. The first two questions were half of the pass
// on a 20k-instruction program: each is an interface search through a
// type-erased callback, and `isMemoryEffectFree` collects the op's effects
// into a vector to see that it is empty. A WaveASM op without regions gets
// its effects and its speculatability from its ODS traits (the dialect
// declares no `getEffects` or `getSpeculatability` of its own), the same for
// every op of its class, so the answer is read once per class. Ops with
// regions (their nested ops decide) and other dialects' ops (whose effects
// may depend on the instance) are asked every time, as MLIR does. With the
// cache the pass runs MLIR's worklist itself (hoist below), where a try of
// an op without regions reads its operands directly instead of walking it.
// tests/unit/LICMTest.cpp compares the pass with MLIR's on random programs
// and on the examples at the pipeline's position.
//
//===----------------------------------------------------------------------===//

#include "pipeline/ClassCachedLICM.h"

#include "ir/Dialect.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

using namespace mlir;
using namespace waveasm;

namespace {

class ClassCachedLICM : public PassWrapper<ClassCachedLICM, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ClassCachedLICM)

  explicit ClassCachedLICM(bool classCache) : classCache(classCache) {}

  // MLIR's LICM's names: --mlir-print-ir-after=loop-invariant-code-motion,
  // the printed pipeline, the snapshots and timing reports name it as
  // before.
  StringRef getArgument() const override {
    return "loop-invariant-code-motion";
  }
  StringRef getName() const override { return "LoopInvariantCodeMotion"; }
  StringRef getDescription() const override {
    return "Hoist loop invariant instructions outside of the loop";
  }

  void runOnOperation() override {
    waveasm = getContext().getLoadedDialect<WaveASMDialect>();
    movable.clear();
    // Innermost loops first (post-order), as MLIR's pass: an op hoisted
    // from an inner loop may be hoisted again from the outer one.
    // An op without regions is no loop: the interface is looked up only on
    // ops with regions (the lookup searched every op's interface map).
    getOperation()->walk([&](Operation *op) {
      if (op->getNumRegions() == 0)
        return;
      auto loopLike = dyn_cast<LoopLikeOpInterface>(op);
      if (!loopLike)
        return;
      if (classCache) {
        hoist(loopLike);
        return;
      }
      moveLoopInvariantCode(
          loopLike.getLoopRegions(),
          [&](Value value, Region *) {
            return loopLike.isDefinedOutsideOfLoop(value);
          },
          [&](Operation *op, Region *) { return mayMove(op); },
          [&](Operation *op, Region *) { loopLike.moveOutOfLoop(op); });
    });
  }

private:
  /// MLIR's moveLoopInvariantCode on `loopLike`: per loop region, a first-in
  /// first-out worklist of its ops; an op that may move and whose operands
  /// (its nested ops' too, but for values defined inside it) are all defined
  /// outside the loop is moved before it, and its users in the region are
  /// queued again. The same ops are tried in the same order; what differs is
  /// the cost of a try: an op without regions reads its operands directly
  /// (MLIR walks every op, nested or not, through a callback), and a WaveASM
  /// terminator is refused by its class (mayMove) instead of by a trait
  /// search of every op.
  void hoist(LoopLikeOpInterface loopLike) {
    for (Region *region : loopLike.getLoopRegions()) {
      worklist.clear();
      for (Operation &op : region->getOps())
        worklist.push_back(&op);
      for (size_t next = 0; next < worklist.size(); ++next) {
        Operation *op = worklist[next];
        // Skip ops already moved.
        if (op->getParentRegion() != region)
          continue;
        if (!mayMove(op) || !canBeHoisted(op, loopLike))
          continue;
        loopLike.moveOutOfLoop(op);
        for (Operation *user : op->getUsers())
          if (user->getParentRegion() == region)
            worklist.push_back(user);
      }
    }
  }

  /// MLIR's canBeHoisted: not a terminator, and every operand of `op` and
  /// of its nested ops defined outside the loop unless defined inside `op`.
  bool canBeHoisted(Operation *op, LoopLikeOpInterface loopLike) {
    if (op->getNumRegions() == 0 && isCachedClass(op)) {
      // mayMove said yes: not a terminator (refused with the class).
      return llvm::all_of(op->getOperands(), [&](Value value) {
        return loopLike.isDefinedOutsideOfLoop(value);
      });
    }
    if (op->hasTrait<::mlir::OpTrait::IsTerminator>())
      return false;
    return !op->walk([&](Operation *child) {
                return llvm::all_of(
                           child->getOpOperands(),
                           [&](OpOperand &operand) {
                             Value value = operand.get();
                             return op->isAncestor(value.getParentRegion()
                                                       ->getParentOp()) ||
                                    loopLike.isDefinedOutsideOfLoop(value);
                           })
                           ? WalkResult::advance()
                           : WalkResult::interrupt();
              }).wasInterrupted();
  }

  /// Whether mayMove answers `op` from its class.
  bool isCachedClass(Operation *op) const {
    return classCache && waveasm && op->getNumRegions() == 0 &&
           op->getDialect() == waveasm;
  }

  static bool askOp(Operation *op) {
    return isMemoryEffectFree(op) && isSpeculatable(op);
  }

  /// With the class cache, a WaveASM terminator is refused here (hoist's
  /// canBeHoisted would refuse it anyway; a terminator is one per class).
  bool mayMove(Operation *op) {
    if (!isCachedClass(op))
      return askOp(op);
    auto [it, inserted] = movable.try_emplace(op->getName(), false);
    if (inserted)
      it->second = askOp(op) && !op->hasTrait<::mlir::OpTrait::IsTerminator>();
    return it->second;
  }

  bool classCache;
  Dialect *waveasm = nullptr;
  llvm::DenseMap<OperationName, bool> movable;
  std::vector<Operation *> worklist;
};

} // namespace

std::unique_ptr<Pass> waveasm::createClassCachedLICM(bool classCache) {
  return std::make_unique<ClassCachedLICM>(classCache);
}
