//===- DefinedValues.cpp - every value a region defines -------------------===//

#include "ir/DefinedValues.h"
#include "ir/RegisterTypes.h"

#include "mlir/IR/Operation.h"

using namespace mlir;

/// The ops of `region` in `Region::walk`'s default post-order (an op's
/// regions before the op), without its per-op callback indirection: the
/// verifier runs this over every value of every program twice per run.
static bool
walkDefinedValuesIn(Region &region,
                    function_ref<WalkResult(Operation *, Value)> fn) {
  for (Block &block : region) {
    for (Operation &op : block) {
      for (Region &nested : op.getRegions())
        if (!walkDefinedValuesIn(nested, fn))
          return false;
      for (Value result : op.getResults())
        if (fn(&op, result).wasInterrupted())
          return false;
      for (Region &nested : op.getRegions())
        for (Block &nestedBlock : nested)
          for (BlockArgument arg : nestedBlock.getArguments())
            if (fn(&op, arg).wasInterrupted())
              return false;
    }
  }
  return true;
}

WalkResult
waveasm::walkDefinedValues(Region &region,
                           function_ref<WalkResult(Operation *, Value)> fn) {
  return walkDefinedValuesIn(region, fn) ? WalkResult::advance()
                                         : WalkResult::interrupt();
}

bool waveasm::definesVirtualRegisters(Region &region) {
  return walkDefinedValues(region,
                           [](Operation *, Value value) {
                             return isVirtualReg(value.getType())
                                        ? WalkResult::interrupt()
                                        : WalkResult::advance();
                           })
      .wasInterrupted();
}
