//===- Cache.h - schedules cached by their tagged IR ----------*- C++ -*-===//
//
// The design's cache: the final move sequence of a run, keyed by the SHA-256
// of the tagged IR text before any move (the prompt's header and region, so
// the target and its latencies are part of the key) plus the metric key
// order and the pipeline measured with, as one JSON file per key:
//   $XDG_CACHE_HOME/waveasm/conductor/<sha256>.json
//   (fallback ~/.cache/waveasm/conductor/)
//   {"moves": [...], "metrics": {...}, "rounds": N, "timestamp": "...",
//    "source": "openai:gpt-4o" | "builtin" | "script"}
// No moves records that the source found no better schedule: a later run
// of the same input need not ask again. A hit is replayed through
// Session::applyCommands, so every move is still validated and the result
// measured. A corrupt entry is ignored with a warning. Nothing secret is
// ever stored: the entry has no request data.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_CACHE_H
#define WAVEASM_CONDUCTOR_CACHE_H

#include "analysis/Metrics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace waveasm {
namespace conductor {

class Session;

struct CacheEntry {
  std::vector<std::string> moves;
  ProgramMetrics metrics;
  int rounds = 0;
  std::string timestamp; // ISO 8601 UTC
  /// What found the schedule: "openai:gpt-4o", "builtin", "script" (older
  /// entries stored it as "model").
  std::string source;

  /// The source found no better schedule than the input.
  bool foundNothing() const { return moves.empty(); }
};

class ScheduleCache {
public:
  /// A cache in `directory` (created on the first store).
  explicit ScheduleCache(std::string directory);
  /// $XDG_CACHE_HOME/waveasm/conductor, else $HOME/.cache/waveasm/conductor;
  /// empty when neither variable is set.
  static std::string defaultDirectory();

  /// Hex SHA-256 of `text`.
  static std::string hashText(llvm::StringRef text);
  /// The key of a session: its initial tagged text and metric key order.
  static std::string keyFor(const Session &session);

  /// The entry for `key`; nullopt when absent, or when unreadable or
  /// corrupt (then `warning` says why and where).
  std::optional<CacheEntry> lookup(llvm::StringRef key,
                                   std::string *warning = nullptr) const;
  /// Writes the entry (atomically: a temporary file renamed into place).
  llvm::Error store(llvm::StringRef key, const CacheEntry &entry) const;
  std::string pathFor(llvm::StringRef key) const;
  const std::string &directory() const { return dir; }

  /// A fresh entry for `session`'s best schedule (no moves when it is the
  /// input's), stamped now.
  static CacheEntry entryFor(const Session &session, llvm::StringRef source);

private:
  std::string dir;
};

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_CACHE_H
