//===- ChatClient.h - Asynchronous chat clients -----------------*- C++ -*-===//
//
// ChatClient sends one chat request over HttpMulti and calls back on the
// loop thread with the reply. It owns the policy shared by providers:
// reading the API key from the environment at request time, timeouts,
// retries with exponential backoff and jitter on 429/5xx/timeouts/
// connection errors (honouring Retry-After), immediate clear errors on
// 401/403/404/400, and token usage totals. Subclasses only know the wire
// shape of their provider.
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

class ChatClient {
public:
  using Callback = std::function<void(ChatReply)>;
  using RequestId = uint64_t;

  ChatClient(HttpMulti &http, LLMConfig config);
  /// Pending requests and retry timers are dropped without calling back.
  virtual ~ChatClient();
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
  virtual std::string endpoint() const = 0;

protected:
  /// Provider headers, given the key ("" when no key env var is configured).
  virtual std::vector<std::string> headers(const std::string &key) const = 0;
  virtual std::string buildBody(const ChatRequest &request) const = 0;
  /// Fills text/toolCalls/usage/stopReason, or returns an error message.
  virtual std::optional<std::string> parseBody(const std::string &body,
                                               ChatReply &reply) const = 0;

  LLMConfig config_;

private:
  struct Operation;
  void attempt(RequestId id);
  void onResponse(RequestId id, HttpResponse response);
  void finish(RequestId id, ChatReply reply);
  void retryLater(RequestId id, int delayMs);
  void failLater(RequestId id, std::string error);
  int backoffMs(int attempt, const HttpResponse &response);
  std::string describeHttpError(const HttpResponse &response) const;

  HttpMulti &http_;
  std::map<RequestId, std::unique_ptr<Operation>> ops_;
  RequestId nextId_ = 1;
  Usage total_;
  std::mt19937 rng_;
};

class OpenAIClient : public ChatClient {
public:
  using ChatClient::ChatClient;
  std::string endpoint() const override;

protected:
  std::vector<std::string> headers(const std::string &key) const override;
  std::string buildBody(const ChatRequest &request) const override;
  std::optional<std::string> parseBody(const std::string &body,
                                       ChatReply &reply) const override;
};

class AnthropicClient : public ChatClient {
public:
  using ChatClient::ChatClient;
  std::string endpoint() const override;

protected:
  std::vector<std::string> headers(const std::string &key) const override;
  std::string buildBody(const ChatRequest &request) const override;
  std::optional<std::string> parseBody(const std::string &body,
                                       ChatReply &reply) const override;
};

std::unique_ptr<ChatClient> createChatClient(HttpMulti &http,
                                             const LLMConfig &config);

/// Replaces every occurrence of `secret` in `text` (no-op for "").
std::string redact(std::string text, const std::string &secret);

} // namespace waveasm::conductor::llm

#endif // WAVEASM_CONDUCTOR_LLM_CHATCLIENT_H
