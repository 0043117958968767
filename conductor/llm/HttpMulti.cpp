//===- HttpMulti.cpp - libcurl multi on libuv -----------------------------===//
//
// The socket/timer wiring follows curl's multi-uv example: curl's socket
// callback creates or updates a uv_poll_t per socket, its timer callback
// arms one uv_timer_t, and both libuv callbacks hand control back with
// curl_multi_socket_action, after which finished transfers are collected.
//
//===----------------------------------------------------------------------===//

#include "conductor/llm/HttpMulti.h"

#include <curl/curl.h>
#include <uv.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <mutex>

namespace waveasm::conductor::llm {

struct HttpMulti::Transfer {
  RequestId id = 0;
  CURL *easy = nullptr;
  curl_slist *headers = nullptr;
  std::string body;
  HttpResponse response;
  Callback callback;
  ~Transfer() {
    // The header list holds the API key; wipe it before the memory goes.
    for (curl_slist *h = headers; h; h = h->next)
      std::fill(h->data, h->data + std::strlen(h->data), '\0');
    if (headers)
      curl_slist_free_all(headers);
    if (easy)
      curl_easy_cleanup(easy);
  }
};

namespace {

/// One watched socket. Closed through uv_close; freed in its close callback.
struct SocketWatch {
  uv_poll_t poll;
  curl_socket_t fd;
  HttpMulti *owner;
};

void freeOnClose(uv_handle_t *handle) { delete (SocketWatch *)handle->data; }

/// A chat reply is kilobytes; a body past this is not an LLM answering.
constexpr size_t kMaxBodyBytes = 64u << 20;

size_t writeBody(char *data, size_t size, size_t count, void *user) {
  auto *body = static_cast<std::string *>(user);
  if (body->size() + size * count > kMaxBodyBytes)
    return 0; // curl ends the transfer with a write error
  body->append(data, size * count);
  return size * count;
}

size_t writeHeader(char *data, size_t size, size_t count, void *user) {
  auto *headers = static_cast<std::map<std::string, std::string> *>(user);
  std::string line(data, size * count);
  // A new status line (e.g. after "100 Continue") starts a new header set.
  if (line.rfind("HTTP/", 0) == 0) {
    headers->clear();
    return size * count;
  }
  size_t colon = line.find(':');
  if (colon == std::string::npos)
    return size * count;
  std::string name = line.substr(0, colon);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  size_t begin = line.find_first_not_of(" \t", colon + 1);
  size_t end = line.find_last_not_of(" \t\r\n");
  (*headers)[name] = begin == std::string::npos || end < begin
                         ? std::string()
                         : line.substr(begin, end - begin + 1);
  return size * count;
}

void initCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

} // namespace

HttpMulti::HttpMulti(uv_loop_t *loop) : loop_(loop) {
  initCurlOnce();
  multi_ = curl_multi_init();
  timer_ = new uv_timer_t;
  uv_timer_init(loop_, timer_);
  timer_->data = this;
  curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &HttpMulti::onSocket);
  curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &HttpMulti::onTimer);
  curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
}

HttpMulti::~HttpMulti() {
  for (auto &entry : transfers_)
    curl_multi_remove_handle(multi_, entry.second->easy);
  transfers_.clear();
  // Cleanup reports CURL_POLL_REMOVE for the remaining sockets, which
  // closes their watches.
  curl_multi_cleanup(multi_);
  uv_timer_stop(timer_);
  uv_close((uv_handle_t *)timer_,
           [](uv_handle_t *h) { delete (uv_timer_t *)h; });
}

HttpMulti::RequestId HttpMulti::send(HttpRequest request, Callback callback) {
  auto transfer = std::make_unique<Transfer>();
  Transfer &t = *transfer;
  t.id = nextId_++;
  t.callback = std::move(callback);
  t.body = std::move(request.body);
  t.easy = curl_easy_init();
  CURL *easy = t.easy;
  curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  // Chat APIs are HTTP(S); a base URL must not reach file:// or others.
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, writeBody);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t.response.body);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, writeHeader);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &t.response.headers);
  curl_easy_setopt(easy, CURLOPT_PRIVATE, &t);
  if (request.timeoutMs > 0)
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, (long)request.timeoutMs);
  if (request.connectTimeoutMs > 0)
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                     (long)request.connectTimeoutMs);
  if (!t.body.empty()) {
    curl_easy_setopt(easy, CURLOPT_POST, 1L);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, t.body.c_str());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                     (curl_off_t)t.body.size());
  }
  // No "Expect: 100-continue" round trip for large prompts.
  t.headers = curl_slist_append(t.headers, "Expect:");
  for (const std::string &h : request.headers)
    t.headers = curl_slist_append(t.headers, h.c_str());
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, t.headers);
  // The secret header values now live only in the slist; scrub the copy.
  for (std::string &h : request.headers)
    std::fill(h.begin(), h.end(), '\0');

  RequestId id = t.id;
  transfers_.emplace(id, std::move(transfer));
  maxInFlight_ = std::max(maxInFlight_, transfers_.size());
  // Adding the handle arms the timer; the transfer starts on the loop.
  curl_multi_add_handle(multi_, easy);
  return id;
}

void HttpMulti::cancel(RequestId id) {
  auto it = transfers_.find(id);
  if (it == transfers_.end())
    return;
  std::unique_ptr<Transfer> t = std::move(it->second);
  transfers_.erase(it);
  curl_multi_remove_handle(multi_, t->easy);
  t->response.cancelled = true;
  t->response.transportError = "cancelled";
  Callback cb = std::move(t->callback);
  HttpResponse response = std::move(t->response);
  t.reset();
  if (cb)
    cb(std::move(response));
}

int HttpMulti::onSocket(void * /*easy*/, int fd, int what, void *self,
                        void *ctx) {
  auto *http = static_cast<HttpMulti *>(self);
  auto *watch = static_cast<SocketWatch *>(ctx);
  if (what == CURL_POLL_REMOVE) {
    if (watch) {
      uv_poll_stop(&watch->poll);
      uv_close((uv_handle_t *)&watch->poll, freeOnClose);
      curl_multi_assign(http->multi_, fd, nullptr);
    }
    return 0;
  }
  if (!watch) {
    watch = new SocketWatch;
    watch->fd = fd;
    watch->owner = http;
    watch->poll.data = watch;
    uv_poll_init_socket(http->loop_, &watch->poll, fd);
    curl_multi_assign(http->multi_, fd, watch);
  }
  int events = 0;
  if (what == CURL_POLL_IN || what == CURL_POLL_INOUT)
    events |= UV_READABLE;
  if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT)
    events |= UV_WRITABLE;
  uv_poll_start(&watch->poll, events,
                [](uv_poll_t *poll, int status, int events) {
                  auto *w = static_cast<SocketWatch *>(poll->data);
                  int flags = 0;
                  if (status < 0)
                    flags = CURL_CSELECT_ERR;
                  if (events & UV_READABLE)
                    flags |= CURL_CSELECT_IN;
                  if (events & UV_WRITABLE)
                    flags |= CURL_CSELECT_OUT;
                  w->owner->socketAction(w->fd, flags);
                });
  return 0;
}

int HttpMulti::onTimer(void * /*multi*/, long timeoutMs, void *self) {
  auto *http = static_cast<HttpMulti *>(self);
  if (timeoutMs < 0) {
    uv_timer_stop(http->timer_);
    return 0;
  }
  // A zero timeout still goes through the loop: curl must not be re-entered
  // from its own callback.
  uv_timer_start(
      http->timer_,
      [](uv_timer_t *timer) {
        static_cast<HttpMulti *>(timer->data)
            ->socketAction(CURL_SOCKET_TIMEOUT, 0);
      },
      (uint64_t)timeoutMs, 0);
  return 0;
}

void HttpMulti::socketAction(int fd, int events) {
  int running = 0;
  curl_multi_socket_action(multi_, fd, events, &running);
  drainFinished();
}

void HttpMulti::drainFinished() {
  // Collect first, call back after: a callback may send or cancel requests.
  std::vector<std::unique_ptr<Transfer>> done;
  int pending = 0;
  while (CURLMsg *msg = curl_multi_info_read(multi_, &pending)) {
    if (msg->msg != CURLMSG_DONE)
      continue;
    Transfer *t = nullptr;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&t);
    CURLcode code = msg->data.result;
    curl_multi_remove_handle(multi_, msg->easy_handle);
    if (!t)
      continue;
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->response.status);
    if (code != CURLE_OK) {
      t->response.transportError = curl_easy_strerror(code);
      t->response.timedOut = code == CURLE_OPERATION_TIMEDOUT;
      t->response.permanent = code == CURLE_UNSUPPORTED_PROTOCOL ||
                              code == CURLE_URL_MALFORMAT ||
                              code == CURLE_WRITE_ERROR;
    }
    auto it = transfers_.find(t->id);
    if (it == transfers_.end())
      continue;
    done.push_back(std::move(it->second));
    transfers_.erase(it);
  }
  for (std::unique_ptr<Transfer> &t : done) {
    Callback cb = std::move(t->callback);
    HttpResponse response = std::move(t->response);
    t.reset();
    if (cb)
      cb(std::move(response));
  }
}

} // namespace waveasm::conductor::llm
