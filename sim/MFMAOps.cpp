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
// the simulator sums the exact products in double and rounds once to f32
// (integers: exactly, wrapped to 32 bits). Multi-block shapes (4x4x4,
// 16x16x4 of 16-bit types), f64, fp8/bf8 and the scaled MFMAs are not
// simulated yet.
//
//===----------------------------------------------------------------------===//

#include "sim/Float.h"
#include "sim/Machine.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

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

/// Element `e` of a lane's packed A or B operand.
double element(const RegValue &v, unsigned lane, unsigned e, Element type) {
  switch (type) {
  case Element::F16:
    return halfToFloat(uint16_t(v.at(lane, e / 2) >> (16 * (e % 2))));
  case Element::BF16:
    return bf16ToFloat(uint16_t(v.at(lane, e / 2) >> (16 * (e % 2))));
  case Element::F32:
    return asFloat(v.at(lane, e));
  case Element::I8:
    return int8_t(v.at(lane, e / 4) >> (8 * (e % 4)));
  }
  return 0;
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
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned e = 0; e < perLane; ++e) {
      unsigned k = (lane / m) * perLane + e;
      A[(lane % m) * shape->k + k] = element(*a, lane, e, shape->element);
      B[(lane % m) * shape->k + k] = element(*b, lane, e, shape->element);
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
      if (integer) {
        int64_t sum = int32_t(acc);
        for (unsigned k = 0; k < shape->k; ++k)
          sum += int64_t(A[i * shape->k + k]) * int64_t(B[j * shape->k + k]);
        out.ref(lane, r) = uint32_t(sum);
      } else {
        double sum = asFloat(acc);
        for (unsigned k = 0; k < shape->k; ++k)
          sum += A[i * shape->k + k] * B[j * shape->k + k];
        out.ref(lane, r) = asBits(float(sum));
      }
    }
  return exec.write(result, std::move(out));
}
