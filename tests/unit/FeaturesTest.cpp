//===- FeaturesTest.cpp - the language features on small kernels ----------===//

#include "ServerTestUtils.h"
#include "TestPaths.h"

#include "analysis/OrderCost.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace waveasm;
using namespace waveasm::server;
using waveasm::test::applyEdits;
using waveasm::test::ServerDoc;
using waveasm::test::serverProgram;

namespace {

const char *kLoadUse = R"(  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %y = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg // the use
  waveasm.buffer_store_dword %y, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
)";

// A loop carrying two values, with an if inside, and comments to fold.
const char *kLoop = R"(  // The loop below counts to 8.
  // It adds one per iteration.
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %v0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %i_end, %v_end = waveasm.loop (%i = %i0, %acc = %v0)
      : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %v1 = waveasm.v_add_u32 %acc, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %i1:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %small = waveasm.s_cmp_lt_u32 %i1#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.if %small : !waveasm.scc {
      waveasm.s_nop 0
      waveasm.yield
    }
    %more = waveasm.s_cmp_lt_u32 %i1#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i1#0, %v1) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.s_endpgm
)";

// MFMA result read right away by another MFMA (as SrcA): a stall.
const char *kMfmaStall = R"(  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %b = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %z = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %p = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %z : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %lo = waveasm.extract %p[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
  %q = waveasm.v_mfma_f32_16x16x16_f16 %lo, %b, %z : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %q0 = waveasm.extract %q[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  waveasm.buffer_store_dword %q0, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
)";

// A transcendental result feeding a VALU op: the pipeline inserts a nop.
const char *kTrans = R"(  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %e = waveasm.v_exp_f32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %y = waveasm.v_add_u32 %e, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
)";

/// 17 live vreg<4, 4> values: 68 VGPRs (+ v0), past the 64-VGPR breakpoint.
std::string pressureKernel() {
  std::string body = "  %c0 = waveasm.constant 0 : !waveasm.imm<0>\n"
                     "  %srd = waveasm.precolored.sreg 4, 4 : "
                     "!waveasm.psreg<4, 4>\n"
                     "  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>\n";
  // Loaded tiles (constant moves would be rematerialized next to their
  // users by the allocator, and the pressure lint reads allocated code).
  for (int i = 0; i < 17; ++i)
    body += "  %t" + std::to_string(i) +
            " = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : "
            "!waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> "
            "!waveasm.vreg<4, 4>\n";
  for (int i = 0; i < 17; ++i)
    body += "  waveasm.buffer_store_dwordx4 %t" + std::to_string(i) +
            ", %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, "
            "!waveasm.pvreg<0>\n";
  body += "  waveasm.s_endpgm\n";
  return serverProgram(body);
}

std::vector<lsp::InlayHint> hintsOnLine(const ServerDoc &d, int line) {
  return computeInlayHints(*d.parsed, d.compiled.get(), {{line, 0}, {line, 0}},
                           d.settings);
}

std::vector<lsp::Diagnostic> lintsWithCode(const ServerDoc &d,
                                           llvm::StringRef code) {
  std::vector<lsp::Diagnostic> out;
  for (lsp::Diagnostic &diag : computeLints(*d.parsed, *d.compiled, d.settings))
    if (diag.code == code)
      out.push_back(std::move(diag));
  return out;
}

std::string printed(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

} // namespace

//===--- inlay hints ------------------------------------------------------===//

TEST(InlayHints, LatencyStallLiveRegistersAndTags) {
  ServerDoc d(serverProgram(kLoadUse));
  ASSERT_TRUE(d.compiled->succeeded());

  int loadLine = d.line("%x =");
  std::vector<lsp::InlayHint> load = hintsOnLine(d, loadLine);
  ASSERT_EQ(load.size(), 3u);
  EXPECT_EQ(load[0].label, "lat 100");
  EXPECT_EQ(load[1].label, "v 2 \xC2\xB7 s 4"); // %tid and %x; %srd
  EXPECT_EQ(load[2].label, "I3");
  // At the end of the op: the end of its line.
  int loadEnd = d.parsed->getLines().getLine(loadLine).size();
  for (const lsp::InlayHint &h : load) {
    EXPECT_EQ(h.position, (lsp::Position{loadLine, loadEnd}));
    EXPECT_TRUE(h.paddingLeft);
    EXPECT_FALSE(h.tooltip.empty());
  }
  EXPECT_NE(load[0].tooltip.find("Latency 100"), std::string::npos);
  EXPECT_NE(load[2].tooltip.find("Conductor tag"), std::string::npos);

  // The use waits for the load in the s_waitcnt the pipeline inserted:
  // issued at cycle 0, ready at 100, the add issues at 100.
  int addLine = d.line("%y =");
  std::vector<lsp::InlayHint> add = hintsOnLine(d, addLine);
  ASSERT_EQ(add.size(), 3u);
  EXPECT_EQ(add[0].label, "lat 1 \xC2\xB7 stall 99");
  EXPECT_NE(add[0].tooltip.find("s_waitcnt"), std::string::npos);
  EXPECT_EQ(add[1].label, "v 2 \xC2\xB7 s 4"); // %tid and %y
  EXPECT_EQ(add[2].label, "I4");
  // Before the trailing comment.
  EXPECT_EQ(add[0].position, d.pos(" // the use"));

  // Pseudo ops (constants, precolored registers) get only their tag (they
  // are anchors of moves).
  std::vector<lsp::InlayHint> c0 = hintsOnLine(d, d.line("%c0 ="));
  ASSERT_EQ(c0.size(), 1u);
  EXPECT_EQ(c0[0].label, "I2");
  // s_endpgm issues (latency, registers) and is pinned, but tagged.
  std::vector<lsp::InlayHint> end = hintsOnLine(d, d.line("s_endpgm"));
  ASSERT_EQ(end.size(), 3u);
  EXPECT_EQ(end[1].label, "v 0 \xC2\xB7 s 0");
  EXPECT_EQ(end[2].label, "I6");
}

TEST(InlayHints, AfterTheWholeTrailingTypeBeforeAComment) {
  // The parser's scope of an op ends before the body of its last type
  // (`<4, 4>`): hints there split the type in the editor.
  ServerDoc d(serverProgram(
      "  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>\n"
      "  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>\n"
      "  %c0 = waveasm.constant 0 : !waveasm.imm<0>\n"
      "  %x = waveasm.buffer_load_dwordx4 %srd, %tid, %c0\n"
      "      : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0>\n"
      "      -> !waveasm.vreg<4, 4>  // four dwords\n"
      "  waveasm.buffer_store_dwordx4 %x, %srd, %tid : !waveasm.vreg<4, 4>, "
      "!waveasm.psreg<4, 4>, !waveasm.pvreg<0>\n"
      "  waveasm.s_endpgm\n"));
  ASSERT_TRUE(d.compiled->succeeded());
  // A multi-line op: on its last line, after the type, before the comment.
  std::vector<lsp::InlayHint> load = computeInlayHints(
      *d.parsed, d.compiled.get(),
      {{d.line("%x ="), 0}, {d.line("-> !waveasm.vreg<4, 4>"), 0}}, d.settings);
  ASSERT_EQ(load.size(), 3u);
  for (const lsp::InlayHint &h : load)
    EXPECT_EQ(h.position, d.pos("  // four dwords"));
  // Pseudo ops' tags after `<0>` too.
  int c0 = d.line("%c0 =");
  std::vector<lsp::InlayHint> tag = hintsOnLine(d, c0);
  ASSERT_EQ(tag.size(), 1u);
  EXPECT_EQ(tag[0].position,
            (lsp::Position{
                c0, static_cast<int>(
                        d.parsed->getLines().getLine(c0).rtrim().size())}));
}

TEST(InlayHints, LoopStagesFromTheAnnotations) {
  // kLoop with stages written by hand on two body ops: the hint reads the
  // parse, so an edited stage shows without a compile.
  std::string text = kLoop;
  auto annotate = [&](llvm::StringRef op, llvm::StringRef attrs) {
    size_t at = text.find(op.str());
    ASSERT_NE(at, std::string::npos);
    size_t colon = text.find(" : ", at + op.size());
    text.insert(colon, " " + attrs.str());
  };
  annotate("%v1 = waveasm.v_add_u32 %acc, %c1",
           "{waveasm.cluster = 1 : i32, waveasm.stage = 1 : i32}");
  annotate("%i1:2 = waveasm.s_add_u32 %i, %c1", "{waveasm.stage = 0 : i32}");
  ServerDoc d(serverProgram(text));
  d.settings.hintLatency = false;
  d.settings.hintPressure = false;
  d.settings.hintTag = false;
  std::vector<lsp::InlayHint> v1 = hintsOnLine(d, d.line("%v1 ="));
  ASSERT_EQ(v1.size(), 1u);
  EXPECT_EQ(v1[0].label, "st1 c1");
  EXPECT_NE(v1[0].tooltip.find("waveasm.stage"), std::string::npos);
  std::vector<lsp::InlayHint> i1 = hintsOnLine(d, d.line("%i1:2 ="));
  ASSERT_EQ(i1.size(), 1u);
  EXPECT_EQ(i1[0].label, "st0");
  // Ops without the attribute get no stage hint.
  EXPECT_TRUE(hintsOnLine(d, d.line("%more =")).empty());
}

TEST(InlayHints, OnlyTheRequestedRangeAndKinds) {
  ServerDoc d(serverProgram(kLoadUse));
  std::vector<lsp::InlayHint> all = computeInlayHints(
      *d.parsed, d.compiled.get(), {{0, 0}, {100, 0}}, d.settings);
  // load, add, store, s_endpgm: three each; three pseudo ops: a tag each.
  EXPECT_EQ(all.size(), 4u * 3 + 3);
  std::vector<lsp::InlayHint> one = hintsOnLine(d, d.line("%y ="));
  EXPECT_EQ(one.size(), 3u);

  d.settings.hintLatency = false;
  d.settings.hintPressure = false;
  std::vector<lsp::InlayHint> tags = computeInlayHints(
      *d.parsed, d.compiled.get(), {{0, 0}, {100, 0}}, d.settings);
  ASSERT_EQ(tags.size(), 7u);
  EXPECT_EQ(tags[5].label, "I5");
  d.settings.hintTag = false;
  EXPECT_TRUE(computeInlayHints(*d.parsed, d.compiled.get(), {{0, 0}, {100, 0}},
                                d.settings)
                  .empty());
}

TEST(InlayHints, StaleCompiledDocumentShowsOnlyTags) {
  ServerDoc d(serverProgram(kLoadUse));
  // The user typed: a new version, one line inserted at the top.
  ParsedDocument edited(d.ctx, "file:///test.mlir", "// new\n" + d.text, 2);
  std::vector<lsp::InlayHint> hints = computeInlayHints(
      edited, d.compiled.get(), {{0, 0}, {100, 0}}, d.settings);
  ASSERT_EQ(hints.size(), 7u); // every op of the block: its tag
  for (const lsp::InlayHint &h : hints)
    EXPECT_EQ(h.label[0], 'I');
  EXPECT_TRUE(computeLints(edited, *d.compiled, d.settings).empty());
  EXPECT_TRUE(computeCodeLenses(edited, d.compiled.get()).empty());
  // Without any compiled document: tags too.
  EXPECT_EQ(
      computeInlayHints(edited, nullptr, {{0, 0}, {100, 0}}, d.settings).size(),
      7u);
}

//===--- hover ------------------------------------------------------------===//

TEST(Hover, OnAnInstruction) {
  ServerDoc d(serverProgram(kLoadUse));
  std::optional<lsp::Hover> hover =
      computeHover(*d.parsed, d.compiled.get(), d.pos("buffer_load_dword", 3));
  ASSERT_TRUE(hover);
  const std::string &text = hover->contents.value;
  EXPECT_EQ(hover->contents.kind, lsp::MarkupKind::Markdown);
  EXPECT_EQ(hover->range->start, d.pos("waveasm.buffer_load_dword"));
  EXPECT_NE(text.find("waveasm.buffer_load_dword"), std::string::npos);
  EXPECT_NE(text.find("VMEM"), std::string::npos);
  EXPECT_NE(text.find("vmem_load"), std::string::npos);
  EXPECT_NE(text.find("lat 100"), std::string::npos);
  EXPECT_NE(text.find("vmcnt"), std::string::npos);
  EXPECT_NE(text.find("tag `I3`"), std::string::npos);
  // Defs and uses with register classes.
  EXPECT_NE(text.find("| def | `%x` | `!waveasm.vreg` | VGPR"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("| use | `%srd` | `!waveasm.psreg<4, 4>` | SGPR"),
            std::string::npos);
  // The allocator's choice: precolored operands are physical either way;
  // the loaded value is "not allocated" until waveasm-linear-scan lands,
  // then a VGPR.
  EXPECT_NE(text.find("| SGPR | s[4:7] |"), std::string::npos) << text;
  EXPECT_NE(text.find("| VGPR | v0 |"), std::string::npos);
  size_t defRow = text.find("| def | `%x`");
  llvm::StringRef row =
      llvm::StringRef(text).drop_front(defRow).split('\n').first;
  EXPECT_TRUE(row.contains("not allocated") || row.contains("| v"))
      << row.str();
  EXPECT_NE(text.find("`%x`: 2 uses"), std::string::npos);
  EXPECT_NE(text.find("Live after"), std::string::npos);

  // Without a compiled document: the static facts only.
  std::optional<lsp::Hover> bare =
      computeHover(*d.parsed, nullptr, d.pos("buffer_load_dword", 3));
  ASSERT_TRUE(bare);
  EXPECT_NE(bare->contents.value.find("VMEM"), std::string::npos);
  EXPECT_EQ(bare->contents.value.find("lat 100"), std::string::npos);
  EXPECT_EQ(bare->contents.value.find("allocated"), std::string::npos);
}

TEST(Hover, OnAValue) {
  ServerDoc d(serverProgram(kLoadUse));
  std::optional<lsp::Hover> hover =
      computeHover(*d.parsed, d.compiled.get(), d.pos("%x, %x", 1));
  ASSERT_TRUE(hover);
  const std::string &text = hover->contents.value;
  EXPECT_EQ(hover->range->start, d.pos("%x, %x"));
  EXPECT_NE(text.find("%x : `!waveasm.vreg`"), std::string::npos) << text;
  EXPECT_NE(text.find("Defined by `waveasm.buffer_load_dword` at line 5"),
            std::string::npos);
  EXPECT_NE(text.find("2 uses, line 6"), std::string::npos);
  // Live from the load to the add: one instruction apart, plus the wait.
  EXPECT_NE(text.find("**Live range**: 2 instructions"), std::string::npos)
      << text;
  EXPECT_FALSE(computeHover(*d.parsed, d.compiled.get(), {0, 0}) &&
               computeHover(*d.parsed, d.compiled.get(), {0, 0})
                   ->contents.value.empty());
}

TEST(Hover, ResultGroupsAndBlockArguments) {
  ServerDoc d(serverProgram(kLoop));
  std::optional<lsp::Hover> use =
      computeHover(*d.parsed, d.compiled.get(), d.pos("%i1#0, %c8", 1));
  ASSERT_TRUE(use);
  EXPECT_NE(use->contents.value.find("### %i1#0 : `!waveasm.sreg`"),
            std::string::npos)
      << use->contents.value;
  std::optional<lsp::Hover> group =
      computeHover(*d.parsed, d.compiled.get(), d.pos("%i1:2", 1));
  ASSERT_TRUE(group);
  EXPECT_NE(group->contents.value.find("`%i1#1` : `!waveasm.scc`"),
            std::string::npos)
      << group->contents.value;
  std::optional<lsp::Hover> loop =
      computeHover(*d.parsed, d.compiled.get(), d.pos("waveasm.loop", 3));
  ASSERT_TRUE(loop);
  EXPECT_NE(
      loop->contents.value.find("issue slots (4 clocks each) per iteration"),
      std::string::npos)
      << loop->contents.value;
  EXPECT_NE(loop->contents.value.find("trip count 8 (inferred)"),
            std::string::npos);
  // The body's co-access figures as written (analysis/OrderCost.h).
  unsigned loopEntry = d.parsed->findOpNameAt(d.pos("waveasm.loop", 3));
  ASSERT_NE(loopEntry, OpEntry::kNone);
  CoAccessSummary coaccess = summarizeCoAccess(
      llvm::cast<LoopOp>(d.parsed->getOps()[loopEntry].op).getBodyBlock());
  EXPECT_NE(loop->contents.value.find(
                llvm::formatv("**Co-access** (body as written): C(π) = {0:f1} "
                              "over {1} edges",
                              coaccess.cost, coaccess.edges)
                    .str()),
            std::string::npos)
      << loop->contents.value;
  std::optional<lsp::Hover> arg =
      computeHover(*d.parsed, d.compiled.get(), d.pos("%acc = %v0", 1));
  ASSERT_TRUE(arg);
  EXPECT_NE(arg->contents.value.find("Block argument of `waveasm.loop`"),
            std::string::npos)
      << arg->contents.value;
}

//===--- navigation -------------------------------------------------------===//

TEST(Navigation, DefinitionReferencesHighlights) {
  ServerDoc d(serverProgram(kLoadUse), false);
  lsp::Position use = d.pos("%x, %x", 5); // the second %x
  std::vector<lsp::Location> def = findDefinition(*d.parsed, use);
  ASSERT_EQ(def.size(), 1u);
  EXPECT_EQ(def[0].uri, "file:///test.mlir");
  EXPECT_EQ(def[0].range.start, d.pos("%x ="));
  EXPECT_EQ(def[0].range.end, d.pos("%x =", 2));

  std::vector<lsp::Location> refs = findReferences(*d.parsed, use);
  ASSERT_EQ(refs.size(), 3u);
  EXPECT_EQ(refs[1].range.start, d.pos("%x, %x"));
  EXPECT_EQ(refs[2].range.start, d.pos("%x, %x", 4));
  EXPECT_EQ(findReferences(*d.parsed, use, false).size(), 2u);

  std::vector<lsp::DocumentHighlight> hl =
      computeDocumentHighlights(*d.parsed, d.pos("%x ="));
  ASSERT_EQ(hl.size(), 3u);
  EXPECT_EQ(hl[0].kind, lsp::DocumentHighlightKind::Write);
  EXPECT_EQ(hl[1].kind, lsp::DocumentHighlightKind::Read);
  // Nothing on an op name or whitespace.
  EXPECT_TRUE(findDefinition(*d.parsed, d.pos("v_add_u32")).empty());
  EXPECT_TRUE(findReferences(*d.parsed, {0, 0}).empty());
}

TEST(Navigation, RenameRoundTrip) {
  ServerDoc d(serverProgram(kLoadUse), false);
  ASSERT_EQ(prepareRename(*d.parsed, d.pos("%x, %x", 1))->start,
            d.pos("%x, %x"));
  std::string error;
  std::optional<lsp::WorkspaceEdit> edit =
      renameValue(*d.parsed, d.pos("%x, %x", 1), "loaded", &error);
  ASSERT_TRUE(edit) << error;
  const std::vector<lsp::TextEdit> &edits = edit->changes["file:///test.mlir"];
  ASSERT_EQ(edits.size(), 3u);
  std::string renamed = applyEdits(d.text, edits);
  EXPECT_NE(renamed.find("%loaded = waveasm.buffer_load_dword"),
            std::string::npos);
  EXPECT_NE(renamed.find("v_add_u32 %loaded, %loaded"), std::string::npos);
  EXPECT_EQ(renamed.find("%x"), std::string::npos);
  // Same IR modulo names (the printer numbers values itself).
  ServerDoc after(renamed, false);
  ASSERT_TRUE(after.parsed->isVerified());
  EXPECT_EQ(printed(after.parsed->getModule()), printed(d.parsed->getModule()));
}

TEST(Navigation, RenameBlockArgumentsAndResultGroups) {
  ServerDoc d(serverProgram(kLoop), false);
  // A loop block argument: its definition and both uses.
  std::optional<lsp::WorkspaceEdit> edit =
      renameValue(*d.parsed, d.pos("%i, %c1", 1), "%iv");
  ASSERT_TRUE(edit);
  std::string renamed = applyEdits(d.text, edit->changes["file:///test.mlir"]);
  EXPECT_NE(renamed.find("(%iv = %i0"), std::string::npos);
  EXPECT_NE(renamed.find("s_add_u32 %iv, %c1"), std::string::npos);
  // A result group keeps its `:2` and `#0` suffixes.
  edit = renameValue(*d.parsed, d.pos("%i1#0, %c8", 1), "%inc");
  ASSERT_TRUE(edit);
  EXPECT_EQ(edit->changes["file:///test.mlir"].size(), 4u);
  renamed = applyEdits(renamed, edit->changes["file:///test.mlir"]);
  EXPECT_NE(renamed.find("%inc:2 = "), std::string::npos);
  EXPECT_NE(renamed.find("iter_args(%inc#0, %v1)"), std::string::npos);
  ServerDoc after(renamed, false);
  ASSERT_TRUE(after.parsed->isVerified());
  EXPECT_EQ(printed(after.parsed->getModule()), printed(d.parsed->getModule()));
}

TEST(Navigation, RenameRejectsBadNames) {
  ServerDoc d(serverProgram(kLoadUse), false);
  std::string error;
  for (const char *bad : {"", "%", "1abc", "%a b", "a+b", "%x%"}) {
    error.clear();
    EXPECT_FALSE(renameValue(*d.parsed, d.pos("%x ="), bad, &error)) << bad;
    EXPECT_NE(error.find("not a valid SSA name"), std::string::npos) << bad;
  }
  EXPECT_FALSE(renameValue(*d.parsed, d.pos("%x ="), "%y", &error));
  EXPECT_NE(error.find("already defined"), std::string::npos);
  EXPECT_FALSE(renameValue(*d.parsed, d.pos("v_add_u32"), "%z", &error));
  EXPECT_NE(error.find("no SSA value"), std::string::npos);
  for (const char *good : {"%42", "a.b$c-d_e", "%_x", "%$"})
    EXPECT_TRUE(isValidSSAName(good)) << good;
}

TEST(Navigation, SymbolsTree) {
  ServerDoc d(serverProgram(kLoop), false);
  std::vector<lsp::DocumentSymbol> symbols = computeDocumentSymbols(*d.parsed);
  ASSERT_EQ(symbols.size(), 1u);
  EXPECT_EQ(symbols[0].name, "@k");
  EXPECT_EQ(symbols[0].kind, lsp::SymbolKind::Function);
  EXPECT_EQ(symbols[0].detail, "gfx942");
  ASSERT_EQ(symbols[0].children.size(), 1u);
  const lsp::DocumentSymbol &loop = symbols[0].children[0];
  EXPECT_EQ(loop.name, "loop");
  EXPECT_EQ(loop.selectionRange.start, d.pos("waveasm.loop"));
  EXPECT_EQ(loop.range.end.line, d.line("  }\n  waveasm.s_endpgm"));
  ASSERT_EQ(loop.children.size(), 1u);
  EXPECT_EQ(loop.children[0].name, "if");
  EXPECT_EQ(loop.children[0].range.start.line, d.line("waveasm.if"));
}

TEST(Navigation, FoldingRanges) {
  ServerDoc d(serverProgram(kLoop), false);
  std::vector<lsp::FoldingRange> ranges = computeFoldingRanges(*d.parsed);
  auto has = [&](int start, int end, llvm::StringRef kind) {
    return llvm::any_of(ranges, [&](const lsp::FoldingRange &r) {
      return r.startLine == start && r.endLine == end && r.kind == kind;
    });
  };
  int lastLine = d.parsed->getLines().getNumLines() - 2; // the closing brace
  EXPECT_TRUE(has(0, lastLine - 1, "region"));           // the program
  EXPECT_TRUE(
      has(d.line("waveasm.loop"), d.line("waveasm.condition"), "region"));
  EXPECT_TRUE(has(d.line("// The loop"), d.line("// It adds"), "comment"));
  // The if folds to its last body line.
  EXPECT_TRUE(has(d.line("waveasm.if"), d.line("waveasm.yield"), "region"));
}

//===--- semantic tokens --------------------------------------------------===//

TEST(SemanticTokens, InstructionFamiliesByUnit) {
  ServerDoc d(serverProgram(kLoadUse), false);
  const SemanticTokenLegend &legend = getSemanticTokenLegend();
  ASSERT_EQ(legend.tokenTypes.size(), 14u);
  EXPECT_EQ(legend.tokenTypes[static_cast<unsigned>(TokenType::MFMA)], "mfma");
  EXPECT_EQ(legend.tokenModifiers[0], "declaration");
  std::vector<lsp::SemanticToken> tokens = computeSemanticTokens(*d.parsed);
  auto typeAt = [&](lsp::Position p) -> std::optional<unsigned> {
    for (const lsp::SemanticToken &t : tokens)
      if (t.line == p.line && t.startChar == p.character)
        return t.type;
    return std::nullopt;
  };
  auto is = [](TokenType t) { return static_cast<unsigned>(t); };
  EXPECT_EQ(typeAt(d.pos("waveasm.buffer_load_dword")), is(TokenType::VMEM));
  EXPECT_EQ(typeAt(d.pos("waveasm.v_add_u32")), is(TokenType::VALU));
  // s_endpgm is program control: the branch unit.
  EXPECT_EQ(typeAt(d.pos("waveasm.s_endpgm")), is(TokenType::Branch));
  EXPECT_EQ(typeAt(d.pos("waveasm.constant")), is(TokenType::Pseudo));
  EXPECT_EQ(typeAt(d.pos("%x =")), is(TokenType::Value));
  EXPECT_EQ(typeAt(d.pos("!waveasm.vreg")), is(TokenType::Type));
  EXPECT_EQ(typeAt(d.pos("#waveasm.target")), is(TokenType::Attribute));
  EXPECT_EQ(typeAt(d.pos("@k")), is(TokenType::Symbol));
  EXPECT_EQ(typeAt(d.pos("// the use")), is(TokenType::Comment));
  // Definitions carry the declaration modifier, uses do not.
  for (const lsp::SemanticToken &t : tokens) {
    if (t.line == d.line("%x =") && t.startChar == 2)
      EXPECT_EQ(t.modifiers & ModDeclaration, ModDeclaration);
    if (t.line == d.pos("%x, %x").line &&
        t.startChar == d.pos("%x, %x").character)
      EXPECT_EQ(t.modifiers & ModDeclaration, 0u);
  }
  // Sorted, non-overlapping; a range request returns a subset.
  for (size_t i = 1; i < tokens.size(); ++i)
    EXPECT_TRUE(tokens[i - 1].line < tokens[i].line ||
                tokens[i - 1].startChar + tokens[i - 1].length <=
                    tokens[i].startChar);
  int line = d.line("%y =");
  std::vector<lsp::SemanticToken> some =
      computeSemanticTokens(*d.parsed, lsp::Range{{line, 0}, {line, 0}});
  ASSERT_FALSE(some.empty());
  for (const lsp::SemanticToken &t : some)
    EXPECT_EQ(t.line, line);
}

TEST(SemanticTokens, MfmaAndLoopBody) {
  ServerDoc d(serverProgram(kLoop), false);
  std::vector<lsp::SemanticToken> tokens = computeSemanticTokens(*d.parsed);
  lsp::Position add = d.pos("waveasm.v_add_u32");
  lsp::Position loop = d.pos("waveasm.loop");
  for (const lsp::SemanticToken &t : tokens) {
    if (t.line == add.line && t.startChar == add.character)
      EXPECT_TRUE(t.modifiers & ModLoopBody);
    if (t.line == loop.line && t.startChar == loop.character)
      EXPECT_EQ(t.type, static_cast<unsigned>(TokenType::Branch));
  }
  ServerDoc m(serverProgram(kMfmaStall), false);
  lsp::Position mfma = m.pos("waveasm.v_mfma");
  bool found = false;
  for (const lsp::SemanticToken &t : computeSemanticTokens(*m.parsed))
    if (t.line == mfma.line && t.startChar == mfma.character)
      found = t.type == static_cast<unsigned>(TokenType::MFMA);
  EXPECT_TRUE(found);
}

//===--- code lens and tables ---------------------------------------------===//

TEST(CodeLens, OccupancyExplainedFromTheAllocation) {
  // 32 KiB of LDS per 4-wave workgroup on gfx942: 2 workgroups per CU, 2
  // waves per SIMD, whatever the registers allow.
  ServerDoc d(serverProgram(kLoop, " attributes {lds_size = 32768 : i64, "
                                   "workgroup_size = [256, 1, 1]}"));
  ASSERT_TRUE(d.compiled->succeeded());
  const ProgramMetrics &m = d.compiled->getPrograms()[0].result.metrics;
  EXPECT_EQ(m.occupancy, 2);
  EXPECT_EQ(m.occupancy_limit.limited_by, "LDS");
  EXPECT_EQ(m.occupancy_limit.lds_waves, 2);
  EXPECT_EQ(m.occupancy_limit.vgpr_waves, 8);
  std::vector<lsp::CodeLens> lenses =
      computeCodeLenses(*d.parsed, d.compiled.get());
  ASSERT_GE(lenses.size(), 2u);
  // Occupancy comes first (a long lens line is cut at the editor's edge),
  // then the allocated registers it follows from, labelled apart from the
  // values live in the IR as written.
  std::string occupancyLens = lenses[0].command->title;
  std::string registersLens = lenses[1].command->title;
  EXPECT_NE(registersLens.find("live peak v "), std::string::npos)
      << registersLens;
  EXPECT_TRUE(llvm::StringRef(registersLens)
                  .starts_with("allocated v " + std::to_string(m.peak_vgpr)))
      << registersLens;
  EXPECT_TRUE(llvm::StringRef(occupancyLens)
                  .starts_with("occupancy 2 waves, limited by LDS: 32 KiB "
                               "per 4-wave workgroup, 2 workgroups per CU; "
                               "-10.8 KiB LDS \xE2\x86\x92 3 waves; VGPRs "
                               "would allow 8"))
      << occupancyLens;
  std::optional<lsp::Hover> hover =
      computeHover(*d.parsed, d.compiled.get(), d.pos("waveasm.program"));
  ASSERT_TRUE(hover);
  EXPECT_NE(hover->contents.value.find("**Occupancy**: 2 waves, limited by "
                                       "LDS"),
            std::string::npos)
      << hover->contents.value;
  EXPECT_NE(hover->contents.value.find("| LDS | 32768 bytes per workgroup | 2 "
                                       "|"),
            std::string::npos)
      << hover->contents.value;
  EXPECT_NE(hover->contents.value.find("| workgroup size | 256×1×1 | 8 |"),
            std::string::npos)
      << hover->contents.value;
}

TEST(CodeLens, ProgramAndLoop) {
  ServerDoc d(serverProgram(kLoop));
  ASSERT_TRUE(d.compiled->succeeded());
  std::vector<lsp::CodeLens> lenses =
      computeCodeLenses(*d.parsed, d.compiled.get());
  std::vector<std::string> program, loop;
  for (const lsp::CodeLens &lens : lenses) {
    ASSERT_TRUE(lens.command);
    if (lens.range.start == d.pos("waveasm.program"))
      program.push_back(lens.command->title);
    else if (lens.range.start == d.pos("waveasm.loop"))
      loop.push_back(lens.command->title);
    else
      ADD_FAILURE() << "lens at line " << lens.range.start.line;
  }
  ASSERT_EQ(program.size(), 4u);
  EXPECT_TRUE(llvm::StringRef(program[0]).starts_with("occupancy 8 waves"))
      << program[0];
  EXPECT_NE(program[1].find("live peak v 1 \xC2\xB7 s 1"), std::string::npos)
      << program[1];
  EXPECT_TRUE(llvm::StringRef(program[2]).starts_with("est "));
  EXPECT_NE(program[2].find("lower bound"), std::string::npos);
  EXPECT_NE(program[3].find("waitcnts"), std::string::npos);
  EXPECT_NE(program[3].find("nop"), std::string::npos);
  EXPECT_NE(program[3].find("VALU"), std::string::npos);
  ASSERT_EQ(loop.size(), 4u);
  EXPECT_NE(loop[0].find("slots/iter"), std::string::npos) << loop[0];
  EXPECT_NE(loop[0].find("trip 8 (inferred)"), std::string::npos) << loop[0];
  EXPECT_NE(loop[1].find("peak v"), std::string::npos);
  EXPECT_NE(loop[2].find("instructions/iter"), std::string::npos);
  EXPECT_NE(loop[2].find("1 nop"), std::string::npos) << loop[2];
  // Software pipelining (Pipelining.cpp): the if in the body forbids it.
  EXPECT_NE(loop[3].find("cannot pipeline"), std::string::npos) << loop[3];
}

TEST(Tables, MetricsAndInstructions) {
  ServerDoc d(serverProgram(kLoop));
  std::string metrics = renderMetricsTable(*d.parsed, *d.compiled);
  EXPECT_TRUE(llvm::StringRef(metrics).starts_with("program/loop"));
  EXPECT_NE(metrics.find("@k"), std::string::npos);
  EXPECT_NE(metrics.find("  loop (per iter, trip 8)"), std::string::npos)
      << metrics;
  std::string table = renderInstructionTable(*d.parsed, *d.compiled);
  EXPECT_NE(table.find("v_add_u32"), std::string::npos);
  EXPECT_NE(table.find("I0"), std::string::npos);
  // One row per issued instruction, plus header, rule and legend.
  EXPECT_GT(llvm::StringRef(table).count('\n'), 8u);
  ServerDoc broken(serverProgram("  %y = waveasm.v_mov_b32 %nope : "
                                 "!waveasm.vreg -> !waveasm.vreg\n"));
  EXPECT_NE(renderMetricsTable(*broken.parsed, *broken.compiled)
                .find("did not compile"),
            std::string::npos);
}

//===--- lints ------------------------------------------------------------===//

TEST(Lints, StallOnAnOperand) {
  ServerDoc d(serverProgram(kTrans));
  ASSERT_TRUE(d.compiled->succeeded());
  // v_exp_f32 (4 slots) @0, the hazard's s_nop 0 @1, v_add_u32 could go @2
  // and waits 2 more slots for %e.
  d.settings.stallThresholdCycles = 2;
  std::vector<lsp::Diagnostic> stalls = lintsWithCode(d, "stall");
  ASSERT_EQ(stalls.size(), 1u);
  const lsp::Diagnostic &diag = stalls[0];
  EXPECT_EQ(diag.range.start, d.pos("waveasm.v_add_u32"));
  EXPECT_EQ(diag.severity, lsp::DiagnosticSeverity::Hint);
  EXPECT_NE(diag.message.find("is issued 2 issue slots before its operand %e "
                              "is ready (from `v_exp_f32` on line 4, "
                              "latency 4)"),
            std::string::npos)
      << diag.message;
  ASSERT_EQ(diag.related.size(), 1u);
  EXPECT_EQ(diag.related[0].location.range.start, d.pos("%e ="));
  d.settings.stallThresholdCycles = 3;
  EXPECT_TRUE(lintsWithCode(d, "stall").empty());
}

// An MFMA result is read after its wait states, which the hazard pass's
// s_nops provide: the wait shows as a hazard, not as an operand stall.
TEST(Lints, MFMAResultWaitIsAHazardNop) {
  ServerDoc d(serverProgram(kMfmaStall));
  ASSERT_TRUE(d.compiled->succeeded());
  d.settings.stallThresholdCycles = 1;
  EXPECT_TRUE(lintsWithCode(d, "stall").empty());
  std::vector<lsp::Diagnostic> hazards = lintsWithCode(d, "hazard");
  ASSERT_EQ(hazards.size(), 2u);
  EXPECT_EQ(hazards[0].range.start, d.pos("waveasm.v_mfma", 0, 1));
  EXPECT_EQ(hazards[1].range.start, d.pos("waveasm.buffer_store_dword"));
  for (const lsp::Diagnostic &hazard : hazards)
    EXPECT_NE(hazard.message.find("s_nop 7"), std::string::npos)
        << hazard.message;
}

TEST(Lints, PressurePastABreakpoint) {
  ServerDoc d(pressureKernel());
  ASSERT_TRUE(d.compiled->succeeded());
  std::vector<lsp::Diagnostic> pressure = lintsWithCode(d, "pressure");
  ASSERT_EQ(pressure.size(), 1u);
  const lsp::Diagnostic &diag = pressure[0];
  EXPECT_EQ(diag.severity, lsp::DiagnosticSeverity::Warning);
  // 17 x 4 VGPRs + v0 = 69: free 5 to get back to 64 and 8 waves.
  EXPECT_NE(diag.message.find("69 VGPRs are live here"), std::string::npos)
      << diag.message;
  EXPECT_NE(diag.message.find("free 5 VGPRs to reach 8 waves"),
            std::string::npos)
      << diag.message;
  EXPECT_EQ(diag.related.size(), 5u); // the largest live blocks
  // Below the breakpoint: no lint.
  ServerDoc small(serverProgram(kLoadUse));
  EXPECT_TRUE(lintsWithCode(small, "pressure").empty());
}

TEST(Lints, HazardNopBeforeTransUse) {
  ServerDoc d(serverProgram(kTrans));
  ASSERT_TRUE(d.compiled->succeeded());
  std::vector<lsp::Diagnostic> hazards = lintsWithCode(d, "hazard");
  ASSERT_EQ(hazards.size(), 1u);
  EXPECT_EQ(hazards[0].range.start, d.pos("waveasm.v_add_u32"));
  EXPECT_NE(hazards[0].message.find("s_nop 0"), std::string::npos)
      << hazards[0].message;
  EXPECT_NE(hazards[0].message.find("transcendental"), std::string::npos);
  ASSERT_EQ(hazards[0].related.size(), 1u);
  EXPECT_EQ(hazards[0].related[0].location.range.start, d.pos("%e ="));
}

TEST(Lints, WaitcntThatStalls) {
  ServerDoc d(serverProgram(kLoadUse));
  std::vector<lsp::Diagnostic> waits = lintsWithCode(d, "waitcnt");
  ASSERT_EQ(waits.size(), 1u);
  EXPECT_EQ(waits[0].range.start, d.pos("waveasm.v_add_u32"));
  EXPECT_NE(waits[0].message.find("waits 99 issue slots"), std::string::npos)
      << waits[0].message;
  EXPECT_NE(waits[0].message.find("buffer_load_dword` on line 5"),
            std::string::npos)
      << waits[0].message;
  EXPECT_EQ(waits[0].severity, lsp::DiagnosticSeverity::Information);
  // Above the threshold: nothing.
  d.settings.waitcntStallThresholdCycles = 100;
  EXPECT_TRUE(lintsWithCode(d, "waitcnt").empty());
}

TEST(Lints, SeveritySettings) {
  ServerDoc d(serverProgram(kLoadUse));
  ASSERT_EQ(lintsWithCode(d, "waitcnt").size(), 1u);
  d.settings.severityOf(LintCode::Waitcnt) = LintSeverity::Off;
  EXPECT_TRUE(lintsWithCode(d, "waitcnt").empty());
  d.settings.severityOf(LintCode::Waitcnt) = LintSeverity::Error;
  ASSERT_EQ(lintsWithCode(d, "waitcnt").size(), 1u);
  EXPECT_EQ(lintsWithCode(d, "waitcnt")[0].severity,
            lsp::DiagnosticSeverity::Error);
  // computeDiagnostics = parse errors + pipeline errors + lints.
  EXPECT_EQ(computeDiagnostics(*d.parsed, d.compiled.get(), d.settings).size(),
            1u);
  EXPECT_EQ(parseLintSeverity("Warning"), LintSeverity::Warning);
  EXPECT_EQ(parseLintSeverity("information"), LintSeverity::Info);
  EXPECT_FALSE(parseLintSeverity("loud"));
  EXPECT_EQ(parseLintCode("hazard"), LintCode::Hazard);
  EXPECT_EQ(stringifyLintCode(LintCode::Pressure), "pressure");
}

//===--- the examples -----------------------------------------------------===//

TEST(FeaturesOnExamples, EveryExampleCompilesAndAnnotates) {
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(waveasm::test::examplesDir(), ec),
       end;
       it != end && !ec; it.increment(ec)) {
    if (!llvm::StringRef(it->path()).ends_with(".mlir"))
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    ASSERT_TRUE(buffer);
    ServerDoc d((*buffer)->getBuffer().str());
    EXPECT_TRUE(d.parsed->getDiagnostics().empty()) << it->path();
    EXPECT_TRUE(d.compiled->succeeded()) << it->path();
    lsp::Range all{{0, 0}, {100000, 0}};
    std::vector<lsp::InlayHint> hints =
        computeInlayHints(*d.parsed, d.compiled.get(), all, d.settings);
    EXPECT_GT(hints.size(), 10u) << it->path();
    // Programs using AGPRs show them on every pressure hint, others never.
    bool agprs = llvm::StringRef(it->path()).contains("agpr");
    bool shown = llvm::any_of(hints, [](const lsp::InlayHint &h) {
      return llvm::StringRef(h.label).contains("\xC2\xB7 a ");
    });
    EXPECT_EQ(shown, agprs) << it->path();
    EXPECT_FALSE(computeCodeLenses(*d.parsed, d.compiled.get()).empty());
    EXPECT_FALSE(computeDocumentSymbols(*d.parsed).empty());
    (void)computeLints(*d.parsed, *d.compiled, d.settings);
  }
}
