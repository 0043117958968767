//===- ConductorSessionTest.cpp - the Conductor's round loop --------------===//

#include "ConductorTestUtils.h"
#include "TestPaths.h"

#include "conductor/MoveSource.h"
#include "pipeline/CompileAndMeasure.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using waveasm::test::makeSession;
using waveasm::test::program;
using waveasm::test::TestContext;

namespace {

std::string examplePath(llvm::StringRef name) {
  return (llvm::Twine(waveasm::test::examplesDir()) + "/" + name).str();
}

std::string printed(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().enableDebugInfo());
  return text;
}

// The gemm example's loop body, as the tests name it (see the prompt):
// I2/I3 global loads, I6..I13 LDS reads, I14..I21 MFMAs, I23/I24 LDS writes.
struct Gemm {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  Gemm() {
    module = t.parseModule(
        waveasm::test::readFile(examplePath("gemm_f16_double_buffer.mlir")));
    EXPECT_TRUE(module) << t.diagnostics;
  }
};

const char *kInterleave = "move I7 after I15\nmove I9 after I17\n"
                          "move I11 after I14\n";

} // namespace

TEST(ConductorSession, BaselineAndPrompt) {
  Gemm g;
  std::string before = printed(*g.module);
  auto session = makeSession(*g.module);
  ASSERT_TRUE(session);
  EXPECT_TRUE(session->baselineError().empty());
  EXPECT_EQ(session->baselineMetrics().peak_vgpr, 50);
  EXPECT_EQ(session->baselineMetrics(), session->bestMetrics());
  std::string prompt = session->prompt();
  EXPECT_TRUE(llvm::StringRef(prompt).starts_with(
      "=== WaveASM Scheduling Round 1 ===\n"
      "TARGET: gfx942 (wave64, 512 vgpr, 106 sgpr, 256 agpr)\n"
      "LATENCY (issue slots): vmem=100, lds=20, mfma_16x16=4 (result after 9), "
      "mfma_32x32=8 (result after 13)\n\n"
      "--- IR (loop body) ---\n"))
      << prompt;
  for (llvm::StringRef section :
       {"\n--- Metrics (baseline) ---\npeak_vgpr: 50\npeak_sgpr: 20\n"
        "peak_agpr: 0\nnops_inserted: 0\nwaitcnts_inserted: 5\n"
        "total_instructions: 90\n",
        "est_cycles_per_iter: 138\n",
        "\n--- Warnings from previous round ---\n(none)\n",
        "\n--- Error from previous round ---\n(none)\n",
        "\nGOAL: Minimize register pressure and hide memory latency.\n"
        "Respond with move commands, one per line.\n",
        "loc(\"I27\")"})
    EXPECT_NE(prompt.find(section.str()), std::string::npos) << section.str();
  // The input is cloned, never changed (not even its locations).
  EXPECT_EQ(printed(*g.module), before);
}

TEST(ConductorSession, ValidRoundIsKept) {
  Gemm g;
  auto session = makeSession(*g.module);
  ASSERT_TRUE(session);
  RoundReport report = session->applyReply(kInterleave);
  EXPECT_EQ(report.round, 1);
  EXPECT_TRUE(report.improved);
  EXPECT_FALSE(report.reverted);
  EXPECT_EQ(report.applied.size(), 3u);
  EXPECT_EQ(report.text(), "");
  EXPECT_EQ(session->bestMetrics().peak_vgpr, 48);
  EXPECT_EQ(report.metricsChange, "peak_vgpr 50 -> 48");
  EXPECT_EQ(session->bestMoves(),
            (std::vector<std::string>{"move I7 after I15", "move I9 after I17",
                                      "move I11 after I14"}));
  std::vector<unsigned> order = session->currentOrder();
  // I7, I9 and I11 left 6..13; I11 now follows I14, I7 follows I15.
  EXPECT_EQ(order[11], 14u);
  EXPECT_EQ(order[12], 11u);
  EXPECT_EQ(order[14], 7u);
  EXPECT_TRUE(succeeded(verify(session->bestModule())));
  std::string prompt = session->prompt();
  EXPECT_NE(prompt.find("=== WaveASM Scheduling Round 2 ==="),
            std::string::npos);
  EXPECT_NE(prompt.find("--- Metrics (best schedule so far) ---\n"
                        "peak_vgpr: 48\n"),
            std::string::npos);
}

TEST(ConductorSession, CoAccessFiguresOfTheBaselineAndKeptRounds) {
  // A round's compile leaves the co-access figures out (a fifth of it);
  // the session adds them to the baseline and to a kept round, equal to
  // what compile-and-measure reports for the same schedule.
  Gemm g;
  auto session = makeSession(*g.module);
  ASSERT_TRUE(session);
  auto coAccessOf = [](ModuleOp module) {
    FailureOr<CompileResult> compiled = compileAndMeasure(module);
    EXPECT_TRUE(succeeded(compiled));
    return succeeded(compiled) ? compiled->programs.front().metrics
                               : ProgramMetrics();
  };
  ProgramMetrics input = coAccessOf(*g.module);
  ASSERT_FALSE(input.loops.empty());
  ASSERT_GT(input.loops[0].coaccess_cost, 0);
  const LoopMetrics &base = session->baselineMetrics().loops.at(0);
  EXPECT_DOUBLE_EQ(base.coaccess_cost, input.loops[0].coaccess_cost);
  EXPECT_DOUBLE_EQ(base.coaccess_modularity,
                   input.loops[0].coaccess_modularity);
  EXPECT_EQ(base.coaccess_clusters, input.loops[0].coaccess_clusters);

  RoundReport report = session->applyReply(kInterleave);
  ASSERT_TRUE(report.improved);
  ASSERT_TRUE(report.metrics.has_value());
  ProgramMetrics best = coAccessOf(session->bestModule());
  const LoopMetrics &kept = report.metrics->loops.at(0);
  EXPECT_DOUBLE_EQ(kept.coaccess_cost, best.loops[0].coaccess_cost);
  EXPECT_DOUBLE_EQ(kept.coaccess_modularity, best.loops[0].coaccess_modularity);
  EXPECT_EQ(kept.coaccess_clusters, best.loops[0].coaccess_clusters);
  EXPECT_DOUBLE_EQ(session->bestMetrics().loops.at(0).coaccess_cost,
                   best.loops[0].coaccess_cost);
}

TEST(ConductorSession, MalformedSimDirectiveLeavesRoundsUncheckedWithAWarning) {
  // The check by execution runs on the inputs the document's
  // `// waveasm-sim:` lines set; when they cannot be read it does not run
  // (on inputs the author did not mean it proves nothing) and the first
  // kept round says why.
  Gemm g;
  SessionOptions options;
  options.checkByExecution = true;
  setExecutionInputs(options, "// kernel\n// waveasm-sim: --byte-range=9\n");
  EXPECT_NE(options.executionInputsError.find("line 2: waveasm-sim directive"),
            std::string::npos)
      << options.executionInputsError;
  std::string error;
  auto session = Session::create(*g.module, nullptr, options, &error);
  ASSERT_TRUE(succeeded(session)) << error;
  RoundReport report = (*session)->applyReply(kInterleave);
  EXPECT_TRUE(report.improved);
  EXPECT_TRUE(llvm::any_of(report.warnings, [](const std::string &w) {
    return llvm::StringRef(w).starts_with(
        "not checked by execution: line 2: waveasm-sim directive");
  })) << llvm::join(report.warnings, "\n");
  // A well-formed line sets the inputs and clears the error.
  setExecutionInputs(options, "// waveasm-sim: --kernarg-dword=24:7\n");
  EXPECT_TRUE(options.executionInputsError.empty());
  EXPECT_EQ(options.executionInputs.kernargDwords.at(24), 7u);
}

TEST(ConductorSession, InvalidMoveRevertsTheRoundWithTheDesignsReport) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      t.parseModule(program(waveasm::test::kConductorLoop));
  ASSERT_TRUE(module) << t.diagnostics;
  auto session = makeSession(*module);
  ASSERT_TRUE(session);
  std::vector<unsigned> before = session->currentOrder();
  RoundReport report = session->applyReply(
      "move I3 before I2\nmove I1 before I6\nswap I6 I9\nmove I0 after I1\n");
  EXPECT_EQ(report.applied, (std::vector<std::string>{"move I3 before I2",
                                                      "move I1 before I6"}));
  ASSERT_TRUE(report.failed);
  EXPECT_EQ(*report.failed, "swap I6 I9");
  EXPECT_TRUE(report.reverted);
  EXPECT_FALSE(report.improved);
  EXPECT_EQ(session->currentOrder(), before);
  std::string expected =
      "Applied successfully: move I3 before I2, move I1 before I6\n"
      "Failed: swap I6 I9 \u2014 would break dominance of %15 (defined by "
      "I6, used by I7)\n"
      "All moves reverted.";
  EXPECT_EQ(report.text(), expected);
  std::string prompt = session->prompt();
  EXPECT_NE(
      prompt.find("--- Error from previous round ---\n" + expected + "\n"),
      std::string::npos)
      << prompt;
  // The name in the report is the one the prompt's IR shows for I6.
  EXPECT_NE(prompt.find("  %15 = waveasm.v_add_u32 %14, %11 : "),
            std::string::npos);
  // The baseline is still the reference.
  EXPECT_NE(prompt.find("--- Metrics (baseline) ---"), std::string::npos);
}

TEST(ConductorSession, RegressionIsReverted) {
  Gemm g;
  SessionOptions options;
  options.metricKeyOrder = {"est_cycles", "peak_vgpr"};
  auto session = makeSession(*g.module, options);
  ASSERT_TRUE(session);
  std::vector<unsigned> before = session->currentOrder();
  // The global load after the MFMAs: fewer VGPRs, but its latency shows.
  RoundReport report = session->applyReply("move I2 after I21");
  EXPECT_TRUE(report.reverted);
  EXPECT_FALSE(report.improved);
  ASSERT_TRUE(report.metrics);
  EXPECT_GT(report.metrics->est_cycles, session->baselineMetrics().est_cycles);
  // 7016 (6504 before LDS bank conflicts were modelled): the example's
  // ds_read_b64 fragment reads (64-byte rows, 16 rows per phase) are 4-way
  // bank conflicts, +2 slots each and the LDS pipe held for them, which
  // this order no longer hides (LdsBankConflictsTest checks the conflict by
  // execution).
  EXPECT_EQ(report.text(),
            "Applied successfully: move I2 after I21\n"
            "Reverted: round regressed metrics (est_cycles 4680 -> 7016)\n"
            "All moves reverted.");
  EXPECT_EQ(session->currentOrder(), before);
  EXPECT_EQ(session->bestMetrics(), session->baselineMetrics());
  EXPECT_TRUE(session->bestMoves().empty());

  // Under the default order (peak VGPRs first) the same move is kept.
  auto byPressure = makeSession(*g.module);
  ASSERT_TRUE(byPressure);
  EXPECT_TRUE(byPressure->applyReply("move I2 after I21").improved);
  // A neutral round is reverted too.
  auto neutral = makeSession(*g.module);
  RoundReport same = neutral->applyReply("move I18 after I21");
  EXPECT_TRUE(same.reverted);
  EXPECT_EQ(same.failureReason, "no improvement (metrics unchanged)");
}

TEST(ConductorSession, DoneAndBudget) {
  Gemm g;
  auto session = makeSession(*g.module);
  ASSERT_TRUE(session);
  RoundReport done = session->applyReply("```\nmove I7 after I15\ndone\n```");
  EXPECT_TRUE(done.done);
  EXPECT_EQ(done.applied.size(), 1u);
  EXPECT_TRUE(session->finished());
  RoundReport after = session->applyReply("move I9 after I17");
  EXPECT_EQ(after.failureReason, "the session is finished");
  EXPECT_TRUE(after.applied.empty());
  EXPECT_EQ(session->roundsUsed(), 1);

  SessionOptions options;
  options.maxRounds = 2;
  auto budget = makeSession(*g.module, options);
  ASSERT_TRUE(budget);
  ScriptedMoveSource source(
      {"swap I6 I14", "nothing useful", "move I7 after I15"});
  runSession(*budget, source);
  EXPECT_TRUE(budget->finished());
  EXPECT_EQ(budget->roundsUsed(), 2);
  EXPECT_EQ(source.calls(), 2); // the third reply was never asked for
  EXPECT_TRUE(budget->bestMoves().empty());
}

TEST(ConductorSession, GarbageAndFencedReplies) {
  Gemm g;
  auto session = makeSession(*g.module);
  ASSERT_TRUE(session);
  std::vector<unsigned> before = session->currentOrder();
  RoundReport garbage =
      session->applyReply("I would interleave the LDS reads with the MFMAs.");
  EXPECT_TRUE(garbage.applied.empty());
  EXPECT_FALSE(garbage.improved);
  EXPECT_EQ(garbage.text(),
            "No move commands found.\nIgnored lines (not a command):\n"
            "  I would interleave the LDS reads with the MFMAs.");
  EXPECT_EQ(session->currentOrder(), before);
  EXPECT_NE(session->prompt().find("--- Error from previous round ---\n"
                                   "No move commands found."),
            std::string::npos);
  RoundReport fenced = session->applyReply("Here is the schedule:\n```\n" +
                                           std::string(kInterleave) + "```\n");
  EXPECT_TRUE(fenced.improved);
  EXPECT_EQ(fenced.ignoredLines,
            std::vector<std::string>{"Here is the schedule:"});
}

TEST(ConductorSession, WarningsReachTheNextPrompt) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      t.parseModule(program(waveasm::test::kConductorLoop));
  ASSERT_TRUE(module) << t.diagnostics;
  SessionOptions options;
  options.metricKeyOrder = {"est_cycles"};
  auto session = makeSession(*module, options);
  ASSERT_TRUE(session);
  RoundReport report = session->applyReply("move I2 after I4");
  ASSERT_EQ(report.warnings.size(), 2u);
  EXPECT_EQ(report.warnings[1], "warn: move I2 after I4 \u2014 moved LDS "
                                "write (I2) after LDS read (I4), same address");
  EXPECT_NE(session->prompt().find("--- Warnings from previous round ---\n" +
                                   report.warnings[0] + "\n" +
                                   report.warnings[1] + "\n"),
            std::string::npos);
}

TEST(ConductorSession, ReplayAndFork) {
  Gemm g;
  auto session = makeSession(*g.module);
  ASSERT_TRUE(session);
  ASSERT_TRUE(session->applyReply(kInterleave).improved);
  std::unique_ptr<Session> fork = session->fork();
  EXPECT_EQ(fork->currentOrder(), session->currentOrder());
  EXPECT_EQ(fork->bestMetrics(), session->bestMetrics());
  // The fork moves on its own.
  fork->applyReply("move I2 after I21");
  EXPECT_NE(fork->currentOrder(), session->currentOrder());
  EXPECT_EQ(fork->inputOp(3), session->inputOp(3));

  // The accepted moves replay to the same order and metrics.
  auto replay = makeSession(*g.module);
  std::vector<MoveCommand> commands;
  for (const std::string &move : session->bestMoves())
    commands.push_back(*parseCommand(move));
  RoundReport report = replay->applyCommands(commands);
  EXPECT_TRUE(report.improved);
  EXPECT_EQ(replay->currentOrder(), session->currentOrder());
  EXPECT_EQ(replay->bestMetrics(), session->bestMetrics());
}

TEST(ConductorSession, OptionsAndRegions) {
  Gemm g;
  std::string error;
  SessionOptions bad;
  bad.metricKeyOrder = {"speed"};
  EXPECT_TRUE(failed(Session::create(*g.module, nullptr, bad, &error)));
  EXPECT_EQ(error, "unknown metric key 'speed'");
  SessionOptions target;
  target.targetOverride = "gfx999";
  EXPECT_TRUE(failed(Session::create(*g.module, nullptr, target, &error)));
  EXPECT_NE(error.find("unknown target 'gfx999'"), std::string::npos);
  target.targetOverride = "gfx950";
  auto retargeted = makeSession(*g.module, target);
  ASSERT_TRUE(retargeted);
  EXPECT_NE(retargeted->prompt().find("TARGET: gfx950"), std::string::npos);

  // The program body as the region: the loop is one tagged op.
  ProgramOp p = *g.module->getOps<ProgramOp>().begin();
  auto whole = makeSession(*g.module, {}, p);
  ASSERT_TRUE(whole);
  EXPECT_NE(whole->prompt().find("--- IR (program body) ---"),
            std::string::npos);
  EXPECT_EQ(whole->region().ops.size(),
            p.getBody().front().getOperations().size());
  Operation *notARegion = &p.getBody().front().front();
  EXPECT_TRUE(failed(Session::create(*g.module, notARegion, {}, &error)));
  EXPECT_NE(error.find("choose a waveasm.loop or a waveasm.program"),
            std::string::npos);
}

TEST(ConductorSession, EveryExampleHasABaselineAndAPrompt) {
  std::vector<std::string> paths;
  std::error_code ec;
  for (const char *dir :
       {waveasm::test::examplesDir(), waveasm::test::sharedExamplesDir()})
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::StringRef(it->path()).ends_with(".mlir") &&
          !llvm::StringRef(it->path()).contains("invalid"))
        paths.push_back(it->path());
  ASSERT_GE(paths.size(), 6u);
  for (const std::string &path : paths) {
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule(waveasm::test::readFile(path));
    ASSERT_TRUE(module) << path << t.diagnostics;
    auto session = makeSession(*module);
    ASSERT_TRUE(session) << path;
    EXPECT_TRUE(session->baselineError().empty()) << path;
    std::string prompt = session->prompt();
    std::string lastTag = formatTag(session->region().ops.size() - 1);
    EXPECT_NE(prompt.find("loc(\"" + lastTag + "\")"), std::string::npos)
        << path;
    // A swap of the first two ops is either applied or refused with a
    // reason; the IR stays valid either way.
    RoundReport report = session->applyReply("swap I0 I1");
    EXPECT_TRUE(report.failed || !report.applied.empty()) << path;
    EXPECT_TRUE(succeeded(verify(session->bestModule()))) << path;
  }
}

TEST(ConductorSession, RandomMovesNeverBreakTheIR) {
  // Deterministic pseudo-random commands on every example: each round either
  // applies valid moves (the IR verifies, the order is a permutation of the
  // same ops) or is refused and leaves the order exactly as it was.
  std::vector<std::string> paths;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(waveasm::test::examplesDir(), ec),
       end;
       it != end && !ec; it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".mlir"))
      paths.push_back(it->path());
  ASSERT_FALSE(paths.empty());
  uint64_t state = 12345;
  auto next = [&](uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % bound;
  };
  for (const std::string &path : paths) {
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule(waveasm::test::readFile(path));
    ASSERT_TRUE(module) << path;
    SessionOptions options;
    options.maxRounds = 40;
    auto session = makeSession(*module, options);
    ASSERT_TRUE(session);
    size_t n = session->region().ops.size();
    int refused = 0;
    while (!session->finished()) {
      std::vector<unsigned> before = session->currentOrder();
      std::string reply;
      for (int i = 0; i < 3; ++i) {
        std::string a = formatTag(next(n)), b = formatTag(next(n));
        switch (next(3)) {
        case 0:
          reply += "move " + a + " after " + b + "\n";
          break;
        case 1:
          reply += "move " + a + " before " + b + "\n";
          break;
        default:
          reply += "swap " + a + " " + b + "\n";
        }
      }
      RoundReport report = session->applyReply(reply);
      ASSERT_TRUE(succeeded(verify(session->bestModule()))) << path << reply;
      std::vector<unsigned> after = session->currentOrder();
      std::vector<unsigned> sorted = after;
      std::sort(sorted.begin(), sorted.end());
      for (unsigned i = 0; i < sorted.size(); ++i)
        ASSERT_EQ(sorted[i], i) << path;
      if (report.failed || report.reverted) {
        EXPECT_EQ(after, before) << path << reply;
        ++refused;
      }
    }
    EXPECT_GT(refused, 0) << path;
    // The best schedule still compiles.
    EXPECT_TRUE(session->bestCompiles()) << path;
  }
}
