//===- RotatedIterArgs.cpp - explicit copies for rotating iter_args -------===//

#include "pipeline/opt/RotatedIterArgs.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// Whether `v` is yielded as itself (an invariant iter_arg) or computed by
/// the body: the shapes the pipeliner handles without a copy.
bool needsCopy(LoopOp loop, unsigned k, Value v) {
  Block &body = loop.getBodyBlock();
  if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == &body)
    return arg.getArgNumber() != k;
  Operation *def = v.getDefiningOp();
  return !def || !loop.getBody().isAncestor(def->getParentRegion());
}

} // namespace

RotationCopies RotationCopies::materialize(LoopOp loop) {
  RotationCopies result;
  result.loop = loop;
  Block &body = loop.getBodyBlock();
  auto cond = cast<ConditionOp>(body.getTerminator());
  SmallVector<unsigned> todo;
  for (auto [k, v] : llvm::enumerate(cond.getIterArgs())) {
    if (!needsCopy(loop, k, v))
      continue;
    Type type = v.getType();
    auto sreg = dyn_cast<SRegType>(type);
    auto vreg = dyn_cast<VRegType>(type);
    if (!(sreg && sreg.getSize() == 1) && !(vreg && vreg.getSize() == 1)) {
      result.failure = "iter_arg " + std::to_string(k) +
                       " rotates a value that is not one SGPR or VGPR "
                       "(no single move copies it)";
      return result;
    }
    todo.push_back(k);
  }
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  unsigned first = cond.getIterArgs().getBeginOperandIndex();
  for (unsigned k : todo) {
    Value v = cond.getIterArgs()[k];
    Type type = loop.getBodyBlock().getArgument(k).getType();
    Operation *copy =
        isa<SRegType>(type)
            ? S_MOV_B32::create(b, loop.getLoc(), type, v).getOperation()
            : V_MOV_B32::create(b, loop.getLoc(), type, v).getOperation();
    cond->setOperand(first + k, copy->getResult(0));
    result.copies.push_back({copy, k, v});
  }
  return result;
}

void RotationCopies::undo() {
  if (copies.empty())
    return;
  auto cond = cast<ConditionOp>(loop.getBodyBlock().getTerminator());
  unsigned first = cond.getIterArgs().getBeginOperandIndex();
  for (const Copy &c : copies) {
    cond->setOperand(first + c.iterArg, c.original);
    c.op->erase();
  }
  copies.clear();
}
