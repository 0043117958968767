//===- BlockedOccupancy.h - register masks over program points --*- C++ -*-===//
//
// VGPR compaction's occupancy (pipeline/opt/VGPRCompaction.cpp): OR a
// register mask into every point of an interval, and read the OR of the
// masks over an interval.
//
// The points are cut into blocks of kBlock. Per block, `full`: the masks
// added over the whole block, and `any`: the masks added anywhere in it;
// per point, `point`: the masks added over part of its block that cover the
// point. An add ORs its mask into `any` of every block it meets, into
// `full` of those it covers, and into `point` of its points in the (at most
// two) blocks it covers in part. A query ORs `any` of the blocks it covers,
// and `full` and `point` of its points of the blocks it covers in part.
// That is exactly the OR of the masks whose interval meets the query:
// - a mask meeting it at a point p of block b was added to `any` of b (read
//   when the query covers b), else to `full` of b (it covers b) or to
//   `point` of p (it covers b in part): both read when the query covers b
//   in part, as p is one of its points;
// - everything read is such a mask: `any` of a block the query covers holds
//   masks meeting that block; `full` of a block the query meets holds masks
//   covering it; `point` of a query's point holds masks covering the point.
//
// Cost: an interval of L points reads or writes at most 2 x kBlock point
// rows and L / kBlock + 2 block rows. Compaction places ranges only when
// the registers live at any one point stay below the input's peak, so its
// ranges' lengths add up to less than peak x points: a placement costs
// O(points x peak / kBlock + ranges x kBlock). The segment tree this
// replaced (a cover and two paths to the root, about 30 rows a range)
// cost more on both programs measured: a 300-op loop's ranges are short
// (median 14 points; the few loop-carried ones, up to 335, cross whole
// blocks), and so are a 20k-instruction program's (median 14, 90% within
// 73). kBlock 16 against 8 and 32: the least on the 20k program, within
// 0.5% of 8 on the loop.
//
// `add` and `query` take the mask width as a template argument when it is
// known (`W` > 0 words): the rows are then ORed in registers, without a
// counted loop; `W` = 0 reads the width at run time.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_BLOCKEDOCCUPANCY_H
#define WAVEASM_PIPELINE_BLOCKEDOCCUPANCY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace waveasm {

class BlockedOccupancy {
public:
  static constexpr int64_t kBlock = 16;

  BlockedOccupancy(int64_t points, unsigned words)
      : points(std::max<int64_t>(points, 1)),
        blocks(static_cast<int64_t>(llvm::divideCeil(this->points, kBlock))),
        words(words), pointRows(this->points * words, 0),
        fullRows(blocks * words, 0), anyRows(blocks * words, 0) {}

  /// Forgets every mask.
  void clear() {
    std::fill(pointRows.begin(), pointRows.end(), 0);
    std::fill(fullRows.begin(), fullRows.end(), 0);
    std::fill(anyRows.begin(), anyRows.end(), 0);
  }

  /// ORs `mask` into every point of [start, end] (clipped to the points).
  template <unsigned W = 0>
  void add(int64_t start, int64_t end, llvm::ArrayRef<uint64_t> mask) {
    if (!clip(start, end))
      return;
    if constexpr (W == 0) {
      addRows<0>(start, end, mask.data());
    } else {
      // A copy the stores into the rows cannot alias: kept in registers.
      uint64_t bits[W];
      std::copy_n(mask.data(), W, bits);
      addRows<W>(start, end, bits);
    }
  }

  /// ORs into `out` every mask added at a point of [start, end].
  template <unsigned W = 0>
  void query(int64_t start, int64_t end,
             llvm::MutableArrayRef<uint64_t> out) const {
    if (!clip(start, end))
      return;
    if constexpr (W == 0) {
      queryRows<0>(start, end, out.data());
    } else {
      // Accumulated in registers, written once.
      uint64_t bits[W];
      std::copy_n(out.data(), W, bits);
      queryRows<W>(start, end, bits);
      std::copy_n(bits, W, out.data());
    }
  }

private:
  int64_t points, blocks;
  unsigned words;
  std::vector<uint64_t> pointRows, fullRows, anyRows;

  bool clip(int64_t &start, int64_t &end) const {
    start = std::max<int64_t>(start, 0);
    end = std::min(end, points - 1);
    return start <= end;
  }

  /// add and query on a clipped interval, W words a row (0: `words`).
  /// The blocks strictly between the first and the last are covered: one
  /// loop over contiguous rows.
  template <unsigned W>
  void addRows(int64_t start, int64_t end, const uint64_t *mask) {
    const unsigned n = W ? W : words;
    auto partOrWhole = [&](int64_t block, int64_t from, int64_t to) {
      orRow<W>(&anyRows[block * n], mask, n);
      if (covers(block, from, to)) {
        orRow<W>(&fullRows[block * n], mask, n);
        return;
      }
      for (int64_t p = from; p <= to; ++p)
        orRow<W>(&pointRows[p * n], mask, n);
    };
    int64_t first = start / kBlock, last = end / kBlock;
    if (first == last)
      return partOrWhole(first, start, end);
    partOrWhole(first, start, first * kBlock + kBlock - 1);
    for (int64_t block = first + 1; block < last; ++block) {
      orRow<W>(&anyRows[block * n], mask, n);
      orRow<W>(&fullRows[block * n], mask, n);
    }
    partOrWhole(last, last * kBlock, end);
  }
  template <unsigned W>
  void queryRows(int64_t start, int64_t end, uint64_t *out) const {
    const unsigned n = W ? W : words;
    auto partOrWhole = [&](int64_t block, int64_t from, int64_t to) {
      if (covers(block, from, to)) {
        orRow<W>(out, &anyRows[block * n], n);
        return;
      }
      orRow<W>(out, &fullRows[block * n], n);
      for (int64_t p = from; p <= to; ++p)
        orRow<W>(out, &pointRows[p * n], n);
    };
    int64_t first = start / kBlock, last = end / kBlock;
    if (first == last)
      return partOrWhole(first, start, end);
    partOrWhole(first, start, first * kBlock + kBlock - 1);
    for (int64_t block = first + 1; block < last; ++block)
      orRow<W>(out, &anyRows[block * n], n);
    partOrWhole(last, last * kBlock, end);
  }

  /// Whether [from, to], within `block`, is the whole block (the last
  /// block may be short).
  bool covers(int64_t block, int64_t from, int64_t to) const {
    return from == block * kBlock &&
           to == std::min(block * kBlock + kBlock, points) - 1;
  }

  template <unsigned W>
  static void orRow(uint64_t *into, const uint64_t *from, unsigned n) {
    for (unsigned w = 0; w < (W ? W : n); ++w)
      into[w] |= from[w];
  }
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_BLOCKEDOCCUPANCY_H
