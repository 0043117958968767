//===- ConductorPaddingTest.cpp - `pad lds S P` in the Conductor ----------===//
//
// Issue 12 item 4 in the Conductor: the `pad lds S P` command (parsed with
// diagnostics, validated by the rewrite's plan, recorded on the program,
// reverted with the round, applied to the compiled clone, checked by
// execution) and the pipeline strategy's padded candidates, on
// examples/gemm_f16_32x32x8_global.mlir (six ds_read_b128 fragment rows
// 256 B apart: padding alone takes the loop from 141 to 131 issue slots
// per iteration).
//
//===----------------------------------------------------------------------===//

#include "ConductorTestUtils.h"
#include "TestPaths.h"
#include "TripCountText.h"

#include "conductor/Padding.h"
#include "conductor/Stages.h"
#include "conductor/strategies/PipelineStrategy.h"
#include "sim/Compare.h"
#include "sim/CompareBuffers.h"

#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using waveasm::test::makeSession;
using waveasm::test::TestContext;

namespace {

OwningOpRef<ModuleOp> parseFile(TestContext &t, const std::string &path) {
  return t.parseModule(waveasm::test::readFile(path));
}

std::string example(llvm::StringRef name) {
  return (llvm::Twine(waveasm::test::examplesDir()) + "/" + name).str();
}

const std::string kGemm = example("gemm_f16_32x32x8_global.mlir");

SessionOptions cyclesFirst() {
  SessionOptions options;
  options.metricKeyOrder = {"est_cycles", "peak_vgpr"};
  options.checkByExecution = true;
  return options;
}

/// A file's module and a Session (cycles first, checked by execution) on
/// its default region; `session` null when either failed.
struct FileSession {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<Session> session;
  explicit FileSession(const std::string &path) {
    module = parseFile(t, path);
    if (module)
      session = makeSession(*module, cyclesFirst());
  }
};

ProgramOp firstProgram(ModuleOp module) {
  return *module.getOps<ProgramOp>().begin();
}

/// `result` writes the buffers `input` writes (4 seeds, the simulator). A
/// padded layout leaves its LDS bytes elsewhere, so the LDS is not
/// compared (the LDS does not outlive the workgroup).
void expectSameBuffers(ModuleOp input, ModuleOp result) {
  sim::Comparison c = sim::compareBuffersWithRuns(
      sim::runOnSeeds(firstProgram(input), 4), firstProgram(result));
  EXPECT_EQ(c.verdict, sim::Comparison::Verdict::Equal) << c.message;
}

int64_t loopCycles(const ProgramMetrics &metrics) {
  return metrics.loops.empty() ? -1 : metrics.loops[0].est_cycles_per_iter;
}

} // namespace

TEST(ConductorPadLds, ParsesPrintsAndDiagnoses) {
  std::optional<MoveCommand> pad = parseCommand("- `Pad LDS 256 16`");
  ASSERT_TRUE(pad);
  EXPECT_EQ(pad->kind, MoveCommand::PadLds);
  EXPECT_EQ(pad->stride, 256);
  EXPECT_EQ(pad->pad, 16);
  EXPECT_EQ(pad->text(), "pad lds 256 16");
  EXPECT_EQ(*pad, MoveCommand::padLds(256, 16));
  EXPECT_FALSE(*pad == MoveCommand::padLds(256, 8));
  // Its text parses back to itself (the cache replays texts).
  EXPECT_EQ(parseCommand(pad->text()), pad);
  EXPECT_EQ(parseCommand("**pad lds 256 16**"), pad);
  EXPECT_EQ(parseCommand("pad lds 256 16."), pad);
  EXPECT_TRUE(parseCommand("pad lds 65536 4"));

  // Untrusted text: only the grammar is taken; everything else is an
  // ignored line with a line:column diagnostic.
  ParsedReply reply = parseReply("pad lds 64\n"
                                 "pad lds 0 16\n"
                                 "  pad lds 64 x\n"
                                 "pad lds 64 16 now\n"
                                 "pad 64 16\n"
                                 "pad lds 65537 4\n"
                                 "pad lds -64 16\n"
                                 "pad lds 64 16; rm -rf /\n"
                                 "pad lds 64 +16\n"
                                 "Padding might help here.\n"
                                 "swap I1\n");
  EXPECT_TRUE(reply.commands.empty());
  EXPECT_EQ(reply.ignoredLines.size(), 11u);
  std::vector<std::string> got;
  for (const CommandDiagnostic &d : reply.diagnostics)
    got.push_back(d.str());
  const std::string grammar =
      "; expected 'pad lds S P' (S the row stride, P the pad, in bytes)";
  std::vector<std::string> want = {
      "reply:1:11: P must be a decimal byte count from 1 to 65536" + grammar,
      "reply:2:9: S must be a decimal byte count from 1 to 65536" + grammar,
      "reply:3:14: P must be a decimal byte count from 1 to 65536" + grammar,
      "reply:4:15: unexpected words after 'pad lds S P'",
      "reply:5:5: expected 'pad lds S P' (S the row stride, P the pad, in "
      "bytes)",
      "reply:6:9: S must be a decimal byte count from 1 to 65536" + grammar,
      "reply:7:9: S must be a decimal byte count from 1 to 65536" + grammar,
      "reply:8:12: P must be a decimal byte count from 1 to 65536" + grammar,
      "reply:9:12: P must be a decimal byte count from 1 to 65536" + grammar,
      // Prose is no diagnostic; a broken command of another kind is.
      "reply:11:1: expected 'swap Ix Iy'",
  };
  EXPECT_EQ(got, want);
}

TEST(ConductorPadLds, RefusedPaddingsSayWhyAndRevert) {
  FileSession f(kGemm);
  ASSERT_TRUE(f.session) << f.t.diagnostics;
  std::unique_ptr<Session> &session = f.session;
  std::vector<unsigned> order = session->currentOrder();
  struct Case {
    const char *reply, *failed, *reason;
  } cases[] = {
      // A ds_read_b128's 16 bytes cross rows of 8.
      {"pad lds 8 16", "pad lds 8 16", "cross a row of 8 bytes"},
      {"pad lds 96 16", "pad lds 96 16", "the row stride 96 is not a power"},
      {"pad lds 256 6", "pad lds 256 6",
       "the pad 6 is not a positive multiple"},
      {"pad lds 256 8", "pad lds 256 8",
       "the pad 8 breaks the alignment of a 16-byte access"},
      {"pad lds 1024 65536", "pad lds 1024 65536",
       "the offset 4096 would leave the 16-bit field"},
      // The whole round goes: the move before it too.
      {"swap I40 I41\npad lds 8 16", "pad lds 8 16", "cross a row"},
  };
  for (const Case &c : cases) {
    RoundReport report = session->applyReply(c.reply);
    ASSERT_TRUE(report.failed) << c.reply;
    EXPECT_EQ(*report.failed, c.failed);
    EXPECT_NE(report.failureReason.find(c.reason), std::string::npos)
        << c.reply << ": " << report.failureReason;
    EXPECT_TRUE(llvm::StringRef(report.failureReason)
                    .starts_with("the LDS cannot be padded so: "))
        << report.failureReason;
    EXPECT_TRUE(report.reverted);
    EXPECT_FALSE(isPadded(session->region())) << c.reply;
    EXPECT_EQ(session->currentOrder(), order) << c.reply;
    EXPECT_FALSE(session->bestIsPipelined());
    // The next prompt carries the reason, as for an invalid move.
    EXPECT_NE(session->prompt().find(std::string("Failed: ") + c.failed +
                                     " \u2014 " + report.failureReason),
              std::string::npos);
  }
  // The prompt lists the command (the program has LDS).
  EXPECT_NE(session->prompt().find("'pad lds S P' lays the program's LDS out"),
            std::string::npos);
}

TEST(ConductorPadLds, RefusalNamesTheTaggedAccess) {
  // A program body whose second ds_read reads at the first one's data:
  // no layout can be proven, and the refusal names the op by its tag.
  FileSession f(std::string(waveasm::test::examplesDir()) +
                "/../tests/lit/pipeline/Inputs/pad-lds/"
                "data-address.mlir");
  ASSERT_TRUE(f.session) << f.t.diagnostics;
  std::unique_ptr<Session> &session = f.session;
  RoundReport report = session->applyReply("pad lds 256 16");
  ASSERT_TRUE(report.failed);
  Operation *second = nullptr;
  for (Operation *op : session->region().ops)
    if (op->getName().getStringRef() == "waveasm.ds_read_b32")
      second = op;
  ASSERT_TRUE(second);
  std::string tag = getTag(second)->str();
  // Then, where the input has them, its file:line:col (the lit test).
  llvm::StringRef reason(report.failureReason);
  EXPECT_TRUE(reason.starts_with(tag)) << reason.str();
  EXPECT_TRUE(reason.ends_with(": the LDS cannot be padded so: the LDS "
                               "address of 'waveasm.ds_read_b32' is not a "
                               "known function of the thread id (the "
                               "address comes from ds_read_b32)"))
      << reason.str();
  EXPECT_FALSE(isPadded(session->region()));
}

TEST(ConductorPadLds, SessionPadsMeasuresChecksAndReplays) {
  FileSession f(kGemm);
  ASSERT_TRUE(f.session) << f.t.diagnostics;
  OwningOpRef<ModuleOp> &module = f.module;
  std::unique_ptr<Session> &session = f.session;
  EXPECT_EQ(loopCycles(session->baselineMetrics()), 141);
  RoundReport report = session->applyReply("pad lds 256 16");
  EXPECT_FALSE(report.failed) << report.text();
  ASSERT_TRUE(report.metrics);
  EXPECT_TRUE(report.improved) << report.text();
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_EQ(loopCycles(*report.metrics), 131);
  EXPECT_TRUE(isPadded(session->region()));
  // The working module keeps its ops; the result is padded: rows of 256 B
  // + 16 (12288 -> 13040 bytes), no trace of the command, and it writes
  // what the input writes.
  ProgramOp padded = firstProgram(session->resultModule());
  EXPECT_TRUE(session->bestIsPipelined());
  EXPECT_EQ(padded.getLdsSize().value_or(0), 13040u);
  EXPECT_FALSE(padded->hasAttr(kLdsPaddingAttrName));
  EXPECT_TRUE(succeeded(verify(session->resultModule())));
  EXPECT_EQ(firstProgram(session->bestModule()).getLdsSize().value_or(0),
            12288u);
  expectSameBuffers(*module, session->resultModule());

  // A later round that regresses is reverted to this padding, not to none.
  auto fork = session->fork();
  RoundReport worse = session->applyReply("pad lds 4096 16");
  EXPECT_FALSE(worse.failed) << worse.text();
  EXPECT_TRUE(worse.reverted) << worse.text();
  EXPECT_EQ(readPadding(getRegionProgram(session->region()))->stride, 256);
  EXPECT_EQ(loopCycles(session->bestMetrics()), 131);
  // A fork carries the padding and measures alike.
  ASSERT_TRUE(fork);
  EXPECT_TRUE(isPadded(fork->region()));
  EXPECT_EQ(fork->bestMetrics(), session->bestMetrics());

  // Replaying the kept commands (the cache's path) gives the same result.
  auto replay = makeSession(*module, cyclesFirst());
  std::string moves;
  for (const std::string &move : session->bestMoves())
    moves += move + "\n";
  EXPECT_NE(moves.find("pad lds 256 16\n"), std::string::npos);
  EXPECT_TRUE(replay->applyReply(moves).improved);
  EXPECT_EQ(replay->bestMetrics(), session->bestMetrics());
}

TEST(ConductorPadLds, PipelineStrategyChoosesPadding) {
  // The loop declared to run once, so no stage count fits and the program's
  // est_cycles decide. (As written its trip count is a kernel argument:
  // compared per iteration, the pipelined loop without padding wins.)
  std::optional<std::string> text = waveasm::test::withTripCount(
      waveasm::test::readFile(kGemm), "waveasm.condition %more :", 1);
  ASSERT_TRUE(text);
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(*text);
  ASSERT_TRUE(module) << t.diagnostics;
  std::unique_ptr<Session> session = makeSession(*module, cyclesFirst());
  ASSERT_TRUE(session);
  PipelineStrategyResult result = schedulePipelined(
      session->bestModule(), session->region(), session->targetModel());
  ASSERT_TRUE(result.best && result.before) << result.refusal;
  // The padding alone and padded staged candidates were measured next to
  // the unpadded ones, and a padded one is the fastest of all.
  unsigned padded = 0;
  int64_t bestUnpadded = result.before->est_cycles;
  for (const PipelineCandidate &candidate : result.tried) {
    padded += candidate.padded;
    if (!candidate.padded)
      bestUnpadded = std::min(bestUnpadded, candidate.metrics.est_cycles);
  }
  EXPECT_GE(padded, 2u);
  EXPECT_TRUE(result.best->padded);
  EXPECT_LT(result.best->metrics.est_cycles, bestUnpadded);
  ASSERT_FALSE(result.commands.empty());
  EXPECT_EQ(result.commands.front(), MoveCommand::padLds(256, 16));
  // Through the Session: kept, checked by execution, the same figures.
  RoundReport report = session->applyCommands(result.commands);
  EXPECT_TRUE(report.improved) << report.text();
  EXPECT_EQ(session->bestMetrics().est_cycles, result.best->metrics.est_cycles);
  EXPECT_EQ(loopCycles(session->bestMetrics()), 131);
  expectSameBuffers(*module, session->resultModule());

  // Without padded candidates the strategy finds nothing better than the
  // input here.
  PipelineStrategyOptions unpadded;
  unpadded.tryLdsPadding = false;
  auto plain = makeSession(*module, cyclesFirst());
  PipelineStrategyResult without = schedulePipelined(
      plain->bestModule(), plain->region(), plain->targetModel(), unpadded);
  for (const PipelineCandidate &candidate : without.tried)
    EXPECT_FALSE(candidate.padded);
}

TEST(ConductorPadLds, NoConflictNoPaddedCandidate) {
  // The triple-buffered GEMM's accesses are conflict-free: nothing padded
  // is tried.
  FileSession f(example("gemm_f16_triple_buffer_ntiles.mlir"));
  ASSERT_TRUE(f.session) << f.t.diagnostics;
  std::unique_ptr<Session> &session = f.session;
  PipelineStrategyOptions options;
  options.stageCounts = {2};
  PipelineStrategyResult result =
      schedulePipelined(session->bestModule(), session->region(),
                        session->targetModel(), options);
  for (const PipelineCandidate &candidate : result.tried)
    EXPECT_FALSE(candidate.padded);
}
