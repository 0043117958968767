//===- AnthropicClient.cpp - Anthropic messages API -----------------------===//
//
// POST {baseUrl}/v1/messages with x-api-key and anthropic-version. The
// system prompt is a top-level field; tool calls are "tool_use" content
// blocks and their results "tool_result" blocks in the next user turn
// (consecutive user-side items merge into one turn, as the API requires
// alternating roles).
//
//===----------------------------------------------------------------------===//

#include "conductor/llm/ChatClient.h"

#include <nlohmann/json.hpp>

namespace waveasm::conductor::llm {

using json = nlohmann::json;

std::string AnthropicClient::endpoint() const {
  std::string url = config_.baseUrl;
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  return url + "/v1/messages";
}

std::vector<std::string>
AnthropicClient::headers(const std::string &key) const {
  std::vector<std::string> h = {"Content-Type: application/json",
                                "anthropic-version: " +
                                    config_.anthropicVersion};
  if (!key.empty())
    h.push_back("x-api-key: " + key);
  return h;
}

/// Appends a user-side block, merging into the previous user turn.
static void appendUserBlock(json &messages, json block) {
  if (!messages.empty() && messages.back()["role"] == "user") {
    json &content = messages.back()["content"];
    if (content.is_string())
      content = json::array({{{"type", "text"}, {"text", content}}});
    content.push_back(std::move(block));
    return;
  }
  messages.push_back(
      {{"role", "user"}, {"content", json::array({std::move(block)})}});
}

std::string AnthropicClient::buildBody(const ChatRequest &request) const {
  json messages = json::array();
  for (const ChatMessage &m : request.messages) {
    switch (m.role) {
    case ChatMessage::Role::User:
      appendUserBlock(messages, {{"type", "text"}, {"text", m.text}});
      break;
    case ChatMessage::Role::Tool:
      appendUserBlock(messages, {{"type", "tool_result"},
                                 {"tool_use_id", m.toolCallId},
                                 {"content", m.text}});
      break;
    case ChatMessage::Role::Assistant: {
      json content = json::array();
      if (!m.text.empty())
        content.push_back({{"type", "text"}, {"text", m.text}});
      for (const ToolCall &c : m.toolCalls) {
        json input = json::parse(c.argumentsJson, nullptr, false);
        if (!input.is_object())
          input = json::object();
        content.push_back({{"type", "tool_use"},
                           {"id", c.id},
                           {"name", c.name},
                           {"input", input}});
      }
      if (content.empty())
        content.push_back({{"type", "text"}, {"text", "(no reply)"}});
      messages.push_back({{"role", "assistant"}, {"content", content}});
      break;
    }
    }
  }
  json body = {{"model", config_.model},
               {"max_tokens", config_.maxTokens},
               {"temperature", config_.temperature},
               {"messages", messages}};
  if (!request.system.empty())
    body["system"] = request.system;
  if (!request.tools.empty()) {
    json tools = json::array();
    for (const ToolSpec &t : request.tools)
      tools.push_back({{"name", t.name},
                       {"description", t.description},
                       {"input_schema", json::parse(t.parametersJson)}});
    body["tools"] = tools;
  }
  return body.dump();
}

std::optional<std::string> AnthropicClient::parseBody(const std::string &text,
                                                      ChatReply &reply) const {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object())
    return std::string("body is not a JSON object");
  if (doc.contains("usage") && doc["usage"].is_object()) {
    const json &u = doc["usage"];
    reply.usage.inputTokens = u.value("input_tokens", (int64_t)0);
    reply.usage.outputTokens = u.value("output_tokens", (int64_t)0);
  }
  if (doc.contains("stop_reason") && doc["stop_reason"].is_string())
    reply.stopReason = doc["stop_reason"].get<std::string>();
  if (!doc.contains("content") || !doc["content"].is_array())
    return std::string("no \"content\" array in the reply");
  for (const json &block : doc["content"]) {
    if (!block.is_object())
      continue;
    std::string type = block.value("type", std::string());
    if (type == "text" && block.contains("text") && block["text"].is_string()) {
      if (!reply.text.empty())
        reply.text += "\n";
      reply.text += block["text"].get<std::string>();
    } else if (type == "tool_use") {
      ToolCall tc;
      tc.id = block.value("id", std::string());
      tc.name = block.value("name", std::string());
      tc.argumentsJson =
          block.contains("input") ? block["input"].dump() : std::string("{}");
      reply.toolCalls.push_back(std::move(tc));
    }
  }
  return std::nullopt;
}

} // namespace waveasm::conductor::llm
