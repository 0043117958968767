//===- PressureScheduler.cpp - order ops to shorten live ranges -----------===//

#include "conductor/strategies/PressureScheduler.h"

#include "conductor/strategies/SchedulingModel.h"

#include <numeric>
#include <tuple>

using namespace mlir;

namespace waveasm::conductor {

std::vector<unsigned> pressureScheduleOrder(const DependenceGraph &graph,
                                            const TargetModel &target) {
  SchedulingModel model(graph, target);
  unsigned n = graph.size();
  LiveTracker live(model);
  std::vector<unsigned> waitingPreds(n), candidates, order;
  for (unsigned i = 0; i < n; ++i) {
    waitingPreds[i] = graph.preds(i).size();
    if (!waitingPreds[i])
      candidates.push_back(i);
  }
  while (!candidates.empty()) {
    using Key = std::tuple<int64_t, int64_t, int64_t, unsigned, unsigned>;
    std::optional<Key> bestKey;
    size_t bestSlot = 0;
    for (size_t slot = 0; slot < candidates.size(); ++slot) {
      unsigned c = candidates[slot];
      RegVector delta = live.deltaIfPlaced(c);
      RegVector peak = live.peakIfPlaced(c);
      unsigned soonest = ~0u;
      for (unsigned s : graph.succs(c))
        soonest = std::min(soonest, waitingPreds[s]);
      Key key{delta[0], delta[1], peak[0], soonest, c};
      if (!bestKey || key < *bestKey) {
        bestKey = key;
        bestSlot = slot;
      }
    }
    unsigned c = candidates[bestSlot];
    candidates.erase(candidates.begin() + bestSlot);
    live.place(c);
    order.push_back(c);
    for (unsigned s : graph.succs(c))
      if (--waitingPreds[s] == 0)
        candidates.push_back(s);
  }
  assert(order.size() == n && "dependence graph has a cycle");
  order = anchorFreeOps(graph, order);
  order = anchorFreeOps(graph, order);
  return order;
}

StrategyResult schedulePressureOrder(Block &block, const TargetModel &target,
                                     const CompileOptions &options) {
  StrategyResult result;
  for (Operation &op : block)
    result.order.push_back(&op);
  DependenceGraph graph(block);
  ScheduleEvaluator evaluator(block, options);
  result.before = evaluator.measureInput();
  result.after = result.before;
  if (!result.before)
    return result;

  std::vector<unsigned> order = pressureScheduleOrder(graph, target);
  std::vector<unsigned> input(graph.size());
  std::iota(input.begin(), input.end(), 0);
  if (order == input)
    return result;
  SchedulingModel model(graph, target);
  int64_t areaBefore = model.simulatePressure(input).area[0];
  int64_t areaAfter = model.simulatePressure(order).area[0];

  std::vector<Operation *> ops;
  for (unsigned i : order)
    ops.push_back(graph.getOp(i));
  std::optional<BlockMeasure> m = evaluator.measure(ops);
  if (!m || m->peakAGPR > result.before->peakAGPR)
    return result;
  bool fewer = m->peakVGPR < result.before->peakVGPR;
  bool shorter = m->peakVGPR == result.before->peakVGPR &&
                 areaAfter < areaBefore && m->cycles <= result.before->cycles;
  if (!fewer && !shorter)
    return result;
  result.order = std::move(ops);
  result.after = m;
  result.improved = true;
  result.variant = fewer ? "fewer-vgprs" : "shorter-live-ranges";
  return result;
}

} // namespace waveasm::conductor
