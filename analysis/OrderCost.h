//===- OrderCost.h - what an order of a co-access graph costs ---*- C++ -*-===//
//
// Seed 002's layout cost model on a CoAccessGraph and an order of its nodes
// (order[p] = the node at position p):
//  - the cost C(pi) = sum over edges of W_ij * |pos(i) - pos(j)|: how far
//    apart the order puts ops that touch the same data (lower is better);
//  - the modularity Q = sum over clusters c of L_c / m - (D_c / 2m)^2 (L_c:
//    weight inside c, D_c: degrees in c, m: total weight) of a clustering.
// An order's clusters are the contiguous runs of positions that maximize Q
// (by dynamic programming over the cut points; clusters of at most 512 ops,
// so exact for blocks up to that size and linear beyond): the block structure
// the order exposes. Stronger block structure gives a lower C and a higher
// Q, which is what the seed's acceptance criteria (C1 < C0, Q1 > Q0) read.
// A graph without edges has C = 0, Q = 0 and one cluster.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_ORDERCOST_H
#define WAVEASM_ANALYSIS_ORDERCOST_H

#include "analysis/CoAccessGraph.h"

namespace waveasm {

/// C(pi) of `order`, a permutation of the graph's nodes.
double computeOrderCost(const CoAccessGraph &graph,
                        llvm::ArrayRef<unsigned> order);

/// Q of an arbitrary clustering (clusterOf[node] = cluster id).
double computeModularity(const CoAccessGraph &graph,
                         llvm::ArrayRef<unsigned> clusterOf);

struct OrderClusters {
  double modularity = 0;
  /// Positions where a cluster starts (the first is 0; empty for no nodes).
  std::vector<unsigned> starts;
};
/// The contiguous clustering of `order` with the highest Q among those
/// whose clusters have at most 512 ops (exact up to 512 ops).
/// O(n * min(n, 512) * log d).
OrderClusters clusterOrder(const CoAccessGraph &graph,
                           llvm::ArrayRef<unsigned> order);

/// The block's figures in its current order, for metrics and hovers.
struct CoAccessSummary {
  double cost = 0;
  double modularity = 0;
  int64_t clusters = 0;
  int64_t edges = 0;
};
CoAccessSummary summarizeCoAccess(mlir::Block &block);

/// 0, 1, ..., n-1: a graph's nodes in block order.
std::vector<unsigned> identityOrder(unsigned n);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_ORDERCOST_H
