//===- CodeActionsTest.cpp - Conductor code actions as edits --------------===//
//
// The pure half of the server's scheduling features
// (server/features/CodeActions.cpp): which block and op a position means,
// reorder edits that keep the text, measured single-move actions, the
// built-in schedule of a loop and the metric diff.
//
//===----------------------------------------------------------------------===//

#include "ServerTestUtils.h"
#include "TestUtils.h"

#include "conductor/Session.h"
#include "ir/Dialect.h"
#include "sim/Compare.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::test;

namespace {

std::string readExample(llvm::StringRef name) {
  auto buffer = llvm::MemoryBuffer::getFile(
      std::string(waveasm::test::examplesDir()) + "/" + name.str());
  if (!buffer)
    return "";
  return (*buffer)->getBuffer().str();
}

/// The lines of `text` between `from` and `to` (exclusive), sorted: the
/// multiset of a block's lines, blind to their order.
std::vector<std::string> sortedLines(llvm::StringRef text, llvm::StringRef from,
                                     llvm::StringRef to) {
  size_t begin = text.find(from), end = text.find(to, begin);
  std::vector<std::string> lines;
  llvm::SmallVector<llvm::StringRef> parts;
  text.slice(begin, end).split(parts, '\n');
  for (llvm::StringRef line : parts)
    lines.push_back(line.str());
  llvm::sort(lines);
  return lines;
}

std::vector<lsp::TextEdit> editsOf(const lsp::WorkspaceEdit &edit) {
  std::vector<lsp::TextEdit> edits;
  for (const auto &[uri, list] : edit.changes)
    edits.insert(edits.end(), list.begin(), list.end());
  for (const lsp::TextDocumentEdit &doc : edit.documentChanges)
    edits.insert(edits.end(), doc.edits.begin(), doc.edits.end());
  return edits;
}

const char *kLoopBodyStart = "// (1) prefetch";
const char *kLoopBodyEnd = "    waveasm.condition";

} // namespace

TEST(CodeActions, FindScheduleTarget) {
  ServerDoc d(readExample("gemm_f16_double_buffer.mlir"), false);
  ASSERT_TRUE(d.parsed->isVerified());
  // An MFMA in the loop: the loop body, the MFMA itself.
  std::optional<ScheduleTarget> mfma =
      findScheduleTarget(*d.parsed, d.pos("%n00 = waveasm", 2));
  ASSERT_TRUE(mfma);
  EXPECT_TRUE(mlir::isa<LoopOp>(mfma->owner));
  ASSERT_TRUE(mfma->op);
  EXPECT_EQ(mfma->op->getName().getStringRef(),
            "waveasm.v_mfma_f32_16x16x16_f16");
  EXPECT_EQ(mfma->loopIndex, 0u);
  // Its type line (a continuation) is the same op.
  std::optional<ScheduleTarget> typeLine =
      findScheduleTarget(*d.parsed, {d.line("%n00 = waveasm") + 1, 10});
  ASSERT_TRUE(typeLine);
  EXPECT_EQ(typeLine->op, mfma->op);
  // The loop's header: the loop itself, no op.
  std::optional<ScheduleTarget> header =
      findScheduleTarget(*d.parsed, d.pos("waveasm.loop ("));
  ASSERT_TRUE(header);
  EXPECT_EQ(header->owner, mfma->owner);
  EXPECT_EQ(header->op, nullptr);
  // The prologue: the program body.
  std::optional<ScheduleTarget> prologue =
      findScheduleTarget(*d.parsed, d.pos("// Prologue"));
  std::optional<ScheduleTarget> first =
      findScheduleTarget(*d.parsed, {d.line("// Prologue") + 1, 4});
  ASSERT_TRUE(first);
  EXPECT_TRUE(mlir::isa<ProgramOp>(first->owner));
  EXPECT_FALSE(first->loopIndex);
  // Before the program: nothing.
  EXPECT_FALSE(findScheduleTarget(*d.parsed, {0, 0}));
  (void)prologue;
}

TEST(CodeActions, ReorderEditKeepsCommentsAndLines) {
  std::string text = program(R"(  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // first
  %a = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg  // trailing b
  waveasm.s_endpgm)");
  ServerDoc d(text, false);
  ASSERT_TRUE(d.parsed->isVerified());
  mlir::Block &block =
      *d.parsed->getOps()[d.parsed->getPrograms()[0]].op->getRegion(0).begin();
  // Unchanged order: an empty edit.
  std::optional<lsp::TextEdit> none =
      computeReorderEdit(*d.parsed, block, {0, 1, 2, 3});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->newText.empty());
  EXPECT_EQ(none->range.start, none->range.end);
  // Swap %a and %b: the comment between them stays in its slot, the
  // trailing comment moves with %b.
  std::optional<lsp::TextEdit> swap =
      computeReorderEdit(*d.parsed, block, {0, 2, 1, 3});
  ASSERT_TRUE(swap);
  std::string edited = applyEdits(text, {*swap});
  EXPECT_NE(edited.find("  // first\n  %b = waveasm.s_mov_b32 %c0 : "
                        "!waveasm.imm<0> -> !waveasm.sreg  // trailing b\n"
                        "  %a = waveasm.s_mov_b32"),
            std::string::npos)
      << edited;
  // Not a permutation: refused with a reason.
  std::string error;
  EXPECT_FALSE(computeReorderEdit(*d.parsed, block, {0, 0, 1, 3}, &error));
  EXPECT_FALSE(error.empty());
}

TEST(CodeActions, WorkspaceEditVersionedOrNot) {
  ServerDoc d(program("  waveasm.s_endpgm"), false);
  lsp::TextEdit edit{{{1, 0}, {1, 0}}, "x"};
  lsp::WorkspaceEdit plain = makeWorkspaceEdit(*d.parsed, {edit}, false);
  EXPECT_EQ(plain.changes.size(), 1u);
  EXPECT_TRUE(plain.documentChanges.empty());
  lsp::WorkspaceEdit versioned = makeWorkspaceEdit(*d.parsed, {edit}, true);
  EXPECT_TRUE(versioned.changes.empty());
  ASSERT_EQ(versioned.documentChanges.size(), 1u);
  EXPECT_EQ(versioned.documentChanges[0].version, d.parsed->getVersion());
  EXPECT_EQ(versioned.documentChanges[0].uri, d.parsed->getURI());
}

TEST(CodeActions, SingleMovesOnTheGemmLoop) {
  std::string text = readExample("gemm_f16_double_buffer.mlir");
  ServerDoc d(text, false);
  ASSERT_TRUE(d.parsed->isVerified());
  llvm::Regex title("^Move I[0-9]+ (before|after) I[0-9]+: [+-]?[0-9]+ issue "
                    "slots, VGPR [+-][0-9]+$");
  CodeActionOptions options;
  options.versionedEdits = true;
  unsigned withMoves = 0;
  // Every op line of the loop body; the moves measured must be legal and
  // keep the block's lines.
  int first = d.line(kLoopBodyStart), last = d.line(kLoopBodyEnd);
  std::vector<std::string> lines =
      sortedLines(text, kLoopBodyStart, kLoopBodyEnd);
  for (int line = first; line < last; ++line) {
    llvm::StringRef lineText = d.parsed->getLines().getLine(line);
    if (!lineText.ltrim().starts_with("%") &&
        !lineText.ltrim().starts_with("waveasm."))
      continue;
    std::vector<lsp::CodeAction> actions =
        computeSingleMoveActions(*d.parsed, {line, 6}, d.settings, options);
    EXPECT_LE(actions.size(), options.maxMoves);
    if (actions.empty())
      continue;
    ++withMoves;
    for (const lsp::CodeAction &action : actions) {
      EXPECT_TRUE(title.match(action.title)) << action.title;
      EXPECT_EQ(action.kind, "refactor.rewrite");
      ASSERT_TRUE(action.edit);
      std::vector<lsp::TextEdit> edits = editsOf(*action.edit);
      ASSERT_EQ(edits.size(), 1u);
      std::string moved = applyEdits(text, edits);
      EXPECT_NE(moved, text);
      // Same lines in the loop body, another order; the rest unchanged.
      EXPECT_EQ(sortedLines(moved, kLoopBodyStart, kLoopBodyEnd), lines);
      EXPECT_EQ(moved.substr(0, moved.find(kLoopBodyStart)),
                text.substr(0, text.find(kLoopBodyStart)));
      // It parses and verifies (dominance holds).
      ServerDoc reparsed(moved, false);
      EXPECT_TRUE(reparsed.parsed->isVerified()) << action.title;
    }
  }
  EXPECT_GT(withMoves, 0u);
}

TEST(CodeActions, ScheduleActionsCarryTheCommand) {
  ServerDoc d(readExample("gemm_f16_double_buffer.mlir"), false);
  lsp::Position pos = d.pos("%n00 = waveasm", 2);
  std::vector<lsp::CodeAction> actions =
      computeCodeActions(*d.parsed, pos, d.settings);
  auto find = [&](llvm::StringRef title) -> const lsp::CodeAction * {
    for (const lsp::CodeAction &a : actions)
      if (a.title == title)
        return &a;
    return nullptr;
  };
  const lsp::CodeAction *builtin = find("Schedule this loop (built-in)");
  ASSERT_TRUE(builtin);
  ASSERT_TRUE(builtin->command);
  EXPECT_EQ(builtin->command->command, "waveasm.scheduleLoop");
  ASSERT_EQ(builtin->command->arguments.size(), 1u);
  llvm::Expected<llvm::json::Value> arg =
      llvm::json::parse(builtin->command->arguments[0]);
  ASSERT_TRUE(bool(arg));
  EXPECT_EQ(arg->getAsObject()->getString("strategy"), "builtin");
  EXPECT_EQ(arg->getAsObject()->getString("uri"), d.parsed->getURI());
  const lsp::CodeAction *llm = find("Ask LLM to schedule this loop");
  ASSERT_TRUE(llm);
  EXPECT_NE(llm->command->arguments[0].find("\"llm\""), std::string::npos);
  // Single moves come first.
  EXPECT_EQ(&actions[actions.size() - 2], builtin);

  // A document that does not verify gets nothing.
  std::string broken = d.text;
  broken.replace(broken.find("%n00 = waveasm.v_mfma_f32_16x16x16_f16 %a01"), 4,
                 "%zz");
  ServerDoc b(broken, false);
  EXPECT_FALSE(b.parsed->isVerified());
  EXPECT_TRUE(computeCodeActions(*b.parsed, pos, b.settings).empty());
}

// The loop is bound by its memory chain (see StrategiesScheduleTest): the
// built-in schedule keeps its cycles and frees VGPRs.
TEST(CodeActions, BuiltinScheduleImprovesTheLoop) {
  std::string text = readExample("gemm_f16_double_buffer.mlir");
  ServerDoc d(text, false);
  std::optional<ScheduleTarget> target =
      findScheduleTarget(*d.parsed, d.pos("%n00 = waveasm", 2));
  ASSERT_TRUE(target);
  ScheduleOutcome outcome = scheduleBuiltin(*d.parsed, *target, d.settings);
  ASSERT_TRUE(outcome.error.empty()) << outcome.error;
  ASSERT_TRUE(outcome.changed) << outcome.summary;
  ASSERT_EQ(outcome.loopIndex, 0u);
  EXPECT_LE(outcome.after.loops[0].est_cycles_per_iter,
            outcome.before.loops[0].est_cycles_per_iter);
  EXPECT_LT(outcome.after.peak_vgpr, outcome.before.peak_vgpr);
  EXPECT_FALSE(outcome.moves.empty());
  llvm::Regex summary("^est_cycles/iter [0-9]+ -> [0-9]+, peak VGPR [0-9]+ "
                      "-> [0-9]+");
  EXPECT_TRUE(summary.match(outcome.summary)) << outcome.summary;
  // The edit keeps every line of the body and re-measures as promised.
  std::string scheduled = applyEdits(text, {outcome.edit});
  EXPECT_EQ(sortedLines(scheduled, kLoopBodyStart, kLoopBodyEnd),
            sortedLines(text, kLoopBodyStart, kLoopBodyEnd));
  ServerDoc again(scheduled);
  ASSERT_TRUE(again.parsed->isVerified());
  ASSERT_TRUE(again.compiled->succeeded());
  EXPECT_EQ(again.compiled->getPrograms()[0]
                .result.metrics.loops[0]
                .est_cycles_per_iter,
            outcome.after.loops[0].est_cycles_per_iter);
}

TEST(CodeActions, MetricDiff) {
  ProgramMetrics before, after;
  before.est_cycles = 1000;
  after.est_cycles = 900;
  before.peak_vgpr = after.peak_vgpr = 96;
  before.occupancy = after.occupancy = 5;
  EXPECT_EQ(formatMetricDiff(before, after, std::nullopt),
            "est_cycles 1000 -> 900, peak VGPR 96 -> 96");
  before.loops.resize(1);
  after.loops.resize(1);
  before.loops[0].est_cycles_per_iter = 287;
  after.loops[0].est_cycles_per_iter = 240;
  after.occupancy = 6;
  EXPECT_EQ(formatMetricDiff(before, after, 0u),
            "est_cycles/iter 287 -> 240, peak VGPR 96 -> 96, occupancy 5 -> 6");
  llvm::json::Value json = scheduleMetricsJSON(after, 0u);
  EXPECT_EQ(json.getAsObject()->getInteger("est_cycles_per_iter"), 240);
  EXPECT_EQ(json.getAsObject()->getInteger("peak_vgpr"), 96);
}

TEST(CodeActions, SingleMovesAreCheckedByExecution) {
  // A load and a store that alias through two copies of a descriptor: the
  // Conductor's rules only warn there. With checkByExecution, every move
  // offered computes what the text does (run here once more on the edited
  // text); without it, the moves the check dropped are exactly those whose
  // text computes something else.
  // The load reads what the store before it wrote, through a copy of the
  // descriptor: hoisting it hides its latency (the best move by cycles)
  // and reads the old contents instead.
  std::string chain;
  for (int i = 0; i < 4; ++i)
    chain += llvm::formatv("  %v{0} = waveasm.v_add_u32 %{1}, %off : "
                           "!waveasm.vreg, !waveasm.vreg -> !waveasm.vreg\n",
                           i + 1, i ? "v" + std::to_string(i) : "x")
                 .str();
  std::string text =
      R"(waveasm.program @alias target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %w0 = waveasm.extract %a[0] : !waveasm.psreg<4, 4> -> !waveasm.sreg
  %w1 = waveasm.extract %a[1] : !waveasm.psreg<4, 4> -> !waveasm.sreg
  %w2 = waveasm.extract %a[2] : !waveasm.psreg<4, 4> -> !waveasm.sreg
  %w3 = waveasm.extract %a[3] : !waveasm.psreg<4, 4> -> !waveasm.sreg
  %b = waveasm.pack %w0, %w1, %w2, %w3 : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.v_add_u32 %tid, %c7 : !waveasm.pvreg<0>, !waveasm.imm<7> -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %a, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
)" + chain +
      R"(  %y = waveasm.buffer_load_dword %b, %off, %c0 : !waveasm.sreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %z = waveasm.v_add_u32 %y, %v4 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %z, %a, %off offset : 512 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
)";
  server::ServerSettings on, off;
  on.checkByExecution = true;
  off.checkByExecution = false;
  ServerDoc checked(text, false, on), unchecked(text, false, off);
  ASSERT_TRUE(checked.parsed->isVerified());
  TestContext t;
  auto original = t.parseModule(text);
  ASSERT_TRUE(original) << t.diagnostics;
  auto verdictOf = [&](const lsp::CodeAction &action) {
    std::string moved = applyEdits(text, editsOf(*action.edit));
    auto module = t.parseModule(moved);
    EXPECT_TRUE(module) << t.diagnostics;
    return sim::compareOnSeeds(*(*original).getOps<ProgramOp>().begin(),
                               *(*module).getOps<ProgramOp>().begin(), 2)
        .verdict;
  };
  unsigned offered = 0, dropped = 0;
  {
    lsp::Position pos = checked.pos("%y = ", 3);
    std::vector<lsp::CodeAction> kept =
        computeSingleMoveActions(*checked.parsed, pos, on);
    std::vector<lsp::CodeAction> all =
        computeSingleMoveActions(*unchecked.parsed, pos, off);
    for (const lsp::CodeAction &action : kept) {
      ++offered;
      EXPECT_NE(verdictOf(action), sim::Comparison::Verdict::Different)
          << action.title;
    }
    for (const lsp::CodeAction &action : all) {
      bool offeredToo = llvm::any_of(kept, [&](const lsp::CodeAction &k) {
        return k.title.rfind(action.title, 0) == 0;
      });
      if (offeredToo)
        continue;
      ++dropped;
      EXPECT_EQ(verdictOf(action), sim::Comparison::Verdict::Different)
          << action.title;
    }
  }
  // The moves after the store are offered (rankSingleMoves itself keeps
  // the load below the store it may alias).
  EXPECT_GE(offered, 1u) << "dropped " << dropped;
}

TEST(CodeActions, SessionOptionsCarryTheDocumentsSimInputs) {
  // The server's schedules (built-in and LLM) check their kept rounds on
  // the document's inputs; a malformed line is the reason they are not.
  server::ServerSettings settings;
  conductor::SessionOptions options = makeSessionOptions(
      settings, "// waveasm-sim: --kernarg-dword=48:0 --byte-range=3:1-2\n");
  EXPECT_EQ(options.executionInputs.kernargDwords.at(48), 0u);
  EXPECT_EQ(options.executionInputs.initial.byteRanges.at(3),
            std::make_pair(uint8_t(1), uint8_t(2)));
  EXPECT_TRUE(options.executionInputsError.empty());
  options = makeSessionOptions(settings, "\n// waveasm-sim: --kernarg=1\n");
  EXPECT_NE(options.executionInputsError.find("line 2"), std::string::npos)
      << options.executionInputsError;
}

TEST(CodeActions, MovesTheSimulatorCannotRunSayNotChecked) {
  // The multi-block MFMA of this kernel (the lit tests' copy of the f16
  // GEMM example) is not simulated: with checkByExecution every single move
  // says it was not checked; without, none does.
  std::string text =
      readExample("../tests/lit/sim/Inputs/multi-block-mfma.mlir");
  ASSERT_FALSE(text.empty());
  server::ServerSettings on, off;
  on.checkByExecution = true;
  off.checkByExecution = false;
  ServerDoc checked(text, false, on), unchecked(text, false, off);
  ASSERT_TRUE(checked.parsed->isVerified());
  llvm::StringRef suffix = " (not checked by execution)";
  unsigned seen = 0;
  for (int line = 0;
       line < int(checked.parsed->getLines().getNumLines()) && seen < 3;
       ++line) {
    llvm::StringRef lineText = checked.parsed->getLines().getLine(line);
    if (!lineText.ltrim().starts_with("%"))
      continue;
    lsp::Position pos{line, int(lineText.size() - lineText.ltrim().size())};
    std::vector<lsp::CodeAction> kept =
        computeSingleMoveActions(*checked.parsed, pos, on);
    std::vector<lsp::CodeAction> all =
        computeSingleMoveActions(*unchecked.parsed, pos, off);
    EXPECT_EQ(kept.size(), all.size());
    for (const lsp::CodeAction &action : kept)
      EXPECT_TRUE(llvm::StringRef(action.title).ends_with(suffix))
          << action.title;
    for (const lsp::CodeAction &action : all)
      EXPECT_FALSE(llvm::StringRef(action.title).ends_with(suffix))
          << action.title;
    seen += !kept.empty();
  }
  EXPECT_GT(seen, 0u);
}
