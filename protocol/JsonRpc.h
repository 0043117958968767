//===- JsonRpc.h - JSON-RPC 2.0 messages ------------------------*- C++ -*-===//
//
// Classifies a message body into request, notification or response, and
// builds the messages the server sends. Every way a body can be malformed
// maps to the JSON-RPC error the client is owed (if any), so the caller
// never has to look at raw JSON.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_JSONRPC_H
#define WAVEASM_PROTOCOL_JSONRPC_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace waveasm::lsp {

/// JSON-RPC and LSP error codes.
enum class ErrorCode {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  UnknownErrorCode = -32001,
  RequestFailed = -32803,
  ServerCancelled = -32802,
  ContentModified = -32801,
  RequestCancelled = -32800,
};

/// An error the server answers a request with; carried through
/// llvm::Expected by handlers.
class LspError : public llvm::ErrorInfo<LspError> {
public:
  static char ID;
  LspError(ErrorCode code, std::string message)
      : code(code), message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

  ErrorCode code;
  std::string message;
};

llvm::Error makeError(ErrorCode code, const llvm::Twine &message);

/// One incoming message.
struct IncomingMessage {
  enum Kind { Request, Notification, Response, Invalid } kind = Invalid;
  /// Request and Response; null when a Response or Invalid message had no
  /// usable id.
  llvm::json::Value id = nullptr;
  std::string method;                 // Request, Notification
  llvm::json::Value params = nullptr; // Request, Notification (null if absent)
  /// Response: the result, or the error object.
  llvm::json::Value result = nullptr;
  std::optional<llvm::json::Value> error;
  /// Invalid: the error to answer with (id is `id`, often null).
  ErrorCode errorCode = ErrorCode::InvalidRequest;
  std::string errorMessage;
};

/// Parses and classifies `body`. Bad JSON is ParseError; JSON that is not
/// a JSON-RPC 2.0 request, notification or response is InvalidRequest.
IncomingMessage parseMessage(llvm::StringRef body);

/// Ids are strings or integers; this is a stable key for either.
std::string idKey(const llvm::json::Value &id);

llvm::json::Value makeResponse(llvm::json::Value id, llvm::json::Value result);
llvm::json::Value makeErrorResponse(llvm::json::Value id, ErrorCode code,
                                    llvm::StringRef message);
llvm::json::Value makeNotification(llvm::StringRef method,
                                   llvm::json::Value params);
llvm::json::Value makeRequest(llvm::json::Value id, llvm::StringRef method,
                              llvm::json::Value params);

/// Compact serialization of one message.
std::string serialize(const llvm::json::Value &message);

} // namespace waveasm::lsp

#endif // WAVEASM_PROTOCOL_JSONRPC_H
