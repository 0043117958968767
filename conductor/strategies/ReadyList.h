//===- ReadyList.h - the candidate set of a list scheduler ------*- C++ -*-===//
//
// What the latency and the pressure list schedulers share: the ops whose
// predecessors are all placed, the pick of the best one by a key, and the
// final anchoring of free ops. Each scheduler brings only its key.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_READYLIST_H
#define WAVEASM_CONDUCTOR_STRATEGIES_READYLIST_H

#include "conductor/strategies/DependenceGraph.h"

#include <cassert>
#include <utility>
#include <vector>

namespace waveasm::conductor {

class ReadyList {
public:
  explicit ReadyList(const DependenceGraph &graph)
      : graph(graph), waiting(graph.size()) {
    for (unsigned i = 0, n = graph.size(); i < n; ++i) {
      waiting[i] = graph.preds(i).size();
      if (!waiting[i])
        candidates.push_back(i);
    }
  }

  bool empty() const { return candidates.empty(); }
  /// Predecessors of `i` not placed yet.
  unsigned waitingPreds(unsigned i) const { return waiting[i]; }

  /// Removes the candidate with the least `keyOf(candidate)` (the first one
  /// on ties) and returns it with its key.
  template <typename KeyFn>
  auto takeBest(KeyFn keyOf) -> std::pair<unsigned, decltype(keyOf(0u))> {
    assert(!candidates.empty() && "no candidate to take");
    size_t bestSlot = 0;
    auto bestKey = keyOf(candidates[0]);
    for (size_t slot = 1; slot < candidates.size(); ++slot) {
      auto key = keyOf(candidates[slot]);
      if (key < bestKey) {
        bestKey = std::move(key);
        bestSlot = slot;
      }
    }
    unsigned best = candidates[bestSlot];
    candidates.erase(candidates.begin() + bestSlot);
    return {best, std::move(bestKey)};
  }

  /// Appends `c` to the order; its successors whose predecessors are now all
  /// placed become candidates.
  void place(unsigned c) {
    order.push_back(c);
    for (unsigned s : graph.succs(c))
      if (--waiting[s] == 0)
        candidates.push_back(s);
  }

  /// The order placed, free ops anchored to their users. Twice: a free op
  /// feeding another free op anchors to the second one's new place only on
  /// the second round.
  std::vector<unsigned> finish() const {
    assert(order.size() == graph.size() && "dependence graph has a cycle");
    return anchorFreeOps(graph, anchorFreeOps(graph, order));
  }

private:
  const DependenceGraph &graph;
  std::vector<unsigned> waiting, candidates, order;
};

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_READYLIST_H
