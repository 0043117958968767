//===- ClassCachedLICM.h - the pipeline's loop-invariant code motion -*- C++
//-*-===//
//
// The pipeline's `loop-invariant-code-motion`: MLIR's LICM (the same walk,
// the same hoisting order, MLIR's moveLoopInvariantCode worklist), with
// whether an op may move (memory-effect free, speculatable, no terminator)
// read once per WaveASM op class instead of asked of every op, and the
// operands of an op without regions read directly.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_CLASSCACHEDLICM_H
#define WAVEASM_PIPELINE_CLASSCACHEDLICM_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <memory>

namespace waveasm {

/// A pass named `loop-invariant-code-motion`. `classCache = false` asks
/// every op (MLIR's LICM; the reference the cache is tested against).
std::unique_ptr<mlir::Pass> createClassCachedLICM(bool classCache = true);

/// The passes the production order (buildWaveASMPipeline) runs before its
/// LICM, on a module pass manager: where LICM's input comes from (defined
/// in Registration.cpp, which builds the order).
void addWaveASMPassesBeforeLICM(mlir::OpPassManager &pm);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_CLASSCACHEDLICM_H
