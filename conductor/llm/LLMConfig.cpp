//===- LLMConfig.cpp ------------------------------------------------------===//

#include "conductor/llm/LLMConfig.h"

namespace waveasm::conductor::llm {

std::optional<Provider> parseProvider(const std::string &name) {
  if (name == "openai")
    return Provider::OpenAI;
  if (name == "anthropic")
    return Provider::Anthropic;
  return std::nullopt;
}

const char *providerName(Provider provider) {
  return provider == Provider::OpenAI ? "openai" : "anthropic";
}

LLMConfig LLMConfig::defaults(Provider provider) {
  LLMConfig config;
  config.provider = provider;
  if (provider == Provider::OpenAI) {
    config.baseUrl = "https://api.openai.com/v1";
    config.model = "gpt-4o";
  } else {
    config.baseUrl = "https://api.anthropic.com";
    config.model = "claude-sonnet-4-5";
  }
  return config;
}

} // namespace waveasm::conductor::llm
