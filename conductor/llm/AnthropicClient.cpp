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
#include "conductor/llm/WireJson.h"

namespace waveasm::conductor::llm {

using json = nlohmann::json;

namespace {

std::vector<std::string> headers(const LLMConfig &config,
                                 const std::string &key) {
  std::vector<std::string> h = {"Content-Type: application/json",
                                "anthropic-version: " +
                                    config.anthropicVersion};
  if (!key.empty())
    h.push_back("x-api-key: " + key);
  return h;
}

/// Appends a user-side block, merging into the previous user turn.
void appendUserBlock(json &messages, json block) {
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

std::string buildBody(const LLMConfig &config, const ChatRequest &request) {
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
        json input = wire::parseUntrusted(c.argumentsJson);
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
  json body = wire::requestBody(config, std::move(messages));
  if (!request.system.empty())
    body["system"] = request.system;
  if (!request.tools.empty()) {
    json tools = json::array();
    for (const ToolSpec &t : request.tools)
      tools.push_back(wire::toolJson(t, "input_schema"));
    body["tools"] = tools;
  }
  return body.dump();
}

std::optional<std::string> parseBody(const std::string &text,
                                     ChatReply &reply) {
  json doc;
  if (std::optional<std::string> err =
          wire::parseReply(text, "input_tokens", "output_tokens", doc, reply))
    return err;
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

} // namespace

const WireFormat &anthropicWireFormat() {
  static const WireFormat format{"/v1/messages", headers, buildBody, parseBody};
  return format;
}

} // namespace waveasm::conductor::llm
