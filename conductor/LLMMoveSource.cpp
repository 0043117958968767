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
  return reply->text;
}
