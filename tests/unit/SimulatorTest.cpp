//===- SimulatorTest.cpp - the WaveASM simulator and compare --------------===//
//
// Semantics against hand-computed values, a 16x16x16 MFMA GEMM against a
// plain C++ reference, the whole pipeline checked by execution on every
// example, and mutations (a clobbered live register, a load moved above
// the store it reads) that the compare must catch.
//
//===----------------------------------------------------------------------===//

#include "ConductorTestUtils.h"
#include "SimTestUtils.h"
#include "TestUtils.h"

#include "pipeline/CompileAndMeasure.h"
#include "sim/Compare.h"
#include "sim/Float.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;
using waveasm::test::firstProgram;
using waveasm::test::halfValue;
using waveasm::test::kSimHeader;
using waveasm::test::program;
using waveasm::test::TestContext;
using waveasm::test::wordAt;

namespace {

TEST(Simulator, IntegerFloatAndScalarOpsPerLane) {
  TestContext t;
  auto module = t.parseModule(program(std::string(kSimHeader) + R"(
  %a = waveasm.v_add_u32 %tid, %c7 : !waveasm.pvreg<0>, !waveasm.imm<7> -> !waveasm.vreg
  %b = waveasm.v_bfe_u32 %a, %c1, %c3 : !waveasm.vreg, !waveasm.imm<1>, !waveasm.imm<3> -> !waveasm.vreg
  %c = waveasm.v_lshl_or_b32 %b, %c4, %tid : !waveasm.vreg, !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %c, %out, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %f = waveasm.v_cvt_f32_u32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %h = waveasm.v_cvt_f16_f32 %f : !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %h, %out, %off offset : 256 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %cm1 = waveasm.constant -1 : !waveasm.imm<-1>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %c9 = waveasm.constant 9 : !waveasm.imm<9>
  %m = waveasm.s_mov_b32 %cm1 : !waveasm.imm<-1> -> !waveasm.sreg
  %sum, %carry = waveasm.s_add_u32 %m, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %sel = waveasm.s_cselect_b32 %carry, %c5, %c9 : !waveasm.scc, !waveasm.imm<5>, !waveasm.imm<9> -> !waveasm.sreg
  %vsel = waveasm.v_mov_b32 %sel : !waveasm.sreg -> !waveasm.vreg
  waveasm.buffer_store_dword %vsel, %out, %off offset : 512 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %in1 = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %big = waveasm.constant 1048576 : !waveasm.imm<1048576>
  %far = waveasm.v_mov_b32 %big : !waveasm.imm<1048576> -> !waveasm.vreg
  %zero = waveasm.buffer_load_dword %in1, %far, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %zero, %out, %off offset : 768 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %first = waveasm.buffer_load_dword %in1, %off, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %first, %out, %off offset : 1024 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(module) << t.diagnostics;
  SimOptions options;
  options.seed = 7;
  SimResult result = simulate(firstProgram(*module), options);
  ASSERT_TRUE(result.ok()) << result.error->str();
  for (unsigned lane : {0u, 1u, 9u, 63u}) {
    uint32_t a = lane + 7, b = (a >> 1) & 7;
    EXPECT_EQ(wordAt(result, 0, 4 * lane), (b << 4) | lane) << lane;
    // 0, 1, 2 give +0, 1.0 = 0x3c00, 2.0 = 0x4000; 63 = 1.96875 * 2^5.
    uint32_t half = lane == 0   ? 0
                    : lane == 1 ? 0x3c00
                    : lane == 9 ? 0x4880
                                : 0x53e0;
    EXPECT_EQ(wordAt(result, 0, 256 + 4 * lane), half) << lane;
    // 0xffffffff + 1 carries: SCC selects 5.
    EXPECT_EQ(wordAt(result, 0, 512 + 4 * lane), 5u);
    // A load past the descriptor's size reads 0.
    EXPECT_EQ(wordAt(result, 0, 768 + 4 * lane), 0u);
    // An in-range load reads the seed's input.
    std::vector<uint8_t> input =
        initialBytes(7, bufferAddress(1) + 4 * lane, 4);
    uint32_t expected;
    std::memcpy(&expected, input.data(), 4);
    EXPECT_EQ(wordAt(result, 0, 1024 + 4 * lane), expected);
  }
  // Deterministic: the same seed, the same memory.
  EXPECT_EQ(simulate(firstProgram(*module), options).digest(), result.digest());
  options.seed = 8;
  EXPECT_NE(simulate(firstProgram(*module), options).digest(), result.digest());
}

TEST(Simulator, AnOpNotSimulatedIsNamedAndNeverEqual) {
  TestContext t;
  std::string source = program(std::string(kSimHeader) + R"(
  %f = waveasm.v_cvt_f32_u32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %e = waveasm.v_fma_f16 %f, %f, %f : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %e, %out, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)");
  auto module = t.parseModule(source);
  ASSERT_TRUE(module) << t.diagnostics;
  SimResult result = simulate(firstProgram(*module));
  ASSERT_TRUE(result.error);
  EXPECT_EQ(result.error->kind, SimError::Kind::NotSimulated);
  EXPECT_NE(result.error->str().find("'waveasm.v_fma_f16': not simulated"),
            std::string::npos)
      << result.error->str();
  // The op's line in the program text.
  llvm::StringRef text(source);
  unsigned line = text.take_front(text.find("v_fma_f16")).count('\n') + 1;
  EXPECT_NE(result.error->str().find(":" + std::to_string(line) + ":"),
            std::string::npos)
      << result.error->str();
  Comparison c =
      compareOnSeeds(firstProgram(*module), firstProgram(*module), 2);
  EXPECT_EQ(c.verdict, Comparison::Verdict::NotChecked);
}

/// A GEMM of 16x16 f16 tiles: A row-major in buffer 1, B transposed
/// (column-major) in buffer 2, D row-major f32 in buffer 0, each half
/// masked to [0, 1) so the sums stay finite.
/// The store of a 16x16 f32 tile %d of a 16x16xK MFMA to buffer 0, row
/// major (D's register r of lane l is D[4 * (l / 16) + r][l % 16]), given
/// %row = lane % 16, %grp = lane / 16, %c2 and %c8.
const char *kStoreTile16x16 = R"(
  %g256 = waveasm.v_lshlrev_b32 %c8, %grp : !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
  %row4 = waveasm.v_lshlrev_b32 %c2, %row : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
  %doff = waveasm.v_add_u32 %g256, %row4 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %d0 = waveasm.extract %d[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %d1 = waveasm.extract %d[1] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %d2 = waveasm.extract %d[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %d3 = waveasm.extract %d[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  waveasm.buffer_store_dword %d0, %out, %doff : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %d1, %out, %doff offset : 64 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %d2, %out, %doff offset : 128 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %d3, %out, %doff offset : 192 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)";

const std::string kGemm = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %abuf = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %bbuf = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c15 = waveasm.constant 15 : !waveasm.imm<15>
  %mask = waveasm.constant 1006582783 : !waveasm.imm<1006582783>
  %row = waveasm.v_and_b32 %tid, %c15 : !waveasm.pvreg<0>, !waveasm.imm<15> -> !waveasm.vreg
  %grp = waveasm.v_lshrrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %r32 = waveasm.v_lshlrev_b32 %c5, %row : !waveasm.imm<5>, !waveasm.vreg -> !waveasm.vreg
  %g8 = waveasm.v_lshlrev_b32 %c3, %grp : !waveasm.imm<3>, !waveasm.vreg -> !waveasm.vreg
  %aoff = waveasm.v_add_u32 %r32, %g8 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %a = waveasm.buffer_load_dwordx2 %abuf, %aoff, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %b = waveasm.buffer_load_dwordx2 %bbuf, %aoff, %c0 : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %a0 = waveasm.extract %a[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %a1 = waveasm.extract %a[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %b0 = waveasm.extract %b[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %b1 = waveasm.extract %b[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %am0 = waveasm.v_and_b32 %a0, %mask : !waveasm.vreg, !waveasm.imm<1006582783> -> !waveasm.vreg
  %am1 = waveasm.v_and_b32 %a1, %mask : !waveasm.vreg, !waveasm.imm<1006582783> -> !waveasm.vreg
  %bm0 = waveasm.v_and_b32 %b0, %mask : !waveasm.vreg, !waveasm.imm<1006582783> -> !waveasm.vreg
  %bm1 = waveasm.v_and_b32 %b1, %mask : !waveasm.vreg, !waveasm.imm<1006582783> -> !waveasm.vreg
  %am = waveasm.pack %am0, %am1 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  %bm = waveasm.pack %bm0, %bm1 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  %d = waveasm.v_mfma_f32_16x16x16_f16 %am, %bm, %c0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
)" + std::string(kStoreTile16x16);

TEST(Simulator, MFMAGemmMatchesAPlainReference) {
  TestContext t;
  auto module = t.parseModule(program(kGemm));
  ASSERT_TRUE(module) << t.diagnostics;
  SimOptions options;
  options.seed = 3;
  SimResult result = simulate(firstProgram(*module), options);
  ASSERT_TRUE(result.ok()) << result.error->str();
  auto input = [&](unsigned buffer, unsigned index) {
    std::vector<uint8_t> b =
        initialBytes(3, bufferAddress(buffer) + 2 * index, 2);
    return halfValue(uint16_t((b[0] | (b[1] << 8)) & 0x3bff));
  };
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 16; ++j) {
      double reference = 0;
      for (unsigned k = 0; k < 16; ++k)
        reference += input(1, i * 16 + k) * input(2, j * 16 + k);
      uint32_t bits = wordAt(result, 0, (i * 16 + j) * 4);
      float got;
      std::memcpy(&got, &bits, 4);
      EXPECT_NEAR(got, reference, 1e-5 * std::fabs(reference) + 1e-6)
          << "D[" << i << "][" << j << "]";
    }
}

TEST(SimulatorFloat, NarrowFormatsDecodeAsTheirSpecsSay) {
  // OCP E4M3: max 448, smallest subnormal 2^-9, 0x7F the NaN.
  EXPECT_EQ(miniFloatValue(0x7E, MiniFloat::E4M3), 448.0);
  EXPECT_EQ(miniFloatValue(0x01, MiniFloat::E4M3), std::ldexp(1.0, -9));
  EXPECT_EQ(miniFloatValue(0xB8, MiniFloat::E4M3), -1.0);
  EXPECT_TRUE(std::isnan(miniFloatValue(0x7F, MiniFloat::E4M3)));
  // OCP E5M2: IEEE-like, max 57344, 0x7C infinity.
  EXPECT_EQ(miniFloatValue(0x7B, MiniFloat::E5M2), 57344.0);
  EXPECT_TRUE(std::isinf(miniFloatValue(0x7C, MiniFloat::E5M2)));
  EXPECT_EQ(miniFloatValue(0x3C, MiniFloat::E5M2), 1.0);
  // FNUZ (gfx942): bias one higher, 0x80 the NaN, no infinity.
  EXPECT_EQ(miniFloatValue(0x7F, MiniFloat::E4M3FNUZ), 240.0);
  EXPECT_EQ(miniFloatValue(0x40, MiniFloat::E4M3FNUZ), 1.0);
  EXPECT_TRUE(std::isnan(miniFloatValue(0x80, MiniFloat::E4M3FNUZ)));
  EXPECT_EQ(miniFloatValue(0x7F, MiniFloat::E5M2FNUZ), 57344.0);
  // MX: E2M1 {0, .5, 1, 1.5, 2, 3, 4, 6}, E2M3 max 7.5, E3M2 max 28.
  const double fp4[] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (uint32_t bits = 0; bits < 16; ++bits)
    EXPECT_EQ(miniFloatValue(bits, MiniFloat::E2M1),
              (bits & 8 ? -1 : 1) * fp4[bits & 7])
        << bits;
  EXPECT_EQ(miniFloatValue(0x1F, MiniFloat::E2M3), 7.5);
  EXPECT_EQ(miniFloatValue(0x01, MiniFloat::E2M3), 0.125);
  EXPECT_EQ(miniFloatValue(0x1F, MiniFloat::E3M2), 28.0);
  EXPECT_EQ(miniFloatValue(0x3F, MiniFloat::E3M2), -28.0);
  EXPECT_EQ(e8m0Value(127), 1.0);
  EXPECT_EQ(e8m0Value(120), std::ldexp(1.0, -7));
  EXPECT_TRUE(std::isnan(e8m0Value(0xFF)));
}

TEST(Simulator, ScaledFP4MFMAMatchesAPlainReference) {
  // v_mfma_scale_f32_16x16x128_f8f6f4 with fp4 A and B (cbsz = blgp = 4):
  // lane l loads row l % 16, bytes (l / 16) * 16 .. of it (32 fp4 of K);
  // its scale words come from buffer 3, drawn near 127, byte 1 for A and
  // byte 2 for B (op_sel).
  TestContext t;
  auto module = t.parseModule(program(R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %abuf = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %bbuf = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %sbuf = waveasm.precolored.sreg 16, 4 : !waveasm.psreg<16, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c6 = waveasm.constant 6 : !waveasm.imm<6>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c15 = waveasm.constant 15 : !waveasm.imm<15>
  %row = waveasm.v_and_b32 %tid, %c15 : !waveasm.pvreg<0>, !waveasm.imm<15> -> !waveasm.vreg
  %grp = waveasm.v_lshrrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %r64 = waveasm.v_lshlrev_b32 %c6, %row : !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg
  %g16 = waveasm.v_lshlrev_b32 %c4, %grp : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %aoff = waveasm.v_add_u32 %r64, %g16 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %a = waveasm.buffer_load_dwordx4 %abuf, %aoff, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %b = waveasm.buffer_load_dwordx4 %bbuf, %aoff, %c0 : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %soff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %sa = waveasm.buffer_load_dword %sbuf, %soff, %c0 : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %sb = waveasm.buffer_load_dword %sbuf, %soff, %c0 offset : 256 : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %d = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %a, %b, %c0, %sa, %sb {blgp = 4 : i32, cbsz = 4 : i32, op_sel_a = 1 : i32, op_sel_b = 2 : i32} : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.imm<0>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
)" + std::string(kStoreTile16x16),
                                      "gfx950"));
  ASSERT_TRUE(module) << t.diagnostics;
  SimOptions options;
  options.seed = 5;
  options.initial.byteRanges[3] = {124, 130};
  SimResult result = simulate(firstProgram(*module), options);
  ASSERT_TRUE(result.ok()) << result.error->str();
  auto byte = [&](unsigned buffer, uint64_t offset) {
    return initialBytes(5, bufferAddress(buffer) + offset, 1,
                        options.initial)[0];
  };
  auto fp4 = [&](unsigned buffer, unsigned row, unsigned k) {
    uint8_t b = byte(buffer, row * 64 + k / 2);
    return miniFloatValue(k % 2 ? b >> 4 : b & 15, MiniFloat::E2M1);
  };
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 16; ++j) {
      double reference = 0;
      for (unsigned k = 0; k < 128; ++k) {
        // The lanes holding A[i][k] and B[k][j], and their scale bytes.
        double sa = e8m0Value(byte(3, (i + 16 * (k / 32)) * 4 + 1));
        double sb = e8m0Value(byte(3, 256 + (j + 16 * (k / 32)) * 4 + 2));
        reference += fp4(1, i, k) * sa * fp4(2, j, k) * sb;
      }
      uint32_t bits = wordAt(result, 0, (i * 16 + j) * 4);
      float got;
      std::memcpy(&got, &bits, 4);
      EXPECT_NEAR(got, reference, 1e-6 * std::fabs(reference) + 1e-9)
          << "D[" << i << "][" << j << "]";
    }
}

TEST(Simulator, EvenSeedsDrawModerateBytesAndRangesHoldPerBuffer) {
  std::vector<uint8_t> even = initialBytes(2, bufferAddress(1), 4096);
  EXPECT_TRUE(
      llvm::all_of(even, [](uint8_t b) { return b >= 0x38 && b <= 0x47; }));
  std::vector<uint8_t> odd = initialBytes(1, bufferAddress(1), 4096);
  EXPECT_TRUE(llvm::any_of(odd, [](uint8_t b) { return b > 0x80; }));
  SimOptions options;
  ASSERT_FALSE(errorToBool(
      applySimDirectives("// header\n// waveasm-sim: --byte-range=3:120-134 "
                         "--byte-range=4:0x7f-0x7f\n",
                         options)));
  EXPECT_EQ(options.initial.byteRanges[3],
            std::make_pair(uint8_t(120), uint8_t(134)));
  std::vector<uint8_t> scales =
      initialBytes(1, bufferAddress(4), 64, options.initial);
  EXPECT_TRUE(llvm::all_of(scales, [](uint8_t b) { return b == 0x7f; }));
  llvm::Error error = applySimDirectives(
      "\n\n  // waveasm-sim: --byte-range=3:200-100\n", options);
  ASSERT_TRUE(bool(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "line 3: waveasm-sim directive: '--byte-range=3:200-100': "
            "expected --byte-range=K:LO-HI with LO <= HI <= 255");
  error = applySimDirectives("// waveasm-sim: --waves 2\n", options);
  EXPECT_NE(llvm::toString(std::move(error)).find("unknown option '--waves'"),
            std::string::npos);
}

TEST(SimulatorCompare, ThePipelineKeepsEveryExampleEquivalent) {
  // Virtual IR as written against the allocated IR with waits and nops:
  // never different; equal wherever every op is simulated.
  // The files' `// waveasm-sim:` lines set their inputs (scale buffers).
  unsigned equal = 0;
  for (const std::string &path : test::exampleKernelPaths()) {
    TestContext t;
    std::string text = test::readFile(path);
    auto module = t.parseModule(text);
    ASSERT_TRUE(module) << path << t.diagnostics;
    SimOptions options;
    ASSERT_FALSE(errorToBool(applySimDirectives(text, options))) << path;
    OwningOpRef<ModuleOp> after = test::compiledByPipeline(*module);
    ASSERT_TRUE(after) << path;
    Comparison c =
        compareOnSeeds(firstProgram(*module), firstProgram(*after), 2, options);
    EXPECT_NE(c.verdict, Comparison::Verdict::Different)
        << path << ": " << c.message;
    equal += c.equal();
    if (!c.equal())
      EXPECT_NE(c.message.find("not simulated"), std::string::npos)
          << path << ": " << c.message;
  }
  // Every example of ours runs, the scaled-MFMA ones included.
  EXPECT_EQ(equal, test::exampleKernelPaths().size());
}

TEST(SimulatorCompare, EveryExampleWritesFiniteValuesOnAModerateSeed) {
  // A compare of NaN with NaN proves nothing: on the even seed (moderate
  // bytes, the files' scale ranges) almost no word an example writes is a
  // float infinity or NaN.
  for (const std::string &path : test::exampleKernelPaths()) {
    TestContext t;
    std::string text = test::readFile(path);
    auto module = t.parseModule(text);
    ASSERT_TRUE(module) << path << t.diagnostics;
    SimOptions options;
    ASSERT_FALSE(errorToBool(applySimDirectives(text, options)));
    options.seed = 2;
    SimResult result = simulate(firstProgram(*module), options);
    ASSERT_TRUE(result.ok()) << path << ": " << result.error->str();
    size_t written = 0, special = 0;
    for (const auto &[address, bytes] : result.pages) {
      std::vector<uint8_t> before =
          initialBytes(2, address, kPageBytes, options.initial);
      for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
        uint32_t word;
        std::memcpy(&word, bytes.data() + i, 4);
        if (std::memcmp(bytes.data() + i, before.data() + i, 4) == 0)
          continue;
        ++written;
        special += (word & 0x7f800000) == 0x7f800000;
      }
    }
    EXPECT_GT(written, 0u) << path;
    EXPECT_LE(special * 10, written)
        << path << ": " << special << " of " << written
        << " written words are infinite or NaN";
  }
}

TEST(SimulatorCompare, AScaleByteSelectorChangedIsCaught) {
  // The MXFP4 loop through the pipeline is equal by execution; one scaled
  // MFMA reading another byte of its B-scale register is not.
  TestContext t;
  std::string text = test::readFile(std::string(waveasm::test::examplesDir()) +
                                    "/mxfp4_preshuffle_gemm_loop.mlir");
  auto module = t.parseModule(text);
  ASSERT_TRUE(module) << t.diagnostics;
  SimOptions options;
  ASSERT_FALSE(errorToBool(applySimDirectives(text, options)));
  OwningOpRef<ModuleOp> after = test::compiledByPipeline(*module);
  ASSERT_TRUE(after);
  ASSERT_TRUE(
      compareOnSeeds(firstProgram(*module), firstProgram(*after), 2, options)
          .equal());
  Operation *mfma = nullptr;
  firstProgram(*after).walk([&](Operation *op) {
    if (!mfma && op->getName().getStringRef().contains("v_mfma_scale"))
      mfma = op;
  });
  ASSERT_TRUE(mfma);
  mfma->setAttr("op_sel_b", IntegerAttr::get(IntegerType::get(&t.ctx, 32), 1));
  Comparison c =
      compareOnSeeds(firstProgram(*module), firstProgram(*after), 2, options);
  EXPECT_EQ(c.verdict, Comparison::Verdict::Different) << c.message;
}

/// The double-buffer GEMM example and its full-pipeline output, equal by
/// execution until a test breaks the output.
class CompiledGemm : public ::testing::Test {
protected:
  void SetUp() override {
    module =
        t.parseModule(test::readFile(std::string(waveasm::test::examplesDir()) +
                                     "/gemm_f16_double_buffer.mlir"));
    ASSERT_TRUE(module) << t.diagnostics;
    after = test::compiledByPipeline(*module);
    ASSERT_TRUE(after);
    input = firstProgram(*module);
    program = firstProgram(*after);
    ASSERT_TRUE(compareOnSeeds(input, program, 1).equal());
  }
  TestContext t;
  OwningOpRef<ModuleOp> module, after;
  ProgramOp input, program;
};

TEST_F(CompiledGemm, AClobberedLiveRegisterIsCaught) {
  // The allocator's bug of reusing a live register: the loop's first VGPR
  // result is moved onto the registers of an accumulator the loop carries.
  LoopOp loop;
  program.walk([&](LoopOp l) { loop = l; });
  ASSERT_TRUE(loop);
  std::optional<int64_t> accumulator;
  for (BlockArgument arg : loop.getBodyBlock().getArguments())
    if (getRegSize(arg.getType()) == 4 &&
        getRegClass(arg.getType()) == RegClass::VGPR)
      accumulator = getPhysicalIndex(arg.getType());
  ASSERT_TRUE(accumulator);
  Value victim;
  for (Operation &op : loop.getBodyBlock())
    if (op.getNumResults() == 1 &&
        getRegClass(op.getResult(0).getType()) == RegClass::VGPR &&
        getRegSize(op.getResult(0).getType()) <= 4) {
      victim = op.getResult(0);
      break;
    }
  ASSERT_TRUE(victim);
  victim.setType(getPhysicalType(&t.ctx, RegClass::VGPR, *accumulator,
                                 getRegSize(victim.getType())));
  Comparison c = compareOnSeeds(input, program, 1);
  EXPECT_EQ(c.verdict, Comparison::Verdict::Different) << c.message;
  EXPECT_NE(c.message.find("buffer"), std::string::npos) << c.message;
}

TEST_F(CompiledGemm, AMissingWaitIsCaught) {
  // The pipeline's waits are exactly enough: each one the loop's
  // buffer loads need, deleted, is a read of registers still loading.
  S_WAITCNT_VMCNT wait;
  program.walk([&](S_WAITCNT_VMCNT w) {
    if (!wait)
      wait = w;
  });
  ASSERT_TRUE(wait);
  wait->erase();
  Comparison c = compareOnSeeds(input, program, 1);
  EXPECT_EQ(c.verdict, Comparison::Verdict::Different) << c.message;
  EXPECT_NE(c.message.find("race: reads v"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("'waveasm.buffer_load_dwordx4' into it is "
                           "outstanding"),
            std::string::npos)
      << c.message;
  // Without timing the loads land at once: the same program is "equal".
  SimOptions untimed;
  untimed.timing = false;
  EXPECT_TRUE(compareOnSeeds(input, program, 1, untimed).equal());
}

TEST(SimulatorCompare, ALoadMovedAboveTheStoreItReadsIsCaught) {
  auto body = [](bool storeFirst) {
    std::string store = "  waveasm.buffer_store_dword %x, %out, %off : "
                        "!waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg\n";
    std::string load = "  %y = waveasm.buffer_load_dword %out, %off, %c0 : "
                       "!waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> "
                       "-> !waveasm.vreg\n";
    return program(std::string(kSimHeader) +
                   "  %x = waveasm.v_add_u32 %tid, %c7 : !waveasm.pvreg<0>, "
                   "!waveasm.imm<7> -> !waveasm.vreg\n" +
                   (storeFirst ? store + load : load + store) +
                   "  waveasm.buffer_store_dword %y, %out, %off offset : 512 "
                   ": !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg\n"
                   "  waveasm.s_endpgm\n");
  };
  TestContext t;
  auto original = t.parseModule(body(true));
  auto moved = t.parseModule(body(false));
  ASSERT_TRUE(original && moved) << t.diagnostics;
  EXPECT_TRUE(
      compareOnSeeds(firstProgram(*original), firstProgram(*original), 2)
          .equal());
  Comparison c =
      compareOnSeeds(firstProgram(*original), firstProgram(*moved), 2);
  EXPECT_EQ(c.verdict, Comparison::Verdict::Different);
  EXPECT_NE(c.message.find("buffer 0 byte 0x0 + 0x2"), std::string::npos)
      << c.message;
}

/// Two waves (128 lanes), each lane's LDS slot at %off, the other wave's
/// slot at %wrapped; `body` reads and writes them.
std::string twoWaveLDSProgram(llvm::StringRef body) {
  return "waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = "
         "#waveasm.abi<> attributes {workgroup_size = [128, 1, 1]} {\n" +
         std::string(kSimHeader) + R"(
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %c511 = waveasm.constant 511 : !waveasm.imm<511>
  %next = waveasm.v_add_u32 %off, %c256 : !waveasm.vreg, !waveasm.imm<256> -> !waveasm.vreg
  %wrapped = waveasm.v_and_b32 %next, %c511 : !waveasm.vreg, !waveasm.imm<511> -> !waveasm.vreg
)" + body.str() +
         R"(  waveasm.buffer_store_dword %other, %out, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
)";
}

/// Two waves exchange their lanes' ids through LDS: each writes its own,
/// waits at the barrier, then reads the id the other wave wrote.
std::string ldsExchange() {
  return twoWaveLDSProgram(
      R"(  waveasm.ds_write_b32 %tid, %off : !waveasm.pvreg<0>, !waveasm.vreg
  waveasm.s_barrier
  %other = waveasm.ds_read_b32 %wrapped : !waveasm.vreg -> !waveasm.vreg
)");
}

TEST(Simulator, WavesMeetAtBarriersThroughLDS) {
  // Only a barrier across waves makes every lane see the other wave's
  // value.
  TestContext t;
  auto module = t.parseModule(ldsExchange());
  ASSERT_TRUE(module) << t.diagnostics;
  SimResult result = simulate(firstProgram(*module));
  ASSERT_TRUE(result.ok()) << result.error->str();
  for (unsigned id : {0u, 5u, 64u, 127u})
    EXPECT_EQ(wordAt(result, 0, 4 * id), (id + 64) % 128) << id;
}

/// The first op of type `OpT` in `program` after `skip` others.
template <typename OpT> Operation *nthOp(ProgramOp program, unsigned skip) {
  Operation *found = nullptr;
  program.walk([&](OpT op) {
    if (!found && skip-- == 0)
      found = op;
  });
  return found;
}

/// `text` through the full pipeline is equal to itself as written; each
/// s_nop the hazard pass put there, deleted alone, makes the compare read a
/// stale value and report a difference. Returns the nops tried.
unsigned expectEveryNopNeeded(const std::string &text) {
  TestContext t;
  auto module = t.parseModule(text);
  EXPECT_TRUE(module) << t.diagnostics;
  if (!module)
    return 0;
  OwningOpRef<ModuleOp> after = test::compiledByPipeline(*module);
  EXPECT_TRUE(after);
  if (!after)
    return 0;
  ProgramOp input = firstProgram(*module);
  Comparison same = compareOnSeeds(input, firstProgram(*after), 2);
  EXPECT_TRUE(same.equal()) << same.message;
  unsigned nops = 0;
  for (;; ++nops) {
    OwningOpRef<ModuleOp> mutated = cast<ModuleOp>((*after)->clone());
    Operation *nop = nthOp<S_NOP>(firstProgram(*mutated), nops);
    if (!nop)
      break;
    nop->erase();
    Comparison c = compareOnSeeds(input, firstProgram(*mutated), 2);
    EXPECT_EQ(c.verdict, Comparison::Verdict::Different)
        << "s_nop #" << nops << ": " << c.message;
    EXPECT_NE(c.message.find("an s_nop is missing"), std::string::npos)
        << "s_nop #" << nops << ": " << c.message;
  }
  return nops;
}

TEST(SimulatorHazards, EveryNopTheHazardPassPutsIsNeeded) {
  // The MFMA GEMM (its result stored by VMEM)
  // and a kernel with an MFMA result read by VALU, a transcendental result
  // read by VALU, a VALU-written SGPR read by a buffer load and VCC read
  // by v_cndmask.
  EXPECT_GE(expectEveryNopNeeded(program(kGemm)), 1u);
  EXPECT_GE(expectEveryNopNeeded(
                test::readFile(std::string(waveasm::test::examplesDir()) +
                               "/../tests/lit/sim/Inputs/hazards.mlir")),
            5u);
}

TEST(SimulatorHazards, AReadTooSoonSeesTheValueBeforeItsProducer) {
  // Allocated IR by hand: v1 = 5, then v1 = exp(v0) (transcendental) read
  // at once by v_add: without the nop the add sees 5, with it exp(v0).
  auto text = [](bool nop) {
    return program(std::string(R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %zero = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.pvreg<2>
  %five = waveasm.v_mov_b32 %c5 : !waveasm.imm<5> -> !waveasm.pvreg<1>
  %e = waveasm.v_exp_f32 %zero : !waveasm.pvreg<2> -> !waveasm.pvreg<1>
)") + (nop ? "  waveasm.s_nop 0\n" : "") +
                   R"(
  %x = waveasm.v_add_u32 %e, %c0 : !waveasm.pvreg<1>, !waveasm.imm<0> -> !waveasm.pvreg<3>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.pvreg<4>
  waveasm.buffer_store_dword %x, %out, %off : !waveasm.pvreg<3>, !waveasm.psreg<4, 4>, !waveasm.pvreg<4>
  waveasm.s_endpgm
)");
  };
  TestContext t;
  auto withNop = t.parseModule(text(true));
  auto without = t.parseModule(text(false));
  ASSERT_TRUE(withNop && without) << t.diagnostics;
  for (ModuleOp module : {*withNop, *without}) {
    bool nop = module == *withNop;
    SimResult result = simulate(firstProgram(module));
    ASSERT_TRUE(result.ok()) << result.error->str();
    // exp(0) = 1.0f.
    EXPECT_EQ(wordAt(result, 0, 8), nop ? 0x3f800000u : 5u) << nop;
    // Untimed, every read sees the latest write.
    SimOptions untimed;
    untimed.timing = false;
    EXPECT_EQ(wordAt(simulate(firstProgram(module), untimed), 0, 8),
              0x3f800000u);
  }
  Comparison c =
      compareOnSeeds(firstProgram(*withNop), firstProgram(*without), 1);
  EXPECT_EQ(c.verdict, Comparison::Verdict::Different) << c.message;
  EXPECT_NE(c.message.find("'waveasm.v_add_u32': reads v1 0 wait states "
                           "after the transcendental result of"),
            std::string::npos)
      << c.message;
}

TEST(SimulatorLDS, ABarrierRemovedIsCaught) {
  TestContext t;
  auto original = t.parseModule(ldsExchange());
  auto mutated = t.parseModule(ldsExchange());
  ASSERT_TRUE(original && mutated) << t.diagnostics;
  nthOp<S_BARRIER>(firstProgram(*mutated), 0)->erase();
  Comparison c =
      compareOnSeeds(firstProgram(*original), firstProgram(*mutated), 2);
  EXPECT_EQ(c.verdict, Comparison::Verdict::Different) << c.message;
  EXPECT_NE(c.message.find("without a wait for the write (lgkmcnt; vmcnt for a "
                           "direct-to-LDS load) and an s_barrier"),
            std::string::npos)
      << c.message;
}

TEST(SimulatorLDS, TheWaitBeforeTheBarrierIsNeeded) {
  // Through the pipeline the exchange gets lgkmcnt(0) before its barrier:
  // equal. Without that wait the write is not known to have landed when
  // the other wave passes the barrier: it reads the stale LDS.
  TestContext t;
  auto module = t.parseModule(ldsExchange());
  ASSERT_TRUE(module) << t.diagnostics;
  OwningOpRef<ModuleOp> after = test::compiledByPipeline(*module);
  ASSERT_TRUE(after);
  ProgramOp input = firstProgram(*module), program = firstProgram(*after);
  Comparison same = compareOnSeeds(input, program, 2);
  EXPECT_TRUE(same.equal()) << same.message;
  Operation *barrier = nthOp<S_BARRIER>(program, 0);
  ASSERT_TRUE(barrier);
  Operation *wait = barrier->getPrevNode();
  ASSERT_TRUE(wait && (isa<S_WAITCNT, S_WAITCNT_LGKMCNT>(wait)));
  wait->erase();
  Comparison c = compareOnSeeds(input, program, 2);
  EXPECT_EQ(c.verdict, Comparison::Verdict::Different) << c.message;
  EXPECT_NE(c.message.find("stale value"), std::string::npos) << c.message;
}

/// Two waves read each other's slot of LDS (as the environment filled it),
/// then write their own: the barrier between orders each read before the
/// other wave's write.
std::string ldsReadThenWrite() {
  return twoWaveLDSProgram(
      R"(  %other = waveasm.ds_read_b32 %wrapped : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_barrier
  waveasm.ds_write_b32 %tid, %off : !waveasm.pvreg<0>, !waveasm.vreg
)");
}

TEST(SimulatorLDS, AWriteAfterAnotherWavesReadNeedsABarrier) {
  // With the barrier: every wave stored what the other wave's slot held
  // before anyone wrote, and the LDS holds the ids. Without it, the
  // simulator's order still reads first (so the buffers are equal), but on
  // the GPU a read may see the other wave's write: the run notes the race
  // and the compare names it.
  TestContext t;
  auto original = t.parseModule(ldsReadThenWrite());
  auto mutated = t.parseModule(ldsReadThenWrite());
  ASSERT_TRUE(original && mutated) << t.diagnostics;
  SimResult ok = simulate(firstProgram(*original));
  ASSERT_TRUE(ok.ok()) << ok.error->str();
  // The LDS holds the ids; the reads saw what was there before them.
  unsigned sawIds = 0;
  for (unsigned id = 0; id < 128; ++id) {
    uint32_t lds = 0;
    std::memcpy(&lds, ok.lds.data() + 4 * id, 4);
    EXPECT_EQ(lds, id);
    sawIds += wordAt(ok, 0, 4 * id) == (id + 64) % 128;
  }
  EXPECT_LT(sawIds, 128u);
  nthOp<S_BARRIER>(firstProgram(*mutated), 0)->erase();
  SimResult race = simulate(firstProgram(*mutated));
  ASSERT_TRUE(race.ok()) << race.error->str();
  EXPECT_TRUE(ok.ldsRaces.empty()) << ok.ldsRaces.front();
  ASSERT_FALSE(race.ldsRaces.empty());
  EXPECT_NE(race.ldsRaces.front().find("write-after-read race"),
            std::string::npos)
      << race.ldsRaces.front();
  EXPECT_NE(race.ldsRaces.front().find("ds_write_b32"), std::string::npos)
      << race.ldsRaces.front();
  // The buffers are the same in the simulator's order of the waves...
  EXPECT_EQ(wordAt(race, 0, 0), wordAt(ok, 0, 0));
  // ...but the compare reports the race the second program has.
  Comparison c =
      compareOnSeeds(firstProgram(*original), firstProgram(*mutated), 2);
  EXPECT_EQ(c.verdict, Comparison::Verdict::Different) << c.message;
  EXPECT_NE(c.message.find("write-after-read race"), std::string::npos)
      << c.message;
  // A race both programs have is the input's: the compare goes by the
  // buffers.
  Comparison both =
      compareOnSeeds(firstProgram(*mutated), firstProgram(*mutated), 2);
  EXPECT_TRUE(both.equal()) << both.message;
  // Untimed runs model no races.
  SimOptions untimed;
  untimed.timing = false;
  EXPECT_TRUE(simulate(firstProgram(*mutated), untimed).ldsRaces.empty());
}

} // namespace
