//===- Float.h - IEEE f16/bf16 conversions for the simulator ----*- C++ -*-===//
//
// Bit-exact conversions between f32 and the 16-bit formats, with the
// rounding modes the ISA names (round to nearest even unless an op says
// otherwise), written out so they do not depend on the host's _Float16.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SIM_FLOAT_H
#define WAVEASM_SIM_FLOAT_H

#include "llvm/ADT/bit.h"
#include <cmath>
#include <cstdint>

namespace waveasm::sim {

inline float asFloat(uint32_t bits) { return llvm::bit_cast<float>(bits); }
inline uint32_t asBits(float value) { return llvm::bit_cast<uint32_t>(value); }

/// f16 -> f32, exact.
inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0x1f)
    return asFloat(sign | 0x7f800000 | (mant << 13));
  if (exp == 0) {
    // Zero or subnormal: mant * 2^-24 (exact in f32).
    float value = float(mant) * 0x1p-24f;
    return sign ? -value : value;
  }
  return asFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

/// f32 -> f16, round to nearest even (or toward zero), with overflow to
/// infinity (toward zero: to the largest finite) and subnormals.
inline uint16_t floatToHalf(float value, bool towardZero = false) {
  uint32_t bits = asBits(value);
  uint16_t sign = (bits >> 16) & 0x8000;
  uint32_t exp = (bits >> 23) & 0xff, mant = bits & 0x7fffff;
  if (exp == 0xff) // Inf or NaN (quiet, payload's top bits kept)
    return sign | 0x7c00 | (mant ? 0x200 | (mant >> 13) : 0);
  // Work on the magnitude as an integer multiple of 2^-24 (f16's ulp at the
  // bottom) with the rest as a rounding remainder.
  int e = int(exp) - 127;
  if (e > 15)
    return towardZero ? (sign | 0x7bff) : (sign | 0x7c00);
  uint64_t significand = exp ? (mant | 0x800000) : mant;
  int shift = exp ? (e >= -14 ? 13 : 13 + (-14 - e)) : 200;
  if (shift > 40)
    return sign; // below half of the smallest subnormal
  uint64_t kept = significand >> shift;
  uint64_t rest = significand & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (!towardZero && (rest > half || (rest == half && (kept & 1))))
    ++kept;
  uint32_t result;
  if (e >= -14)
    result = (uint32_t(e + 15) << 10) + (kept - 0x400); // may carry into exp
  else
    result = kept; // subnormal (may round up into the smallest normal)
  if (result >= 0x7c00)
    return towardZero ? (sign | 0x7bff) : (sign | 0x7c00);
  return sign | result;
}

inline float bf16ToFloat(uint16_t b) { return asFloat(uint32_t(b) << 16); }

/// f32 -> bf16, round to nearest even; NaN stays a quiet NaN.
inline uint16_t floatToBF16(float value) {
  uint32_t bits = asBits(value);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return uint16_t((bits >> 16) | 0x40);
  uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
  return uint16_t((bits + rounding) >> 16);
}

} // namespace waveasm::sim

#endif // WAVEASM_SIM_FLOAT_H
