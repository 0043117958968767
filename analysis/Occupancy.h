//===- Occupancy.h - waves per SIMD, what limits them, the next wave -*- C++
//-*-===//
//
// Occupancy is the minimum of four limits: the unified VGPR file (VGPRs plus
// AGPRs), the SGPR budget, LDS per workgroup and the workgroup's own size
// (all its waves resident on one CU). Kernel engineers ask which one binds
// and what it takes to gain a wave; this answers both, from the target
// table (analysis/TargetModel.cpp, ir/TargetInfo.cpp, each number's source
// in a comment there).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_OCCUPANCY_H
#define WAVEASM_ANALYSIS_OCCUPANCY_H

#include "analysis/TargetModel.h"

#include <string>

namespace waveasm {

enum class OccupancyLimiter : uint8_t { VGPR, SGPR, LDS, Workgroup, Target };

/// "VGPR", "SGPR", "LDS", "workgroup size", "target maximum".
llvm::StringRef stringifyOccupancyLimiter(OccupancyLimiter limiter);

/// What a program uses, as occupancy sees it.
struct OccupancyInput {
  int64_t vgprs = 0;
  int64_t agprs = 0;
  int64_t sgprs = 0;
  int64_t ldsBytes = 0; // per workgroup; 0 = none
  int64_t wavesPerWorkgroup = 1;
};

struct OccupancyExplanation {
  OccupancyInput input;
  int64_t waves = 0; // per SIMD: the minimum of the limits below
  OccupancyLimiter limitedBy = OccupancyLimiter::Target;
  /// Waves each resource alone allows (the target's maximum when it does
  /// not bind).
  int64_t vgprWaves = 0, sgprWaves = 0, ldsWaves = 0, workgroupWaves = 0;
  int64_t maxWaves = 0;
  /// Allocation as the hardware counts it: the unified file's entries
  /// (VGPRs rounded to 4 plus AGPRs, on targets with AGPRs) rounded to the
  /// VGPR granule; SGPRs rounded to their granule; LDS to 128 bytes.
  int64_t vgprFileUse = 0, sgprUse = 0, ldsUse = 0;
  int64_t workgroupsPerCUByLDS = 0;  // 0 without LDS
  int64_t workgroupsPerCUBySize = 0; // workgroups that fit in the CU
  /// What gains the next wave from the binding resource alone: how many
  /// registers or bytes to cut (0 if no cut of that resource helps, e.g. at
  /// the target's maximum or when another limit is as tight).
  int64_t cutForNextWave = 0;
  int64_t nextWaves = 0;

  /// One line: "4 waves, limited by LDS: 16 KiB per 4-wave workgroup, 4
  /// workgroups per CU; -4 KiB LDS -> 5 waves; VGPRs would allow 8".
  std::string summarize() const;
};

OccupancyExplanation explainOccupancy(const TargetModel &target,
                                      const OccupancyInput &input);

/// The program's LDS size and waves per workgroup (workgroup_size defaults
/// to 256 work items, as the metadata does) with the given registers.
OccupancyInput getProgramOccupancyInput(const TargetModel &target,
                                        ProgramOp program, int64_t vgprs,
                                        int64_t agprs, int64_t sgprs);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_OCCUPANCY_H
