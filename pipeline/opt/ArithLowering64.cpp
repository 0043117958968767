//===- ArithLowering64.cpp - 64-bit arith ops as 32-bit halves ------------===//
//
// SPEC.md 6: a 64-bit add is a carry chain, a multiply its three partial
// products that reach the low 64 bits, eq/ne compare the OR of the halves'
// XOR with zero, and ordered compares decide on the high halves (signed or
// unsigned, strictly) unless they are equal, then on the low halves
// (unsigned). Bitwise ops and selects work per half in the callers.
//
//===----------------------------------------------------------------------===//

#include "pipeline/opt/ArithLowering.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::arith;

namespace {

/// The four words of a 64-bit pair of operands; an SALU pair gets an SGPR
/// (not an immediate) in each `a` word.
struct Halves {
  Value a[2], b[2];
};

Halves halves(ArithBuilder &ab, Value a, Value b, bool commutes) {
  if (ab.unit == Unit::SALU && commutes && getImmediateValue(a) &&
      !getImmediateValue(b))
    std::swap(a, b);
  Halves h;
  for (int k = 0; k < 2; ++k) {
    h.a[k] = ab.word(a, k, 2);
    h.b[k] = ab.word(b, k, 2);
    if (ab.unit == Unit::SALU)
      h.a[k] = ab.inRegister(h.a[k]);
  }
  return h;
}

CmpPredicate unsignedOf(CmpPredicate pred) {
  switch (pred) {
  case CmpPredicate::slt:
    return CmpPredicate::ult;
  case CmpPredicate::sle:
    return CmpPredicate::ule;
  case CmpPredicate::sgt:
    return CmpPredicate::ugt;
  case CmpPredicate::sge:
    return CmpPredicate::uge;
  default:
    return pred;
  }
}

CmpPredicate strictOf(CmpPredicate pred) {
  switch (pred) {
  case CmpPredicate::sle:
    return CmpPredicate::slt;
  case CmpPredicate::sge:
    return CmpPredicate::sgt;
  case CmpPredicate::ule:
    return CmpPredicate::ult;
  case CmpPredicate::uge:
    return CmpPredicate::ugt;
  default:
    return pred;
  }
}

} // namespace

Value waveasm::arith::lowerAdd64(ArithBuilder &ab, Value a, Value b,
                                 Type resultType) {
  Halves h = halves(ab, a, b, /*commutes=*/true);
  Type word = ab.wordType();
  Type carry = SRegType::get(ab.ctx, 1, 1);
  if (ab.unit == Unit::SALU) {
    auto lo =
        S_ADD_U32::create(ab.b, ab.loc, word, ab.sccType(), h.a[0], h.b[0]);
    auto hi = S_ADDC_U32::create(ab.b, ab.loc, word, ab.sccType(),
                                 lo->getResult(1), h.a[1], h.b[1]);
    return ab.finish({lo->getResult(0), hi->getResult(0)}, resultType);
  }
  // v_addc_co_u32 reads the carry from VCC, which takes the constant bus:
  // its sources are copied to VGPRs first so the pair stays adjacent.
  Value low[] = {h.a[0], h.b[0]}, high[] = {h.a[1], h.b[1]};
  ab.limitSGPRs(low, 1);
  ab.limitSGPRs(high, 0);
  auto lo = V_ADD_CO_U32::create(ab.b, ab.loc, word, carry, low[0], low[1]);
  auto hi = V_ADDC_CO_U32::create(ab.b, ab.loc, word, carry, high[0], high[1]);
  return ab.finish({lo->getResult(0), hi->getResult(0)}, resultType);
}

Value waveasm::arith::lowerMul64(ArithBuilder &ab, Value a, Value b,
                                 Type resultType) {
  // (a1:a0) * (b1:b0) mod 2^64 = a0*b0 + ((a0*b0 >> 32) + a0*b1 + a1*b0) << 32
  Halves h = halves(ab, a, b, /*commutes=*/true);
  Type word = ab.wordType();
  Value lo = ab.mulLo(h.a[0], h.b[0], word);
  Value carry = ab.mulHi(h.a[0], h.b[0], word);
  Value cross0 = ab.mulLo(h.a[0], h.b[1], word);
  Value cross1 = ab.mulLo(h.a[1], h.b[0], word);
  Value hi;
  if (ab.unit == Unit::SALU)
    hi = ab.add(ab.add(carry, cross0, word), cross1, word);
  else
    hi = V_ADD3_U32::create(ab.b, ab.loc, word, carry, cross0, cross1);
  return ab.finish({lo, hi}, resultType);
}

Value waveasm::arith::lowerCmp64(ArithBuilder &ab, CmpPredicate pred, Value a,
                                 Value b, Type resultType) {
  Halves h = halves(ab, a, b, /*commutes=*/false);
  Type word = ab.wordType();
  Type out = ab.resultWordType(resultType);
  if (pred == CmpPredicate::eq || pred == CmpPredicate::ne) {
    Value low = ab.bitXor(h.a[0], h.b[0], word);
    Value high = ab.bitXor(h.a[1], h.b[1], word);
    Value diff = ab.bitOr(low, high, word);
    Value zero = ab.constant(0);
    return ab.finish({ab.compare(pred, diff, zero, out)}, resultType);
  }
  // hi(a) == hi(b) ? lo(a) PRED' lo(b) (unsigned) : hi(a) PRED'' hi(b)
  // (strict, signed or unsigned as PRED).
  Value low = ab.compare(unsignedOf(pred), h.a[0], h.b[0], word);
  Value high = ab.compare(strictOf(pred), h.a[1], h.b[1], word);
  Value highEqual = ab.setFlag(CmpPredicate::eq, h.a[1], h.b[1]);
  return ab.finish({ab.selectWord(highEqual, low, high, out)}, resultType);
}
