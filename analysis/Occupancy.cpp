//===- Occupancy.cpp - waves per SIMD, what limits them, the next wave ----===//

#include "analysis/Occupancy.h"
#include "ir/Dialect.h"
#include "ir/Workgroup.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace waveasm;

namespace {

// A CDNA/RDNA compute unit has four SIMDs; a workgroup's waves are spread
// over them and all stay on one CU (CDNA3 ISA, 2.1).
constexpr int64_t kSIMDsPerCU = 4;
// LDS is allocated in 128-byte blocks per workgroup (gfx9 granularity of
// LDS_SIZE in COMPUTE_PGM_RSRC2, AMDGPUUsage).
constexpr int64_t kLDSGranule = 128;

int64_t wavesForSGPRs(const TargetModel &m, int64_t rounded) {
  if (rounded <= 0)
    return m.maxWavesPerSIMD;
  return std::min(m.maxWavesPerSIMD, m.sgprsPerSIMD / rounded);
}

/// Waves per SIMD when `workgroups` workgroups of `perWorkgroup` waves are
/// resident on a CU.
int64_t wavesForWorkgroups(int64_t workgroups, int64_t perWorkgroup) {
  return workgroups * perWorkgroup / kSIMDsPerCU;
}

std::string formatBytes(int64_t bytes) {
  if (bytes % 1024 == 0)
    return std::to_string(bytes / 1024) + " KiB";
  return llvm::formatv("{0:F1} KiB", bytes / 1024.0).str();
}

} // namespace

llvm::StringRef waveasm::stringifyOccupancyLimiter(OccupancyLimiter limiter) {
  switch (limiter) {
  case OccupancyLimiter::VGPR:
    return "VGPR";
  case OccupancyLimiter::SGPR:
    return "SGPR";
  case OccupancyLimiter::LDS:
    return "LDS";
  case OccupancyLimiter::Workgroup:
    return "workgroup size";
  case OccupancyLimiter::Target:
    return "target maximum";
  }
  return "";
}

OccupancyExplanation waveasm::explainOccupancy(const TargetModel &m,
                                               const OccupancyInput &in) {
  OccupancyExplanation e;
  e.input = in;
  e.maxWaves = m.maxWavesPerSIMD;
  int64_t perWorkgroup = std::max<int64_t>(in.wavesPerWorkgroup, 1);

  e.vgprFileUse = in.vgprs > 0 || in.agprs > 0
                      ? llvm::alignTo(m.getVGPRFileUse(in.vgprs, in.agprs),
                                      m.arch->vgprAllocGranule)
                      : 0;
  e.vgprWaves = m.getWavesForVGPRFile(e.vgprFileUse);
  e.sgprUse =
      in.sgprs > 0 ? llvm::alignTo(in.sgprs, m.arch->sgprAllocGranule) : 0;
  e.sgprWaves = wavesForSGPRs(m, e.sgprUse);
  e.ldsWaves = m.maxWavesPerSIMD;
  if (in.ldsBytes > 0) {
    e.ldsUse = llvm::alignTo(in.ldsBytes, kLDSGranule);
    e.workgroupsPerCUByLDS = m.ldsBytesPerCU / e.ldsUse;
    e.ldsWaves = std::min(
        e.ldsWaves, wavesForWorkgroups(e.workgroupsPerCUByLDS, perWorkgroup));
  }
  e.workgroupsPerCUBySize = m.maxWavesPerSIMD * kSIMDsPerCU / perWorkgroup;
  e.workgroupWaves =
      std::min(m.maxWavesPerSIMD,
               wavesForWorkgroups(e.workgroupsPerCUBySize, perWorkgroup));

  // The binding limit; on ties the registers first (what a kernel engineer
  // can most often change), then LDS, then the workgroup size.
  e.waves = m.maxWavesPerSIMD;
  e.limitedBy = OccupancyLimiter::Target;
  const std::pair<OccupancyLimiter, int64_t> limits[] = {
      {OccupancyLimiter::VGPR, e.vgprWaves},
      {OccupancyLimiter::SGPR, e.sgprWaves},
      {OccupancyLimiter::LDS, e.ldsWaves},
      {OccupancyLimiter::Workgroup, e.workgroupWaves}};
  for (auto [limiter, waves] : limits) {
    if (waves < e.waves) {
      e.waves = std::max<int64_t>(waves, 0);
      e.limitedBy = limiter;
    }
  }

  // The next wave from the binding resource alone, when the others allow
  // it.
  int64_t others = m.maxWavesPerSIMD;
  for (auto [limiter, waves] : limits)
    if (limiter != e.limitedBy)
      others = std::min(others, waves);
  if (e.limitedBy == OccupancyLimiter::Target || others <= e.waves)
    return e;
  int64_t want = e.waves + 1;
  switch (e.limitedBy) {
  case OccupancyLimiter::VGPR:
    // The largest file size that still gives `want` waves.
    for (auto [limit, waves] : m.vgprOccupancy)
      if (std::min(waves, m.maxWavesPerSIMD) >= want)
        e.cutForNextWave = e.vgprFileUse - limit;
    break;
  case OccupancyLimiter::SGPR: {
    int64_t fits = m.sgprsPerSIMD / want / m.arch->sgprAllocGranule *
                   m.arch->sgprAllocGranule;
    e.cutForNextWave = fits > 0 ? e.sgprUse - fits : 0;
    break;
  }
  case OccupancyLimiter::LDS: {
    // Workgroups per CU needed for `want` waves per SIMD, and the LDS each
    // may then use.
    int64_t workgroups = (want * kSIMDsPerCU + perWorkgroup - 1) / perWorkgroup;
    int64_t fits = m.ldsBytesPerCU / workgroups / kLDSGranule * kLDSGranule;
    e.cutForNextWave = fits > 0 ? e.ldsUse - fits : 0;
    break;
  }
  case OccupancyLimiter::Workgroup: {
    // The largest workgroup (in waves) that gives `want` waves.
    for (int64_t size = perWorkgroup - 1; size >= 1; --size) {
      int64_t workgroups = m.maxWavesPerSIMD * kSIMDsPerCU / size;
      if (wavesForWorkgroups(workgroups, size) >= want) {
        e.cutForNextWave = perWorkgroup - size;
        break;
      }
    }
    break;
  }
  case OccupancyLimiter::Target:
    break;
  }
  if (e.cutForNextWave > 0)
    e.nextWaves = want;
  return e;
}

std::string OccupancyExplanation::summarize() const {
  std::string text = std::to_string(waves) + (waves == 1 ? " wave" : " waves");
  const char *arrow = " \xE2\x86\x92 ";
  switch (limitedBy) {
  case OccupancyLimiter::VGPR:
    text += ", limited by VGPR: ";
    if (input.agprs > 0)
      text += llvm::formatv("{0} VGPR + {1} AGPR = ", input.vgprs, input.agprs)
                  .str();
    text +=
        std::to_string(vgprFileUse) + arrow + std::to_string(waves) + " waves";
    if (nextWaves)
      text += llvm::formatv("; -{0} {1}{2}{3} waves", cutForNextWave,
                            input.agprs > 0 ? "VGPR/AGPR" : "VGPR", arrow,
                            nextWaves)
                  .str();
    break;
  case OccupancyLimiter::SGPR:
    text += ", limited by SGPR: " + std::to_string(sgprUse) + arrow +
            std::to_string(waves) + " waves";
    if (nextWaves)
      text += llvm::formatv("; -{0} SGPR{1}{2} waves", cutForNextWave, arrow,
                            nextWaves)
                  .str();
    break;
  case OccupancyLimiter::LDS:
    text += llvm::formatv(", limited by LDS: {0} per {1}-wave workgroup, {2} "
                          "workgroups per CU",
                          formatBytes(ldsUse), input.wavesPerWorkgroup,
                          workgroupsPerCUByLDS)
                .str();
    if (nextWaves)
      text += "; -" + formatBytes(cutForNextWave) + " LDS" + arrow +
              std::to_string(nextWaves) + " waves";
    break;
  case OccupancyLimiter::Workgroup:
    text += llvm::formatv(", limited by workgroup size: {0} waves per "
                          "workgroup, {1} workgroups per CU",
                          input.wavesPerWorkgroup, workgroupsPerCUBySize)
                .str();
    if (nextWaves)
      text += llvm::formatv("; {0}-wave workgroups{1}{2} waves",
                            input.wavesPerWorkgroup - cutForNextWave, arrow,
                            nextWaves)
                  .str();
    break;
  case OccupancyLimiter::Target:
    text += ", the target's maximum";
    return text;
  }
  if (limitedBy != OccupancyLimiter::VGPR && vgprWaves > waves)
    text += "; VGPRs would allow " + std::to_string(vgprWaves);
  return text;
}

OccupancyInput waveasm::getProgramOccupancyInput(const TargetModel &target,
                                                 ProgramOp program,
                                                 int64_t vgprs, int64_t agprs,
                                                 int64_t sgprs) {
  OccupancyInput in{vgprs, agprs, sgprs};
  // Without a declared size, the metadata's max_flat_workgroup_size.
  int64_t workItems = getWorkgroupWorkItems(program, 256);
  int64_t waveSize = target.arch->defaultWaveSize;
  in.wavesPerWorkgroup = (workItems + waveSize - 1) / waveSize;
  if (std::optional<uint64_t> lds = program.getLdsSize())
    in.ldsBytes = static_cast<int64_t>(*lds);
  return in;
}
