//===- AssemblyEmitter.h - AMDGCN assembly from allocated IR ----*- C++ -*-===//
//
// Emits a complete AMDGCN `.s` file (SPEC.md 17) for register-allocated
// programs: kernel symbol, instructions, `.amdhsa_kernel` descriptor with the
// computed register counts, and the metadata YAML. `llvm-mc
// -triple=amdgcn-amd-amdhsa -mcpu=<target>` must accept the output.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_ASSEMBLYEMITTER_H
#define WAVEASM_PIPELINE_ASSEMBLYEMITTER_H

#include "ir/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace waveasm {

/// For each line of the emitted text (0-based), the op that produced it, or
/// null for directives, blank lines, the descriptor and metadata. Lines an op
/// causes besides its instruction belong to it too: literal staging and
/// copies (to the instruction, pack/extract/insert, loop, condition or
/// yield), the labels and branches of waveasm.loop / waveasm.if, comment and
/// raw lines. When several programs are emitted into one map, line numbers
/// continue from `lineOps.size()` at the call.
struct AsmLineMap {
  std::vector<mlir::Operation *> lineOps;
};

/// Register counts the emitter computed for a program (SPEC.md 17.4).
struct EmittedProgramInfo {
  std::string kernelName;
  int64_t vgprCount = 0; // peak VGPR index + size (incl. scratch v15)
  int64_t sgprCount = 0;
  int64_t agprCount = 0;
  int64_t instructionCount = 0; // emitted instruction lines
};

/// Emits `program`; fails with a diagnostic on the program (or the offending
/// op) when the IR is not allocated or exceeds the target's register file.
mlir::LogicalResult emitProgramAssembly(ProgramOp program,
                                        llvm::raw_ostream &os,
                                        AsmLineMap *lineMap = nullptr,
                                        EmittedProgramInfo *info = nullptr);

/// Emits every program of `module`, one after the other. `assumeVerified`:
/// the caller has just run mlir::verify on `module` (with success), so the
/// emitter's own per-op invariant checks, there for unverified IR, are
/// skipped.
mlir::LogicalResult emitModuleAssembly(mlir::ModuleOp module,
                                       llvm::raw_ostream &os,
                                       AsmLineMap *lineMap = nullptr,
                                       bool assumeVerified = false);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_ASSEMBLYEMITTER_H
