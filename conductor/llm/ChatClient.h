//===- ChatClient.h - Asynchronous chat clients -----------------*- C++ -*-===//
//
// ChatClient sends one chat request over HttpMulti and calls back on the
// loop thread with the reply. It owns the policy shared by providers:
// reading the API key from the environment at request time, timeouts,
// retries with exponential backoff and jitter on 429/5xx/timeouts/
// connection errors (honouring Retry-After), immediate clear errors on
// 401/403/404/400, and token usage totals. A WireFormat holds the only
// provider-specific part: the wire shape of its API.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_LLM_CHATCLIENT_H
#define WAVEASM_CONDUCTOR_LLM_CHATCLIENT_H

#include "conductor/llm/ChatTypes.h"
#include "conductor/llm/HttpMulti.h"
#include "conductor/llm/LLMConfig.h"

#include <functional>
#include <map>
#include <memory>
#include <random>

namespace waveasm::conductor::llm {

/// What differs between providers: the wire shape of one chat API.
struct WireFormat {
  /// Appended to the configured base URL.
  const char *path;
  /// Provider headers, given the key ("" when no key env var is configured).
  std::vector<std::string> (*headers)(const LLMConfig &config,
                                      const std::string &key);
  std::string (*buildBody)(const LLMConfig &config, const ChatRequest &request);
  /// Fills text/toolCalls/usage/stopReason, or returns an error message.
  std::optional<std::string> (*parseBody)(const std::string &body,
                                          ChatReply &reply);
};

/// OpenAI-compatible chat completions (OpenAIClient.cpp).
const WireFormat &openAIWireFormat();
/// Anthropic messages (AnthropicClient.cpp).
const WireFormat &anthropicWireFormat();

class ChatClient {
public:
  using Callback = std::function<void(ChatReply)>;
  using RequestId = uint64_t;

  ChatClient(HttpMulti &http, LLMConfig config, const WireFormat &wire);
  /// Pending requests and retry timers are dropped without calling back.
  ~ChatClient();
  ChatClient(const ChatClient &) = delete;
  ChatClient &operator=(const ChatClient &) = delete;

  /// Sends `request`; `callback` runs on the loop thread exactly once
  /// (unless the client is destroyed or the request cancelled first), and
  /// never before send() returns.
  RequestId send(ChatRequest request, Callback callback);
  /// Drops a request (in flight or waiting to retry) without calling back.
  void cancel(RequestId id);

  const LLMConfig &config() const { return config_; }
  HttpMulti &http() const { return http_; }
  /// Tokens of every successful reply so far.
  Usage totalUsage() const { return total_; }
  size_t pending() const { return ops_.size(); }

  /// The URL requests go to.
  std::string endpoint() const;

private:
  struct Operation;
  void attempt(RequestId id);
  void onResponse(RequestId id, HttpResponse response);
  /// Removes the operation, its retry timer closed; null if it is gone.
  std::unique_ptr<Operation> take(RequestId id);
  void finish(RequestId id, ChatReply reply);
  void retryLater(RequestId id, int delayMs);
  void failLater(RequestId id, std::string error);
  int backoffMs(int attempt, const HttpResponse &response);
  std::string describeHttpError(const HttpResponse &response) const;

  LLMConfig config_;
  const WireFormat &wire_;
  HttpMulti &http_;
  std::map<RequestId, std::unique_ptr<Operation>> ops_;
  RequestId nextId_ = 1;
  Usage total_;
  std::mt19937 rng_;
};

std::unique_ptr<ChatClient> createChatClient(HttpMulti &http,
                                             const LLMConfig &config);

/// Replaces every occurrence of `secret` in `text` (no-op for "").
std::string redact(std::string text, const std::string &secret);

} // namespace waveasm::conductor::llm

#endif // WAVEASM_CONDUCTOR_LLM_CHATCLIENT_H
