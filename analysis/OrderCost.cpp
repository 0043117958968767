//===- OrderCost.cpp - what an order of a co-access graph costs -----------===//

#include "analysis/OrderCost.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

using namespace waveasm;

/// Longest cluster the DP considers: exact for blocks up to this many ops,
/// linear beyond (the metrics compute Q of every loop on every compile; a
/// 20,000-op loop body must not cost seconds).
static constexpr unsigned kMaxClusterLength = 512;

std::vector<unsigned> waveasm::identityOrder(unsigned n) {
  std::vector<unsigned> order(n);
  std::iota(order.begin(), order.end(), 0u);
  return order;
}

static std::vector<unsigned> positionsOf(llvm::ArrayRef<unsigned> order) {
  std::vector<unsigned> pos(order.size());
  for (unsigned p = 0; p < order.size(); ++p)
    pos[order[p]] = p;
  return pos;
}

double waveasm::computeOrderCost(const CoAccessGraph &graph,
                                 llvm::ArrayRef<unsigned> order) {
  assert(order.size() == graph.size() && "order is not a permutation");
  std::vector<unsigned> pos = positionsOf(order);
  double cost = 0;
  for (const CoAccessEdge &e : graph.getEdges())
    cost += e.weight * std::abs(double(pos[e.a]) - double(pos[e.b]));
  return cost;
}

double waveasm::computeModularity(const CoAccessGraph &graph,
                                  llvm::ArrayRef<unsigned> clusterOf) {
  double m = graph.totalWeight();
  if (!(m > 0))
    return 0;
  unsigned numClusters = 0;
  for (unsigned c : clusterOf)
    numClusters = std::max(numClusters, c + 1);
  std::vector<double> inside(numClusters, 0), degrees(numClusters, 0);
  for (const CoAccessEdge &e : graph.getEdges())
    if (clusterOf[e.a] == clusterOf[e.b])
      inside[clusterOf[e.a]] += e.weight;
  for (unsigned i = 0; i < graph.size(); ++i)
    degrees[clusterOf[i]] += graph.degree(i);
  double q = 0;
  for (unsigned c = 0; c < numClusters; ++c)
    q += inside[c] / m - (degrees[c] / (2 * m)) * (degrees[c] / (2 * m));
  return q;
}

OrderClusters waveasm::clusterOrder(const CoAccessGraph &graph,
                                    llvm::ArrayRef<unsigned> order) {
  unsigned n = order.size();
  assert(n == graph.size() && "order is not a permutation");
  OrderClusters result;
  if (n == 0)
    return result;
  double m = graph.totalWeight();
  if (!(m > 0)) {
    result.starts = {0};
    return result;
  }
  std::vector<unsigned> pos = positionsOf(order);
  // Per position p: the running sums of the weights of its edges to later
  // positions, ascending by position (laterSum[sumBegin[p] + k]: the first
  // k of them), flat; and per position q the earlier positions joined to
  // it (joinedFrom[fromBegin[q] .. fromBegin[q + 1])). The segment [i, j)
  // gains, from position i, the sum of i's edges that end before j: the
  // first below[i] of them, where below[i] counts i's later positions
  // under j and grows by one each time j passes one of them (instead of a
  // binary search per segment, a third of a 300-op loop's metrics).
  std::vector<unsigned> sumBegin(n + 1, 0), fromBegin(n + 1, 0);
  std::vector<double> laterSum;
  std::vector<unsigned> joinedFrom;
  std::vector<double> degreePrefix(n + 1, 0);
  std::vector<std::pair<unsigned, double>> fwd;
  for (unsigned p = 0; p < n; ++p) {
    fwd.clear();
    for (auto [x, w] : graph.neighbors(order[p]))
      if (pos[x] > p)
        fwd.push_back({pos[x], w});
    llvm::sort(fwd);
    sumBegin[p] = laterSum.size();
    laterSum.push_back(0);
    for (auto [q, w] : fwd) {
      laterSum.push_back(laterSum.back() + w);
      ++fromBegin[q + 1];
    }
    degreePrefix[p + 1] = degreePrefix[p] + graph.degree(order[p]);
  }
  sumBegin[n] = laterSum.size();
  for (unsigned q = 0; q < n; ++q)
    fromBegin[q + 1] += fromBegin[q];
  joinedFrom.resize(fromBegin[n]);
  {
    std::vector<unsigned> fill(fromBegin.begin(), fromBegin.end() - 1);
    for (unsigned p = 0; p < n; ++p)
      for (auto [x, w] : graph.neighbors(order[p]))
        if (pos[x] > p)
          joinedFrom[fill[pos[x]]++] = p;
  }
  std::vector<unsigned> below(n, 0);
  // laterSum[sumBegin[i] + below[i]], kept as below[i] grows: the DP's
  // inner loop below runs n^2 / 2 times on a loop body up to
  // kMaxClusterLength ops and reads one array per term this way.
  std::vector<double> laterBelow(n, 0);

  // best[j]: the highest Q of positions [0, j); cut[j]: its last start.
  std::vector<double> best(n + 1, 0);
  std::vector<unsigned> cut(n + 1, 0);
  const double twiceM = 2 * m;
  for (unsigned j = 1; j <= n; ++j) {
    // Position j - 1 is below j now: one more edge of each position joined
    // to it ends inside the segments up to j.
    for (unsigned f = fromBegin[j - 1]; f < fromBegin[j]; ++f) {
      unsigned p = joinedFrom[f];
      laterBelow[p] = laterSum[sumBegin[p] + ++below[p]];
    }
    // The same terms in the same order as the definition (CoAccessTest
    // compares them bit for bit); the running best and its threshold in
    // locals, which the stores to best[] no longer force to memory.
    double inner = 0, bestJ = -INFINITY, threshold = -INFINITY;
    unsigned cutJ = 0;
    const double degreeJ = degreePrefix[j];
    unsigned lowest = j > kMaxClusterLength ? j - kMaxClusterLength : 0;
    for (unsigned i = j; i-- > lowest;) {
      // Edges from position i to positions in (i, j).
      inner += laterBelow[i];
      double d = (degreeJ - degreePrefix[i]) / twiceM;
      double q = best[i] + inner / m - d * d;
      // Strictly better by more than rounding noise: the shortest last
      // segment wins ties, the same one on every machine.
      if (q > threshold) {
        bestJ = q;
        threshold = q + 1e-12;
        cutJ = i;
      }
    }
    best[j] = bestJ;
    cut[j] = cutJ;
  }
  result.modularity = best[n];
  for (unsigned j = n; j > 0; j = cut[j])
    result.starts.push_back(cut[j]);
  std::reverse(result.starts.begin(), result.starts.end());
  return result;
}

CoAccessSummary waveasm::summarizeCoAccess(mlir::Block &block) {
  CoAccessGraph graph = buildCoAccessGraph(block);
  std::vector<unsigned> order = identityOrder(graph.size());
  CoAccessSummary summary;
  summary.cost = computeOrderCost(graph, order);
  OrderClusters clusters = clusterOrder(graph, order);
  summary.modularity = clusters.modularity;
  summary.clusters = clusters.starts.size();
  summary.edges = graph.getEdges().size();
  return summary;
}
