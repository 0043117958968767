//===- CoAccessGraph.h - which ops of a block touch the same data -*- C++ -*-//
//
// Seed 002's co-access graph W in our domain: the ops of one block are the
// nodes; two ops are joined when they touch the same data, so an order that
// keeps joined ops close keeps that data live (in registers) or hot (in a
// cache line) for a short time:
//  - a value defined in the block joins its definition and every op using
//    it (nested users count as their ancestor in the block). A value shared
//    by k ops is a hyperedge, expanded to a clique whose pairs weigh
//    1/(k-1), so each op's total weight from one value is 1 whatever its
//    fan-out (a descriptor read by 40 loads does not drown the rest). With
//    k = 2 the edge is the value's live range: |pos(def) - pos(use)|.
//    Values from outside the block (loop invariants, block arguments) are
//    live across the whole block in any order and join nothing;
//  - two memory accesses of the same bytes (analysis/MemoryAlias.h: same
//    base values, overlapping constant ranges, or MustAlias for ops with
//    regions) weigh 1; of the same region (same base values, offsets in one
//    128-byte line, CDNA's L2 line) 0.5.
// Edges are merged (weights summed) and sorted, so the graph is a pure
// function of the block.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_COACCESSGRAPH_H
#define WAVEASM_ANALYSIS_COACCESSGRAPH_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace waveasm {

struct CoAccessEdge {
  unsigned a, b; // a < b
  double weight;
};

struct CoAccessWeights {
  double sharedValue = 1.0; // per value, split over its clique
  double sameBytes = 1.0;
  double sameRegion = 0.5;
  int64_t regionBytes = 128;
};

class CoAccessGraph {
public:
  /// A graph of `size` nodes; duplicate and reversed edges are merged,
  /// self loops and non-positive weights dropped.
  CoAccessGraph(unsigned size, llvm::ArrayRef<CoAccessEdge> edges);

  unsigned size() const { return degrees.size(); }
  /// Merged edges, sorted by (a, b).
  llvm::ArrayRef<CoAccessEdge> getEdges() const { return edges; }
  /// (neighbour, weight), by neighbour.
  llvm::ArrayRef<std::pair<unsigned, double>> neighbors(unsigned i) const {
    return llvm::ArrayRef(adjacency).slice(
        adjacencyBegin[i], adjacencyBegin[i + 1] - adjacencyBegin[i]);
  }
  /// Sum of the weights of i's edges.
  double degree(unsigned i) const { return degrees[i]; }
  /// Sum of every edge's weight (m in the modularity formula).
  double totalWeight() const { return total; }

private:
  std::vector<CoAccessEdge> edges;
  /// Every node's neighbours, node after node (neighbors(i) is
  /// adjacency[adjacencyBegin[i] .. adjacencyBegin[i + 1])).
  std::vector<std::pair<unsigned, double>> adjacency;
  std::vector<unsigned> adjacencyBegin;
  std::vector<double> degrees;
  double total = 0;
};

/// The co-access graph of `block`'s ops, numbered in block order.
CoAccessGraph buildCoAccessGraph(mlir::Block &block,
                                 const CoAccessWeights &weights = {});

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_COACCESSGRAPH_H
