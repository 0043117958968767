//===- ActionCache.h - code actions kept per document version ---*- C++ -*-===//
//
// Some code actions cost tens of milliseconds ("Pipeline this loop"
// compiles, pipelines and simulates the program twice), and an editor asks
// for code actions again on every cursor move and every lightbulb check.
// Their answer depends only on the text (its version), the line and the
// settings, so the last few answers are kept and the same question is
// answered without computing again. Touched from the worker thread and
// cleared from the event loop's: one mutex.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_ACTIONCACHE_H
#define WAVEASM_SERVER_RUNTIME_ACTIONCACHE_H

#include "protocol/LspTypes.h"

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace waveasm::server {

class ActionCache {
public:
  struct Key {
    std::string uri;
    int64_t version = 0;
    unsigned line = 0;
    bool operator==(const Key &o) const {
      return uri == o.uri && version == o.version && line == o.line;
    }
  };

  /// The actions stored for `key` under the current settings, if any.
  std::optional<std::vector<lsp::CodeAction>> find(const Key &key,
                                                   uint64_t settings) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const Entry &entry : entries)
      if (entry.key == key && entry.settings == settings)
        return entry.actions;
    return std::nullopt;
  }

  void store(Key key, uint64_t settings, std::vector<lsp::CodeAction> actions) {
    std::lock_guard<std::mutex> lock(mutex);
    entries.push_front({std::move(key), settings, std::move(actions)});
    if (entries.size() > kCapacity)
      entries.pop_back();
  }

private:
  /// A few lines of a few documents: the cursor's recent loop headers.
  static constexpr size_t kCapacity = 16;
  struct Entry {
    Key key;
    uint64_t settings;
    std::vector<lsp::CodeAction> actions;
  };
  std::mutex mutex;
  std::deque<Entry> entries;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_ACTIONCACHE_H
