//===- LLMSearchTest.cpp - Parallel search through a real LLM client ------===//
//
// Search drives Sessions with replies from tests/fake_llm/fake_llm_server.py
// through the OpenAI and Anthropic wire formats on one libuv loop. Concurrency
// is checked structurally (the server's max in-flight count), never by time.
//
//===----------------------------------------------------------------------===//

#include "ConductorTestUtils.h"
#include "LLMTestFixture.h"
#include "TestPaths.h"

#include "conductor/LLMMoveSource.h"
#include "conductor/Search.h"

#include <gtest/gtest.h>
#include <uv.h>

using namespace waveasm;
using namespace waveasm::conductor;
using namespace waveasm::conductor::llm;
using waveasm::testing::FakeLLMServer;
using waveasm::testing::kKeyEnv;
using json = nlohmann::json;

namespace {

constexpr const char *kKey = "sk-test-SECRET-search-987654";

/// A loop body with independent loads and adds: tags I0..I8 (I8 is the
/// pinned condition), enough freedom for random moves to be valid.
const std::string kLoop = test::accumulatorLoop(R"(
    %x = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %off, %c0 offset : 4 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %z = waveasm.ds_read_b32 %off {offset = 4 : i64} : !waveasm.vreg -> !waveasm.vreg
    %s = waveasm.v_add_u32 %z, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %t = waveasm.v_add_u32 %s, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %a = waveasm.v_add_u32 %acc, %t : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg)");

std::string printModule(mlir::ModuleOp module) {
  std::string out;
  llvm::raw_string_ostream os(out);
  module.print(os);
  return out;
}

class LLMSearchTest : public waveasm::testing::LLMLoopTest {
protected:
  LLMSearchTest() : LLMLoopTest(kKey) {}

  void SetUp() override {
    LLMLoopTest::SetUp();
    module = ctx.parseModule(test::program(kLoop));
    ASSERT_TRUE(module) << ctx.diagnostics;
    inputText = printModule(*module);
  }
  void TearDown() override {
    LLMLoopTest::TearDown();
    // The search forks sessions; the input module is never touched.
    if (module)
      EXPECT_EQ(printModule(*module), inputText);
  }

  std::unique_ptr<Session> session(int maxRounds) {
    SessionOptions options;
    options.maxRounds = maxRounds;
    return test::makeSession(*module, options);
  }

  void makeClient(Provider provider, const FakeLLMServer &server,
                  int maxRetries = 2) {
    client = createChatClient(
        *http,
        fakeServerConfig(provider, server, /*timeoutMs=*/10000, maxRetries));
  }

  SearchResult runSearch(const Session &initial, SearchOptions options) {
    Search search(*client, initial, options);
    return search.run(
        [&](const SearchEvent &e) { events += e.message + "\n"; });
  }

  test::TestContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string inputText;
  std::string events;
};

TEST_F(LLMSearchTest, AgentsRunConcurrentlyAndCheckpointsPrune) {
  FakeLLMServer server(
      json{{"seed", 7}, {"default", {{"random_moves", 1}, {"delay", 0.3}}}});
  ASSERT_TRUE(server.ok());
  makeClient(Provider::OpenAI, server);
  auto initial = session(/*maxRounds=*/4);
  ASSERT_TRUE(initial);
  SearchOptions options;
  options.agents = 4;
  options.checkpointRounds = 2;
  options.topK = 2;
  SearchResult result = runSearch(*initial, options);

  ASSERT_TRUE(result.best);
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.checkpoints, 2);
  // 4 agents x 2 rounds, twice (2 survivors + 2 forks refill the pool).
  EXPECT_EQ(result.rounds, 16);
  EXPECT_EQ(result.requests, 16);
  EXPECT_EQ(result.best->roundsUsed(), 4);
  EXPECT_EQ(result.usage.inputTokens, 16 * 10); // the server's default usage
  EXPECT_FALSE(
      initial->isBetter(initial->bestMetrics(), result.best->bestMetrics()));
  EXPECT_EQ(initial->roundsUsed(), 0);

  json log = server.log();
  ASSERT_EQ(log["requests"].size(), 16u);
  // Every agent's request was in flight at once.
  EXPECT_EQ(log["max_in_flight"], 4);
  EXPECT_EQ(http->maxInFlight(), 4u);
  // Both system prompt variants were used.
  std::vector<std::string> prompts = defaultSystemPrompts();
  int latency = 0, pressure = 0;
  for (const json &r : log["requests"]) {
    const json &msgs = r["body"]["messages"];
    ASSERT_EQ(msgs[0]["role"], "system");
    latency += msgs[0]["content"] == prompts[0];
    pressure += msgs[0]["content"] == prompts[1];
    EXPECT_NE(msgs[1]["content"].get<std::string>().find("loc(\"I0\")"),
              std::string::npos);
  }
  EXPECT_GT(latency, 0);
  EXPECT_GT(pressure, 0);
  EXPECT_EQ(latency + pressure, 16);
  EXPECT_NE(events.find("checkpoint 2: kept 2 of 4"), std::string::npos)
      << events;
}

TEST_F(LLMSearchTest, GarbageAndFencedRepliesReachTheSessionAsText) {
  FakeLLMServer server(json{{"replies",
                             {{{"text", "```\nmove I1 before I0\n```"}},
                              {{"text", "\x01 garbage {"}}}}});
  ASSERT_TRUE(server.ok());
  makeClient(Provider::Anthropic, server);
  auto initial = session(2);
  ASSERT_TRUE(initial);
  SearchOptions options;
  options.agents = 1;
  options.topK = 1;
  options.checkpointRounds = 2;
  SearchResult result = runSearch(*initial, options);
  ASSERT_TRUE(result.best);
  const auto &history = result.best->history();
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0].applied, std::vector<std::string>{"move I1 before I0"});
  EXPECT_TRUE(history[1].applied.empty());
  EXPECT_FALSE(history[1].ignoredLines.empty());
}

TEST_F(LLMSearchTest, FailedRequestsLeaveTheIRUnchanged) {
  FakeLLMServer server(json{{"default", {{"status", 500}}}});
  ASSERT_TRUE(server.ok());
  makeClient(Provider::OpenAI, server, /*maxRetries=*/1);
  auto initial = session(3);
  ASSERT_TRUE(initial);
  std::string before = printModule(initial->bestModule());
  SearchOptions options;
  options.agents = 2;
  options.topK = 1;
  options.checkpointRounds = 1;
  SearchResult result = runSearch(*initial, options);
  ASSERT_TRUE(result.best);
  EXPECT_EQ(result.rounds, 0);
  EXPECT_EQ(result.failedRequests, 2);
  ASSERT_EQ(result.errors.size(), 2u);
  EXPECT_NE(result.errors[0].find("gave up after 2 attempts"),
            std::string::npos)
      << result.errors[0];
  EXPECT_TRUE(result.best->bestMoves().empty());
  EXPECT_EQ(printModule(result.best->bestModule()), before);
  EXPECT_EQ(server.log()["requests"].size(), 4u); // 2 agents x 2 attempts
}

TEST_F(LLMSearchTest, UnauthorizedErrorNamesTheEnvVarNotTheKey) {
  std::string raw =
      std::string("{\"error\":{\"message\":\"bad key ") + kKey + "\"}}";
  FakeLLMServer server(json{{"default", {{"status", 401}, {"raw", raw}}}});
  ASSERT_TRUE(server.ok());
  makeClient(Provider::Anthropic, server);
  auto initial = session(2);
  ASSERT_TRUE(initial);
  SearchOptions options;
  options.agents = 2;
  SearchResult result = runSearch(*initial, options);
  ASSERT_EQ(result.errors.size(), 2u);
  EXPECT_NE(result.errors[0].find(kKeyEnv), std::string::npos);
  EXPECT_EQ(server.log()["requests"].size(), 2u); // no retries
  for (const std::string &e : result.errors)
    EXPECT_EQ(e.find(kKey), std::string::npos) << e;
  EXPECT_EQ(events.find(kKey), std::string::npos);
}

class LLMSearchToolTest : public LLMSearchTest,
                          public ::testing::WithParamInterface<Provider> {};

TEST_P(LLMSearchToolTest, ToolCallingRoundTrip) {
  Provider provider = GetParam();
  FakeLLMServer server(
      json{{"replies",
            {{{"tool_calls",
               {{{"id", "c1"},
                 {"name", "apply_moves"},
                 {"arguments", {{"moves", {"move I1 before I0"}}}}},
                {{"id", "c2"},
                 {"name", "evaluate"},
                 {"arguments", json::object()}}}}},
             {{"tool_calls",
               {{{"id", "c3"},
                 {"name", "apply_moves"},
                 {"arguments", {{"moves", {"move I8 before I0"}}}}}}}},
             {{"text", "done"}}}}});
  ASSERT_TRUE(server.ok());
  makeClient(provider, server);
  auto initial = session(5);
  ASSERT_TRUE(initial);
  SearchOptions options;
  options.agents = 1;
  options.topK = 1;
  options.checkpointRounds = 5;
  options.toolCalling = true;
  SearchResult result = runSearch(*initial, options);
  ASSERT_TRUE(result.best);
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.requests, 3);
  const auto &history = result.best->history();
  ASSERT_EQ(history.size(), 3u); // two apply_moves rounds, then done
  EXPECT_EQ(history[0].applied, std::vector<std::string>{"move I1 before I0"});
  EXPECT_TRUE(history[1].failed.has_value()); // the pinned condition
  EXPECT_TRUE(history[2].done);
  EXPECT_TRUE(result.best->finished());

  json requests = server.log()["requests"];
  ASSERT_EQ(requests.size(), 3u);
  // Request 2 carries both tool results; request 3 the failed round's report.
  std::string second = requests[1]["body"]["messages"].dump();
  std::string third = requests[2]["body"]["messages"].dump();
  EXPECT_TRUE(requests[0]["body"].contains("tools"));
  EXPECT_NE(second.find("move I1 before I0"), std::string::npos);
  EXPECT_NE(second.find("peak_vgpr"), std::string::npos); // evaluate
  EXPECT_NE(second.find(provider == Provider::OpenAI
                            ? "\"tool_call_id\":\"c2\""
                            : "\"tool_use_id\":\"c2\""),
            std::string::npos)
      << second;
  EXPECT_NE(third.find("Failed: move I8 before I0"), std::string::npos)
      << third;
}

INSTANTIATE_TEST_SUITE_P(Providers, LLMSearchToolTest,
                         ::testing::Values(Provider::OpenAI,
                                           Provider::Anthropic));

} // namespace

namespace {

TEST_F(LLMSearchTest, BlockingMoveSourceForSynchronousCallers) {
  FakeLLMServer server(
      json{{"replies", {{{"text", "move I1 before I0"}}, {{"status", 404}}}}});
  ASSERT_TRUE(server.ok());
  LLMConfig c;
  c.baseUrl = server.baseUrl("/v1");
  c.model = "m";
  c.apiKeyEnv = kKeyEnv;
  LLMMoveSource source(c);
  EXPECT_EQ(source.name(), "openai:m");
  auto s = session(3);
  ASSERT_TRUE(s);
  std::optional<std::string> reply = source.nextReply(*s, s->prompt());
  ASSERT_TRUE(reply);
  EXPECT_EQ(*reply, "move I1 before I0");
  RoundReport report = s->applyReply(*reply);
  EXPECT_EQ(report.applied, std::vector<std::string>{"move I1 before I0"});
  EXPECT_FALSE(source.nextReply(*s, s->prompt()));
  EXPECT_NE(source.lastError().find("HTTP 404"), std::string::npos);
  EXPECT_EQ(source.usage().inputTokens, 10);
}

} // namespace

namespace {

TEST_F(LLMSearchTest, SearchAsAMoveSourceReplaysTheBestLineage) {
  // The gemm example, where one move frees VGPRs (kLoop is memory bound:
  // no single move improves it).
  mlir::OwningOpRef<mlir::ModuleOp> gemm =
      ctx.parseModule(test::readFile(std::string(waveasm::test::examplesDir()) +
                                     "/gemm_f16_double_buffer.mlir"));
  ASSERT_TRUE(gemm) << ctx.diagnostics;
  FakeLLMServer server(json{{"replies", {{{"text", "move I7 after I15"}}}},
                            {"default", {{"text", "done"}}}});
  ASSERT_TRUE(server.ok());
  LLMConfig c;
  c.baseUrl = server.baseUrl("/v1");
  c.model = "m";
  c.apiKeyEnv = kKeyEnv;
  SearchOptions options;
  options.agents = 2;
  options.topK = 1;
  SearchMoveSource source(c, options);
  SessionOptions sessionOptions;
  sessionOptions.maxRounds = 4;
  auto s = test::makeSession(*gemm, sessionOptions);
  ASSERT_TRUE(s);
  std::vector<RoundReport> rounds;
  runSession(*s, source,
             [&](const RoundReport &report) { rounds.push_back(report); });
  // One replayed round: the winning agent's accepted move.
  ASSERT_EQ(rounds.size(), 1u);
  EXPECT_EQ(rounds[0].applied, std::vector<std::string>{"move I7 after I15"});
  EXPECT_EQ(s->bestMoves(), std::vector<std::string>{"move I7 after I15"});
  EXPECT_EQ(source.calls(), 1);
  // Agent 0: the move, then "done"; agent 1: "done" at once.
  EXPECT_EQ(source.result().requests, 3);
  EXPECT_TRUE(source.result().errors.empty());
}

} // namespace
