//===- TargetAvailability.h - which ops each target has ---------*- C++ -*-===//
//
// The one table of ops that exist in the dialect but not on every target
// (SPEC.md 7.12, 17.6): gfx950-only instructions, instructions CDNA removed
// and the replacement the ISA documents. The assembly emitter reports an
// unavailable op with getUnavailableMessage's text; the language server
// offers the replacement as a quick fix and filters completions by target.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_TARGETAVAILABILITY_H
#define WAVEASM_IR_TARGETAVAILABILITY_H

#include "ir/TargetInfo.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace waveasm {

struct OpAvailability {
  bool available = true;
  /// Op mnemonic (without "waveasm.") to use instead, or empty. Set only
  /// when the dialect has that op: the ISA's replacement of the i8 MFMAs
  /// (v_mfma_i32_16x16x32_i8) has no WaveASM op, so `reason` names it.
  std::string replacement;
  /// e.g. "gfx950 only", "CDNA3 replaced it by ..., which has twice the K
  /// depth".
  std::string reason;
  /// The replacement computes exactly what the op would have (same
  /// operands, same results bit for bit). False for v_mad_f32 -> v_fma_f32
  /// (one rounding instead of two) and for narrower loads.
  bool replacementIsExact = false;
  /// What changes with the replacement, for a quick fix's title, e.g.
  /// "fused: rounds once"; empty when `replacementIsExact`.
  std::string replacementChange;
};

/// `mnemonic` without the "waveasm." prefix. Ops not in the table are
/// available everywhere.
OpAvailability getOpAvailability(llvm::StringRef mnemonic, TargetKind target);

/// The assembly emitter's error text for an op `target` lacks (without
/// MLIR's "'waveasm.x' op " prefix), e.g. "v_mad_f32 does not exist on
/// gfx950 (CDNA removed it); use v_fma_f32, or v_mul_f32 + v_add_f32";
/// empty when the op is available.
std::string getUnavailableMessage(llvm::StringRef mnemonic, TargetKind target);

} // namespace waveasm

#endif // WAVEASM_IR_TARGETAVAILABILITY_H
