//===- CompletionTest.cpp - completion, signature help, op signatures -----===//

#include "ServerTestUtils.h"

#include "ir/Dialect.h"
#include "ir/OpSignatures.h"
#include "server/Completion.h"
#include "server/features/OpLineContext.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/StringExtras.h"

#include "gtest/gtest.h"

#include <regex>

using namespace waveasm;
using namespace waveasm::server;
using waveasm::test::ServerDoc;

namespace {

//===--- the generated signature table ------------------------------------===//

TEST(OpSignatures, EveryRegisteredOpHasOne) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<WaveASMDialect>();
  unsigned ops = 0;
  for (mlir::RegisteredOperationName name : ctx.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "waveasm")
      continue;
    ++ops;
    EXPECT_NE(lookupOpSignature(name.getStringRef()), nullptr)
        << name.getStringRef().str();
  }
  EXPECT_EQ(ops, getOpSignatures().size());
  EXPECT_EQ(lookupOpSignature("waveasm.v_bogus"), nullptr);
}

TEST(OpSignatures, GroupsAndWidthsComeFromODS) {
  const OpSignature *add = lookupOpSignature("v_add_u32");
  ASSERT_TRUE(add);
  ASSERT_EQ(add->numOperands, 2u);
  EXPECT_STREQ(add->operands()[0].summary, "VALU source operand");
  EXPECT_EQ(add->operands()[0].kinds,
            unsigned(KindVReg | KindSReg | KindPVReg | KindPSReg | KindImm));
  EXPECT_EQ(add->unit, ExecUnit::VALU);

  const OpSignature *mfma = lookupOpSignature("v_mfma_f32_32x32x8_f16");
  ASSERT_TRUE(mfma);
  EXPECT_EQ(mfma->mfmaWidth, 16);
  EXPECT_EQ(mfma->operands()[2].width, 16); // acc
  EXPECT_EQ(mfma->results()[0].width, 16);
  // A and B: from the op's ODS record (the verifier does not check them).
  EXPECT_EQ(mfma->operands()[0].width, 2);
  EXPECT_EQ(mfma->operands()[1].width, 2);
  EXPECT_EQ(lookupOpSignature("v_mfma_f32_16x16x32_f16")->operands()[0].width,
            4);
  EXPECT_EQ(lookupOpSignature("v_mfma_f32_16x16x4_f32")->operands()[1].width,
            1);
  // The scaled ones: cbsz/blgp decide.
  EXPECT_EQ(lookupOpSignature("v_mfma_scale_f32_16x16x128_f8f6f4")
                ->operands()[0]
                .width,
            0);

  const OpSignature *load = lookupOpSignature("buffer_load_dwordx4");
  ASSERT_TRUE(load);
  EXPECT_EQ(load->operands()[0].width, 4); // the descriptor
  EXPECT_EQ(load->results()[0].width, 4);  // four dwords
  const OpFormat &format = getOpFormat(*load);
  EXPECT_TRUE(llvm::any_of(format.elements, [](const FormatElement &el) {
    return el.kind == FormatElement::Optional && el.text == "offset";
  }));
}

TEST(OpSignatures, AcceptsChecksKindAndWidth) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<WaveASMDialect>();
  auto type = [&](llvm::StringRef text) { return mlir::parseType(text, &ctx); };
  const ValueSig &acc =
      lookupOpSignature("v_mfma_f32_16x16x16_f16")->operands()[2];
  EXPECT_TRUE(acc.accepts(type("!waveasm.vreg<4, 4>")));
  EXPECT_TRUE(acc.accepts(type("!waveasm.areg<4>")));
  EXPECT_TRUE(acc.accepts(type("!waveasm.imm<0>")));
  EXPECT_FALSE(acc.accepts(type("!waveasm.vreg<16>")));
  EXPECT_FALSE(acc.accepts(type("!waveasm.sreg<4>")));
  const ValueSig &src = lookupOpSignature("v_add_u32")->operands()[0];
  EXPECT_FALSE(src.accepts(type("!waveasm.areg")));
  EXPECT_FALSE(src.accepts(type("!waveasm.scc")));
}

//===--- where the cursor is ----------------------------------------------===//

OpLineContext at(llvm::StringRef lineWithCursor) {
  // The context points into the line: keep every line alive.
  static std::vector<std::unique_ptr<std::string>> lines;
  size_t column = lineWithCursor.find('|');
  lines.push_back(
      std::make_unique<std::string>((lineWithCursor.take_front(column) +
                                     lineWithCursor.drop_front(column + 1))
                                        .str()));
  return analyzeOpLine(*lines.back(), column);
}

TEST(OpLineContext, FollowsTheFormat) {
  using W = OpLineContext::Where;
  EXPECT_EQ(at("  %x = waveasm.v_a|").where, W::OpName);
  EXPECT_EQ(at("  %x = waveasm.v_a|").prefix, "waveasm.v_a");
  EXPECT_EQ(at("  |").where, W::OpName);
  EXPECT_EQ(at("  %x|").where, W::ResultName);
  OpLineContext c = at("%x = waveasm.v_add_u32 %a, |");
  EXPECT_EQ(c.where, W::Operand);
  EXPECT_EQ(c.slot, 1u);
  EXPECT_EQ(c.operandTexts[0], "%a");
  c = at("%x = waveasm.v_add_u32 %a, %b : !waveasm.vreg, !waveasm.s|");
  EXPECT_EQ(c.where, W::TypeSlot);
  EXPECT_EQ(c.slot, 1u);
  EXPECT_EQ(c.prefix, "!waveasm.s");
  c = at("%x = waveasm.v_add_u32 %a, %b : !waveasm.vreg, !waveasm.vreg -> |");
  EXPECT_EQ(c.where, W::TypeSlot);
  EXPECT_EQ(c.slot, kResultTypeBase);
  // An optional keyword group and an attribute dictionary on the way.
  c = at("%x = waveasm.buffer_load_dword %s, %v, %o offset : 16 {no_cse} : "
         "!waveasm.sreg<4>, |");
  EXPECT_EQ(c.where, W::TypeSlot);
  EXPECT_EQ(c.slot, 1u);
  c = at("%x = waveasm.buffer_load_dword %s, %v, %o {|");
  EXPECT_EQ(c.where, W::AttrName);
  c = at("%x = waveasm.ds_read_b64 %a {offset = |");
  EXPECT_EQ(c.where, W::AttrValue);
  c = at("%x = waveasm.insert %v |");
  EXPECT_EQ(c.where, W::Literal);
  ASSERT_EQ(c.keywords.size(), 1u);
  EXPECT_EQ(c.keywords[0], "into");
  // Comments and strings get nothing.
  EXPECT_EQ(at("  // waveasm.v_|").where, W::Nothing);
  EXPECT_EQ(at("  waveasm.comment \"waveasm.|").where, W::Nothing);
}

TEST(OpLineContext, NeverCrashesOnAnyPrefixOfAnyOp) {
  // Every op's full text (a snippet with its placeholders' defaults) and
  // garbage, cut at every column.
  std::vector<std::string> lines = {
      "%x = waveasm.loop (%i = %a) : (!waveasm.sreg) -> !waveasm.sreg {",
      "}}}{{{ %% !! ## ,,, :: -> <<< >>> \"unterminated",
      "waveasm.s_waitcnt vmcnt(0) lgkmcnt(",
      "%a:2, %b = waveasm.v_add_co_u32 %x#1, %y#",
      "!waveasm.vreg<4, 4 -> ( ) [ ] = = ="};
  ServerDoc doc(test::serverProgram(test::kLoadUse));
  CompletionOptions options;
  options.snippets = true;
  for (const OpSignature &sig : getOpSignatures()) {
    lsp::CompletionList list = computeCompletion(
        doc.parsed.get(), "waveasm." + std::string(sig.mnemonic),
        {0, int(strlen(sig.mnemonic)) + 8}, doc.ctx, options);
    (void)list;
    lines.push_back(sig.getName() + " " + sig.assemblyFormat);
  }
  for (const std::string &line : lines)
    for (size_t column = 0; column <= line.size(); ++column) {
      OpLineContext ctx = analyzeOpLine(line, column);
      EXPECT_LE(ctx.prefixBegin, column);
    }
}

//===--- completion -------------------------------------------------------===//

/// The document with `|` removed, and completion at the `|`.
struct Typing {
  ServerDoc good; // the last text that parsed
  std::string text;
  lsp::Position cursor;
  lsp::CompletionList list;

  Typing(llvm::StringRef goodText, llvm::StringRef typed, bool snippets = true,
         std::optional<TargetKind> targetOverride = std::nullopt)
      : good(goodText.str(), /*compile=*/false) {
    size_t at = typed.find('|');
    text = (typed.take_front(at) + typed.drop_front(at + 1)).str();
    LineTable lines(text);
    cursor = lines.getPosition(at);
    CompletionOptions options;
    options.snippets = snippets;
    options.targetOverride = targetOverride;
    list = computeCompletion(good.parsed->getModule() ? good.parsed.get()
                                                      : nullptr,
                             text, cursor, good.ctx, options);
  }
  const lsp::CompletionItem *find(llvm::StringRef label) const {
    for (const lsp::CompletionItem &item : list.items)
      if (item.label == label)
        return &item;
    return nullptr;
  }
  std::vector<std::string> labels() const {
    std::vector<std::string> out;
    for (const lsp::CompletionItem &item : list.items)
      out.push_back(item.label);
    return out;
  }
};

std::string program(llvm::StringRef body, llvm::StringRef target = "gfx942") {
  return ("waveasm.program @k target = #waveasm.target<#waveasm." + target +
          "> abi = #waveasm.abi<> {\n" + body + "}\n")
      .str();
}

const char *kLoopBody =
    R"(  %s0 = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c0s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %v = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %acc = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %ab = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %r = waveasm.loop (%i = %c0s) : (!waveasm.sreg) -> !waveasm.sreg {
    %inner = waveasm.v_add_u32 %v, %v : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
@@
    waveasm.condition %n#1 : !waveasm.scc iter_args(%n#0) : !waveasm.sreg
  }
  %after = waveasm.v_add_u32 %v, %v : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
@@@
  waveasm.s_endpgm
)";

/// kLoopBody with `inLoop` at @@ and `atEnd` at @@@ (each a line or empty).
std::string loopProgram(llvm::StringRef inLoop, llvm::StringRef atEnd,
                        llvm::StringRef target = "gfx942") {
  std::string body = kLoopBody;
  body.replace(body.find("@@@"), 3, atEnd.str());
  body.replace(body.find("@@"), 2, inLoop.str());
  return program(body, target);
}

TEST(Completion, OpNamesByRegion) {
  std::string good = loopProgram("", "");
  Typing inLoop(good, loopProgram("    %x = waveasm.|", ""));
  EXPECT_TRUE(inLoop.find("waveasm.condition"));
  EXPECT_TRUE(inLoop.find("waveasm.v_add_u32"));
  EXPECT_FALSE(inLoop.find("waveasm.yield"));
  EXPECT_FALSE(inLoop.find("waveasm.program"));

  Typing inProgram(good, loopProgram("", "  %x = waveasm.|"));
  EXPECT_FALSE(inProgram.find("waveasm.condition"));
  EXPECT_TRUE(inProgram.find("waveasm.loop"));

  std::string withIf = program("  %c = waveasm.constant 0 : !waveasm.imm<0>\n"
                               "  waveasm.if %c : !waveasm.imm<0> {\n"
                               "    waveasm.|\n  }\n");
  Typing inIf(good, withIf);
  EXPECT_TRUE(inIf.find("waveasm.yield"));
  EXPECT_FALSE(inIf.find("waveasm.condition"));

  Typing outside(good, good + "waveasm.|");
  EXPECT_EQ(outside.labels(), std::vector<std::string>{"waveasm.program"});
}

TEST(Completion, OpNamesByTarget) {
  std::string good = loopProgram("", "");
  Typing gfx942(good, loopProgram("", "  %x = waveasm.v_mfma|"));
  EXPECT_TRUE(gfx942.find("waveasm.v_mfma_f32_16x16x16_f16"));
  EXPECT_FALSE(gfx942.find("waveasm.v_mfma_f32_16x16x32_f16")); // gfx950 only
  Typing gfx950(good, loopProgram("", "  %x = waveasm.v_mfma|", "gfx950"));
  EXPECT_TRUE(gfx950.find("waveasm.v_mfma_f32_16x16x32_f16"));
  // The `target` setting overrides the program's.
  Typing overridden(good, loopProgram("", "  %x = waveasm.v_mfma|"), true,
                    TargetKind::gfx950);
  EXPECT_TRUE(overridden.find("waveasm.v_mfma_f32_16x16x32_f16"));
}

TEST(Completion, OpItemIsASnippetOfTheWholeOp) {
  std::string good = loopProgram("", "");
  Typing typing(good, loopProgram("", "  %x = waveasm.v_add|"));
  const lsp::CompletionItem *add = typing.find("waveasm.v_add_u32");
  ASSERT_TRUE(add);
  EXPECT_EQ(add->format, lsp::InsertTextFormat::Snippet);
  EXPECT_EQ(add->textEdit.newText,
            "waveasm.v_add_u32 ${1:%src0}, ${2:%src1} : ${3:!waveasm.vreg}, "
            "${4:!waveasm.vreg} -> ${5:!waveasm.vreg}$0");
  EXPECT_EQ(add->textEdit.range.start.character, 7); // replaces "waveasm.v_add"
  EXPECT_NE(add->detail.find("VALU"), std::string::npos);
  // Nothing before the op: result names are part of the snippet.
  Typing bare(good, loopProgram("", "  waveasm.v_add_u3|"));
  EXPECT_EQ(
      bare.find("waveasm.v_add_u32")->textEdit.newText.rfind("${1:%dst} = ", 0),
      0u);
  // Without snippet support: the name only.
  Typing plain(good, loopProgram("", "  %x = waveasm.v_add|"), false);
  EXPECT_EQ(plain.find("waveasm.v_add_u32")->textEdit.newText,
            "waveasm.v_add_u32");
  EXPECT_EQ(plain.find("waveasm.v_add_u32")->format,
            lsp::InsertTextFormat::PlainText);
}

/// The snippet with each placeholder replaced: operands by `values` in
/// order, everything else by its default.
std::string instantiate(llvm::StringRef snippet,
                        std::vector<std::string> values) {
  std::string out;
  size_t next = 0;
  std::regex placeholder(R"(\$\{\d+:([^}]*)\}|\$0)");
  std::string text = snippet.str();
  std::sregex_iterator it(text.begin(), text.end(), placeholder), end;
  size_t last = 0;
  for (; it != end; ++it) {
    out += text.substr(last, it->position() - last);
    std::string fill = (*it)[1];
    if (llvm::StringRef(fill).starts_with("%") && next < values.size())
      fill = values[next++];
    out += fill;
    last = it->position() + it->length();
  }
  return out + text.substr(last);
}

TEST(Completion, InstantiatedSnippetsVerify) {
  // Operands named by values of the snippet's default types; the result
  // name bound by the snippet itself.
  struct Case {
    const char *op;
    std::vector<std::string> operands;
  };
  const char *preamble =
      "  %pv = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg\n"
      "  %pv2 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2>\n"
      "  %pv4 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4>\n"
      "  %ps = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg\n";
  // The result names the snippet binds come first.
  std::vector<Case> cases = {
      {"v_add_u32", {"%out", "%pv", "%pv"}},
      {"v_fma_f32", {"%out", "%pv", "%pv", "%pv"}},
      {"s_add_u32", {"%out", "%scc", "%ps", "%ps"}},
      {"ds_read_b64", {"%out", "%pv"}},
      {"v_mfma_f32_16x16x16_f16", {"%out", "%pv2", "%pv2", "%pv4"}},
  };
  std::string good = loopProgram("", "");
  for (const Case &c : cases) {
    Typing typing(good, loopProgram("", std::string(preamble) + "  waveasm." +
                                            c.op + "|"));
    // The preamble's values are not in the last good parse: they come
    // from the edited lines' text.
    const lsp::CompletionItem *item =
        typing.find(("waveasm." + llvm::Twine(c.op)).str());
    ASSERT_TRUE(item) << c.op;
    std::string line = instantiate(item->textEdit.newText, c.operands);
    std::string fixed = loopProgram("", std::string(preamble) + "  " + line);
    ServerDoc doc(fixed, /*compile=*/false);
    EXPECT_TRUE(doc.parsed->isVerified())
        << c.op << ": " << line << "\n"
        << (doc.parsed->getDiagnostics().empty()
                ? ""
                : doc.parsed->getDiagnostics()[0].message);
  }
}

TEST(Completion, ValuesInScopeFitTheOperand) {
  std::string good = loopProgram("", "");
  // A VALU source in the loop body: VGPRs and SGPRs defined above, the
  // loop's block argument; not SCC values, not later values.
  Typing inLoop(good, loopProgram("    %x = waveasm.v_add_u32 |", ""));
  EXPECT_TRUE(inLoop.find("%v"));
  EXPECT_TRUE(inLoop.find("%i"));      // block argument
  EXPECT_TRUE(inLoop.find("%n"));      // %n#0, an SGPR
  EXPECT_FALSE(inLoop.find("%n#1"));   // SCC
  EXPECT_FALSE(inLoop.find("%after")); // defined later
  // After the loop: the loop's values are out of scope, its result is in.
  Typing after(good, loopProgram("", "  %x = waveasm.v_add_u32 %|"));
  EXPECT_FALSE(after.find("%inner"));
  EXPECT_FALSE(after.find("%i"));
  EXPECT_TRUE(after.find("%r"));
  EXPECT_TRUE(after.find("%after"));
  // Nearest definition first.
  EXPECT_EQ(after.list.items.front().label, "%after");
  // An MFMA accumulator needs 4 registers (or 1, or an immediate).
  Typing acc(good, loopProgram(
                       "", "  %x = waveasm.v_mfma_f32_16x16x16_f16 %v, %v, |"));
  EXPECT_TRUE(acc.find("%acc"));
  EXPECT_TRUE(acc.find("%c0"));
  EXPECT_FALSE(acc.find("%s0")); // SGPRs are no accumulator
  // A and B of a 16x16x16 f16 MFMA: two VGPRs each.
  Typing a(good, loopProgram("", "  %x = waveasm.v_mfma_f32_16x16x16_f16 |"));
  EXPECT_TRUE(a.find("%ab"));
  EXPECT_FALSE(a.find("%v"));
  EXPECT_FALSE(a.find("%acc"));
  Typing b(good,
           loopProgram("", "  %x = waveasm.v_mfma_f32_16x16x16_f16 %ab, |"));
  EXPECT_TRUE(b.find("%ab"));
  EXPECT_FALSE(b.find("%v"));
}

TEST(Completion, TypesByOperandAndResult) {
  std::string good = loopProgram("", "");
  // The operand's own type first.
  Typing own(good, loopProgram("", "  %x = waveasm.v_add_u32 %v, %s0 : |"));
  ASSERT_FALSE(own.list.items.empty());
  EXPECT_EQ(own.list.items[0].label, "!waveasm.vreg");
  EXPECT_TRUE(own.list.items[0].preselect);
  EXPECT_FALSE(own.find("!waveasm.areg")); // no AGPRs in a VALU source
  // The result of a 4-dword load: four registers.
  Typing load(good, loopProgram("", "  %x = waveasm.buffer_load_dwordx4 %s0, "
                                    "%v, %c0 : !waveasm.psreg<4, 4>, "
                                    "!waveasm.vreg, !waveasm.imm<0> -> |"));
  EXPECT_TRUE(load.find("!waveasm.vreg<4>"));
  EXPECT_FALSE(load.find("!waveasm.vreg"));
  EXPECT_FALSE(load.find("!waveasm.sreg<4>"));
  // An MFMA's result: its accumulator's type first.
  Typing mfma(good, loopProgram("", "  %x = waveasm.v_mfma_f32_16x16x16_f16 "
                                    "%v, %v, %acc : !waveasm.vreg, "
                                    "!waveasm.vreg, !waveasm.vreg<4, 4> -> |"));
  EXPECT_EQ(mfma.list.items[0].label, "!waveasm.vreg<4, 4>");
}

TEST(Completion, AttributesOfTheOp) {
  std::string good = loopProgram("", "");
  Typing ds(good, loopProgram("", "  %x = waveasm.ds_read_b64 %v {|"));
  EXPECT_TRUE(ds.find("offset"));
  EXPECT_TRUE(ds.find("no_cse"));
  EXPECT_FALSE(ds.find("cbsz"));
  EXPECT_EQ(ds.find("no_cse")->textEdit.newText, "no_cse"); // a unit attr
  Typing scaled(
      good, loopProgram("", "  %x = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 "
                            "%v, %v, %v, %v, %v {|"));
  EXPECT_TRUE(scaled.find("cbsz"));
  Typing target(good, "waveasm.program @k target = #wave|");
  EXPECT_TRUE(target.find("#waveasm.gfx950"));
}

TEST(Completion, BrokenTextUsesTheLastGoodParse) {
  std::string good = loopProgram("", "");
  // Unbalanced braces and a half-typed type above the cursor.
  std::string broken =
      loopProgram("", "  %half = waveasm.v_add_u32 %v, %v : !waveasm.vr\n  {{\n"
                      "  %y = waveasm.v_add_u32 %|");
  Typing typing(good, broken);
  EXPECT_TRUE(typing.find("%after"));
  EXPECT_TRUE(typing.find("%v"));
  EXPECT_FALSE(typing.find("%half")); // its type does not parse yet
  // A file with no good parse: values from the text alone.
  Typing none("garbage {",
              program("  %c = waveasm.constant 0 : !waveasm.imm<0>\n"
                      "  %x = waveasm.v_mov_b32 %|"));
  EXPECT_TRUE(none.find("%c"));
}

TEST(Completion, ResolveAddsTheOperandTable) {
  std::string good = loopProgram("", "");
  Typing typing(good, loopProgram("", "  %x = waveasm.v_mfma_f32_16x16x16|"));
  lsp::CompletionItem item = *typing.find("waveasm.v_mfma_f32_16x16x16_f16");
  EXPECT_FALSE(item.documentation);
  resolveCompletionItem(item);
  ASSERT_TRUE(item.documentation);
  EXPECT_NE(item.documentation->value.find("| operand | `acc` | MFMA "
                                           "accumulator source | 4 |"),
            std::string::npos)
      << item.documentation->value;
}

//===--- signature help ---------------------------------------------------===//

std::optional<unsigned> activeAt(llvm::StringRef lineWithCursor) {
  size_t column = lineWithCursor.find('|');
  std::string text = program((lineWithCursor.take_front(column) +
                              lineWithCursor.drop_front(column + 1) + "\n")
                                 .str());
  LineTable lines(text);
  lsp::Position pos = lines.getPosition(text.find("\n") + 1 + column);
  std::optional<lsp::SignatureHelp> help = computeSignatureHelp(text, pos);
  if (!help)
    return 999;
  return help->activeParameter;
}

TEST(SignatureHelp, ActiveParameterAtEachPosition) {
  EXPECT_EQ(activeAt("  %x = waveasm.v_add_u32 |"), 0u);
  EXPECT_EQ(activeAt("  %x = waveasm.v_add_u32 %a|"), 0u);
  EXPECT_EQ(activeAt("  %x = waveasm.v_add_u32 %a, |"), 1u);
  EXPECT_EQ(activeAt("  %x = waveasm.v_add_u32 %a, %b : |"), 0u);
  EXPECT_EQ(activeAt("  %x = waveasm.v_add_u32 %a, %b : !waveasm.vreg, |"), 1u);
  EXPECT_EQ(activeAt("  %x = waveasm.v_add_u32 %a, %b : !waveasm.vreg, "
                     "!waveasm.vreg -> |"),
            2u);                                    // the result
  EXPECT_EQ(activeAt("  %x = waveasm.v_a|"), 999u); // no op yet
}

TEST(SignatureHelp, LabelsAndContinuationLines) {
  std::string text =
      program("  %p = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %c\n"
              "      : !waveasm.vreg<2>, !waveasm.vreg<2>, \n");
  LineTable lines(text);
  lsp::Position pos = lines.getPosition(text.rfind(", \n") + 2);
  std::optional<lsp::SignatureHelp> help = computeSignatureHelp(text, pos);
  ASSERT_TRUE(help);
  ASSERT_EQ(help->activeParameter, 2u); // acc's type, on the next line
  const lsp::SignatureInformation &sig = help->signatures[0];
  const lsp::ParameterInformation &acc = sig.parameters[2];
  EXPECT_EQ(sig.label.substr(acc.labelStart, acc.labelEnd - acc.labelStart),
            "acc: MFMA accumulator source");
  EXPECT_NE(acc.documentation->value.find("4 registers"), std::string::npos);
}

} // namespace
