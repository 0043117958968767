//===- TargetAvailability.cpp - ops a target lacks ------------------------===//
// PROVISIONAL (replaced by the quick-fix branch's table when merged).

#include "ir/TargetAvailability.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace waveasm {

OpAvailability getOpAvailability(StringRef m, TargetKind target) {
  OpAvailability out;
  bool gfx950Only =
      StringSwitch<bool>(m)
          .Cases({"v_mfma_f32_16x16x32_f16", "v_mfma_f32_16x16x32_bf16",
                  "v_mfma_scale_f32_16x16x128_f8f6f4",
                  "v_mfma_scale_f32_32x32x64_f8f6f4", "v_cvt_pk_bf16_f32",
                  "buffer_load_dwordx4_lds", "buffer_atomic_pk_add_bf16"},
                 true)
          .Default(false);
  if (gfx950Only && target != TargetKind::gfx950) {
    out.available = false;
    out.reason = "gfx950 only";
  }
  if (m == "v_mfma_i32_16x16x16_i8" || m == "v_mfma_i32_32x32x8_i8") {
    out.available = false;
    out.replacement = m == "v_mfma_i32_16x16x16_i8" ? "v_mfma_i32_16x16x32_i8"
                                                    : "v_mfma_i32_32x32x16_i8";
    out.reason = "CDNA3 replaced it by " + out.replacement;
  }
  if (m == "v_mad_f32") {
    out.available = false;
    out.reason = "CDNA removed it";
  }
  return out;
}

} // namespace waveasm
