//===- LifetimeHolesTest.cpp - which gaps of a tie group are lent ---------===//
//
// pipeline/LifetimeHoles.h: occupancies in half-points (2p: the read phase
// of op p, 2p + 1: its write phase) to the program points a group holds.
//
//===----------------------------------------------------------------------===//

#include "pipeline/LifetimeHoles.h"

#include "gtest/gtest.h"

using namespace waveasm::regalloc;

namespace {

std::vector<std::pair<int64_t, int64_t>> held(const IntervalSet &occupancy,
                                              llvm::ArrayRef<int64_t> hold) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const Interval &points : pointsHeldBy(occupancy, hold))
    out.push_back({points.start, points.end});
  return out;
}

using Points = std::vector<std::pair<int64_t, int64_t>>;

TEST(LifetimeHoles, GapAfterAReadIsLent) {
  // A block argument defined at op 2, last read at op 5; the next value
  // defined at op 9, read by the condition at op 12.
  EXPECT_EQ(held({{5, 10}, {19, 24}}, {}), (Points{{2, 5}, {9, 12}}));
}

TEST(LifetimeHoles, GapAfterAnUnreadValueIsHeld) {
  // An unread block argument ends where it starts, at its write phase
  // (odd): a load may still land in its registers.
  EXPECT_EQ(held({{5, 5}, {19, 24}}, {}), (Points{{2, 12}}));
}

TEST(LifetimeHoles, GapAfterAnUnreadLoopResultIsHeld) {
  // A loop result nobody reads starts and ends at a read phase (even), like
  // a read: the group names it.
  EXPECT_EQ(held({{3, 10}, {20, 20}, {31, 40}}, {}),
            (Points{{1, 5}, {10, 10}, {15, 20}}));
  EXPECT_EQ(held({{3, 10}, {20, 20}, {31, 40}}, {20}),
            (Points{{1, 5}, {10, 20}}));
}

TEST(LifetimeHoles, GapWithoutAWholePointIsHeld) {
  // Read at op 5, the next value defined at op 6: no op between them. The
  // scan never gives a value defined at op 5 the registers op 5 reads, nor
  // one last read at op 6 the registers op 6 writes.
  EXPECT_EQ(held({{5, 10}, {13, 16}}, {}), (Points{{2, 8}}));
  // One op between them (op 6): lent.
  EXPECT_EQ(held({{5, 10}, {15, 16}}, {}), (Points{{2, 5}, {7, 8}}));
}

TEST(LifetimeHoles, ShareAPoint) {
  IntervalSet a = {{2, 5}, {9, 12}};
  EXPECT_FALSE(intersects(a, IntervalSet{{6, 8}}));
  EXPECT_TRUE(intersects(a, IntervalSet{{6, 9}}));
  EXPECT_TRUE(intersects(a, IntervalSet{{0, 2}}));
  EXPECT_FALSE(intersects(a, IntervalSet{{13, 20}}));
  EXPECT_FALSE(intersects(IntervalSet{{0, 1}, {7, 7}}, a));
  EXPECT_TRUE(intersects(IntervalSet{{0, 1}, {12, 12}}, a));
}

} // namespace
