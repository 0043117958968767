//===- Passes.h - WaveASM backend passes ------------------------*- C++ -*-===//

#ifndef WAVEASM_PIPELINE_PASSES_H
#define WAVEASM_PIPELINE_PASSES_H

#include "ir/Dialect.h"

#include "mlir/Pass/Pass.h"

namespace waveasm {

#define GEN_PASS_DECL
#include "pipeline/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pipeline/Passes.h.inc"

/// Registers every WaveASM pass and the `waveasm-pipeline` pipeline.
void registerWaveASMPipeline();

} // namespace waveasm

#endif // WAVEASM_PIPELINE_PASSES_H
