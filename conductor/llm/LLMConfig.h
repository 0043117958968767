//===- LLMConfig.h - Settings of one LLM endpoint ---------------*- C++ -*-===//
//
// What a chat client needs to reach a model. The API key is never stored
// here: only the name of the environment variable holding it, read at
// request time.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_LLM_LLMCONFIG_H
#define WAVEASM_CONDUCTOR_LLM_LLMCONFIG_H

#include <optional>
#include <string>

namespace waveasm::conductor::llm {

enum class Provider { OpenAI, Anthropic };

std::optional<Provider> parseProvider(const std::string &name);
const char *providerName(Provider provider);

struct LLMConfig {
  Provider provider = Provider::OpenAI;
  /// OpenAI: requests go to {baseUrl}/chat/completions (so the base usually
  /// ends in /v1). Anthropic: {baseUrl}/v1/messages.
  std::string baseUrl;
  std::string model;
  /// Name of the environment variable holding the API key. Empty: send no
  /// key (local OpenAI-compatible servers often need none).
  std::string apiKeyEnv = "WAVEASM_LLM_API_KEY";
  int timeoutMs = 120000;
  int connectTimeoutMs = 10000;
  int maxRetries = 4;
  /// First retry waits about this long (doubling per attempt, with jitter);
  /// a Retry-After header replaces it.
  int retryBaseMs = 1000;
  int retryMaxMs = 60000;
  double temperature = 0.2;
  int maxTokens = 2048;
  std::string anthropicVersion = "2023-06-01";

  /// Defaults for a provider: base URL of the public endpoint.
  static LLMConfig defaults(Provider provider);
};

} // namespace waveasm::conductor::llm

#endif // WAVEASM_CONDUCTOR_LLM_LLMCONFIG_H
