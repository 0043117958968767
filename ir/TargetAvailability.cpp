//===- TargetAvailability.cpp - which ops each target has -----------------===//

#include "ir/TargetAvailability.h"

#include "llvm/Support/FormatVariadic.h"

using namespace waveasm;

namespace {

/// Which targets have an op.
enum class Targets : uint8_t {
  None,       // no target: CDNA removed it
  Gfx950Only, // CDNA4
};

struct Entry {
  llvm::StringLiteral mnemonic;
  Targets targets;
  llvm::StringLiteral replacement;
  llvm::StringLiteral reason;
  /// The emitter's error; {0} is the target's name.
  llvm::StringLiteral message;
  bool exact;
  llvm::StringLiteral change;
};

// The emitter's texts are matched by lit tests (tests/lit/pipeline/
// emit-diagnostics.mlir); the MFMA rows follow SPEC.md 7.12.
constexpr Entry kEntries[] = {
    {"v_mad_f32", Targets::None, "v_fma_f32", "CDNA removed it",
     "v_mad_f32 does not exist on {0} (CDNA removed it); use v_fma_f32, or "
     "v_mul_f32 + v_add_f32",
     false, "fused: rounds once where v_mad_f32 rounded twice"},
    {"v_mfma_i32_16x16x16_i8", Targets::None, "",
     "CDNA3 replaced it by v_mfma_i32_16x16x32_i8, which has twice the K depth",
     "v_mfma_i32_16x16x16_i8 does not exist on {0} (CDNA3 replaced it by "
     "v_mfma_i32_16x16x32_i8, which has twice the K depth)",
     false, ""},
    {"v_mfma_i32_32x32x8_i8", Targets::None, "",
     "CDNA3 replaced it by v_mfma_i32_32x32x16_i8, which has twice the K depth",
     "v_mfma_i32_32x32x8_i8 does not exist on {0} (CDNA3 replaced it by "
     "v_mfma_i32_32x32x16_i8, which has twice the K depth)",
     false, ""},
    {"v_mfma_f32_16x16x32_f16", Targets::Gfx950Only, "", "gfx950 only",
     "v_mfma_f32_16x16x32_f16 does not exist on {0} (gfx950 only)", false, ""},
    {"v_mfma_f32_16x16x32_bf16", Targets::Gfx950Only, "", "gfx950 only",
     "v_mfma_f32_16x16x32_bf16 does not exist on {0} (gfx950 only)", false, ""},
    {"v_mfma_scale_f32_16x16x128_f8f6f4", Targets::Gfx950Only, "",
     "gfx950 only",
     "v_mfma_scale_f32_16x16x128_f8f6f4 does not exist on {0} (gfx950 only)",
     false, ""},
    {"v_mfma_scale_f32_32x32x64_f8f6f4", Targets::Gfx950Only, "", "gfx950 only",
     "v_mfma_scale_f32_32x32x64_f8f6f4 does not exist on {0} (gfx950 only)",
     false, ""},
    // A dword per lane instead of four: the LDS layout changes too (M0 +
    // lane * 4 instead of lane * 16), so it is no drop-in replacement.
    {"buffer_load_dwordx4_lds", Targets::Gfx950Only, "buffer_load_dword_lds",
     "gfx950 only",
     "buffer_load_dwordx4 ... lds does not exist on {0} (gfx950 only; use "
     "buffer_load_dword ... lds)",
     false, "loads 1 dword per lane instead of 4"},
    {"buffer_atomic_pk_add_bf16", Targets::Gfx950Only, "", "gfx950 only",
     "buffer_atomic_pk_add_bf16 does not exist on {0} (gfx950 only)", false,
     ""},
    {"v_cvt_pk_bf16_f32", Targets::Gfx950Only, "", "gfx950 only",
     "v_cvt_pk_bf16_f32 does not exist on {0} (gfx950 only)", false, ""},
    {"v_cvt_bf16_f32", Targets::Gfx950Only, "",
     "needs v_cvt_pk_bf16_f32, gfx950 only",
     "v_cvt_bf16_f32 needs v_cvt_pk_bf16_f32, which {0} does not have "
     "(gfx950 only)",
     false, ""},
};

const Entry *lookup(llvm::StringRef mnemonic) {
  for (const Entry &entry : kEntries)
    if (entry.mnemonic == mnemonic)
      return &entry;
  return nullptr;
}

bool hasOp(const Entry &entry, TargetKind target) {
  switch (entry.targets) {
  case Targets::None:
    return false;
  case Targets::Gfx950Only:
    return target == TargetKind::gfx950;
  }
  return true;
}

} // namespace

OpAvailability waveasm::getOpAvailability(llvm::StringRef mnemonic,
                                          TargetKind target) {
  OpAvailability result;
  const Entry *entry = lookup(mnemonic);
  if (!entry || hasOp(*entry, target))
    return result;
  result.available = false;
  result.replacement = entry->replacement.str();
  result.reason = entry->reason.str();
  result.replacementIsExact = entry->exact;
  result.replacementChange = entry->change.str();
  return result;
}

std::string waveasm::getUnavailableMessage(llvm::StringRef mnemonic,
                                           TargetKind target) {
  const Entry *entry = lookup(mnemonic);
  if (!entry || hasOp(*entry, target))
    return "";
  return llvm::formatv(entry->message.data(), getTargetInfo(target).name).str();
}
