//===- VerifyPassResult.h - verify what the passes produced -----*- C++ -*-===//
//
// The verification of a module after the pipeline, before it is rendered,
// and of a module just parsed.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_VERIFYPASSRESULT_H
#define WAVEASM_PIPELINE_VERIFYPASSRESULT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

namespace waveasm {

/// `mlir::verify(module)` for a module the parser verified whole and that
/// passes then changed inside its top-level ops only: every top-level op
/// (each program with everything nested: op invariants, dominance, the
/// program verifier) is verified, the module's own symbol table is not.
/// That check is a walk of every nested op for symbol users (no WaveASM or
/// builtin op is one) plus the uniqueness of the top-level names, which no
/// pass of the pipeline adds or renames; it was a fifth of the final
/// verification. Reports the same diagnostics as `mlir::verify` on what it
/// checks.
mlir::LogicalResult verifyPassResult(mlir::ModuleOp module);

/// `mlir::verify(module)` for a module just parsed (`waveasm-opt` parses
/// without the parser's verification and calls this), with the same
/// verdict and diagnostics. The module's symbol table check walks every
/// nested op for symbol users (ops implementing SymbolUserOpInterface,
/// discardable attributes implementing SymbolUserAttrInterface); none of
/// the builtin and WaveASM dialects' ops or attributes is one, and
/// unregistered ops and attributes implement no interface. So when only
/// those two dialects are loaded, the module carries no attribute and its
/// top-level ops are programs with distinct names (all the table would
/// check), the module's own invariants and then each program whole are
/// verified in order, as mlir::verify does after the table; otherwise
/// mlir::verify(module) runs.
mlir::LogicalResult verifyParsedModule(mlir::ModuleOp module);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_VERIFYPASSRESULT_H
