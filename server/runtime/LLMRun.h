//===- LLMRun.h - one LLM schedule in flight (server internal) --*- C++ -*-===//
//
// The state of one `waveasm.scheduleLoop` run with strategy "llm"
// (ScheduleRuns.cpp drives it); here so LspServer.cpp can destroy it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_LLMRUN_H
#define WAVEASM_SERVER_RUNTIME_LLMRUN_H

#include "server/Features.h"
#include "server/runtime/LspServer.h"

#include "conductor/Session.h"
#include "conductor/llm/ChatClient.h"

namespace waveasm::server {

struct LspServer::LLMRun {
  uint64_t id = 0;
  std::string uri;
  std::shared_ptr<const ParsedDocument> parsed;
  ScheduleTarget target;
  std::unique_ptr<conductor::Session> session;
  std::unique_ptr<conductor::llm::ChatClient> client;
  std::optional<conductor::llm::ChatClient::RequestId> request;
  std::string system;
  SharedReply reply;
  lsp::CancellationToken token;
  std::optional<EventLoop::TimerId> pollTimer;
  std::string progressToken;
  bool progressBegun = false;
  bool finished = false;
  std::vector<std::string> roundLog;
  /// "openai:gpt-4o": recorded with the schedule in the Conductor cache.
  std::string model;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_LLMRUN_H
