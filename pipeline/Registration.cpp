//===- Registration.cpp - pass registration and the production pipeline ---===//

#include "pipeline/AllocationCheck.h"
#include "pipeline/ClassCachedLICM.h"
#include "pipeline/OneSweepCanonicalizer.h"
#include "pipeline/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace waveasm;

namespace {
enum class Ticketing { Auto, On, Off };

struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<bool> optimize{
      *this, "optimize",
      llvm::cl::desc("The Wave compiler's production order with upstream's "
                     "optimizations (SPEC.md 13); false: allocation, waits "
                     "and hazards only (after LICM and canonicalize)"),
      llvm::cl::init(true)};
  Option<int64_t> maxVGPRs{*this, "max-vgprs",
                           llvm::cl::desc("VGPRs available to allocation"),
                           llvm::cl::init(256)};
  Option<int64_t> maxSGPRs{*this, "max-sgprs",
                           llvm::cl::desc("SGPRs available to allocation"),
                           llvm::cl::init(102)};
  Option<int64_t> maxAGPRs{*this, "max-agprs",
                           llvm::cl::desc("AGPRs available to allocation"),
                           llvm::cl::init(256)};
  Option<Ticketing> ticketedWaitcnt{
      *this, "ticketed-waitcnt",
      llvm::cl::desc("Wait only as strictly as needed: auto (the production "
                     "rule: when the workgroup has >= 2 waves in M and N), "
                     "true or false"),
      llvm::cl::init(Ticketing::Auto),
      llvm::cl::values(clEnumValN(Ticketing::Auto, "auto", "by workgroup"),
                       clEnumValN(Ticketing::On, "true", "ticketed"),
                       clEnumValN(Ticketing::Off, "false", "wait for 0"))};
  Option<int64_t> promotionVGPRLimit{
      *this, "promotion-vgpr-limit",
      llvm::cl::desc("Leave loop address promotion out of a program that it "
                     "would make need more VGPRs than this (0: never)"),
      llvm::cl::init(256)};
};

void addAllocationWaitsHazards(OpPassManager &programPM,
                               const WaveASMPipelineConfig &config,
                               bool compactVGPRs, bool stopAfterAllocation) {
  WaveASMLinearScanOptions allocation;
  allocation.maxVGPRs = config.maxVGPRs;
  allocation.maxSGPRs = config.maxSGPRs;
  allocation.maxAGPRs = config.maxAGPRs;
  programPM.addPass(createWaveASMLinearScan(allocation));
  if (stopAfterAllocation)
    return;
  if (compactVGPRs)
    programPM.addPass(createWaveASMVGPRCompaction());
  WaveASMInsertWaitcntOptions waits;
  waits.ticketedWaitcnt = config.ticketedWaitcnt.value_or(true);
  waits.ticketedByWorkgroup = !config.ticketedWaitcnt.has_value();
  programPM.addPass(createWaveASMInsertWaitcnt(waits));
  WaveASMHazardMitigationOptions hazards;
  hazards.target = getWaveASMToolDefaults().target;
  hazards.modelOverrides.assign(config.targetOverrides.begin(),
                                config.targetOverrides.end());
  programPM.addPass(createWaveASMHazardMitigation(hazards));
}
} // namespace

WaveASMToolDefaults &waveasm::getWaveASMToolDefaults() {
  static WaveASMToolDefaults defaults;
  return defaults;
}

void waveasm::addWaveASMPassesBeforeLICM(OpPassManager &pm) {
  OpPassManager &front = pm.nest<ProgramOp>();
  front.addPass(createWaveASMArithLegalization());
  front.addPass(createWaveASMScopedCSE());
  front.addPass(createWaveASMPeephole());
  front.addPass(createWaveASMScalePackElimination());
}

void waveasm::addWaveASMPassesBeforeCanonicalize(OpPassManager &pm) {
  addWaveASMPassesBeforeLICM(pm);
  pm.addPass(createClassCachedLICM());
  OpPassManager &middle = pm.nest<ProgramOp>();
  middle.addPass(createWaveASMM0RedundancyElim());
  middle.addPass(createWaveASMBufferLoadStrengthReduction());
  middle.addPass(createWaveASMMemoryOffsetOpt());
}

/// buildWaveASMPipeline, or with `stopAfterAllocation` its passes up to and
/// including allocation (buildWaveASMPipelineToAllocation).
static void buildPipeline(OpPassManager &pm,
                          const WaveASMPipelineConfig &config,
                          bool stopAfterAllocation) {
  if (!config.optimize) {
    // The IR as written: upstream's reference pipeline's generic cleanups
    // (compile-and-measure leaves those out too), then the backend.
    if (config.runGenericCleanups) {
      pm.addPass(createClassCachedLICM());
      pm.addPass(createOneSweepCanonicalizer());
    }
    addAllocationWaitsHazards(pm.nest<ProgramOp>(), config,
                              /*compactVGPRs=*/false, stopAfterAllocation);
    return;
  }
  // SPEC.md 13, the production driver (wave_lang/kernel/wave/compile.py):
  // the ten base passes (its first, `--mlir-cse`, runs before translation),
  // loop address promotion with its fall-back, SCC spill/reload and
  // verifier, allocation, VGPR compaction, waits with the ticketed rule,
  // hazards. Differs from upstream: arith legalization runs first (the
  // production driver translates straight to instructions; IR with
  // `waveasm.arith.*` pseudo ops, from the LLVM-dialect path, could not be
  // emitted otherwise, and the pass changes nothing without them).
  addWaveASMPassesBeforeCanonicalize(pm);
  pm.addPass(createOneSweepCanonicalizer());
  OpPassManager &back = pm.nest<ProgramOp>();
  back.addPass(createWaveASMScopedCSE());
  WaveASMLoopAddressPromotionOptions promotion;
  promotion.vgprLimit = config.addressPromotionVGPRLimit;
  back.addPass(createWaveASMLoopAddressPromotion(promotion));
  back.addPass(createWaveASMSCCSpillReload());
  back.addPass(createWaveASMSCCVerifier());
  if (!config.stopBeforeAllocation)
    addAllocationWaitsHazards(back, config, /*compactVGPRs=*/true,
                              stopAfterAllocation);
}

void waveasm::buildWaveASMPipeline(OpPassManager &pm,
                                   const WaveASMPipelineConfig &config) {
  buildPipeline(pm, config, /*stopAfterAllocation=*/false);
}

void waveasm::buildWaveASMPipelineToAllocation(
    OpPassManager &pm, const WaveASMPipelineConfig &config) {
  buildPipeline(pm, config, /*stopAfterAllocation=*/true);
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
  registerWaveASMAssignLoopStages();
  registerWaveASMPadLdsLayout();
  registerWaveASMDeepenLdsRotation();
  registerWaveASMLoadsAfterReads();
  registerWaveASMSwizzleDmaLds();
  registerWaveASMPipelineLoops();

  //--- legalization and SCC
  registerWaveASMArithLegalization();
  registerWaveASMSCCSpillReload();
  registerWaveASMSCCVerifier();
  registerWaveASMVGPRCompaction();

  //--- memory
  registerWaveASMLdsPlan();
  registerWaveASMRedundantLoadElim();

  //--- end of the optimizations
  PassPipelineRegistration<PipelineOptions>(
      "waveasm-pipeline",
      "The Wave compiler's production order (SPEC.md 13): upstream's "
      "optimizations, SCC spill/reload and verifier, linear-scan "
      "allocation, VGPR compaction, wait counts, hazards; optimize=false: "
      "LICM, canonicalize, allocation, wait counts, hazards",
      [](OpPassManager &pm, const PipelineOptions &options) {
        WaveASMPipelineConfig config;
        config.optimize = options.optimize;
        config.maxVGPRs = options.maxVGPRs;
        config.maxSGPRs = options.maxSGPRs;
        config.maxAGPRs = options.maxAGPRs;
        if (options.ticketedWaitcnt != Ticketing::Auto)
          config.ticketedWaitcnt = options.ticketedWaitcnt == Ticketing::On;
        config.addressPromotionVGPRLimit = options.promotionVGPRLimit;
        buildWaveASMPipeline(pm, config);
      });
}
