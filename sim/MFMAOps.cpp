//===- MFMAOps.cpp - matrix fused multiply-add
//-----------------------------===//
//
// Single-block MFMAs with the lane layouts of AMD's matrix instruction
// calculator (CDNA3 ISA 7.1): for an M x N x K shape with M = N = 16, lane
// l holds row (or column) l % 16 of A (B) and the k-slice (l / 16) * K/4 ..
// of it; D's register r of lane l is D[4 * (l / 16) + r][l % 16]. With M =
// N = 32: A/B k-slices (l / 32) * K/2 .., and D's register r of lane l is
// D[8 * (r / 4) + 4 * (l / 32) + r % 4][l % 32].
//
// The hardware's internal precision of the dot product is not specified;
// the simulator sums the exact products in double (four partial sums, then
// the accumulator) and rounds once to f32 (integers: exactly, wrapped to 32
// bits). Multi-block shapes (4x4x4,
// 16x16x4 of 16-bit types), f64, fp8/bf8 and the scaled MFMAs are not
// simulated yet.
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

enum class Element { F16, BF16, F32, I8 };

struct Shape {
  unsigned m, k;
  Element element;
};

std::optional<Shape> shapeOf(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Shape>>(name)
      .Case("v_mfma_f32_16x16x16_f16", Shape{16, 16, Element::F16})
      .Case("v_mfma_f32_16x16x32_f16", Shape{16, 32, Element::F16})
      .Case("v_mfma_f32_32x32x8_f16", Shape{32, 8, Element::F16})
      .Case("v_mfma_f32_16x16x16_bf16", Shape{16, 16, Element::BF16})
      .Case("v_mfma_f32_16x16x32_bf16", Shape{16, 32, Element::BF16})
      .Case("v_mfma_f32_32x32x8_bf16", Shape{32, 8, Element::BF16})
      .Case("v_mfma_f32_16x16x4_f32", Shape{16, 4, Element::F32})
      .Case("v_mfma_f32_32x32x2_f32", Shape{32, 2, Element::F32})
      .Case("v_mfma_i32_16x16x16_i8", Shape{16, 16, Element::I8})
      .Case("v_mfma_i32_32x32x8_i8", Shape{32, 8, Element::I8})
      .Default(std::nullopt);
}

/// Elements of one register (a dword) of a packed A or B operand.
unsigned elementsPerDword(Element type) {
  return type == Element::F32 ? 1 : type == Element::I8 ? 4 : 2;
}

/// Element `e` of the packed `word`.
double element(uint32_t word, unsigned e, Element type) {
  switch (type) {
  case Element::F16:
    return halfToFloat(uint16_t(word >> (16 * e)));
  case Element::BF16:
    return bf16ToFloat(uint16_t(word >> (16 * e)));
  case Element::F32:
    return asFloat(word);
  case Element::I8:
    return int8_t(word >> (8 * e));
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
  std::optional<RegValue> a = exec.read(op->getOperand(0));
  std::optional<RegValue> b = exec.read(op->getOperand(1));
  std::optional<RegValue> c = exec.read(op->getOperand(2));
  if (!a || !b || !c)
    return false;
  unsigned m = shape->m, groups = 64 / m, perLane = shape->k / groups;
  // A[i][k] and B[k][j] as doubles, both k-contiguous (B transposed).
  llvm::SmallVector<double, 512> A(m * shape->k), B(shape->k * m);
  // Unpacked a register at a time: the lane's k-slice is contiguous.
  unsigned perDword = elementsPerDword(shape->element);
  for (unsigned lane = 0; lane < 64; ++lane) {
    unsigned row = (lane % m) * shape->k + (lane / m) * perLane;
    for (unsigned d = 0; d * perDword < perLane; ++d) {
      uint32_t wordA = a->at(lane, d), wordB = b->at(lane, d);
      for (unsigned e = 0; e < perDword && d * perDword + e < perLane; ++e) {
        A[row + d * perDword + e] = element(wordA, e, shape->element);
        B[row + d * perDword + e] = element(wordB, e, shape->element);
      }
    }
  }
  Value result = op->getResult(0);
  RegValue out = exec.shapeOf(result);
  bool integer = shape->element == Element::I8;
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
