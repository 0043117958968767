//===- LLMClientTest.cpp - Chat clients against the fake LLM server -------===//
//
// Every test runs a real client (libcurl multi on a libuv loop) against
// tests/fake_llm/fake_llm_server.py on 127.0.0.1 and checks both the reply
// and what the server received (its request log).
//
//===----------------------------------------------------------------------===//

#include "LLMTestFixture.h"

#include <fstream>
#include <sstream>

using namespace waveasm::conductor::llm;
using waveasm::testing::FakeLLMServer;
using waveasm::testing::kKeyEnv;
using json = nlohmann::json;

namespace {

constexpr const char *kKey = "sk-test-SECRET-0123456789";

class LLMClientTest : public waveasm::testing::LLMLoopTest {
protected:
  LLMClientTest() : LLMLoopTest(kKey) {}

  LLMConfig config(Provider provider, const FakeLLMServer &server) {
    LLMConfig c = fakeServerConfig(provider, server, /*timeoutMs=*/5000,
                                   /*maxRetries=*/2);
    c.temperature = 0.5;
    c.maxTokens = 321;
    return c;
  }

  /// Sends one request and runs the loop until its reply.
  ChatReply roundTrip(const LLMConfig &c, ChatRequest request) {
    client = createChatClient(*http, c);
    std::optional<ChatReply> reply;
    client->send(std::move(request), [&](ChatReply r) { reply = r; });
    uv_run(&loop, UV_RUN_DEFAULT);
    EXPECT_TRUE(reply.has_value());
    return reply.value_or(ChatReply{});
  }

  static ChatRequest simpleRequest() {
    ChatRequest r;
    r.system = "You schedule WaveASM.";
    r.messages.push_back(ChatMessage::user("round 1 prompt"));
    return r;
  }
};

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST_F(LLMClientTest, OpenAIRoundTrip) {
  FakeLLMServer server(json{{"replies",
                             {{{"text", "move I5 after I1\nswap I2 I3"},
                               {"usage", {{"input", 123}, {"output", 45}}}}}}},
                       {"--expect-key-env", kKeyEnv});
  ASSERT_TRUE(server.ok());
  ChatReply reply =
      roundTrip(config(Provider::OpenAI, server), simpleRequest());
  ASSERT_FALSE(reply.error) << *reply.error;
  EXPECT_EQ(reply.text, "move I5 after I1\nswap I2 I3");
  EXPECT_EQ(reply.usage.inputTokens, 123);
  EXPECT_EQ(reply.usage.outputTokens, 45);
  EXPECT_EQ(client->totalUsage().inputTokens, 123);
  EXPECT_EQ(reply.attempts, 1);

  json log = server.log();
  ASSERT_EQ(log["requests"].size(), 1u);
  const json &req = log["requests"][0];
  EXPECT_EQ(req["path"], "/v1/chat/completions");
  EXPECT_EQ(req["auth_ok"], true);
  EXPECT_EQ(req["headers"]["Authorization"], "<present>");
  const json &body = req["body"];
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["max_tokens"], 321);
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.5);
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][0]["content"], "You schedule WaveASM.");
  EXPECT_EQ(body["messages"][1]["role"], "user");
  EXPECT_EQ(body["messages"][1]["content"], "round 1 prompt");
  EXPECT_FALSE(body.contains("tools"));
}

TEST_F(LLMClientTest, AnthropicRoundTrip) {
  FakeLLMServer server(json{{"replies",
                             {{{"text", "swap I1 I2"},
                               {"usage", {{"input", 7}, {"output", 3}}}}}}},
                       {"--expect-key-env", kKeyEnv});
  ASSERT_TRUE(server.ok());
  ChatReply reply =
      roundTrip(config(Provider::Anthropic, server), simpleRequest());
  ASSERT_FALSE(reply.error) << *reply.error;
  EXPECT_EQ(reply.text, "swap I1 I2");
  EXPECT_EQ(reply.usage.inputTokens, 7);
  EXPECT_EQ(reply.usage.outputTokens, 3);
  EXPECT_EQ(reply.stopReason, "end_turn");

  json log = server.log();
  const json &req = log["requests"][0];
  EXPECT_EQ(req["path"], "/v1/messages");
  EXPECT_EQ(req["auth_ok"], true);
  EXPECT_EQ(req["headers"]["x-api-key"], "<present>");
  EXPECT_EQ(req["headers"]["anthropic-version"], "2023-06-01");
  EXPECT_EQ(req["body"]["system"], "You schedule WaveASM.");
  EXPECT_EQ(req["body"]["max_tokens"], 321);
  ASSERT_EQ(req["body"]["messages"].size(), 1u);
  EXPECT_EQ(req["body"]["messages"][0]["role"], "user");
}

TEST_F(LLMClientTest, GarbageAndFencedRepliesArriveVerbatim) {
  std::string fenced = "Sure!\n```\nmove I5 after I1\n```\nthanks";
  std::string garbage = "\x01\x02 not a command {]";
  FakeLLMServer server(
      json{{"replies", {{{"text", fenced}}, {{"text", garbage}}}}});
  ASSERT_TRUE(server.ok());
  EXPECT_EQ(roundTrip(config(Provider::OpenAI, server), simpleRequest()).text,
            fenced);
  EXPECT_EQ(
      roundTrip(config(Provider::Anthropic, server), simpleRequest()).text,
      garbage);
}

TEST_F(LLMClientTest, DeeplyNestedReplyIsRefusedNotParsed) {
  // A reply body nested 100,000 levels deep used to reach the JSON parser.
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (Provider provider : {Provider::OpenAI, Provider::Anthropic}) {
    FakeLLMServer server(json{{"default", {{"raw", deep}}}});
    ASSERT_TRUE(server.ok());
    ChatReply reply = roundTrip(config(provider, server), simpleRequest());
    ASSERT_TRUE(reply.error);
    EXPECT_NE(reply.error->find("not a JSON object"), std::string::npos)
        << *reply.error;
    EXPECT_TRUE(reply.text.empty());
  }
}

TEST_F(LLMClientTest, ServerErrorsAreRetriedThenFailCleanly) {
  FakeLLMServer server(json{{"default", {{"status", 500}}}});
  ASSERT_TRUE(server.ok());
  ChatReply reply =
      roundTrip(config(Provider::OpenAI, server), simpleRequest());
  ASSERT_TRUE(reply.error);
  EXPECT_NE(reply.error->find("gave up after 3 attempts"), std::string::npos)
      << *reply.error;
  EXPECT_NE(reply.error->find("HTTP 500"), std::string::npos);
  EXPECT_EQ(reply.attempts, 3);
  EXPECT_EQ(server.log()["requests"].size(), 3u);
  EXPECT_EQ(client->totalUsage().inputTokens, 0);
}

TEST_F(LLMClientTest, RetrySucceedsAfterTransientError) {
  FakeLLMServer server(
      json{{"replies", {{{"status", 503}}, {{"text", "done"}}}}});
  ASSERT_TRUE(server.ok());
  ChatReply reply =
      roundTrip(config(Provider::Anthropic, server), simpleRequest());
  ASSERT_FALSE(reply.error) << *reply.error;
  EXPECT_EQ(reply.text, "done");
  EXPECT_EQ(reply.attempts, 2);
}

TEST_F(LLMClientTest, TimeoutsAreRetriedThenFail) {
  FakeLLMServer server(json{{"default", {{"hang", true}}}});
  ASSERT_TRUE(server.ok());
  LLMConfig c = config(Provider::OpenAI, server);
  c.timeoutMs = 300;
  c.maxRetries = 1;
  ChatReply reply = roundTrip(c, simpleRequest());
  ASSERT_TRUE(reply.error);
  EXPECT_NE(reply.error->find("timed out after 300 ms"), std::string::npos)
      << *reply.error;
  EXPECT_EQ(reply.attempts, 2);
  EXPECT_EQ(server.log()["requests"].size(), 2u);
}

TEST_F(LLMClientTest, RateLimitHonoursRetryAfter) {
  FakeLLMServer server(
      json{{"replies",
            {{{"status", 429}, {"headers", {{"Retry-After", "1"}}}},
             {{"text", "done"}}}}});
  ASSERT_TRUE(server.ok());
  ChatReply reply =
      roundTrip(config(Provider::OpenAI, server), simpleRequest());
  ASSERT_FALSE(reply.error) << *reply.error;
  EXPECT_EQ(reply.attempts, 2);
  json requests = server.log()["requests"];
  ASSERT_EQ(requests.size(), 2u);
  // The backoff alone would be ~10 ms; the server asked for 1 s.
  double gap =
      requests[1]["start"].get<double>() - requests[0]["end"].get<double>();
  EXPECT_GE(gap, 0.9);
}

TEST_F(LLMClientTest, UnauthorizedIsNotRetriedAndNamesTheEnvVar) {
  // The server quotes the key back; the client must not repeat it.
  std::string raw = std::string("{\"error\":{\"message\":\"Incorrect API key "
                                "provided: ") +
                    kKey + "\"}}";
  FakeLLMServer server(json{{"default", {{"status", 401}, {"raw", raw}}}});
  ASSERT_TRUE(server.ok());
  ChatReply reply =
      roundTrip(config(Provider::OpenAI, server), simpleRequest());
  ASSERT_TRUE(reply.error);
  EXPECT_NE(reply.error->find("authentication failed (HTTP 401)"),
            std::string::npos)
      << *reply.error;
  EXPECT_NE(reply.error->find(kKeyEnv), std::string::npos);
  EXPECT_EQ(reply.error->find(kKey), std::string::npos) << *reply.error;
  EXPECT_NE(reply.error->find("[redacted]"), std::string::npos);
  EXPECT_EQ(server.log()["requests"].size(), 1u);
}

TEST_F(LLMClientTest, NotFoundIsNotRetriedAndNamesModelAndBaseUrl) {
  FakeLLMServer server(json{{"default", {{"status", 404}}}});
  ASSERT_TRUE(server.ok());
  LLMConfig c = config(Provider::Anthropic, server);
  ChatReply reply = roundTrip(c, simpleRequest());
  ASSERT_TRUE(reply.error);
  EXPECT_NE(reply.error->find("HTTP 404"), std::string::npos) << *reply.error;
  EXPECT_NE(reply.error->find("'test-model'"), std::string::npos);
  EXPECT_NE(reply.error->find("'" + c.baseUrl + "'"), std::string::npos);
  EXPECT_EQ(server.log()["requests"].size(), 1u);
}

TEST_F(LLMClientTest, MissingKeyEnvVarFailsBeforeSending) {
  FakeLLMServer server(json{{"default", {{"text", "done"}}}});
  ASSERT_TRUE(server.ok());
  LLMConfig c = config(Provider::OpenAI, server);
  c.apiKeyEnv = "WAVEASM_TEST_LLM_KEY_UNSET";
  unsetenv(c.apiKeyEnv.c_str());
  ChatReply reply = roundTrip(c, simpleRequest());
  ASSERT_TRUE(reply.error);
  EXPECT_NE(reply.error->find("WAVEASM_TEST_LLM_KEY_UNSET is not set"),
            std::string::npos);
  EXPECT_EQ(server.log()["requests"].size(), 0u);
}

TEST_F(LLMClientTest, NoKeyEnvSendsNoAuthHeader) {
  FakeLLMServer server(json{{"default", {{"text", "done"}}}});
  ASSERT_TRUE(server.ok());
  LLMConfig c = config(Provider::OpenAI, server);
  c.apiKeyEnv = "";
  ASSERT_FALSE(roundTrip(c, simpleRequest()).error);
  EXPECT_FALSE(
      server.log()["requests"][0]["headers"].contains("Authorization"));
}

TEST_F(LLMClientTest, ConnectionRefusedIsRetriedThenFails) {
  int port;
  {
    FakeLLMServer gone(json{{"default", {{"text", "done"}}}});
    ASSERT_TRUE(gone.ok());
    port = gone.port();
  }
  LLMConfig c;
  c.baseUrl = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  c.model = "m";
  c.apiKeyEnv = kKeyEnv;
  c.maxRetries = 1;
  c.retryBaseMs = 10;
  ChatReply reply = roundTrip(c, simpleRequest());
  ASSERT_TRUE(reply.error);
  EXPECT_NE(reply.error->find("cannot reach"), std::string::npos)
      << *reply.error;
  EXPECT_EQ(reply.attempts, 2);
}

/// Tool-calling round trip: the model calls apply_moves and evaluate, the
/// results go back in the next request in the provider's shape.
void toolRoundTrip(
    LLMClientTest &t, Provider provider,
    std::function<ChatReply(const LLMConfig &, ChatRequest)> roundTrip,
    std::function<LLMConfig(const FakeLLMServer &)> config) {
  FakeLLMServer server(json{
      {"replies",
       {{{"tool_calls",
          {{{"id", "call_A"},
            {"name", "apply_moves"},
            {"arguments", {{"moves", {"move I5 after I1", "swap I2 I3"}}}}},
           {{"id", "call_B"},
            {"name", "evaluate"},
            {"arguments", json::object()}}}}},
        {{"text", "done"}}}}});
  ASSERT_TRUE(server.ok());
  LLMConfig c = config(server);
  ChatRequest request;
  request.system = "sys";
  request.tools = conductorTools();
  request.messages.push_back(ChatMessage::user("prompt"));
  ChatReply first = roundTrip(c, request);
  ASSERT_FALSE(first.error) << *first.error;
  ASSERT_EQ(first.toolCalls.size(), 2u);
  EXPECT_EQ(first.toolCalls[0].name, "apply_moves");
  EXPECT_EQ(first.toolCalls[0].id, "call_A");
  json args = json::parse(first.toolCalls[0].argumentsJson);
  EXPECT_EQ(args["moves"], json({"move I5 after I1", "swap I2 I3"}));
  EXPECT_EQ(first.toolCalls[1].name, "evaluate");

  request.messages.push_back(first.asMessage());
  request.messages.push_back(ChatMessage::toolResult("call_A", "applied 2"));
  request.messages.push_back(
      ChatMessage::toolResult("call_B", "peak_vgpr: 10"));
  ChatReply second = roundTrip(c, request);
  ASSERT_FALSE(second.error) << *second.error;
  EXPECT_EQ(second.text, "done");

  json requests = server.log()["requests"];
  ASSERT_EQ(requests.size(), 2u);
  const json &body0 = requests[0]["body"];
  const json &body1 = requests[1]["body"];
  ASSERT_EQ(body0["tools"].size(), 2u);
  if (provider == Provider::OpenAI) {
    EXPECT_EQ(body0["tools"][0]["type"], "function");
    EXPECT_EQ(body0["tools"][0]["function"]["name"], "apply_moves");
    EXPECT_EQ(body0["tools"][1]["function"]["name"], "evaluate");
    const json &msgs = body1["messages"];
    ASSERT_EQ(msgs.size(), 5u); // system, user, assistant, tool, tool
    EXPECT_EQ(msgs[2]["role"], "assistant");
    EXPECT_EQ(msgs[2]["tool_calls"][0]["id"], "call_A");
    EXPECT_EQ(msgs[2]["tool_calls"][0]["function"]["name"], "apply_moves");
    EXPECT_EQ(msgs[3]["role"], "tool");
    EXPECT_EQ(msgs[3]["tool_call_id"], "call_A");
    EXPECT_EQ(msgs[3]["content"], "applied 2");
    EXPECT_EQ(msgs[4]["tool_call_id"], "call_B");
  } else {
    EXPECT_EQ(body0["tools"][0]["name"], "apply_moves");
    EXPECT_TRUE(body0["tools"][0].contains("input_schema"));
    const json &msgs = body1["messages"];
    ASSERT_EQ(msgs.size(), 3u); // user, assistant, user(tool results)
    EXPECT_EQ(msgs[1]["role"], "assistant");
    EXPECT_EQ(msgs[1]["content"][0]["type"], "tool_use");
    EXPECT_EQ(msgs[1]["content"][0]["id"], "call_A");
    EXPECT_EQ(msgs[1]["content"][0]["input"]["moves"][1], "swap I2 I3");
    EXPECT_EQ(msgs[2]["role"], "user");
    ASSERT_EQ(msgs[2]["content"].size(), 2u);
    EXPECT_EQ(msgs[2]["content"][0]["type"], "tool_result");
    EXPECT_EQ(msgs[2]["content"][0]["tool_use_id"], "call_A");
    EXPECT_EQ(msgs[2]["content"][1]["tool_use_id"], "call_B");
    EXPECT_EQ(msgs[2]["content"][1]["content"], "peak_vgpr: 10");
  }
}

TEST_F(LLMClientTest, ToolCallingOpenAI) {
  toolRoundTrip(
      *this, Provider::OpenAI,
      [&](const LLMConfig &c, ChatRequest r) { return roundTrip(c, r); },
      [&](const FakeLLMServer &s) { return config(Provider::OpenAI, s); });
}

TEST_F(LLMClientTest, ToolCallingAnthropic) {
  toolRoundTrip(
      *this, Provider::Anthropic,
      [&](const LLMConfig &c, ChatRequest r) { return roundTrip(c, r); },
      [&](const FakeLLMServer &s) { return config(Provider::Anthropic, s); });
}

TEST_F(LLMClientTest, RequestsRunConcurrentlyOnOneLoop) {
  FakeLLMServer server(json{{"default", {{"text", "done"}, {"delay", 0.5}}}});
  ASSERT_TRUE(server.ok());
  client = createChatClient(*http, config(Provider::OpenAI, server));
  constexpr int kRequests = 6;
  int replies = 0;
  for (int i = 0; i < kRequests; ++i)
    client->send(simpleRequest(), [&](ChatReply r) {
      EXPECT_FALSE(r.error);
      ++replies;
    });
  uv_run(&loop, UV_RUN_DEFAULT);
  EXPECT_EQ(replies, kRequests);
  EXPECT_EQ(http->maxInFlight(), (size_t)kRequests);
  // The server saw all of them at once: each answer waits 0.5 s.
  EXPECT_EQ(server.log()["max_in_flight"], kRequests);
}

TEST_F(LLMClientTest, CancelDropsTheRequest) {
  FakeLLMServer server(json{{"default", {{"hang", true}}}});
  ASSERT_TRUE(server.ok());
  client = createChatClient(*http, config(Provider::OpenAI, server));
  bool called = false;
  auto id = client->send(simpleRequest(), [&](ChatReply) { called = true; });
  uv_timer_t timer;
  uv_timer_init(&loop, &timer);
  timer.data = client.get();
  struct Ctx {
    ChatClient *client;
    ChatClient::RequestId id;
  } ctx{client.get(), id};
  timer.data = &ctx;
  uv_timer_start(
      &timer,
      [](uv_timer_t *t) {
        auto *c = static_cast<Ctx *>(t->data);
        c->client->cancel(c->id);
        uv_close((uv_handle_t *)t, nullptr);
      },
      200, 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  EXPECT_FALSE(called);
  EXPECT_EQ(client->pending(), 0u);
}

TEST_F(LLMClientTest, KeyNeverReachesTheLog) {
  FakeLLMServer server(json{{"default", {{"text", "done"}}}});
  ASSERT_TRUE(server.ok());
  ASSERT_FALSE(
      roundTrip(config(Provider::OpenAI, server), simpleRequest()).error);
  ASSERT_FALSE(
      roundTrip(config(Provider::Anthropic, server), simpleRequest()).error);
  std::string log = readFile(server.logPath());
  EXPECT_NE(log.find("<present>"), std::string::npos);
  EXPECT_EQ(log.find(kKey), std::string::npos);
}

} // namespace

namespace {

TEST_F(LLMClientTest, NonHttpBaseUrlIsRefused) {
  LLMConfig c;
  c.baseUrl = "file:///etc";
  c.model = "m";
  c.apiKeyEnv = "";
  c.maxRetries = 3;
  c.retryBaseMs = 10;
  ChatReply reply = roundTrip(c, simpleRequest());
  ASSERT_TRUE(reply.error);
  EXPECT_NE(reply.error->find("file:///etc/chat/completions"),
            std::string::npos)
      << *reply.error;
  EXPECT_NE(reply.error->find("check the base URL"), std::string::npos);
  EXPECT_EQ(reply.attempts, 1); // a retry cannot fix the URL
}

} // namespace
