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
// may depend on the instance) are asked every time, as MLIR does.
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
  static bool askOp(Operation *op) {
    return isMemoryEffectFree(op) && isSpeculatable(op);
  }

  bool mayMove(Operation *op) {
    if (!classCache || op->getNumRegions() != 0 || !waveasm ||
        op->getDialect() != waveasm)
      return askOp(op);
    auto [it, inserted] = movable.try_emplace(op->getName(), false);
    if (inserted)
      it->second = askOp(op);
    return it->second;
  }

  bool classCache;
  Dialect *waveasm = nullptr;
  llvm::DenseMap<OperationName, bool> movable;
};

} // namespace

std::unique_ptr<Pass> waveasm::createClassCachedLICM(bool classCache) {
  return std::make_unique<ClassCachedLICM>(classCache);
}
