//===- TargetInfo.h - per-target architectural data -------------*- C++ -*-===//
//
// SPEC.md section 12.1: what each target kind attribute names. This is the
// one table of architectural facts; the analysis layer's target model
// (latencies, hazards, occupancy) builds on it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_TARGETINFO_H
#define WAVEASM_IR_TARGETINFO_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace waveasm {

enum class TargetKind : uint8_t { gfx942 = 0, gfx950 = 1, gfx1250 = 2 };

struct TargetInfo {
  TargetKind kind;
  llvm::StringRef name;        // "gfx942"
  llvm::StringRef computeArch; // "CDNA3"
  int64_t maxVGPRs;            // unified VGPR+AGPR file
  int64_t maxArchVGPRs;        // addressable v0..v(N-1)
  int64_t maxSGPRs;            // usable s0..s(N-1)
  int64_t maxAGPRs;            // addressable a0..a(N-1); 0 = no AGPRs
  int64_t defaultWaveSize;
  int64_t maxLDSBytes; // per workgroup
  int64_t ldsBanks;
  int64_t maxVmcnt;
  int64_t maxLgkmcnt;
  int64_t maxExpcnt;
  int64_t vgprAllocGranule;
  int64_t sgprAllocGranule;
  bool hasMFMA;
};

/// The entry for `kind`.
const TargetInfo &getTargetInfo(TargetKind kind);
/// Look a target up by name ("gfx942"); nullopt for unknown names.
std::optional<TargetKind> parseTargetKind(llvm::StringRef name);
/// "gfx942, gfx950, gfx1250" for diagnostics.
llvm::StringRef listTargetKinds();

} // namespace waveasm

#endif // WAVEASM_IR_TARGETINFO_H
