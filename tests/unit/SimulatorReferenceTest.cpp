//===- SimulatorReferenceTest.cpp - examples against plain C++ -----------===//
//
// An example kernel run in the simulator from inputs a test chooses (buffer
// files, kernel arguments) computes what a plain C++ reference computes: the
// row softmax of examples/attention_softmax_rows.mlir and the 64x64 block of
// examples/gemm_f16_double_buffer.mlir (K = 1024, four waves, LDS double
// buffering), each as written and after the full pipeline.
//
//===----------------------------------------------------------------------===//

#include "ConductorTestUtils.h"
#include "SimTestUtils.h"
#include "TestUtils.h"

#include "sim/Compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;

namespace {

/// The example file `Path` (under examples/), parsed for each test.
template <const char *Path> class ExampleKernel : public ::testing::Test {
protected:
  void SetUp() override {
    module = t.parseModule(
        test::readFile(std::string(waveasm::test::examplesDir()) + Path));
    ASSERT_TRUE(module) << t.diagnostics;
  }
  test::TestContext t;
  OwningOpRef<ModuleOp> module;
};

constexpr unsigned kRows = 64, kCols = 16;
constexpr float kScale = 0.125f;

uint32_t floatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

/// Scores S[row][col] in [-6, 6], a different pattern per row.
float score(unsigned row, unsigned col) {
  return 6.0f * std::sin(0.37f * float(row) + 1.3f * float(col) + 0.2f);
}

/// The example's inputs: S in buffer 0 from a file's bytes, P (f16) into
/// buffer 1, the log-sum-exp into buffer 2, ncols, flags (scale, write the
/// log-sum-exp) and the scale in the kernel arguments.
SimOptions softmaxInputs() {
  auto bytes = std::make_shared<std::vector<uint8_t>>(kRows * kCols * 4);
  for (unsigned r = 0; r < kRows; ++r)
    for (unsigned c = 0; c < kCols; ++c) {
      float s = score(r, c);
      std::memcpy(bytes->data() + 4 * (r * kCols + c), &s, 4);
    }
  SimOptions options;
  options.initial.bufferFiles[0] = bytes;
  options.kernargDwords[24] = kCols;
  options.kernargDwords[28] = 3;
  options.kernargDwords[32] = floatBits(kScale);
  return options;
}

/// P and the log-sum-exp of one run against the reference, row by row.
void expectSoftmax(const SimResult &result) {
  ASSERT_TRUE(result.ok()) << result.error->str();
  for (unsigned r = 0; r < kRows; ++r) {
    double sum = 0;
    for (unsigned c = 0; c < kCols; ++c)
      sum += std::exp(double(kScale) * score(r, c));
    for (unsigned c = 0; c < kCols; ++c) {
      double want = std::exp(double(kScale) * score(r, c)) / sum;
      uint32_t word = test::wordAt(result, 1, 2 * (r * kCols + c) & ~3u);
      uint32_t half = (c % 2) ? word >> 16 : word & 0xffff;
      // f16 rounded toward zero (v_cvt_pkrtz_f16_f32): 2^-10 relative.
      EXPECT_NEAR(test::halfValue(half), want, want * 2e-3 + 1e-6)
          << "P[" << r << "][" << c << "]";
    }
    uint32_t lseBits = test::wordAt(result, 2, 4 * r);
    float lse;
    std::memcpy(&lse, &lseBits, 4);
    EXPECT_NEAR(lse, std::log(sum), 1e-5 * std::abs(std::log(sum)) + 1e-6)
        << "log-sum-exp of row " << r;
  }
}

constexpr char kSoftmaxFile[] = "/attention_softmax_rows.mlir";
using SoftmaxReference = ExampleKernel<kSoftmaxFile>;

} // namespace

TEST_F(SoftmaxReference, AsWrittenMatchesPlainCxx) {
  expectSoftmax(simulate(test::firstProgram(*module), softmaxInputs()));
}

TEST_F(SoftmaxReference, PipelineOutputMatchesPlainCxx) {
  OwningOpRef<ModuleOp> after = test::compiledByPipeline(*module);
  ASSERT_TRUE(after);
  expectSoftmax(simulate(test::firstProgram(*after), softmaxInputs()));
}

TEST_F(SoftmaxReference, TheInputFileIsWhatTheKernelReads) {
  // Another file, another softmax: the kernel reads the file's bytes, not
  // the seed's (a run without the file writes other probabilities).
  SimOptions options = softmaxInputs();
  SimResult withFile = simulate(test::firstProgram(*module), options);
  options.initial.bufferFiles.clear();
  SimResult seeded = simulate(test::firstProgram(*module), options);
  ASSERT_TRUE(withFile.ok() && seeded.ok());
  EXPECT_FALSE(differences(withFile, seeded, 1).empty());
}

namespace {

constexpr unsigned kGemmRows = 64, kGemmK = 1024;

/// A small integer per element (-2..2): every product and every sum of
/// 1024 of them is exact in f32, so the kernel's C must equal the
/// reference bit for bit.
int gemmValue(unsigned matrix, unsigned row, unsigned k) {
  return int((row * 7 + k * 3 + matrix * (2 + k % 3) + (row * k) % 11) % 5) - 2;
}

uint16_t halfOfSmallInt(int v) {
  static const uint16_t bits[] = {0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000};
  return bits[v + 2];
}

/// Buffers 1 (A) and 2 (B): 64 rows of K f16 each, row major.
SimOptions gemmInputs() {
  SimOptions options;
  for (unsigned matrix : {1u, 2u}) {
    auto bytes = std::make_shared<std::vector<uint8_t>>(kGemmRows * kGemmK * 2);
    for (unsigned r = 0; r < kGemmRows; ++r)
      for (unsigned k = 0; k < kGemmK; ++k) {
        uint16_t h = halfOfSmallInt(gemmValue(matrix, r, k));
        std::memcpy(bytes->data() + 2 * (r * kGemmK + k), &h, 2);
      }
    options.initial.bufferFiles[matrix] = bytes;
  }
  return options;
}

/// C = A * B^T of the block, in the example's store order: wave w (row
/// half w / 2, column half w % 2) writes its accumulator (m, n) at
/// w * 4096 + (2m + n) * 1024, lane l's four values at l * 16, value i of
/// row 4 * (l / 16) + i and column l % 16 of the 16x16 tile.
void expectGemm(const SimResult &result) {
  ASSERT_TRUE(result.ok()) << result.error->str();
  unsigned wrong = 0;
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned m = 0; m < 2; ++m)
      for (unsigned n = 0; n < 2; ++n)
        for (unsigned l = 0; l < 64; ++l)
          for (unsigned i = 0; i < 4; ++i) {
            unsigned row = 32 * (w / 2) + 16 * m + 4 * (l / 16) + i;
            unsigned col = 32 * (w % 2) + 16 * n + l % 16;
            int64_t want = 0;
            for (unsigned k = 0; k < kGemmK; ++k)
              want += gemmValue(1, row, k) * gemmValue(2, col, k);
            uint32_t bits = test::wordAt(
                result, 3, w * 4096 + (2 * m + n) * 1024 + l * 16 + 4 * i);
            float got;
            std::memcpy(&got, &bits, 4);
            if (got != float(want) && ++wrong <= 5)
              ADD_FAILURE() << "C[" << row << "][" << col << "] = " << got
                            << ", want " << want;
          }
  EXPECT_EQ(wrong, 0u);
}

constexpr char kGemmFile[] = "/gemm_f16_double_buffer.mlir";
using GemmReference = ExampleKernel<kGemmFile>;

} // namespace

TEST_F(GemmReference, AsWrittenMatchesPlainCxx) {
  expectGemm(simulate(test::firstProgram(*module), gemmInputs()));
}

TEST_F(GemmReference, PipelineOutputMatchesPlainCxx) {
  OwningOpRef<ModuleOp> after = test::compiledByPipeline(*module);
  ASSERT_TRUE(after);
  expectGemm(simulate(test::firstProgram(*after), gemmInputs()));
}
