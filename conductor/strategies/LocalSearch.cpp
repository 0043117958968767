//===- LocalSearch.cpp - improve an order by measured single moves --------===//

#include "conductor/strategies/LocalSearch.h"

#include <tuple>

using namespace mlir;

namespace waveasm::conductor {

unsigned refineBySingleMoves(const DependenceGraph &graph,
                             ScheduleEvaluator &evaluator,
                             std::vector<Operation *> &order,
                             BlockMeasure &current, const BlockMeasure &limit,
                             const LocalSearchOptions &options) {
  unsigned n = order.size(), used = 0, accepted = 0;
  std::vector<unsigned> pos(n); // graph index -> position in `order`
  auto reindex = [&] {
    for (unsigned p = 0; p < n; ++p)
      pos[*graph.indexOf(order[p])] = p;
  };
  reindex();

  bool improved = true;
  while (improved && used < options.budget) {
    improved = false;
    for (unsigned p = 0; p < n && used < options.budget; ++p) {
      unsigned i = *graph.indexOf(order[p]);
      if (graph.isWall(i) || graph.isFree(i))
        continue;
      // Legal positions in the current order: after the last predecessor,
      // before the first successor.
      int lo = 0, hi = n - 1;
      for (unsigned pred : graph.preds(i))
        lo = std::max(lo, static_cast<int>(pos[pred]) + 1);
      for (unsigned succ : graph.succs(i))
        hi = std::min(hi, static_cast<int>(pos[succ]) - 1);
      for (unsigned d = 1; d <= options.maxDistance && used < options.budget;
           ++d) {
        bool accepted_here = false;
        for (int target : {static_cast<int>(p) - static_cast<int>(d),
                           static_cast<int>(p) + static_cast<int>(d)}) {
          if (target < lo || target > hi || used >= options.budget)
            continue;
          std::vector<Operation *> candidate = order;
          Operation *op = candidate[p];
          candidate.erase(candidate.begin() + p);
          candidate.insert(candidate.begin() + target, op);
          ++used;
          // Robust cycles only break ties: measured only on a tie.
          std::optional<BlockMeasure> m = evaluator.measure(candidate, false);
          if (!m)
            continue;
          auto rank = latencyRank(*m, limit),
               best = latencyRank(current, limit);
          if (std::make_tuple(rank[0], rank[1], rank[2]) ==
                  std::make_tuple(best[0], best[1], best[2]) &&
              current.robustCycles >= 0)
            m = evaluator.measure(candidate, true);
          if (!m || latencyRank(*m, limit) >= latencyRank(current, limit))
            continue;
          order = std::move(candidate);
          current = *m;
          reindex();
          ++accepted;
          improved = accepted_here = true;
          break;
        }
        if (accepted_here)
          break;
      }
    }
  }
  return accepted;
}

} // namespace waveasm::conductor
