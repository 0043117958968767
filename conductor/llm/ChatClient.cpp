//===- ChatClient.cpp - Retries, errors and usage shared by providers -----===//

#include "conductor/llm/ChatClient.h"
#include "conductor/llm/WireJson.h"

#include <curl/curl.h>
#include <nlohmann/json.hpp>
#include <uv.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>

namespace waveasm::conductor::llm {

using json = nlohmann::json;

std::vector<ToolSpec> conductorTools() {
  return {
      {"apply_moves",
       "Apply move commands to the tagged IR, in order, as one round. Each "
       "command is one of: 'move Ix after Iy', 'move Ix before Iy', "
       "'swap Ix Iy', 'stage Ix N' (loop bodies: pipelining stage), "
       "'pad lds S P' (LDS rows of S bytes padded by P), 'done'. "
       "Returns the round report (applied, failed, "
       "warnings, metrics).",
       R"({"type":"object","properties":{"moves":{"type":"array",)"
       R"("items":{"type":"string"},"description":"move commands, e.g. )"
       R"('move I5 after I1'"}},"required":["moves"]})"},
      {"evaluate",
       "Return the metrics of the current best schedule (peak registers, "
       "waits, nops, estimated issue slots).",
       R"({"type":"object","properties":{}})"},
  };
}

std::string redact(std::string text, const std::string &secret) {
  if (secret.empty())
    return text;
  size_t pos = 0;
  while ((pos = text.find(secret, pos)) != std::string::npos) {
    text.replace(pos, secret.size(), "[redacted]");
    pos += 10;
  }
  return text;
}

namespace {

/// The server's own explanation ({"error": {"message": ...}} in both
/// providers' shapes), shortened; empty when the body has none.
std::string serverMessage(const std::string &body) {
  json doc = wire::parseUntrusted(body);
  std::string message;
  if (doc.is_object() && doc.contains("error")) {
    const json &error = doc["error"];
    if (error.is_object() && error.contains("message") &&
        error["message"].is_string())
      message = error["message"].get<std::string>();
    else if (error.is_string())
      message = error.get<std::string>();
  }
  if (message.empty())
    message = body.substr(0, 200);
  if (message.size() > 300)
    message = message.substr(0, 300) + "...";
  return message;
}

} // namespace

/// A retry's wait; freed by its close callback.
struct RetryTimer {
  uv_timer_t timer;
  ChatClient *client;
  uint64_t id;
};

struct ChatClient::Operation {
  ChatRequest request;
  Callback callback;
  int attempts = 0;
  HttpMulti::RequestId httpId = 0;
  bool inFlight = false;
  RetryTimer *retryTimer = nullptr;
  std::string lastError;
  long lastStatus = 0;
  bool failWhenTimerFires = false;

  void closeTimer() {
    if (!retryTimer)
      return;
    uv_timer_stop(&retryTimer->timer);
    uv_close((uv_handle_t *)&retryTimer->timer,
             [](uv_handle_t *h) { delete (RetryTimer *)h->data; });
    retryTimer = nullptr;
  }
};

ChatClient::ChatClient(HttpMulti &http, LLMConfig config,
                       const WireFormat &wire)
    : config_(std::move(config)), wire_(wire), http_(http),
      rng_(std::random_device{}()) {}

std::string ChatClient::endpoint() const {
  std::string url = config_.baseUrl;
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  return url + wire_.path;
}

ChatClient::~ChatClient() {
  std::vector<RequestId> ids;
  for (auto &entry : ops_)
    ids.push_back(entry.first);
  for (RequestId id : ids)
    cancel(id);
}

ChatClient::RequestId ChatClient::send(ChatRequest request, Callback callback) {
  RequestId id = nextId_++;
  auto op = std::make_unique<Operation>();
  op->request = std::move(request);
  op->callback = std::move(callback);
  ops_.emplace(id, std::move(op));
  attempt(id);
  return id;
}

std::unique_ptr<ChatClient::Operation> ChatClient::take(RequestId id) {
  auto it = ops_.find(id);
  if (it == ops_.end())
    return nullptr;
  std::unique_ptr<Operation> op = std::move(it->second);
  ops_.erase(it);
  op->closeTimer();
  return op;
}

void ChatClient::cancel(RequestId id) {
  std::unique_ptr<Operation> op = take(id);
  if (op && op->inFlight) {
    op->callback = nullptr;
    http_.cancel(op->httpId); // its callback finds no operation
  }
}

void ChatClient::attempt(RequestId id) {
  Operation &op = *ops_.at(id);
  ++op.attempts;
  // The key is read now, each time, and only handed to curl.
  std::string key;
  if (!config_.apiKeyEnv.empty()) {
    const char *value = std::getenv(config_.apiKeyEnv.c_str());
    if (!value || !*value) {
      failLater(id, "environment variable " + config_.apiKeyEnv +
                        " is not set; it must hold the " +
                        providerName(config_.provider) + " API key");
      return;
    }
    key = value;
  }
  HttpRequest request;
  request.url = endpoint();
  request.headers = wire_.headers(config_, key);
  std::fill(key.begin(), key.end(), '\0');
  request.body = wire_.buildBody(config_, op.request);
  request.timeoutMs = config_.timeoutMs;
  request.connectTimeoutMs = config_.connectTimeoutMs;
  op.inFlight = true;
  op.httpId = http_.send(std::move(request), [this, id](HttpResponse r) {
    onResponse(id, std::move(r));
  });
}

std::string ChatClient::describeHttpError(const HttpResponse &r) const {
  std::string url = endpoint();
  std::string server = serverMessage(r.body);
  std::string status = "HTTP " + std::to_string(r.status);
  if (r.status == 401 || r.status == 403)
    return "authentication failed (" + status + ") at " + url +
           ": check the API key in environment variable " + config_.apiKeyEnv +
           " (server said: " + server + ")";
  if (r.status == 404)
    return "not found (" + status + ") at " + url + ": check the model '" +
           config_.model + "' and the base URL '" + config_.baseUrl +
           "' (server said: " + server + ")";
  return "request failed (" + status + ") at " + url + ": " + server;
}

void ChatClient::onResponse(RequestId id, HttpResponse response) {
  auto it = ops_.find(id);
  if (it == ops_.end() || response.cancelled)
    return;
  Operation &op = *it->second;
  op.inFlight = false;
  op.lastStatus = response.status;

  bool retryable = false;
  std::string error;
  if (!response.transportError.empty()) {
    retryable = !response.permanent;
    error = response.timedOut
                ? "request to " + endpoint() + " timed out after " +
                      std::to_string(config_.timeoutMs) + " ms"
                : "cannot reach " + endpoint() + ": " +
                      response.transportError +
                      (response.permanent ? " (check the base URL)" : "");
  } else if (response.status >= 200 && response.status < 300) {
    ChatReply reply;
    reply.httpStatus = response.status;
    reply.attempts = op.attempts;
    if (std::optional<std::string> err =
            wire_.parseBody(response.body, reply)) {
      reply.error = "malformed response from " + endpoint() + ": " + *err;
    } else {
      total_ += reply.usage;
    }
    finish(id, std::move(reply));
    return;
  } else {
    retryable = response.status == 429 || response.status == 408 ||
                response.status >= 500;
    error = describeHttpError(response);
  }
  // Server text may quote the key back; never let it through.
  if (!config_.apiKeyEnv.empty())
    if (const char *key = std::getenv(config_.apiKeyEnv.c_str()))
      error = redact(error, key);
  op.lastError = error;

  if (retryable && op.attempts <= config_.maxRetries) {
    retryLater(id, backoffMs(op.attempts, response));
    return;
  }
  ChatReply reply;
  reply.httpStatus = response.status;
  reply.attempts = op.attempts;
  reply.error = retryable ? "gave up after " + std::to_string(op.attempts) +
                                " attempts: " + error
                          : error;
  finish(id, std::move(reply));
}

int ChatClient::backoffMs(int attempt, const HttpResponse &response) {
  auto it = response.headers.find("retry-after");
  if (it != response.headers.end() && !it->second.empty()) {
    const std::string &value = it->second;
    long long ms = -1;
    if (std::all_of(value.begin(), value.end(), ::isdigit)) {
      ms = std::stoll(value) * 1000;
    } else if (time_t when = curl_getdate(value.c_str(), nullptr); when != -1) {
      ms =
          std::max<long long>(0, (long long)(when - std::time(nullptr))) * 1000;
    }
    if (ms >= 0)
      return (int)std::min<long long>(ms, config_.retryMaxMs);
  }
  // Exponential with "equal jitter": half fixed, half random, so agents
  // that failed together do not retry together.
  long long exp = (long long)config_.retryBaseMs << std::min(attempt - 1, 20);
  exp = std::min<long long>(exp, config_.retryMaxMs);
  std::uniform_int_distribution<long long> jitter(0, exp / 2);
  return (int)(exp - exp / 2 + jitter(rng_));
}

void ChatClient::retryLater(RequestId id, int delayMs) {
  Operation &op = *ops_.at(id);
  op.retryTimer = new RetryTimer{{}, this, id};
  uv_timer_init(http_.loop(), &op.retryTimer->timer);
  op.retryTimer->timer.data = op.retryTimer;
  uv_timer_start(
      &op.retryTimer->timer,
      [](uv_timer_t *timer) {
        auto *ctx = static_cast<RetryTimer *>(timer->data);
        ChatClient *client = ctx->client;
        RequestId id = ctx->id;
        auto it = client->ops_.find(id);
        if (it == client->ops_.end())
          return;
        Operation &op = *it->second;
        op.closeTimer();
        if (op.failWhenTimerFires) {
          ChatReply reply;
          reply.attempts = op.attempts;
          reply.error = op.lastError;
          client->finish(id, std::move(reply));
          return;
        }
        client->attempt(id);
      },
      (uint64_t)std::max(delayMs, 0), 0);
}

/// Errors found before sending still reach the callback from the loop, so
/// callers never see their callback run inside send().
void ChatClient::failLater(RequestId id, std::string error) {
  Operation &op = *ops_.at(id);
  op.lastError = std::move(error);
  op.failWhenTimerFires = true;
  retryLater(id, 0);
}

void ChatClient::finish(RequestId id, ChatReply reply) {
  std::unique_ptr<Operation> op = take(id);
  if (!op)
    return;
  Callback callback = std::move(op->callback);
  op.reset();
  // Last: the callback may send more requests or destroy this client.
  if (callback)
    callback(std::move(reply));
}

std::unique_ptr<ChatClient> createChatClient(HttpMulti &http,
                                             const LLMConfig &config) {
  return std::make_unique<ChatClient>(http, config,
                                      config.provider == Provider::Anthropic
                                          ? anthropicWireFormat()
                                          : openAIWireFormat());
}

} // namespace waveasm::conductor::llm
