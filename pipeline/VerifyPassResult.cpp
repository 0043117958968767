//===- VerifyPassResult.cpp - verify what the passes produced -------------===//

#include "pipeline/VerifyPassResult.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;

LogicalResult waveasm::verifyPassResult(ModuleOp module) {
  // In order, stopping at the first failure, as mlir::verify does with
  // threading off (with threading on it stops at some failing op).
  for (Operation &op : module.getBody()->getOperations())
    if (failed(mlir::verify(&op)))
      return failure();
  return success();
}
