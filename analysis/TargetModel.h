//===- TargetModel.h - per-target timing, hazards, occupancy ----*- C++ -*-===//
//
// Everything the analyses and passes need to know about a target beyond the
// architectural numbers of ir/TargetInfo.h: latency per latency class, MFMA
// pass counts and result latencies per opcode, VALU co-issue after an MFMA,
// software hazard wait states, wait-counter caps and the occupancy table.
//
// One unit for every number: the issue slot of 4 clocks (a wave issues at
// most one instruction per slot; SCHEDULING-FACTS.md "Units"). Latencies,
// stalls, cycle estimates and bounds of analysis/ are all in slots; where a
// user reads one it is labelled "slots" (kClocksPerIssueSlot converts). One
// table per target, chosen by the program's target attribute; every number can
// be overridden by name (command line, server settings): see `applyOverride`.
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

/// Clocks per issue slot: a 16-lane SIMD runs a wave64 instruction for 4.
constexpr int64_t kClocksPerIssueSlot = 4;

/// MFMA families with different dependency and co-issue rules
/// (SCHEDULING-FACTS.md): XDL (f16, bf16, i8, fp8/fp6/fp4 inputs), SGEMM
/// (f32 inputs), DGEMM (f64).
enum class MFMAKind : uint8_t { XDL, SGEMM, DGEMM };

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

  /// Result latency (slots from issue to the result being usable) per
  /// latency class; MFMAs are costed per opcode (getOpLatency).
  int64_t latency[12] = {};
  /// Wait states per hazard kind (0 = rule disabled).
  int64_t hazardWaitStates[kNumHazardKinds] = {};
  /// Slots an MFMA reading the previous MFMA's result as SrcC waits beyond
  /// the producer's passes. SCHEDULING-FACTS.md: no software wait, "the
  /// hardware gives 2 implicit cycles"; those are clocks within the
  /// producer's last pass (LLVM's gfx940 hazard table asks no wait states
  /// for an exactly overlapping SrcC), so a chain issues at the pipe's rate.
  int64_t mfmaChainPenalty = 0;
  /// Passes of an MFMA opcode the table lacks (or on a target without MFMA).
  int64_t mfmaDefaultPasses = 4;
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
  /// Result latency of `op` in slots: its latency class; an MFMA's result
  /// read as SrcA/SrcB, by VALU or by memory one slot after its wait states.
  int64_t getOpLatency(mlir::Operation *op) const;
  /// Slots the op keeps its unit busy (MFMA: its passes; others 1).
  int64_t getUnitOccupancy(mlir::Operation *op) const;
  /// MFMA passes by opcode, target and (f8f6f4) data format; 0 for non-MFMA
  /// ops.
  int64_t getMFMAPasses(mlir::Operation *op) const;
  MFMAKind getMFMAKind(mlir::Operation *mfma) const;
  /// Slots from an MFMA's issue until a dependent MFMA may read its result
  /// as SrcC (the accumulator chain): passes + mfmaChainPenalty.
  int64_t getMFMAChainLatency(mlir::Operation *mfma) const;
  /// Wait states before reading an MFMA's result as SrcA/SrcB, from VALU or
  /// from memory: 5, 8, 12, 20 after XDL ops of 2, 4, 8, 16 passes; 4, 6,
  /// 10, 18 after SGEMM; DGEMM 16x16x4 19, 4x4x4 6.
  int64_t getMFMAReadWaitStates(mlir::Operation *mfma) const;
  /// Slots after an MFMA's issue before the same wave issues a VALU op
  /// (independent of it): 1 + the widest A/B source in bytes per lane / 16
  /// after XDL, passes + 2 after SGEMM/DGEMM. (The packed-f32 and DOT rule,
  /// passes + 2 after XDL, has no op in the dialect.)
  int64_t getValuCoIssueDelay(mlir::Operation *mfma) const;
  int64_t getHazardWaitStates(HazardKind kind) const {
    return hazardWaitStates[static_cast<unsigned>(kind)];
  }

  /// Entries of the VGPR file a wave holds: on targets with AGPRs one
  /// unified file, VGPRs rounded up to 4 (accum_offset) plus AGPRs.
  int64_t getVGPRFileUse(int64_t vgprs, int64_t agprs) const;
  /// Waves per SIMD that `entries` of the VGPR file (getVGPRFileUse) allow,
  /// rounded up to the allocation granule first; 0 beyond the file.
  int64_t getWavesForVGPRFile(int64_t entries) const;
  /// Waves per SIMD for the given register use and LDS bytes per workgroup
  /// (0 = no LDS) of workgroups of `wavesPerWorkgroup` waves; the minimum
  /// over the unified VGPR file (getVGPRFileUse), SGPR and LDS limits.
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
