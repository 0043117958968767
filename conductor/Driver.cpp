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

std::optional<RoundReport>
waveasm::conductor::replayFromCache(Session &session,
                                    const ScheduleCache &cache,
                                    std::vector<std::string> &warnings) {
  if (cache.directory().empty())
    return std::nullopt;
  std::string key = ScheduleCache::keyFor(session);
  std::string warning;
  std::optional<CacheEntry> entry = cache.lookup(key, &warning);
  if (!warning.empty())
    warnings.push_back(warning);
  if (!entry)
    return std::nullopt;
  std::optional<std::vector<MoveCommand>> commands = parseMoves(entry->moves);
  if (!commands) {
    warnings.push_back("ignoring corrupt cache entry " + cache.pathFor(key) +
                       ": a move is not a command");
    return std::nullopt;
  }
  return session.applyCommands(*commands);
}

void waveasm::conductor::storeInCache(const Session &session,
                                      const ScheduleCache &cache,
                                      llvm::StringRef model,
                                      std::vector<std::string> &warnings) {
  if (cache.directory().empty() || session.bestMoves().empty())
    return;
  if (llvm::Error error = cache.store(ScheduleCache::keyFor(session),
                                      ScheduleCache::entryFor(session, model)))
    warnings.push_back("cannot write the cache: " +
                       llvm::toString(std::move(error)));
}

RunResult waveasm::conductor::runConductor(
    Session &session, MoveSource &source, const ScheduleCache *cache,
    llvm::StringRef model,
    const std::function<void(const RoundReport &, llvm::StringRef)> &onRound) {
  RunResult result;
  if (cache && !cache->directory().empty()) {
    result.cacheKey = ScheduleCache::keyFor(session);
    if (std::optional<RoundReport> report =
            replayFromCache(session, *cache, result.warnings)) {
      result.cacheHit = true;
      if (onRound)
        onRound(*report, "cache");
      return result;
    }
  }
  int before = source.calls();
  runSession(session, source, [&](const RoundReport &report) {
    if (onRound)
      onRound(report, source.name());
  });
  result.sourceCalls = source.calls() - before;
  if (cache)
    storeInCache(session, *cache, model, result.warnings);
  return result;
}
