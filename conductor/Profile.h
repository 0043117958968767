//===- Profile.h - per-instruction GPU profiles for the prompt --*- C++ -*-===//
//
// The design's optional "--- Profiling ---" section: a per-instruction CSV
// (e.g. from rocprof) with rows
//   key,hits,lat_min,lat_mean,lat_max
// where `key` is a Conductor tag ("I5") or the 1-based line of the assembly
// the pipeline emits for the schedule being profiled (the session's current
// schedule). Lines are mapped to the tagged op that produced them; a line
// the pipeline inserted (s_waitcnt, s_nop) is reported against the next
// tagged op ("before I16"). A header row and '#' comments are allowed.
// The rows are data too (TaggedProfile), so the server can show them.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_PROFILE_H
#define WAVEASM_CONDUCTOR_PROFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace waveasm {
namespace conductor {

class Session;

struct ProfileRow {
  std::string key; // "I5" or an assembly line number
  int64_t hits = 0;
  double latMin = 0, latMean = 0, latMax = 0;
  unsigned csvLine = 0;
};

/// Rows of a profile CSV; errors name `source`:line.
llvm::Expected<std::vector<ProfileRow>>
parseProfileCSV(llvm::StringRef text, llvm::StringRef source = "profile");

struct TaggedProfile {
  std::string tag;      // "I5", or "before I16" for inserted instructions
  std::string mnemonic; // "buffer_load_dwordx4", "s_waitcnt"
  int64_t hits = 0;
  double latMin = 0, latMean = 0, latMax = 0;
};

/// The rows of `rows` that name a tag of `session` or a line of its
/// assembly, in order; keys that match nothing go to `unmatched`.
std::vector<TaggedProfile>
correlateProfile(const Session &session, llvm::ArrayRef<ProfileRow> rows,
                 std::vector<std::string> *unmatched = nullptr);

/// "--- Profiling (rocprof, previous run) ---\nI0  buffer_load_dwordx4 ..."
std::string formatProfileSection(llvm::ArrayRef<TaggedProfile> rows);

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_PROFILE_H
