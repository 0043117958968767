//===- JsonRpc.cpp - JSON-RPC 2.0 messages --------------------------------===//

#include "protocol/JsonRpc.h"

#include "support/BoundedJson.h"

#include "llvm/Support/raw_ostream.h"

using namespace waveasm::lsp;
namespace json = llvm::json;

char LspError::ID;

void LspError::log(llvm::raw_ostream &os) const {
  os << message << " (" << static_cast<int>(code) << ")";
}

std::error_code LspError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error waveasm::lsp::makeError(ErrorCode code,
                                    const llvm::Twine &message) {
  return llvm::make_error<LspError>(code, message.str());
}

namespace {

bool isValidId(const json::Value &id) {
  // JSON-RPC allows numbers and strings; LSP narrows numbers to integers.
  return id.getAsString() || id.getAsInteger();
}

IncomingMessage invalid(ErrorCode code, std::string message,
                        json::Value id = nullptr) {
  IncomingMessage msg;
  msg.kind = IncomingMessage::Invalid;
  msg.errorCode = code;
  msg.errorMessage = std::move(message);
  msg.id = std::move(id);
  return msg;
}

} // namespace

IncomingMessage waveasm::lsp::parseMessage(llvm::StringRef body) {
  llvm::Expected<json::Value> parsed = waveasm::parseJsonBounded(body);
  if (!parsed)
    return invalid(ErrorCode::ParseError,
                   "invalid JSON: " + llvm::toString(parsed.takeError()));
  json::Object *object = parsed->getAsObject();
  if (!object)
    return invalid(ErrorCode::InvalidRequest,
                   parsed->getAsArray() ? "batched messages are not supported"
                                        : "a message must be a JSON object");

  // Keep the id whenever it is usable, so even an invalid request gets an
  // error the client can match.
  json::Value id = nullptr;
  bool hasId = false;
  if (const json::Value *rawId = object->get("id")) {
    hasId = rawId->kind() != json::Value::Null;
    if (hasId && !isValidId(*rawId))
      return invalid(ErrorCode::InvalidRequest,
                     "\"id\" must be a string or an integer");
    id = *rawId;
  }

  std::optional<llvm::StringRef> version = object->getString("jsonrpc");
  if (!version || *version != "2.0")
    return invalid(ErrorCode::InvalidRequest, "\"jsonrpc\" must be \"2.0\"",
                   std::move(id));

  const json::Value *method = object->get("method");
  if (!method) {
    const json::Value *result = object->get("result");
    const json::Value *error = object->get("error");
    if (!result && !error)
      return invalid(ErrorCode::InvalidRequest,
                     "neither a request (no \"method\") nor a response (no "
                     "\"result\" or \"error\")",
                     std::move(id));
    IncomingMessage msg;
    msg.kind = IncomingMessage::Response;
    msg.id = std::move(id);
    if (result)
      msg.result = *result;
    if (error)
      msg.error = *error;
    return msg;
  }
  std::optional<llvm::StringRef> name = method->getAsString();
  if (!name)
    return invalid(ErrorCode::InvalidRequest, "\"method\" must be a string",
                   std::move(id));

  IncomingMessage msg;
  msg.kind = hasId ? IncomingMessage::Request : IncomingMessage::Notification;
  msg.id = std::move(id);
  msg.method = name->str();
  if (const json::Value *params = object->get("params")) {
    if (params->kind() != json::Value::Object &&
        params->kind() != json::Value::Array &&
        params->kind() != json::Value::Null)
      return invalid(ErrorCode::InvalidRequest,
                     "\"params\" must be an object or an array",
                     std::move(msg.id));
    msg.params = *params;
  }
  return msg;
}

std::string waveasm::lsp::idKey(const json::Value &id) {
  if (std::optional<llvm::StringRef> s = id.getAsString())
    return "s:" + s->str();
  if (std::optional<int64_t> i = id.getAsInteger())
    return "i:" + std::to_string(*i);
  return "?";
}

json::Value waveasm::lsp::makeResponse(json::Value id, json::Value result) {
  return json::Object{
      {"jsonrpc", "2.0"}, {"id", std::move(id)}, {"result", std::move(result)}};
}

json::Value waveasm::lsp::makeErrorResponse(json::Value id, ErrorCode code,
                                            llvm::StringRef message) {
  return json::Object{{"jsonrpc", "2.0"},
                      {"id", std::move(id)},
                      {"error", json::Object{{"code", static_cast<int>(code)},
                                             {"message", message}}}};
}

json::Value waveasm::lsp::makeNotification(llvm::StringRef method,
                                           json::Value params) {
  json::Object message{{"jsonrpc", "2.0"}, {"method", method}};
  // Methods without parameters (the refresh requests, exit) omit them:
  // JSON-RPC has no "params": null.
  if (params.kind() != json::Value::Null)
    message["params"] = std::move(params);
  return message;
}

json::Value waveasm::lsp::makeRequest(json::Value id, llvm::StringRef method,
                                      json::Value params) {
  json::Object message{
      {"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}};
  if (params.kind() != json::Value::Null)
    message["params"] = std::move(params);
  return message;
}

std::string waveasm::lsp::serialize(const json::Value &message) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << message;
  return text;
}
