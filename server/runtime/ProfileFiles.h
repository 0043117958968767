//===- ProfileFiles.h - profile CSVs for open documents ---------*- C++ -*-===//
//
// Finds and reads the profile CSV of a document (the `profile` setting or
// `<document>.profile.csv` next to it), cached by path, modification time
// and size: a request re-reads the file only when it changed. The file is
// never written.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_PROFILEFILES_H
#define WAVEASM_SERVER_RUNTIME_PROFILEFILES_H

#include "server/Features.h"

#include "llvm/Support/Chrono.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace waveasm::server {

/// The profile file for the document at `documentPath` under `setting`
/// (ServerSettings::profile); nullopt when profiles are off. `explicitPath`
/// tells whether the user named it (a missing file is then an error, a
/// missing default file is not).
struct ProfileLocation {
  std::string path;
  bool explicitPath = false;
};
std::optional<ProfileLocation>
resolveProfilePath(const std::optional<std::string> &setting,
                   llvm::StringRef documentPath);

class ProfileFiles {
public:
  struct Result {
    std::shared_ptr<const DocumentProfile> profile; // null: none
    std::string error; // "path:line: message"; empty: none
  };
  /// The rows of `location`'s file, from the cache while the file's time
  /// and size are unchanged.
  Result load(const ProfileLocation &location);

private:
  struct Entry {
    llvm::sys::TimePoint<> mtime;
    uint64_t size = 0;
    Result result;
  };
  std::map<std::string, Entry> cache;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_PROFILEFILES_H
