//===- ALUOps.cpp - VALU, SALU and arith pseudo-op semantics --------------===//
//
// Each op is a function of its operands' words, per lane for VALU ops and
// once for SALU ops, keyed by mnemonic. Floats are the host's IEEE f32 with
// round to nearest even (no flush of denormals: the ISA's default mode for
// f32 in compute kernels); f16 and bf16 go through sim/Float.h. The
// transcendental unit's approximations are computed correctly rounded and
// recorded as such; f16 fma (one rounding of an exact sum the host has no
// type for) is not simulated.
//
//===----------------------------------------------------------------------===//

#include "sim/Decoded.h"
#include "sim/Float.h"
#include "sim/Machine.h"

#include "ir/InstFacts.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include <cmath>
#include <memory>
#include <type_traits>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;

namespace {

using U32 = uint32_t;
using I32 = int32_t;
using U64 = uint64_t;
using Unary = U32 (*)(U32);
using Binary = U32 (*)(U32, U32);
using Ternary = U32 (*)(U32, U32, U32);
using Binary64 = U64 (*)(U64, U64);
using Compare = bool (*)(U64, U64);

float f(U32 x) { return asFloat(x); }
U32 b(float x) { return asBits(x); }
float h(U32 x) { return halfToFloat(uint16_t(x)); }
U32 toH(float x) { return floatToHalf(x); }

/// f32 -> i32/u32 as v_cvt_*: truncation, saturation, NaN -> 0.
U32 cvtI32(U32 x) {
  float v = f(x);
  if (std::isnan(v))
    return 0;
  if (v >= 2147483648.0f)
    return 0x7fffffff;
  if (v <= -2147483648.0f)
    return 0x80000000;
  return U32(I32(v));
}
U32 cvtU32(U32 x) {
  float v = f(x);
  if (std::isnan(v) || v <= 0)
    return 0;
  if (v >= 4294967296.0f)
    return 0xffffffff;
  return U32(v);
}
U32 bfe(U32 value, U32 offset, U32 width) {
  offset &= 31;
  width &= 31;
  if (!width)
    return 0;
  return (value >> offset) & ((U64(1) << width) - 1);
}
U32 bfeSigned(U32 value, U32 offset, U32 width) {
  offset &= 31;
  width &= 31;
  if (!width)
    return 0;
  U32 field = bfe(value, offset, width);
  U32 sign = U32(1) << (width - 1);
  return (field ^ sign) - sign;
}
template <typename T> T med3(T a, T b, T c) {
  return std::max(std::min(a, b), std::min(std::max(a, b), c));
}
I32 sext24(U32 x) { return I32(x << 8) >> 8; }

/// Register 0 of an operand by lane: a vector's words, or a scalar's one
/// word for every lane (stride 0); a value of no registers reads 0.
struct LaneWords {
  const U32 *words;
  unsigned stride;
  LLVM_ATTRIBUTE_ALWAYS_INLINE U32 operator[](unsigned l) const {
    return words[l * stride];
  }
};
LaneWords laneWords(const RegValue &v) {
  static const U32 zero = 0;
  if (!v.dwords)
    return {&zero, 0};
  return {v.words.data(), v.vector ? 1u : 0u};
}

/// A lane function of one, two or three words with its loop over the
/// lanes, the loop instantiated for the function's own type so it calls the
/// function inline (through a pointer, a call per lane kept the loop from
/// vectorizing). out[l] = f(in[0][l], ...) for the active lanes, in a plain
/// loop when every lane is.
struct LaneFunction {
  const void *function;
  void (*run)(const void *function, const LaneWords *in, U32 *out,
              uint64_t mask, unsigned lanes);
};

template <unsigned N, typename F>
void runLanes(const void *function, const LaneWords *in, U32 *out,
              uint64_t mask, unsigned lanes) {
  // A named function is stored as its pointer, a lambda as a pointer to
  // its (captureless) closure.
  const F &fn = *static_cast<const F *>(function);
  auto one = [&](unsigned l) {
    if constexpr (N == 1)
      return fn(in[0][l]);
    else if constexpr (N == 2)
      return fn(in[0][l], in[1][l]);
    else
      return fn(in[0][l], in[1][l], in[2][l]);
  };
  if (lanes == 64 && mask == ~uint64_t(0))
    for (unsigned l = 0; l < 64; ++l)
      out[l] = one(l);
  else
    for (unsigned l = 0; l < lanes; ++l)
      if ((mask >> l) & 1)
        out[l] = one(l);
}

/// The table entry of lane function `fn` of N words: a lambda's closure
/// is kept in a static of its own type (one per lambda); a function
/// pointer in a static per entry of the table that calls this.
template <unsigned N, typename F> LaneFunction lanesOf(F fn) {
  if constexpr (std::is_pointer_v<F>) {
    static std::vector<std::unique_ptr<F>> pointers;
    pointers.push_back(std::make_unique<F>(fn));
    return {pointers.back().get(), &runLanes<N, F>};
  } else {
    static const F closure = fn;
    return {&closure, &runLanes<N, F>};
  }
}

const llvm::StringMap<LaneFunction> &valuUnary() {
  static const llvm::StringMap<LaneFunction> table = {
      {"v_not_b32", lanesOf<1>([](U32 a) { return ~a; })},
      {"v_bfrev_b32",
       lanesOf<1>([](U32 a) { return U32(llvm::reverseBits<uint32_t>(a)); })},
      {"v_ffbh_u32",
       lanesOf<1>([](U32 a) { return a ? U32(llvm::countl_zero(a)) : ~0u; })},
      {"v_ffbl_b32",
       lanesOf<1>([](U32 a) { return a ? U32(llvm::countr_zero(a)) : ~0u; })},
      {"v_ffbh_i32", lanesOf<1>([](U32 a) {
         U32 x = I32(a) < 0 ? ~a : a;
         return (a == 0 || a == ~0u) ? ~0u : U32(llvm::countl_zero(x)) - 1;
       })},
      {"v_cvt_f32_i32", lanesOf<1>([](U32 a) { return b(float(I32(a))); })},
      {"v_cvt_f32_u32", lanesOf<1>([](U32 a) { return b(float(a)); })},
      {"v_cvt_i32_f32", lanesOf<1>(cvtI32)},
      {"v_cvt_u32_f32", lanesOf<1>(cvtU32)},
      {"v_cvt_f16_f32", lanesOf<1>([](U32 a) { return toH(f(a)); })},
      {"v_cvt_f32_f16", lanesOf<1>([](U32 a) { return b(h(a)); })},
      {"v_cvt_f32_bf16",
       lanesOf<1>([](U32 a) { return b(bf16ToFloat(uint16_t(a))); })},
      {"v_cvt_bf16_f32",
       lanesOf<1>([](U32 a) { return U32(floatToBF16(f(a))); })},
      {"v_trunc_f32", lanesOf<1>([](U32 a) { return b(std::trunc(f(a))); })},
      {"v_ceil_f32", lanesOf<1>([](U32 a) { return b(std::ceil(f(a))); })},
      {"v_floor_f32", lanesOf<1>([](U32 a) { return b(std::floor(f(a))); })},
      {"v_rndne_f32",
       lanesOf<1>([](U32 a) { return b(std::nearbyint(f(a))); })},
      {"v_fract_f32", lanesOf<1>([](U32 a) {
         float x = f(a);
         if (std::isinf(x))
           return b(std::nanf(""));
         return b(std::min(x - std::floor(x), 0x1.fffffep-1f));
       })},
      {"v_abs_f32", lanesOf<1>([](U32 a) { return a & 0x7fffffff; })},
      // Negated as unsigned: -INT_MIN is INT_MIN, as on the GPU (and no
      // signed overflow on the host).
      {"v_abs_i32", lanesOf<1>([](U32 a) { return I32(a) < 0 ? 0u - a : a; })},
      {"v_frexp_exp_i32_f32", lanesOf<1>([](U32 a) {
         float x = f(a);
         if (std::isnan(x) || std::isinf(x))
           return U32(0);
         int e = 0;
         std::frexp(x, &e);
         return U32(e);
       })},
      {"v_frexp_mant_f32", lanesOf<1>([](U32 a) {
         float x = f(a);
         if (std::isnan(x) || std::isinf(x))
           return a;
         int e = 0;
         return b(std::frexp(x, &e));
       })},
  };
  return table;
}

/// The transcendental unit's ops: the hardware returns approximations (1
/// ulp for rcp/rsq/sqrt/exp/log); the simulator returns the correctly
/// rounded value of the exact function and records that it did
/// (SimResult::hostPrecision), so no result is silently approximate.
/// sin/cos take their argument in revolutions, as the ISA does.
const llvm::StringMap<LaneFunction> &valuTranscendental() {
  static const llvm::StringMap<LaneFunction> table = {
      {"v_rcp_f32", lanesOf<1>([](U32 a) { return b(1.0f / f(a)); })},
      {"v_rsq_f32", lanesOf<1>([](U32 a) {
         return b(float(1.0 / std::sqrt(double(f(a)))));
       })},
      {"v_sqrt_f32", lanesOf<1>([](U32 a) { return b(std::sqrt(f(a))); })},
      {"v_exp_f32",
       lanesOf<1>([](U32 a) { return b(float(std::exp2(double(f(a))))); })},
      {"v_log_f32",
       lanesOf<1>([](U32 a) { return b(float(std::log2(double(f(a))))); })},
      {"v_sin_f32", lanesOf<1>([](U32 a) {
         return b(float(std::sin(double(f(a)) * 2 * M_PI)));
       })},
      {"v_cos_f32", lanesOf<1>([](U32 a) {
         return b(float(std::cos(double(f(a)) * 2 * M_PI)));
       })},
  };
  return table;
}

const llvm::StringMap<LaneFunction> &valuBinary() {
  static const llvm::StringMap<LaneFunction> table = {
      {"v_add_u32", lanesOf<2>([](U32 a, U32 c) { return a + c; })},
      {"v_add_i32", lanesOf<2>([](U32 a, U32 c) { return a + c; })},
      {"v_sub_u32", lanesOf<2>([](U32 a, U32 c) { return a - c; })},
      {"v_sub_i32", lanesOf<2>([](U32 a, U32 c) { return a - c; })},
      {"v_subrev_u32", lanesOf<2>([](U32 a, U32 c) { return c - a; })},
      {"v_mul_lo_u32", lanesOf<2>([](U32 a, U32 c) { return a * c; })},
      {"v_mul_lo_i32", lanesOf<2>([](U32 a, U32 c) { return a * c; })},
      {"v_mul_hi_u32",
       lanesOf<2>([](U32 a, U32 c) { return U32((U64(a) * c) >> 32); })},
      {"v_mul_hi_i32", lanesOf<2>([](U32 a, U32 c) {
         return U32(U64(int64_t(I32(a)) * int64_t(I32(c))) >> 32);
       })},
      {"v_and_b32", lanesOf<2>([](U32 a, U32 c) { return a & c; })},
      {"v_or_b32", lanesOf<2>([](U32 a, U32 c) { return a | c; })},
      {"v_xor_b32", lanesOf<2>([](U32 a, U32 c) { return a ^ c; })},
      {"v_lshlrev_b32", lanesOf<2>([](U32 a, U32 c) { return c << (a & 31); })},
      {"v_lshrrev_b32", lanesOf<2>([](U32 a, U32 c) { return c >> (a & 31); })},
      {"v_ashrrev_i32",
       lanesOf<2>([](U32 a, U32 c) { return U32(I32(c) >> (a & 31)); })},
      {"v_min_u32", lanesOf<2>([](U32 a, U32 c) { return std::min(a, c); })},
      {"v_max_u32", lanesOf<2>([](U32 a, U32 c) { return std::max(a, c); })},
      {"v_min_i32",
       lanesOf<2>([](U32 a, U32 c) { return U32(std::min(I32(a), I32(c))); })},
      {"v_max_i32",
       lanesOf<2>([](U32 a, U32 c) { return U32(std::max(I32(a), I32(c))); })},
      {"v_add_f32", lanesOf<2>([](U32 a, U32 c) { return b(f(a) + f(c)); })},
      {"v_sub_f32", lanesOf<2>([](U32 a, U32 c) { return b(f(a) - f(c)); })},
      {"v_subrev_f32", lanesOf<2>([](U32 a, U32 c) { return b(f(c) - f(a)); })},
      {"v_mul_f32", lanesOf<2>([](U32 a, U32 c) { return b(f(a) * f(c)); })},
      {"v_mul_legacy_f32", lanesOf<2>([](U32 a, U32 c) {
         // 0 times anything (Inf and NaN too) is +0.
         if (!(a & 0x7fffffff) || !(c & 0x7fffffff))
           return U32(0);
         return b(f(a) * f(c));
       })},
      {"v_min_f32",
       lanesOf<2>([](U32 a, U32 c) { return b(std::fmin(f(a), f(c))); })},
      {"v_max_f32",
       lanesOf<2>([](U32 a, U32 c) { return b(std::fmax(f(a), f(c))); })},
      {"v_ldexp_f32",
       lanesOf<2>([](U32 a, U32 c) { return b(std::ldexp(f(a), I32(c))); })},
      {"v_add_f16", lanesOf<2>([](U32 a, U32 c) { return toH(h(a) + h(c)); })},
      {"v_sub_f16", lanesOf<2>([](U32 a, U32 c) { return toH(h(a) - h(c)); })},
      {"v_mul_f16", lanesOf<2>([](U32 a, U32 c) { return toH(h(a) * h(c)); })},
      {"v_cvt_pkrtz_f16_f32", lanesOf<2>([](U32 a, U32 c) {
         return U32(floatToHalf(f(a), /*towardZero=*/true)) |
                (U32(floatToHalf(f(c), true)) << 16);
       })},
      {"v_cvt_pk_bf16_f32", lanesOf<2>([](U32 a, U32 c) {
         return U32(floatToBF16(f(a))) | (U32(floatToBF16(f(c))) << 16);
       })},
  };
  return table;
}

const llvm::StringMap<LaneFunction> &valuTernary() {
  static const llvm::StringMap<LaneFunction> table = {
      {"v_fma_f32", lanesOf<3>([](U32 a, U32 c, U32 d) {
         return b(std::fma(f(a), f(c), f(d)));
       })},
      // v_mad_f32 rounds the product, then the sum.
      {"v_mad_f32", lanesOf<3>([](U32 a, U32 c, U32 d) {
         volatile float product = f(a) * f(c);
         return b(product + f(d));
       })},
      {"v_mad_i32_i24", lanesOf<3>([](U32 a, U32 c, U32 d) {
         return U32(sext24(a) * sext24(c)) + d;
       })},
      {"v_mad_u32_u24", lanesOf<3>([](U32 a, U32 c, U32 d) {
         return (a & 0xffffff) * (c & 0xffffff) + d;
       })},
      {"v_add3_u32", lanesOf<3>([](U32 a, U32 c, U32 d) { return a + c + d; })},
      {"v_med3_i32", lanesOf<3>([](U32 a, U32 c, U32 d) {
         return U32(med3(I32(a), I32(c), I32(d)));
       })},
      {"v_med3_u32",
       lanesOf<3>([](U32 a, U32 c, U32 d) { return med3(a, c, d); })},
      {"v_med3_f32", lanesOf<3>([](U32 a, U32 c, U32 d) {
         float x = f(a), y = f(c), z = f(d);
         if (std::isnan(x) || std::isnan(y) || std::isnan(z))
           return b(std::fmin(std::fmin(x, y), z));
         return b(med3(x, y, z));
       })},
      {"v_sad_u32", lanesOf<3>([](U32 a, U32 c, U32 d) {
         return (a > c ? a - c : c - a) + d;
       })},
      {"v_lerp_u8", lanesOf<3>([](U32 a, U32 c, U32 d) {
         U32 out = 0;
         for (int i = 0; i < 4; ++i) {
           U32 x = (a >> (8 * i)) & 0xff, y = (c >> (8 * i)) & 0xff;
           out |= (((x + y + ((d >> (8 * i)) & 1)) >> 1) & 0xff) << (8 * i);
         }
         return out;
       })},
      {"v_bfe_u32", lanesOf<3>(bfe)},
      {"v_bfe_i32", lanesOf<3>(bfeSigned)},
      {"v_bfi_b32",
       lanesOf<3>([](U32 a, U32 c, U32 d) { return (a & c) | (~a & d); })},
      {"v_alignbit_b32", lanesOf<3>([](U32 a, U32 c, U32 d) {
         return U32(((U64(a) << 32) | c) >> (d & 31));
       })},
      {"v_alignbyte_b32", lanesOf<3>([](U32 a, U32 c, U32 d) {
         return U32(((U64(a) << 32) | c) >> (8 * (d & 3)));
       })},
      {"v_lshl_or_b32",
       lanesOf<3>([](U32 a, U32 c, U32 d) { return (a << (c & 31)) | d; })},
      {"v_lshl_add_u32",
       lanesOf<3>([](U32 a, U32 c, U32 d) { return (a << (c & 31)) + d; })},
  };
  return table;
}

/// 64-bit VALU ops: src0 and src1 as 64-bit values (shift amounts are the
/// low bits of src0).
const llvm::StringMap<Binary64> &valuBinary64() {
  static const llvm::StringMap<Binary64> table = {
      {"v_lshlrev_b64", [](U64 a, U64 c) { return c << (a & 63); }},
      {"v_lshrrev_b64", [](U64 a, U64 c) { return c >> (a & 63); }},
      {"v_ashrrev_i64",
       [](U64 a, U64 c) { return U64(int64_t(c) >> (a & 63)); }},
      {"v_and_b64", [](U64 a, U64 c) { return a & c; }},
      {"v_or_b64", [](U64 a, U64 c) { return a | c; }},
      {"v_xor_b64", [](U64 a, U64 c) { return a ^ c; }},
  };
  return table;
}

/// Comparison predicates of v_cmp_* and s_cmp_* (decoded once per op).
enum Predicate : uint8_t { EQ, NE, LT, LE, GT, GE, O, U };
Predicate predicateOf(llvm::StringRef p) {
  return llvm::StringSwitch<Predicate>(p)
      .Case("eq", EQ)
      .Case("ne", NE)
      .Case("lt", LT)
      .Case("le", LE)
      .Case("gt", GT)
      .Case("o", O)
      .Case("u", U)
      .Default(GE); // ge, and what the mnemonic table does not name
}
/// Operand types of v_cmp_*.
enum CmpType : uint8_t { CmpF32, CmpI32, CmpU32, CmpI64, CmpU64 };

/// The relation `p` (eq, ne, lt, le, gt, ge) of integers or floats; for
/// floats `ne` is IEEE "not equal", true when unordered. O and U are
/// relations of floats only (an integer compare of that name is ge).
template <typename T> bool relation(uint8_t p, T a, T c) {
  switch (p) {
  case EQ:
    return a == c;
  case NE:
    return a != c;
  case LT:
    return a < c;
  case LE:
    return a <= c;
  case GT:
    return a > c;
  default:
    return a >= c;
  }
}
template <typename T> bool relation(llvm::StringRef p, T a, T c) {
  return relation(uint8_t(predicateOf(p) >= O ? GE : predicateOf(p)), a, c);
}

bool cmpF32(uint8_t p, float a, float c) {
  if (p == O)
    return !std::isnan(a) && !std::isnan(c);
  if (p == U)
    return std::isnan(a) || std::isnan(c);
  return relation(p, a, c);
}

/// VALU ops over lanes: `compute(lane)` gives the result word(s).
template <typename F>
bool perLane(WaveExec &exec, Value result, unsigned dwords, F compute) {
  RegValue out = RegValue::vec(dwords, exec.lanes());
  for (unsigned lane = 0; lane < exec.lanes(); ++lane)
    if (exec.active(lane))
      compute(lane, out);
  return exec.write(result, std::move(out));
}

std::optional<bool> executeVALU(WaveExec &exec, const DecodedOp &d) {
  Operation *op = exec.op;
  OperandViews in;
  if (!exec.readOperands(in))
    return false;
  switch (ALUForm(d.form)) {
  case ALUForm::VUnary:
  case ALUForm::VTranscendental:
  case ALUForm::VBinary:
  case ALUForm::VTernary: {
    if (ALUForm(d.form) == ALUForm::VTranscendental)
      exec.noteHostPrecision(op->getName().stripDialect());
    const LaneFunction &fn = *static_cast<const LaneFunction *>(d.fn);
    unsigned arity = ALUForm(d.form) == ALUForm::VBinary    ? 2
                     : ALUForm(d.form) == ALUForm::VTernary ? 3
                                                            : 1;
    LaneWords words[3] = {};
    for (unsigned i = 0; i < arity; ++i)
      words[i] = laneWords(in[i]);
    RegValue out = RegValue::vec(1, exec.lanes());
    fn.run(fn.function, words, out.words.data(), exec.wave.exec, exec.lanes());
    return exec.write(op->getResult(0), std::move(out));
  }
  case ALUForm::VBinary64: {
    Binary64 fn = reinterpret_cast<Binary64>(d.fn);
    return perLane(exec, op->getResult(0), 2, [&](unsigned l, RegValue &o) {
      U64 r = fn(in[0].at64(l), in[1].at64(l));
      o.ref(l, 0) = U32(r);
      o.ref(l, 1) = U32(r >> 32);
    });
  }
  case ALUForm::VMov: {
    // v_mov_b32, v_mov_b64, v_not_b64, v_accvgpr_read_b32. The allocator
    // copies a tuple with one v_mov_b32 of the tuple's type (the emitter
    // expands it): every register of the result is copied.
    unsigned dwords =
        std::max<unsigned>(getRegSize(op->getResult(0).getType()), d.type);
    bool invert = d.variant, splat = d.variant2;
    return perLane(exec, op->getResult(0), dwords,
                   [&](unsigned l, RegValue &o) {
                     for (unsigned r = 0; r < dwords; ++r) {
                       // An immediate fills each register of a tuple.
                       U32 v = in[0].at(l, splat ? 0 : r);
                       o.ref(l, r) = invert ? ~v : v;
                     }
                   });
  }
  case ALUForm::VAccWrite: {
    // No result: the AGPR operand is the destination.
    RegValue out = RegValue::vec(1, exec.lanes());
    for (unsigned l = 0; l < exec.lanes(); ++l)
      out.ref(l) = in[0].at(l);
    return exec.write(op->getOperand(1), std::move(out));
  }
  case ALUForm::VCmp: {
    uint64_t mask = 0;
    for (unsigned l = 0; l < exec.lanes(); ++l) {
      if (!exec.active(l))
        continue;
      bool bit;
      switch (CmpType(d.type)) {
      case CmpF32:
        bit = cmpF32(d.predicate, f(in[0].at(l)), f(in[1].at(l)));
        break;
      case CmpI32:
        bit = relation(d.predicate, I32(in[0].at(l)), I32(in[1].at(l)));
        break;
      case CmpU32:
        bit = relation(d.predicate, in[0].at(l), in[1].at(l));
        break;
      case CmpI64:
        bit = relation(d.predicate, int64_t(in[0].at64(l)),
                       int64_t(in[1].at64(l)));
        break;
      default:
        bit = relation(d.predicate, in[0].at64(l), in[1].at64(l));
        break;
      }
      mask |= uint64_t(bit) << l;
    }
    exec.wave.vcc = mask;
    return true;
  }
  case ALUForm::VCndmask: {
    uint64_t vcc = exec.wave.vcc;
    return perLane(exec, op->getResult(0), 1, [&](unsigned l, RegValue &o) {
      o.ref(l) = (vcc >> l) & 1 ? in[1].at(l) : in[0].at(l);
    });
  }
  case ALUForm::VCarry: {
    bool add = d.variant, carryIn = d.variant2;
    uint64_t vccIn = exec.wave.vcc, carry = 0;
    RegValue out = RegValue::vec(1, exec.lanes());
    for (unsigned l = 0; l < exec.lanes(); ++l) {
      if (!exec.active(l))
        continue;
      U64 a = in[0].at(l), c = in[1].at(l), ci = carryIn ? (vccIn >> l) & 1 : 0;
      U64 r = add ? a + c + ci : a - c - ci;
      out.ref(l) = U32(r);
      carry |= uint64_t((r >> 32) & 1) << l;
    }
    exec.wave.vcc = carry;
    RegValue mask = exec.shapeOf(op->getResult(1));
    mask.ref(0, 0) = U32(carry);
    if (mask.dwords > 1)
      mask.ref(0, 1) = U32(carry >> 32);
    return exec.write(op->getResult(0), std::move(out)) &&
           exec.write(op->getResult(1), std::move(mask));
  }
  case ALUForm::VReadlane: {
    unsigned lane = 0;
    if (d.variant) // v_readlane_b32
      lane = in[1].at(0) % exec.lanes();
    else
      while (lane + 1 < exec.lanes() && !exec.active(lane))
        ++lane;
    RegValue out = RegValue::scalar(1);
    out.ref(0) = in[0].at(lane);
    return exec.write(op->getResult(0), std::move(out));
  }
  case ALUForm::VWritelane: {
    RegValue out = in[2];
    out.ref(in[1].at(0) % exec.lanes()) = in[0].at(0);
    return exec.write(op->getResult(0), std::move(out));
  }
  case ALUForm::VMbcnt: {
    bool hi = d.variant;
    return perLane(exec, op->getResult(0), 1, [&](unsigned l, RegValue &o) {
      unsigned below = hi ? (l >= 32 ? l - 32 : 0) : std::min(l, 32u);
      U32 mask = below >= 32 ? ~0u : ((U32(1) << below) - 1);
      o.ref(l) = U32(llvm::popcount(in[0].at(l) & mask)) + in[1].at(l);
    });
  }
  default:
    return std::nullopt;
  }
}

/// The VALU form of `name` (and its function), or false.
bool decodeVALU(DecodedOp &d, llvm::StringRef name) {
  auto set = [&](ALUForm form, const void *fn = nullptr) {
    d.kind = OpKind::ALU;
    d.form = uint8_t(form);
    d.fn = fn;
    return true;
  };
  for (auto [table, form] :
       {std::pair{&valuUnary(), ALUForm::VUnary},
        std::pair{&valuTranscendental(), ALUForm::VTranscendental},
        std::pair{&valuBinary(), ALUForm::VBinary},
        std::pair{&valuTernary(), ALUForm::VTernary}}) {
    auto it = table->find(name);
    if (it != table->end())
      return set(form, &it->second);
  }
  if (Binary64 fn = valuBinary64().lookup(name))
    return set(ALUForm::VBinary64, reinterpret_cast<const void *>(fn));
  if (name == "v_mov_b32" || name == "v_mov_b64" || name == "v_not_b64" ||
      name == "v_accvgpr_read_b32") {
    d.type = name.ends_with("64") ? 2 : 1;
    d.variant = name == "v_not_b64";
    d.variant2 = name == "v_mov_b32" && d.op->getNumOperands() &&
                 isa<ImmType>(d.op->getOperand(0).getType());
    return set(ALUForm::VMov);
  }
  if (name == "v_accvgpr_write_b32")
    return set(ALUForm::VAccWrite);
  if (name.consume_front("v_cmp_")) {
    auto [pred, type] = name.split('_');
    Predicate p = predicateOf(pred);
    d.type = llvm::StringSwitch<uint8_t>(type)
                 .Case("f32", CmpF32)
                 .Case("i32", CmpI32)
                 .Case("u32", CmpU32)
                 .Case("i64", CmpI64)
                 .Default(CmpU64);
    // o and u are float relations; an integer compare of that name is ge.
    d.predicate = d.type != CmpF32 && p >= O ? GE : p;
    return set(ALUForm::VCmp);
  }
  if (name == "v_cndmask_b32")
    return set(ALUForm::VCndmask);
  if (name == "v_add_co_u32" || name == "v_sub_co_u32" ||
      name == "v_addc_co_u32" || name == "v_subb_co_u32") {
    d.variant = name.starts_with("v_add");
    d.variant2 = name == "v_addc_co_u32" || name == "v_subb_co_u32";
    return set(ALUForm::VCarry);
  }
  if (name == "v_readfirstlane_b32" || name == "v_readlane_b32") {
    d.variant = name == "v_readlane_b32";
    return set(ALUForm::VReadlane);
  }
  if (name == "v_writelane_b32")
    return set(ALUForm::VWritelane);
  if (name == "v_mbcnt_lo_u32_b32" || name == "v_mbcnt_hi_u32_b32") {
    d.variant = name == "v_mbcnt_hi_u32_b32";
    return set(ALUForm::VMbcnt);
  }
  return false;
}

//===----------------------------------------------------------------------===//
// SALU
//===----------------------------------------------------------------------===//

struct ScalarResult {
  U64 value;
  std::optional<bool> scc; // nullopt: SCC unchanged
};

std::optional<ScalarResult> salu(llvm::StringRef n, U64 a, U64 c, bool sccIn,
                                 bool wide) {
  auto nz = [&](U64 r) { return ScalarResult{r, r != 0}; };
  U32 a32 = U32(a), c32 = U32(c);
  if (n == "s_mov_b32" || n == "s_mov_b64")
    return ScalarResult{a, std::nullopt};
  if (n == "s_sext_i32_i8")
    return ScalarResult{U32(I32(int8_t(a32))), std::nullopt};
  if (n == "s_sext_i32_i16")
    return ScalarResult{U32(I32(int16_t(a32))), std::nullopt};
  if (n == "s_not_b32")
    return nz(U32(~a32));
  if (n == "s_not_b64")
    return nz(~a);
  if (n == "s_brev_b32")
    return ScalarResult{llvm::reverseBits<uint32_t>(a32), std::nullopt};
  if (n == "s_brev_b64")
    return ScalarResult{llvm::reverseBits<uint64_t>(a), std::nullopt};
  if (n == "s_bcnt1_i32_b32")
    return nz(llvm::popcount(a32));
  if (n == "s_bcnt1_i32_b64")
    return nz(llvm::popcount(a));
  if (n == "s_bcnt0_i32_b32")
    return nz(32 - llvm::popcount(a32));
  if (n == "s_bcnt0_i32_b64")
    return nz(64 - llvm::popcount(a));
  if (n == "s_ff1_i32_b32")
    return ScalarResult{a32 ? U32(llvm::countr_zero(a32)) : ~0u, std::nullopt};
  if (n == "s_ff0_i32_b32")
    return ScalarResult{~a32 ? U32(llvm::countr_one(a32)) : ~0u, std::nullopt};
  if (n == "s_flbit_i32_b32")
    return ScalarResult{a32 ? U32(llvm::countl_zero(a32)) : ~0u, std::nullopt};
  if (n == "s_abs_i32") {
    U32 r = I32(a32) < 0 ? 0u - a32 : a32; // -INT_MIN wraps, as on the GPU
    return nz(r);
  }
  if (n == "s_mul_i32")
    return ScalarResult{U32(a32 * c32), std::nullopt};
  if (n == "s_mul_hi_u32")
    return ScalarResult{U32((U64(a32) * c32) >> 32), std::nullopt};
  if (n == "s_mul_hi_i32")
    return ScalarResult{U32(U64(int64_t(I32(a32)) * I32(c32)) >> 32),
                        std::nullopt};
  if (n == "s_bfm_b32")
    return ScalarResult{U32(((U64(1) << (a32 & 31)) - 1) << (c32 & 31)),
                        std::nullopt};
  if (n == "s_pack_ll_b32_b16")
    return ScalarResult{(a32 & 0xffff) | (c32 << 16), std::nullopt};
  if (n == "s_pack_lh_b32_b16")
    return ScalarResult{(a32 & 0xffff) | (c32 & 0xffff0000), std::nullopt};
  if (n == "s_pack_hh_b32_b16")
    return ScalarResult{(a32 >> 16) | (c32 & 0xffff0000), std::nullopt};
  U64 mask = wide ? ~U64(0) : 0xffffffff;
  if (n.starts_with("s_and_"))
    return nz((a & c) & mask);
  if (n.starts_with("s_or_"))
    return nz((a | c) & mask);
  if (n.starts_with("s_xor_"))
    return nz((a ^ c) & mask);
  if (n.starts_with("s_andn2_"))
    return nz((a & ~c) & mask);
  if (n.starts_with("s_orn2_"))
    return nz((a | ~c) & mask);
  if (n.starts_with("s_nand_"))
    return nz(~(a & c) & mask);
  if (n.starts_with("s_nor_"))
    return nz(~(a | c) & mask);
  if (n.starts_with("s_xnor_"))
    return nz(~(a ^ c) & mask);
  if (n == "s_lshl_b32")
    return nz(U32(a32 << (c32 & 31)));
  if (n == "s_lshl_b64")
    return nz(a << (c & 63));
  if (n == "s_lshr_b32")
    return nz(a32 >> (c32 & 31));
  if (n == "s_lshr_b64")
    return nz(a >> (c & 63));
  if (n == "s_ashr_i32")
    return nz(U32(I32(a32) >> (c32 & 31)));
  if (n == "s_ashr_i64")
    return nz(U64(int64_t(a) >> (c & 63)));
  if (n == "s_min_i32")
    return ScalarResult{U32(std::min(I32(a32), I32(c32))), I32(a32) < I32(c32)};
  if (n == "s_min_u32")
    return ScalarResult{std::min(a32, c32), a32 < c32};
  if (n == "s_max_i32")
    return ScalarResult{U32(std::max(I32(a32), I32(c32))), I32(a32) > I32(c32)};
  if (n == "s_max_u32")
    return ScalarResult{std::max(a32, c32), a32 > c32};
  if (n == "s_bfe_u32")
    return nz(bfe(a32, c32 & 31, (c32 >> 16) & 0x7f));
  if (n == "s_bfe_i32")
    return nz(bfeSigned(a32, c32 & 31, (c32 >> 16) & 0x7f));
  if (n == "s_add_u32") {
    U64 r = U64(a32) + c32;
    return ScalarResult{U32(r), (r >> 32) != 0};
  }
  if (n == "s_sub_u32")
    return ScalarResult{U32(a32 - c32), c32 > a32};
  if (n == "s_addc_u32") {
    U64 r = U64(a32) + c32 + sccIn;
    return ScalarResult{U32(r), (r >> 32) != 0};
  }
  if (n == "s_add_i32") {
    I32 r = I32(a32 + c32);
    bool overflow =
        (I32(a32) < 0) == (I32(c32) < 0) && (r < 0) != (I32(a32) < 0);
    return ScalarResult{U32(r), overflow};
  }
  if (n == "s_sub_i32") {
    I32 r = I32(a32 - c32);
    bool overflow =
        (I32(a32) < 0) != (I32(c32) < 0) && (r < 0) != (I32(a32) < 0);
    return ScalarResult{U32(r), overflow};
  }
  if (n.consume_front("s_cmp_")) {
    auto [pred, type] = n.split('_');
    bool r = type == "i32"   ? relation(pred, I32(a32), I32(c32))
             : type == "u32" ? relation(pred, a32, c32)
                             : relation(pred, a, c);
    return ScalarResult{0, r};
  }
  return std::nullopt;
}

std::optional<bool> executeSALU(WaveExec &exec, const DecodedOp &decoded) {
  Operation *op = exec.op;
  OperandViews in;
  switch (ALUForm(decoded.form)) {
  case ALUForm::SCselect: { // scc, src0, src1
    if (!exec.readOperands(in))
      return false;
    RegValue out = RegValue::scalar(1);
    out.ref(0) = in[0].at(0) ? in[1].at(0) : in[2].at(0);
    return exec.write(op->getResult(0), std::move(out));
  }
  case ALUForm::SAndSaveexec: {
    RegValue saved = RegValue::scalar(2);
    saved.ref(0, 0) = U32(exec.wave.exec);
    saved.ref(0, 1) = U32(exec.wave.exec >> 32);
    exec.wave.exec &= exec.wave.vcc;
    exec.wave.scc = exec.wave.exec != 0;
    return exec.write(op->getResult(0), std::move(saved));
  }
  case ALUForm::SMovB64Exec: {
    std::optional<RegValue> saved = exec.read(op->getOperand(0));
    if (!saved)
      return false;
    exec.wave.exec = saved->at64(0);
    return true;
  }
  case ALUForm::SMov: {
    // As v_mov_b32: a tuple-typed move copies every register.
    // (variant: s_mov_b64; variant2: an immediate fills every register.)
    std::optional<RegValue> src = exec.read(op->getOperand(0));
    if (!src)
      return false;
    RegValue out = exec.shapeOf(op->getResult(0));
    bool splat = decoded.variant2;
    for (unsigned d = 0; d < out.dwords; ++d)
      out.ref(0, d) = src->at(0, splat ? 0 : d);
    if (decoded.variant && out.dwords == 1)
      out.ref(0, 0) = src->at(0, 0);
    return exec.write(op->getResult(0), std::move(out));
  }
  case ALUForm::SALU:
  case ALUForm::SALUUnknown:
    break;
  default:
    return std::nullopt;
  }
  llvm::StringRef name = op->getName().stripDialect();
  // Operands: [scc_in,] src0 [, src1].
  if (!exec.readOperands(in))
    return false;
  unsigned first = name == "s_addc_u32" ? 1 : 0;
  bool sccIn = first ? in[0].at(0) & 1 : exec.wave.scc;
  const RegValue &a = in[first];
  const RegValue *c = in.size() > first + 1 ? &in[first + 1] : nullptr;
  bool wide = name.ends_with("64");
  U64 av = wide ? a.at64(0) : a.at(0);
  U64 cv =
      c ? (wide && !name.starts_with("s_lshl") && !name.starts_with("s_lshr") &&
                   !name.starts_with("s_ashr")
               ? c->at64(0)
               : c->at(0))
        : 0;
  std::optional<ScalarResult> r = salu(name, av, cv, sccIn, wide);
  if (!r)
    return std::nullopt;
  for (Value result : op->getResults()) {
    if (isa<SCCType>(result.getType())) {
      RegValue flag = RegValue::scalar(1);
      flag.ref(0) = r->scc.value_or(exec.wave.scc);
      if (!exec.write(result, std::move(flag)))
        return false;
      continue;
    }
    RegValue out = exec.shapeOf(result);
    out.ref(0, 0) = U32(r->value);
    if (out.dwords > 1)
      out.ref(0, 1) = U32(r->value >> 32);
    if (!exec.write(result, std::move(out)))
      return false;
  }
  if (r->scc)
    exec.wave.scc = *r->scc;
  return true;
}

//===----------------------------------------------------------------------===//
// arith pseudo-ops (SPEC.md 6): 32-bit, per lane when the result is a
// vector register.
//===----------------------------------------------------------------------===//

std::optional<bool> executeArith(WaveExec &exec, llvm::StringRef name) {
  if (!name.consume_front("arith."))
    return std::nullopt;
  Operation *op = exec.op;
  llvm::SmallVector<RegValue, 3> in;
  for (Value v : op->getOperands()) {
    if (getRegSize(v.getType()) > 1)
      return exec.notSimulated("a register operand wider than 32 bits");
    std::optional<RegValue> r = exec.read(v);
    if (!r)
      return false;
    in.push_back(std::move(*r));
  }
  Value result = op->getResult(0);
  if (getRegSize(result.getType()) > 1)
    return exec.notSimulated("a result wider than 32 bits");
  RegValue out = exec.shapeOf(result);
  unsigned lanes = out.vector ? exec.lanes() : 1;
  std::optional<CmpPredicate> pred;
  if (auto cmp = dyn_cast<ArithCmpOp>(op))
    pred = cmp.getPredicate();
  for (unsigned l = 0; l < lanes; ++l) {
    U32 x = in.size() > 0 ? in[0].at(l) : 0,
        y = in.size() > 1 ? in[1].at(l) : 0;
    U32 &o = out.ref(l);
    if (name == "add")
      o = x + y;
    else if (name == "mul")
      o = x * y;
    else if (name == "or")
      o = x | y;
    else if (name == "and")
      o = x & y;
    else if (name == "select") // operands: falseVal, trueVal, condition
      o = in[2].at(l) ? y : x;
    else if (name == "readfirstlane")
      o = in[0].at(0);
    else if (name == "trunc" || name == "sext" || name == "zext")
      o = x;
    else if (pred) {
      // Operands after the predicate attribute: lhs, rhs.
      switch (*pred) {
      case CmpPredicate::eq:
        o = x == y;
        break;
      case CmpPredicate::ne:
        o = x != y;
        break;
      case CmpPredicate::slt:
        o = I32(x) < I32(y);
        break;
      case CmpPredicate::sle:
        o = I32(x) <= I32(y);
        break;
      case CmpPredicate::sgt:
        o = I32(x) > I32(y);
        break;
      case CmpPredicate::sge:
        o = I32(x) >= I32(y);
        break;
      case CmpPredicate::ult:
        o = x < y;
        break;
      case CmpPredicate::ule:
        o = x <= y;
        break;
      case CmpPredicate::ugt:
        o = x > y;
        break;
      case CmpPredicate::uge:
        o = x >= y;
        break;
      }
    } else
      return exec.notSimulated();
  }
  return exec.write(result, std::move(out));
}

} // namespace

std::optional<bool> waveasm::sim::executeALU(WaveExec &exec) {
  const DecodedOp &d = *exec.decoded;
  switch (ALUForm(d.form)) {
  case ALUForm::Arith:
    return executeArith(exec, exec.op->getName().stripDialect());
  case ALUForm::SCselect:
  case ALUForm::SAndSaveexec:
  case ALUForm::SMovB64Exec:
  case ALUForm::SMov:
  case ALUForm::SALU:
  case ALUForm::SALUUnknown:
    return executeSALU(exec, d);
  default:
    return executeVALU(exec, d);
  }
}

bool waveasm::sim::decodeALU(DecodedOp &d) {
  llvm::StringRef name = d.op->getName().stripDialect();
  auto set = [&](ALUForm form) {
    d.kind = OpKind::ALU;
    d.form = uint8_t(form);
    return true;
  };
  if (name.starts_with("arith."))
    return set(ALUForm::Arith);
  if (name == "s_cselect_b32")
    return set(ALUForm::SCselect);
  if (name == "s_and_saveexec_b64")
    return set(ALUForm::SAndSaveexec);
  if (name == "s_mov_b64_exec")
    return set(ALUForm::SMovB64Exec);
  if (name.starts_with("s_") && d.facts.unit == ExecUnit::SALU) {
    if (name == "s_mov_b32" || name == "s_mov_b64") {
      d.variant = name == "s_mov_b64";
      d.variant2 = name == "s_mov_b32" && d.op->getNumOperands() &&
                   isa<ImmType>(d.op->getOperand(0).getType());
      return set(ALUForm::SMov);
    }
    // salu() knows a mnemonic or not whatever its operands.
    return set(salu(name, 0, 0, false, name.ends_with("64"))
                   ? ALUForm::SALU
                   : ALUForm::SALUUnknown);
  }
  if (name.starts_with("v_mfma") || !name.starts_with("v_"))
    return false;
  return decodeVALU(d, name);
}
