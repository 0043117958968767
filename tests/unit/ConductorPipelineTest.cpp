//===- ConductorPipelineTest.cpp - stages in the Conductor ----------------===//
//
// Issue 12 item 5: `stage Ix N` commands (validated, applied as attributes,
// measured pipelined, checked by execution) and the built-in `pipeline`
// strategy (keeps a whole-program gain, returns nothing on a loss or a loop
// that cannot be pipelined, deterministic, equal by execution).
//
//===----------------------------------------------------------------------===//

#include "ConductorTestUtils.h"
#include "TestPaths.h"
#include "TripCountText.h"

#include "analysis/LoopStages.h"
#include "conductor/MoveSource.h"
#include "conductor/Stages.h"
#include "conductor/strategies/PipelineStrategy.h"
#include "pipeline/PipelinedCycles.h"
#include "sim/Compare.h"
#include "sim/CompareBuffers.h"

#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using waveasm::test::makeSession;
using waveasm::test::program;
using waveasm::test::TestContext;

namespace {

// Loop body tags: I0 soff, I1 x = load, I2 y = x + x, I3 acc' = acc + y,
// I4 k', I5 more, I6 condition. Eight iterations; the sum is stored.
const char *kSum = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %out = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %soff:2 = waveasm.s_lshl_b32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.sreg, !waveasm.scc
    %x = waveasm.buffer_load_dword %srd, %tid, %soff#0 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %y = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %a = waveasm.v_add_u32 %acc, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %a) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#1, %out, %tid : !waveasm.vreg, !waveasm.psreg<12, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
)";

SessionOptions cyclesFirst() {
  SessionOptions options;
  options.metricKeyOrder = {"est_cycles", "peak_vgpr"};
  options.checkByExecution = true;
  return options;
}

unsigned countOps(ModuleOp module) {
  unsigned n = 0;
  module.walk([&](Operation *) { ++n; });
  return n;
}

unsigned countLoops(ModuleOp module) {
  unsigned n = 0;
  module.walk([&](LoopOp) { ++n; });
  return n;
}

/// `result` computes what `input` computes (4 seeds, the simulator): the
/// buffers, as the Session checks a pipelined or padded result (its LDS
/// copies or padded rows leave the last tile elsewhere; the LDS does not
/// outlive the workgroup).
void expectEqualByExecution(ModuleOp input, ModuleOp result) {
  ProgramOp a = *input.getOps<ProgramOp>().begin();
  ProgramOp b = *result.getOps<ProgramOp>().begin();
  sim::Comparison c = sim::compareBuffersWithRuns(sim::runOnSeeds(a, 4), b);
  EXPECT_EQ(c.verdict, sim::Comparison::Verdict::Equal) << c.message;
}

std::string sharedExample(llvm::StringRef name) {
  return (llvm::Twine(waveasm::test::sharedExamplesDir()) + "/" + name).str();
}

} // namespace

TEST(ConductorStages, InvalidStageCommandsAreReportedAndReverted) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kSum));
  ASSERT_TRUE(module) << t.diagnostics;
  auto session = makeSession(*module, cyclesFirst());
  ASSERT_TRUE(session);
  struct Case {
    const char *reply, *failed, *reason;
  } cases[] = {
      {"stage I9 1", "stage I9 1", "unknown tag I9 (this region has I0..I6)"},
      {"stage I6 1", "stage I6 1",
       "I6 is the loop's condition, which has no stage"},
      {"stage I2 4", "stage I2 4", "stage 4 is out of range (0..3)"},
      // The load after its own consumer: the SSA rule (checked once the
      // round's commands are all applied, by readLoopStages).
      {"stage I1 1", "stage I1 1", "I2: "},
  };
  for (const Case &c : cases) {
    RoundReport report = session->applyReply(c.reply);
    EXPECT_TRUE(report.reverted) << c.reply;
    ASSERT_TRUE(report.failed) << c.reply;
    EXPECT_EQ(*report.failed, c.failed);
    EXPECT_TRUE(llvm::StringRef(report.failureReason).starts_with(c.reason))
        << c.reply << ": " << report.failureReason;
    // The next prompt carries the report, as for an invalid move.
    EXPECT_NE(session->prompt().find(std::string("Failed: ") + c.failed +
                                     " \u2014 " + report.failureReason),
              std::string::npos)
        << c.reply;
    // Nothing stays: no stage attribute, not pipelined.
    EXPECT_FALSE(isStaged(session->region())) << c.reply;
    EXPECT_FALSE(session->bestIsPipelined());
  }
  // The prompt of a loop body says what the command is.
  EXPECT_NE(session->prompt().find("'stage Ix N' puts op Ix in stage N"),
            std::string::npos);
}

TEST(ConductorStages, StagesNeedALoopBody) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kSum));
  ASSERT_TRUE(module) << t.diagnostics;
  ProgramOp owner = *module->getOps<ProgramOp>().begin();
  auto session = makeSession(*module, cyclesFirst(), owner);
  ASSERT_TRUE(session);
  RoundReport report = session->applyReply("stage I1 1");
  ASSERT_TRUE(report.failed);
  EXPECT_EQ(report.failureReason,
            "stages are for loop bodies; I1 is in the program body");
  EXPECT_EQ(session->prompt().find("'stage Ix N'"), std::string::npos);
}

TEST(ConductorStages, StageCommandsDecideWhatIsPipelined) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kSum));
  ASSERT_TRUE(module) << t.diagnostics;
  // Only the accumulation in stage 1, or the add of the loaded value too:
  // two legal pipelines of different shapes (what crosses the stages).
  auto late = makeSession(*module, cyclesFirst());
  auto early = makeSession(*module, cyclesFirst());
  ASSERT_TRUE(late && early);
  RoundReport one = late->applyReply("stage I3 1");
  RoundReport two = early->applyReply("stage I2 1\nstage I3 1");
  for (const RoundReport *report : {&one, &two}) {
    EXPECT_FALSE(report->failed) << report->failureReason;
    ASSERT_TRUE(report->metrics);
  }
  // Loading a whole iteration ahead pays: that round is kept.
  EXPECT_TRUE(two.improved) << two.text();
  for (Session *s : {late.get(), early.get()}) {
    if (!s->bestIsPipelined())
      continue;
    EXPECT_TRUE(succeeded(verify(s->resultModule())));
    EXPECT_EQ(countLoops(s->resultModule()), 1u);
    expectEqualByExecution(*module, s->resultModule());
    // The working module keeps the annotated body (replayable commands).
    EXPECT_TRUE(isStaged(s->region()));
    EXPECT_EQ(s->region()
                  .block->getParentOp()
                  ->getAttrOfType<IntegerAttr>(kNumStagesAttrName)
                  .getInt(),
              2);
  }
  // Measured as pipelined: the two stage choices compile differently.
  EXPECT_NE(one.metrics->total_instructions, two.metrics->total_instructions);
  // Every op back in stage 0 is the loop as written: measured as the
  // baseline, so the round (slower than the kept pipeline) is reverted.
  {
    RoundReport back = early->applyReply("stage I2 0\nstage I3 0");
    EXPECT_FALSE(back.failed);
    ASSERT_TRUE(back.metrics);
    EXPECT_EQ(back.metrics->est_cycles, early->baselineMetrics().est_cycles);
    EXPECT_TRUE(back.reverted);
    EXPECT_TRUE(early->bestIsPipelined());
  }
}

TEST(ConductorPipelineStrategy, KeepsAWholeProgramGain) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kSum));
  ASSERT_TRUE(module) << t.diagnostics;
  auto session = makeSession(*module, cyclesFirst());
  ASSERT_TRUE(session);
  PipelineStrategyResult result = schedulePipelined(
      session->bestModule(), session->region(), session->targetModel());
  ASSERT_TRUE(result.before);
  ASSERT_TRUE(result.best) << result.refusal;
  EXPECT_LT(result.best->metrics.est_cycles, result.before->est_cycles);
  ASSERT_FALSE(result.commands.empty());
  EXPECT_EQ(result.commands.front().kind, MoveCommand::Stage);
  // Through the Session: one round, kept on est_cycles, checked by
  // execution, the result a pipelined program computing the same.
  RoundReport report =
      session->applyCommands(pipelineStrategy().propose(*session));
  EXPECT_TRUE(report.improved) << report.text();
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_TRUE(session->bestIsPipelined());
  EXPECT_EQ(session->bestMetrics().est_cycles, result.best->metrics.est_cycles);
  EXPECT_GT(countOps(session->resultModule()), countOps(*module));
  expectEqualByExecution(*module, session->resultModule());
  // Replaying the kept commands (the cache's path) gives the same result.
  auto replay = makeSession(*module, cyclesFirst());
  std::string moves;
  for (const std::string &move : session->bestMoves())
    moves += move + "\n";
  EXPECT_TRUE(replay->applyReply(moves).improved);
  EXPECT_EQ(replay->bestMetrics(), session->bestMetrics());
}

TEST(ConductorPipelineStrategy, Deterministic) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kSum));
  ASSERT_TRUE(module) << t.diagnostics;
  auto session = makeSession(*module, cyclesFirst());
  ASSERT_TRUE(session);
  std::vector<MoveCommand> first = pipelineStrategy().propose(*session);
  std::vector<MoveCommand> second = pipelineStrategy().propose(*session);
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(first, second);
}

TEST(ConductorPipelineStrategy, RejectsALoss) {
  // The attention example's first loop declared to run twice: pipelined,
  // its steady state is faster but the prologue and epilogue cost more
  // (whole program 532 -> 642 est_cycles and more with 3 stages): every
  // candidate is measured and none is returned.
  std::string text =
      waveasm::test::readFile(std::string(waveasm::test::examplesDir()) +
                              "/attention_softmax_rows.mlir");
  std::optional<std::string> twice =
      waveasm::test::withTripCount(text, "waveasm.condition %more :", 2);
  ASSERT_TRUE(twice);
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(*twice);
  ASSERT_TRUE(module) << t.diagnostics;
  auto session = makeSession(*module, cyclesFirst());
  ASSERT_TRUE(session);
  PipelineStrategyResult result = schedulePipelined(
      session->bestModule(), session->region(), session->targetModel());
  ASSERT_TRUE(result.before);
  EXPECT_FALSE(result.tried.empty()) << result.refusal;
  EXPECT_EQ(result.beforeComparedCycles, result.before->est_cycles);
  for (const PipelineCandidate &candidate : result.tried) {
    EXPECT_EQ(candidate.comparedCycles, candidate.metrics.est_cycles);
    EXPECT_GE(candidate.metrics.est_cycles, result.before->est_cycles)
        << candidate.numStages << " stages";
  }
  EXPECT_TRUE(result.commands.empty());
  EXPECT_TRUE(pipelineStrategy().propose(*session).empty());

  // As written its trip count comes from a kernel argument: est_cycles
  // count one iteration, so candidates are compared by the loop's cycles
  // per iteration as written (thousandths) first, and one pays.
  OwningOpRef<ModuleOp> unknown = t.parseModule(text);
  ASSERT_TRUE(unknown) << t.diagnostics;
  auto perIteration = makeSession(*unknown, cyclesFirst());
  ASSERT_TRUE(perIteration);
  PipelineStrategyResult kept =
      schedulePipelined(perIteration->bestModule(), perIteration->region(),
                        perIteration->targetModel());
  ASSERT_TRUE(kept.before && kept.best);
  EXPECT_EQ(kept.beforeComparedCycles,
            1000 * kept.before->loops[0].est_cycles_per_iter *
                    kComparedCyclesScale +
                kept.before->est_cycles);
  EXPECT_LT(kept.best->comparedCycles, kept.beforeComparedCycles);
  EXPECT_GT(kept.best->metrics.est_cycles, kept.before->est_cycles);
  RoundReport report = perIteration->applyCommands(kept.commands);
  EXPECT_TRUE(report.improved) << report.text();
  EXPECT_TRUE(perIteration->bestIsPipelined());
  std::optional<double> cycles = perIteration->bestCyclesPerInputIteration();
  ASSERT_TRUE(cycles);
  EXPECT_NEAR(*cycles * 1000.0,
              double(kept.best->comparedCycles / kComparedCyclesScale), 1.0);
  EXPECT_NE(
      report.metricsChange.find("the loop's cycles per iteration as written "),
      std::string::npos)
      << report.metricsChange;
}

TEST(ConductorPipelineStrategy, PipelinesTheHandRotatedDoubleBuffer) {
  // The double-buffered GEMM rotates its LDS buffers through iter_args by
  // hand; the pass copies the rotated values explicitly (RotatedIterArgs),
  // and the strategy's stages get those copies a legal stage: a gain, and
  // the same results.
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(
      waveasm::test::readFile(std::string(waveasm::test::examplesDir()) +
                              "/gemm_f16_double_buffer.mlir"));
  ASSERT_TRUE(module) << t.diagnostics;
  auto session = makeSession(*module, cyclesFirst());
  ASSERT_TRUE(session);
  PipelineStrategyResult result = schedulePipelined(
      session->bestModule(), session->region(), session->targetModel());
  ASSERT_FALSE(result.commands.empty()) << result.refusal;
  ASSERT_TRUE(result.best && result.before);
  EXPECT_LT(result.best->metrics.est_cycles, result.before->est_cycles);
  RoundReport report = session->applyCommands(result.commands);
  EXPECT_TRUE(report.improved) << report.text();
  expectEqualByExecution(*module, session->resultModule());
}

TEST(ConductorPipelineStrategy, SaysWhyALoopCannotBePipelined) {
  // The dequant loop without the example's noalias_args stores to memory
  // its loads may read in another iteration: nothing is proposed, and why.
  TestContext t;
  std::string text = waveasm::test::readFile(
      std::string(waveasm::test::examplesDir()) + "/dequant_i8_to_f16.mlir");
  size_t line = text.find("noalias_args = ");
  ASSERT_NE(line, std::string::npos);
  text.erase(text.rfind('\n', line),
             text.find('\n', line) - text.rfind('\n', line));
  OwningOpRef<ModuleOp> module = t.parseModule(text);
  ASSERT_TRUE(module) << t.diagnostics;
  auto session = makeSession(*module, cyclesFirst());
  ASSERT_TRUE(session);
  PipelineStrategyResult result = schedulePipelined(
      session->bestModule(), session->region(), session->targetModel());
  EXPECT_TRUE(result.commands.empty());
  EXPECT_TRUE(result.tried.empty());
  EXPECT_NE(result.refusal.find("memory dependence"), std::string::npos)
      << result.refusal;
}
