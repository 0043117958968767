//===- ProfileFiles.cpp - profile CSVs for open documents -----------------===//

#include "server/runtime/ProfileFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace waveasm;
using namespace waveasm::server;

std::optional<ProfileLocation>
waveasm::server::resolveProfilePath(const std::optional<std::string> &setting,
                                    llvm::StringRef documentPath) {
  if (setting && setting->empty())
    return std::nullopt;
  llvm::StringRef dir = llvm::sys::path::parent_path(documentPath);
  if (!setting)
    return ProfileLocation{(documentPath + ".profile.csv").str(), false};
  if (llvm::sys::path::is_absolute(*setting))
    return ProfileLocation{*setting, true};
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, *setting);
  return ProfileLocation{path.str().str(), true};
}

ProfileFiles::Result ProfileFiles::load(const ProfileLocation &location) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(location.path, status) ||
      !llvm::sys::fs::exists(status)) {
    cache.erase(location.path);
    Result none;
    if (location.explicitPath)
      none.error = location.path + ": cannot read the profile CSV (no such "
                                   "file); check the waveasm setting profile";
    return none;
  }
  auto it = cache.find(location.path);
  if (it != cache.end() &&
      it->second.mtime == status.getLastModificationTime() &&
      it->second.size == status.getSize())
    return it->second.result;

  Entry entry;
  entry.mtime = status.getLastModificationTime();
  entry.size = status.getSize();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(location.path, /*IsText=*/true);
  if (!buffer) {
    entry.result.error = location.path + ": cannot read the profile CSV: " +
                         buffer.getError().message();
  } else {
    llvm::Expected<std::vector<conductor::ProfileRow>> rows =
        conductor::parseProfileCSV((*buffer)->getBuffer(), location.path);
    if (!rows) {
      entry.result.error = llvm::toString(rows.takeError());
    } else {
      auto profile = std::make_shared<DocumentProfile>();
      profile->path = location.path;
      profile->rows = std::move(*rows);
      entry.result.profile = std::move(profile);
    }
  }
  Result result = entry.result;
  cache[location.path] = std::move(entry);
  return result;
}
