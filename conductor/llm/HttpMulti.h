//===- HttpMulti.h - Concurrent HTTP on a libuv loop ------------*- C++ -*-===//
//
// libcurl's multi interface driven by a libuv loop: curl tells us which
// sockets to watch (uv_poll_t per socket) and when to wake it (one
// uv_timer_t); we call curl_multi_socket_action on readiness. Every request
// is a curl easy handle in the one multi handle, so any number of requests
// are in flight on the loop's thread with no thread per request.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_LLM_HTTPMULTI_H
#define WAVEASM_CONDUCTOR_LLM_HTTPMULTI_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

typedef struct uv_loop_s uv_loop_t;
typedef struct uv_timer_s uv_timer_t;

namespace waveasm::conductor::llm {

struct HttpRequest {
  std::string url;
  /// "Name: value" lines. Secret header values are only ever held here, in
  /// memory, for the duration of the transfer.
  std::vector<std::string> headers;
  std::string body; // POSTed when non-empty
  int timeoutMs = 0;
  int connectTimeoutMs = 0;
};

struct HttpResponse {
  long status = 0; // 0 when no HTTP response arrived
  std::string body;
  /// Response headers, names lower-cased (the last value wins).
  std::map<std::string, std::string> headers;
  /// Transport failure (connection refused, timeout, ...), empty on success.
  std::string transportError;
  bool timedOut = false;
  /// A failure a retry cannot fix (unsupported scheme, malformed URL, an
  /// oversized body).
  bool permanent = false;
  bool cancelled = false;
};

class HttpMulti {
public:
  using Callback = std::function<void(HttpResponse)>;
  using RequestId = uint64_t;

  explicit HttpMulti(uv_loop_t *loop);
  /// Cancels every transfer (without calling back) and closes the libuv
  /// handles; their memory is released when the loop next runs.
  ~HttpMulti();
  HttpMulti(const HttpMulti &) = delete;
  HttpMulti &operator=(const HttpMulti &) = delete;

  /// Starts a request; the callback runs on the loop thread when it ends.
  RequestId send(HttpRequest request, Callback callback);
  /// Ends a request now; its callback runs with `cancelled` set.
  void cancel(RequestId id);

  uv_loop_t *loop() const { return loop_; }
  size_t inFlight() const { return transfers_.size(); }
  /// The largest number of requests in flight at once so far.
  size_t maxInFlight() const { return maxInFlight_; }

  struct Transfer;

private:
  static int onSocket(void *easy, int fd, int what, void *self, void *ctx);
  static int onTimer(void *multi, long timeoutMs, void *self);
  void socketAction(int fd, int events);
  void drainFinished();

  uv_loop_t *loop_;
  void *multi_;       // CURLM*
  uv_timer_t *timer_; // heap: freed by its close callback
  std::map<RequestId, std::unique_ptr<Transfer>> transfers_;
  RequestId nextId_ = 1;
  size_t maxInFlight_ = 0;
};

} // namespace waveasm::conductor::llm

#endif // WAVEASM_CONDUCTOR_LLM_HTTPMULTI_H
