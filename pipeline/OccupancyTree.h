//===- OccupancyTree.h - register masks over program points -----*- C++ -*-===//
//
// VGPR compaction's occupancy (pipeline/opt/VGPRCompaction.cpp): OR a
// register mask into every point of an interval, and read the OR of the
// masks over an interval, both in O(log points * words).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OCCUPANCYTREE_H
#define WAVEASM_PIPELINE_OCCUPANCYTREE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace waveasm {

/// A bottom-up segment tree over a power-of-two number of leaves, without
/// recursion (the recursive form was most of compaction's time).
/// `full[node]`: masks added over the node's whole range; `sub[node]`: masks
/// added anywhere in it. An added interval marks its canonical cover nodes
/// in both, and `sub` of every ancestor of its first and last point. A query
/// ORs `sub` of its own cover nodes and `full` of every ancestor of its
/// first and last point. That is exactly the OR of the masks whose interval
/// meets the query: two tree nodes meet only when one contains the other; a
/// cover node of the added interval inside a query's cover node is in that
/// node's `sub`; one strictly containing a query's cover node also contains
/// a point outside the query next to one inside, so it contains the query's
/// first or last point and its `full` is read; and every node read contains
/// a point of both intervals.
///
/// Rows are zeroed when first written, not up front: a node's row counts
/// only when its stamp is the tree's epoch. A 20k-instruction program has
/// 64k nodes of 2 x 4 words (4 MB per placement, most never touched: a
/// placement that cannot beat the input's peak stops early), and `clear()`
/// forgets every mask by moving to the next epoch.
///
/// `add` and `query` take the mask width as a template argument when it is
/// known (`W` > 0 words): the compiler then ORs a row in a few vector
/// instructions instead of a counted loop; `W` = 0 reads it at run time.
class OccupancyTree {
public:
  OccupancyTree(int64_t points, unsigned words)
      : points(std::max<int64_t>(points, 1)),
        leaves(static_cast<int64_t>(llvm::PowerOf2Ceil(this->points))),
        words(words), rows(new uint64_t[2 * leaves * 2 * words]),
        stamps(2 * leaves, 0) {}

  /// Forgets every mask.
  void clear() {
    if (++epoch == 0) { // wrapped: every stamp could match again
      std::fill(stamps.begin(), stamps.end(), 0);
      epoch = 1;
    }
  }

  /// ORs `mask` into every point of [start, end] (clipped to the points).
  template <unsigned W = 0>
  void add(int64_t start, int64_t end, llvm::ArrayRef<uint64_t> mask) {
    if (!clip(start, end))
      return;
    for (int64_t lo = start + leaves, hi = end + leaves + 1; lo < hi;
         lo >>= 1, hi >>= 1) {
      if (lo & 1)
        orInto<W>(lo++, mask, /*full=*/true);
      if (hi & 1)
        orInto<W>(--hi, mask, /*full=*/true);
    }
    forAncestors(start, end,
                 [&](int64_t node) { orInto<W>(node, mask, /*full=*/false); });
  }

  /// ORs into `out` every mask added at a point of [start, end].
  template <unsigned W = 0>
  void query(int64_t start, int64_t end,
             llvm::MutableArrayRef<uint64_t> out) const {
    if (!clip(start, end))
      return;
    for (int64_t lo = start + leaves, hi = end + leaves + 1; lo < hi;
         lo >>= 1, hi >>= 1) {
      if (lo & 1)
        orFrom<W>(lo++, /*full=*/false, out);
      if (hi & 1)
        orFrom<W>(--hi, /*full=*/false, out);
    }
    forAncestors(start, end,
                 [&](int64_t node) { orFrom<W>(node, /*full=*/true, out); });
  }

private:
  int64_t points, leaves;
  unsigned words;
  /// Per node: `full` (words), then `sub` (words); valid where stamped.
  std::unique_ptr<uint64_t[]> rows;
  std::vector<uint32_t> stamps;
  uint32_t epoch = 1;

  /// Calls `fn` once on every proper ancestor of the leaves of `start` and
  /// `end`. The two paths to the root meet after about log2(end - start)
  /// steps and are walked once from there: most ranges are short, and
  /// walking both paths whole (each shared node twice, which ORs the same
  /// bits again) was half of the tree's work.
  template <typename Fn>
  void forAncestors(int64_t start, int64_t end, Fn fn) const {
    int64_t lo = (start + leaves) >> 1, hi = (end + leaves) >> 1;
    for (; lo != hi; lo >>= 1, hi >>= 1) {
      fn(lo);
      fn(hi);
    }
    for (; lo >= 1; lo >>= 1)
      fn(lo);
  }

  bool clip(int64_t &start, int64_t &end) const {
    start = std::max<int64_t>(start, 0);
    end = std::min(end, points - 1);
    return start <= end;
  }

  template <unsigned W> unsigned rowWords() const { return W ? W : words; }

  /// ORs `mask` into `sub` of `node`, and into `full` too when asked.
  template <unsigned W>
  void orInto(int64_t node, llvm::ArrayRef<uint64_t> mask, bool full) {
    uint64_t *row = rows.get() + node * 2 * rowWords<W>();
    if (stamps[node] != epoch) {
      std::fill(row, row + 2 * rowWords<W>(), 0);
      stamps[node] = epoch;
    }
    uint64_t *sub = row + rowWords<W>();
    for (unsigned w = 0; w < rowWords<W>(); ++w)
      sub[w] |= mask[w];
    if (full)
      for (unsigned w = 0; w < rowWords<W>(); ++w)
        row[w] |= mask[w];
  }
  template <unsigned W>
  void orFrom(int64_t node, bool full,
              llvm::MutableArrayRef<uint64_t> out) const {
    if (stamps[node] != epoch)
      return;
    const uint64_t *row =
        rows.get() + node * 2 * rowWords<W>() + (full ? 0 : rowWords<W>());
    for (unsigned w = 0; w < rowWords<W>(); ++w)
      out[w] |= row[w];
  }
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OCCUPANCYTREE_H
