//===- SimulatorOpsTest.cpp - per-op semantics against hand-computed values
//===//
//
// Each family of ALU ops on values chosen at its edges (NaN, denormals,
// saturation, rounding ties, carries, sign extension), the expected bits
// worked out by hand from the ISA's definitions: f32 VALU, f16/bf16
// conversions, the transcendental unit, integer VALU, lane ops, compares
// and carries, SALU with SCC and EXEC, 64-bit shifts and arith pseudo-ops.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtils.h"
#include "TestUtils.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;
using waveasm::test::firstProgram;
using waveasm::test::kSimHeader;
using waveasm::test::program;
using waveasm::test::TestContext;
using waveasm::test::wordAt;

namespace {

/// Marks an expected result that is any NaN (which NaN an invalid
/// operation gives is the host's here).
constexpr uint64_t kAnyNaN = uint64_t(1) << 32;

std::string hex(uint32_t word) { return llvm::formatv("{0:x8}", word).str(); }

/// One VALU op on lane-uniform operands (each moved from an immediate to a
/// VGPR first) and the bits its result must have.
struct LaneCase {
  const char *op;
  std::vector<uint32_t> operands;
  uint64_t expected;
};

/// Runs every case in one program; case i stores its result at buffer 0
/// byte 256 * i + 4 * lane. Returns the run (checked ok).
SimResult runLaneCases(TestContext &t, llvm::ArrayRef<LaneCase> cases,
                       OwningOpRef<ModuleOp> &module) {
  std::string body = kSimHeader;
  for (auto [i, c] : llvm::enumerate(cases)) {
    std::string types;
    std::string names;
    for (auto [j, bits] : llvm::enumerate(c.operands)) {
      body += llvm::formatv("  %k{0}_{1} = waveasm.constant {2} : "
                            "!waveasm.imm<{2}>\n"
                            "  %x{0}_{1} = waveasm.v_mov_b32 %k{0}_{1} : "
                            "!waveasm.imm<{2}> -> !waveasm.vreg\n",
                            i, j, bits);
      names +=
          (j ? ", %x" : "%x") + std::to_string(i) + "_" + std::to_string(j);
      types += j ? ", !waveasm.vreg" : "!waveasm.vreg";
    }
    body += llvm::formatv(
        "  %r{0} = waveasm.{1} {2} : {3} -> !waveasm.vreg\n"
        "  %b{0} = waveasm.constant {4} : !waveasm.imm<{4}>\n"
        "  %o{0} = waveasm.v_add_u32 %off, %b{0} : !waveasm.vreg, "
        "!waveasm.imm<{4}> -> !waveasm.vreg\n"
        "  waveasm.buffer_store_dword %r{0}, %out, %o{0} : !waveasm.vreg, "
        "!waveasm.psreg<4, 4>, !waveasm.vreg\n",
        i, c.op, names, types, 256 * i);
  }
  body += "  waveasm.s_endpgm\n";
  module = t.parseModule(program(body));
  EXPECT_TRUE(module) << t.diagnostics;
  if (!module)
    return SimResult();
  SimResult result = simulate(firstProgram(*module));
  EXPECT_TRUE(result.ok()) << result.error->str();
  return result;
}

void expectLaneCases(llvm::ArrayRef<LaneCase> cases) {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  SimResult result = runLaneCases(t, cases, module);
  if (!result.ok() || !module)
    return;
  for (auto [i, c] : llvm::enumerate(cases))
    for (unsigned lane : {0u, 63u}) {
      uint32_t got = wordAt(result, 0, 256 * i + 4 * lane);
      if (c.expected == kAnyNaN)
        EXPECT_TRUE((got & 0x7fffffff) > 0x7f800000)
            << c.op << ": " << hex(got);
      else
        EXPECT_EQ(got, uint32_t(c.expected))
            << c.op << " #" << i << " lane " << lane << ": got " << hex(got)
            << ", expected " << hex(uint32_t(c.expected));
    }
}

TEST(SimulatorOps, FloatVALUKeepsDenormalsAndRoundsToNearestEven) {
  expectLaneCases({
      // 2^-149 + 2^-149: denormals are neither flushed in nor out.
      {"v_add_f32", {0x00000001, 0x00000001}, 0x00000002},
      // 2^-126 * 0.5 = 2^-127, a denormal result.
      {"v_mul_f32", {0x00800000, 0x3f000000}, 0x00400000},
      // IEEE maxNum/minNum: a quiet NaN operand gives the other one.
      {"v_max_f32", {0x7fc00000, 0x3f800000}, 0x3f800000},
      {"v_min_f32", {0x3f800000, 0x7fc00000}, 0x3f800000},
      // 0 * inf: NaN, except the legacy multiply's +0.
      {"v_mul_f32", {0x00000000, 0x7f800000}, kAnyNaN},
      {"v_mul_legacy_f32", {0x00000000, 0x7f800000}, 0x00000000},
      // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24: fma rounds once (exact here);
      // mad rounds the product first (a tie, to even: 1 + 2^-11).
      {"v_fma_f32", {0x3f800800, 0x3f800800, 0xbf800000}, 0x3a000400},
      {"v_mad_f32", {0x3f800800, 0x3f800800, 0xbf800000}, 0x3a000000},
      {"v_subrev_f32", {0x3f800000, 0x40400000}, 0x40000000}, // 3 - 1
      {"v_med3_f32", {0x3f800000, 0x40400000, 0x40000000}, 0x40000000},
      {"v_fract_f32", {0xbe800000}, 0x3f400000},      // fract(-0.25) = 0.75
      {"v_rndne_f32", {0x40200000}, 0x40000000},      // 2.5 -> 2 (tie, even)
      {"v_ldexp_f32", {0x3f800000, 200}, 0x7f800000}, // 2^200 overflows
      {"v_add_f16", {0x3c00, 0x3c00}, 0x4000},
  });
}

TEST(SimulatorOps, ConversionsSaturateAndRound) {
  expectLaneCases({
      // f32 -> i32/u32: truncation, saturation, NaN -> 0.
      {"v_cvt_i32_f32", {0x4f32d05e}, 0x7fffffff}, // 3e9
      {"v_cvt_i32_f32", {0xcf32d05e}, 0x80000000}, // -3e9
      {"v_cvt_i32_f32", {0x7fc00000}, 0x00000000}, // NaN
      {"v_cvt_i32_f32", {0xc0700000}, 0xfffffffd}, // -3.75 -> -3
      {"v_cvt_u32_f32", {0xbf800000}, 0x00000000}, // -1
      {"v_cvt_u32_f32", {0x4f800000}, 0xffffffff}, // 2^32
      {"v_cvt_f32_i32", {0xffffffff}, 0xbf800000}, // -1
      {"v_cvt_f32_u32", {0xffffffff}, 0x4f800000}, // rounds to 2^32
      // f32 -> f16: overflow to infinity, the smallest subnormal, a tie.
      {"v_cvt_f16_f32", {0x47c35000}, 0x7c00}, // 100000
      {"v_cvt_f16_f32", {0x477ff000}, 0x7c00}, // 65520: tie, to inf
      {"v_cvt_f16_f32", {0x33800000}, 0x0001}, // 2^-24
      {"v_cvt_f16_f32", {0x33000000}, 0x0000}, // 2^-25: tie, to 0
      {"v_cvt_f16_f32", {0x3f803000}, 0x3c02}, // 1 + 3 * 2^-11
      {"v_cvt_f32_f16", {0x0001}, 0x33800000},
      {"v_cvt_f32_f16", {0xfc00}, 0xff800000}, // -inf
      // f32 -> bf16: ties to even, both ways.
      {"v_cvt_bf16_f32", {0x3f808000}, 0x3f80},
      {"v_cvt_bf16_f32", {0x3f818000}, 0x3f82},
      {"v_cvt_f32_bf16", {0x3f82}, 0x3f820000},
      // The packed conversion truncates (1 + 3 * 2^-11 -> 1 + 2^-10).
      {"v_cvt_pkrtz_f16_f32", {0x3f803000, 0x3f800000}, 0x3c003c01},
      {"v_cvt_pk_bf16_f32", {0x3f818000, 0x3f808000}, 0x3f803f82},
  });
}

TEST(SimulatorOps, TranscendentalUnitIsCorrectlyRounded) {
  expectLaneCases({
      {"v_exp_f32", {0x3f800000}, 0x40000000}, // 2^1
      {"v_log_f32", {0x41000000}, 0x40400000}, // log2(8)
      {"v_rcp_f32", {0x40800000}, 0x3e800000}, // 1/4
      {"v_rsq_f32", {0x40800000}, 0x3f000000}, // 1/sqrt(4)
      {"v_sqrt_f32", {0xbf800000}, kAnyNaN},   // sqrt(-1)
      {"v_sin_f32", {0x3e800000}, 0x3f800000}, // sin(pi/2): revolutions
      {"v_rcp_f32", {0x00000000}, 0x7f800000}, // 1/+0
  });
}

TEST(SimulatorOps, IntegerVALUAtItsEdges) {
  expectLaneCases({
      {"v_add_u32", {0xffffffff, 2}, 1},
      {"v_subrev_u32", {5, 3}, 0xfffffffe},
      {"v_mul_hi_u32", {0xffffffff, 0xffffffff}, 0xfffffffe},
      {"v_mul_hi_i32", {0xffffffff, 2}, 0xffffffff},
      {"v_mul_lo_u32", {0x10000, 0x10001}, 0x10000},
      {"v_ashrrev_i32", {4, 0x80000000}, 0xf8000000},
      {"v_lshrrev_b32", {36, 0x80000000}, 0x08000000}, // shift mod 32
      {"v_bfe_i32", {0xf0, 4, 4}, 0xffffffff},
      {"v_bfe_u32", {0xf0, 4, 4}, 0xf},
      {"v_bfi_b32", {0x0000ffff, 0x12345678, 0x9abcdef0}, 0x9abc5678},
      {"v_ffbh_u32", {0}, 0xffffffff},
      {"v_ffbh_u32", {1}, 31},
      {"v_ffbl_b32", {0x80}, 7},
      {"v_bfrev_b32", {1}, 0x80000000},
      {"v_mad_u32_u24", {0x01000003, 2, 1}, 7},          // bits 24+ ignored
      {"v_mad_i32_i24", {0x00ffffff, 3, 0}, 0xfffffffd}, // -1 * 3
      {"v_add3_u32", {0xffffffff, 1, 5}, 5},
      {"v_alignbit_b32", {0x12345678, 0x9abcdef0, 8}, 0x789abcde},
      {"v_alignbyte_b32", {0x12345678, 0x9abcdef0, 1}, 0x789abcde},
      {"v_sad_u32", {3, 10, 100}, 107},
      {"v_lshl_add_u32", {1, 4, 3}, 19},
      {"v_lshl_or_b32", {1, 4, 3}, 19},
      {"v_min_i32", {0xffffffff, 1}, 0xffffffff},
      {"v_max_u32", {0xffffffff, 1}, 0xffffffff},
      {"v_med3_i32", {0xffffffff, 5, 2}, 2},
      {"v_abs_i32", {0x80000000}, 0x80000000},
      // Per byte (x + y + bit 0 of z's byte) >> 1: 1, 0, 0x80, 0.
      {"v_lerp_u8", {0x00ff0001, 0x00010001, 0x01000001}, 0x00800001},
  });
}

/// `body` after the prologue; the test stores what it needs itself.
SimResult run(TestContext &t, const std::string &body,
              OwningOpRef<ModuleOp> &module, SimOptions options = {}) {
  module = t.parseModule(
      program(std::string(kSimHeader) + body + "  waveasm.s_endpgm\n"));
  EXPECT_TRUE(module) << t.diagnostics;
  if (!module)
    return SimResult();
  return simulate(firstProgram(*module), options);
}

TEST(SimulatorOps, LaneOpsComparesAndCarries) {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  SimResult result = run(t, R"(
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %c10 = waveasm.constant 10 : !waveasm.imm<10>
  %cm1 = waveasm.constant -1 : !waveasm.imm<-1>
  %s5 = waveasm.s_mov_b32 %c5 : !waveasm.imm<5> -> !waveasm.sreg
  %lane5 = waveasm.v_readlane_b32 %tid, %s5 : !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.sreg
  %v5 = waveasm.v_mov_b32 %lane5 : !waveasm.sreg -> !waveasm.vreg
  waveasm.buffer_store_dword %v5, %out, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %cnt0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %ones = waveasm.v_mov_b32 %cm1 : !waveasm.imm<-1> -> !waveasm.vreg
  %lo = waveasm.v_mbcnt_lo_u32_b32 %ones, %cnt0 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %below = waveasm.v_mbcnt_hi_u32_b32 %ones, %lo : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %below, %out, %off offset : 256 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %ten = waveasm.v_mov_b32 %c10 : !waveasm.imm<10> -> !waveasm.vreg
  waveasm.v_cmp_lt_i32 %tid, %ten : !waveasm.pvreg<0>, !waveasm.vreg
  %sel = waveasm.v_cndmask_b32 %ones, %ten, %cnt0 : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %sel, %out, %off offset : 512 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %sum, %carry = waveasm.v_add_co_u32 %ones, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg, !waveasm.sreg<2, 2>
  %hi, %carry2 = waveasm.v_addc_co_u32 %cnt0, %cnt0 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg, !waveasm.sreg<2, 2>
  waveasm.buffer_store_dword %sum, %out, %off offset : 768 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %hi, %out, %off offset : 1024 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %w = waveasm.v_writelane_b32 %s5, %s5, %cnt0 : !waveasm.sreg, !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %w, %out, %off offset : 1280 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.v_cmp_lt_i32 %tid, %ten : !waveasm.pvreg<0>, !waveasm.vreg
  %nan = waveasm.constant 2143289344 : !waveasm.imm<2143289344>
  %vnan = waveasm.v_mov_b32 %nan : !waveasm.imm<2143289344> -> !waveasm.vreg
  %f = waveasm.v_cvt_f32_u32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.v_cndmask_b32 %f, %vnan, %cnt0 : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.v_cmp_u_f32 %x, %x : !waveasm.vreg, !waveasm.vreg
  %unordered = waveasm.v_cndmask_b32 %cnt0, %ten, %cnt0 : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %unordered, %out, %off offset : 1536 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
)",
                         module);
  ASSERT_TRUE(result.ok()) << result.error->str();
  for (unsigned lane : {0u, 5u, 9u, 10u, 31u, 32u, 63u}) {
    EXPECT_EQ(wordAt(result, 0, 4 * lane), 5u) << lane;         // v_readlane
    EXPECT_EQ(wordAt(result, 0, 256 + 4 * lane), lane) << lane; // mbcnt
    // VCC = tid < 10 selects 10, else 0xffffffff.
    EXPECT_EQ(wordAt(result, 0, 512 + 4 * lane), lane < 10 ? 10u : ~0u);
    // 0xffffffff + tid carries for every lane but 0, and the carry comes
    // back through VCC as 0 + 0 + carry.
    EXPECT_EQ(wordAt(result, 0, 768 + 4 * lane), lane - 1);
    EXPECT_EQ(wordAt(result, 0, 1024 + 4 * lane), lane ? 1u : 0u);
    // v_writelane: lane 5 gets 5, the others keep 0.
    EXPECT_EQ(wordAt(result, 0, 1280 + 4 * lane), lane == 5 ? 5u : 0u);
    // v_cmp_u_f32: only the NaN lanes (tid < 10) are unordered.
    EXPECT_EQ(wordAt(result, 0, 1536 + 4 * lane), lane < 10 ? 10u : 0u);
  }
}

TEST(SimulatorOps, SALUSetsSCCAndMasksWithEXEC) {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  SimResult result = run(t, R"(
  %cm1 = waveasm.constant -1 : !waveasm.imm<-1>
  %cmin = waveasm.constant 2147483647 : !waveasm.imm<2147483647>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %c9 = waveasm.constant 9 : !waveasm.imm<9>
  %m = waveasm.s_mov_b32 %cm1 : !waveasm.imm<-1> -> !waveasm.sreg
  %lo, %carry = waveasm.s_add_u32 %m, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %z = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %hi, %carry2 = waveasm.s_addc_u32 %carry, %z, %z : !waveasm.scc, !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %big = waveasm.s_mov_b32 %cmin : !waveasm.imm<2147483647> -> !waveasm.sreg
  %ovf, %overflow = waveasm.s_add_i32 %big, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %o = waveasm.s_cselect_b32 %overflow, %c5, %c9 : !waveasm.scc, !waveasm.imm<5>, !waveasm.imm<9> -> !waveasm.sreg
  %lt = waveasm.s_cmp_lt_i32 %m, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.scc
  %l = waveasm.s_cselect_b32 %lt, %c5, %c9 : !waveasm.scc, !waveasm.imm<5>, !waveasm.imm<9> -> !waveasm.sreg
  %ult = waveasm.s_cmp_lt_u32 %m, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.scc
  %u = waveasm.s_cselect_b32 %ult, %c5, %c9 : !waveasm.scc, !waveasm.imm<5>, !waveasm.imm<9> -> !waveasm.sreg
  %field = waveasm.constant 262148 : !waveasm.imm<262148>
  %sx, %sxz = waveasm.s_bfe_i32 %m, %field : !waveasm.sreg, !waveasm.imm<262148> -> !waveasm.sreg, !waveasm.scc
  %wide = waveasm.s_mov_b64 %c1 : !waveasm.imm<1> -> !waveasm.sreg<2, 2>
  %sh, %shz = waveasm.s_lshl_b64 %wide, %c5 : !waveasm.sreg<2, 2>, !waveasm.imm<5> -> !waveasm.sreg<2, 2>, !waveasm.scc
  %sh1 = waveasm.extract %sh[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %v0 = waveasm.v_mov_b32 %lo : !waveasm.sreg -> !waveasm.vreg
  %v1 = waveasm.v_mov_b32 %hi : !waveasm.sreg -> !waveasm.vreg
  %v2 = waveasm.v_mov_b32 %o : !waveasm.sreg -> !waveasm.vreg
  %v3 = waveasm.v_mov_b32 %l : !waveasm.sreg -> !waveasm.vreg
  %v4 = waveasm.v_mov_b32 %u : !waveasm.sreg -> !waveasm.vreg
  %v5 = waveasm.v_mov_b32 %sx : !waveasm.sreg -> !waveasm.vreg
  %v6 = waveasm.v_mov_b32 %sh1 : !waveasm.sreg -> !waveasm.vreg
  waveasm.buffer_store_dword %v0, %out, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v1, %out, %off offset : 256 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v2, %out, %off offset : 512 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v3, %out, %off offset : 768 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v4, %out, %off offset : 1024 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v5, %out, %off offset : 1280 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v6, %out, %off offset : 1536 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %v16 = waveasm.v_mov_b32 %c16 : !waveasm.imm<16> -> !waveasm.vreg
  waveasm.v_cmp_lt_u32 %tid, %v16 : !waveasm.pvreg<0>, !waveasm.vreg
  %saved = waveasm.s_and_saveexec_b64 -> !waveasm.sreg<2, 2>
  %seven = waveasm.v_mov_b32 %c7 : !waveasm.imm<7> -> !waveasm.vreg
  waveasm.buffer_store_dword %seven, %out, %off offset : 1792 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_mov_b64_exec %saved : !waveasm.sreg<2, 2>
)",
                         module);
  ASSERT_TRUE(result.ok()) << result.error->str();
  std::vector<uint8_t> before = initialBytes(1, bufferAddress(0) + 1792, 256);
  for (unsigned lane : {0u, 15u, 16u, 63u}) {
    EXPECT_EQ(wordAt(result, 0, 4 * lane), 0u);         // -1 + 1 wraps
    EXPECT_EQ(wordAt(result, 0, 256 + 4 * lane), 1u);   // ... and carries
    EXPECT_EQ(wordAt(result, 0, 512 + 4 * lane), 5u);   // signed overflow
    EXPECT_EQ(wordAt(result, 0, 768 + 4 * lane), 5u);   // -1 < 0 signed
    EXPECT_EQ(wordAt(result, 0, 1024 + 4 * lane), 9u);  // not unsigned
    EXPECT_EQ(wordAt(result, 0, 1280 + 4 * lane), ~0u); // 4 bits from 4
    EXPECT_EQ(wordAt(result, 0, 1536 + 4 * lane), 32u); // 1 << 5
    // Under EXEC = tid < 16 only those lanes store; the rest keep the
    // buffer's first contents.
    uint32_t kept;
    std::memcpy(&kept, before.data() + 4 * lane, 4);
    EXPECT_EQ(wordAt(result, 0, 1792 + 4 * lane), lane < 16 ? 7u : kept)
        << lane;
  }
}

TEST(SimulatorOps, SixtyFourBitAndArithPseudoOps) {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  SimResult result = run(t, R"(
  %c33 = waveasm.constant 33 : !waveasm.imm<33>
  %cneg = waveasm.constant -8 : !waveasm.imm<-8>
  %one = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg
  %zero = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %p = waveasm.pack %one, %zero : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  %sh = waveasm.v_lshlrev_b64 %c33, %p : !waveasm.imm<33>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  %sh0 = waveasm.extract %sh[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %sh1 = waveasm.extract %sh[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  waveasm.buffer_store_dword %sh0, %out, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %sh1, %out, %off offset : 256 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %neg = waveasm.v_mov_b32 %cneg : !waveasm.imm<-8> -> !waveasm.vreg
  %m1 = waveasm.v_mov_b32 %cneg : !waveasm.imm<-8> -> !waveasm.vreg
  %q = waveasm.pack %neg, %m1 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  %sr = waveasm.v_ashrrev_i64 %c33, %q : !waveasm.imm<33>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  %sr0 = waveasm.extract %sr[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  waveasm.buffer_store_dword %sr0, %out, %off offset : 512 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %sum = waveasm.arith.add %tid, %c7 : (!waveasm.pvreg<0>, !waveasm.imm<7>) -> !waveasm.vreg
  %prod = waveasm.arith.mul %sum, %c3 : (!waveasm.vreg, !waveasm.imm<3>) -> !waveasm.vreg
  %lt = waveasm.arith.cmp slt, %tid, %c4 : (!waveasm.pvreg<0>, !waveasm.imm<4>) -> !waveasm.vreg
  %sel = waveasm.arith.select %lt, %prod, %sum : (!waveasm.vreg, !waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg
  waveasm.buffer_store_dword %sel, %out, %off offset : 768 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
)",
                         module);
  ASSERT_TRUE(result.ok()) << result.error->str();
  for (unsigned lane : {0u, 3u, 4u, 63u}) {
    EXPECT_EQ(wordAt(result, 0, 4 * lane), 0u);       // 1 << 33: low word
    EXPECT_EQ(wordAt(result, 0, 256 + 4 * lane), 2u); // high word
    // 0xfffffff8_fffffff8 >> 33 (arithmetic) = -4.
    EXPECT_EQ(wordAt(result, 0, 512 + 4 * lane), 0xfffffffcu);
    // select(cond, true, false) reads (false, true, cond) in the
    // declaration's order: tid < 4 takes (tid + 7) * 3.
    EXPECT_EQ(wordAt(result, 0, 768 + 4 * lane),
              lane < 4 ? (lane + 7) * 3 : lane + 7)
        << lane;
  }
}

TEST(SimulatorOps, Gfx1250RunsWavesOf32Lanes) {
  // The target's wave size: 32 lanes store their ids; the 33rd slot keeps
  // the buffer's first contents. v_mbcnt counts the lanes below in 32.
  TestContext t;
  auto module = t.parseModule(program(std::string(kSimHeader) + R"(
  %cm1 = waveasm.constant -1 : !waveasm.imm<-1>
  %ones = waveasm.v_mov_b32 %cm1 : !waveasm.imm<-1> -> !waveasm.vreg
  %zero = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %below = waveasm.v_mbcnt_lo_u32_b32 %ones, %zero : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %below, %out, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)",
                                      "gfx1250"));
  ASSERT_TRUE(module) << t.diagnostics;
  SimResult result = simulate(firstProgram(*module));
  ASSERT_TRUE(result.ok()) << result.error->str();
  for (unsigned lane : {0u, 1u, 31u})
    EXPECT_EQ(wordAt(result, 0, 4 * lane), lane);
  std::vector<uint8_t> before = initialBytes(1, bufferAddress(0) + 128, 4);
  uint32_t kept;
  std::memcpy(&kept, before.data(), 4);
  EXPECT_EQ(wordAt(result, 0, 128), kept);
}

} // namespace
