//===- DependenceLayout.cpp - a layered layout of a dependence graph ------===//
//
// Sugiyama's scheme, cut down to what a loop body of a few hundred ops
// needs within a few milliseconds:
//  1. layers: each node one below its lowest drawn predecessor (longest
//     path in edges; the body order is a topological order, so one pass);
//  2. order within a layer: barycenters of the neighbours' columns, two
//     sweeps down and one up (crossings fall a lot after the first sweep;
//     more sweeps cost time without changing much);
//  3. coordinates: a layer wider than kMaxPerRow wraps onto further rows,
//     rows left-aligned; carried edges get lanes right of the widest row.
// Edges are not routed around boxes: a long edge is a curve that may pass
// behind boxes, which the picture draws under the boxes.
//
//===----------------------------------------------------------------------===//

#include "server/features/DependenceLayout.h"
#include "server/Features.h"

#include <algorithm>

using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::graph;

namespace {

bool isDrawn(const DependenceEdge &edge) {
  return !edge.carried && !edge.implied;
}

/// Stable sort of `layer` by the mean column of each node's neighbours in
/// `adjacent` (nodes without placed neighbours keep their column).
void sortByBarycenter(std::vector<unsigned> &layer,
                      const std::vector<std::vector<unsigned>> &adjacent,
                      const std::vector<double> &column) {
  std::vector<std::pair<double, unsigned>> keys;
  keys.reserve(layer.size());
  for (auto [k, node] : llvm::enumerate(layer)) {
    double sum = 0;
    for (unsigned other : adjacent[node])
      sum += column[other];
    keys.push_back({adjacent[node].empty()
                        ? double(k)
                        : sum / double(adjacent[node].size()),
                    node});
  }
  std::stable_sort(keys.begin(), keys.end(),
                   [](auto &a, auto &b) { return a.first < b.first; });
  for (auto [k, key] : llvm::enumerate(keys))
    layer[k] = key.second;
}

/// A node's column: its place in its layer, wrapped rows folded onto the
/// first, centred so narrow layers sit under the middle of wide ones.
void assignColumns(const std::vector<std::vector<unsigned>> &layers,
                   std::vector<double> &column) {
  for (const std::vector<unsigned> &layer : layers)
    for (auto [k, node] : llvm::enumerate(layer)) {
      unsigned inRow = std::min<unsigned>(
          layer.size() - k / kMaxPerRow * kMaxPerRow, kMaxPerRow);
      column[node] = double(k % kMaxPerRow) - double(inRow - 1) / 2;
    }
}

} // namespace

void waveasm::server::layoutDependenceView(DependenceView &view) {
  unsigned n = view.nodes.size();
  std::vector<std::vector<unsigned>> preds(n), succs(n);
  for (const DependenceEdge &edge : view.edges)
    if (isDrawn(edge)) {
      preds[edge.to].push_back(edge.from);
      succs[edge.from].push_back(edge.to);
    }
  unsigned numLayers = 0;
  for (unsigned i = 0; i < n; ++i) {
    unsigned layer = 0;
    for (unsigned p : preds[i])
      layer = std::max(layer, view.nodes[p].layer + 1);
    view.nodes[i].layer = layer;
    numLayers = std::max(numLayers, layer + 1);
  }
  std::vector<std::vector<unsigned>> layers(numLayers);
  for (unsigned i = 0; i < n; ++i)
    layers[view.nodes[i].layer].push_back(i);

  std::vector<double> column(n, 0);
  assignColumns(layers, column);
  for (int sweep = 0; sweep < 3; ++sweep) {
    bool down = sweep != 1;
    for (unsigned l = 0; l < numLayers; ++l) {
      unsigned layer = down ? l : numLayers - 1 - l;
      sortByBarycenter(layers[layer], down ? preds : succs, column);
      assignColumns({layers[layer]}, column);
    }
  }

  // Rows and coordinates.
  unsigned rows = 0;
  double widest = 0;
  for (const std::vector<unsigned> &layer : layers) {
    rows += (layer.size() + kMaxPerRow - 1) / kMaxPerRow;
    widest =
        std::max(widest, double(std::min<size_t>(layer.size(), kMaxPerRow)));
  }
  double graphWidth = widest * (kNodeWidth + kGapX) - kGapX;
  unsigned row = 0;
  for (const std::vector<unsigned> &layer : layers) {
    for (size_t first = 0; first < layer.size(); first += kMaxPerRow) {
      size_t count = std::min<size_t>(kMaxPerRow, layer.size() - first);
      // Rows start at the left edge: a webview narrower than the graph
      // shows every layer's first boxes, not an empty middle.
      double left = kMargin;
      for (size_t k = 0; k < count; ++k) {
        DependenceNode &node = view.nodes[layer[first + k]];
        node.row = row;
        node.x = left + k * (kNodeWidth + kGapX);
        node.y = kHeaderHeight + row * (kNodeHeight + kGapY);
      }
      ++row;
    }
  }
  size_t carried = llvm::count_if(
      view.edges, [](const DependenceEdge &e) { return e.carried; });
  view.numLayers = numLayers;
  view.width = kMargin * 2 + std::max(graphWidth, 360.0) + 16 +
               std::min<size_t>(carried, kMaxLanes) * kLaneGap;
  view.height = kHeaderHeight + rows * (kNodeHeight + kGapY) + kMargin;
}
