//===- Strategies.cpp - built-in strategies as move commands --------------===//

#include "conductor/strategies/Strategies.h"

#include "conductor/strategies/PressureScheduler.h"

using namespace mlir;

namespace waveasm::conductor {

std::vector<MoveCommand> toCommands(llvm::ArrayRef<OpMove> moves) {
  std::vector<MoveCommand> commands;
  for (const OpMove &move : moves) {
    std::optional<llvm::StringRef> a = getTag(move.op), b = getTag(move.anchor);
    if (!a || !b)
      continue;
    commands.push_back(move.after
                           ? MoveCommand::moveAfter(a->str(), b->str())
                           : MoveCommand::moveBefore(a->str(), b->str()));
  }
  return commands;
}

std::vector<MoveCommand> movesToReach(const TaggedRegion &region,
                                      llvm::ArrayRef<Operation *> newOrder) {
  DependenceGraph graph(*region.block);
  return toCommands(synthesizeMoves(graph, newOrder));
}

static std::vector<MoveCommand> commandsFor(const TaggedRegion &region,
                                            const StrategyResult &result) {
  if (!result.improved)
    return {};
  return movesToReach(region, result.order);
}

std::vector<MoveCommand> scheduleListLatency(const TaggedRegion &region,
                                             const TargetModel &target) {
  return commandsFor(region, scheduleListLatencyOrder(*region.block, target));
}

std::vector<MoveCommand> schedulePressure(const TaggedRegion &region,
                                          const TargetModel &target) {
  return commandsFor(region, schedulePressureOrder(*region.block, target));
}

std::vector<MoveCommand> scheduleSpectral(const TaggedRegion &region,
                                          const SpectralOptions &options) {
  SpectralResult result = scheduleSpectralOrder(*region.block, options);
  if (!result.improved)
    return {};
  return movesToReach(region, result.order);
}

std::string MoveSuggestion::title() const {
  std::string text = command.text();
  if (!text.empty())
    text[0] = 'M'; // "Move I14 before I9"
  return (llvm::Twine(text) + ": " + (cyclesDelta > 0 ? "+" : "") +
          llvm::Twine(cyclesDelta) + " issue slots, VGPR " +
          (vgprDelta >= 0 ? "+" : "") + llvm::Twine(vgprDelta))
      .str();
}

std::vector<MoveSuggestion>
rankSingleMoveSuggestions(const TaggedRegion &region, Operation *op,
                          const SuggestOptions &options) {
  std::vector<MoveSuggestion> suggestions;
  for (const SingleMove &move : rankSingleMoves(*region.block, op, options)) {
    std::vector<MoveCommand> command = toCommands(move.move);
    if (command.empty())
      continue;
    suggestions.push_back({command.front(), move.cyclesDelta(),
                           move.vgprDelta(), move.before, move.after});
  }
  return suggestions;
}

std::vector<MoveCommand> suggestSingleMoves(const TaggedRegion &region,
                                            Operation *op,
                                            const SuggestOptions &options) {
  std::vector<MoveCommand> commands;
  for (const MoveSuggestion &s : rankSingleMoveSuggestions(region, op, options))
    commands.push_back(s.command);
  return commands;
}

} // namespace waveasm::conductor
