//===- CoAccessGraph.cpp - which ops of a block touch the same data -------===//

#include "analysis/CoAccessGraph.h"

#include "analysis/MemoryAlias.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace mlir;
using namespace waveasm;

CoAccessGraph::CoAccessGraph(unsigned size, llvm::ArrayRef<CoAccessEdge> input)
    : adjacencyBegin(size + 1, 0), degrees(size, 0.0) {
  // Sorted by (a, b), whatever the input order; a stable sort keeps the
  // input order among duplicates, whose weights are summed in that order
  // from 0 (what a map from (a, b) to a running sum gave, at a fraction of
  // its cost: a block's value cliques make thousands of edges).
  std::vector<CoAccessEdge> kept;
  edges.reserve(input.size());
  kept.reserve(input.size());
  for (const CoAccessEdge &e : input) {
    if (e.a == e.b || !(e.weight > 0) || e.a >= size || e.b >= size)
      continue;
    kept.push_back({std::min(e.a, e.b), std::max(e.a, e.b), e.weight});
  }
  std::stable_sort(kept.begin(), kept.end(),
                   [](const CoAccessEdge &x, const CoAccessEdge &y) {
                     return std::tie(x.a, x.b) < std::tie(y.a, y.b);
                   });
  for (size_t k = 0; k < kept.size();) {
    unsigned a = kept[k].a, b = kept[k].b;
    double weight = 0;
    for (; k < kept.size() && kept[k].a == a && kept[k].b == b; ++k)
      weight += kept[k].weight;
    edges.push_back({a, b, weight});
  }
  // The neighbour lists in one array, each filled in edge order.
  for (const CoAccessEdge &e : edges) {
    ++adjacencyBegin[e.a + 1];
    ++adjacencyBegin[e.b + 1];
  }
  for (unsigned i = 0; i < size; ++i)
    adjacencyBegin[i + 1] += adjacencyBegin[i];
  adjacency.resize(adjacencyBegin[size]);
  std::vector<unsigned> fill(adjacencyBegin.begin(), adjacencyBegin.end() - 1);
  for (const CoAccessEdge &e : edges) {
    adjacency[fill[e.a]++] = {e.b, e.weight};
    adjacency[fill[e.b]++] = {e.a, e.weight};
    degrees[e.a] += e.weight;
    degrees[e.b] += e.weight;
    total += e.weight;
  }
  for (unsigned i = 0; i < size; ++i)
    std::sort(adjacency.begin() + adjacencyBegin[i],
              adjacency.begin() + adjacencyBegin[i + 1]);
}

namespace {

/// Memory facts of one node, gathered once (pairs are quadratic).
struct MemoryNode {
  unsigned node;
  Operation *op;
  std::optional<MemoryAccess> access; // nullopt: ops with regions, unknown
};

/// The weight two accesses of the same data earn, 0 if none is proven.
double memoryWeight(const MemoryNode &x, const MemoryNode &y,
                    const CoAccessWeights &weights) {
  if (!x.access || !y.access)
    return alias(x.op, y.op) == AliasResult::MustAlias ? weights.sameBytes
                                                       : 0.0;
  const MemoryAccess &a = *x.access, &b = *y.access;
  if (a.spaces != b.spaces || !a.offset || !b.offset || !a.width || !b.width ||
      a.srd != b.srd || a.base != b.base || a.soffset != b.soffset)
    return 0.0;
  int64_t aBegin = *a.offset, aEnd = aBegin + a.width;
  int64_t bBegin = *b.offset, bEnd = bBegin + b.width;
  if (aBegin < bEnd && bBegin < aEnd)
    return weights.sameBytes;
  // Same line: the lines [begin, end) covers intersect.
  auto line = [&](int64_t byte) {
    return byte >= 0
               ? byte / weights.regionBytes
               : -((-byte + weights.regionBytes - 1) / weights.regionBytes);
  };
  if (line(aBegin) <= line(bEnd - 1) && line(bBegin) <= line(aEnd - 1))
    return weights.sameRegion;
  return 0.0;
}

} // namespace

CoAccessGraph waveasm::buildCoAccessGraph(Block &block,
                                          const CoAccessWeights &weights) {
  llvm::DenseMap<Operation *, unsigned> nodeOf;
  std::vector<Operation *> ops;
  for (Operation &op : block) {
    nodeOf[&op] = ops.size();
    ops.push_back(&op);
  }
  std::vector<CoAccessEdge> edges;

  // Shared values: the definition and the users' ancestors in the block.
  llvm::SmallVector<unsigned, 8> members;
  for (auto [i, op] : llvm::enumerate(ops)) {
    for (Value result : op->getResults()) {
      members.assign(1, i);
      for (Operation *user : result.getUsers())
        if (Operation *ancestor = block.findAncestorOpInBlock(*user))
          members.push_back(nodeOf.lookup(ancestor));
      llvm::sort(members);
      members.erase(std::unique(members.begin(), members.end()), members.end());
      if (members.size() < 2)
        continue;
      double w = weights.sharedValue / double(members.size() - 1);
      for (size_t x = 0; x < members.size(); ++x)
        for (size_t y = x + 1; y < members.size(); ++y)
          edges.push_back({members[x], members[y], w});
    }
  }

  // Accesses of the same bytes or line.
  std::vector<MemoryNode> memory;
  for (auto [i, op] : llvm::enumerate(ops))
    if (memReads(op) | memWrites(op))
      memory.push_back({unsigned(i), op, getMemoryAccess(op)});
  // Only accesses through the same base values can earn a weight, and only
  // within a line of each other: group by base, sort by offset, scan a
  // window (not all pairs: a loop body may hold thousands of accesses).
  // Ops with regions are compared with every access through alias().
  using BaseKey =
      std::tuple<unsigned, const void *, const void *, const void *>;
  std::map<BaseKey, std::vector<const MemoryNode *>> byBase;
  std::vector<const MemoryNode *> withRegions;
  for (const MemoryNode &m : memory) {
    if (!m.access) {
      if (m.op->getNumRegions())
        withRegions.push_back(&m);
      continue;
    }
    if (!m.access->offset || !m.access->width)
      continue;
    byBase[{m.access->spaces, m.access->srd.getAsOpaquePointer(),
            m.access->base.getAsOpaquePointer(),
            m.access->soffset.getAsOpaquePointer()}]
        .push_back(&m);
  }
  for (auto &[key, group] : byBase) {
    std::stable_sort(group.begin(), group.end(),
                     [](const MemoryNode *a, const MemoryNode *b) {
                       return *a->access->offset < *b->access->offset;
                     });
    for (size_t x = 0; x < group.size(); ++x) {
      int64_t end = *group[x]->access->offset + group[x]->access->width;
      for (size_t y = x + 1; y < group.size() && *group[y]->access->offset <
                                                     end + weights.regionBytes;
           ++y)
        if (double w = memoryWeight(*group[x], *group[y], weights))
          edges.push_back({group[x]->node, group[y]->node, w});
    }
  }
  for (const MemoryNode *r : withRegions)
    for (const MemoryNode &m : memory)
      if (&m != r && (m.access || m.op->getNumRegions() == 0 || r < &m))
        if (double w = memoryWeight(*r, m, weights))
          edges.push_back({r->node, m.node, w});

  return CoAccessGraph(ops.size(), edges);
}
