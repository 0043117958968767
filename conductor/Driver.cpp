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

std::optional<CacheHit> waveasm::conductor::replayFromCache(
    Session &session, const ScheduleCache &cache, const CachePolicy &policy,
    std::vector<std::string> &warnings, std::string *bypassedSource) {
  if (cache.directory().empty())
    return std::nullopt;
  std::string key = ScheduleCache::keyFor(session);
  std::string warning;
  std::optional<CacheEntry> entry = cache.lookup(key, &warning);
  if (!warning.empty())
    warnings.push_back(warning);
  if (!entry)
    return std::nullopt;
  // "No better schedule" speaks for its source only: another model, other
  // strategies or another build of them may find one. Moves of any source
  // are replayed (and validated) unless the policy asks for its own.
  if (entry->source != policy.source &&
      (policy.sameSourceOnly || entry->foundNothing())) {
    if (bypassedSource)
      *bypassedSource = entry->source;
    return std::nullopt;
  }
  std::optional<std::vector<MoveCommand>> commands = parseMoves(entry->moves);
  if (!commands) {
    warnings.push_back("ignoring corrupt cache entry " + cache.pathFor(key) +
                       ": a move is not a command");
    return std::nullopt;
  }
  CacheHit hit;
  hit.source = entry->source;
  hit.foundNothing = entry->foundNothing();
  // Nothing better was found: the input stays, no round is spent.
  if (!hit.foundNothing)
    hit.report = session.applyCommands(*commands);
  return hit;
}

void waveasm::conductor::storeInCache(const Session &session,
                                      const ScheduleCache &cache,
                                      llvm::StringRef source,
                                      std::vector<std::string> &warnings) {
  if (cache.directory().empty())
    return;
  if (llvm::Error error = cache.store(ScheduleCache::keyFor(session),
                                      ScheduleCache::entryFor(session, source)))
    warnings.push_back("cannot write the cache: " +
                       llvm::toString(std::move(error)));
}

RunResult waveasm::conductor::runConductor(
    Session &session, MoveSource &source, const ScheduleCache *cache,
    const CachePolicy &policy,
    const std::function<void(const RoundReport &, llvm::StringRef)> &onRound) {
  RunResult result;
  if (cache && !cache->directory().empty()) {
    result.cacheKey = ScheduleCache::keyFor(session);
    if (std::optional<CacheHit> hit = replayFromCache(
            session, *cache, policy, result.warnings, &result.bypassedSource)) {
      result.cacheHit = true;
      result.cacheSource = hit->source;
      result.cacheFoundNothing = hit->foundNothing;
      if (onRound)
        onRound(hit->report, "cache");
      return result;
    }
  }
  int before = source.calls();
  runSession(session, source, [&](const RoundReport &report) {
    if (onRound)
      onRound(report, source.name());
  });
  result.sourceCalls = source.calls() - before;
  // A found schedule is always worth keeping; "nothing better" only when
  // the source answered and no request failed.
  bool answered = result.sourceCalls > 0 && !source.failed();
  if (cache && (!session.bestMoves().empty() || answered))
    storeInCache(session, *cache, policy.source, result.warnings);
  return result;
}
