//===- LoopRewrite.cpp - shared pieces of the loop optimizations ----------===//

#include "pipeline/opt/LoopRewrite.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/ForEachOp.h"

#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace waveasm;

SmallVector<LoopOp> waveasm::collectLoopsInnerFirst(Operation *root) {
  SmallVector<LoopOp> loops;
  // Post-order visits a loop after everything nested in it.
  auto collect = [&](Operation *op) {
    if (auto loop = dyn_cast<LoopOp>(op))
      loops.push_back(loop);
  };
  for (Region &region : root->getRegions())
    forEachOpPostOrder(region, collect);
  collect(root);
  return loops;
}

SmallVector<LoopOp> waveasm::selectInnermostLoops(Operation *root,
                                                  int64_t loopIndex) {
  SmallVector<LoopOp> loops;
  int64_t index = 0;
  root->walk<WalkOrder::PreOrder>([&](LoopOp loop) {
    if (loopIndex >= 0 && index++ != loopIndex)
      return;
    bool nested = loop.getBodyBlock()
                      .walk([](LoopOp) { return WalkResult::interrupt(); })
                      .wasInterrupted();
    if (!nested && !isRegisterAllocated(loop))
      loops.push_back(loop);
  });
  return loops;
}

bool waveasm::isRegisterAllocated(LoopOp loop) {
  return llvm::any_of(loop.getBodyBlock().getArgumentTypes(), isPhysicalReg);
}

bool waveasm::isDefinedOutside(Value value, LoopOp loop) {
  return !loop.getBody().isAncestor(value.getParentRegion());
}

LoopOp waveasm::replaceLoop(
    LoopOp loop, ValueRange inits, ArrayRef<int64_t> oldToNewResult,
    function_ref<Value(OpBuilder &, LoopOp, unsigned)> rebuildDropped) {
  Block &body = loop.getBodyBlock();
  SmallVector<Type> resultTypes(body.getArgumentTypes());
  OpBuilder b(loop);
  auto newLoop = LoopOp::create(b, loop.getLoc(), resultTypes, inits);
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  newLoop.getBody().takeBody(loop.getBody());
  b.setInsertionPointAfter(newLoop);
  for (auto [i, result] : llvm::enumerate(loop.getResults())) {
    int64_t to = oldToNewResult[i];
    if (to >= 0) {
      result.replaceAllUsesWith(newLoop.getResult(to));
    } else if (!result.use_empty()) {
      assert(rebuildDropped && "a dropped result is still used");
      result.replaceAllUsesWith(rebuildDropped(b, newLoop, i));
    }
  }
  noteReplacement(loop, newLoop);
  eraseOp(loop);
  return newLoop;
}

LoopOp waveasm::replaceLoopKeepingResults(LoopOp loop, ValueRange inits) {
  SmallVector<int64_t> sameResults =
      llvm::to_vector(llvm::seq<int64_t>(0, loop.getNumResults()));
  return replaceLoop(loop, inits, sameResults);
}

Value waveasm::foldLoopCondition(OpBuilder &b, Location loc, Value c,
                                 Value all) {
  MLIRContext *ctx = b.getContext();
  Type sgpr = SRegType::get(ctx, 1, 1), scc = SCCType::get(ctx);
  Value zero = ConstantOp::create(b, loc, ImmType::get(ctx, 0), 0);
  if (!isa<SCCType>(c.getType()))
    c = S_CMP_NE_U32::create(b, loc, scc, c, zero);
  return S_CSELECT_B32::create(b, loc, sgpr, c, all, zero);
}

LoopGuardBuilder::LoopGuardBuilder(OpBuilder &b, Location loc) : loc(loc) {
  MLIRContext *ctx = b.getContext();
  Value one = ConstantOp::create(b, loc, ImmType::get(ctx, 1), 1);
  zero = ConstantOp::create(b, loc, ImmType::get(ctx, 0), 0);
  all = S_MOV_B32::create(b, loc, SRegType::get(ctx, 1, 1), one);
}

void LoopGuardBuilder::fold(OpBuilder &b, Value c) {
  all = foldLoopCondition(b, loc, c, all);
}

Value LoopGuardBuilder::test(OpBuilder &b) {
  return S_CMP_NE_U32::create(b, loc, SCCType::get(b.getContext()), all, zero);
}
