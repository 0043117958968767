//===- OpenAIClient.cpp - OpenAI-compatible chat completions --------------===//
//
// POST {baseUrl}/chat/completions with "Authorization: Bearer KEY"; the
// shape every OpenAI-compatible server (vLLM, llama.cpp, Ollama, ...)
// accepts: system message first, tools as {"type": "function"}, tool
// results as role "tool" messages.
//
//===----------------------------------------------------------------------===//

#include "conductor/llm/ChatClient.h"

#include <nlohmann/json.hpp>

namespace waveasm::conductor::llm {

using json = nlohmann::json;

static std::string joinUrl(const std::string &base, const std::string &path) {
  std::string url = base;
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  return url + path;
}

std::string OpenAIClient::endpoint() const {
  return joinUrl(config_.baseUrl, "/chat/completions");
}

std::vector<std::string> OpenAIClient::headers(const std::string &key) const {
  std::vector<std::string> h = {"Content-Type: application/json"};
  if (!key.empty())
    h.push_back("Authorization: Bearer " + key);
  return h;
}

std::string OpenAIClient::buildBody(const ChatRequest &request) const {
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
  json body = {{"model", config_.model},
               {"messages", messages},
               {"temperature", config_.temperature},
               {"max_tokens", config_.maxTokens}};
  if (!request.tools.empty()) {
    json tools = json::array();
    for (const ToolSpec &t : request.tools)
      tools.push_back({{"type", "function"},
                       {"function",
                        {{"name", t.name},
                         {"description", t.description},
                         {"parameters", json::parse(t.parametersJson)}}}});
    body["tools"] = tools;
  }
  return body.dump();
}

std::optional<std::string> OpenAIClient::parseBody(const std::string &text,
                                                   ChatReply &reply) const {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object())
    return std::string("body is not a JSON object");
  if (doc.contains("usage") && doc["usage"].is_object()) {
    const json &u = doc["usage"];
    reply.usage.inputTokens = u.value("prompt_tokens", (int64_t)0);
    reply.usage.outputTokens = u.value("completion_tokens", (int64_t)0);
  }
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

} // namespace waveasm::conductor::llm
