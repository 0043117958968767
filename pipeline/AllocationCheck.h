//===- AllocationCheck.h - do the registers fit? ----------------*- C++ -*-===//
//
// Whether programs fit the register files, which is all a register check
// needs (the pipelining pass's, before it keeps a pipelined loop): the
// compile-and-measure pipeline up to and including allocation, without its
// clone, compaction, waits, hazards and measure (about three quarters of a
// compile). No pass after allocation fails on a program that allocated, so
// the verdict and the diagnostics up to the first error are
// Compiler::compile's (AllocationCheckTest compares them on every example,
// lit input and generated loop, pipelined too, under several limits).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_ALLOCATIONCHECK_H
#define WAVEASM_PIPELINE_ALLOCATIONCHECK_H

#include "pipeline/CompileAndMeasure.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace waveasm {

/// Appends `config`'s pipeline (buildWaveASMPipeline) up to and including
/// allocation, the linear scan.
void buildWaveASMPipelineToAllocation(mlir::OpPassManager &pm,
                                      const WaveASMPipelineConfig &config);

/// A Compiler's verdict on the registers, for many checks with the same
/// options. Not thread-safe; the context must outlive it.
class AllocationCheck {
public:
  AllocationCheck(mlir::MLIRContext *context,
                  const CompileOptions &options = {});

  /// Runs the pipeline up to allocation on `module` itself (it is changed:
  /// pass a copy); fails, with compile()'s diagnostics, where
  /// Compiler::compile would.
  mlir::LogicalResult run(mlir::ModuleOp module);

private:
  mlir::PassManager pm;
  std::vector<std::string> targetOverrides;
  /// The hazard pass's target option, as the full pipeline was built with.
  std::string hazardTarget;
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_ALLOCATIONCHECK_H
