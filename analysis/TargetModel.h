//===- TargetModel.h - per-target timing, hazards, occupancy ----*- C++ -*-===//
//
// Everything the analyses and passes need to know about a target beyond the
// architectural numbers of ir/TargetInfo.h: latency per latency class, MFMA
// latencies per opcode, software hazard wait states, wait-counter caps and
// the occupancy table. One table per target, chosen by the program's target
// attribute; every number can be overridden by name (command line, server
// settings): see `applyOverride`.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_TARGETMODEL_H
#define WAVEASM_ANALYSIS_TARGETMODEL_H

#include "ir/InstInfo.h"
#include "ir/TargetInfo.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace waveasm {

class ProgramOp;

/// A software hazard: `waitStates` wait states (s_nop N gives N+1) between a
/// producer and a consumer of the same register (SCHEDULING-FACTS.md).
enum class HazardKind : uint8_t {
  TransToValu,             // transcendental VALU -> non-trans VALU reading it
  ValuToReadFirstLane,     // VALU write -> v_readfirstlane_b32 of it (upstream)
  ValuSgprToVmem,          // VALU writes an SGPR -> VMEM reads that SGPR
  ValuSgprToLaneSelect,    // VALU writes SGPR/VCC -> v_readlane/writelane lane
  ValuSgprToValuConst,     // VALU writes SGPR/VCC -> VALU reads it as constant
  SaluM0ToLdsDirect,       // SALU writes M0 -> *_lds load
  MfmaResultToRead,        // MFMA result read as SrcA/B, by VALU, or by memory
  LargeStoreDataOverwrite, // 3-4 dword store -> overwrite of its data VGPRs
};
constexpr unsigned kNumHazardKinds = 8;

struct TargetModel {
  const TargetInfo *arch = nullptr;

  /// Result latency (cycles from issue to the result being usable) per
  /// latency class; MFMAs use `mfmaLatency`.
  int64_t latency[12] = {};
  /// Wait states per hazard kind (0 = rule disabled).
  int64_t hazardWaitStates[kNumHazardKinds] = {};
  /// Cycles a dependent MFMA in an accumulator chain waits (SrcC forward).
  int64_t mfmaChainPenalty = 2;
  /// Waves per SIMD by VGPR count: pairs (maximum VGPRs, waves), ascending.
  std::vector<std::pair<int64_t, int64_t>> vgprOccupancy;
  int64_t maxWavesPerSIMD = 8;
  int64_t sgprsPerSIMD = 800; // SGPR budget for the SGPR occupancy limit
  int64_t ldsBytesPerCU = 65536;

  /// The model of `kind`.
  static const TargetModel &get(TargetKind kind);
  /// A copy of the model of `kind` with `overrides` applied.
  static llvm::Expected<TargetModel>
  getWithOverrides(TargetKind kind, llvm::ArrayRef<std::string> overrides);

  /// Set one number by name, e.g. "latency.vmem_load=120",
  /// "hazard.trans_to_valu=1", "mfma_chain_penalty=2".
  llvm::Error applyOverride(llvm::StringRef assignment);
  /// The names `applyOverride` accepts.
  static std::vector<std::string> overridableNames();

  int64_t getLatency(LatencyClass cls) const {
    return latency[static_cast<unsigned>(cls)];
  }
  /// Result latency of `op` (MFMAs by opcode and data format).
  int64_t getOpLatency(mlir::Operation *op) const;
  /// Cycles the op keeps its unit busy (MFMA: its pass time; others 1).
  int64_t getUnitOccupancy(mlir::Operation *op) const;
  /// MFMA passes (latency / 4 cycles), 0 for non-MFMA ops.
  int64_t getMFMAPasses(mlir::Operation *op) const;
  /// Wait states before reading an MFMA's result as SrcA/SrcB, from VALU or
  /// from memory (5, 8, 12 or 20 by passes).
  int64_t getMFMAReadWaitStates(mlir::Operation *mfma) const;
  int64_t getHazardWaitStates(HazardKind kind) const {
    return hazardWaitStates[static_cast<unsigned>(kind)];
  }

  /// Waves per SIMD for the given register use and LDS bytes per workgroup
  /// (0 = no LDS) of workgroups of `wavesPerWorkgroup` waves; the minimum
  /// over the VGPR, AGPR, SGPR and LDS limits.
  int64_t getOccupancy(int64_t vgprs, int64_t agprs, int64_t sgprs,
                       int64_t ldsBytes = 0,
                       int64_t wavesPerWorkgroup = 1) const;
  /// Same, with LDS and workgroup size from the program's attributes
  /// (workgroup_size defaults to 256 work items, as the metadata does).
  int64_t getProgramOccupancy(ProgramOp program, int64_t vgprs, int64_t agprs,
                              int64_t sgprs) const;
  /// The next breakpoint below `vgprs` that gains a wave, or nullopt.
  std::optional<std::pair<int64_t, int64_t>>
  getNextVGPRBreakpoint(int64_t vgprs) const;
};

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_TARGETMODEL_H
