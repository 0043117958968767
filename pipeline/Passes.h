//===- Passes.h - WaveASM backend passes ------------------------*- C++ -*-===//

#ifndef WAVEASM_PIPELINE_PASSES_H
#define WAVEASM_PIPELINE_PASSES_H

#include "ir/Dialect.h"
#include "pipeline/PipelineConfig.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace waveasm {

#define GEN_PASS_DECL
#include "pipeline/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pipeline/Passes.h.inc"

/// Appends the pipeline `config` asks for to a module-level pass manager:
/// the Wave compiler's production order (SPEC.md 13) or, without
/// `optimize`, allocation, waits and hazards only.
void buildWaveASMPipeline(mlir::OpPassManager &pm,
                          const WaveASMPipelineConfig &config = {});

/// Registers every WaveASM pass and the `waveasm-pipeline` pipeline.
void registerWaveASMPipeline();

} // namespace waveasm

#endif // WAVEASM_PIPELINE_PASSES_H
