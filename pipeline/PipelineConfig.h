//===- PipelineConfig.h - what the backend pipeline runs with ---*- C++ -*-===//
//
// The options of the whole backend pipeline, apart from the pass
// declarations (Passes.h includes the generated pass classes, which every
// change of a pass option regenerates; users of compile-and-measure only
// need this).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_PIPELINECONFIG_H
#define WAVEASM_PIPELINE_PIPELINECONFIG_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace waveasm {

/// What the pipeline runs with.
struct WaveASMPipelineConfig {
  /// The Wave compiler's production order (SPEC.md 13): upstream's
  /// WaveASM-to-WaveASM optimizations, then allocation, VGPR compaction,
  /// waits and hazards, so the output is what the compiler emits. false:
  /// allocation, waits and hazards only, the IR as written.
  bool optimize = true;
  int64_t maxVGPRs = 256;
  int64_t maxSGPRs = 102;
  int64_t maxAGPRs = 256;
  /// Ticketed waits; nullopt: the production driver's rule (ticketed when
  /// the workgroup has at least 2 waves in both M and N).
  std::optional<bool> ticketedWaitcnt;
  /// The production driver recompiles without loop address promotion when
  /// the kernel then needs more VGPRs than this (SPEC.md 13); 0: never.
  int64_t addressPromotionVGPRLimit = 256;
  /// Target-model overrides ("hazard.trans_to_valu=2", ...) for the passes
  /// that read the model.
  std::vector<std::string> targetOverrides;
  /// With `optimize`: stop after the optimizations, before allocation (the
  /// optimized IR, still virtual, as a user may write it).
  bool stopBeforeAllocation = false;
  /// Without `optimize`: LICM and canonicalize before allocation, as
  /// upstream's reference pipeline runs them; compile-and-measure of the IR
  /// as written leaves them out too.
  bool runGenericCleanups = true;
};

/// What upstream's tool takes on its command line beside the passes
/// (`--target`, `--workgroup-size-{x,y,z}`, `--subgroup-size`): defaults for
/// programs that do not say.
struct WaveASMToolDefaults {
  std::string target = "gfx942";
  int64_t workgroupSize[3] = {256, 1, 1};
  int64_t subgroupSize = 64;
};
/// The process's defaults (waveasm-opt sets them from its command line).
WaveASMToolDefaults &getWaveASMToolDefaults();

} // namespace waveasm

#endif // WAVEASM_PIPELINE_PIPELINECONFIG_H
