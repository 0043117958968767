//===- VerifyPassResult.h - verify what the passes produced -----*- C++ -*-===//
//
// The verification of a module after the pipeline, before it is rendered.
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

} // namespace waveasm

#endif // WAVEASM_PIPELINE_VERIFYPASSRESULT_H
