//===- Literals.h - immediates an instruction encodes inline ---*- C++ -*-===//
//
// GFX9 immediate rules shared by the assembly emitter (which legalizes
// operands) and the optimizations (which must not create operands the
// emitter would have to stage through a scratch register).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_LITERALS_H
#define WAVEASM_PIPELINE_LITERALS_H

#include <cstdint>

namespace waveasm {

/// Integer inline constants (SPEC.md 12.4): anything else is a literal.
inline bool isInlineConstant(int64_t value) {
  return value >= -16 && value <= 64;
}
/// The VGPR the emitter stages literals and second SGPRs through (SPEC.md
/// 12.4: v15 in upstream's code, not ABI.h's 255); allocation and VGPR
/// compaction keep it free.
constexpr int64_t kScratchVGPR = 15;

/// A 32-bit literal slot holds any value whose bits fit in 32 bits.
inline bool fitsIn32Bits(int64_t value) {
  return value >= INT32_MIN && value <= static_cast<int64_t>(UINT32_MAX);
}

} // namespace waveasm

#endif // WAVEASM_PIPELINE_LITERALS_H
