//===- LLMMoveSource.cpp --------------------------------------------------===//

#include "conductor/LLMMoveSource.h"
#include "conductor/Search.h"

#include <uv.h>

using namespace waveasm;
using namespace waveasm::conductor;

LLMMoveSource::LLMMoveSource(llm::LLMConfig config, std::string systemPrompt)
    : loop(std::make_unique<uv_loop_t>()), system(std::move(systemPrompt)) {
  uv_loop_init(loop.get());
  http = std::make_unique<llm::HttpMulti>(loop.get());
  client = llm::createChatClient(*http, config);
  if (system.empty())
    system = defaultSystemPrompts().front();
}

LLMMoveSource::~LLMMoveSource() {
  client.reset();
  http.reset();
  uv_run(loop.get(), UV_RUN_DEFAULT); // let the closed handles go
  uv_loop_close(loop.get());
}

std::string LLMMoveSource::name() const {
  return std::string(llm::providerName(client->config().provider)) + ":" +
         client->config().model;
}

std::optional<std::string> LLMMoveSource::nextReply(const Session &,
                                                    llvm::StringRef prompt) {
  llm::ChatRequest request;
  request.system = system;
  request.messages.push_back(llm::ChatMessage::user(prompt.str()));
  std::optional<llm::ChatReply> reply;
  client->send(std::move(request),
               [&](llm::ChatReply r) { reply = std::move(r); });
  while (!reply)
    uv_run(loop.get(), UV_RUN_ONCE);
  if (reply->error) {
    error = *reply->error;
    return std::nullopt;
  }
  error.clear();
  ++numCalls;
  return reply->text;
}

SearchMoveSource::SearchMoveSource(
    llm::LLMConfig config, SearchOptions options,
    std::function<void(const SearchEvent &)> onEvent)
    : config(std::move(config)), options(std::move(options)),
      onEvent(std::move(onEvent)) {}

std::string SearchMoveSource::name() const {
  return std::string(llm::providerName(config.provider)) + ":" + config.model +
         " x" + std::to_string(options.agents);
}

std::optional<std::string> SearchMoveSource::nextReply(const Session &session,
                                                       llvm::StringRef) {
  if (ran)
    return std::nullopt;
  ran = true;
  uv_loop_t loop;
  uv_loop_init(&loop);
  {
    llm::HttpMulti http(&loop);
    std::unique_ptr<llm::ChatClient> client =
        llm::createChatClient(http, config);
    Search search(*client, session, options);
    last = search.run(onEvent);
  }
  uv_run(&loop, UV_RUN_DEFAULT); // closes the handles
  uv_loop_close(&loop);
  if (!last.best || last.best->bestMoves().empty())
    return std::nullopt;
  ++numCalls;
  std::string reply;
  for (const std::string &move : last.best->bestMoves())
    reply += move + "\n";
  return reply;
}
