//===- WireJson.h - JSON both providers' wire shapes share ------*- C++ -*-===//
//
// The request fields and reply handling that the OpenAI and Anthropic wire
// formats have in common; each format adds only what its API names
// differently.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_LLM_WIREJSON_H
#define WAVEASM_CONDUCTOR_LLM_WIREJSON_H

#include "conductor/llm/ChatTypes.h"
#include "conductor/llm/LLMConfig.h"
#include "support/JsonDepth.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace waveasm::conductor::llm::wire {

using json = nlohmann::json;

/// Untrusted text (a reply body, a model's tool arguments) as JSON: a
/// discarded value when it does not parse or nests deeper than
/// kMaxJsonDepth, so callers check `is_object()` and the like as usual.
inline json parseUntrusted(const std::string &text) {
  if (checkJsonDepth(text))
    return json(json::value_t::discarded);
  return json::parse(text, nullptr, /*allow_exceptions=*/false);
}

/// The sampling fields every request body carries.
inline json requestBody(const LLMConfig &config, json messages) {
  return {{"model", config.model},
          {"max_tokens", config.maxTokens},
          {"temperature", config.temperature},
          {"messages", std::move(messages)}};
}

/// One tool as {name, description, <schemaKey>: parameters schema}.
inline json toolJson(const ToolSpec &tool, const char *schemaKey) {
  return {{"name", tool.name},
          {"description", tool.description},
          {schemaKey, json::parse(tool.parametersJson)}};
}

/// Parses a reply body into `doc` and reads its "usage" object with the
/// provider's token field names; returns an error when it is no JSON object.
inline std::optional<std::string> parseReply(const std::string &text,
                                             const char *inputTokensKey,
                                             const char *outputTokensKey,
                                             json &doc, ChatReply &reply) {
  doc = parseUntrusted(text);
  if (!doc.is_object())
    return std::string("body is not a JSON object");
  if (doc.contains("usage") && doc["usage"].is_object()) {
    const json &u = doc["usage"];
    reply.usage.inputTokens = u.value(inputTokensKey, (int64_t)0);
    reply.usage.outputTokens = u.value(outputTokensKey, (int64_t)0);
  }
  return std::nullopt;
}

} // namespace waveasm::conductor::llm::wire

#endif // WAVEASM_CONDUCTOR_LLM_WIREJSON_H
