//===- Dispatcher.cpp - JSON-RPC endpoint with LSP lifecycle
//---------------===//

#include "protocol/Dispatcher.h"

using namespace waveasm::lsp;
namespace json = llvm::json;

namespace waveasm::lsp::detail {

struct PendingRequest {
  json::Value id = nullptr;
  std::string method;
  CancellationToken token;
  bool answered = false;
};

/// What replies need after the handler returned: the writer and the table
/// of unanswered requests. Shared so a Reply kept past the Dispatcher's
/// lifetime degrades to a no-op instead of a dangling pointer.
struct DispatcherCore {
  Dispatcher::Writer writer;
  std::map<std::string, std::shared_ptr<PendingRequest>> pending;

  void finish(PendingRequest &request) {
    request.answered = true;
    auto it = pending.find(idKey(request.id));
    if (it != pending.end() && it->second.get() == &request)
      pending.erase(it);
  }
};

} // namespace waveasm::lsp::detail

using detail::DispatcherCore;
using detail::PendingRequest;

//===--- ReplyHandle
//----------------------------------------------------------===//

ReplyHandle::ReplyHandle(std::weak_ptr<DispatcherCore> core,
                         std::shared_ptr<PendingRequest> pending)
    : core(std::move(core)), pending(std::move(pending)) {}

ReplyHandle &ReplyHandle::operator=(ReplyHandle &&other) {
  if (this != &other) {
    if (pending && !pending->answered)
      (*this)(makeError(ErrorCode::InternalError, "request was dropped"));
    core = std::move(other.core);
    pending = std::move(other.pending);
  }
  return *this;
}

ReplyHandle::~ReplyHandle() {
  if (pending && !pending->answered)
    (*this)(makeError(ErrorCode::InternalError,
                      "the server dropped the request without an answer"));
}

void ReplyHandle::operator()(llvm::Expected<json::Value> result) {
  std::shared_ptr<DispatcherCore> dispatcher = core.lock();
  if (!pending || pending->answered || !dispatcher) {
    if (!result)
      llvm::consumeError(result.takeError());
    return;
  }
  dispatcher->finish(*pending);
  if (result) {
    dispatcher->writer(makeResponse(pending->id, std::move(*result)));
    return;
  }
  ErrorCode code = ErrorCode::InternalError;
  std::string message;
  llvm::handleAllErrors(
      result.takeError(),
      [&](const LspError &error) {
        code = error.code;
        message = error.message;
      },
      [&](const llvm::ErrorInfoBase &error) { message = error.message(); });
  logVerbose("{0} {1} failed: {2}", pending->method, idString(), message);
  dispatcher->writer(makeErrorResponse(pending->id, code, message));
}

CancellationToken ReplyHandle::token() const {
  return pending ? pending->token : CancellationToken();
}

std::string ReplyHandle::idString() const {
  return pending ? serialize(pending->id) : "?";
}

//===--- Dispatcher
//-----------------------------------------------------------===//

Dispatcher::Dispatcher(Writer writer)
    : core(std::make_shared<DispatcherCore>()) {
  core->writer = std::move(writer);
}

Dispatcher::~Dispatcher() {
  // Unanswered requests die with the connection; do not write from their
  // destructors into a writer that may already be gone.
  for (auto &[key, request] : core->pending)
    request->answered = true;
}

size_t Dispatcher::pendingRequestCount() const { return core->pending.size(); }

void Dispatcher::send(const json::Value &message) { core->writer(message); }

void Dispatcher::handleBadHeader(llvm::StringRef problem) {
  logError("bad message header: {0}", problem);
  if (currentState != State::Exited)
    send(makeErrorResponse(nullptr, ErrorCode::ParseError,
                           ("bad message header: " + problem).str()));
}

void Dispatcher::handleMessage(llvm::StringRef body) {
  if (currentState == State::Exited)
    return;
  IncomingMessage msg = parseMessage(body);
  switch (msg.kind) {
  case IncomingMessage::Invalid:
    logError("invalid message: {0}", msg.errorMessage);
    send(makeErrorResponse(std::move(msg.id), msg.errorCode, msg.errorMessage));
    return;
  case IncomingMessage::Request:
    return handleRequest(msg);
  case IncomingMessage::Notification:
    return handleNotification(msg);
  case IncomingMessage::Response:
    return handleResponse(msg);
  }
}

void Dispatcher::handleRequest(IncomingMessage &msg) {
  logVerbose("<-- {0}({1})", msg.method, serialize(msg.id));
  auto fail = [&](ErrorCode code, const llvm::Twine &message) {
    send(makeErrorResponse(std::move(msg.id), code, message.str()));
  };
  if (currentState == State::Uninitialized && msg.method != "initialize")
    return fail(ErrorCode::ServerNotInitialized,
                "'" + msg.method + "' before 'initialize'");
  if (currentState == State::ShuttingDown)
    return fail(ErrorCode::InvalidRequest,
                "'" + msg.method + "' after 'shutdown'");
  if (msg.method == "initialize" && currentState != State::Uninitialized)
    return fail(ErrorCode::InvalidRequest, "'initialize' was already received");

  auto handler = requestHandlers.find(msg.method);
  if (handler == requestHandlers.end())
    return fail(ErrorCode::MethodNotFound,
                "method not found: '" + msg.method + "'");

  if (msg.method == "initialize")
    currentState = State::Running;
  else if (msg.method == "shutdown")
    currentState = State::ShuttingDown;

  auto pending = std::make_shared<PendingRequest>();
  pending->id = msg.id;
  pending->method = msg.method;
  core->pending[idKey(msg.id)] = pending;
  handler->second(msg.params, ReplyHandle(core, std::move(pending)));
}

void Dispatcher::handleNotification(IncomingMessage &msg) {
  logVerbose("<-- {0}", msg.method);
  if (msg.method == "exit") {
    int code = currentState == State::ShuttingDown ? 0 : 1;
    currentState = State::Exited;
    if (exitHandler)
      exitHandler(code);
    return;
  }
  // Before initialize and after shutdown, notifications are dropped.
  if (currentState != State::Running)
    return;
  if (msg.method == "$/cancelRequest")
    return cancel(msg.params);
  auto handler = notificationHandlers.find(msg.method);
  if (handler == notificationHandlers.end()) {
    // "$/" notifications are optional by definition; other unknown ones
    // are ignored too, as JSON-RPC gives no way to answer them.
    logVerbose("ignoring notification {0}", msg.method);
    return;
  }
  handler->second(msg.params);
}

void Dispatcher::cancel(const json::Value &params) {
  const json::Object *object = params.getAsObject();
  const json::Value *id = object ? object->get("id") : nullptr;
  if (!id)
    return logError("$/cancelRequest without an id");
  auto it = core->pending.find(idKey(*id));
  if (it == core->pending.end()) {
    // Already answered: the race is normal, nothing to do.
    logVerbose("$/cancelRequest for {0}: not pending", serialize(*id));
    return;
  }
  std::shared_ptr<PendingRequest> request = it->second;
  logInfo("cancelled {0}({1})", request->method, serialize(*id));
  request->token.cancel();
  core->finish(*request);
  send(makeErrorResponse(request->id, ErrorCode::RequestCancelled,
                         "request cancelled"));
}

void Dispatcher::handleResponse(IncomingMessage &msg) {
  auto it = outgoing.find(idKey(msg.id));
  if (it == outgoing.end()) {
    logInfo("response to unknown request {0}", serialize(msg.id));
    return;
  }
  auto callback = std::move(it->second);
  outgoing.erase(it);
  if (!callback)
    return;
  if (msg.error) {
    std::string message = "error";
    int64_t code = static_cast<int64_t>(ErrorCode::UnknownErrorCode);
    if (const json::Object *error = msg.error->getAsObject()) {
      message = error->getString("message").value_or("error").str();
      code = error->getInteger("code").value_or(code);
    }
    return callback(makeError(static_cast<ErrorCode>(code), message));
  }
  callback(std::move(msg.result));
}

void Dispatcher::notify(llvm::StringRef method, json::Value params) {
  if (currentState == State::Exited)
    return;
  logVerbose("--> {0}", method);
  send(makeNotification(method, std::move(params)));
}

void Dispatcher::call(
    llvm::StringRef method, json::Value params,
    std::function<void(llvm::Expected<json::Value>)> onResult) {
  if (currentState == State::Exited)
    return;
  json::Value id = "waveasm-" + std::to_string(nextOutgoingId++);
  outgoing[idKey(id)] = std::move(onResult);
  logVerbose("--> {0}({1})", method, serialize(id));
  send(makeRequest(std::move(id), method, std::move(params)));
}
