//===- Registration.cpp - pass registration and the reference pipeline ----===//

#include "pipeline/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace waveasm;

void waveasm::registerWaveASMPipeline() {
  registerWaveASMLinearScan();
  registerWaveASMInsertWaitcnt();
  registerWaveASMHazardMitigation();
}
