//===- Float.h - float formats for the simulator ----------------*- C++ -*-===//
//
// Bit-exact conversions between f32 and the 16-bit formats, with the
// rounding modes the ISA names (round to nearest even unless an op says
// otherwise), written out so they do not depend on the host's _Float16;
// the values of the 8-, 6- and 4-bit formats MFMAs read.
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

/// The narrow float formats MFMAs read: the OCP 8-bit formats (gfx950),
/// their FNUZ variants (gfx942's fp8/bf8 MFMAs: bias one higher, no
/// infinity, 0x80 the only NaN), and the OCP MX 6- and 4-bit formats of
/// the scaled MFMAs (no infinity or NaN). Sources: the OCP 8-bit Floating
/// Point Specification (2023) and the OCP Microscaling Formats (MX) v1.0
/// Specification; AMD's CDNA3 ISA 7.1 for the FNUZ encodings.
enum class MiniFloat { E4M3, E5M2, E4M3FNUZ, E5M2FNUZ, E2M3, E3M2, E2M1 };

struct MiniFloatLayout {
  unsigned exponentBits, mantissaBits;
  int bias;
};

inline MiniFloatLayout miniFloatLayout(MiniFloat format) {
  switch (format) {
  case MiniFloat::E4M3:
    return {4, 3, 7};
  case MiniFloat::E5M2:
    return {5, 2, 15};
  case MiniFloat::E4M3FNUZ:
    return {4, 3, 8};
  case MiniFloat::E5M2FNUZ:
    return {5, 2, 16};
  case MiniFloat::E2M3:
    return {2, 3, 1};
  case MiniFloat::E3M2:
    return {3, 2, 3};
  case MiniFloat::E2M1:
    return {2, 1, 1};
  }
  return {0, 0, 0};
}

/// Bits of one element (sign included).
inline unsigned miniFloatBits(MiniFloat format) {
  MiniFloatLayout l = miniFloatLayout(format);
  return 1 + l.exponentBits + l.mantissaBits;
}

/// The value of `bits` (the low miniFloatBits(format) bits), exact.
inline double miniFloatValue(uint32_t bits, MiniFloat format) {
  MiniFloatLayout l = miniFloatLayout(format);
  unsigned width = 1 + l.exponentBits + l.mantissaBits;
  bits &= (1u << width) - 1;
  bool negative = (bits >> (width - 1)) & 1;
  uint32_t exponent = (bits >> l.mantissaBits) & ((1u << l.exponentBits) - 1);
  uint32_t mantissa = bits & ((1u << l.mantissaBits) - 1);
  uint32_t maxExponent = (1u << l.exponentBits) - 1;
  switch (format) {
  case MiniFloat::E4M3FNUZ:
  case MiniFloat::E5M2FNUZ:
    if (bits == 0x80) // "negative zero" encodes the NaN
      return std::nan("");
    break;
  case MiniFloat::E4M3:
    if (exponent == maxExponent && mantissa == 7)
      return std::nan("");
    break;
  case MiniFloat::E5M2:
    if (exponent == maxExponent)
      return mantissa ? std::nan("") : negative ? -INFINITY : INFINITY;
    break;
  default:
    break;
  }
  double magnitude =
      exponent == 0
          ? std::ldexp(double(mantissa), 1 - l.bias - int(l.mantissaBits))
          : std::ldexp(double((1u << l.mantissaBits) | mantissa),
                       int(exponent) - l.bias - int(l.mantissaBits));
  return negative ? -magnitude : magnitude;
}

/// The E8M0 block scale of the MX formats: 2^(e - 127); 0xFF is NaN.
inline double e8m0Value(uint8_t e) {
  return e == 0xFF ? std::nan("") : std::ldexp(1.0, int(e) - 127);
}

} // namespace waveasm::sim

#endif // WAVEASM_SIM_FLOAT_H
