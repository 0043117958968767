//===- MFMAOps.cpp - matrix fused multiply-add ----------------------------===//
//
// Single-block MFMAs with the lane layouts of AMD's matrix instruction
// calculator (CDNA3 ISA 7.1): for an M x N x K shape with M = N = 16, lane
// l holds row (or column) l % 16 of A (B) and the k-slice (l / 16) * K/4 ..
// of it; D's register r of lane l is D[4 * (l / 16) + r][l % 16]. With M =
// N = 32: A/B k-slices (l / 32) * K/2 .., and D's register r of lane l is
// D[8 * (r / 4) + 4 * (l / 32) + r % 4][l % 32]. A lane's elements are
// packed from bit 0 of its first register up (a 6-bit element may straddle
// two registers).
//
// Element formats: f16, bf16, f32, i8; fp8 (E4M3) and bf8 (E5M2) in their
// FNUZ encodings on gfx942 and the OCP ones on gfx950; the scaled gfx950
// MFMAs read A and B in the format cbsz and blgp name (0 fp8, 1 bf8, 2 fp6
// E2M3, 3 bf6 E3M2, 4 fp4 E2M1; 4 when absent, as the emitter's default)
// and multiply each by the E8M0 scale in byte op_sel_a (op_sel_b) of the
// scale register of the lane holding it: a lane's k-slice is exactly one
// 32-element scale block in both shapes (CDNA4 ISA 7.2).
//
// The hardware's internal precision of the dot product is not specified;
// the simulator sums the exact products in double (four partial sums, then
// the accumulator) and rounds once to f32 (integers: exactly, wrapped to 32
// bits); a NaN result is the quiet NaN 0x7fc00000. Multi-block shapes (4x4x*,
// 16x16x4 and 32x32x4 of 16-bit types, 16x16x4 and 32x32x4 i8) and f64 are not
// simulated yet.
//
//===----------------------------------------------------------------------===//

#include "sim/Decoded.h"
#include "sim/Float.h"
#include "sim/Machine.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;

namespace {

enum class Element { F16, BF16, F32, I8, Mini };

struct Format {
  Element element = Element::F16;
  MiniFloat mini = MiniFloat::E4M3; // Element::Mini
  unsigned bits() const {
    switch (element) {
    case Element::F16:
    case Element::BF16:
      return 16;
    case Element::F32:
      return 32;
    case Element::I8:
      return 8;
    case Element::Mini:
      return miniFloatBits(mini);
    }
    return 0;
  }
};

struct Shape {
  unsigned m, k;
  Format a, b;
  bool scaled = false;
  /// fp8/bf8 operands named by the mnemonic: FNUZ or OCP by target.
  bool eightBitByTarget = false;
};

Format of(Element e) { return Format{e, MiniFloat::E4M3}; }

/// The shape a mnemonic names, or null (decoded once per op: Decoded.h's
/// `fn` points into this table).
const Shape *shapeOf(llvm::StringRef name) {
  auto plain = [](unsigned m, unsigned k, Element e) {
    return Shape{m, k, of(e), of(e)};
  };
  // The 8-bit formats' FNUZ/OCP choice comes later, from the target.
  auto eight = [](unsigned m, unsigned k, bool aBF8, bool bBF8) {
    Shape s{m, k,
            Format{Element::Mini, aBF8 ? MiniFloat::E5M2 : MiniFloat::E4M3},
            Format{Element::Mini, bBF8 ? MiniFloat::E5M2 : MiniFloat::E4M3}};
    s.eightBitByTarget = true;
    return s;
  };
  auto scaled = [](unsigned m, unsigned k) {
    Shape s{m, k, of(Element::Mini), of(Element::Mini)};
    s.scaled = true;
    return s;
  };
  static const std::pair<llvm::StringLiteral, Shape> table[] = {
      {"v_mfma_f32_16x16x16_f16", plain(16, 16, Element::F16)},
      {"v_mfma_f32_16x16x32_f16", plain(16, 32, Element::F16)},
      {"v_mfma_f32_32x32x8_f16", plain(32, 8, Element::F16)},
      {"v_mfma_f32_16x16x16_bf16", plain(16, 16, Element::BF16)},
      {"v_mfma_f32_16x16x32_bf16", plain(16, 32, Element::BF16)},
      {"v_mfma_f32_32x32x8_bf16", plain(32, 8, Element::BF16)},
      {"v_mfma_f32_16x16x4_f32", plain(16, 4, Element::F32)},
      {"v_mfma_f32_32x32x2_f32", plain(32, 2, Element::F32)},
      {"v_mfma_i32_16x16x16_i8", plain(16, 16, Element::I8)},
      {"v_mfma_i32_32x32x8_i8", plain(32, 8, Element::I8)},
      {"v_mfma_f32_16x16x32_fp8_fp8", eight(16, 32, false, false)},
      {"v_mfma_f32_16x16x32_fp8_bf8", eight(16, 32, false, true)},
      {"v_mfma_f32_16x16x32_bf8_fp8", eight(16, 32, true, false)},
      {"v_mfma_f32_16x16x32_bf8_bf8", eight(16, 32, true, true)},
      {"v_mfma_f32_32x32x16_fp8_fp8", eight(32, 16, false, false)},
      {"v_mfma_f32_32x32x16_fp8_bf8", eight(32, 16, false, true)},
      {"v_mfma_f32_32x32x16_bf8_fp8", eight(32, 16, true, false)},
      {"v_mfma_f32_32x32x16_bf8_bf8", eight(32, 16, true, true)},
      {"v_mfma_scale_f32_16x16x128_f8f6f4", scaled(16, 128)},
      {"v_mfma_scale_f32_32x32x64_f8f6f4", scaled(32, 64)},
  };
  for (const auto &[mnemonic, shape] : table)
    if (mnemonic == name)
      return &shape;
  return nullptr;
}

/// gfx942 reads fp8/bf8 as FNUZ, later targets as OCP.
MiniFloat forTarget(MiniFloat format, TargetKind target) {
  if (target != TargetKind::gfx942)
    return format;
  return format == MiniFloat::E5M2 ? MiniFloat::E5M2FNUZ : MiniFloat::E4M3FNUZ;
}

/// cbsz/blgp's format code (nullopt: a code the ISA does not define).
std::optional<MiniFloat> scaledFormat(int64_t code) {
  switch (code) {
  case 0:
    return MiniFloat::E4M3;
  case 1:
    return MiniFloat::E5M2;
  case 2:
    return MiniFloat::E2M3;
  case 3:
    return MiniFloat::E3M2;
  case 4:
    return MiniFloat::E2M1;
  default:
    return std::nullopt;
  }
}

int64_t intAttr(Operation *op, llvm::StringRef name, int64_t absent) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return absent;
}

/// The values of the 2^bits codes of a narrow float format, decoded once
/// (miniFloatValue per element is a dozen branches and two ldexp).
const double *miniFloatTable(MiniFloat format) {
  static const auto tables = [] {
    std::array<std::array<double, 256>, 7> t;
    for (unsigned f = 0; f < t.size(); ++f)
      for (unsigned code = 0; code < 256; ++code)
        t[f][code] = miniFloatValue(code, MiniFloat(f));
    return t;
  }();
  return tables[unsigned(format)].data();
}

/// `width` bits of a lane's words from bit `offset` (`words` holds one
/// word past the last one an element starts in, so a 6-bit element may
/// straddle two).
uint32_t bitsAt(const uint32_t *words, unsigned offset, unsigned width) {
  unsigned d = offset / 32, shift = offset % 32;
  uint64_t window = uint64_t(words[d]) | (uint64_t(words[d + 1]) << 32);
  return uint32_t((window >> shift) & ((uint64_t(1) << width) - 1));
}

/// halfToFloat without branches: on random bits (every class of f16 value
/// equally likely) its branches mispredict on most elements.
inline float halfToFloatBranchless(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t normal = ((exp + 112) << 23) | (mant << 13);
  uint32_t special = 0x7f800000 | (mant << 13);
  uint32_t subnormal = asBits(float(mant) * 0x1p-24f); // exact
  uint32_t magnitude = exp == 0x1f ? special : exp == 0 ? subnormal : normal;
  return asFloat(sign | magnitude);
}

#if defined(__x86_64__) && defined(__GNUC__)
/// Four f16 elements from two words by the host's F16C unit: exact like
/// halfToFloatBranchless (the value of every finite and infinite code; a
/// NaN stays a NaN, and any NaN product makes the result the canonical NaN).
__attribute__((target("f16c"))) void decodeHalvesF16C(const uint32_t *words,
                                                      unsigned count,
                                                      double *out,
                                                      unsigned stride) {
  unsigned e = 0;
  for (; e + 4 <= count; e += 4) {
    uint64_t pair;
    std::memcpy(&pair, words + e / 2, 8);
    float f[4];
    _mm_storeu_ps(f, _mm_cvtph_ps(_mm_cvtsi64_si128(int64_t(pair))));
    for (unsigned j = 0; j < 4; ++j)
      out[(e + j) * stride] = double(f[j]);
  }
  for (; e < count; ++e)
    out[e * stride] =
        double(halfToFloatBranchless(uint16_t(words[e / 2] >> (16 * (e % 2)))));
}
#endif

/// Elements 0 .. count-1 of a lane's packed operand, times `scale` (the
/// scaled formats only: every other format's scale is 1), to out[0],
/// out[stride], ...: one switch per lane, not per element.
void decodeLane(const uint32_t *words, unsigned count, const Format &format,
                double scale, double *out, unsigned stride) {
  switch (format.element) {
  case Element::F16: {
#if defined(__x86_64__) && defined(__GNUC__)
    static const bool f16c = __builtin_cpu_supports("f16c");
    if (f16c)
      return decodeHalvesF16C(words, count, out, stride);
#endif
    for (unsigned e = 0; e < count; ++e)
      out[e * stride] = double(
          halfToFloatBranchless(uint16_t(words[e / 2] >> (16 * (e % 2)))));
    return;
  }
  case Element::BF16:
    for (unsigned e = 0; e < count; ++e)
      out[e * stride] =
          double(bf16ToFloat(uint16_t(words[e / 2] >> (16 * (e % 2)))));
    return;
  case Element::F32:
    for (unsigned e = 0; e < count; ++e)
      out[e * stride] = double(asFloat(words[e]));
    return;
  case Element::I8:
    for (unsigned e = 0; e < count; ++e)
      out[e * stride] = double(int8_t(words[e / 4] >> (8 * (e % 4))));
    return;
  case Element::Mini: {
    const double *table = miniFloatTable(format.mini);
    unsigned bits = format.bits();
    for (unsigned e = 0; e < count; ++e)
      out[e * stride] = table[bitsAt(words, bits * e, bits)] * scale;
    return;
  }
  }
}

/// dots[i * m + j] = the dot product of row i of A (m x k, k-contiguous)
/// and column j of B (k x m, j-contiguous), each in four partial sums
/// (products of k = 0, 1, 2, 3 mod 4; a remainder of k into the first),
/// added (s0 + s1) + (s2 + s3). The order is fixed, so a run is
/// deterministic (the hardware's is unspecified); the columns run side by
/// side in vector registers (each column's sums in the same order as
/// alone), so the host's vector width changes the speed, never a bit of
/// the result.
template <unsigned M>
inline __attribute__((always_inline)) void
dotProductsOf(const double *A, const double *B, unsigned k, double *dots) {
  for (unsigned i = 0; i < M; ++i) {
    double s0[M] = {}, s1[M] = {}, s2[M] = {}, s3[M] = {};
    const double *a = A + i * k;
    unsigned e = 0;
    for (; e + 4 <= k; e += 4) {
      const double *b = B + e * M;
      double a0 = a[e], a1 = a[e + 1], a2 = a[e + 2], a3 = a[e + 3];
      for (unsigned j = 0; j < M; ++j) {
        s0[j] += a0 * b[j];
        s1[j] += a1 * b[M + j];
        s2[j] += a2 * b[2 * M + j];
        s3[j] += a3 * b[3 * M + j];
      }
    }
    for (; e < k; ++e)
      for (unsigned j = 0; j < M; ++j)
        s0[j] += a[e] * B[e * M + j];
    for (unsigned j = 0; j < M; ++j)
      dots[i * M + j] = (s0[j] + s1[j]) + (s2[j] + s3[j]);
  }
}

void dotProductsPortable(const double *A, const double *B, unsigned m,
                         unsigned k, double *dots) {
  if (m == 16)
    dotProductsOf<16>(A, B, k, dots);
  else
    dotProductsOf<32>(A, B, k, dots);
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same code for AVX2 hosts: four doubles per instruction instead of
// two. No FMA: a fused multiply-add would round once where the portable
// code rounds twice.
__attribute__((target("avx2"))) void dotProductsAVX2(const double *A,
                                                     const double *B,
                                                     unsigned m, unsigned k,
                                                     double *dots) {
  if (m == 16)
    dotProductsOf<16>(A, B, k, dots);
  else
    dotProductsOf<32>(A, B, k, dots);
}
#endif

void dotProducts(const double *A, const double *B, unsigned m, unsigned k,
                 double *dots) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2)
    return dotProductsAVX2(A, B, m, k, dots);
#endif
  dotProductsPortable(A, B, m, k, dots);
}

/// Words 0 .. count-1 of `lane` in `value`, then a zero word (bitsAt reads
/// one past the word an element starts in; the bits it takes lie before).
void gatherLane(const RegValue &value, unsigned lane, unsigned count,
                uint32_t *words) {
  if (value.vector && count <= value.dwords)
    for (unsigned d = 0; d < count; ++d)
      words[d] = value.words[size_t(d) * value.lanes + lane];
  else
    for (unsigned d = 0; d < count; ++d)
      words[d] = value.at(lane, d);
  words[count] = 0;
}

#if defined(__x86_64__) && defined(__GNUC__)
/// decodeOperand of f16 vector registers of 64 lanes, four lanes at a time
/// (a word of each: eight elements) through the F16C unit. The four lanes
/// hold rows (of B: columns) i .. i + 3 at the same k, so B's four low
/// (high) halves are four consecutive doubles of one k and A's pair of
/// halves per lane two consecutive doubles of one row: whole-vector
/// stores, no division by M. The values are the scalar conversions' (a
/// float widened to double is exact).
template <unsigned M, bool Columns>
__attribute__((target("f16c,avx"))) void
decodeF16ColumnsOf(const uint32_t *words, unsigned k, unsigned perLane,
                   double *out) {
  for (unsigned d = 0; d < perLane / 2; ++d)
    for (unsigned lane = 0; lane < 64; lane += 4) {
      // [lo, hi] of lanes lane .. lane + 3.
      __m256 f = _mm256_cvtph_ps(_mm_loadu_si128(
          reinterpret_cast<const __m128i *>(words + size_t(d) * 64 + lane)));
      __m128 first = _mm256_castps256_ps128(f),
             second = _mm256_extractf128_ps(f, 1);
      unsigned i = lane % M, e = (lane / M) * perLane + 2 * d;
      if (Columns) {
        __m128 lo = _mm_shuffle_ps(first, second, _MM_SHUFFLE(2, 0, 2, 0));
        __m128 hi = _mm_shuffle_ps(first, second, _MM_SHUFFLE(3, 1, 3, 1));
        _mm256_storeu_pd(out + e * M + i, _mm256_cvtps_pd(lo));
        _mm256_storeu_pd(out + (e + 1) * M + i, _mm256_cvtps_pd(hi));
      } else {
        __m256d lanes01 = _mm256_cvtps_pd(first);
        __m256d lanes23 = _mm256_cvtps_pd(second);
        _mm_storeu_pd(out + i * k + e, _mm256_castpd256_pd128(lanes01));
        _mm_storeu_pd(out + (i + 1) * k + e, _mm256_extractf128_pd(lanes01, 1));
        _mm_storeu_pd(out + (i + 2) * k + e, _mm256_castpd256_pd128(lanes23));
        _mm_storeu_pd(out + (i + 3) * k + e, _mm256_extractf128_pd(lanes23, 1));
      }
    }
}

void decodeF16Columns(const uint32_t *words, unsigned m, unsigned k,
                      unsigned perLane, double *out, bool columns) {
  if (m == 16)
    return columns ? decodeF16ColumnsOf<16, true>(words, k, perLane, out)
                   : decodeF16ColumnsOf<16, false>(words, k, perLane, out);
  return columns ? decodeF16ColumnsOf<32, true>(words, k, perLane, out)
                 : decodeF16ColumnsOf<32, false>(words, k, perLane, out);
}
#endif

/// An operand's elements as doubles: lane l holds row (of B: column) l % m,
/// elements (l / m) * perLane .. of its k-slice, times the E8M0 scale in
/// byte `sel` of `scale`'s word of the lane (when scaled). A goes to
/// out[i * k + e] (`columns` false), B to out[e * m + j].
void decodeOperand(const RegValue &v, const Format &format,
                   const RegValue *scale, int64_t sel, unsigned m, unsigned k,
                   unsigned perLane, double *out, bool columns) {
  unsigned words = (perLane * format.bits() + 31) / 32;
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool f16c = __builtin_cpu_supports("f16c");
  if (f16c && format.element == Element::F16 && v.vector && v.lanes == 64 &&
      perLane % 2 == 0 && words <= v.dwords)
    return decodeF16Columns(v.words.data(), m, k, perLane, out, columns);
#endif
  for (unsigned lane = 0; lane < 64; ++lane) {
    // The words the lane's elements lie in, one zero word past the last
    // (bitsAt reads two; the bits it takes lie in the words before).
    uint32_t w[17];
    gatherLane(v, lane, words, w);
    double laneScale =
        scale ? e8m0Value(uint8_t(scale->at(lane) >> (8 * sel))) : 1.0;
    unsigned i = lane % m, first = (lane / m) * perLane;
    decodeLane(w, perLane, format, laneScale,
               columns ? &out[first * m + i] : &out[i * k + first],
               columns ? m : 1);
  }
}

/// A result's bits; a NaN as the one quiet NaN 0x7fc00000: which NaN an
/// IEEE operation returns is unspecified, and the host's vector width and
/// operand order would otherwise pick (the hardware's is unspecified too).
uint32_t canonicalNaN(float value) {
  // A select, not a branch: the loop over a row vectorizes.
  uint32_t bits = asBits(value);
  return value != value ? 0x7fc00000u : bits;
}

} // namespace

std::optional<bool> waveasm::sim::executeMFMA(WaveExec &exec) {
  if (!exec.decoded || exec.decoded->kind != OpKind::MFMA)
    return std::nullopt;
  // decodeMFMA's shape (an op of a shape the table lacks never gets here).
  std::optional<Shape> shape = *static_cast<const Shape *>(exec.decoded->fn);
  if (exec.lanes() != 64)
    return exec.notSimulated("MFMA in a wave of other than 64 lanes");
  Operation *op = exec.op;
  if (shape->eightBitByTarget) {
    shape->a.mini = forTarget(shape->a.mini, exec.wg.target);
    shape->b.mini = forTarget(shape->b.mini, exec.wg.target);
  }
  int64_t selA = 0, selB = 0;
  if (shape->scaled) {
    for (auto [attr, format] :
         {std::pair<const char *, Format *>{"cbsz", &shape->a},
          std::pair<const char *, Format *>{"blgp", &shape->b}}) {
      int64_t code = intAttr(op, attr, 4);
      std::optional<MiniFloat> mini = scaledFormat(code);
      if (!mini)
        return exec.notSimulated(llvm::Twine(attr) + " = " + llvm::Twine(code) +
                                 " (formats are 0-4)");
      format->mini = *mini;
    }
    selA = intAttr(op, "op_sel_a", 0);
    selB = intAttr(op, "op_sel_b", 0);
    if (selA < 0 || selA > 3 || selB < 0 || selB > 3)
      return exec.notSimulated("op_sel_a/op_sel_b outside 0-3");
  }
  RegValue scratch[3];
  const RegValue *a = exec.view(op->getOperand(0), scratch[0]);
  const RegValue *b = a ? exec.view(op->getOperand(1), scratch[1]) : nullptr;
  const RegValue *c = b ? exec.view(op->getOperand(2), scratch[2]) : nullptr;
  if (!c)
    return false;
  unsigned m = shape->m, groups = 64 / m, perLane = shape->k / groups;
  // A register the shape reads that the operand does not have would read
  // as zeros: say so instead.
  for (auto [value, format, which] :
       {std::tuple<const RegValue *, Format, const char *>{a, shape->a, "A"},
        std::tuple<const RegValue *, Format, const char *>{b, shape->b, "B"}}) {
    unsigned needed = (perLane * format.bits() + 31) / 32;
    if (value->dwords < needed)
      return exec.fail(
          SimError::Kind::Fault,
          llvm::Twine(which) + " has " + llvm::Twine(value->dwords) +
              " registers; " + llvm::Twine(perLane) + " elements of " +
              llvm::Twine(format.bits()) + " bits need " + llvm::Twine(needed));
  }
  // Scales: one E8M0 byte per lane for its k-slice.
  std::optional<RegValue> scaleA, scaleB;
  if (shape->scaled) {
    scaleA = exec.read(op->getOperand(3));
    scaleB = exec.read(op->getOperand(4));
    if (!scaleA || !scaleB)
      return false;
  }
  // A[i][k] (k-contiguous) and B[k][j] (j-contiguous) as doubles.
  unsigned k = shape->k;
  // Every element is written (the lanes cover every row and k-slice).
  double A[2048], B[2048];
  decodeOperand(*a, shape->a, scaleA ? &*scaleA : nullptr, selA, m, k, perLane,
                A, /*columns=*/false);
  decodeOperand(*b, shape->b, scaleB ? &*scaleB : nullptr, selB, m, k, perLane,
                B, /*columns=*/true);
  double dots[1024];
  dotProducts(A, B, m, k, dots);
  Value result = op->getResult(0);
  RegValue out = exec.shapeOf(result);
  bool integer = shape->a.element == Element::I8;
  // D's register r of the m lanes from `first` is row i of D, columns 0 ..
  // m-1 (see the layouts above): contiguous in `dots` and in the
  // registers, a loop the compiler vectorizes.
  for (unsigned r = 0; r < out.dwords; ++r)
    for (unsigned first = 0; first < 64; first += m) {
      unsigned i = m == 16 ? 4 * (first / 16) + r
                           : 8 * (r / 4) + 4 * (first / 32) + r % 4;
      const double *row = &dots[i * m];
      uint32_t acc[32], *to = &out.ref(first, r);
      if (c->vector && r < c->dwords)
        std::memcpy(acc, &c->words[size_t(r) * c->lanes + first], 4 * m);
      else
        for (unsigned j = 0; j < m; ++j)
          acc[j] = c->at(first + j, r);
      if (integer)
        // Products of i8 and their sums up to K = 32 are exact in double.
        for (unsigned j = 0; j < m; ++j)
          to[j] = uint32_t(int64_t(int32_t(acc[j])) + int64_t(row[j]));
      else
        for (unsigned j = 0; j < m; ++j)
          to[j] = canonicalNaN(float(row[j] + double(asFloat(acc[j]))));
    }
  return exec.write(result, std::move(out));
}

bool waveasm::sim::decodeMFMA(DecodedOp &d) {
  llvm::StringRef name = d.op->getName().stripDialect();
  if (!name.starts_with("v_mfma"))
    return false;
  // A shape the table lacks stops the run, unnamed, as the dispatch by
  // name did.
  const Shape *shape = shapeOf(name);
  d.kind = shape ? OpKind::MFMA : OpKind::NotSimulated;
  d.fn = shape;
  return true;
}
