//===- FillCopies.cpp - a pipelined kernel's fill without copy chains -----===//

#include "pipeline/opt/FillCopies.h"

#include "pipeline/CountedWaits.h"
#include "pipeline/DeferredErase.h"

#include "llvm/ADT/SmallVector.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// A register copy within one type that may be forwarded: the move's
/// result is its operand.
bool isForwardableCopy(Operation *op) {
  return isa<S_MOV_B32, V_MOV_B32>(op) && op->getNumOperands() == 1 &&
         op->getNumResults() == 1 && !op->hasAttr("no_cse") &&
         op->getOperand(0).getType() == op->getResult(0).getType();
}

/// Whether `v` holds an immediate: a move of one (not `no_cse`: such a
/// move makes a register of its own on purpose), through copies.
bool holdsImmediate(Value v) {
  for (int depth = 0; depth < 64; ++depth) {
    Operation *def = v.getDefiningOp();
    if (!isa_and_nonnull<S_MOV_B32, V_MOV_B32>(def) ||
        def->getNumOperands() != 1 || def->hasAttr("no_cse"))
      return false;
    v = def->getOperand(0);
    if (isa<ImmType>(v.getType()))
      return true;
  }
  return false;
}

} // namespace

unsigned waveasm::forwardFillCopies(ProgramOp program) {
  SmallVector<LoopOp> kernels;
  program->walk([&](LoopOp loop) {
    if (loop->hasAttr(kCountedWaitsAttrName))
      kernels.push_back(loop);
  });
  unsigned erased = 0;
  for (LoopOp kernel : kernels) {
    Block *block = kernel->getBlock();
    SmallVector<Operation *> copies;
    for (Operation &op :
         llvm::make_range(block->begin(), kernel->getIterator()))
      if (isForwardableCopy(&op) && holdsImmediate(op.getOperand(0)))
        copies.push_back(&op);
    // In order: a copy of a copy reads its forwarded source already.
    for (Operation *copy : copies) {
      Value source = copy->getOperand(0);
      copy->getResult(0).replaceUsesWithIf(source, [&](OpOperand &use) {
        return use.getOwner() != kernel.getOperation();
      });
      if (copy->use_empty()) {
        eraseOp(copy);
        ++erased;
      }
    }
  }
  return erased;
}
