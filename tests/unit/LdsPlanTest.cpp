//===- LdsPlanTest.cpp - the LDS arena and address ranges -----------------===//

#include "AnalysisTestUtils.h"

#include "analysis/LdsBuffers.h"
#include "analysis/LdsPlan.h"
#include "analysis/RedundantLoads.h"

#include <gtest/gtest.h>

using namespace waveasm;
using namespace waveasm::test;

namespace {

LdsPlanItem item(int64_t size, unsigned start, unsigned stop,
                 int64_t alignment = 1) {
  LdsPlanItem i;
  i.size = size;
  i.start = start;
  i.stop = stop;
  i.alignment = alignment;
  return i;
}

TEST(LdsPlanTest, ArenaReusesBytesOfDisjointLifetimes) {
  // A and B never live together; C overlaps both.
  std::vector<LdsPlanItem> items = {item(4096, 0, 10), item(4096, 11, 20),
                                    item(2048, 5, 15)};
  LdsArena arena = planArena(items);
  EXPECT_EQ(arena.offsets[0], 0);
  EXPECT_EQ(arena.offsets[1], 0);
  EXPECT_EQ(arena.offsets[2], 4096);
  EXPECT_EQ(arena.arenaBytes, 6144);
  EXPECT_EQ(arena.peakBytes, 6144);
  EXPECT_EQ(arena.peakAt, 5u);
  EXPECT_EQ(arena.liveAtPeak, (std::vector<unsigned>{0, 2}));
  EXPECT_DOUBLE_EQ(arena.fragmentation(), 0.0);
}

TEST(LdsPlanTest, FixedItemsStayAndAlignmentLeavesGaps) {
  std::vector<LdsPlanItem> items = {item(64, 0, 9), item(32, 0, 9, 128),
                                    item(100, 0, 9, 128)};
  items[0].fixedOffset = 64;
  LdsArena arena = planArena(items);
  EXPECT_EQ(arena.offsets[0], 64);
  EXPECT_EQ(arena.offsets[2], 128); // too large below 64: the next 128
  EXPECT_EQ(arena.offsets[1], 0);   // fits below the fixed item
  EXPECT_EQ(arena.arenaBytes, 228);
  EXPECT_EQ(arena.peakBytes, 196);
  EXPECT_NEAR(arena.fragmentation(), 1.0 - 196.0 / 228.0, 1e-9);
}

TEST(LdsPlanTest, RotatingBasesStayApart) {
  // A double buffer: the read and write bases swap every iteration.
  ParsedAnalysisProgram p(R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c1024 = waveasm.constant 1024 : !waveasm.imm<1024>
  %lane = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b1 = waveasm.s_mov_b32 %c1024 : !waveasm.imm<1024> -> !waveasm.sreg
  %r:3 = waveasm.loop (%k = %k0, %rd = %b0, %wr = %b1) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) {
    %ra = waveasm.v_add_u32 %rd, %lane : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg loc("R")
    %x = waveasm.ds_read_b32 %ra : !waveasm.vreg -> !waveasm.vreg
    %wa = waveasm.v_add_u32 %wr, %lane : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.ds_write_b32 %x, %wa : !waveasm.vreg, !waveasm.vreg
    waveasm.s_barrier
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %wr, %rd) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_endpgm)");
  ASSERT_TRUE(p.program);
  std::optional<LdsAddressRange> range =
      getLdsAddressRange(p.program, p.value("R"));
  ASSERT_TRUE(range);
  EXPECT_EQ(range->bases, (llvm::SmallVector<int64_t, 4>{0, 1024}));
  EXPECT_EQ(range->lo, 0);
  EXPECT_EQ(range->hi, 252); // one wave: lanes 0..63, 4 bytes each

  LdsProgramPlan plan = planLds(p.program);
  ASSERT_TRUE(plan.info.complete());
  ASSERT_EQ(plan.info.buffers.size(), 2u);
  for (const LdsBuffer &buffer : plan.info.buffers) {
    EXPECT_TRUE(buffer.rotating);
    EXPECT_FALSE(buffer.movable);
    EXPECT_EQ(buffer.size(), 256);
  }
  EXPECT_EQ(plan.arena.offsets[0], 0);
  EXPECT_EQ(plan.arena.offsets[1], 1024);
  EXPECT_TRUE(plan.pingPong.empty());
}

TEST(LdsPlanTest, UnboundedAddressMakesThePlanIncomplete) {
  // An address loaded from memory has no bound.
  ParsedAnalysisProgram p(R"(
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg loc("L")
  waveasm.s_endpgm)");
  ASSERT_TRUE(p.program);
  LdsBufferInfo info = collectLdsBuffers(p.program);
  EXPECT_FALSE(info.complete());
  EXPECT_EQ(info.unknownAccess, p.op("L"));
}

TEST(RedundantLoadsTest, DisjointWriteKeepsTheLoadBarrierEndsIt) {
  auto body = [](llvm::StringRef between) {
    return (R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg loc("A")
  )" + between +
            R"(
  %b = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg loc("B")
  %s = waveasm.v_add_u32 %a, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.ds_write_b32 %s, %off : !waveasm.vreg, !waveasm.vreg
  waveasm.s_endpgm)")
        .str();
  };
  // A write at a constant address: its bytes are another lane's read.
  ParsedAnalysisProgram constant(
      body("%c4 = waveasm.constant 4 : !waveasm.imm<4>\n"
           "waveasm.ds_write_b32 %off, %c4 : !waveasm.vreg, !waveasm.imm<4>"));
  ASSERT_TRUE(constant.program);
  EXPECT_TRUE(findRedundantLoads(constant.program).empty());
  // 4 bytes further from the same per-lane address: apart in each lane, but
  // lane i writes lane i+1's bytes (the lanes are 4 bytes apart).
  ParsedAnalysisProgram neighbour(
      body("waveasm.ds_write_b32 %off, %off {offset = 4 : i64} : "
           "!waveasm.vreg, !waveasm.vreg"));
  ASSERT_TRUE(neighbour.program);
  EXPECT_TRUE(findRedundantLoads(neighbour.program).empty());
  // A global store between: another space, the LDS load is reused.
  ParsedAnalysisProgram global(
      body("%srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>\n"
           "waveasm.buffer_store_dword %off, %srd, %off : !waveasm.vreg, "
           "!waveasm.psreg<4, 4>, !waveasm.vreg"));
  ASSERT_TRUE(global.program);
  std::vector<RedundantLoad> found = findRedundantLoads(global.program);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].load, global.op("B"));
  EXPECT_EQ(found[0].earlier, global.op("A"));

  ParsedAnalysisProgram same(
      body("waveasm.ds_write_b32 %off, %off : !waveasm.vreg, !waveasm.vreg"));
  ASSERT_TRUE(same.program);
  EXPECT_TRUE(findRedundantLoads(same.program).empty());

  ParsedAnalysisProgram barrier(body("waveasm.s_barrier"));
  ASSERT_TRUE(barrier.program);
  EXPECT_TRUE(findRedundantLoads(barrier.program).empty());
}

} // namespace

TEST(LdsPlanTest, SwizzledLaneTermKeepsItsBound) {
  // SwizzleDmaLds.h's lane term: S(v) = v ^ ((v >> 4) & 0x30) of 16-byte
  // units. The XOR of two intervals is bounded (v changes only in the bits
  // the mask may hold) and keeps both operands' 16-byte alignment: the
  // buffer's end stays at 1024, so a rotation's buffers stay apart.
  ParsedAnalysisProgram p(R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c48 = waveasm.constant 48 : !waveasm.imm<48>
  %c512 = waveasm.constant 512 : !waveasm.imm<512>
  %c9216 = waveasm.constant 9216 : !waveasm.imm<9216>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %v = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg loc("V")
  %down = waveasm.v_lshrrev_b32 %c4, %v : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %bits = waveasm.v_and_b32 %down, %c48 : !waveasm.vreg, !waveasm.imm<48> -> !waveasm.vreg
  %s = waveasm.v_xor_b32 %v, %bits : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg loc("S")
  %t = waveasm.v_xor_b32 %tid, %bits : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg loc("T")
  %b0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b1 = waveasm.s_mov_b32 %c9216 : !waveasm.imm<9216> -> !waveasm.sreg
  %r:2 = waveasm.loop (%rd = %b0, %wr = %b1) : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg) {
    %m:2 = waveasm.s_add_u32 %rd, %c512 : !waveasm.sreg, !waveasm.imm<512> -> !waveasm.sreg, !waveasm.scc loc("M")
    %a = waveasm.v_add_u32 %rd, %s : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %x = waveasm.ds_read_b128 %a : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %more = waveasm.s_cmp_lt_u32 %m#0, %c9216 : !waveasm.sreg, !waveasm.imm<9216> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%wr, %rd) : !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_endpgm)");
  ASSERT_TRUE(p.program);
  std::optional<LdsAddressRange> range =
      getLdsAddressRange(p.program, p.value("S"));
  ASSERT_TRUE(range);
  EXPECT_EQ(range->bases.front() + range->lo, 0);
  EXPECT_EQ(range->bases.back() + range->hi, 1008); // 63 * 16
  // Without the alignment (tid is not 16-byte aligned): 63 ^ (<= 48).
  range = getLdsAddressRange(p.program, p.value("T"));
  ASSERT_TRUE(range);
  EXPECT_EQ(range->bases.back() + range->hi, 63);

  EXPECT_EQ(knownLowZeroBits(p.value("V")), 4u);
  EXPECT_EQ(knownLowZeroBits(p.value("S")), 4u);
  EXPECT_EQ(knownLowZeroBits(p.value("T")), 0u);
  // The rotating base (0, 9216) + 512: 9216 = 9 << 10, so 9 zero bits.
  EXPECT_EQ(knownLowZeroBits(p.value("M")), 9u);
}

namespace {

TEST(LdsAccessBytesTest, DmaAndReadRangesOverlapByBytes) {
  // Two direct-to-LDS loads (a wave of dwords each: 256 bytes from M0) and
  // reads at constant addresses; an address the analysis cannot bound
  // overlaps everything.
  ParsedAnalysisProgram p(R"(
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %any = waveasm.precolored.vreg 7 : !waveasm.pvreg<7>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %c4352 = waveasm.constant 4352 : !waveasm.imm<4352>
  %v0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  waveasm.buffer_load_dword_lds %v0, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.imm<0> loc("D0")
  waveasm.s_mov_b32_m0 %c4096 : !waveasm.imm<4096>
  waveasm.buffer_load_dword_lds %v0, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.imm<0> loc("D1")
  %a64 = waveasm.v_mov_b32 %c64 : !waveasm.imm<64> -> !waveasm.vreg
  %r0 = waveasm.ds_read_b32 %a64 : !waveasm.vreg -> !waveasm.vreg loc("R0")
  %a4352 = waveasm.v_mov_b32 %c4352 : !waveasm.imm<4352> -> !waveasm.vreg
  %r1 = waveasm.ds_read_b32 %a4352 : !waveasm.vreg -> !waveasm.vreg loc("R1")
  %r2 = waveasm.ds_read_b32 %any : !waveasm.pvreg<7> -> !waveasm.vreg loc("R2")
  waveasm.s_endpgm)");
  ASSERT_TRUE(p.program);
  LdsAccessBytes bytes(p.program);
  const std::optional<LdsAccessBytes::Ranges> &d1 = bytes.get(p.op("D1"));
  ASSERT_TRUE(d1);
  ASSERT_EQ(d1->size(), 1u);
  EXPECT_EQ((*d1)[0].first, 4096);
  EXPECT_EQ((*d1)[0].second, 4352);
  EXPECT_TRUE(bytes.mayOverlap(p.op("D0"), p.op("R0")));
  EXPECT_FALSE(bytes.mayOverlap(p.op("D1"), p.op("R0")));
  // [4352, 4356) starts where D1's bytes end.
  EXPECT_FALSE(bytes.mayOverlap(p.op("D1"), p.op("R1")));
  EXPECT_FALSE(bytes.get(p.op("R2")));
  EXPECT_TRUE(bytes.mayOverlap(p.op("D1"), p.op("R2")));
  EXPECT_TRUE(bytes.mayOverlap(p.op("R2"), p.op("D0")));
}

} // namespace
