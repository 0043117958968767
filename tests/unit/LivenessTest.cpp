//===- LivenessTest.cpp - live ranges and register pressure ---------------===//
//
// Every expectation is computed by hand in the comments. Program points are
// the op numbers in pre-order, written as `// N` after each op.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "analysis/Liveness.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

LiveRange range(unsigned start, unsigned end) { return {start, end}; }

void expectRange(const Liveness &l, Value v, LiveRange expected) {
  std::optional<LiveRange> r = l.getRange(v);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->start, expected.start);
  EXPECT_EQ(r->end, expected.end);
}

RegCounts counts(int32_t v, int32_t s, int32_t a) {
  RegCounts c;
  c.regs = {v, s, a};
  return c;
}

} // namespace

//===----------------------------------------------------------------------===//
// Straight line, multi-register values
//===----------------------------------------------------------------------===//

const char *kStraight = R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>                                          // 0
  %addr = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg loc("addr")          // 1
  %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4> loc("a")         // 2
  %b = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2> loc("b")         // 3
  waveasm.ds_write_b128 %a, %addr : !waveasm.vreg<4, 4>, !waveasm.vreg loc("w4")        // 4
  waveasm.ds_write_b64 %b, %addr : !waveasm.vreg<2, 2>, !waveasm.vreg                   // 5
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg loc("s")                // 6
  %t, %scc = waveasm.s_add_u32 %s, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc loc("t") // 7
  waveasm.s_endpgm                                                                     // 8
)";

TEST(Liveness, StraightLineRanges) {
  ParsedAnalysisProgram p(kStraight);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  ProgramIndex index(p.program);
  Liveness l(index);
  ASSERT_EQ(index.getNumOps(), 9u);
  // addr: defined at 1, last read by the ds_write at 5.
  expectRange(l, p.value("addr"), range(1, 5));
  expectRange(l, p.value("a"), range(2, 4));
  expectRange(l, p.value("b"), range(3, 5));
  expectRange(l, p.value("s"), range(6, 7));
  // t is never used: its range is its definition point.
  expectRange(l, p.value("t"), range(7, 7));
  // imm and scc values are not registers.
  EXPECT_FALSE(l.isTracked(p.value("t", 1)));
  EXPECT_FALSE(l.getRange(p.op("t")->getOperand(1)).has_value());
}

TEST(Liveness, StraightLinePressure) {
  ParsedAnalysisProgram p(kStraight);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  ProgramIndex index(p.program);
  Liveness l(index);
  // Occupied while op p issues (start <= p <= end), by width:
  //   p1 addr=1; p2 addr+a=5; p3 addr+a+b=7; p4 same 7 (a read at 4);
  //   p5 addr+b=3; p6 s=1 SGPR; p7 s+t=2 SGPRs; p8 nothing.
  int32_t vgprs[] = {0, 1, 5, 7, 7, 3, 0, 0, 0};
  int32_t sgprs[] = {0, 0, 0, 0, 0, 0, 1, 2, 0};
  for (unsigned i = 0; i < 9; ++i) {
    EXPECT_EQ(l.getPressure(i).vgprs(), vgprs[i]) << "op " << i;
    EXPECT_EQ(l.getPressure(i).sgprs(), sgprs[i]) << "op " << i;
    EXPECT_EQ(l.getPressure(i).agprs(), 0) << "op " << i;
  }
  // Live after p (start <= p < end): p3 addr+a+b=7, p4 addr+b=3 (a dies),
  // p5 0, p6 s=1, p7 0 (t is dead).
  EXPECT_EQ(l.getLiveAfter(3u), counts(7, 0, 0));
  EXPECT_EQ(l.getLiveAfter(4u), counts(3, 0, 0));
  EXPECT_EQ(l.getLiveAfter(5u), counts(0, 0, 0));
  EXPECT_EQ(l.getLiveAfter(6u), counts(0, 1, 0));
  EXPECT_EQ(l.getLiveAfter(7u), counts(0, 0, 0));
  EXPECT_EQ(l.getLiveAfter(p.op("w4")), counts(3, 0, 0));

  // Peaks: 7 VGPRs first at op 3, 2 SGPRs at op 7.
  EXPECT_EQ(l.getPeak(RegClass::VGPR).regs, 7);
  EXPECT_EQ(l.getPeak(RegClass::VGPR).index, 3u);
  EXPECT_EQ(l.getPeak(RegClass::VGPR).op, p.op("b"));
  EXPECT_EQ(l.getPeak(RegClass::SGPR).regs, 2);
  EXPECT_EQ(l.getPeak(RegClass::SGPR).op, p.op("t"));
  EXPECT_EQ(l.getPeak(RegClass::AGPR).regs, 0);
}

TEST(Liveness, StraightLineLiveSets) {
  ParsedAnalysisProgram p(kStraight);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  ProgramIndex index(p.program);
  Liveness l(index);
  // Into op 4: addr [1,5], a [2,4], b [3,5] (defined before, used at/after).
  SmallVector<Value> in = l.getLiveIn(4);
  EXPECT_EQ(in.size(), 3u);
  EXPECT_TRUE(llvm::is_contained(in, p.value("a")));
  // Out of op 4: addr and b; a dies at 4.
  SmallVector<Value> out = l.getLiveOut(4);
  EXPECT_EQ(out.size(), 2u);
  EXPECT_FALSE(llvm::is_contained(out, p.value("a")));
  EXPECT_TRUE(llvm::is_contained(out, p.value("b")));
  // Out of op 2 (a defined there): addr, a.
  EXPECT_EQ(l.getLiveOut(2).size(), 2u);

  // At op 3, by size: a (4), b (2), addr (1); the sizes add up to 7.
  SmallVector<LiveValue> at = l.getLiveValuesAt(3);
  ASSERT_EQ(at.size(), 3u);
  EXPECT_EQ(at[0].value, p.value("a"));
  EXPECT_EQ(at[0].size, 4);
  EXPECT_EQ(at[1].value, p.value("b"));
  EXPECT_EQ(at[2].value, p.value("addr"));
  EXPECT_EQ(at[2].range.start, 1u);
  EXPECT_EQ(at[2].range.end, 5u);
}

//===----------------------------------------------------------------------===//
// A loop with iter args and a value live across it
//===----------------------------------------------------------------------===//

const char *kLoop = R"(
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4> loc("srd")              // 0
  %c0 = waveasm.constant 0 : !waveasm.imm<0>                                         // 1
  %c1 = waveasm.constant 1 : !waveasm.imm<1>                                         // 2
  %c8 = waveasm.constant 8 : !waveasm.imm<8>                                         // 3
  %inv = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg loc("inv")          // 4
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4> loc("acc0") // 5
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg loc("i0")           // 6
  %i_end, %acc_end = waveasm.loop (%i = %i0, %acc = %acc0)                          // 7
      : (!waveasm.sreg, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>) {
    %x = waveasm.v_add_u32 %inv, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg loc("x") // 8
    %acc_n = waveasm.v_mfma_f32_16x16x16_f16 %x, %x, %acc
        : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("mfma") // 9
    %i_n, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc loc("i_n") // 10
    %more = waveasm.s_cmp_lt_u32 %i_n, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc // 11
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %acc_n) : !waveasm.sreg, !waveasm.vreg<4, 4> loc("cond") // 12
  } loc("loop")
  waveasm.buffer_store_dwordx4 %acc_end, %srd, %inv : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.vreg // 13
  waveasm.s_endpgm                                                                   // 14
)";

TEST(Liveness, LoopRanges) {
  ParsedAnalysisProgram p(kLoop);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  ProgramIndex index(p.program);
  Liveness l(index);
  ASSERT_EQ(index.getNumOps(), 15u);
  auto loop = cast<LoopOp>(p.op("loop"));
  Value i = loop.getBodyBlock().getArgument(0);
  Value acc = loop.getBodyBlock().getArgument(1);
  // Physical (precolored) values are tracked: srd is read by the store.
  expectRange(l, p.value("srd"), range(0, 13));
  // inv is used inside the loop (8): live to the terminator (12), and after
  // the loop by the store (13).
  expectRange(l, p.value("inv"), range(4, 13));
  // The init dies at the loop op.
  expectRange(l, p.value("acc0"), range(5, 7));
  // Block arguments: from the loop op to the terminator.
  expectRange(l, i, range(7, 12));
  expectRange(l, acc, range(7, 12));
  expectRange(l, p.value("x"), range(8, 9));
  // Yielded values are live until the condition.
  expectRange(l, p.value("mfma"), range(9, 12));
  expectRange(l, p.value("i_n"), range(10, 12));
  // Results start at the condition; i_end is unused, acc_end read at 13.
  expectRange(l, loop.getResult(0), range(12, 12));
  expectRange(l, loop.getResult(1), range(12, 13));
}

TEST(Liveness, LoopPressureCountsCarriedValuesOnce) {
  ParsedAnalysisProgram p(kLoop);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  ProgramIndex index(p.program);
  Liveness l(index);
  auto loop = cast<LoopOp>(p.op("loop"));
  // One register block each: {acc0, acc, mfma result, acc_end} (init dies at
  // the loop, tied accumulator, iter_arg, result) and {i0, i, i_n, i_end}.
  EXPECT_EQ(l.getGroup(*index.lookupValue(p.value("acc0"))),
            l.getGroup(*index.lookupValue(p.value("mfma"))));
  EXPECT_EQ(l.getGroup(*index.lookupValue(loop.getResult(1))),
            l.getGroup(*index.lookupValue(loop.getBodyBlock().getArgument(1))));
  EXPECT_EQ(l.getGroup(*index.lookupValue(p.value("i0"))),
            l.getGroup(*index.lookupValue(p.value("i_n"))));
  EXPECT_NE(l.getGroup(*index.lookupValue(p.value("x"))),
            l.getGroup(*index.lookupValue(p.value("inv"))));

  // VGPRs: inv [4,13] 1; acc block [5,13] 4; x [8,9] 1.
  //   p4 1, p5..p7 5, p8 p9 6, p10..p13 5, p14 0.
  int32_t vgprs[] = {0, 0, 0, 0, 1, 5, 5, 5, 6, 6, 5, 5, 5, 5, 0};
  // SGPRs: srd [0,13] 4; i block [6,12] 1.
  int32_t sgprs[] = {4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 4, 0};
  for (unsigned p = 0; p < 15; ++p) {
    EXPECT_EQ(l.getPressure(p).vgprs(), vgprs[p]) << "op " << p;
    EXPECT_EQ(l.getPressure(p).sgprs(), sgprs[p]) << "op " << p;
  }
  EXPECT_EQ(l.getPeak(RegClass::VGPR).regs, 6);
  EXPECT_EQ(l.getPeak(RegClass::VGPR).op, p.op("x"));
  EXPECT_EQ(l.getPeak(RegClass::SGPR).regs, 5);
  EXPECT_EQ(l.getPeak(RegClass::SGPR).op, p.op("i0"));
  // After the condition: inv and the acc block (to 13); srd; the i block
  // ends at 12.
  EXPECT_EQ(l.getLiveAfter(p.op("cond")), counts(5, 4, 0));

  // At the MFMA: the acc block (its member live here with the latest start
  // is the MFMA result), inv and x; 4 + 1 + 1 = 6.
  SmallVector<LiveValue> at = l.getLiveValuesAt(9);
  int64_t vgprTotal = 0;
  for (const LiveValue &v : at)
    if (v.regClass == RegClass::VGPR)
      vgprTotal += v.size;
  EXPECT_EQ(vgprTotal, 6);
  EXPECT_EQ(at[0].value, p.value("mfma"));
  EXPECT_EQ(at[0].range.start, 5u);
  EXPECT_EQ(at[0].range.end, 13u);

  // Live into the loop body's first op: inv, srd, both block arguments.
  SmallVector<Value> in = l.getLiveIn(8);
  EXPECT_EQ(in.size(), 4u);
  EXPECT_TRUE(llvm::is_contained(in, loop.getBodyBlock().getArgument(0)));
}

//===----------------------------------------------------------------------===//
// waveasm.if
//===----------------------------------------------------------------------===//

const char *kIf = R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>                                         // 0
  %c1 = waveasm.constant 1 : !waveasm.imm<1>                                         // 1
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg loc("s")             // 2
  %cond = waveasm.s_cmp_eq_u32 %s, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc // 3
  %v = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2> loc("v")       // 4
  %r = waveasm.if %cond : !waveasm.scc -> !waveasm.vreg<2, 2> {                      // 5
    %t = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg<2, 2> loc("t")     // 6
    waveasm.yield %t : !waveasm.vreg<2, 2>                                           // 7
  } else {
    %e = waveasm.v_add_u32 %v, %c1 : !waveasm.vreg<2, 2>, !waveasm.imm<1> -> !waveasm.vreg<2, 2> loc("e") // 8
    waveasm.yield %e : !waveasm.vreg<2, 2>                                           // 9
  } loc("if")
  waveasm.ds_write_b64 %r, %c0 : !waveasm.vreg<2, 2>, !waveasm.imm<0>                // 10
  waveasm.s_endpgm                                                                   // 11
)";

TEST(Liveness, IfRangesAndPressure) {
  ParsedAnalysisProgram p(kIf);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  ProgramIndex index(p.program);
  Liveness l(index);
  ASSERT_EQ(index.getNumOps(), 12u);
  expectRange(l, p.value("s"), range(2, 3));
  // v is read in the else region: live through the then region too.
  expectRange(l, p.value("v"), range(4, 8));
  expectRange(l, p.value("t"), range(6, 7));
  expectRange(l, p.value("e"), range(8, 9));
  // The result starts at the last yield (9), read at 10.
  expectRange(l, p.value("if"), range(9, 10));

  // t, e and the result share one 2-register block over [6, 10].
  // VGPRs: v [4,8] 2 + block [6,10] 2:
  //   p4 2, p5 2, p6 4, p7 4, p8 4, p9 2, p10 2, p11 0.
  int32_t vgprs[] = {0, 0, 0, 0, 2, 2, 4, 4, 4, 2, 2, 0};
  for (unsigned i = 0; i < 12; ++i)
    EXPECT_EQ(l.getPressure(i).vgprs(), vgprs[i]) << "op " << i;
  EXPECT_EQ(l.getPressure(2u).sgprs(), 1);
  EXPECT_EQ(l.getPressure(3u).sgprs(), 1);
  EXPECT_EQ(l.getPressure(4u).sgprs(), 0);
  EXPECT_EQ(l.getPeak(RegClass::VGPR).regs, 4);
  EXPECT_EQ(l.getPeak(RegClass::VGPR).op, p.op("t"));
}
