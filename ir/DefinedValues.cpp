//===- DefinedValues.cpp - every value a region defines -------------------===//

#include "ir/DefinedValues.h"
#include "ir/RegisterTypes.h"

#include "mlir/IR/Operation.h"

using namespace mlir;

WalkResult
waveasm::walkDefinedValues(Region &region,
                           function_ref<WalkResult(Operation *, Value)> fn) {
  return region.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (fn(op, result).wasInterrupted())
        return WalkResult::interrupt();
    for (Region &nested : op->getRegions())
      for (Block &block : nested)
        for (BlockArgument arg : block.getArguments())
          if (fn(op, arg).wasInterrupted())
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
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
