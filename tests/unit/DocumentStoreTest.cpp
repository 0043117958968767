//===- DocumentStoreTest.cpp - incremental sync with UTF-16 positions
//------===//

#include "server/runtime/DocumentStore.h"
#include "conductor/Session.h"
#include "server/Features.h"
#include "server/runtime/Debounce.h"
#include "server/runtime/SettingsJSON.h"
#include "server/runtime/Worker.h"

#include <gtest/gtest.h>

#include <condition_variable>

using namespace waveasm;
using namespace waveasm::server;

namespace {

lsp::TextDocumentContentChangeEvent edit(int l0, int c0, int l1, int c1,
                                         std::string text) {
  return {lsp::Range{{l0, c0}, {l1, c1}}, std::move(text)};
}

/// Opens `text` as version 1 and applies `changes` as version 2.
std::string applied(std::string text,
                    std::vector<lsp::TextDocumentContentChangeEvent> changes,
                    bool *ok = nullptr) {
  DocumentStore store;
  store.open({"file:///t.mlir", "mlir", 1, std::move(text)});
  llvm::Expected<const TextDocument *> doc =
      store.change({"file:///t.mlir", 2}, changes);
  if (ok)
    *ok = bool(doc);
  if (!doc) {
    llvm::consumeError(doc.takeError());
    return store.get("file:///t.mlir")->text;
  }
  EXPECT_EQ((*doc)->version, 2);
  return (*doc)->text;
}

} // namespace

TEST(DocumentStore, OpenChangeClose) {
  DocumentStore store;
  store.open({"u", "mlir", 3, "abc"});
  ASSERT_NE(store.get("u"), nullptr);
  EXPECT_EQ(store.get("u")->version, 3);
  EXPECT_EQ(store.get("u")->languageId, "mlir");
  llvm::Expected<const TextDocument *> doc =
      store.change({"nope", 1}, {edit(0, 0, 0, 0, "x")});
  EXPECT_FALSE(bool(doc));
  llvm::consumeError(doc.takeError());
  EXPECT_TRUE(store.close("u"));
  EXPECT_FALSE(store.close("u"));
  EXPECT_EQ(store.get("u"), nullptr);
}

TEST(DocumentStore, SingleLineEdits) {
  EXPECT_EQ(applied("hello world", {edit(0, 6, 0, 11, "there")}),
            "hello there");
  EXPECT_EQ(applied("abc", {edit(0, 1, 0, 1, "XY")}), "aXYbc");
  EXPECT_EQ(applied("abc", {edit(0, 0, 0, 3, "")}), "");
}

TEST(DocumentStore, MultiLineRanges) {
  std::string text = "line0\nline1\nline2\nline3\n";
  EXPECT_EQ(applied(text, {edit(1, 2, 2, 3, "X")}), "line0\nliXe2\nline3\n");
  // Replace a multi-line range with multi-line text.
  EXPECT_EQ(applied(text, {edit(0, 5, 2, 0, "\nA\nB\n")}),
            "line0\nA\nB\nline2\nline3\n");
  // Deletion across lines, joining them.
  EXPECT_EQ(applied(text, {edit(0, 4, 3, 4, "")}), "line3\n");
}

TEST(DocumentStore, InsertionAtEnd) {
  EXPECT_EQ(applied("a\nb", {edit(1, 1, 1, 1, "c\n")}), "a\nbc\n");
  // After a trailing newline the last line is empty.
  EXPECT_EQ(applied("a\n", {edit(1, 0, 1, 0, "z")}), "a\nz");
  EXPECT_EQ(applied("", {edit(0, 0, 0, 0, "first")}), "first");
}

TEST(DocumentStore, SequentialChangesSeeEarlierOnes) {
  // Each change's range refers to the text after the previous change.
  EXPECT_EQ(applied("abc", {edit(0, 0, 0, 0, "1\n"), edit(1, 3, 1, 3, "!")}),
            "1\nabc!");
}

TEST(DocumentStore, FullTextChanges) {
  EXPECT_EQ(applied("old", {{std::nullopt, "new\ntext"}}), "new\ntext");
  // A full change followed by a ranged one.
  EXPECT_EQ(applied("old", {{std::nullopt, "new"}, edit(0, 3, 0, 3, "er")}),
            "newer");
}

TEST(DocumentStore, CRLF) {
  // The "\r" of "\r\n" is part of the line break: column 3 of "abc\r\n" is
  // the line's end, and a character past it clamps there too.
  EXPECT_EQ(applied("abc\r\ndef", {edit(0, 3, 0, 3, "X")}), "abcX\r\ndef");
  EXPECT_EQ(applied("abc\r\ndef", {edit(0, 9, 0, 9, "X")}), "abcX\r\ndef");
  EXPECT_EQ(applied("abc\r\ndef", {edit(0, 1, 1, 1, "")}), "aef");
}

TEST(DocumentStore, MultiByteUTF8) {
  // "é" is 2 bytes but one UTF-16 unit; "中" 3 bytes, one unit.
  std::string text = "aé中b\nx";
  EXPECT_EQ(applied(text, {edit(0, 1, 0, 2, "e")}), "ae中b\nx");
  EXPECT_EQ(applied(text, {edit(0, 2, 0, 3, "Z")}), "aéZb\nx");
  EXPECT_EQ(applied(text, {edit(0, 3, 0, 3, "|")}), "aé中|b\nx");
  EXPECT_EQ(applied(text, {edit(0, 4, 1, 0, "")}), "aé中bx");
}

TEST(DocumentStore, SurrogatePairs) {
  // U+1F600 is 4 UTF-8 bytes and 2 UTF-16 units.
  std::string text = "a\xF0\x9F\x98\x80"
                     "b";
  EXPECT_EQ(applied(text, {edit(0, 3, 0, 3, "|")}), "a\xF0\x9F\x98\x80|b");
  EXPECT_EQ(applied(text, {edit(0, 1, 0, 3, "")}), "ab");
  EXPECT_EQ(applied(text, {edit(0, 3, 0, 4, "c")}), "a\xF0\x9F\x98\x80"
                                                    "c");
  // A position inside the pair means after the character: the edit never
  // splits the UTF-8 sequence.
  EXPECT_EQ(applied(text, {edit(0, 2, 0, 2, "|")}), "a\xF0\x9F\x98\x80|b");
  EXPECT_EQ(applied(text, {edit(0, 1, 0, 2, "")}), "ab");
}

TEST(DocumentStore, PositionsRoundTrip) {
  std::string text = "a\xF0\x9F\x98\x80\xC3\xA9\nxy\r\nz";
  EXPECT_EQ(offsetToPosition(text, 0), (lsp::Position{0, 0}));
  EXPECT_EQ(offsetToPosition(text, 5), (lsp::Position{0, 3}));
  EXPECT_EQ(offsetToPosition(text, 7), (lsp::Position{0, 4}));
  EXPECT_EQ(offsetToPosition(text, 8), (lsp::Position{1, 0}));
  EXPECT_EQ(offsetToPosition(text, 100), (lsp::Position{2, 1}));
  for (size_t offset : {0, 1, 5, 7, 8, 9, 12, 13})
    EXPECT_EQ(positionToOffset(text, offsetToPosition(text, offset)), offset)
        << offset;
}

TEST(DocumentStore, OutOfRangeIsClampedOrRejected) {
  std::string text = "ab\ncd";
  // A character past the line's end: the line's end.
  EXPECT_EQ(applied(text, {edit(0, 50, 0, 50, "!")}), "ab!\ncd");
  // A line past the end: the end of the document.
  EXPECT_EQ(applied(text, {edit(9, 0, 12, 4, "!")}), "ab\ncd!");
  EXPECT_EQ(applied(text, {edit(1, 1, 99, 99, "")}), "ab\nc");

  // Negative positions and reversed ranges are refused; the text and the
  // version stay as they were, even when earlier changes were fine.
  for (auto bad : {edit(-1, 0, 0, 1, "x"), edit(0, -3, 0, 1, "x"),
                   edit(1, 1, 0, 1, "x"), edit(0, 2, 0, 1, "x")}) {
    bool ok = true;
    EXPECT_EQ(applied(text, {edit(0, 0, 0, 0, "first"), bad}, &ok), text);
    EXPECT_FALSE(ok);
  }
  DocumentStore store;
  store.open({"u", "", 1, text});
  llvm::Expected<const TextDocument *> doc =
      store.change({"u", 2}, {edit(1, 0, 0, 0, "")});
  EXPECT_FALSE(bool(doc));
  llvm::consumeError(doc.takeError());
  EXPECT_EQ(store.get("u")->version, 1);
}

//===--- debounce
//--------------------------------------------------------------===//

TEST(Debounce, AdaptsToParseTimeWithinBounds) {
  using D = DebouncePolicy::Duration;
  DebouncePolicy policy(50, 500);
  EXPECT_EQ(policy.interval().count(), 50);
  for (int i = 0; i < 5; ++i)
    policy.recordParse(D(10));
  EXPECT_EQ(policy.interval().count(), 50); // clamped up to min
  for (int i = 0; i < 10; ++i)
    policy.recordParse(D(200));
  EXPECT_EQ(policy.interval().count(), 200); // the median
  for (int i = 0; i < 15; ++i)
    policy.recordParse(D(2000));
  EXPECT_EQ(policy.interval().count(), 500); // clamped down to max
}

TEST(Debounce, LeadingEdgeThenCoalesce) {
  using D = DebouncePolicy::Duration;
  using Clock = DebouncePolicy::Clock;
  DebouncePolicy policy(50, 500);
  Clock::time_point t0 = Clock::now();
  auto at = [&](double ms) {
    return t0 + std::chrono::duration_cast<Clock::duration>(D(ms));
  };
  // Quiet document: parse at once.
  EXPECT_EQ(policy.delayFor(at(0), std::nullopt, std::nullopt).count(), 0);
  EXPECT_EQ(policy.delayFor(at(100), at(0), std::nullopt).count(), 0);
  // Typing: wait a whole interval after this edit...
  EXPECT_EQ(policy.delayFor(at(110), at(100), std::nullopt).count(), 50);
  EXPECT_EQ(policy.delayFor(at(120), at(110), at(110)).count(), 50);
  // ...but never more than max after the first unparsed edit.
  EXPECT_NEAR(policy.delayFor(at(590), at(580), at(110)).count(), 20, 0.01);
  EXPECT_EQ(policy.delayFor(at(700), at(690), at(110)).count(), 0);

  DebouncePolicy trailing(50, 500, /*leadingEdge=*/false);
  EXPECT_EQ(trailing.delayFor(at(0), std::nullopt, std::nullopt).count(), 50);
}

//===--- settings
//---------------------------------------------------------------===//

TEST(SettingsJSON, AppliesAndReports) {
  ServerSettings settings;
  RuntimeSettings runtime;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(R"({
    "waveasm": {
      "target": "gfx950",
      "targetModelOverrides": ["latency.vmem_load=120"],
      "hints": {"latency": false, "tag": "yes"},
      "lints": {"stall": "off", "pressure": "error", "bogus": "hint",
                "hazard": "loud"},
      "stallThresholdCycles": 32,
      "checkByExecution": false,
      "debounce": {"minMs": 0, "maxMs": 100, "leadingEdge": false},
      "progressDelayMs": 0
    }})");
  ASSERT_TRUE(bool(json));
  std::vector<std::string> problems =
      applySettingsJSON(*json, settings, runtime);
  EXPECT_EQ(settings.targetOverride, TargetKind::gfx950);
  EXPECT_EQ(settings.targetModelOverrides,
            std::vector<std::string>{"latency.vmem_load=120"});
  EXPECT_FALSE(settings.hintLatency);
  EXPECT_TRUE(settings.hintTag); // bad value: unchanged
  EXPECT_EQ(settings.severityOf(LintCode::Stall), LintSeverity::Off);
  EXPECT_EQ(settings.severityOf(LintCode::Pressure), LintSeverity::Error);
  EXPECT_EQ(settings.severityOf(LintCode::Hazard), LintSeverity::Hint);
  EXPECT_EQ(settings.stallThresholdCycles, 32);
  EXPECT_FALSE(settings.checkByExecution);
  EXPECT_FALSE(makeSessionOptions(settings, "").checkByExecution);
  EXPECT_EQ(settings.debounceMinMs, 0);
  EXPECT_EQ(settings.debounceMaxMs, 100);
  EXPECT_FALSE(runtime.debounceLeadingEdge);
  EXPECT_EQ(runtime.progressDelayMs, 0);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_NE(problems[0].find("hints.tag"), std::string::npos);

  // Partial updates keep the rest; null resets the target.
  problems = applySettingsJSON(
      llvm::json::Object{{"target", nullptr},
                         {"debounce", llvm::json::Object{{"minMs", 900}}}},
      settings, runtime);
  EXPECT_FALSE(settings.targetOverride.has_value());
  EXPECT_EQ(settings.debounceMinMs, 0); // 900 > maxMs 100: refused
  EXPECT_EQ(problems.size(), 1u);
  EXPECT_FALSE(settings.hintLatency);

  // The JSON form reads back to the same settings.
  ServerSettings copy;
  RuntimeSettings runtimeCopy;
  EXPECT_TRUE(
      applySettingsJSON(settingsToJSON(settings, runtime), copy, runtimeCopy)
          .empty());
  EXPECT_EQ(settingsToJSON(copy, runtimeCopy),
            settingsToJSON(settings, runtime));
}

// Neovim's Lua encodes an empty settings table as `[]`; that means "no
// settings", not a malformed object.
TEST(SettingsJSON, EmptyArrayIsNoSettings) {
  ServerSettings settings;
  RuntimeSettings runtime;
  EXPECT_TRUE(
      applySettingsJSON(llvm::json::Array{}, settings, runtime).empty());
  EXPECT_TRUE(
      applySettingsJSON(llvm::json::Object{{"waveasm", llvm::json::Array{}}},
                        settings, runtime)
          .empty());
  // A non-empty array is still wrong.
  std::vector<std::string> problems =
      applySettingsJSON(llvm::json::Array{1}, settings, runtime);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("expected an object"), std::string::npos);
}

TEST(SettingsJSON, LLMSettings) {
  ServerSettings settings;
  RuntimeSettings runtime;
  EXPECT_EQ(settings.llmProvider, ServerSettings::LLMProvider::None);
  EXPECT_EQ(settings.llmApiKeyEnv, "WAVEASM_LLM_API_KEY");
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(R"({
    "llm": {"provider": "anthropic", "model": "m1",
            "baseUrl": "http://127.0.0.1:9/", "apiKeyEnv": "MY_KEY",
            "rounds": 3, "timeoutMs": 500, "maxRetries": 0}})");
  ASSERT_TRUE(bool(json));
  EXPECT_TRUE(applySettingsJSON(*json, settings, runtime).empty());
  EXPECT_EQ(settings.llmProvider, ServerSettings::LLMProvider::Anthropic);
  EXPECT_EQ(settings.llmModel, "m1");
  EXPECT_EQ(settings.llmBaseUrl, "http://127.0.0.1:9/");
  EXPECT_EQ(settings.llmApiKeyEnv, "MY_KEY");
  EXPECT_EQ(settings.llmRounds, 3);
  EXPECT_EQ(settings.llmTimeoutMs, 500);
  EXPECT_EQ(settings.llmMaxRetries, 0);

  // Flat dotted keys; bad values are reported and change nothing. A key
  // pasted into apiKeyEnv is refused and not echoed.
  json = llvm::json::parse(R"({"waveasm": {
    "llm.provider": "gpt", "llm.rounds": 0,
    "llm.apiKeyEnv": "sk-secret value", "llm.model": "m2"}})");
  ASSERT_TRUE(bool(json));
  std::vector<std::string> problems =
      applySettingsJSON(*json, settings, runtime);
  ASSERT_EQ(problems.size(), 3u);
  for (const std::string &problem : problems)
    EXPECT_EQ(problem.find("sk-secret"), std::string::npos) << problem;
  EXPECT_EQ(settings.llmProvider, ServerSettings::LLMProvider::Anthropic);
  EXPECT_EQ(settings.llmRounds, 3);
  EXPECT_EQ(settings.llmApiKeyEnv, "MY_KEY");
  EXPECT_EQ(settings.llmModel, "m2");

  json = llvm::json::parse(R"({"llm": {"provider": "none"}})");
  EXPECT_TRUE(applySettingsJSON(*json, settings, runtime).empty());
  EXPECT_EQ(settings.llmProvider, ServerSettings::LLMProvider::None);
  // Round trip through the JSON form.
  ServerSettings copy;
  RuntimeSettings runtimeCopy;
  EXPECT_TRUE(
      applySettingsJSON(settingsToJSON(settings, runtime), copy, runtimeCopy)
          .empty());
  EXPECT_EQ(copy.llmApiKeyEnv, "MY_KEY");
  EXPECT_EQ(copy.llmModel, "m2");
}

//===--- worker
//---------------------------------------------------------------===//

namespace {

/// A Worker whose completions are drained by the test thread.
struct WorkerHarness {
  std::mutex mutex;
  std::condition_variable cv;
  int wakes = 0;
  Worker worker{[this] {
    std::lock_guard<std::mutex> lock(mutex);
    ++wakes;
    cv.notify_all();
  }};

  void drainUntil(std::function<bool()> done) {
    for (int i = 0; i < 1000 && !done(); ++i) {
      std::unique_lock<std::mutex> lock(mutex);
      cv.wait_for(lock, std::chrono::milliseconds(10));
      lock.unlock();
      worker.drainCompletions();
    }
  }
};

} // namespace

TEST(Worker, RunsJobsAndContinuationsOnTheDrainingThread) {
  WorkerHarness h;
  std::thread::id jobThread, continuationThread;
  bool done = false;
  h.worker.post("", lsp::CancellationToken(), [&]() -> Worker::Continuation {
    jobThread = std::this_thread::get_id();
    return [&] {
      continuationThread = std::this_thread::get_id();
      done = true;
    };
  });
  h.drainUntil([&] { return done; });
  EXPECT_TRUE(done);
  EXPECT_NE(jobThread, std::this_thread::get_id());
  EXPECT_EQ(continuationThread, std::this_thread::get_id());
}

TEST(Worker, SameKeyReplacesQueuedAndCancelledJobsDrop) {
  WorkerHarness h;
  std::mutex gate;
  gate.lock(); // holds the first job so the others queue behind it
  std::vector<int> ran;
  std::mutex ranMutex;
  auto job = [&](int n, bool block = false) {
    return [&, n, block]() -> Worker::Continuation {
      if (block) {
        gate.lock();
        gate.unlock();
      }
      std::lock_guard<std::mutex> lock(ranMutex);
      ran.push_back(n);
      return nullptr;
    };
  };
  h.worker.post("", lsp::CancellationToken(), job(0, true));
  EXPECT_FALSE(h.worker.post("doc", lsp::CancellationToken(), job(1)));
  EXPECT_TRUE(h.worker.post("doc", lsp::CancellationToken(), job(2)));
  lsp::CancellationToken cancelled;
  h.worker.post("", cancelled, job(3));
  cancelled.cancel();
  h.worker.post("other", lsp::CancellationToken(), job(4));
  gate.unlock();
  h.worker.waitIdle();
  h.worker.drainCompletions();
  EXPECT_EQ(ran, (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(h.worker.backlog(), 0u);
}
