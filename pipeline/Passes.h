//===- Passes.h - WaveASM backend passes ------------------------*- C++ -*-===//

#ifndef WAVEASM_PIPELINE_PASSES_H
#define WAVEASM_PIPELINE_PASSES_H

#include "ir/Dialect.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace waveasm {

#define GEN_PASS_DECL
#include "pipeline/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pipeline/Passes.h.inc"

/// What the reference pipeline runs with.
struct WaveASMPipelineConfig {
  int64_t maxVGPRs = 256;
  int64_t maxSGPRs = 102;
  int64_t maxAGPRs = 256;
  bool ticketedWaitcnt = true;
  /// Target-model overrides ("hazard.trans_to_valu=2", ...) for the passes
  /// that read the model.
  std::vector<std::string> targetOverrides;
  /// LICM and canonicalize before allocation, as upstream's reference
  /// pipeline does; compile-and-measure leaves them out so the measured
  /// schedule is the one written.
  bool runGenericCleanups = true;
};

/// Appends the reference pipeline (SPEC.md 13, the passes that exist) to a
/// module-level pass manager.
void buildWaveASMPipeline(mlir::OpPassManager &pm,
                          const WaveASMPipelineConfig &config = {});

/// Registers every WaveASM pass and the `waveasm-pipeline` pipeline.
void registerWaveASMPipeline();

} // namespace waveasm

#endif // WAVEASM_PIPELINE_PASSES_H
