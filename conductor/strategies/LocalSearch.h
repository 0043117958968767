//===- LocalSearch.h - improve an order by measured single moves -*- C++
//-*-===//
//
// Hill climbing on the real measure: from a legal order, try moving one op
// at a time to another legal position (nearest positions first, up before
// down) and keep the first move that ranks better (`latencyRank`: first
// fewer registers above the limit, then fewer block cycles...); sweep the
// ops again while a sweep improved, within a budget of compile-and-measure
// runs. It catches what the list schedulers' simple machine model misses:
// waits the backend inserts for register reuse, vmcnt's in-order
// completion, loop-carried loads, hazard nops. Deterministic: the order of
// trials is fixed.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_LOCALSEARCH_H
#define WAVEASM_CONDUCTOR_STRATEGIES_LOCALSEARCH_H

#include "conductor/strategies/DependenceGraph.h"
#include "conductor/strategies/ScheduleEvaluator.h"

namespace waveasm::conductor {

struct LocalSearchOptions {
  /// Compile-and-measure runs at most.
  unsigned budget = 400;
  /// Positions tried per op on each side.
  unsigned maxDistance = 12;
};

/// Improves `order` (ops of the graph's block, legal) in place; `current`
/// is its measure and is updated. An order above the register limit is
/// first brought down to it (possibly at the cost of cycles). Returns the
/// number of accepted moves.
unsigned refineBySingleMoves(const DependenceGraph &graph,
                             ScheduleEvaluator &evaluator,
                             std::vector<mlir::Operation *> &order,
                             BlockMeasure &current, const BlockMeasure &limit,
                             const LocalSearchOptions &options = {});

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_LOCALSEARCH_H
