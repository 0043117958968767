//===- OpenAIClient.cpp - OpenAI-compatible chat completions --------------===//
//
// POST {baseUrl}/chat/completions with "Authorization: Bearer KEY"; the
// shape every OpenAI-compatible server (vLLM, llama.cpp, Ollama, ...)
// accepts: system message first, tools as {"type": "function"}, tool
// results as role "tool" messages.
//
//===----------------------------------------------------------------------===//

#include "conductor/llm/ChatClient.h"
#include "conductor/llm/WireJson.h"

namespace waveasm::conductor::llm {

using json = nlohmann::json;

namespace {

std::vector<std::string> headers(const LLMConfig &, const std::string &key) {
  std::vector<std::string> h = {"Content-Type: application/json"};
  if (!key.empty())
    h.push_back("Authorization: Bearer " + key);
  return h;
}

std::string buildBody(const LLMConfig &config, const ChatRequest &request) {
  json messages = json::array();
  if (!request.system.empty())
    messages.push_back({{"role", "system"}, {"content", request.system}});
  for (const ChatMessage &m : request.messages) {
    switch (m.role) {
    case ChatMessage::Role::User:
      messages.push_back({{"role", "user"}, {"content", m.text}});
      break;
    case ChatMessage::Role::Assistant: {
      json msg = {{"role", "assistant"}};
      msg["content"] =
          m.text.empty() && !m.toolCalls.empty() ? json(nullptr) : json(m.text);
      if (!m.toolCalls.empty()) {
        json calls = json::array();
        for (const ToolCall &c : m.toolCalls)
          calls.push_back(
              {{"id", c.id},
               {"type", "function"},
               {"function",
                {{"name", c.name}, {"arguments", c.argumentsJson}}}});
        msg["tool_calls"] = calls;
      }
      messages.push_back(msg);
      break;
    }
    case ChatMessage::Role::Tool:
      messages.push_back({{"role", "tool"},
                          {"tool_call_id", m.toolCallId},
                          {"content", m.text}});
      break;
    }
  }
  json body = wire::requestBody(config, std::move(messages));
  if (!request.tools.empty()) {
    json tools = json::array();
    for (const ToolSpec &t : request.tools)
      tools.push_back({{"type", "function"},
                       {"function", wire::toolJson(t, "parameters")}});
    body["tools"] = tools;
  }
  return body.dump();
}

std::optional<std::string> parseBody(const std::string &text,
                                     ChatReply &reply) {
  json doc;
  if (std::optional<std::string> err = wire::parseReply(
          text, "prompt_tokens", "completion_tokens", doc, reply))
    return err;
  if (!doc.contains("choices") || !doc["choices"].is_array() ||
      doc["choices"].empty())
    return std::string("no \"choices\" in the reply");
  const json &choice = doc["choices"][0];
  if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
    reply.stopReason = choice["finish_reason"].get<std::string>();
  if (!choice.contains("message") || !choice["message"].is_object())
    return std::string("no \"message\" in the first choice");
  const json &message = choice["message"];
  if (message.contains("content") && message["content"].is_string())
    reply.text = message["content"].get<std::string>();
  if (message.contains("tool_calls") && message["tool_calls"].is_array()) {
    for (const json &call : message["tool_calls"]) {
      if (!call.is_object() || !call.contains("function"))
        continue;
      const json &fn = call["function"];
      ToolCall tc;
      tc.id = call.value("id", std::string());
      tc.name = fn.value("name", std::string());
      if (fn.contains("arguments"))
        tc.argumentsJson = fn["arguments"].is_string()
                               ? fn["arguments"].get<std::string>()
                               : fn["arguments"].dump();
      reply.toolCalls.push_back(std::move(tc));
    }
  }
  return std::nullopt;
}

} // namespace

const WireFormat &openAIWireFormat() {
  static const WireFormat format{"/chat/completions", headers, buildBody,
                                 parseBody};
  return format;
}

} // namespace waveasm::conductor::llm
