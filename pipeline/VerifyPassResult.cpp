//===- VerifyPassResult.cpp - verify what the passes produced -------------===//

#include "pipeline/VerifyPassResult.h"

#include "ir/Dialect.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

LogicalResult waveasm::verifyPassResult(ModuleOp module) {
  // In order, each op whole even after one failed: mlir::verify verifies
  // every isolated op of a region (programs are) and reports the failure of
  // each, in their order (with threading on too, its diagnostic handler
  // orders them so).
  bool failedAny = false;
  for (Operation &op : module.getBody()->getOperations())
    failedAny |= failed(mlir::verify(&op));
  return failure(failedAny);
}

namespace {

/// Whether the symbol table check of `module` is known to pass without
/// walking it (VerifyPassResult.h).
bool symbolTableNeedsNoWalk(ModuleOp module) {
  // Not verified yet: a body without its one block is mlir::verify's to
  // diagnose (getBody() asserts on it).
  if (!module.getBodyRegion().hasOneBlock())
    return false;
  for (Dialect *dialect : module.getContext()->getLoadedDialects())
    if (!isa<BuiltinDialect, waveasm::WaveASMDialect>(dialect))
      return false;
  if (!module->getAttrDictionary().empty())
    return false;
  llvm::DenseSet<StringAttr> names;
  for (Operation &op : module.getBody()->getOperations()) {
    auto program = dyn_cast<waveasm::ProgramOp>(op);
    if (!program || !names.insert(program.getSymNameAttr()).second)
      return false;
  }
  return true;
}

} // namespace

LogicalResult waveasm::verifyParsedModule(ModuleOp module) {
  if (!symbolTableNeedsNoWalk(module))
    return mlir::verify(module);
  // mlir::verify's order: the module's own invariants on entry, its
  // region's (the symbol table, known to pass) on exit, then each
  // isolated program whole.
  if (failed(module->getName().verifyInvariants(module)))
    return failure();
  return verifyPassResult(module);
}
