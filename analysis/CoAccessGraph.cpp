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
    : adjacency(size), degrees(size, 0.0) {
  // std::map: merged edges come out sorted, whatever the input order.
  std::map<std::pair<unsigned, unsigned>, double> merged;
  for (const CoAccessEdge &e : input) {
    if (e.a == e.b || !(e.weight > 0) || e.a >= size || e.b >= size)
      continue;
    merged[{std::min(e.a, e.b), std::max(e.a, e.b)}] += e.weight;
  }
  edges.reserve(merged.size());
  for (auto &[key, weight] : merged) {
    edges.push_back({key.first, key.second, weight});
    adjacency[key.first].push_back({key.second, weight});
    adjacency[key.second].push_back({key.first, weight});
    degrees[key.first] += weight;
    degrees[key.second] += weight;
    total += weight;
  }
  for (auto &list : adjacency)
    llvm::sort(list);
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
