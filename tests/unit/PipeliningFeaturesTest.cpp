//===- PipeliningFeaturesTest.cpp - pipelining and LDS in the editor ------===//
//
// server/features/Pipelining.cpp: "Pipeline this loop" (only on a loop's
// header line, only when est_cycles drops; the edit verifies and computes
// what the input computes), "Plan LDS" (the planner's move, checked), and
// the loop lens (stages, why a loop cannot be pipelined, LDS peak, bank
// conflicts).
//
//===----------------------------------------------------------------------===//

#include "ServerTestUtils.h"
#include "TestUtils.h"
#include "TripCountText.h"

#include "ir/Dialect.h"
#include "pipeline/Passes.h"
#include "server/features/Pipelining.h"
#include "sim/Compare.h"
#include "sim/CompareBuffers.h"
#include "sim/Directives.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::test;

namespace {

std::string readPath(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

std::string example(llvm::StringRef name) {
  return readPath(std::string(waveasm::test::examplesDir()) + "/" + name.str());
}

std::vector<lsp::TextEdit> editsOf(const lsp::WorkspaceEdit &edit) {
  std::vector<lsp::TextEdit> edits;
  for (const auto &[uri, list] : edit.changes)
    edits.insert(edits.end(), list.begin(), list.end());
  for (const lsp::TextDocumentEdit &doc : edit.documentChanges)
    edits.insert(edits.end(), doc.edits.begin(), doc.edits.end());
  return edits;
}

std::vector<std::string> lensTitles(const ServerDoc &d) {
  std::vector<std::string> titles;
  for (const lsp::CodeLens &lens :
       computeCodeLenses(*d.parsed, d.compiled.get()))
    titles.push_back(lens.command->title);
  return titles;
}

bool anyContains(const std::vector<std::string> &titles,
                 llvm::StringRef needle) {
  return llvm::any_of(titles, [&](const std::string &t) {
    return llvm::StringRef(t).contains(needle);
  });
}

} // namespace

TEST(PipeliningFeatures, PipelineThisLoopOnItsHeaderLine) {
  ServerDoc d(example("gemm_bf16_splitk_agpr.mlir"), false);
  ASSERT_TRUE(d.parsed->isVerified());
  // Inside the body: nothing (the action is about the whole loop).
  EXPECT_TRUE(computePipelineLoopActions(*d.parsed, d.pos("waveasm.v_mfma", 2),
                                         d.settings)
                  .empty());
  std::vector<lsp::CodeAction> actions = computePipelineLoopActions(
      *d.parsed, d.pos("waveasm.loop", 2), d.settings);
  ASSERT_FALSE(actions.empty());
  const lsp::CodeAction &two = actions.front();
  EXPECT_TRUE(
      llvm::StringRef(two.title).starts_with("Pipeline this loop (2 stages): "))
      << two.title;
  EXPECT_TRUE(llvm::StringRef(two.title).contains(" cycles/iter, "))
      << two.title;
  EXPECT_TRUE(llvm::StringRef(two.title).contains(" VGPR")) << two.title;
  EXPECT_FALSE(llvm::StringRef(two.title).contains("not checked")) << two.title;
  // The edit: a program that verifies, is no longer the input, and
  // computes what the input computes.
  ASSERT_TRUE(two.edit);
  std::string edited = applyEdits(d.text, editsOf(*two.edit));
  EXPECT_NE(edited, d.text);
  EXPECT_EQ(edited.find("waveasm.stage"), std::string::npos);
  ServerDoc after(edited, true);
  ASSERT_TRUE(after.parsed->isVerified());
  ASSERT_TRUE(after.compiled && after.compiled->succeeded());
  ProgramOp a = *d.parsed->getModule().getOps<ProgramOp>().begin();
  ProgramOp b = *after.parsed->getModule().getOps<ProgramOp>().begin();
  sim::Comparison c = sim::compareOnSeeds(a, b, 2);
  EXPECT_EQ(c.verdict, sim::Comparison::Verdict::Equal) << c.message;
  // The title's est_cycles are those the edited text compiles to.
  int64_t promised = 0, was = 0;
  llvm::StringRef title(two.title);
  size_t at = title.find("(est_cycles ");
  ASSERT_NE(at, llvm::StringRef::npos);
  llvm::StringRef figures = title.drop_front(at + 12);
  ASSERT_FALSE(figures.consumeInteger(10, was));
  ASSERT_TRUE(figures.consume_front(" -> "));
  ASSERT_FALSE(figures.consumeInteger(10, promised));
  EXPECT_LT(promised, was);
  ServerDoc before(d.text, true);
  EXPECT_EQ(before.compiled->getPrograms()[0].result.metrics.est_cycles, was);
  EXPECT_EQ(after.compiled->getPrograms()[0].result.metrics.est_cycles,
            promised);
  // The title's cycles/iter are per iteration as written: the kernel loop
  // runs `waveasm.pipeline_steps` of them per iteration (split-K: 3).
  int64_t perIter = 0;
  llvm::StringRef delta = title.drop_front(title.find("): ") + 3);
  delta.consume_front("+");
  bool negative = delta.consume_front("-");
  ASSERT_FALSE(delta.consumeInteger(10, perIter)) << two.title;
  ASSERT_TRUE(delta.starts_with(" cycles/iter")) << two.title;
  if (negative)
    perIter = -perIter;
  int64_t steps = 1;
  after.parsed->getModule().walk([&](LoopOp loop) {
    if (auto attr = loop->getAttrOfType<IntegerAttr>("waveasm.pipeline_steps"))
      steps = attr.getInt();
  });
  EXPECT_GT(steps, 1) << "split-K's steady state holds several iterations";
  int64_t kernel = after.compiled->getPrograms()[0]
                       .result.metrics.loops[0]
                       .est_cycles_per_iter;
  int64_t input = before.compiled->getPrograms()[0]
                      .result.metrics.loops[0]
                      .est_cycles_per_iter;
  EXPECT_EQ(perIter,
            static_cast<int64_t>(std::llround(double(kernel) / double(steps))) -
                input)
      << two.title;
  EXPECT_LT(perIter, -(input / 4)) << two.title;
  // The pipelined loop's lens reads its figure per iteration as written too.
  std::string perWritten =
      llvm::formatv(", {0} iterations as written per iteration: {1:f1} each",
                    steps, double(kernel) / double(steps));
  EXPECT_TRUE(anyContains(lensTitles(after), perWritten)) << perWritten;
  EXPECT_FALSE(anyContains(lensTitles(before), "as written per iteration"));
}

// The dequant loop runs a trip count computed from kernel arguments, which
// the estimate takes as 1: the program's est_cycles of a pipelined loop
// (its prologue, its epilogue, a kernel iteration running several as
// written) are higher than as written whatever the loop gains. The action
// compares the loop's cycles per iteration as written instead, as the
// pass does, and says so in its title.
TEST(PipeliningFeatures, WithoutATripCountTheActionComparesPerIteration) {
  ServerDoc d(example("dequant_i8_to_f16.mlir"), true);
  ASSERT_TRUE(d.parsed->isVerified());
  std::vector<lsp::CodeAction> actions = computePipelineLoopActions(
      *d.parsed, d.pos("= waveasm.loop", 2), d.settings);
  ASSERT_FALSE(actions.empty());
  const ProgramMetrics &before = d.compiled->getPrograms()[0].result.metrics;
  for (const lsp::CodeAction &action : actions) {
    llvm::StringRef title(action.title);
    EXPECT_TRUE(title.ends_with(" (per iteration: the trip count is not "
                                "known)"))
        << action.title;
    EXPECT_FALSE(title.contains("not checked")) << action.title;
    ASSERT_TRUE(action.edit);
    ServerDoc after(applyEdits(d.text, editsOf(*action.edit)), true);
    ASSERT_TRUE(after.parsed->isVerified());
    ASSERT_TRUE(after.compiled && after.compiled->succeeded());
    const ProgramMetrics &m = after.compiled->getPrograms()[0].result.metrics;
    // What the title does not show: the program's est_cycles went up.
    EXPECT_GT(m.est_cycles, before.est_cycles) << action.title;
    // What it shows: the kernel's cycles per iteration as written, lower.
    int64_t steps = 1;
    after.parsed->getModule().walk([&](LoopOp loop) {
      if (auto attr =
              loop->getAttrOfType<IntegerAttr>("waveasm.pipeline_steps"))
        steps = attr.getInt();
    });
    int64_t perIter =
        static_cast<int64_t>(std::llround(
            double(m.loops[0].est_cycles_per_iter) / double(steps))) -
        before.loops[0].est_cycles_per_iter;
    EXPECT_LT(perIter, 0) << action.title;
    std::string delta = llvm::formatv("): {0} cycles/iter, ", perIter).str();
    EXPECT_TRUE(title.contains(delta)) << action.title << " lacks " << delta;
    // The edit computes what the input computes (the file's waveasm-sim
    // line sets four iterations).
    sim::SimDirectives inputs = sim::readSimDirectives(d.text);
    ASSERT_TRUE(inputs.ok());
    sim::Comparison c = sim::compareBuffersOnSeeds(
        *d.parsed->getModule().getOps<ProgramOp>().begin(),
        *after.parsed->getModule().getOps<ProgramOp>().begin(), 2,
        inputs.options);
    EXPECT_TRUE(c.equal()) << c.message;
  }
}

// Split-K as written: 56 VGPRs + 8 AGPRs, 8 waves (the target's maximum).
// Pipelined in 2 stages it holds more registers in flight (80 + 8 in the
// unified file -> 5 waves on gfx942): the title must say what occupancy
// the faster iteration costs, with the waves the two texts compile to.
TEST(PipeliningFeatures, PipelineTitleStatesTheOccupancyItCosts) {
  ServerDoc d(example("gemm_bf16_splitk_agpr.mlir"), true);
  ASSERT_TRUE(d.parsed->isVerified());
  std::vector<lsp::CodeAction> actions = computePipelineLoopActions(
      *d.parsed, d.pos("waveasm.loop", 2), d.settings);
  ASSERT_FALSE(actions.empty());
  const ProgramMetrics &before = d.compiled->getPrograms()[0].result.metrics;
  for (const lsp::CodeAction &action : actions) {
    ASSERT_TRUE(action.edit);
    ServerDoc after(applyEdits(d.text, editsOf(*action.edit)), true);
    ASSERT_TRUE(after.compiled && after.compiled->succeeded());
    const ProgramMetrics &m = after.compiled->getPrograms()[0].result.metrics;
    EXPECT_LT(m.occupancy, before.occupancy) << action.title;
    std::string cost = llvm::formatv(", occupancy {0} -> {1} waves",
                                     before.occupancy, m.occupancy)
                           .str();
    EXPECT_TRUE(llvm::StringRef(action.title).contains(cost))
        << action.title << " lacks " << cost;
    std::string vgprs = (m.peak_vgpr > before.peak_vgpr ? "+" : "") +
                        std::to_string(m.peak_vgpr - before.peak_vgpr) +
                        " VGPR";
    EXPECT_TRUE(llvm::StringRef(action.title).contains(vgprs))
        << action.title << " lacks " << vgprs;
  }
}

// The cost text on its own: the occupancy only when it moves, the AGPRs
// only when they move.
TEST(PipeliningFeatures, RegisterCostText) {
  ProgramMetrics before, after;
  before.peak_vgpr = 100;
  before.occupancy = 4;
  after = before;
  after.peak_vgpr = 124;
  EXPECT_EQ(formatRegisterCost(before, after), "+24 VGPR");
  after.peak_vgpr = 132;
  after.occupancy = 3;
  EXPECT_EQ(formatRegisterCost(before, after),
            "+32 VGPR, occupancy 4 -> 3 waves");
  after.peak_agpr = 8;
  after.peak_vgpr = 96;
  EXPECT_EQ(formatRegisterCost(before, after),
            "-4 VGPR, +8 AGPR, occupancy 4 -> 3 waves");
}

TEST(PipeliningFeatures, NoActionWhenPipeliningDoesNotPay) {
  // The attention example's first loop declared to run twice
  // (`trip_count = 2`): pipelined, its steady state is faster, but its
  // prologue and epilogue cost more than two iterations gain (est_cycles
  // 532 as written, 642 and more pipelined), so nothing is offered.
  std::optional<std::string> text = withTripCount(
      example("attention_softmax_rows.mlir"), "waveasm.condition %more :", 2);
  ASSERT_TRUE(text);
  ServerDoc d(*text, false);
  ASSERT_TRUE(d.parsed->isVerified());
  EXPECT_TRUE(computePipelineLoopActions(*d.parsed, d.pos("= waveasm.loop", 2),
                                         d.settings)
                  .empty());
  // Without the declaration its trip count is not known: compared per
  // iteration, pipelining pays.
  ServerDoc unknown(example("attention_softmax_rows.mlir"), false);
  EXPECT_FALSE(computePipelineLoopActions(*unknown.parsed,
                                          unknown.pos("= waveasm.loop", 2),
                                          unknown.settings)
                   .empty());
}

TEST(PipeliningFeatures, PingPongLoopIsOfferedAndChecked) {
  // The shared gemm_loop pipelines in 3 stages with its LDS in ping/pong
  // copies: its last tile ends in the other copy, so the check by execution
  // compares the buffers, and the action is offered.
  std::string text = readPath(std::string(waveasm::test::sharedExamplesDir()) +
                              "/gemm_loop.mlir");
  if (text.empty())
    GTEST_SKIP() << "no ../shared/waveasm/examples";
  ServerDoc d(text, false);
  ASSERT_TRUE(d.parsed->isVerified());
  std::vector<lsp::CodeAction> actions = computePipelineLoopActions(
      *d.parsed, d.pos("waveasm.loop", 2), d.settings);
  auto three = llvm::find_if(actions, [](const lsp::CodeAction &a) {
    return llvm::StringRef(a.title).starts_with(
        "Pipeline this loop (3 stages): ");
  });
  ASSERT_NE(three, actions.end());
  EXPECT_TRUE(llvm::StringRef(three->title).contains("LDS x2")) << three->title;
  EXPECT_FALSE(llvm::StringRef(three->title).contains("not checked"))
      << three->title;
  ASSERT_TRUE(three->edit);
  ServerDoc after(applyEdits(d.text, editsOf(*three->edit)), false);
  ASSERT_TRUE(after.parsed->isVerified());
  sim::Comparison c = sim::compareBuffersOnSeeds(
      *d.parsed->getModule().getOps<ProgramOp>().begin(),
      *after.parsed->getModule().getOps<ProgramOp>().begin(), 2);
  EXPECT_TRUE(c.equal()) << c.message;
}

TEST(PipeliningFeatures, PlanLds) {
  // Two 4 KiB buffers whose lifetimes do not overlap: the plan puts the
  // second on the first's bytes.
  ServerDoc d(readPath(std::string(waveasm::test::examplesDir()) +
                       "/../tests/lit/pipeline/lds-plan-reuse.mlir"),
              false);
  ASSERT_TRUE(d.parsed->isVerified());
  std::optional<lsp::CodeAction> action =
      computePlanLdsAction(*d.parsed, d.pos("waveasm.s_barrier"));
  ASSERT_TRUE(action);
  EXPECT_EQ(action->title, "Plan LDS: LDS 8192 -> 4096 bytes (live peak 4096)");
  std::string edited = applyEdits(d.text, editsOf(*action->edit));
  ServerDoc after(edited, false);
  ASSERT_TRUE(after.parsed->isVerified());
  EXPECT_NE(edited.find("lds_size = 4096"), std::string::npos);
  sim::Comparison c = sim::compareBuffersOnSeeds(
      *d.parsed->getModule().getOps<ProgramOp>().begin(),
      *after.parsed->getModule().getOps<ProgramOp>().begin(), 2);
  EXPECT_EQ(c.verdict, sim::Comparison::Verdict::Equal) << c.message;
  // Planned already: nothing more to offer.
  EXPECT_FALSE(
      computePlanLdsAction(*after.parsed, after.pos("waveasm.s_barrier")));
  // A program without LDS: nothing.
  ServerDoc none(example("gemm_f16_32x32x8_global.mlir"), false);
  EXPECT_FALSE(computePlanLdsAction(*none.parsed, none.pos("waveasm.loop")));
}

TEST(PipeliningFeatures, LoopLensShowsLdsAndBankConflicts) {
  // The double-buffered GEMM's ds_read_b64 reads are 4-way conflicts.
  ServerDoc d(example("gemm_f16_double_buffer.mlir"));
  ASSERT_TRUE(d.compiled && d.compiled->succeeded());
  std::vector<std::string> titles = lensTitles(d);
  EXPECT_TRUE(anyContains(titles, "LDS peak ")) << llvm::join(titles, "\n");
  EXPECT_TRUE(anyContains(titles, "bank conflicts: "))
      << llvm::join(titles, "\n");
}

namespace {
/// `text` with its line holding `needle` removed.
std::string withoutLine(std::string text, llvm::StringRef needle) {
  size_t at = text.find(needle.str());
  if (at == std::string::npos)
    return text;
  size_t begin = text.rfind('\n', at);
  text.erase(begin, text.find('\n', at) - begin);
  return text;
}
} // namespace

TEST(PipeliningFeatures, LoopLensSaysWhyALoopCannotBePipelined) {
  // attention_softmax_rows's second loop stores to memory its loads may
  // read in another iteration, once the example's noalias_args is gone.
  std::string text = example("attention_softmax_rows.mlir");
  ASSERT_NE(text.find("noalias_args = "), std::string::npos);
  ServerDoc d(withoutLine(text, "noalias_args = "));
  ASSERT_TRUE(d.compiled && d.compiled->succeeded());
  std::vector<std::string> titles = lensTitles(d);
  EXPECT_TRUE(anyContains(titles, "cannot pipeline: no load can run ahead: "
                                  "memory dependence"))
      << llvm::join(titles, "\n");
}

TEST(PipeliningFeatures, LoopLensShowsAnnotatedStages) {
  // A loop as `waveasm-assign-loop-stages` writes it.
  std::string text = example("gemm_f16_32x32x8_global.mlir");
  ServerDoc plain(text);
  ASSERT_TRUE(plain.compiled && plain.compiled->succeeded());
  EXPECT_FALSE(anyContains(lensTitles(plain), "stages "));
  MLIRContext ctx;
  ctx.loadDialect<WaveASMDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  ASSERT_TRUE(module);
  PassManager pm(&ctx, ModuleOp::getOperationName());
  pm.addNestedPass<ProgramOp>(createWaveASMAssignLoopStages());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  std::string annotated;
  llvm::raw_string_ostream os(annotated);
  module->print(os);
  ServerDoc d(annotated);
  ASSERT_TRUE(d.compiled && d.compiled->succeeded());
  EXPECT_TRUE(anyContains(lensTitles(d), "stages 2"))
      << llvm::join(lensTitles(d), "\n");
}

TEST(PipeliningFeatures, DeclareNoAliasArgsLetsTheLoopPipeline) {
  // (The examples' header comments mention waveasm.loop: "= waveasm.loop"
  // is the op.) The dequant loop without its declaration: the action on the
  // loop's header adds noalias_args for x, y and the scales (0, 8, 16) to the
  // attribute dictionary, and the loop's stages can then be assigned.
  std::string plain =
      withoutLine(example("dequant_i8_to_f16.mlir"), "noalias_args = ");
  ServerDoc d(plain, false);
  ASSERT_TRUE(d.parsed->isVerified());
  std::optional<lsp::CodeAction> action =
      computeDeclareNoAliasAction(*d.parsed, d.pos("= waveasm.loop"));
  ASSERT_TRUE(action);
  EXPECT_EQ(action->title,
            "Declare the kernel arguments at kernarg offsets "
            "0, 8, 16 apart (noalias_args): the loop's loads can then "
            "run ahead");
  std::string edited = applyEdits(d.text, editsOf(*action->edit));
  EXPECT_NE(edited.find("attributes {noalias_args = [0, 8, 16], vgprs = 32"),
            std::string::npos);
  ServerDoc after(edited, false);
  ASSERT_TRUE(after.parsed->isVerified());
  // Declared: the loop pipelines and nothing more is offered.
  EXPECT_FALSE(
      computeDeclareNoAliasAction(*after.parsed, after.pos("= waveasm.loop")));
  // Off the loop's header line: nothing.
  EXPECT_FALSE(computeDeclareNoAliasAction(*d.parsed,
                                           d.pos("waveasm.global_load_dword")));

  // A declaration of another argument is extended in place.
  std::string other = example("dequant_i8_to_f16.mlir");
  other.replace(other.find("noalias_args = [0, 8, 16]"), 25,
                "noalias_args = [24]");
  ServerDoc o(other, false);
  std::optional<lsp::CodeAction> extend =
      computeDeclareNoAliasAction(*o.parsed, o.pos("= waveasm.loop"));
  ASSERT_TRUE(extend);
  std::string extended = applyEdits(o.text, editsOf(*extend->edit));
  EXPECT_NE(extended.find("noalias_args = [0, 8, 16, 24],"), std::string::npos);

  // A program without an attribute dictionary gets one before its body.
  std::string bare = plain;
  size_t dict = bare.find("  attributes {");
  bare.erase(dict, bare.find("} {", dict) + 2 - dict);
  ServerDoc b(bare, false);
  ASSERT_TRUE(b.parsed->isVerified()) << bare.substr(0, 1200);
  std::optional<lsp::CodeAction> add =
      computeDeclareNoAliasAction(*b.parsed, b.pos("= waveasm.loop"));
  ASSERT_TRUE(add);
  std::string added = applyEdits(b.text, editsOf(*add->edit));
  EXPECT_NE(added.find("attributes {noalias_args = [0, 8, 16]} {"),
            std::string::npos);
  EXPECT_TRUE(ServerDoc(added, false).parsed->isVerified());
}

TEST(PipeliningFeatures, DeclareNoAliasArgsEditsOnlyTheDictionary) {
  // Headers the declaration must not break: the keyword at the start of a
  // line, a nested dictionary before the list, a comment with braces, and
  // a program named @attributes. Each edit leaves a file that verifies and
  // declares the arguments.
  std::string plain =
      withoutLine(example("dequant_i8_to_f16.mlir"), "noalias_args = ");
  auto check = [&](std::string text,
                   std::initializer_list<llvm::StringRef> expected) {
    ServerDoc d(text, false);
    ASSERT_TRUE(d.parsed->isVerified()) << text.substr(0, 1600);
    std::optional<lsp::CodeAction> action =
        computeDeclareNoAliasAction(*d.parsed, d.pos("= waveasm.loop"));
    ASSERT_TRUE(action);
    std::string edited = applyEdits(d.text, editsOf(*action->edit));
    for (llvm::StringRef piece : expected)
      EXPECT_NE(edited.find(piece.str()), std::string::npos)
          << piece.str() << "\n"
          << edited.substr(0, 1600);
    ServerDoc after(edited, false);
    EXPECT_TRUE(after.parsed->isVerified()) << edited.substr(0, 1600);
    EXPECT_FALSE(computeDeclareNoAliasAction(*after.parsed,
                                             after.pos("= waveasm.loop")));
  };
  std::string column0 = plain;
  column0.replace(column0.find("  attributes {"), 14, "attributes {");
  check(column0, {"attributes {noalias_args = [0, 8, 16], vgprs = 32"});

  std::string nested = plain;
  nested.replace(
      nested.find("attributes {vgprs"), 17,
      "attributes {hint = {a = 1 : i64}, noalias_args = [24], vgprs");
  check(nested, {"hint = {a = 1 : i64}, noalias_args = [0, 8, 16, 24], vgprs"});

  std::string comment = plain;
  comment.replace(comment.find("waveasm.program @dequant_i8_to_f16"), 34,
                  "waveasm.program @dequant_i8_to_f16 // y = {x}");
  check(comment,
        {"// y = {x}\n", "attributes {noalias_args = [0, 8, 16], vgprs"});

  std::string named = plain;
  named.replace(named.find("@dequant_i8_to_f16\n"), 18, "@attributes");
  check(named, {"attributes {noalias_args = [0, 8, 16], vgprs = 32"});
}
