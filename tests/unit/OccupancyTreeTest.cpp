//===- OccupancyTreeTest.cpp - compaction's occupancy tree ----------------===//
//
// pipeline/OccupancyTree.h zeroes a node's row when first written in an
// epoch and `clear()` moves to the next epoch instead of zeroing the tree.
// Every query must equal the OR of the masks added (since the last clear)
// at the points it covers, computed point by point: random intervals and
// masks, every mask width the compactor uses (fixed 1..4 words and a
// run-time width), several clears per tree (the earlier epochs' rows are
// still in memory, so a row read or extended without its stamp shows).
//
//===----------------------------------------------------------------------===//

#include "pipeline/OccupancyTree.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using waveasm::OccupancyTree;

namespace {

template <unsigned W> void checkRandomTrees(unsigned words, unsigned seed) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 40; ++trial) {
    int64_t points = 1 + static_cast<int64_t>(rng() % 300);
    OccupancyTree tree(points, words);
    for (int epoch = 0; epoch < 4; ++epoch) {
      if (epoch > 0)
        tree.clear();
      // The reference: one mask per point.
      std::vector<uint64_t> reference(points * words, 0);
      for (int step = 0; step < 200; ++step) {
        // Intervals reach past both ends now and then (the tree clips).
        int64_t a = static_cast<int64_t>(rng() % (points + 4)) - 2;
        int64_t b = a + static_cast<int64_t>(rng() % (points / 2 + 3)) - 1;
        if (rng() % 3 == 0) {
          std::vector<uint64_t> mask(words);
          // Sparse masks, so that a missing bit is not hidden by others.
          for (uint64_t &word : mask)
            word = uint64_t(1) << (rng() % 64);
          tree.add<W>(a, b, mask);
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
        tree.query<W>(a, b, got);
        ASSERT_EQ(got, expected) << "points " << points << ", epoch " << epoch
                                 << ", query [" << a << ", " << b << "]";
      }
    }
  }
}

TEST(OccupancyTree, QueriesEqualPointwiseOrFixedWidths) {
  checkRandomTrees<1>(1, 1);
  checkRandomTrees<2>(2, 2);
  checkRandomTrees<3>(3, 3);
  checkRandomTrees<4>(4, 4);
}

TEST(OccupancyTree, QueriesEqualPointwiseOrRunTimeWidth) {
  checkRandomTrees<0>(5, 5);
  checkRandomTrees<0>(8, 6);
}

TEST(OccupancyTree, ClearForgetsEveryMask) {
  OccupancyTree tree(100, 2);
  std::vector<uint64_t> all = {~uint64_t(0), ~uint64_t(0)};
  tree.add<2>(0, 99, all);
  tree.clear();
  std::vector<uint64_t> out(2, 0);
  tree.query<2>(0, 99, out);
  EXPECT_EQ(out, std::vector<uint64_t>(2, 0));
  // A node written again after the clear holds only the new mask.
  std::vector<uint64_t> one = {1, 0};
  tree.add<2>(10, 20, one);
  tree.query<2>(0, 99, out);
  EXPECT_EQ(out, one);
}

} // namespace
