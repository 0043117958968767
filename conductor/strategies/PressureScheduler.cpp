//===- PressureScheduler.cpp - order ops to shorten live ranges -----------===//

#include "conductor/strategies/PressureScheduler.h"

#include "conductor/strategies/LocalSearch.h"
#include "conductor/strategies/ReadyList.h"
#include "conductor/strategies/SchedulingModel.h"

#include <numeric>
#include <tuple>

using namespace mlir;

namespace waveasm::conductor {

std::vector<unsigned> pressureScheduleOrder(const DependenceGraph &graph,
                                            const TargetModel &target) {
  SchedulingModel model(graph, target);
  LiveTracker live(model);
  ReadyList ready(graph);
  while (!ready.empty()) {
    // Fewest registers added, then the lowest peak, then the op that frees
    // a successor soonest.
    using Key = std::tuple<int64_t, int64_t, int64_t, unsigned, unsigned>;
    auto keyOf = [&](unsigned c) {
      RegVector delta = live.deltaIfPlaced(c);
      RegVector peak = live.peakIfPlaced(c);
      unsigned soonest = ~0u;
      for (unsigned s : graph.succs(c))
        soonest = std::min(soonest, ready.waitingPreds(s));
      return Key{delta[0], delta[1], peak[0], soonest, c};
    };
    unsigned c = ready.takeBest(keyOf).first;
    live.place(c);
    ready.place(c);
  }
  return ready.finish();
}

/// The largest VGPR count with the same waves per SIMD as `vgprs`.
static int64_t bracketTop(const TargetModel &target, int64_t vgprs) {
  for (auto [maxVGPRs, waves] : target.vgprOccupancy) {
    (void)waves;
    if (maxVGPRs >= vgprs)
      return maxVGPRs;
  }
  return vgprs;
}

/// Waves per SIMD the VGPR count allows (VGPR limit only).
static int64_t wavesFor(const TargetModel &target, int64_t vgprs) {
  for (auto [maxVGPRs, waves] : target.vgprOccupancy)
    if (maxVGPRs >= vgprs)
      return waves;
  return 0;
}

StrategyResult schedulePressureOrder(Block &block, const TargetModel &target,
                                     const CompileOptions &options,
                                     const LocalSearchOptions &refineOptions) {
  StrategyResult result;
  DependenceGraph graph(block);
  ScheduleEvaluator evaluator(block, options);
  result.before = evaluator.measureInput();
  result.keepInput(block);
  if (!result.before) {
    // The input does not compile (e.g. allocation overflows: the allocator
    // cannot spill): any order that does is better.
    std::vector<Operation *> ops;
    for (unsigned i : pressureScheduleOrder(graph, target))
      ops.push_back(graph.getOp(i));
    if (std::optional<BlockMeasure> m = evaluator.measure(ops)) {
      result.order = std::move(ops);
      result.after = m;
      result.improved = true;
      result.variant = "compiles (the input does not)";
    }
    return result;
  }

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

  // Win back the cycles short live ranges cost: measured single moves may
  // use registers up to the top of the occupancy bracket the new peak is in
  // (the same waves per SIMD), but stay below the input's peak.
  BlockMeasure limit = *m;
  if (fewer)
    limit.peakVGPR =
        std::min(result.before->peakVGPR - 1, bracketTop(target, m->peakVGPR));
  BlockMeasure current = *m;
  unsigned moves = refineBySingleMoves(graph, evaluator, result.order, current,
                                       limit, refineOptions);
  result.after = current;
  if (moves)
    result.variant += " + " + std::to_string(moves) + " measured moves";
  // Fewer registers are worth cycles only when they gain a wave per SIMD.
  if (wavesFor(target, current.peakVGPR) <=
          wavesFor(target, result.before->peakVGPR) &&
      current.cycles > result.before->cycles)
    result.keepInput(block);
  return result;
}

} // namespace waveasm::conductor
