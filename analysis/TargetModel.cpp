//===- TargetModel.cpp - per-target timing, hazards, occupancy ------------===//
//
// Sources, per number:
//  - latency classes, hazard wait states, occupancy: SCHEDULING-FACTS.md
//    (CDNA3/CDNA4 ISA guides); gfx1250 memory latencies from SPEC.md 12.1
//    (upstream's target attributes);
//  - MFMA latencies: gfx942 follows upstream/the Conductor design (SPEC.md
//    12.2), gfx950 follows the ISA numbers of SCHEDULING-FACTS.md, which
//    halve the f16/bf16 rows and depend on the f8f6f4 data format.
//
//===----------------------------------------------------------------------===//

#include "analysis/TargetModel.h"

#include "ir/InstFacts.h"

#include "ir/Dialect.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;

namespace {

struct MFMALatency {
  llvm::StringRef name; // op name without the dialect prefix
  int64_t gfx942;
  int64_t gfx950;
};

// Cycles from issue to result (4 cycles per pass).
const MFMALatency kMFMALatencies[] = {
    {"v_mfma_f32_16x16x16_f16", 32, 16},
    {"v_mfma_f32_16x16x32_f16", 32, 32},
    {"v_mfma_f32_32x32x8_f16", 64, 32},
    {"v_mfma_f32_16x16x4_f16", 32, 32},
    {"v_mfma_f32_32x32x4_f16", 64, 64},
    {"v_mfma_f32_4x4x4_f16", 16, 8},
    {"v_mfma_f32_16x16x16_bf16", 32, 16},
    {"v_mfma_f32_16x16x32_bf16", 32, 32},
    {"v_mfma_f32_32x32x8_bf16", 64, 32},
    {"v_mfma_f32_16x16x4_bf16", 32, 32},
    {"v_mfma_f32_32x32x4_bf16", 64, 64},
    {"v_mfma_f32_4x4x4_bf16", 32, 8},
    {"v_mfma_i32_16x16x16_i8", 32, 32},
    {"v_mfma_i32_32x32x8_i8", 64, 64},
    {"v_mfma_i32_16x16x4_i8", 32, 32},
    {"v_mfma_i32_32x32x4_i8", 64, 64},
    {"v_mfma_i32_4x4x4_i8", 16, 8},
    {"v_mfma_f32_16x16x4_f32", 32, 32},
    {"v_mfma_f32_32x32x2_f32", 64, 64},
    {"v_mfma_f32_4x4x1_f32", 16, 8},
    {"v_mfma_f64_16x16x4_f64", 64, 64},
    {"v_mfma_f64_4x4x4_f64", 16, 16},
    {"v_mfma_f32_16x16x32_fp8_fp8", 32, 32},
    {"v_mfma_f32_16x16x32_fp8_bf8", 32, 32},
    {"v_mfma_f32_16x16x32_bf8_fp8", 32, 32},
    {"v_mfma_f32_16x16x32_bf8_bf8", 32, 32},
    {"v_mfma_f32_32x32x16_fp8_fp8", 64, 64},
    {"v_mfma_f32_32x32x16_fp8_bf8", 64, 64},
    {"v_mfma_f32_32x32x16_bf8_fp8", 64, 64},
    {"v_mfma_f32_32x32x16_bf8_bf8", 64, 64},
    // fp8 operands; fp6/fp4 (cbsz/blgp >= 2) take half (see getOpLatency).
    {"v_mfma_scale_f32_16x16x128_f8f6f4", 32, 32},
    {"v_mfma_scale_f32_32x32x64_f8f6f4", 64, 64},
};

const llvm::StringRef kLatencyNames[] = {
    "none",       "valu",     "trans",     "salu", "smem",   "vmem_load",
    "vmem_store", "lds_load", "lds_store", "mfma", "branch", "sync"};

const llvm::StringRef kHazardNames[] = {
    "trans_to_valu",           "valu_to_readfirstlane",
    "valu_sgpr_to_vmem",       "valu_sgpr_to_lane_select",
    "valu_sgpr_to_valu_const", "salu_m0_to_lds_direct",
    "mfma_result_to_read",     "large_store_data_overwrite"};

TargetModel makeModel(TargetKind kind) {
  TargetModel m;
  m.arch = &getTargetInfo(kind);
  auto set = [&](LatencyClass cls, int64_t cycles) {
    m.latency[static_cast<unsigned>(cls)] = cycles;
  };
  bool rdna = kind == TargetKind::gfx1250;
  set(LatencyClass::None, 0);
  set(LatencyClass::VALU, 1);
  set(LatencyClass::Trans, 2);
  set(LatencyClass::SALU, 1);
  // Scalar loads are "variable" in the ISA guides; 64 is a typical hit.
  set(LatencyClass::SMEM, 64);
  set(LatencyClass::VMEMLoad, rdna ? 80 : 100);
  set(LatencyClass::VMEMStore, rdna ? 80 : 100);
  set(LatencyClass::LDSLoad, rdna ? 16 : 20);
  set(LatencyClass::LDSStore, rdna ? 16 : 20);
  set(LatencyClass::MFMA, 32);
  set(LatencyClass::Branch, 1);
  set(LatencyClass::Sync, 1);

  auto hazard = [&](HazardKind hk, int64_t states) {
    m.hazardWaitStates[static_cast<unsigned>(hk)] = states;
  };
  hazard(HazardKind::TransToValu, 1);
  hazard(HazardKind::ValuToReadFirstLane, 1);
  hazard(HazardKind::ValuSgprToVmem, 5);
  hazard(HazardKind::ValuSgprToLaneSelect, 4);
  hazard(HazardKind::ValuSgprToValuConst, 2);
  hazard(HazardKind::SaluM0ToLdsDirect, 1);
  hazard(HazardKind::MfmaResultToRead, rdna ? 0 : 1); // scaled by passes
  hazard(HazardKind::LargeStoreDataOverwrite, 1);

  m.vgprOccupancy = {{64, 8},  {72, 7},  {80, 6},  {96, 5},
                     {128, 4}, {168, 3}, {256, 2}, {512, 1}};
  m.maxWavesPerSIMD = rdna ? 16 : 8;
  m.ldsBytesPerCU = kind == TargetKind::gfx950 ? 163840 : 65536;
  return m;
}

} // namespace

const TargetModel &TargetModel::get(TargetKind kind) {
  static const TargetModel models[] = {makeModel(TargetKind::gfx942),
                                       makeModel(TargetKind::gfx950),
                                       makeModel(TargetKind::gfx1250)};
  return models[static_cast<unsigned>(kind)];
}

llvm::Expected<TargetModel>
TargetModel::getWithOverrides(TargetKind kind,
                              llvm::ArrayRef<std::string> overrides) {
  TargetModel model = get(kind);
  for (const std::string &assignment : overrides)
    if (llvm::Error err = model.applyOverride(assignment))
      return std::move(err);
  return model;
}

std::vector<std::string> TargetModel::overridableNames() {
  std::vector<std::string> names;
  for (llvm::StringRef name : kLatencyNames)
    names.push_back(("latency." + name).str());
  for (llvm::StringRef name : kHazardNames)
    names.push_back(("hazard." + name).str());
  names.push_back("mfma_chain_penalty");
  names.push_back("max_waves_per_simd");
  names.push_back("lds_bytes_per_cu");
  return names;
}

llvm::Error TargetModel::applyOverride(llvm::StringRef assignment) {
  auto [name, valueText] = assignment.split('=');
  name = name.trim();
  int64_t value = 0;
  if (valueText.trim().getAsInteger(10, value) || value < 0)
    return llvm::createStringError(
        llvm::formatv("invalid target override '{0}': expected NAME=N with "
                      "N a non-negative integer",
                      assignment)
            .str());
  for (auto [i, latencyName] : llvm::enumerate(kLatencyNames))
    if (name == ("latency." + latencyName).str()) {
      latency[i] = value;
      return llvm::Error::success();
    }
  for (auto [i, hazardName] : llvm::enumerate(kHazardNames))
    if (name == ("hazard." + hazardName).str()) {
      hazardWaitStates[i] = value;
      return llvm::Error::success();
    }
  if (name == "mfma_chain_penalty")
    mfmaChainPenalty = value;
  else if (name == "max_waves_per_simd")
    maxWavesPerSIMD = value;
  else if (name == "lds_bytes_per_cu")
    ldsBytesPerCU = value;
  else
    return llvm::createStringError(
        llvm::formatv("unknown target override '{0}'; known names: {1}", name,
                      llvm::join(overridableNames(), ", "))
            .str());
  return llvm::Error::success();
}

static const MFMALatency *lookupMFMA(Operation *op) {
  // Hashed once: the cycle model asks for every MFMA of every program.
  static const llvm::StringMap<const MFMALatency *> byName = [] {
    llvm::StringMap<const MFMALatency *> map;
    for (const MFMALatency &entry : kMFMALatencies)
      map[entry.name] = &entry;
    return map;
  }();
  return byName.lookup(op->getName().stripDialect());
}

int64_t TargetModel::getOpLatency(Operation *op) const {
  InstFacts info = lookupInstFacts(op);
  if (!info.hasInfo)
    return 0;
  if (info.unit != ExecUnit::MFMA)
    return getLatency(info.latencyClass);
  const MFMALatency *entry = lookupMFMA(op);
  if (!entry || arch->kind == TargetKind::gfx1250)
    return getLatency(LatencyClass::MFMA);
  int64_t cycles =
      arch->kind == TargetKind::gfx950 ? entry->gfx950 : entry->gfx942;
  // f8f6f4: fp6/bf6 (2, 3) and fp4 (4) operands run at twice the fp8 rate.
  if (isa<V_MFMA_SCALE_F32_16X16X128_F8F6F4, V_MFMA_SCALE_F32_32X32X64_F8F6F4>(
          op)) {
    auto format = [&](llvm::StringRef attr) {
      auto value = op->getAttrOfType<IntegerAttr>(attr);
      return value ? value.getInt() : 4; // upstream's emitter default
    };
    if (format("cbsz") >= 2 && format("blgp") >= 2)
      cycles /= 2;
  }
  return cycles;
}

int64_t TargetModel::getUnitOccupancy(Operation *op) const {
  if (lookupInstFacts(op).unit == ExecUnit::MFMA)
    return getOpLatency(op);
  return 1;
}

int64_t TargetModel::getMFMAPasses(Operation *op) const {
  if (lookupInstFacts(op).unit != ExecUnit::MFMA)
    return 0;
  return std::max<int64_t>(1, getOpLatency(op) / 4);
}

int64_t TargetModel::getMFMAReadWaitStates(Operation *mfma) const {
  if (getHazardWaitStates(HazardKind::MfmaResultToRead) == 0)
    return 0;
  int64_t passes = getMFMAPasses(mfma);
  if (passes <= 2)
    return 5;
  if (passes <= 4)
    return 8;
  if (passes <= 8)
    return 12;
  return 20;
}

static int64_t roundUp(int64_t value, int64_t granule) {
  return (value + granule - 1) / granule * granule;
}

static int64_t wavesForVGPRs(const TargetModel &m, int64_t regs) {
  if (regs <= 0)
    return m.maxWavesPerSIMD;
  int64_t rounded = roundUp(regs, m.arch->vgprAllocGranule);
  for (auto [limit, waves] : m.vgprOccupancy)
    if (rounded <= limit)
      return std::min(waves, m.maxWavesPerSIMD);
  return 0;
}

int64_t TargetModel::getOccupancy(int64_t vgprs, int64_t agprs, int64_t sgprs,
                                  int64_t ldsBytes,
                                  int64_t wavesPerWorkgroup) const {
  int64_t waves =
      std::min(wavesForVGPRs(*this, vgprs), wavesForVGPRs(*this, agprs));
  if (sgprs > 0)
    waves =
        std::min(waves, sgprsPerSIMD / roundUp(sgprs, arch->sgprAllocGranule));
  if (ldsBytes > 0) {
    // Workgroups resident per CU by LDS, their waves spread over the CU's
    // four SIMDs.
    constexpr int64_t kSIMDsPerCU = 4;
    int64_t workgroupsPerCU = ldsBytesPerCU / roundUp(ldsBytes, 128);
    waves = std::min(waves, workgroupsPerCU *
                                std::max<int64_t>(wavesPerWorkgroup, 1) /
                                kSIMDsPerCU);
  }
  return std::max<int64_t>(waves, 0);
}

int64_t TargetModel::getProgramOccupancy(ProgramOp program, int64_t vgprs,
                                         int64_t agprs, int64_t sgprs) const {
  int64_t workItems = 1;
  if (std::optional<ArrayAttr> size = program.getWorkgroupSize())
    for (Attribute dim : *size)
      workItems *= std::max<int64_t>(cast<IntegerAttr>(dim).getInt(), 1);
  else
    workItems = 256;
  int64_t waveSize = arch->defaultWaveSize;
  int64_t wavesPerWorkgroup = (workItems + waveSize - 1) / waveSize;
  std::optional<uint64_t> lds = program.getLdsSize();
  return getOccupancy(vgprs, agprs, sgprs, lds ? static_cast<int64_t>(*lds) : 0,
                      wavesPerWorkgroup);
}

std::optional<std::pair<int64_t, int64_t>>
TargetModel::getNextVGPRBreakpoint(int64_t vgprs) const {
  int64_t current = wavesForVGPRs(*this, vgprs);
  std::optional<std::pair<int64_t, int64_t>> best;
  for (auto [limit, waves] : vgprOccupancy)
    if (limit < vgprs && waves > current)
      best = std::make_pair(limit, waves);
  // The largest limit below `vgprs` gains the first extra wave.
  return best;
}
