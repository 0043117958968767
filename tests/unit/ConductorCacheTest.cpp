//===- ConductorCacheTest.cpp - the schedule cache and its replay ---------===//

#include "ConductorTestUtils.h"
#include "TestPaths.h"

#include "conductor/Cache.h"
#include "conductor/Driver.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using waveasm::test::makeSession;
using waveasm::test::TestContext;

namespace {

struct TempDir {
  llvm::SmallString<128> path;
  TempDir() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("conductor-cache", path));
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
};

OwningOpRef<ModuleOp> gemm(TestContext &t) {
  return t.parseModule(
      waveasm::test::readFile(std::string(waveasm::test::examplesDir()) +
                              "/gemm_f16_double_buffer.mlir"));
}

} // namespace

TEST(ConductorCache, DefaultDirectoryFollowsXDG) {
  const char *oldXdg = std::getenv("XDG_CACHE_HOME");
  std::string saved = oldXdg ? oldXdg : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(ScheduleCache::defaultDirectory(),
            "/tmp/xdg-test/waveasm/conductor");
  unsetenv("XDG_CACHE_HOME");
  std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
  if (!home.empty())
    EXPECT_EQ(ScheduleCache::defaultDirectory(),
              home + "/.cache/waveasm/conductor");
  if (oldXdg)
    setenv("XDG_CACHE_HOME", saved.c_str(), 1);
}

TEST(ConductorCache, HashIsSHA256OfTheText) {
  EXPECT_EQ(ScheduleCache::hashText("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  TestContext t;
  OwningOpRef<ModuleOp> module = gemm(t);
  ASSERT_TRUE(module);
  auto a = makeSession(*module), b = makeSession(*module);
  EXPECT_EQ(a->initialTaggedText(), b->initialTaggedText());
  EXPECT_EQ(ScheduleCache::keyFor(*a), ScheduleCache::keyFor(*b));
  SessionOptions options;
  options.metricKeyOrder = {"est_cycles"};
  auto c = makeSession(*module, options);
  EXPECT_NE(ScheduleCache::keyFor(*a), ScheduleCache::keyFor(*c));
  // Another pipeline measures the same moves differently.
  SessionOptions backend;
  backend.optimizePipeline = false;
  auto d = makeSession(*module, backend);
  EXPECT_NE(ScheduleCache::keyFor(*a), ScheduleCache::keyFor(*d));
}

TEST(ConductorCache, HitReplaysWithoutCallingTheSource) {
  TempDir dir;
  ScheduleCache cache(std::string(dir.path));
  TestContext t;
  OwningOpRef<ModuleOp> module = gemm(t);
  ASSERT_TRUE(module);

  auto first = makeSession(*module);
  ScriptedMoveSource llm({"move I7 after I15\nmove I9 after I17\n"
                          "move I11 after I14\n",
                          "done"});
  RunResult run = runConductor(*first, llm, &cache, {"openai:test-model"});
  EXPECT_FALSE(run.cacheHit);
  EXPECT_EQ(run.sourceCalls, 2);
  EXPECT_TRUE(run.warnings.empty());
  std::optional<CacheEntry> entry = cache.lookup(run.cacheKey);
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->moves, first->bestMoves());
  EXPECT_EQ(entry->source, "openai:test-model");
  EXPECT_FALSE(entry->foundNothing());
  EXPECT_EQ(entry->rounds, 2);
  EXPECT_EQ(entry->metrics, first->bestMetrics());
  EXPECT_EQ(entry->timestamp.size(), 20u); // 2026-11-21T13:00:00Z

  // A second run on the same IR: the source is never asked.
  auto second = makeSession(*module);
  ScriptedMoveSource unused({"move I2 after I21"});
  std::vector<std::string> from;
  RunResult hit = runConductor(*second, unused, &cache, {"openai:test-model"},
                               [&](const RoundReport &, llvm::StringRef name) {
                                 from.push_back(name.str());
                               });
  EXPECT_TRUE(hit.cacheHit);
  EXPECT_EQ(hit.cacheSource, "openai:test-model");
  EXPECT_FALSE(hit.cacheFoundNothing);
  EXPECT_EQ(hit.sourceCalls, 0);
  EXPECT_EQ(unused.calls(), 0);
  EXPECT_EQ(from, std::vector<std::string>{"cache"});
  EXPECT_EQ(second->currentOrder(), first->currentOrder());
  EXPECT_EQ(second->bestMetrics(), first->bestMetrics());

  // The file holds no secrets: only the documented keys.
  std::string json = waveasm::test::readFile(cache.pathFor(run.cacheKey));
  EXPECT_EQ(json.find("key"), std::string::npos);
  EXPECT_NE(json.find("\"moves\""), std::string::npos);
}

TEST(ConductorCache, CorruptEntriesAreIgnoredWithAWarning) {
  TempDir dir;
  ScheduleCache cache(std::string(dir.path));
  TestContext t;
  OwningOpRef<ModuleOp> module = gemm(t);
  ASSERT_TRUE(module);
  auto session = makeSession(*module);
  std::string key = ScheduleCache::keyFor(*session);
  std::string deep = "{\"moves\": " + std::string(100000, '[') +
                     std::string(100000, ']') + "}";
  for (const std::string &content :
       {std::string("{ not json"), std::string("[1, 2]"),
        std::string("{\"moves\": [3]}"), std::string("{\"moves\": \"x\"}"),
        std::string("{\"moves\": [\"teleport I1\"]}"), deep}) {
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(cache.pathFor(key), ec);
      ASSERT_FALSE(ec);
      os << content;
    }
    auto fresh = makeSession(*module);
    ScriptedMoveSource llm({"move I7 after I15"});
    RunResult run = runConductor(*fresh, llm, &cache, {"m"});
    EXPECT_FALSE(run.cacheHit) << content;
    EXPECT_EQ(run.sourceCalls, 1) << content;
    ASSERT_FALSE(run.warnings.empty()) << content;
    EXPECT_TRUE(llvm::StringRef(run.warnings[0])
                    .starts_with("ignoring corrupt cache entry " +
                                 cache.pathFor(key) + ": "))
        << run.warnings[0];
    // The run stored a good entry over the corrupt one; corrupt it again.
    EXPECT_TRUE(cache.lookup(key).has_value()) << content;
  }
}

// A run that finds no better schedule is worth remembering too: the next
// run of the same input (a CI job) must not pay for the same calls again.
TEST(ConductorCache, NoBetterScheduleIsStoredAndReplayed) {
  TempDir dir;
  ScheduleCache cache(std::string(dir.path));
  TestContext t;
  OwningOpRef<ModuleOp> module = gemm(t);
  ASSERT_TRUE(module);
  // The one move regresses est_cycles and is reverted; then "done".
  SessionOptions options;
  options.metricKeyOrder = {"est_cycles", "peak_vgpr"};
  auto first = makeSession(*module, options);
  ScriptedMoveSource llm({"move I2 after I21", "done"});
  RunResult run = runConductor(*first, llm, &cache, {"openai:test-model"});
  EXPECT_TRUE(first->bestMoves().empty());
  std::optional<CacheEntry> entry = cache.lookup(run.cacheKey);
  ASSERT_TRUE(entry);
  EXPECT_TRUE(entry->foundNothing());
  EXPECT_EQ(entry->source, "openai:test-model");

  auto second = makeSession(*module, options);
  ScriptedMoveSource unused({"move I7 after I15"});
  RunResult hit = runConductor(*second, unused, &cache, {"openai:test-model"});
  EXPECT_TRUE(hit.cacheHit);
  EXPECT_TRUE(hit.cacheFoundNothing);
  EXPECT_EQ(unused.calls(), 0);
  EXPECT_EQ(second->roundsUsed(), 0);
  EXPECT_TRUE(second->bestMoves().empty());
  EXPECT_EQ(second->bestMetrics(), second->baselineMetrics());
}

namespace {
/// A source that answers nothing because its request failed.
class FailingSource : public MoveSource {
public:
  std::string name() const override { return "openai:test-model"; }
  std::optional<std::string> nextReply(const Session &,
                                       llvm::StringRef) override {
    return std::nullopt;
  }
  bool failed() const override { return true; }
};
} // namespace

TEST(ConductorCache, FailedRunsStoreNothing) {
  TempDir dir;
  ScheduleCache cache(std::string(dir.path));
  TestContext t;
  OwningOpRef<ModuleOp> module = gemm(t);
  ASSERT_TRUE(module);
  auto session = makeSession(*module);
  FailingSource failing;
  RunResult run =
      runConductor(*session, failing, &cache, {"openai:test-model"});
  EXPECT_FALSE(cache.lookup(run.cacheKey).has_value());
  // Nor does a source that never answered.
  ScriptedMoveSource silent({});
  auto again = makeSession(*module);
  run = runConductor(*again, silent, &cache, {"script"});
  EXPECT_FALSE(cache.lookup(run.cacheKey).has_value());
}

// A schedule of the built-in strategies is replayed for an LLM run unless
// the run asks for its own source's entries only; then it is bypassed and
// the LLM's result replaces it.
TEST(ConductorCache, EntriesOfAnotherSourceCanBeBypassed) {
  TempDir dir;
  ScheduleCache cache(std::string(dir.path));
  TestContext t;
  OwningOpRef<ModuleOp> module = gemm(t);
  ASSERT_TRUE(module);
  auto builtin = makeSession(*module);
  ScriptedMoveSource strategies({"move I7 after I15\nmove I9 after I17\n"
                                 "move I11 after I14\n"});
  runConductor(*builtin, strategies, &cache, {"builtin"});

  auto any = makeSession(*module);
  ScriptedMoveSource llm({"done"});
  RunResult hit = runConductor(*any, llm, &cache, {"openai:test-model"});
  EXPECT_TRUE(hit.cacheHit);
  EXPECT_EQ(hit.cacheSource, "builtin");
  EXPECT_EQ(llm.calls(), 0);

  auto own = makeSession(*module);
  CachePolicy sameSource{"openai:test-model", /*sameSourceOnly=*/true};
  RunResult bypass = runConductor(*own, llm, &cache, sameSource);
  EXPECT_FALSE(bypass.cacheHit);
  EXPECT_EQ(bypass.bypassedSource, "builtin");
  EXPECT_EQ(llm.calls(), 1);
  std::optional<CacheEntry> entry = cache.lookup(bypass.cacheKey);
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->source, "openai:test-model");
  EXPECT_TRUE(entry->foundNothing());
}
