//===- SingleMoveSuggestions.cpp - best single moves for one op -----------===//

#include "conductor/strategies/SingleMoveSuggestions.h"

#include <tuple>

using namespace mlir;

namespace waveasm::conductor {

std::vector<SingleMove> rankSingleMoves(Block &block, Operation *op,
                                        const SuggestOptions &options) {
  std::vector<SingleMove> result;
  DependenceGraph graph(block);
  std::optional<unsigned> index = graph.indexOf(op);
  if (!index || graph.isWall(*index) || graph.isFree(*index))
    return result;
  unsigned i = *index;
  auto [lo, hi] = graph.legalWindow(i);

  // Anchors "after Y" for Y in [lo, hi], except the op itself and the op
  // right before it (its current place); nearest first, up before down.
  std::vector<int> anchors;
  for (int d = 1; anchors.size() < options.maxCandidates; ++d) {
    int up = static_cast<int>(i) - 1 - d, down = static_cast<int>(i) + d;
    bool any = false;
    if (up >= lo) {
      anchors.push_back(up);
      any = true;
    }
    if (down <= hi && anchors.size() < options.maxCandidates) {
      anchors.push_back(down);
      any = true;
    }
    if (!any && up < lo && down > hi)
      break;
  }
  if (anchors.empty())
    return result;

  ScheduleEvaluator evaluator(block, options.compile);
  std::optional<BlockMeasure> before = evaluator.measureInput();
  if (!before)
    return result;
  llvm::ArrayRef<Operation *> ops = graph.getOps();
  for (int y : anchors) {
    OpMove move = y < static_cast<int>(i)
                      ? OpMove{op, ops[y + 1], /*after=*/false}
                      : OpMove{op, ops[y], /*after=*/true};
    std::vector<Operation *> order(ops.begin(), ops.end());
    applyMoveToOrder(order, move);
    std::optional<BlockMeasure> after = evaluator.measure(order);
    if (!after)
      continue;
    SingleMove candidate{move, *before, *after};
    auto key = std::make_tuple(candidate.cyclesDelta(), candidate.vgprDelta(),
                               candidate.estCyclesDelta());
    if (key < std::make_tuple(int64_t(0), int64_t(0), int64_t(0)))
      result.push_back(std::move(candidate));
  }
  // Best first; the nearer move wins ties (anchors are nearest first and the
  // sort is stable).
  std::stable_sort(result.begin(), result.end(),
                   [](const SingleMove &a, const SingleMove &b) {
                     return std::make_tuple(a.cyclesDelta(), a.vgprDelta(),
                                            a.estCyclesDelta()) <
                            std::make_tuple(b.cyclesDelta(), b.vgprDelta(),
                                            b.estCyclesDelta());
                   });
  // Moves with the same effect (usually neighbouring positions) are one
  // suggestion: the nearest is kept, so the few shown differ.
  std::vector<SingleMove> distinct;
  for (SingleMove &move : result) {
    bool seen = llvm::any_of(distinct, [&](const SingleMove &kept) {
      return kept.cyclesDelta() == move.cyclesDelta() &&
             kept.vgprDelta() == move.vgprDelta();
    });
    if (!seen)
      distinct.push_back(std::move(move));
  }
  result = std::move(distinct);
  if (result.size() > options.maxResults)
    result.resize(options.maxResults);
  return result;
}

} // namespace waveasm::conductor
