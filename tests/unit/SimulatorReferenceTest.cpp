//===- SimulatorReferenceTest.cpp - examples against plain C++ -----------===//
//
// An example kernel run in the simulator from inputs a test chooses (buffer
// files, kernel arguments) computes what a plain C++ reference computes: the
// row softmax of examples/attention_softmax_rows.mlir, as written and after
// the full pipeline.
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
  options.bufferFiles[0] = bytes;
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

class SoftmaxReference : public ::testing::Test {
protected:
  void SetUp() override {
    module = t.parseModule(test::readFile(std::string(WAVEASM_EXAMPLES_DIR) +
                                          "/attention_softmax_rows.mlir"));
    ASSERT_TRUE(module) << t.diagnostics;
  }
  test::TestContext t;
  OwningOpRef<ModuleOp> module;
};

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
  options.bufferFiles.clear();
  SimResult seeded = simulate(test::firstProgram(*module), options);
  ASSERT_TRUE(withFile.ok() && seeded.ok());
  EXPECT_FALSE(differences(withFile, seeded, 1).empty());
}
