//===- Driver.h - a whole Conductor run: cache, then a source ---*- C++ -*-===//
//
// What the CLI and the server do with a Session: look the schedule up in
// the cache (a hit replays the cached moves through validation and calls no
// source at all), else run rounds from the source until the session
// finishes or the source runs dry, then store what it found.
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
  std::string cacheKey;
  /// Warnings about the cache (corrupt entry, failed write).
  std::vector<std::string> warnings;
  /// Replies the source produced.
  int sourceCalls = 0;
};

/// Replays the cache's entry for `session` (validated like any round);
/// the round's report, or nullopt when there is no usable entry (a corrupt
/// one adds a warning).
std::optional<RoundReport> replayFromCache(Session &session,
                                           const ScheduleCache &cache,
                                           std::vector<std::string> &warnings);
/// Stores `session`'s best schedule when it has at least one accepted move;
/// a failed write adds a warning.
void storeInCache(const Session &session, const ScheduleCache &cache,
                  llvm::StringRef model, std::vector<std::string> &warnings);

/// Runs `session`: from `cache` (null: no cache) if it has an entry, else
/// from `source`; stores a result with at least one accepted move under
/// `model`. `onRound` sees every round with the name of what produced it.
RunResult
runConductor(Session &session, MoveSource &source, const ScheduleCache *cache,
             llvm::StringRef model,
             const std::function<void(const RoundReport &, llvm::StringRef)>
                 &onRound = {});

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_DRIVER_H
