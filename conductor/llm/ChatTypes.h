//===- ChatTypes.h - Provider-neutral chat messages -------------*- C++ -*-===//
//
// The conversation a Conductor agent keeps, independent of the provider's
// wire shape (OpenAIClient and AnthropicClient translate it).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_LLM_CHATTYPES_H
#define WAVEASM_CONDUCTOR_LLM_CHATTYPES_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace waveasm::conductor::llm {

/// A function call the model asked for.
struct ToolCall {
  std::string id;
  std::string name;
  std::string argumentsJson; // a JSON object, as text
};

struct ChatMessage {
  enum class Role { User, Assistant, Tool };
  Role role = Role::User;
  std::string text;
  /// Assistant messages: the calls the model made (echoed back verbatim).
  std::vector<ToolCall> toolCalls;
  /// Tool messages: which call this result answers.
  std::string toolCallId;

  static ChatMessage user(std::string text) {
    return {Role::User, std::move(text), {}, {}};
  }
  static ChatMessage toolResult(std::string id, std::string text) {
    return {Role::Tool, std::move(text), {}, std::move(id)};
  }
};

/// A function the model may call; `parametersJson` is a JSON Schema object.
struct ToolSpec {
  std::string name;
  std::string description;
  std::string parametersJson;
};

struct ChatRequest {
  std::string system;
  std::vector<ChatMessage> messages;
  std::vector<ToolSpec> tools; // empty: plain text mode
};

struct Usage {
  int64_t inputTokens = 0;
  int64_t outputTokens = 0;
  Usage &operator+=(const Usage &other) {
    inputTokens += other.inputTokens;
    outputTokens += other.outputTokens;
    return *this;
  }
};

struct ChatReply {
  std::string text;
  std::vector<ToolCall> toolCalls;
  Usage usage;
  /// Set when the request failed for good (after retries, or at once for
  /// errors a retry cannot fix). Never contains the API key.
  std::optional<std::string> error;
  long httpStatus = 0;
  int attempts = 0;
  std::string stopReason;

  /// The assistant turn to append to the conversation.
  ChatMessage asMessage() const {
    return {ChatMessage::Role::Assistant, text, toolCalls, {}};
  }
};

/// The Conductor's two tools: apply_moves {moves: [string]} and evaluate {}.
std::vector<ToolSpec> conductorTools();

} // namespace waveasm::conductor::llm

#endif // WAVEASM_CONDUCTOR_LLM_CHATTYPES_H
