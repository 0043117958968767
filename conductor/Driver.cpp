//===- Driver.cpp - a whole Conductor run ---------------------------------===//

#include "conductor/Driver.h"

using namespace waveasm::conductor;

/// The cached moves as commands; nullopt if one does not parse.
static std::optional<std::vector<MoveCommand>>
parseMoves(llvm::ArrayRef<std::string> moves) {
  std::vector<MoveCommand> commands;
  for (const std::string &move : moves) {
    std::optional<MoveCommand> command = parseCommand(move);
    if (!command || command->kind == MoveCommand::Done)
      return std::nullopt;
    commands.push_back(*command);
  }
  return commands;
}

RunResult waveasm::conductor::runConductor(
    Session &session, MoveSource &source, const ScheduleCache *cache,
    llvm::StringRef model,
    const std::function<void(const RoundReport &, llvm::StringRef)> &onRound) {
  RunResult result;
  if (cache && !cache->directory().empty()) {
    result.cacheKey = ScheduleCache::keyFor(session);
    std::string warning;
    std::optional<CacheEntry> entry = cache->lookup(result.cacheKey, &warning);
    if (!warning.empty())
      result.warnings.push_back(warning);
    if (entry) {
      if (std::optional<std::vector<MoveCommand>> commands =
              parseMoves(entry->moves)) {
        result.cacheHit = true;
        RoundReport report = session.applyCommands(*commands);
        if (onRound)
          onRound(report, "cache");
        return result;
      }
      result.warnings.push_back("ignoring corrupt cache entry " +
                                cache->pathFor(result.cacheKey) +
                                ": a move is not a command");
    }
  }
  int before = source.calls();
  runSession(session, source, [&](const RoundReport &report) {
    if (onRound)
      onRound(report, source.name());
  });
  result.sourceCalls = source.calls() - before;
  if (cache && !cache->directory().empty() && !session.bestMoves().empty()) {
    if (llvm::Error error = cache->store(
            result.cacheKey, ScheduleCache::entryFor(session, model)))
      result.warnings.push_back("cannot write the cache: " +
                                llvm::toString(std::move(error)));
  }
  return result;
}
