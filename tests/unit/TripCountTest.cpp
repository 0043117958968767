//===- TripCountTest.cpp - loop trip counts from the loop control ---------===//
//
// Exact counts for the loop shapes analysis/TripCount.h infers (the
// induction variable with other uses, the allocator's copy into the yield,
// the compare on k + c, the bound on the left, a second counter) and the
// loops it must refuse (count 1, source "default").
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "analysis/ExitCompare.h"
#include "analysis/TripCount.h"

#include <gtest/gtest.h>

using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

/// A loop over `(%k = %k0, %n = %n0)` (both SGPRs: %k0 = 0, %n0 = 8), whose
/// body is `body` and whose condition is `condition` with `yields` as its
/// iter_args, and the loop's attribute dictionary `attrs`. Constants %c0 ..
/// %c32, SGPRs %s1 and %s32 holding 1 and 32 and an unknown SGPR %s are in
/// scope.
TripCount tripCountOf(llvm::StringRef body, llvm::StringRef condition,
                      llvm::StringRef yields,
                      llvm::StringRef k0 = "waveasm.s_mov_b32 %c0 : "
                                           "!waveasm.imm<0> -> !waveasm.sreg",
                      llvm::StringRef attrs = "") {
  std::string text = (llvm::Twine(R"(
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c2 = waveasm.constant 2 : !waveasm.imm<2>
    %c3 = waveasm.constant 3 : !waveasm.imm<3>
    %c4 = waveasm.constant 4 : !waveasm.imm<4>
    %c8 = waveasm.constant 8 : !waveasm.imm<8>
    %c32 = waveasm.constant 32 : !waveasm.imm<32>
    %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
    %s1 = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
    %s32 = waveasm.s_mov_b32 %c32 : !waveasm.imm<32> -> !waveasm.sreg
    %k0 = )") + k0 + R"(
    %n0 = waveasm.s_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.sreg
    %r:2 = waveasm.loop (%k = %k0, %n = %n0)
        : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg) {
      )" + body + R"(
      %more = )" + condition +
                      R"(
      waveasm.condition %more : !waveasm.scc iter_args()" +
                      yields + R"() : !waveasm.sreg, !waveasm.sreg
    } )" + attrs + R"( loc("loop")
  )")
                         .str();
  ParsedAnalysisProgram p(text);
  EXPECT_TRUE(p.module) << p.t.diagnostics;
  if (!p.module)
    return {};
  return getTripCount(mlir::cast<LoopOp>(p.op("loop")));
}

// k + 1 and k + 3 from the induction variable (the four-buffer mxfp4 loop's
// control), and n counting down.
const char *kBody = R"(
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %kp:2 = waveasm.s_add_u32 %k, %c3 : !waveasm.sreg, !waveasm.imm<3> -> !waveasm.sreg, !waveasm.scc
      %sh:2 = waveasm.s_lshl_b32 %kp#0, %c3 : !waveasm.sreg, !waveasm.imm<3> -> !waveasm.sreg, !waveasm.scc
      %nn:2 = waveasm.s_sub_u32 %n, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %copy = waveasm.s_mov_b32 %kn#0 : !waveasm.sreg -> !waveasm.sreg
)";

TripCount inferred(int64_t count) { return {count, TripCountSource::Inferred}; }

void expectTrips(TripCount got, TripCount want) {
  EXPECT_EQ(got.count, want.count);
  EXPECT_EQ(got.source, want.source);
}

const TripCount kRefused = {1, TripCountSource::Default};

const char *kInit0 = "waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg";

} // namespace

TEST(TripCount, InductionVariableWithOtherUses) {
  // k_next = 1 .. 32 and the body runs again while k_next < 32: 32 trips,
  // though k also feeds k + 3 (the old rule took only k_next as a use).
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_lt_u32 %kn#0, %c32 : !waveasm.sreg, "
                          "!waveasm.imm<32> -> !waveasm.scc",
                          "%kn#0, %nn#0"),
              inferred(32));
  // The yield is the allocator's copy of k_next (it cannot tie k_next to k
  // while k + 3 still reads k): still 32.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_lt_u32 %kn#0, %c32 : !waveasm.sreg, "
                          "!waveasm.imm<32> -> !waveasm.scc",
                          "%copy, %nn#0"),
              inferred(32));
}

TEST(TripCount, CompareOnAnOffsetOfTheCounter) {
  // k + 3 < 32 holds for k = 0 .. 28: 30 trips.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_lt_u32 %kp#0, %c32 : !waveasm.sreg, "
                          "!waveasm.imm<32> -> !waveasm.scc",
                          "%kn#0, %nn#0"),
              inferred(30));
  // The bound on the left (an SGPR copy of 32): 32 > k_next is
  // k_next < 32.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_gt_u32 %s32, %kn#0 : !waveasm.sreg, "
                          "!waveasm.sreg -> !waveasm.scc",
                          "%kn#0, %nn#0"),
              inferred(32));
  // An add with the constant first, and a start of 3: in iteration j,
  // 1 + k = 4 + j, and the body runs again while that is below 32: for
  // j = 0 .. 27, so 29 trips.
  expectTrips(tripCountOf(R"(
      %kn:2 = waveasm.s_add_u32 %s1, %k : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
      %nn:2 = waveasm.s_sub_u32 %n, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
)",
                          "waveasm.s_cmp_lt_u32 %kn#0, %c32 : !waveasm.sreg, "
                          "!waveasm.imm<32> -> !waveasm.scc",
                          "%kn#0, %nn#0",
                          "waveasm.s_mov_b32 %c3 : !waveasm.imm<3> -> "
                          "!waveasm.sreg"),
              inferred(29));
}

TEST(TripCount, SecondCounterControlsTheExit) {
  // n = 8, 7, ... and the body runs again while n - 1 != 0: 8 trips,
  // whatever k does.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_ne_u32 %nn#0, %c0 : !waveasm.sreg, "
                          "!waveasm.imm<0> -> !waveasm.scc",
                          "%kn#0, %nn#0"),
              inferred(8));
  // Two counters compared with each other: k_next < n_next is
  // j + 1 < 7 - j, true for j = 0 .. 2, false for j = 3: 4 trips.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_lt_i32 %kn#0, %nn#0 : !waveasm.sreg, "
                          "!waveasm.sreg -> !waveasm.scc",
                          "%kn#0, %nn#0"),
              inferred(4));
}

TEST(TripCount, RefusesWhatItCannotProve) {
  const char *lt32 = "waveasm.s_cmp_lt_u32 %kn#0, %c32 : !waveasm.sreg, "
                     "!waveasm.imm<32> -> !waveasm.scc";
  // The step is an unknown register.
  expectTrips(tripCountOf(R"(
      %kn:2 = waveasm.s_add_u32 %k, %s : !waveasm.sreg, !waveasm.psreg<2> -> !waveasm.sreg, !waveasm.scc
)",
                          lt32, "%kn#0, %n"),
              kRefused);
  // The init is an unknown register.
  expectTrips(tripCountOf(kBody, lt32, "%kn#0, %nn#0",
                          "waveasm.s_mov_b32 %s : !waveasm.psreg<2> -> "
                          "!waveasm.sreg"),
              kRefused);
  // k is not an induction variable: it takes n's value (a rotation).
  expectTrips(tripCountOf(kBody, lt32, "%nn#0, %kn#0"), kRefused);
  // Doubling is not affine with coefficient 1.
  expectTrips(tripCountOf(R"(
      %kn:2 = waveasm.s_add_u32 %k, %k : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
)",
                          lt32, "%kn#0, %n"),
              kRefused);
  // 32 - k counts down, not up: coefficient -1 is not followed.
  expectTrips(tripCountOf(R"(
      %kn:2 = waveasm.s_sub_u32 %s32, %k : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
)",
                          lt32, "%kn#0, %n"),
              kRefused);
  // A shift of the counter is compared, not the counter.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_lt_u32 %sh#0, %c32 : !waveasm.sreg, "
                          "!waveasm.imm<32> -> !waveasm.scc",
                          "%kn#0, %nn#0"),
              kRefused);
  // The bound is a register.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_lt_u32 %kn#0, %s : !waveasm.sreg, "
                          "!waveasm.psreg<2> -> !waveasm.scc",
                          "%kn#0, %nn#0"),
              kRefused);
  // n never changes and n != 0 always holds: no count.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_ne_u32 %n, %c0 : !waveasm.sreg, "
                          "!waveasm.imm<0> -> !waveasm.scc",
                          "%kn#0, %n"),
              kRefused);
  // An invariant compare that fails at once: one trip, inferred.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_eq_u32 %n, %c0 : !waveasm.sreg, "
                          "!waveasm.imm<0> -> !waveasm.scc",
                          "%kn#0, %n"),
              inferred(1));
}

TEST(TripCount, CountedLoopShapes) {
  // k_next = 1, 2, 3, 4 and the body runs again while k_next < 4: 4 trips.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_lt_u32 %kn#0, %c4 : !waveasm.sreg, "
                          "!waveasm.imm<4> -> !waveasm.scc",
                          "%kn#0, %n"),
              inferred(4));
  // Comparing the old value: k = 0, 1, 2, 3, 4 (4 < 4 fails): 5 trips.
  expectTrips(tripCountOf(kBody,
                          "waveasm.s_cmp_lt_u32 %k, %c4 : !waveasm.sreg, "
                          "!waveasm.imm<4> -> !waveasm.scc",
                          "%kn#0, %n"),
              inferred(5));
  // Counting down by 2 from 8, signed, while k_next > 0: 6, 4, 2, 0: 4 trips.
  expectTrips(tripCountOf(R"(
      %kn:2 = waveasm.s_sub_i32 %k, %c2 : !waveasm.sreg, !waveasm.imm<2> -> !waveasm.sreg, !waveasm.scc
)",
                          "waveasm.s_cmp_gt_i32 %kn#0, %c0 : !waveasm.sreg, "
                          "!waveasm.imm<0> -> !waveasm.scc",
                          "%kn#0, %n",
                          "waveasm.s_mov_b32 %c8 : !waveasm.imm<8> -> "
                          "!waveasm.sreg"),
              inferred(4));
  // Step 3 never equals 8: no count within the search limit.
  expectTrips(tripCountOf(R"(
      %kn:2 = waveasm.s_add_u32 %k, %c3 : !waveasm.sreg, !waveasm.imm<3> -> !waveasm.sreg, !waveasm.scc
)",
                          "waveasm.s_cmp_ne_u32 %kn#0, %c8 : !waveasm.sreg, "
                          "!waveasm.imm<8> -> !waveasm.scc",
                          "%kn#0, %n"),
              kRefused);
  // The attribute wins, over a count that cannot be inferred too.
  TripCount t = tripCountOf(kBody,
                            "waveasm.s_cmp_lt_u32 %kn#0, %s : !waveasm.sreg, "
                            "!waveasm.psreg<2> -> !waveasm.scc",
                            "%kn#0, %nn#0", kInit0, "{trip_count = 12 : i64}");
  expectTrips(t, {12, TripCountSource::Attribute});
}

TEST(TripCount, ExitCompareOperands) {
  // The compare the count is inferred from, as rewrites that move the
  // bound read it: k + 1 (through a copy) against 20 - 2 = 18, k counting
  // by 2 from 4; the bound a constant on the right.
  ParsedAnalysisProgram p(R"(
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c2 = waveasm.constant 2 : !waveasm.imm<2>
    %c4 = waveasm.constant 4 : !waveasm.imm<4>
    %c20 = waveasm.constant 20 : !waveasm.imm<20>
    %k0 = waveasm.s_mov_b32 %c4 : !waveasm.imm<4> -> !waveasm.sreg
    %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
      %kn:2 = waveasm.s_add_u32 %k, %c2 : !waveasm.sreg, !waveasm.imm<2> -> !waveasm.sreg, !waveasm.scc
      %k1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %copy = waveasm.s_mov_b32 %k1#0 : !waveasm.sreg -> !waveasm.sreg
      %s20 = waveasm.s_mov_b32 %c20 : !waveasm.imm<20> -> !waveasm.sreg
      %b:2 = waveasm.s_sub_u32 %s20, %c2 : !waveasm.sreg, !waveasm.imm<2> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %copy, %b#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc loc("cmp")
      waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
    } loc("loop")
  )");
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  auto loop = mlir::cast<LoopOp>(p.op("loop"));
  std::optional<ExitCompare> exit = getExitCompare(loop);
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->compare, p.op("cmp"));
  EXPECT_EQ(exit->lhs.arg, 0);
  EXPECT_EQ(exit->lhs.offset, 1u);
  EXPECT_EQ(exit->lhs.init, 4u);
  EXPECT_EQ(exit->lhs.step, 2u);
  EXPECT_TRUE(exit->lhs.varies());
  EXPECT_EQ(exit->lhs.at(3), 11u);
  EXPECT_EQ(exit->rhs.arg, -1);
  EXPECT_EQ(exit->rhs.offset, 18u);
  EXPECT_FALSE(exit->rhs.varies());
  // Iterations 0..6 compare 5, 7, ..., 17 < 18; iteration 7's 19 exits.
  EXPECT_EQ(getTripCount(loop).count, 8);
  // A bound in a register the analysis cannot read: no exit compare.
  ParsedAnalysisProgram unknown(R"(
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %n = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
    %k0 = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
    %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.psreg<2> -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
    } loc("loop")
  )");
  ASSERT_TRUE(unknown.module) << unknown.t.diagnostics;
  EXPECT_FALSE(getExitCompare(mlir::cast<LoopOp>(unknown.op("loop"))));
}
