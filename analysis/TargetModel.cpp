//===- TargetModel.cpp - per-target timing, hazards, occupancy ------------===//
//
// Unit: every latency and occupancy here is in issue slots of 4 clocks
// (SCHEDULING-FACTS.md "Units"): a wave issues at most one instruction per
// slot, a plain VALU/SALU op takes one, an MFMA holds its SIMD's matrix pipe
// for its pass count, hazard wait states and `s_nop N` (N+1) are slots, and
// LLVM's AMDGPU scheduling model (what `llvm-mca` prints as cycles) counts
// the same slots, so bench/mca_compare.py compares like with like.
//
// Sources, per number:
//  - MFMA pass counts: the published dense peaks (SCHEDULING-FACTS.md "Units":
//    FLOP per SIMD per clock = peak / (CUs x 4 SIMDs x clock), passes = FLOP
//    of the shape / that rate / 4); for the multi-block shapes (4x4, 16x16x4,
//    32x32x4 with 16/4/2 blocks) and the f64 shapes, which the dense peaks do
//    not cover, LLVM's scheduling model (SISchedule.td
//    `Write{2,4,8,16}PassMAI`, read through `llvm-mca -mcpu=gfx942/gfx950
//    -instruction-info`). The two sources agree wherever both give a number;
//    TargetModelTest checks the peak-derived rows against the formula;
//  - MFMA result latency: the "MFMA dependencies" wait states of
//    SCHEDULING-FACTS.md (5/8/12/20 after an XDL op of 2/4/8/16 passes,
//    4/6/10/18 after SGEMM, 19 after DGEMM 16x16x4; DGEMM 4x4x4: 6, LLVM's
//    GCNHazardRecognizer for gfx940); a reader issues one slot after them;
//  - VALU co-issue after an MFMA: SCHEDULING-FACTS.md "Units" (LLVM's gfx942
//    and gfx950 rules);
//  - latency classes: SCHEDULING-FACTS.md (VALU, SALU 1; transcendental 4 =
//    LLVM's WriteTrans32); memory: the upstream model's numbers (global 100,
//    LDS 20; SPEC.md 12.1), read as slots (LLVM's model: VMEM 80, LDS 5);
//    SMEM 16 slots, about 64 clocks, a scalar-cache hit (LLVM: 5); gfx1250
//    memory from SPEC.md 12.1;
//  - hazard wait states, occupancy: SCHEDULING-FACTS.md (CDNA3/CDNA4 ISA
//    guides, LLVM's AMDGPUUsage for the unified VGPR+AGPR file).
//
//===----------------------------------------------------------------------===//

#include "analysis/TargetModel.h"
#include "analysis/MFMATable.h"
#include "analysis/Occupancy.h"

#include "ir/InstFacts.h"
#include "ir/RegisterTypes.h"

#include "ir/Dialect.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// Passes per target; 0 where the target lacks the op (the pass count of
/// the nearest target is used then, so a misplaced op still gets a cost).
struct MFMAEntry {
  llvm::StringRef name; // op name without the dialect prefix
  MFMAKind kind;
  int8_t gfx942;
  int8_t gfx950;
};

// P = the dense peak rate of SCHEDULING-FACTS.md; L = LLVM's model (the
// block shapes run at the previous generation's rate, which the peak does
// not show). Only a few shapes exist on one target alone.
const MFMAEntry kMFMAs[] = {
    {"v_mfma_f32_16x16x16_f16", MFMAKind::XDL, 4, 4},    // P (950: kept)
    {"v_mfma_f32_16x16x32_f16", MFMAKind::XDL, 0, 4},    // P
    {"v_mfma_f32_32x32x8_f16", MFMAKind::XDL, 8, 8},     // P (950: kept)
    {"v_mfma_f32_16x16x4_f16", MFMAKind::XDL, 8, 8},     // L (4 blocks)
    {"v_mfma_f32_32x32x4_f16", MFMAKind::XDL, 16, 16},   // L (2 blocks)
    {"v_mfma_f32_4x4x4_f16", MFMAKind::XDL, 2, 2},       // L (16 blocks)
    {"v_mfma_f32_16x16x16_bf16", MFMAKind::XDL, 4, 4},   // P (950: kept)
    {"v_mfma_f32_16x16x32_bf16", MFMAKind::XDL, 0, 4},   // P
    {"v_mfma_f32_32x32x8_bf16", MFMAKind::XDL, 8, 8},    // P (950: kept)
    {"v_mfma_f32_16x16x4_bf16", MFMAKind::XDL, 8, 8},    // L
    {"v_mfma_f32_32x32x4_bf16", MFMAKind::XDL, 16, 16},  // L
    {"v_mfma_f32_4x4x4_bf16", MFMAKind::XDL, 2, 2},      // L
    {"v_mfma_i32_16x16x16_i8", MFMAKind::XDL, 8, 8},     // L (gfx90a op)
    {"v_mfma_i32_32x32x8_i8", MFMAKind::XDL, 16, 16},    // L (gfx90a op)
    {"v_mfma_i32_16x16x4_i8", MFMAKind::XDL, 8, 8},      // L
    {"v_mfma_i32_32x32x4_i8", MFMAKind::XDL, 16, 16},    // L
    {"v_mfma_i32_4x4x4_i8", MFMAKind::XDL, 2, 2},        // L
    {"v_mfma_f32_16x16x4_f32", MFMAKind::SGEMM, 8, 8},   // P
    {"v_mfma_f32_32x32x2_f32", MFMAKind::SGEMM, 16, 16}, // P
    {"v_mfma_f32_4x4x1_f32", MFMAKind::SGEMM, 2, 2},     // P
    // gfx950 halves the f64 matrix rate (MI355X: 78.6 TF; LLVM: 16 passes).
    {"v_mfma_f64_16x16x4_f64", MFMAKind::DGEMM, 8, 16}, // P / L
    {"v_mfma_f64_4x4x4_f64", MFMAKind::DGEMM, 4, 4},    // L
    {"v_mfma_f32_16x16x32_fp8_fp8", MFMAKind::XDL, 4, 4},
    {"v_mfma_f32_16x16x32_fp8_bf8", MFMAKind::XDL, 4, 4},
    {"v_mfma_f32_16x16x32_bf8_fp8", MFMAKind::XDL, 4, 4},
    {"v_mfma_f32_16x16x32_bf8_bf8", MFMAKind::XDL, 4, 4},
    {"v_mfma_f32_32x32x16_fp8_fp8", MFMAKind::XDL, 8, 8},
    {"v_mfma_f32_32x32x16_fp8_bf8", MFMAKind::XDL, 8, 8},
    {"v_mfma_f32_32x32x16_bf8_fp8", MFMAKind::XDL, 8, 8},
    {"v_mfma_f32_32x32x16_bf8_bf8", MFMAKind::XDL, 8, 8},
    // fp8 operands; fp6/fp4 (cbsz and blgp >= 2) run at twice the rate
    // (see getMFMAPasses).
    {"v_mfma_scale_f32_16x16x128_f8f6f4", MFMAKind::XDL, 0, 8},
    {"v_mfma_scale_f32_32x32x64_f8f6f4", MFMAKind::XDL, 0, 16},
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
  set(LatencyClass::Trans, 4);
  set(LatencyClass::SALU, 1);
  // Scalar loads are "variable" in the ISA guides; about 64 clocks is a hit
  // in the scalar cache.
  set(LatencyClass::SMEM, 16);
  set(LatencyClass::VMEMLoad, rdna ? 80 : 100);
  set(LatencyClass::VMEMStore, rdna ? 80 : 100);
  set(LatencyClass::LDSLoad, rdna ? 16 : 20);
  set(LatencyClass::LDSStore, rdna ? 16 : 20);
  // MFMAs are costed per opcode (kMFMAs); this is for an opcode the table
  // lacks: a 4-pass op's result latency.
  set(LatencyClass::MFMA, 9);
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

static const MFMAEntry *lookupMFMAByName(Operation *op) {
  static const llvm::StringMap<const MFMAEntry *> byName = [] {
    llvm::StringMap<const MFMAEntry *> map;
    for (const MFMAEntry &entry : kMFMAs)
      map[entry.name] = &entry;
    return map;
  }();
  return byName.lookup(op->getName().stripDialect());
}

namespace {
/// lookupMFMAByName's answers per op class, in a direct-mapped table per
/// thread keyed by the class's TypeID (as lookupInstFacts keeps the
/// interface's facts): the cycle model, the hazard pass and the wait states
/// ask for every MFMA several times, and the name lookup hashed the op's
/// name each time (a tenth of a hazard pass's op facts). The table is a
/// constant, so an entry never goes stale; a collision only costs a name
/// lookup.
struct MFMASlot {
  const void *typeID = nullptr;
  const MFMAEntry *entry = nullptr;
};
constexpr unsigned kMFMASlots = 256;
thread_local MFMASlot mfmaSlots[kMFMASlots];
} // namespace

static const MFMAEntry *lookupMFMA(Operation *op) {
  // An unregistered op's TypeID is void's (no class to cache for).
  TypeID id = op->getName().getTypeID();
  if (LLVM_UNLIKELY(id == TypeID::get<void>()))
    return lookupMFMAByName(op);
  const void *typeID = id.getAsOpaquePointer();
  MFMASlot &slot =
      mfmaSlots[(reinterpret_cast<uintptr_t>(typeID) >> 3) % kMFMASlots];
  if (LLVM_LIKELY(slot.typeID == typeID))
    return slot.entry;
  slot.entry = lookupMFMAByName(op);
  slot.typeID = typeID;
  return slot.entry;
}

std::optional<MFMATableRow> waveasm::getMFMATableRow(Operation *op,
                                                     bool byName) {
  const MFMAEntry *entry = byName ? lookupMFMAByName(op) : lookupMFMA(op);
  if (!entry)
    return std::nullopt;
  return MFMATableRow{entry->kind, entry->gfx942, entry->gfx950};
}

MFMAKind TargetModel::getMFMAKind(Operation *op) const {
  const MFMAEntry *entry = lookupMFMA(op);
  return entry ? entry->kind : MFMAKind::XDL;
}

int64_t TargetModel::getMFMAPasses(Operation *op) const {
  if (lookupInstFacts(op).unit != ExecUnit::MFMA)
    return 0;
  const MFMAEntry *entry = lookupMFMA(op);
  if (!entry || !arch->hasMFMA)
    return mfmaDefaultPasses;
  bool gfx950 = arch->kind == TargetKind::gfx950;
  int64_t passes = gfx950 ? entry->gfx950 : entry->gfx942;
  if (passes == 0)
    passes = gfx950 ? entry->gfx942 : entry->gfx950;
  // f8f6f4: fp6/bf6 (2, 3) and fp4 (4) operands run at twice the fp8 rate.
  if (isa<V_MFMA_SCALE_F32_16X16X128_F8F6F4, V_MFMA_SCALE_F32_32X32X64_F8F6F4>(
          op)) {
    auto format = [&](llvm::StringRef attr) {
      auto value = op->getAttrOfType<IntegerAttr>(attr);
      return value ? value.getInt() : 4; // upstream's emitter default
    };
    if (format("cbsz") >= 2 && format("blgp") >= 2)
      passes /= 2;
  }
  return passes;
}

int64_t TargetModel::getOpLatency(Operation *op) const {
  InstFacts info = lookupInstFacts(op);
  if (!info.hasInfo)
    return 0;
  if (info.unit != ExecUnit::MFMA)
    return getLatency(info.latencyClass);
  if (!arch->hasMFMA)
    return getLatency(LatencyClass::MFMA);
  // A reader issues in the slot after the wait states.
  return getMFMAReadWaitStates(op) + 1;
}

int64_t TargetModel::getUnitOccupancy(Operation *op) const {
  if (lookupInstFacts(op).unit == ExecUnit::MFMA)
    return getMFMAPasses(op);
  return 1;
}

int64_t TargetModel::getMFMAChainLatency(Operation *mfma) const {
  return getMFMAPasses(mfma) + mfmaChainPenalty;
}

int64_t TargetModel::getMFMAReadWaitStates(Operation *mfma) const {
  if (getHazardWaitStates(HazardKind::MfmaResultToRead) == 0)
    return 0;
  int64_t passes = getMFMAPasses(mfma);
  switch (getMFMAKind(mfma)) {
  case MFMAKind::DGEMM:
    return passes <= 4 ? 6 : 19;
  case MFMAKind::SGEMM:
    return passes <= 2 ? 4 : passes <= 4 ? 6 : passes <= 8 ? 10 : 18;
  case MFMAKind::XDL:
    return passes <= 2 ? 5 : passes <= 4 ? 8 : passes <= 8 ? 12 : 20;
  }
  return 20;
}

int64_t TargetModel::getValuCoIssueDelay(Operation *mfma) const {
  if (!arch->hasMFMA || lookupInstFacts(mfma).unit != ExecUnit::MFMA)
    return 0;
  if (getMFMAKind(mfma) != MFMAKind::XDL)
    return getMFMAPasses(mfma) + 2;
  // Widest of the A and B sources (operands 0 and 1), in bytes per lane.
  int64_t widest = 0;
  for (Value operand : mfma->getOperands().take_front(2))
    widest = std::max<int64_t>(widest, 4 * getRegSize(operand.getType()));
  return 1 + widest / 16;
}

int64_t TargetModel::getWavesForVGPRFile(int64_t entries) const {
  if (entries <= 0)
    return maxWavesPerSIMD;
  int64_t rounded = llvm::alignTo(entries, arch->vgprAllocGranule);
  for (auto [limit, waves] : vgprOccupancy)
    if (rounded <= limit)
      return std::min(waves, maxWavesPerSIMD);
  return 0;
}

int64_t TargetModel::getVGPRFileUse(int64_t vgprs, int64_t agprs) const {
  if (agprs <= 0 || !arch->maxAGPRs)
    return vgprs;
  // One unified file (gfx90a and later): a wave's AGPRs start at
  // accum_offset, its VGPR count rounded up to 4 (AMDGPUUsage,
  // compute_pgm_rsrc3.ACCUM_OFFSET), and it holds both.
  return llvm::alignTo(std::max<int64_t>(vgprs, 1), 4) + agprs;
}

int64_t TargetModel::getOccupancy(int64_t vgprs, int64_t agprs, int64_t sgprs,
                                  int64_t ldsBytes,
                                  int64_t wavesPerWorkgroup) const {
  return explainOccupancy(*this, OccupancyInput{vgprs, agprs, sgprs, ldsBytes,
                                                wavesPerWorkgroup})
      .waves;
}

int64_t TargetModel::getProgramOccupancy(ProgramOp program, int64_t vgprs,
                                         int64_t agprs, int64_t sgprs) const {
  return explainOccupancy(*this, getProgramOccupancyInput(*this, program, vgprs,
                                                          agprs, sgprs))
      .waves;
}

std::optional<std::pair<int64_t, int64_t>>
TargetModel::getNextVGPRBreakpoint(int64_t vgprs) const {
  int64_t current = getWavesForVGPRFile(vgprs);
  std::optional<std::pair<int64_t, int64_t>> best;
  for (auto [limit, waves] : vgprOccupancy)
    if (limit < vgprs && waves > current)
      best = std::make_pair(limit, waves);
  // The largest limit below `vgprs` gains the first extra wave.
  return best;
}
