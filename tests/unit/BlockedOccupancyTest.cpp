//===- BlockedOccupancyTest.cpp - compaction's occupancy ------------------===//
//
// pipeline/BlockedOccupancy.h keeps masks per block of points (added over
// the whole block, added anywhere in it) and per point (added over part of
// its block). Every query must equal the OR of the masks added (since the
// last clear) at the points it covers, computed point by point: random
// intervals (within one block, across several, ending in a short last
// block, reaching past both ends) and masks, every mask width the
// compactor uses (fixed 1..4 words and a run-time width), several clears
// per occupancy.
//
//===----------------------------------------------------------------------===//

#include "pipeline/BlockedOccupancy.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using waveasm::BlockedOccupancy;

namespace {

template <unsigned W>
void checkRandomOccupancies(unsigned words, unsigned seed) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 40; ++trial) {
    int64_t points = 1 + static_cast<int64_t>(rng() % 300);
    BlockedOccupancy occupancy(points, words);
    for (int round = 0; round < 4; ++round) {
      if (round > 0)
        occupancy.clear();
      // The reference: one mask per point.
      std::vector<uint64_t> reference(points * words, 0);
      for (int step = 0; step < 200; ++step) {
        // Intervals reach past both ends now and then (the occupancy clips).
        int64_t a = static_cast<int64_t>(rng() % (points + 4)) - 2;
        int64_t b = a + static_cast<int64_t>(rng() % (points / 2 + 3)) - 1;
        if (rng() % 3 == 0) {
          std::vector<uint64_t> mask(words);
          // Sparse masks, so that a missing bit is not hidden by others.
          for (uint64_t &word : mask)
            word = uint64_t(1) << (rng() % 64);
          occupancy.add<W>(a, b, mask);
          for (int64_t p = std::max<int64_t>(a, 0);
               p <= std::min(b, points - 1); ++p)
            for (unsigned w = 0; w < words; ++w)
              reference[p * words + w] |= mask[w];
          continue;
        }
        std::vector<uint64_t> expected(words, 0), got(words, 0);
        for (int64_t p = std::max<int64_t>(a, 0); p <= std::min(b, points - 1);
             ++p)
          for (unsigned w = 0; w < words; ++w)
            expected[w] |= reference[p * words + w];
        occupancy.query<W>(a, b, got);
        ASSERT_EQ(got, expected) << "points " << points << ", round " << round
                                 << ", query [" << a << ", " << b << "]";
      }
    }
  }
}

TEST(BlockedOccupancy, QueriesEqualPointwiseOrFixedWidths) {
  checkRandomOccupancies<1>(1, 1);
  checkRandomOccupancies<2>(2, 2);
  checkRandomOccupancies<3>(3, 3);
  checkRandomOccupancies<4>(4, 4);
}

TEST(BlockedOccupancy, QueriesEqualPointwiseOrRunTimeWidth) {
  checkRandomOccupancies<0>(5, 5);
  checkRandomOccupancies<0>(8, 6);
}

TEST(BlockedOccupancy, ClearForgetsEveryMask) {
  BlockedOccupancy occupancy(100, 2);
  std::vector<uint64_t> all = {~uint64_t(0), ~uint64_t(0)};
  occupancy.add<2>(0, 99, all);
  occupancy.clear();
  std::vector<uint64_t> out(2, 0);
  occupancy.query<2>(0, 99, out);
  EXPECT_EQ(out, std::vector<uint64_t>(2, 0));
  // Rows written again after the clear hold only the new mask.
  std::vector<uint64_t> one = {1, 0};
  occupancy.add<2>(10, 20, one);
  occupancy.query<2>(0, 99, out);
  EXPECT_EQ(out, one);
}

} // namespace
