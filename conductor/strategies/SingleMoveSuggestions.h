//===- SingleMoveSuggestions.h - best single moves for one op ---*- C++ -*-===//
//
// For the op under the editor's cursor: every legal single move of it
// (anywhere between its last and its first dependence in the block; walls
// and pseudo ops that emit nothing are not moved) is measured with
// compile-and-measure on a clone, and the moves that help are returned best
// first. "Help" is lexicographic on the deltas (block cycles: the loop's
// est_cycles_per_iter or the program's est_cycles; then peak VGPRs; then the
// program's est_cycles): a move is kept when that key is below zero. Of
// moves with the same cycle and VGPR deltas only the nearest is kept.
//
// Why measure instead of asking the cycle model of the uncompiled IR: the
// wait counts and hazard nops the backend inserts change with the order,
// and the allocator's peak is what occupancy depends on; a measurement is
// about a millisecond per candidate on a 500-op program.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_SINGLEMOVESUGGESTIONS_H
#define WAVEASM_CONDUCTOR_STRATEGIES_SINGLEMOVESUGGESTIONS_H

#include "conductor/strategies/MoveSynthesis.h"
#include "conductor/strategies/ScheduleEvaluator.h"

namespace waveasm::conductor {

struct SuggestOptions {
  unsigned maxResults = 3;
  /// Positions measured at most, the nearest to the op's place first.
  unsigned maxCandidates = 64;
  CompileOptions compile;
};

struct SingleMove {
  OpMove move; // "before" when moving up, "after" when moving down
  BlockMeasure before, after;
  int64_t cyclesDelta() const { return after.cycles - before.cycles; }
  int64_t vgprDelta() const { return after.peakVGPR - before.peakVGPR; }
  int64_t estCyclesDelta() const {
    return after.program.est_cycles - before.program.est_cycles;
  }
};

/// The helpful single moves of `op` (an op of `block`), best first.
std::vector<SingleMove> rankSingleMoves(mlir::Block &block, mlir::Operation *op,
                                        const SuggestOptions &options = {});

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_SINGLEMOVESUGGESTIONS_H
