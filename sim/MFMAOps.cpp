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
// bits). Multi-block shapes (4x4x*, 16x16x4 and 32x32x4 of 16-bit types,
// 16x16x4 and 32x32x4 i8) and f64 are not simulated yet.
//
//===----------------------------------------------------------------------===//

#include "sim/Float.h"
#include "sim/Machine.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstring>

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

std::optional<Shape> shapeOf(llvm::StringRef name) {
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
  return llvm::StringSwitch<std::optional<Shape>>(name)
      .Case("v_mfma_f32_16x16x16_f16", plain(16, 16, Element::F16))
      .Case("v_mfma_f32_16x16x32_f16", plain(16, 32, Element::F16))
      .Case("v_mfma_f32_32x32x8_f16", plain(32, 8, Element::F16))
      .Case("v_mfma_f32_16x16x16_bf16", plain(16, 16, Element::BF16))
      .Case("v_mfma_f32_16x16x32_bf16", plain(16, 32, Element::BF16))
      .Case("v_mfma_f32_32x32x8_bf16", plain(32, 8, Element::BF16))
      .Case("v_mfma_f32_16x16x4_f32", plain(16, 4, Element::F32))
      .Case("v_mfma_f32_32x32x2_f32", plain(32, 2, Element::F32))
      .Case("v_mfma_i32_16x16x16_i8", plain(16, 16, Element::I8))
      .Case("v_mfma_i32_32x32x8_i8", plain(32, 8, Element::I8))
      .Case("v_mfma_f32_16x16x32_fp8_fp8", eight(16, 32, false, false))
      .Case("v_mfma_f32_16x16x32_fp8_bf8", eight(16, 32, false, true))
      .Case("v_mfma_f32_16x16x32_bf8_fp8", eight(16, 32, true, false))
      .Case("v_mfma_f32_16x16x32_bf8_bf8", eight(16, 32, true, true))
      .Case("v_mfma_f32_32x32x16_fp8_fp8", eight(32, 16, false, false))
      .Case("v_mfma_f32_32x32x16_fp8_bf8", eight(32, 16, false, true))
      .Case("v_mfma_f32_32x32x16_bf8_fp8", eight(32, 16, true, false))
      .Case("v_mfma_f32_32x32x16_bf8_bf8", eight(32, 16, true, true))
      .Case("v_mfma_scale_f32_16x16x128_f8f6f4", scaled(16, 128))
      .Case("v_mfma_scale_f32_32x32x64_f8f6f4", scaled(32, 64))
      .Default(std::nullopt);
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

/// `width` bits of `lane`'s registers from bit `offset` (registers past
/// the value's width read 0; the caller checks the width).
uint32_t bitsAt(const RegValue &v, unsigned lane, unsigned offset,
                unsigned width) {
  unsigned d = offset / 32, shift = offset % 32;
  uint64_t window =
      uint64_t(v.at(lane, d)) |
      (shift + width > 32 ? uint64_t(v.at(lane, d + 1)) << 32 : 0);
  return uint32_t((window >> shift) & ((uint64_t(1) << width) - 1));
}

/// Element `e` of a lane's packed operand.
double element(const RegValue &v, unsigned lane, unsigned e, Format format) {
  switch (format.element) {
  case Element::F16:
    return halfToFloat(uint16_t(bitsAt(v, lane, 16 * e, 16)));
  case Element::BF16:
    return bf16ToFloat(uint16_t(bitsAt(v, lane, 16 * e, 16)));
  case Element::F32:
    return asFloat(v.at(lane, e));
  case Element::I8:
    return int8_t(bitsAt(v, lane, 8 * e, 8));
  case Element::Mini:
    return miniFloatValue(bitsAt(v, lane, format.bits() * e, format.bits()),
                          format.mini);
  }
  return 0;
}

/// The dot product of two k-contiguous rows, in four partial sums: a single
/// running sum is bound by the latency of each add (a 32x32x8 MFMA is 8192
/// of them), four independent ones by the adder's throughput, and pairs of
/// them fill a 128-bit vector register (SSE2, every x86-64 has it). The
/// order is fixed, so a run is deterministic; the hardware's is unspecified.
double dotProduct(const double *a, const double *b, unsigned k) {
  typedef double Pair __attribute__((vector_size(16)));
  auto load = [](const double *p) {
    Pair v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  Pair s01 = {0, 0}, s23 = {0, 0};
  unsigned e = 0;
  for (; e + 4 <= k; e += 4) {
    s01 += load(a + e) * load(b + e);
    s23 += load(a + e + 2) * load(b + e + 2);
  }
  for (; e < k; ++e)
    s01[0] += a[e] * b[e];
  return (s01[0] + s01[1]) + (s23[0] + s23[1]);
}

} // namespace

std::optional<bool> waveasm::sim::executeMFMA(WaveExec &exec) {
  llvm::StringRef name = exec.op->getName().stripDialect();
  if (!name.starts_with("v_mfma"))
    return std::nullopt;
  std::optional<Shape> shape = shapeOf(name);
  if (!shape)
    return exec.notSimulated();
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
  std::optional<RegValue> a = exec.read(op->getOperand(0));
  std::optional<RegValue> b = exec.read(op->getOperand(1));
  std::optional<RegValue> c = exec.read(op->getOperand(2));
  if (!a || !b || !c)
    return false;
  unsigned m = shape->m, groups = 64 / m, perLane = shape->k / groups;
  // A register the shape reads that the operand does not have would read
  // as zeros: say so instead.
  for (auto [value, format, which] :
       {std::tuple<const RegValue *, Format, const char *>{&*a, shape->a, "A"},
        std::tuple<const RegValue *, Format, const char *>{&*b, shape->b,
                                                           "B"}}) {
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
  auto laneScale = [&](const std::optional<RegValue> &scale, unsigned lane,
                       int64_t byte) {
    return scale ? e8m0Value(uint8_t(scale->at(lane) >> (8 * byte))) : 1.0;
  };
  // A[i][k] and B[k][j] as doubles, both k-contiguous (B transposed).
  llvm::SmallVector<double, 512> A(m * shape->k), B(shape->k * m);
  for (unsigned lane = 0; lane < 64; ++lane) {
    unsigned row = (lane % m) * shape->k + (lane / m) * perLane;
    double sa = laneScale(scaleA, lane, selA);
    double sb = laneScale(scaleB, lane, selB);
    for (unsigned e = 0; e < perLane; ++e) {
      A[row + e] = element(*a, lane, e, shape->a) * sa;
      B[row + e] = element(*b, lane, e, shape->b) * sb;
    }
  }
  Value result = op->getResult(0);
  RegValue out = exec.shapeOf(result);
  bool integer = shape->a.element == Element::I8;
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned r = 0; r < out.dwords; ++r) {
      unsigned i =
          m == 16 ? 4 * (lane / 16) + r : 8 * (r / 4) + 4 * (lane / 32) + r % 4;
      unsigned j = lane % m;
      uint32_t acc = c->at(lane, r);
      double dot = dotProduct(&A[i * shape->k], &B[j * shape->k], shape->k);
      if (integer)
        // Products of i8 and their sums up to K = 32 are exact in double.
        out.ref(lane, r) = uint32_t(int64_t(int32_t(acc)) + int64_t(dot));
      else
        out.ref(lane, r) = asBits(float(dot + double(asFloat(acc))));
    }
  return exec.write(result, std::move(out));
}
