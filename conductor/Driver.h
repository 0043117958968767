//===- Driver.h - a whole Conductor run: cache, then a source ---*- C++ -*-===//
//
// What the CLI and the server do with a Session: look the schedule up in
// the cache (a hit replays the cached moves through validation and calls no
// source at all), else run rounds from the source until the session
// finishes or the source runs dry, then store what it found, "no better
// schedule" included, with the name of the source that found it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_DRIVER_H
#define WAVEASM_CONDUCTOR_DRIVER_H

#include "conductor/Cache.h"
#include "conductor/MoveSource.h"
#include "conductor/Session.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace waveasm {
namespace conductor {

struct RunResult {
  bool cacheHit = false;
  /// On a hit: what found the cached schedule ("builtin", "openai:gpt-4o").
  std::string cacheSource;
  /// A hit with no moves: that source found no better schedule.
  bool cacheFoundNothing = false;
  /// The source of an entry skipped because only the same source's entries
  /// were asked for (CachePolicy::sameSourceOnly).
  std::string bypassedSource;
  std::string cacheKey;
  /// Warnings about the cache (corrupt entry, failed write).
  std::vector<std::string> warnings;
  /// Replies the source produced.
  int sourceCalls = 0;
};

/// Which cache entries a run may replay.
struct CachePolicy {
  /// The source this run asks ("openai:gpt-4o", "builtin", ...).
  std::string source;
  /// Replay only entries that `source` recorded; an entry of another
  /// source is bypassed (and overwritten by this run's result).
  bool sameSourceOnly = false;
};

/// A replayed cache entry.
struct CacheHit {
  RoundReport report; // the replayed round (nothing applied: foundNothing)
  std::string source; // what found the cached schedule
  bool foundNothing = false;
};

/// Replays the cache's entry for `session` (validated like any round), or
/// nullopt when there is no usable entry (a corrupt one adds a warning) or
/// the policy bypasses it (then `bypassedSource` names the entry's source).
std::optional<CacheHit> replayFromCache(Session &session,
                                        const ScheduleCache &cache,
                                        const CachePolicy &policy,
                                        std::vector<std::string> &warnings,
                                        std::string *bypassedSource = nullptr);
/// Stores `session`'s best schedule under `source`, or that it found none
/// better when the session kept no move; a failed write adds a warning.
void storeInCache(const Session &session, const ScheduleCache &cache,
                  llvm::StringRef source, std::vector<std::string> &warnings);

/// Runs `session`: from `cache` (null: no cache) if it has an entry the
/// policy accepts, else from `source`; stores the result under the
/// policy's source: the schedule found, or "no better schedule" when the
/// source answered and failed no request. `onRound` sees every round with
/// the name of what produced it ("cache" for a replay).
RunResult
runConductor(Session &session, MoveSource &source, const ScheduleCache *cache,
             const CachePolicy &policy,
             const std::function<void(const RoundReport &, llvm::StringRef)>
                 &onRound = {});

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_DRIVER_H
