//===- SimulatorLDSPairTest.cpp - ds_read2* / ds_write2* in the simulator -===//
//
// The two-address LDS ops against hand-computed values: element offsets
// (offset0/offset1, in elements of 4 or 8 bytes) or one byte offset for two
// consecutive elements, as the emitter writes them; the halves of the data
// in that order; accesses past the LDS read 0 and are dropped; in allocated
// IR the read counts on lgkmcnt like every ds op.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtils.h"
#include "TestUtils.h"

#include "sim/Compare.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;
using waveasm::test::firstProgram;
using waveasm::test::kSimHeader;
using waveasm::test::program;
using waveasm::test::TestContext;
using waveasm::test::wordAt;

namespace {

/// Stores `value` (one register per lane) at buffer 0 + 256 * slot.
std::string store(const std::string &value, unsigned slot) {
  return "  waveasm.buffer_store_dword " + value +
         ", %out, %off offset : " + std::to_string(256 * slot) +
         " : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg\n";
}

TEST(SimulatorLDSPair, Read2AndWrite2AddressTheirTwoElements) {
  TestContext t;
  std::string body = std::string(kSimHeader) + R"(
  %a = waveasm.v_add_u32 %tid, %c7 : !waveasm.pvreg<0>, !waveasm.imm<7> -> !waveasm.vreg
  %b = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %ab = waveasm.pack %a, %b : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  waveasm.ds_write2_b32 %ab, %off {offset0 = 3 : i64, offset1 = 70 : i64} : !waveasm.vreg<2, 2>, !waveasm.vreg
  %r0 = waveasm.ds_read_b32 %off {offset = 12 : i64} : !waveasm.vreg -> !waveasm.vreg
  %r1 = waveasm.ds_read_b32 %off {offset = 280 : i64} : !waveasm.vreg -> !waveasm.vreg
  %swapped = waveasm.ds_read2_b32 %off {offset0 = 70 : i64, offset1 = 3 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
  %s0 = waveasm.extract %swapped[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %s1 = waveasm.extract %swapped[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %pair = waveasm.ds_read2_b32 %off {offset = 12 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
  %p0 = waveasm.extract %pair[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %p1 = waveasm.extract %pair[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %c1024 = waveasm.constant 1024 : !waveasm.imm<1024>
  %base = waveasm.v_lshl_add_u32 %tid, %c4, %c1024 : !waveasm.pvreg<0>, !waveasm.imm<4>, !waveasm.imm<1024> -> !waveasm.vreg
  %c9 = waveasm.constant 9 : !waveasm.imm<9>
  %x2 = waveasm.v_add_u32 %a, %c9 : !waveasm.vreg, !waveasm.imm<9> -> !waveasm.vreg
  %x3 = waveasm.v_add_u32 %b, %c9 : !waveasm.vreg, !waveasm.imm<9> -> !waveasm.vreg
  %quad = waveasm.pack %a, %b, %x2, %x3 : (!waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %quad, %base : !waveasm.vreg<4, 4>, !waveasm.vreg
  %wide = waveasm.ds_read2_b64 %base {offset0 = 1 : i64, offset1 = 0 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
  %w0 = waveasm.extract %wide[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %w2 = waveasm.extract %wide[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %w3 = waveasm.extract %wide[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg
)" + store("%r0", 0) +
                     store("%r1", 1) + store("%s0", 2) + store("%s1", 3) +
                     store("%p0", 4) + store("%p1", 5) + store("%w0", 6) +
                     store("%w2", 7) + store("%w3", 8) + "  waveasm.s_endpgm\n";
  auto module = t.parseModule(program(body));
  ASSERT_TRUE(module) << t.diagnostics;
  for (bool timing : {true, false}) {
    SimOptions options;
    options.timing = timing;
    SimResult result = simulate(firstProgram(*module), options);
    ASSERT_TRUE(result.ok()) << result.error->str();
    for (uint32_t lane = 0; lane < 64; ++lane) {
      uint32_t a = lane + 7, b = lane << 4;
      auto at = [&](unsigned slot) {
        return wordAt(result, 0, 256 * slot + 4 * lane);
      };
      // ds_write2_b32 offset0:3 offset1:70: a at 4l + 12, b at 4l + 280.
      EXPECT_EQ(at(0), a) << lane;
      EXPECT_EQ(at(1), b) << lane;
      // ds_read2_b32 offset0:70 offset1:3: b then a.
      EXPECT_EQ(at(2), b) << lane;
      EXPECT_EQ(at(3), a) << lane;
      // A byte offset: two consecutive elements from it, 4l + 12 and
      // 4l + 16 (the next lane's a).
      EXPECT_EQ(at(4), a) << lane;
      if (lane < 63)
        EXPECT_EQ(at(5), a + 1) << lane;
      // ds_read2_b64 offset0:1 offset1:0 over (a, b, a + 9, b + 9): the
      // second 8 bytes, then the first.
      EXPECT_EQ(at(6), a + 9) << lane;
      EXPECT_EQ(at(7), a) << lane;
      EXPECT_EQ(at(8), b) << lane;
    }
  }
}

TEST(SimulatorLDSPair, AnElementPastTheLDSReadsZeroAndIsNotWritten) {
  // gfx942's LDS is 64 KiB: at 65532 the first element is inside, the
  // second (offset1 = 1 element) is past the end.
  TestContext t;
  std::string body = std::string(kSimHeader) + R"(
  %c65532 = waveasm.constant 65532 : !waveasm.imm<65532>
  %end = waveasm.v_mov_b32 %c65532 : !waveasm.imm<65532> -> !waveasm.vreg
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %five = waveasm.v_mov_b32 %c5 : !waveasm.imm<5> -> !waveasm.vreg
  %seven = waveasm.v_mov_b32 %c7 : !waveasm.imm<7> -> !waveasm.vreg
  %data = waveasm.pack %five, %seven : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  waveasm.ds_write2_b32 %data, %end {offset0 = 0 : i64, offset1 = 1 : i64} : !waveasm.vreg<2, 2>, !waveasm.vreg
  %pair = waveasm.ds_read2_b32 %end {offset0 = 0 : i64, offset1 = 1 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
  %p0 = waveasm.extract %pair[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %p1 = waveasm.extract %pair[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
)" + store("%p0", 0) +
                     store("%p1", 1) + "  waveasm.s_endpgm\n";
  auto module = t.parseModule(program(body));
  ASSERT_TRUE(module) << t.diagnostics;
  SimResult result = simulate(firstProgram(*module));
  ASSERT_TRUE(result.ok()) << result.error->str();
  ASSERT_EQ(result.lds.size(), 65536u);
  uint32_t last;
  std::memcpy(&last, result.lds.data() + 65532, 4);
  EXPECT_EQ(last, 5u);
  for (unsigned lane = 0; lane < 64; ++lane) {
    EXPECT_EQ(wordAt(result, 0, 4 * lane), 5u) << lane;
    EXPECT_EQ(wordAt(result, 0, 256 + 4 * lane), 0u) << lane;
  }
}

TEST(SimulatorLDSPair, ElementOffsetsPastTheInstructionFieldAreNotSimulated) {
  TestContext t;
  std::string body = std::string(kSimHeader) + R"(
  %pair = waveasm.ds_read2_b32 %off {offset0 = 0 : i64, offset1 = 256 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
  waveasm.s_endpgm
)";
  auto module = t.parseModule(program(body));
  ASSERT_TRUE(module) << t.diagnostics;
  SimResult result = simulate(firstProgram(*module));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error->kind, SimError::Kind::NotSimulated);
  EXPECT_NE(result.error->str().find("'waveasm.ds_read2_b32': not simulated: "
                                     "offset0/offset1 outside 0..255"),
            std::string::npos)
      << result.error->str();
}

TEST(SimulatorLDSPair, AllocatedRead2CountsOnLgkmcnt) {
  // Allocated IR by hand: the pair lands in v[2:3] only after lgkmcnt
  // covers it; a read of v2 before that is a race (a missing wait).
  auto text = [](bool wait) {
    return program(std::string(R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.pvreg<1>
  waveasm.ds_write_b32 %tid, %off : !waveasm.pvreg<0>, !waveasm.pvreg<1>
  waveasm.s_waitcnt lgkmcnt(0)
  %pair = waveasm.ds_read2_b32 %off {offset0 = 0 : i64, offset1 = 1 : i64} : !waveasm.pvreg<1> -> !waveasm.pvreg<2, 2>
)") + (wait ? "  waveasm.s_waitcnt lgkmcnt(0)\n" : "") +
                   R"(
  %lo = waveasm.extract %pair[0] : !waveasm.pvreg<2, 2> -> !waveasm.pvreg<2>
  waveasm.buffer_store_dword %lo, %out, %off : !waveasm.pvreg<2>, !waveasm.psreg<4, 4>, !waveasm.pvreg<1>
  waveasm.s_endpgm
)");
  };
  TestContext t;
  auto waited = t.parseModule(text(true));
  auto racing = t.parseModule(text(false));
  ASSERT_TRUE(waited && racing) << t.diagnostics;
  SimResult ok = simulate(firstProgram(*waited));
  ASSERT_TRUE(ok.ok()) << ok.error->str();
  for (unsigned lane = 0; lane < 64; ++lane)
    EXPECT_EQ(wordAt(ok, 0, 4 * lane), lane) << lane;
  SimResult race = simulate(firstProgram(*racing));
  ASSERT_FALSE(race.ok());
  EXPECT_EQ(race.error->kind, SimError::Kind::Race) << race.error->str();
  EXPECT_NE(race.error->str().find("'waveasm.ds_read2_b32' into it is "
                                   "outstanding"),
            std::string::npos)
      << race.error->str();
  // Untimed, the pair is there at once.
  SimOptions untimed;
  untimed.timing = false;
  EXPECT_TRUE(simulate(firstProgram(*racing), untimed).ok());
}

} // namespace
