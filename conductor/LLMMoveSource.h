//===- LLMMoveSource.h - One LLM agent as a blocking MoveSource -*- C++ -*-===//
//
// For callers that drive a Session synchronously (the CLI's single-agent
// loop, tests): each nextReply sends the prompt and runs a private libuv
// loop until the reply arrives; SearchMoveSource does the same for a whole
// parallel search. Callers that already own a loop (the language server)
// use ChatClient or Search directly.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_LLMMOVESOURCE_H
#define WAVEASM_CONDUCTOR_LLMMOVESOURCE_H

#include "conductor/MoveSource.h"
#include "conductor/Search.h"
#include "conductor/Session.h"
#include "conductor/llm/ChatClient.h"

#include <memory>

typedef struct uv_loop_s uv_loop_t;

namespace waveasm {
namespace conductor {

class LLMMoveSource : public MoveSource {
public:
  /// `systemPrompt` empty: the first of defaultSystemPrompts().
  explicit LLMMoveSource(llm::LLMConfig config, std::string systemPrompt = "");
  ~LLMMoveSource() override;

  std::string name() const override;
  /// nullopt when the request failed for good; lastError() says why.
  std::optional<std::string> nextReply(const Session &session,
                                       llvm::StringRef prompt) override;

  const std::string &lastError() const { return error; }
  bool failed() const override { return !error.empty(); }
  llm::Usage usage() const { return client->totalUsage(); }

private:
  std::unique_ptr<uv_loop_t> loop;
  std::unique_ptr<llm::HttpMulti> http;
  std::unique_ptr<llm::ChatClient> client;
  std::string system;
  std::string error;
};

/// The parallel search as a MoveSource: the first nextReply runs a Search
/// from the session (forked, never changed) on a private loop and answers
/// the best lineage's accepted moves as one reply, which the caller's loop
/// validates and measures again (and may cache); then it has nothing more.
class SearchMoveSource : public MoveSource {
public:
  SearchMoveSource(llm::LLMConfig config, SearchOptions options,
                   std::function<void(const SearchEvent &)> onEvent = {});
  std::string name() const override;
  std::optional<std::string> nextReply(const Session &session,
                                       llvm::StringRef prompt) override;
  /// The search's counters and errors (best moved out) once it ran.
  const SearchResult &result() const { return last; }
  bool failed() const override { return !last.errors.empty(); }

private:
  llm::LLMConfig config;
  SearchOptions options;
  std::function<void(const SearchEvent &)> onEvent;
  SearchResult last;
  bool ran = false;
};

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_LLMMOVESOURCE_H
