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
  // Through the mutable range: getBeginOperandIndex() of an empty range (a
  // loop without iter_args) reads past the operands.
  MutableOperandRange iterArgs = cond.getIterArgsMutable();
  for (unsigned k : todo) {
    Value v = cond.getIterArgs()[k];
    Type type = loop.getBodyBlock().getArgument(k).getType();
    Operation *copy =
        isa<SRegType>(type)
            ? S_MOV_B32::create(b, loop.getLoc(), type, v).getOperation()
            : V_MOV_B32::create(b, loop.getLoc(), type, v).getOperation();
    iterArgs[k].set(copy->getResult(0));
    result.copies.push_back({copy, k, v});
  }
  return result;
}

void RotationCopies::undo() {
  if (copies.empty())
    return;
  auto cond = cast<ConditionOp>(loop.getBodyBlock().getTerminator());
  MutableOperandRange iterArgs = cond.getIterArgsMutable();
  for (const Copy &c : copies) {
    iterArgs[c.iterArg].set(c.original);
    c.op->erase();
  }
  copies.clear();
}

unsigned waveasm::foldInvariantRotations(LoopOp loop) {
  Block &body = loop.getBodyBlock();
  auto cond = cast<ConditionOp>(body.getTerminator());
  // A plain copy of a one-register value of the body's own class.
  auto copySource = [&](Value v) -> Value {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || !isa<S_MOV_B32, V_MOV_B32>(def) ||
        def->getNumOperands() != 1 ||
        def->getOperand(0).getType() != v.getType())
      return nullptr;
    return def->getOperand(0);
  };
  bool any = false;
  for (auto [k, yielded] : llvm::enumerate(cond.getIterArgs())) {
    BlockArgument arg = body.getArgument(k);
    Value v = yielded;
    // At most one copy per step of the rotation: the chain is finite.
    for (unsigned hops = 0; v && v != arg && hops <= body.getNumArguments();
         ++hops)
      v = copySource(v);
    if (v != arg || yielded == arg ||
        loop.getInitArgs()[k].getType() != arg.getType())
      continue;
    arg.replaceAllUsesWith(loop.getInitArgs()[k]);
    any = true;
  }
  if (!any)
    return 0;
  // The copies now read values from outside the loop (or copies of them).
  unsigned removed = 0;
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    Value source =
        op.getNumResults() == 1 ? copySource(op.getResult(0)) : Value();
    if (!source ||
        (source.getDefiningOp() && loop->isAncestor(source.getDefiningOp())) ||
        (!source.getDefiningOp() &&
         cast<BlockArgument>(source).getOwner() == &body))
      continue;
    op.getResult(0).replaceAllUsesWith(source);
    op.erase();
    ++removed;
  }
  return removed;
}
