//===- SimulatorMFMATest.cpp - every MFMA shape against a plain reference -===//
//
// Each MFMA shape and element type the simulator executes (those of the
// examples among them: 16x16x16 f16, 16x16x32 bf16, 32x32x8 f16, the
// scaled fp4 ones) runs once on registers loaded lane by lane from the
// buffers, with an accumulator loaded the same way; the stored result is
// checked against D = A * B + C computed here from the documented lane
// layouts (AMD's matrix instruction calculator, written out again below
// independently of sim/MFMAOps.cpp): lane l holds row (of B: column)
// l % M and elements (l / M) * K/(64/M) .. of its k-slice, packed from bit
// 0 of its first register; D's register r of lane l is
// D[4 * (l / 16) + r][l % 16] for M = 16 and
// D[8 * (r / 4) + 4 * (l / 32) + r % 4][l % 32] for M = 32.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtils.h"
#include "TestUtils.h"

#include "sim/Float.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;
using waveasm::test::firstProgram;
using waveasm::test::halfValue;
using waveasm::test::program;
using waveasm::test::TestContext;
using waveasm::test::wordAt;

namespace {

enum class Elem { F16, BF16, F32, I8, FP8, BF8, FP4 };

struct MFMACase {
  const char *mnemonic;
  const char *target;
  unsigned m, k;
  Elem a, b;
  bool scaled = false;
};

unsigned bitsOf(Elem e) {
  switch (e) {
  case Elem::F16:
  case Elem::BF16:
    return 16;
  case Elem::F32:
    return 32;
  case Elem::FP4:
    return 4;
  default:
    return 8;
  }
}

/// The value of element code `bits` of format `e` (fp8/bf8: FNUZ on
/// gfx942, OCP on gfx950; miniFloatValue is checked against the specs in
/// SimulatorFloat.NarrowFormatsDecodeAsTheirSpecsSay).
double elementValue(uint32_t bits, Elem e, bool fnuz) {
  switch (e) {
  case Elem::F16:
    return halfValue(bits);
  case Elem::BF16: {
    uint32_t word = bits << 16;
    float f;
    std::memcpy(&f, &word, 4);
    return f;
  }
  case Elem::F32: {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  case Elem::I8:
    return double(int8_t(bits));
  case Elem::FP8:
    return miniFloatValue(bits, fnuz ? MiniFloat::E4M3FNUZ : MiniFloat::E4M3);
  case Elem::BF8:
    return miniFloatValue(bits, fnuz ? MiniFloat::E5M2FNUZ : MiniFloat::E5M2);
  case Elem::FP4:
    return miniFloatValue(bits, MiniFloat::E2M1);
  }
  return 0;
}

std::string tupleType(unsigned words) {
  if (words == 1)
    return "!waveasm.vreg";
  return llvm::formatv("!waveasm.vreg<{0}, {1}>", words, std::min(words, 4u));
}

const char *loadOf(unsigned words) {
  return words == 1   ? "buffer_load_dword"
         : words == 2 ? "buffer_load_dwordx2"
                      : "buffer_load_dwordx4";
}

unsigned log2Of(unsigned x) {
  unsigned n = 0;
  while ((1u << n) < x)
    ++n;
  return n;
}

/// Buffers: 0 = D, 1 = A, 2 = B, 3 = C, 4 = the scales.
std::string mfmaProgram(const MFMACase &c, unsigned wa, unsigned wb,
                        unsigned r) {
  std::string body = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %abuf = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %bbuf = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %cbuf = waveasm.precolored.sreg 16, 4 : !waveasm.psreg<16, 4>
  %sbuf = waveasm.precolored.sreg 20, 4 : !waveasm.psreg<20, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
)";
  for (auto [name, words, buffer] :
       {std::tuple<const char *, unsigned, const char *>{"a", wa, "%abuf"},
        std::tuple<const char *, unsigned, const char *>{"b", wb, "%bbuf"}})
    body += llvm::formatv(
        "  %sh{0} = waveasm.constant {1} : !waveasm.imm<{1}>\n"
        "  %{0}off = waveasm.v_lshlrev_b32 %sh{0}, %tid : !waveasm.imm<{1}>, "
        "!waveasm.pvreg<0> -> !waveasm.vreg\n"
        "  %{0} = waveasm.{2} {3}, %{0}off, %c0 : !waveasm.psreg<{4}, 4>, "
        "!waveasm.vreg, !waveasm.imm<0> -> {5}\n",
        name, log2Of(4 * words), loadOf(words), buffer,
        std::string(buffer) == "%abuf" ? 8 : 12, tupleType(words));
  std::string elements, types;
  for (unsigned i = 0; i < r; ++i) {
    body += llvm::formatv(
        "  %c{0}r = waveasm.buffer_load_dword %cbuf, %off, %c0 offset : {1} : "
        "!waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.imm<0> -> "
        "!waveasm.vreg\n",
        i, 256 * i);
    elements += (i ? ", %c" : "%c") + std::to_string(i) + "r";
    types += i ? ", !waveasm.vreg" : "!waveasm.vreg";
  }
  body += llvm::formatv("  %acc = waveasm.pack {0} : ({1}) -> {2}\n", elements,
                        types, tupleType(r));
  std::string operands = "%a, %b, %acc",
              operandTypes =
                  tupleType(wa) + ", " + tupleType(wb) + ", " + tupleType(r);
  std::string attrs;
  if (c.scaled) {
    body += "  %sa = waveasm.buffer_load_dword %sbuf, %off, %c0 : "
            "!waveasm.psreg<20, 4>, !waveasm.vreg, !waveasm.imm<0> -> "
            "!waveasm.vreg\n"
            "  %sb = waveasm.buffer_load_dword %sbuf, %off, %c0 offset : 256 "
            ": !waveasm.psreg<20, 4>, !waveasm.vreg, !waveasm.imm<0> -> "
            "!waveasm.vreg\n";
    operands += ", %sa, %sb";
    operandTypes += ", !waveasm.vreg, !waveasm.vreg";
    attrs = " {blgp = 4 : i32, cbsz = 4 : i32}";
  }
  body += llvm::formatv("  %d = waveasm.{0} {1}{2} : {3} -> {4}\n", c.mnemonic,
                        operands, attrs, operandTypes, tupleType(r));
  for (unsigned i = 0; i < r; ++i)
    body += llvm::formatv(
        "  %d{0} = waveasm.extract %d[{0}] : {1} -> !waveasm.vreg\n"
        "  waveasm.buffer_store_dword %d{0}, %out, %off offset : {2} : "
        "!waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg\n",
        i, tupleType(r), 256 * i);
  body += "  waveasm.s_endpgm\n";
  return program(body, c.target);
}

void checkAgainstReference(const MFMACase &c) {
  SCOPED_TRACE(std::string(c.mnemonic) + " on " + c.target);
  unsigned m = c.m, groups = 64 / m, perLane = c.k / groups;
  unsigned wa = (perLane * bitsOf(c.a) + 31) / 32;
  unsigned wb = (perLane * bitsOf(c.b) + 31) / 32;
  unsigned r = m * m / 64;
  TestContext t;
  auto module = t.parseModule(mfmaProgram(c, wa, wb, r));
  ASSERT_TRUE(module) << t.diagnostics;
  SimOptions options;
  options.seed = 2; // moderate bytes: finite sums
  options.initial.byteRanges[4] = {124, 130};
  SimResult result = simulate(firstProgram(*module), options);
  ASSERT_TRUE(result.ok()) << result.error->str();
  bool fnuz = std::string(c.target) == "gfx942";
  auto word = [&](unsigned buffer, uint64_t offset) {
    std::vector<uint8_t> b =
        initialBytes(2, bufferAddress(buffer) + offset, 4, options.initial);
    uint32_t w;
    std::memcpy(&w, b.data(), 4);
    return w;
  };
  // Element e of lane l's operand (words at byte (l * words + w) * 4).
  auto element = [&](unsigned buffer, unsigned words, Elem type, unsigned lane,
                     unsigned e) {
    unsigned bits = bitsOf(type), bit = e * bits;
    uint32_t w = word(buffer, (lane * words + bit / 32) * 4);
    uint32_t code = (w >> (bit % 32)) & (bits == 32 ? ~0u : (1u << bits) - 1);
    return elementValue(code, type, fnuz);
  };
  auto scale = [&](unsigned lane, bool isB) {
    if (!c.scaled)
      return 1.0;
    return e8m0Value(uint8_t(word(4, (isB ? 256 : 0) + 4 * lane)));
  };
  // A[i][k], B[k][j] from the lanes holding them.
  std::vector<double> A(m * c.k), B(c.k * m);
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned e = 0; e < perLane; ++e) {
      unsigned row = lane % m, kk = (lane / m) * perLane + e;
      A[row * c.k + kk] = element(1, wa, c.a, lane, e) * scale(lane, false);
      B[kk * m + row] = element(2, wb, c.b, lane, e) * scale(lane, true);
    }
  bool integer = c.a == Elem::I8;
  unsigned checked = 0;
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned reg = 0; reg < r; ++reg) {
      unsigned i = m == 16 ? 4 * (lane / 16) + reg
                           : 8 * (reg / 4) + 4 * (lane / 32) + reg % 4;
      unsigned j = lane % m;
      double dot = 0;
      for (unsigned kk = 0; kk < c.k; ++kk)
        dot += A[i * c.k + kk] * B[kk * m + j];
      uint32_t cword = word(3, 256 * reg + 4 * lane);
      uint32_t got = wordAt(result, 0, 256 * reg + 4 * lane);
      if (integer) {
        EXPECT_EQ(got, uint32_t(int64_t(int32_t(cword)) + int64_t(dot)))
            << "D[" << i << "][" << j << "]";
      } else {
        float accumulator, value;
        std::memcpy(&accumulator, &cword, 4);
        std::memcpy(&value, &got, 4);
        double expected = dot + double(accumulator);
        EXPECT_NEAR(value, expected, 1e-6 * std::fabs(expected) + 1e-30)
            << "D[" << i << "][" << j << "]";
      }
      ++checked;
    }
  EXPECT_EQ(checked, m * m);
}

TEST(SimulatorMFMA, EveryShapeMatchesAPlainReference) {
  const MFMACase cases[] = {
      {"v_mfma_f32_16x16x16_f16", "gfx942", 16, 16, Elem::F16, Elem::F16},
      {"v_mfma_f32_16x16x32_f16", "gfx950", 16, 32, Elem::F16, Elem::F16},
      {"v_mfma_f32_32x32x8_f16", "gfx942", 32, 8, Elem::F16, Elem::F16},
      {"v_mfma_f32_16x16x16_bf16", "gfx942", 16, 16, Elem::BF16, Elem::BF16},
      {"v_mfma_f32_16x16x32_bf16", "gfx950", 16, 32, Elem::BF16, Elem::BF16},
      {"v_mfma_f32_32x32x8_bf16", "gfx942", 32, 8, Elem::BF16, Elem::BF16},
      {"v_mfma_f32_16x16x4_f32", "gfx942", 16, 4, Elem::F32, Elem::F32},
      {"v_mfma_f32_32x32x2_f32", "gfx942", 32, 2, Elem::F32, Elem::F32},
      {"v_mfma_i32_16x16x16_i8", "gfx942", 16, 16, Elem::I8, Elem::I8},
      {"v_mfma_i32_32x32x8_i8", "gfx942", 32, 8, Elem::I8, Elem::I8},
      {"v_mfma_f32_16x16x32_fp8_fp8", "gfx942", 16, 32, Elem::FP8, Elem::FP8},
      {"v_mfma_f32_16x16x32_fp8_bf8", "gfx950", 16, 32, Elem::FP8, Elem::BF8},
      {"v_mfma_f32_32x32x16_bf8_fp8", "gfx950", 32, 16, Elem::BF8, Elem::FP8},
      {"v_mfma_f32_32x32x16_bf8_bf8", "gfx942", 32, 16, Elem::BF8, Elem::BF8},
      {"v_mfma_f32_16x16x32_bf8_fp8", "gfx942", 16, 32, Elem::BF8, Elem::FP8},
      {"v_mfma_f32_16x16x32_bf8_bf8", "gfx950", 16, 32, Elem::BF8, Elem::BF8},
      {"v_mfma_f32_32x32x16_fp8_fp8", "gfx950", 32, 16, Elem::FP8, Elem::FP8},
      {"v_mfma_f32_32x32x16_fp8_bf8", "gfx942", 32, 16, Elem::FP8, Elem::BF8},
      {"v_mfma_scale_f32_16x16x128_f8f6f4", "gfx950", 16, 128, Elem::FP4,
       Elem::FP4, true},
      {"v_mfma_scale_f32_32x32x64_f8f6f4", "gfx950", 32, 64, Elem::FP4,
       Elem::FP4, true},
  };
  for (const MFMACase &c : cases)
    checkAgainstReference(c);
}

} // namespace
