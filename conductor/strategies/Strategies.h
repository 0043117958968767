//===- Strategies.h - built-in strategies as move commands ------*- C++ -*-===//
//
// The Conductor's built-in scheduling strategies, for use with no LLM
// (offline, deterministic). Each computes a new legal order of a tagged
// block's ops (ListScheduler.h, PressureScheduler.h) and returns it as move
// commands on the tags, which go through the same validator as an LLM's
// (Session::applyCommands); every intermediate order of the commands is
// legal (MoveSynthesis.h). An empty list means the strategy found nothing
// better than the current order.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_STRATEGIES_H
#define WAVEASM_CONDUCTOR_STRATEGIES_STRATEGIES_H

#include "conductor/Commands.h"
#include "conductor/Tags.h"
#include "conductor/strategies/ListScheduler.h"
#include "conductor/strategies/SingleMoveSuggestions.h"
#include "conductor/strategies/SpectralOrder.h"

#include "analysis/TargetModel.h"

namespace waveasm::conductor {

/// Latency-aware list scheduling (critical path, LDS reads interleaved with
/// MFMAs, global loads early, walls kept), measured; never more VGPRs.
std::vector<MoveCommand> scheduleListLatency(const TaggedRegion &region,
                                             const TargetModel &target);
/// Pressure-aware ordering (shorter live ranges), measured; never more
/// VGPRs.
std::vector<MoveCommand> schedulePressure(const TaggedRegion &region,
                                          const TargetModel &target);

/// Seed 002's spectral order (co-access locality, shorter live ranges),
/// refined and rolled back unless C(pi) drops by epsilon; not measured
/// here (the Session measures and checks the round).
std::vector<MoveCommand> scheduleSpectral(const TaggedRegion &region,
                                          const SpectralOptions &options = {});

/// Commands taking the block from its current order to `newOrder` (the same
/// ops). Uses the fewest single-op moves when every step stays legal.
std::vector<MoveCommand>
movesToReach(const TaggedRegion &region,
             llvm::ArrayRef<mlir::Operation *> newOrder);

/// A single-move code action: the command, its measured deltas and the
/// title "Move I14 before I9: -12 stall cycles, VGPR +0".
struct MoveSuggestion {
  MoveCommand command;
  int64_t cyclesDelta = 0; // est_cycles_per_iter (or est_cycles) change
  int64_t vgprDelta = 0;   // peak VGPR change
  BlockMeasure before, after;
  std::string title() const;
};

/// The best few legal single moves of `op`, best first.
std::vector<MoveSuggestion>
rankSingleMoveSuggestions(const TaggedRegion &region, mlir::Operation *op,
                          const SuggestOptions &options = {});
/// The same, commands only.
std::vector<MoveCommand> suggestSingleMoves(const TaggedRegion &region,
                                            mlir::Operation *op,
                                            const SuggestOptions &options = {});

/// OpMoves as commands on the region's tags (ops without a tag are skipped).
std::vector<MoveCommand> toCommands(llvm::ArrayRef<OpMove> moves);

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_STRATEGIES_H
