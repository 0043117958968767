//===- Dispatcher.h - JSON-RPC endpoint with LSP lifecycle -------*- C++
//-*-===//
//
// Routes incoming messages to typed handlers and sends what they answer.
// It owns the protocol rules that do not depend on any feature:
//   - the lifecycle: ServerNotInitialized before `initialize`, a second
//     `initialize` or anything after `shutdown` is InvalidRequest,
//     notifications before `initialize` dropped, `exit` reports 0 after
//     `shutdown` and 1 otherwise;
//   - errors: ParseError, InvalidRequest, MethodNotFound (requests only;
//     unknown notifications and `$/` notifications are ignored),
//     InvalidParams when the parameters do not decode;
//   - `$/cancelRequest`: a pending request is answered RequestCancelled at
//     once, its token flips (so background work can drop it), and the
//     handler's late answer is discarded;
//   - outgoing requests (workDoneProgress/create, refreshes) and matching
//     their responses.
// Single-threaded: call everything on the event loop's thread. Handlers
// may keep their Reply and answer later, from that same thread.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_DISPATCHER_H
#define WAVEASM_PROTOCOL_DISPATCHER_H

#include "protocol/JsonRpc.h"
#include "protocol/Logger.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>

namespace waveasm::lsp {

/// Whether a request was cancelled. Cheap to copy; safe to read from any
/// thread (background jobs poll it).
class CancellationToken {
public:
  CancellationToken() : flag(std::make_shared<std::atomic<bool>>(false)) {}
  bool isCancelled() const { return flag->load(std::memory_order_relaxed); }
  void cancel() const { flag->store(true, std::memory_order_relaxed); }

private:
  std::shared_ptr<std::atomic<bool>> flag;
};

namespace detail {
struct DispatcherCore;
struct PendingRequest;
} // namespace detail

/// The single answer to one request. Move-only. Answering after the request
/// was cancelled, or twice, does nothing. Dropping it unanswered answers
/// InternalError, so a client never waits for a reply that cannot come.
class ReplyHandle {
public:
  ReplyHandle(std::weak_ptr<detail::DispatcherCore> core,
              std::shared_ptr<detail::PendingRequest> pending);
  ReplyHandle(ReplyHandle &&) = default;
  ReplyHandle &operator=(ReplyHandle &&other);
  ReplyHandle(const ReplyHandle &) = delete;
  ReplyHandle &operator=(const ReplyHandle &) = delete;
  ~ReplyHandle();

  void operator()(llvm::Expected<llvm::json::Value> result);
  CancellationToken token() const;
  bool isCancelled() const { return token().isCancelled(); }
  /// The request's id as sent (for logs).
  std::string idString() const;

private:
  std::weak_ptr<detail::DispatcherCore> core;
  std::shared_ptr<detail::PendingRequest> pending;
};

/// A ReplyHandle that serializes a typed result.
template <typename R> class Reply {
public:
  explicit Reply(ReplyHandle handle) : handle(std::move(handle)) {}
  void operator()(llvm::Expected<R> result) {
    if (!result)
      return handle(result.takeError());
    handle(llvm::json::Value(std::move(*result)));
  }
  CancellationToken token() const { return handle.token(); }
  bool isCancelled() const { return handle.isCancelled(); }
  /// The untyped handle (to answer with another result type).
  ReplyHandle take() && { return std::move(handle); }

private:
  ReplyHandle handle;
};

class Dispatcher {
public:
  /// Receives every outgoing message (responses, notifications, requests),
  /// in order; the transport frames and writes them.
  using Writer = std::function<void(const llvm::json::Value &message)>;
  enum class State { Uninitialized, Running, ShuttingDown, Exited };

  explicit Dispatcher(Writer writer);
  ~Dispatcher();

  template <typename P, typename R>
  void onRequest(llvm::StringRef method,
                 std::function<void(const P &, Reply<R>)> handler) {
    requestHandlers[method] =
        [method = method.str(), handler = std::move(handler)](
            const llvm::json::Value &raw, ReplyHandle reply) {
          P params;
          llvm::json::Path::Root root;
          if (!fromJSON(raw, params, root))
            return reply(makeError(ErrorCode::InvalidParams,
                                   "invalid parameters of " + method + ": " +
                                       llvm::toString(root.getError())));
          handler(params, Reply<R>(std::move(reply)));
        };
  }

  template <typename P>
  void onNotification(llvm::StringRef method,
                      std::function<void(const P &)> handler) {
    notificationHandlers[method] =
        [method = method.str(),
         handler = std::move(handler)](const llvm::json::Value &raw) {
          P params;
          llvm::json::Path::Root root;
          if (!fromJSON(raw, params, root)) {
            logError("dropping {0}: invalid parameters: {1}", method,
                     llvm::toString(root.getError()));
            return;
          }
          handler(params);
        };
  }

  /// Called on `exit` with the process exit code.
  void onExit(std::function<void(int)> handler) { exitHandler = handler; }

  /// Handles one message body from the framing layer.
  void handleMessage(llvm::StringRef body);
  /// Answers a frame whose header was unusable: ParseError, null id.
  void handleBadHeader(llvm::StringRef problem);

  void notify(llvm::StringRef method, llvm::json::Value params);
  /// Sends a request to the client; `onResult` (optional) gets the result.
  void call(llvm::StringRef method, llvm::json::Value params,
            std::function<void(llvm::Expected<llvm::json::Value>)> onResult =
                nullptr);

  State state() const { return currentState; }
  /// Requests received and not answered yet.
  size_t pendingRequestCount() const;

private:
  void handleRequest(IncomingMessage &msg);
  void handleNotification(IncomingMessage &msg);
  void handleResponse(IncomingMessage &msg);
  void cancel(const llvm::json::Value &params);
  void send(const llvm::json::Value &message);

  std::shared_ptr<detail::DispatcherCore> core;
  llvm::StringMap<std::function<void(const llvm::json::Value &, ReplyHandle)>>
      requestHandlers;
  llvm::StringMap<std::function<void(const llvm::json::Value &)>>
      notificationHandlers;
  std::map<std::string, std::function<void(llvm::Expected<llvm::json::Value>)>>
      outgoing;
  std::function<void(int)> exitHandler;
  State currentState = State::Uninitialized;
  int64_t nextOutgoingId = 0;
};

} // namespace waveasm::lsp

#endif // WAVEASM_PROTOCOL_DISPATCHER_H
