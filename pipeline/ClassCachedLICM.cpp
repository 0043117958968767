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

#include "pipeline/ForEachOp.h"

#include "ir/Dialect.h"
#include "ir/OpClassTable.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

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
    // Innermost loops first (post-order), as MLIR's pass: an op hoisted
    // from an inner loop may be hoisted again from the outer one. The walk
    // is Operation::walk's (the root last), inlined.
    Operation *root = getOperation();
    for (Region &region : root->getRegions())
      forEachOpPostOrder(region, [&](Operation *op) { visit(op); });
    visit(root);
  }

private:
  /// Hoists what may leave `op` if it is a loop. An op without regions is
  /// no loop: the interface is looked up only on ops with regions (the
  /// lookup searched every op's interface map).
  void visit(Operation *op) {
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
  }

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

  enum : uint8_t { WaveASMOp = 1, Movable = 2 };
  /// What an op class answers: whether it is a WaveASM op, and, for one
  /// without regions, whether it may move. Kept per thread by TypeID (as
  /// lookupInstFacts keeps its facts; per run, each run asked again for
  /// every class it met).
  static uint8_t classFacts(Operation *op) {
    static thread_local OpClassTable<uint8_t, 512> table;
    return table.get(op, [](Operation *op) -> uint8_t {
      if (!isa<WaveASMDialect>(op->getDialect()))
        return 0;
      return WaveASMOp |
             (askOp(op) && !op->hasTrait<::mlir::OpTrait::IsTerminator>()
                  ? Movable
                  : 0);
    });
  }

  /// Whether mayMove answers `op` from its class: a registered WaveASM op
  /// without regions.
  bool isCachedClass(Operation *op) const {
    return classCache && op->getNumRegions() == 0 && op->isRegistered() &&
           (classFacts(op) & WaveASMOp);
  }

  static bool askOp(Operation *op) {
    return isMemoryEffectFree(op) && isSpeculatable(op);
  }

  /// With the class cache, a WaveASM terminator is refused here (hoist's
  /// canBeHoisted would refuse it anyway; a terminator is one per class).
  bool mayMove(Operation *op) {
    if (!isCachedClass(op))
      return askOp(op);
    return classFacts(op) & Movable;
  }

  bool classCache;
  std::vector<Operation *> worklist;
};

} // namespace

std::unique_ptr<Pass> waveasm::createClassCachedLICM(bool classCache) {
  return std::make_unique<ClassCachedLICM>(classCache);
}
