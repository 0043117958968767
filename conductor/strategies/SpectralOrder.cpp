//===- SpectralOrder.cpp - seed 002's spectral ordering of a block --------===//

#include "conductor/strategies/SpectralOrder.h"

#include "analysis/OrderCost.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

// Assertions stay on in every build of the project; Eigen's would check
// every coefficient access inside the cubic eigensolver (several times
// slower), where only Eigen's own loops index the matrix we build square.
#define EIGEN_NO_DEBUG
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>

using namespace mlir;

namespace waveasm::conductor {

namespace {

/// Connected components, each ascending, in order of their smallest node.
std::vector<std::vector<unsigned>> components(const CoAccessGraph &graph) {
  unsigned n = graph.size();
  std::vector<int> component(n, -1);
  std::vector<std::vector<unsigned>> result;
  for (unsigned start = 0; start < n; ++start) {
    if (component[start] >= 0)
      continue;
    std::vector<unsigned> nodes = {start};
    component[start] = result.size();
    for (size_t k = 0; k < nodes.size(); ++k)
      for (auto [x, w] : graph.neighbors(nodes[k]))
        if (component[x] < 0) {
          component[x] = result.size();
          nodes.push_back(x);
        }
    llvm::sort(nodes);
    result.push_back(std::move(nodes));
  }
  return result;
}

/// The component's nodes sorted by their Fiedler vector entry.
std::vector<unsigned> fiedlerOrderOf(const CoAccessGraph &graph,
                                     llvm::ArrayRef<unsigned> nodes) {
  size_t k = nodes.size();
  std::vector<unsigned> order(nodes.begin(), nodes.end());
  if (k < 3)
    return order; // one or two nodes: any order has the same cost
  llvm::DenseMap<unsigned, unsigned> local;
  for (auto [i, node] : llvm::enumerate(nodes))
    local[node] = i;
  Eigen::MatrixXd laplacian = Eigen::MatrixXd::Zero(k, k);
  for (auto [i, node] : llvm::enumerate(nodes)) {
    laplacian(i, i) = graph.degree(node);
    for (auto [x, w] : graph.neighbors(node))
      laplacian(i, local.lookup(x)) -= w;
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(laplacian);
  if (solver.info() != Eigen::Success)
    return order; // no vector: the input order
  // Eigenvalues ascending; the first is 0 (constant vector) for a
  // connected component.
  Eigen::VectorXd fiedler = solver.eigenvectors().col(1);
  // An eigenvector's sign is arbitrary: orient it along the input order,
  // or, when orthogonal to it, so that its first clear entry is negative.
  double along = 0;
  for (size_t i = 0; i < k; ++i)
    along += fiedler(i) * (double(i) - double(k - 1) / 2);
  bool flip = along < -1e-9;
  if (std::abs(along) <= 1e-9)
    for (size_t i = 0; i < k; ++i)
      if (std::abs(fiedler(i)) > 1e-9) {
        flip = fiedler(i) > 0;
        break;
      }
  if (flip)
    fiedler = -fiedler;
  // Entries that differ by rounding noise only are equal; then the input
  // position decides. Quantizing (not comparing with a tolerance) keeps the
  // comparison a strict weak order.
  std::vector<std::pair<long long, unsigned>> keys;
  for (size_t i = 0; i < k; ++i)
    keys.push_back({std::llround(fiedler(i) * 1e9), nodes[i]});
  llvm::sort(keys);
  for (size_t i = 0; i < k; ++i)
    order[i] = keys[i].second;
  return order;
}

/// Which adjacent ops may trade places: no dependence edge between them.
bool independent(const DependenceGraph &deps, unsigned a, unsigned b) {
  return !deps.edgeKind(a, b) && !deps.edgeKind(b, a);
}

/// C(pi) change when the ops at positions q and q + 1 swap.
double swapDelta(const CoAccessGraph &graph, llvm::ArrayRef<unsigned> pos,
                 unsigned a, unsigned b) {
  unsigned q = pos[a]; // a at q, b at q + 1
  double delta = 0;
  for (auto [x, w] : graph.neighbors(a)) {
    if (x == b)
      continue;
    delta += pos[x] < q ? w : -w; // a moves right
  }
  for (auto [x, w] : graph.neighbors(b)) {
    if (x == a)
      continue;
    delta += pos[x] > q + 1 ? w : -w; // b moves left
  }
  return delta;
}

} // namespace

std::vector<unsigned> computeFiedlerOrder(const CoAccessGraph &graph,
                                          unsigned maxDenseNodes) {
  struct Placed {
    double meanPosition;
    std::vector<unsigned> order;
  };
  std::vector<Placed> placed;
  for (std::vector<unsigned> &nodes : components(graph)) {
    double sum = 0;
    for (unsigned node : nodes)
      sum += node;
    double mean = sum / nodes.size();
    placed.push_back({mean, nodes.size() > maxDenseNodes
                                ? nodes
                                : fiedlerOrderOf(graph, nodes)});
  }
  // Stable: equal means keep the order of their smallest nodes.
  std::stable_sort(placed.begin(), placed.end(),
                   [](const Placed &x, const Placed &y) {
                     return x.meanPosition < y.meanPosition;
                   });
  std::vector<unsigned> order;
  for (Placed &p : placed)
    order.insert(order.end(), p.order.begin(), p.order.end());
  return order;
}

std::vector<unsigned> legalizeOrder(const DependenceGraph &deps,
                                    llvm::ArrayRef<unsigned> preferred) {
  unsigned n = deps.size();
  std::vector<unsigned> rank(n);
  for (unsigned p = 0; p < n; ++p)
    rank[preferred[p]] = p;
  std::vector<unsigned> waiting(n);
  using Entry = std::pair<unsigned, unsigned>; // (rank, op)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
  for (unsigned i = 0; i < n; ++i) {
    waiting[i] = deps.preds(i).size();
    if (!waiting[i])
      ready.push({rank[i], i});
  }
  std::vector<unsigned> order;
  order.reserve(n);
  while (!ready.empty()) {
    unsigned i = ready.top().second;
    ready.pop();
    order.push_back(i);
    for (unsigned s : deps.succs(i))
      if (--waiting[s] == 0)
        ready.push({rank[s], s});
  }
  return order; // the graph is acyclic: every op is placed
}

std::vector<unsigned> refineOrder(const DependenceGraph &deps,
                                  const CoAccessGraph &graph,
                                  std::vector<unsigned> order,
                                  unsigned maxSweeps) {
  unsigned n = order.size();
  std::vector<unsigned> pos(n);
  for (unsigned p = 0; p < n; ++p)
    pos[order[p]] = p;
  auto swapAt = [&](unsigned q) { // positions q and q + 1
    std::swap(order[q], order[q + 1]);
    pos[order[q]] = q;
    pos[order[q + 1]] = q + 1;
  };
  constexpr double kNoise = 1e-9;
  for (unsigned sweep = 0; sweep < maxSweeps; ++sweep) {
    bool changed = false;
    for (unsigned op = 0; op < n; ++op) {
      if (graph.neighbors(op).empty())
        continue; // C(pi) cannot tell where it goes
      // Slide right as far as independence allows, remembering the best
      // stop; then back to it. Then the same to the left.
      for (int dir : {+1, -1}) {
        unsigned start = pos[op], bestPos = start;
        double delta = 0, bestDelta = 0;
        while (true) {
          unsigned q = pos[op];
          if (dir > 0 ? q + 1 >= n : q == 0)
            break;
          unsigned other = order[dir > 0 ? q + 1 : q - 1];
          if (!independent(deps, op, other))
            break;
          delta += dir > 0 ? swapDelta(graph, pos, op, other)
                           : swapDelta(graph, pos, other, op);
          swapAt(dir > 0 ? q : q - 1);
          if (delta < bestDelta - kNoise) {
            bestDelta = delta;
            bestPos = pos[op];
          }
        }
        while (pos[op] != bestPos)
          swapAt(dir > 0 ? pos[op] - 1 : pos[op]);
        if (bestPos != start)
          changed = true;
      }
    }
    if (!changed)
      break;
  }
  return order;
}

SpectralResult scheduleSpectralOrder(Block &block,
                                     const SpectralOptions &options) {
  DependenceGraph deps(block);
  CoAccessGraph graph = buildCoAccessGraph(block);
  std::vector<unsigned> input = identityOrder(deps.size());

  SpectralResult result;
  result.costBefore = computeOrderCost(graph, input);
  result.modularityBefore = clusterOrder(graph, input).modularity;

  std::vector<unsigned> spectral = refineOrder(
      deps, graph,
      legalizeOrder(deps, computeFiedlerOrder(graph, options.maxDenseNodes)),
      options.maxRefineSweeps);
  std::vector<unsigned> refined =
      refineOrder(deps, graph, input, options.maxRefineSweeps);
  double spectralCost = computeOrderCost(graph, spectral);
  double refinedCost = computeOrderCost(graph, refined);
  bool useSpectral = spectralCost <= refinedCost;
  std::vector<unsigned> &best = useSpectral ? spectral : refined;
  result.variant = useSpectral ? "spectral" : "input-refined";
  result.costAfter = std::min(spectralCost, refinedCost);

  if (!(result.costAfter < result.costBefore * (1 - options.epsilon))) {
    result.reason =
        llvm::formatv("C(pi) {0:f2} -> {1:f2} is not below "
                      "C(input) * (1 - {2})",
                      result.costBefore, result.costAfter, options.epsilon)
            .str();
    best = input;
    result.costAfter = result.costBefore;
  } else {
    result.improved = true;
  }
  result.modularityAfter = clusterOrder(graph, best).modularity;
  for (unsigned i : best)
    result.order.push_back(deps.getOp(i));
  return result;
}

} // namespace waveasm::conductor
