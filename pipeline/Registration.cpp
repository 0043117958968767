//===- Registration.cpp - pass registration and the reference pipeline ----===//

#include "pipeline/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace waveasm;

namespace {
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<int64_t> maxVGPRs{*this, "max-vgprs",
                           llvm::cl::desc("VGPRs available to allocation"),
                           llvm::cl::init(256)};
  Option<int64_t> maxAGPRs{*this, "max-agprs",
                           llvm::cl::desc("AGPRs available to allocation"),
                           llvm::cl::init(256)};
  Option<bool> ticketedWaitcnt{
      *this, "ticketed-waitcnt",
      llvm::cl::desc("Wait only as strictly as needed"), llvm::cl::init(true)};
};
} // namespace

void waveasm::buildWaveASMPipeline(OpPassManager &pm,
                                   const WaveASMPipelineConfig &config) {
  // SPEC.md 13, upstream's reference order, for the passes that exist here.
  if (config.runGenericCleanups) {
    pm.addPass(createLoopInvariantCodeMotionPass());
    pm.addPass(createCanonicalizerPass());
  }
  OpPassManager &programPM = pm.nest<ProgramOp>();
  WaveASMLinearScanOptions allocation;
  allocation.maxVGPRs = config.maxVGPRs;
  allocation.maxSGPRs = config.maxSGPRs;
  allocation.maxAGPRs = config.maxAGPRs;
  programPM.addPass(createWaveASMLinearScan(allocation));
  WaveASMInsertWaitcntOptions waits;
  waits.ticketedWaitcnt = config.ticketedWaitcnt;
  programPM.addPass(createWaveASMInsertWaitcnt(waits));
  WaveASMHazardMitigationOptions hazards;
  hazards.modelOverrides.assign(config.targetOverrides.begin(),
                                config.targetOverrides.end());
  programPM.addPass(createWaveASMHazardMitigation(hazards));
}

void waveasm::registerWaveASMPipeline() {
  registerWaveASMLinearScan();
  registerWaveASMInsertWaitcnt();
  registerWaveASMHazardMitigation();
  // Optimizations (pipeline/opt/), one section per group of Passes.td.
  //--- peephole family
  registerWaveASMScopedCSE();
  registerWaveASMPeephole();
  registerWaveASMM0RedundancyElim();
  registerWaveASMMemoryOffsetOpt();

  //--- loop optimizations
  registerWaveASMScalePackElimination();
  registerWaveASMBufferLoadStrengthReduction();
  registerWaveASMLoopAddressPromotion();

  //--- legalization and SCC
  registerWaveASMArithLegalization();
  registerWaveASMSCCSpillReload();
  registerWaveASMSCCVerifier();
  registerWaveASMVGPRCompaction();

  //--- end of the optimizations
  PassPipelineRegistration<PipelineOptions>(
      "waveasm-pipeline",
      "The reference end-to-end pipeline (SPEC.md 13): loop-invariant code "
      "motion, canonicalize, linear-scan allocation, wait counts, hazards",
      [](OpPassManager &pm, const PipelineOptions &options) {
        WaveASMPipelineConfig config;
        config.maxVGPRs = options.maxVGPRs;
        config.maxAGPRs = options.maxAGPRs;
        config.ticketedWaitcnt = options.ticketedWaitcnt;
        buildWaveASMPipeline(pm, config);
      });
}
