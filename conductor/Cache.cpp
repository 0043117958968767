//===- Cache.cpp - schedules cached by the tagged IR ----------------------===//

#include "conductor/Cache.h"

#include "conductor/Session.h"
#include "support/BoundedJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>

using namespace waveasm;
using namespace waveasm::conductor;

ScheduleCache::ScheduleCache(std::string directory)
    : dir(std::move(directory)) {}

std::string ScheduleCache::defaultDirectory() {
  llvm::SmallString<256> path;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    path = *xdg;
  } else if (std::optional<std::string> home =
                 llvm::sys::Process::GetEnv("HOME");
             home && !home->empty()) {
    path = *home;
    llvm::sys::path::append(path, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(path, "waveasm", "conductor");
  return std::string(path);
}

std::string ScheduleCache::hashText(llvm::StringRef text) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string ScheduleCache::keyFor(const Session &session) {
  std::string text = session.initialTaggedText();
  text += "\n--- is_better order:";
  for (MetricKey key : session.keyOrder())
    text += (" " + stringifyMetricKey(key)).str();
  // The same moves measure differently through another pipeline.
  text += session.optimizesPipeline() ? "\n--- pipeline: full\n"
                                      : "\n--- pipeline: backend\n";
  return hashText(text);
}

std::string ScheduleCache::pathFor(llvm::StringRef key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + ".json");
  return std::string(path);
}

std::optional<CacheEntry> ScheduleCache::lookup(llvm::StringRef key,
                                                std::string *warning) const {
  std::string path = pathFor(key);
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  auto warn = [&](const llvm::Twine &why) -> std::optional<CacheEntry> {
    if (warning)
      *warning = ("ignoring corrupt cache entry " + path + ": " + why).str();
    return std::nullopt;
  };
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return warn(buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      parseJsonBounded((*buffer)->getBuffer());
  if (!json)
    return warn(llvm::toString(json.takeError()));
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return warn("not a JSON object");
  CacheEntry entry;
  const llvm::json::Array *moves = object->getArray("moves");
  if (!moves)
    return warn("no \"moves\" array");
  for (const llvm::json::Value &move : *moves) {
    std::optional<llvm::StringRef> text = move.getAsString();
    if (!text)
      return warn("a move is not a string");
    entry.moves.push_back(text->str());
  }
  if (const llvm::json::Value *metrics = object->get("metrics")) {
    llvm::json::Path::Root root;
    if (!fromJSON(*metrics, entry.metrics, root))
      return warn("bad \"metrics\"");
  }
  if (std::optional<int64_t> rounds = object->getInteger("rounds"))
    entry.rounds = static_cast<int>(*rounds);
  if (std::optional<llvm::StringRef> s = object->getString("timestamp"))
    entry.timestamp = s->str();
  if (std::optional<llvm::StringRef> s = object->getString("source"))
    entry.source = s->str();
  else if (std::optional<llvm::StringRef> s = object->getString("model"))
    entry.source = s->str();
  return entry;
}

llvm::Error ScheduleCache::store(llvm::StringRef key,
                                 const CacheEntry &entry) const {
  if (dir.empty())
    return llvm::createStringError("no cache directory (set XDG_CACHE_HOME "
                                   "or HOME)");
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create " + dir + ": " +
                                           ec.message());
  llvm::json::Array moves;
  for (const std::string &move : entry.moves)
    moves.push_back(move);
  llvm::json::Object object{{"moves", std::move(moves)},
                            {"metrics", toJSON(entry.metrics)},
                            {"rounds", entry.rounds},
                            {"timestamp", entry.timestamp},
                            {"source", entry.source}};
  std::string path = pathFor(key);
  std::string temp =
      path + ".tmp" + std::to_string(llvm::sys::Process::getProcessId());
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temp, ec);
    if (ec)
      return llvm::createStringError(ec, "cannot write " + temp + ": " +
                                             ec.message());
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(object))) << "\n";
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path))
    return llvm::createStringError(ec, "cannot write " + path + ": " +
                                           ec.message());
  return llvm::Error::success();
}

CacheEntry ScheduleCache::entryFor(const Session &session,
                                   llvm::StringRef source) {
  CacheEntry entry;
  entry.moves = session.bestMoves();
  entry.metrics = session.bestMetrics();
  entry.rounds = session.roundsUsed();
  entry.source = source.str();
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  entry.timestamp = stamp;
  return entry;
}
