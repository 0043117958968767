//===- LLMTestFixture.h - a loop, an HttpMulti, a chat client ---*- C++ -*-===//
//
// What the tests of the chat clients and of the search over them share: a
// libuv loop with an HttpMulti on it, the API key in an environment
// variable, and configs that point a client at the fake LLM server.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_LLMTESTFIXTURE_H
#define WAVEASM_TESTS_UNIT_LLMTESTFIXTURE_H

#include "FakeLLMServer.h"

#include "conductor/llm/ChatClient.h"

#include <gtest/gtest.h>
#include <uv.h>

#include <cstdlib>
#include <memory>

namespace waveasm::testing {

/// The environment variable the tests put the key in.
inline constexpr const char *kKeyEnv = "WAVEASM_TEST_LLM_KEY";

class LLMLoopTest : public ::testing::Test {
protected:
  /// `key` is the secret each test file checks never leaks.
  explicit LLMLoopTest(const char *key) : key(key) {}

  void SetUp() override {
    setenv(kKeyEnv, key, 1);
    // The fake server is local; a proxy from the environment must not see it.
    setenv("no_proxy", "127.0.0.1,localhost", 1);
    uv_loop_init(&loop);
    http = std::make_unique<conductor::llm::HttpMulti>(&loop);
  }
  void TearDown() override {
    client.reset();
    http.reset();
    uv_run(&loop, UV_RUN_DEFAULT); // closes the handles
    EXPECT_EQ(uv_loop_close(&loop), 0);
  }

  /// A config for `server`: its URL for `provider`, the test model, the key
  /// variable, `maxRetries` quick retries and `timeoutMs`.
  static conductor::llm::LLMConfig
  fakeServerConfig(conductor::llm::Provider provider,
                   const FakeLLMServer &server, int timeoutMs, int maxRetries) {
    conductor::llm::LLMConfig c;
    c.provider = provider;
    c.baseUrl = provider == conductor::llm::Provider::OpenAI
                    ? server.baseUrl("/v1")
                    : server.baseUrl();
    c.model = "test-model";
    c.apiKeyEnv = kKeyEnv;
    c.timeoutMs = timeoutMs;
    c.maxRetries = maxRetries;
    c.retryBaseMs = 10;
    return c;
  }

  const char *key;
  uv_loop_t loop;
  std::unique_ptr<conductor::llm::HttpMulti> http;
  std::unique_ptr<conductor::llm::ChatClient> client;
};

} // namespace waveasm::testing

#endif // WAVEASM_TESTS_UNIT_LLMTESTFIXTURE_H
