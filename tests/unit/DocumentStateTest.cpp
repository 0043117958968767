//===- DocumentStateTest.cpp - parsed and compiled document snapshots -----===//

#include "ServerTestUtils.h"
#include "TestPaths.h"

#include <gtest/gtest.h>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <random>
#include <thread>

using namespace waveasm;
using namespace waveasm::server;
using waveasm::test::kLoadUse;
using waveasm::test::ServerDoc;
using waveasm::test::serverProgram;

namespace {

/// True if every range of the diagnostics lies inside the document.
void expectRangesInside(const ParsedDocument &doc) {
  int lines = doc.getLines().getNumLines();
  for (const lsp::Diagnostic &d : doc.getDiagnostics()) {
    EXPECT_GE(d.range.start.line, 0);
    EXPECT_LT(d.range.end.line, lines);
    EXPECT_TRUE(d.range.start <= d.range.end);
    EXPECT_FALSE(d.message.empty());
  }
}

} // namespace

//===--- positions --------------------------------------------------------===//

TEST(DocumentStatePositions, Utf16Columns) {
  // é: 2 bytes, 1 unit; 𝄞: 4 bytes, 2 units (a surrogate pair).
  std::string text = "ab\n// \xC3\xA9\xF0\x9D\x84\x9E x\nlast";
  LineTable lines(text);
  ASSERT_EQ(lines.getNumLines(), 3u);
  size_t x = text.find(" x") + 1;
  EXPECT_EQ(lines.getPosition(x), (lsp::Position{1, 7}));
  EXPECT_EQ(lines.getOffset({1, 7}), x);
  // Round trip over every code-unit boundary of the line.
  for (int c = 0; c <= 8; ++c) {
    if (c == 5) // the middle of the surrogate pair has no byte offset
      continue;
    EXPECT_EQ(lines.getPosition(lines.getOffset({1, c})).character, c);
  }
  // Past the end clamps.
  EXPECT_EQ(lines.getOffset({0, 99}), 2u);
  EXPECT_EQ(lines.getOffset({9, 0}), text.size());
  EXPECT_EQ(utf16Length("\xC3\xA9\xF0\x9D\x84\x9E"), 3);
  // Invalid UTF-8 counts a unit per byte and never reads past the end.
  EXPECT_EQ(utf16Length("\xF0\x9D"), 2);
}

TEST(DocumentStatePositions, SMLocRoundTrip) {
  ServerDoc d(serverProgram(kLoadUse), /*compile=*/false);
  lsp::Position p = d.pos("%x = ");
  llvm::SMLoc loc = d.parsed->getSMLoc(p);
  EXPECT_TRUE(llvm::StringRef(loc.getPointer()).starts_with("%x = "));
  EXPECT_EQ(d.parsed->getPosition(loc), p);
}

//===--- parse and verify diagnostics -------------------------------------===//

TEST(DocumentStateDiagnostics, ParseErrorRangeIsTheToken) {
  ServerDoc d(serverProgram("  %y = waveasm.v_add_u32 %nope, %nope : "
                            "!waveasm.vreg, !waveasm.vreg -> !waveasm.vreg\n"),
              false);
  EXPECT_FALSE(d.parsed->getModule());
  ASSERT_EQ(d.parsed->getDiagnostics().size(), 1u);
  const lsp::Diagnostic &diag = d.parsed->getDiagnostics()[0];
  EXPECT_EQ(diag.severity, lsp::DiagnosticSeverity::Error);
  EXPECT_NE(diag.message.find("undeclared SSA value"), std::string::npos)
      << diag.message;
  lsp::Position start = d.pos("%nope");
  EXPECT_EQ(diag.range.start, start);
  EXPECT_EQ(diag.range.end, (lsp::Position{start.line, start.character + 5}));
}

TEST(DocumentStateDiagnostics, NonAsciiBeforeTheErrorColumn) {
  // A string attribute with non-ASCII text precedes the bad type on the
  // same line, and a non-ASCII comment sits on the line before: columns
  // must be UTF-16 code units, not bytes.
  std::string body =
      "  %c0 = waveasm.constant 0 : !waveasm.imm<0>\n"
      "  // r\xC3\xA9sum\xC3\xA9 \xF0\x9F\x98\x80 of the next line\n"
      "  %v = waveasm.v_mov_b32 %c0 {note = \"\xC3\xA9\xF0\x9D\x84\x9E\"} : "
      "!waveasm.imm<0> -> !waveasm.bogus\n";
  ServerDoc d(serverProgram(body), false);
  ASSERT_FALSE(d.parsed->getDiagnostics().empty());
  const lsp::Diagnostic &diag = d.parsed->getDiagnostics()[0];
  // Find the byte column of the reported token and convert by hand.
  std::string line = d.parsed->getLines().getLine(diag.range.start.line).str();
  ASSERT_NE(line.find("bogus"), std::string::npos) << diag.message;
  size_t byteCol = line.find("!waveasm.bogus");
  int utf16Col = utf16Length(llvm::StringRef(line).take_front(byteCol));
  EXPECT_EQ(byteCol - utf16Col, 3u); // é (1 extra byte) + 𝄞 (2 extra)
  // The diagnostic points into `!waveasm.bogus`, in UTF-16 units.
  EXPECT_GE(diag.range.start.character, utf16Col);
  EXPECT_LE(diag.range.end.character,
            utf16Col + static_cast<int>(strlen("!waveasm.bogus")));
  EXPECT_GT(diag.range.end.character, diag.range.start.character);
}

TEST(DocumentStateDiagnostics, NotesBecomeRelatedInformation) {
  std::string body =
      "  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>\n"
      "  %sum = waveasm.v_add_u32 %tid, %late : !waveasm.pvreg<0>, "
      "!waveasm.vreg -> !waveasm.vreg\n"
      "  %late = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> "
      "!waveasm.vreg\n";
  ServerDoc d(serverProgram(body), false);
  // It parses but does not verify: navigation still works.
  ASSERT_TRUE(d.parsed->getModule());
  EXPECT_FALSE(d.parsed->isVerified());
  EXPECT_FALSE(d.parsed->getOps().empty());
  ASSERT_EQ(d.parsed->getDiagnostics().size(), 1u);
  const lsp::Diagnostic &diag = d.parsed->getDiagnostics()[0];
  EXPECT_NE(diag.message.find("does not dominate"), std::string::npos);
  EXPECT_EQ(diag.range.start.line, d.line("%sum ="));
  // MLIR's "see current operation" note (the op in generic form) is
  // dropped: the editor shows the op itself.
  ASSERT_EQ(diag.related.size(), 1u);
  EXPECT_NE(diag.related[0].message.find("operand defined here"),
            std::string::npos);
  EXPECT_EQ(diag.related[0].location.uri, "file:///test.mlir");
  EXPECT_EQ(diag.related[0].location.range.start.line, d.line("%late ="));
  // An unverified document does not compile.
  CompiledDocument compiled(*d.parsed, {});
  EXPECT_FALSE(compiled.succeeded());
}

TEST(DocumentStateDiagnostics, ExplicitLocationsFallBackToTheOp) {
  // A verifier error on an op whose location was written as loc("I3"):
  // the diagnostic carries no file position, the op name is used.
  std::string body =
      "  %count = waveasm.precolored.sreg 6 : !waveasm.psreg<6>\n"
      "  %f = waveasm.v_cvt_f32_u32 %count : !waveasm.psreg<6> "
      "-> !waveasm.vreg loc(\"I3\")\n";
  ServerDoc d(serverProgram(body), false);
  ASSERT_EQ(d.parsed->getDiagnostics().size(), 1u);
  EXPECT_EQ(d.parsed->getDiagnostics()[0].range.start,
            d.pos("waveasm.v_cvt_f32_u32"));
  // Same for a position in another file.
  std::string other = body;
  other.replace(other.find("loc(\"I3\")"), 9, "loc(\"gen.py\":7:1)");
  ServerDoc e(serverProgram(other), false);
  ASSERT_EQ(e.parsed->getDiagnostics().size(), 1u);
  EXPECT_EQ(e.parsed->getDiagnostics()[0].range.start,
            e.pos("waveasm.v_cvt_f32_u32"));
}

TEST(DocumentStateDiagnostics, NeverCrashesOnGarbage) {
  mlir::MLIRContext ctx;
  std::vector<std::string> inputs = {
      "",
      "\n\n",
      "waveasm.program",
      "waveasm.program @k {",
      "}}}}",
      std::string("a\0b", 3),
      "\xFF\xFE\xC3",
      "%x = ",
      "\"unterminated",
      "waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = "
      "#waveasm.abi<> { %x = waveasm.v_mov_b32 %x : !waveasm.vreg -> "
      "!waveasm.vreg }",
      std::string(100000, '('),
      std::string(5000, '[') + "!waveasm.vreg",
      "// only a comment \xF0\x9F\x98\x80"};
  // Every prefix of a real kernel (every 37 bytes).
  std::string kernel = serverProgram(kLoadUse);
  for (size_t n = 0; n < kernel.size(); n += 37)
    inputs.push_back(kernel.substr(0, n));
  // Random bytes, and random single-byte mutations of the kernel.
  std::mt19937 rng(42);
  for (int i = 0; i < 30; ++i) {
    std::string random(200, ' ');
    for (char &c : random)
      c = static_cast<char>(rng() % 256);
    inputs.push_back(random);
    std::string mutated = kernel;
    mutated[rng() % mutated.size()] = "%:<>{}()\"#!@,=\n\xC3"[rng() % 17];
    inputs.push_back(mutated);
  }
  for (auto [i, text] : llvm::enumerate(inputs)) {
    ParsedDocument doc(ctx, "file:///g.mlir", text, i);
    expectRangesInside(doc);
    CompiledDocument compiled(doc, {});
    // Every feature copes with whatever was parsed.
    lsp::Range all{{0, 0}, {1000, 0}};
    (void)computeDiagnostics(doc, &compiled, {});
    (void)computeInlayHints(doc, &compiled, all, {});
    (void)computeSemanticTokens(doc);
    (void)computeDocumentSymbols(doc);
    (void)computeFoldingRanges(doc);
    (void)computeCodeLenses(doc, &compiled);
    for (int line = 0; line < 3; ++line)
      for (int c = 0; c < 40; c += 3) {
        (void)computeHover(doc, &compiled, {line, c});
        (void)findReferences(doc, {line, c});
      }
  }
  ParsedDocument deep(ctx, "file:///g.mlir", std::string(100000, '('), 0);
  ASSERT_EQ(deep.getDiagnostics().size(), 1u);
  EXPECT_NE(deep.getDiagnostics()[0].message.find("nested"), std::string::npos);
}

TEST(DocumentStateDiagnostics, MutatedExamplesNeverCrash) {
  // Like tests/robustness, in process and through every feature: some
  // mutations still verify and go through the pipeline.
  mlir::MLIRContext ctx;
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(waveasm::test::examplesDir(), ec),
       end;
       it != end && !ec; it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".mlir"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  std::mt19937 rng(7);
  int compiled = 0;
  for (const std::string &path : files) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(buffer);
    std::string src = (*buffer)->getBuffer().str();
    for (int trial = 0; trial < 24; ++trial) {
      std::string text = src;
      size_t pos = rng() % text.size();
      switch (trial % 4) {
      case 0:
        text.resize(pos);
        break;
      case 1:
        text[pos] = static_cast<char>(rng() % 256);
        break;
      case 2:
        text.erase(pos, std::min<size_t>(rng() % 80, text.size() - pos));
        break;
      case 3: { // duplicate a line
        size_t start = text.rfind('\n', pos);
        start = start == std::string::npos ? 0 : start + 1;
        size_t end = text.find('\n', pos);
        end = end == std::string::npos ? text.size() : end + 1;
        text.insert(end, text.substr(start, end - start));
        break;
      }
      }
      ParsedDocument doc(ctx, "file:///m.mlir", text, trial);
      expectRangesInside(doc);
      CompiledDocument comp(doc, {});
      compiled += comp.succeeded();
      lsp::Range all{{0, 0}, {100000, 0}};
      (void)computeDiagnostics(doc, &comp, {});
      (void)computeInlayHints(doc, &comp, all, {});
      (void)computeSemanticTokens(doc);
      (void)computeDocumentSymbols(doc);
      (void)computeFoldingRanges(doc);
      (void)computeCodeLenses(doc, &comp);
      if (comp.succeeded()) {
        (void)renderMetricsTable(doc, comp);
        (void)renderInstructionTable(doc, comp);
      }
      for (unsigned i = 0; i < doc.getOps().size(); i += 7) {
        (void)computeHover(doc, &comp, doc.getOps()[i].name.start);
        (void)computeHover(doc, &comp, doc.getOps()[i].scope.end);
      }
      for (unsigned i = 0; i < doc.getOccurrences().size(); i += 5) {
        lsp::Position p = doc.getOccurrences()[i].range.start;
        (void)computeHover(doc, &comp, p);
        (void)renameValue(doc, p, "%renamed");
      }
    }
  }
  EXPECT_GT(compiled, 0); // some mutations keep the IR valid
}

//===--- indexes ----------------------------------------------------------===//

TEST(DocumentStateIndexes, OpsNamesAndTags) {
  ServerDoc d(serverProgram(kLoadUse), false);
  const ParsedDocument &doc = *d.parsed;
  ASSERT_TRUE(doc.isVerified());
  ASSERT_EQ(doc.getPrograms().size(), 1u);
  // program + 7 ops, in source order.
  ASSERT_EQ(doc.getOps().size(), 8u);
  for (unsigned i = 1; i < doc.getOps().size(); ++i)
    EXPECT_TRUE(doc.getOps()[i - 1].name.start < doc.getOps()[i].name.start);
  auto [begin, end] = doc.getOpsOnLines(d.line("%x ="), d.line("%y ="));
  ASSERT_EQ(end - begin, 2u);
  const OpEntry &load = doc.getOps()[begin];
  EXPECT_EQ(load.op->getName().getStringRef(), "waveasm.buffer_load_dword");
  EXPECT_EQ(load.name.start, d.pos("waveasm.buffer_load_dword"));
  EXPECT_EQ(load.parent, doc.getPrograms()[0]);
  // Tags are block indexes (conductor/Tags.h): the three pseudo ops are
  // I0..I2, then load, add, store, s_endpgm; the program has none.
  EXPECT_EQ(load.tag, 3);
  EXPECT_EQ(doc.getOps()[begin + 1].tag, 4);
  EXPECT_EQ(doc.getOps()[begin + 2].tag, 5);
  EXPECT_EQ(doc.getOps()[begin + 3].tag, 6);
  EXPECT_EQ(doc.getOps()[begin - 1].tag, 2);
  EXPECT_EQ(doc.getOps()[doc.getPrograms()[0]].tag, -1);
  EXPECT_EQ(formatConductorTag(17), "I17");
  // findOpAt: inside the load's operands, and in the program's body.
  EXPECT_EQ(doc.findOpAt(d.pos("%srd, %tid, %c0")), begin);
  EXPECT_EQ(doc.findOpAt({d.line("%x ="), 0}), doc.getPrograms()[0]);
  EXPECT_EQ(doc.findOpNameAt(d.pos("buffer_load_dword")), begin);
  EXPECT_EQ(doc.findOpNameAt(d.pos("%srd, %tid, %c0")), OpEntry::kNone);

  // Names: %x defined once, used twice.
  const NameOccurrence *occ = doc.findOccurrenceAt(d.pos("%x, %x", 1));
  ASSERT_TRUE(occ);
  const ValueEntry &x = doc.getValues()[occ->value];
  EXPECT_EQ(x.name, "%x");
  EXPECT_EQ(x.def.start, d.pos("%x ="));
  EXPECT_EQ(x.uses.size(), 2u);
  EXPECT_FALSE(occ->isDef);
  EXPECT_EQ(doc.lookupValue(load.op->getResult(0)), occ->value);
}

//===--- compiled documents -----------------------------------------------===//

TEST(CompiledDocument, AnnotatesInputOpsAndInsertedWaits) {
  ServerDoc d(serverProgram(kLoadUse));
  ASSERT_TRUE(d.compiled->succeeded());
  EXPECT_TRUE(d.compiled->isFor(*d.parsed));
  EXPECT_TRUE(d.compiled->getDiagnostics().empty());
  ASSERT_EQ(d.compiled->getPrograms().size(), 1u);
  auto [add, e] = d.parsed->getOpsOnLines(d.line("%y ="), d.line("%y ="));
  const CompiledOpInfo *info = d.compiled->lookup(add);
  ASSERT_TRUE(info && info->annotation);
  EXPECT_EQ(info->compiled->getName().getStringRef(), "waveasm.v_add_u32");
  EXPECT_EQ(d.compiled->lookupCompiled(info->compiled), add);
  // The vmcnt wait the pipeline inserted before the add is its wait.
  ASSERT_EQ(info->insertedBefore.size(), 1u);
  EXPECT_TRUE(llvm::StringRef(info->insertedBefore[0]->getName().getStringRef())
                  .starts_with("waveasm.s_waitcnt"));
  EXPECT_GT(info->insertedStall, 50);
  EXPECT_FALSE(d.compiled->lookupCompiled(info->insertedBefore[0]));
}

TEST(CompiledDocument, StalenessIsByVersionAndText) {
  mlir::MLIRContext ctx;
  std::string text = serverProgram(kLoadUse);
  ParsedDocument v1(ctx, "file:///a.mlir", text, 1);
  CompiledDocument c1(v1, {});
  ParsedDocument v1Again(ctx, "file:///a.mlir", text, 1);
  ParsedDocument v2(ctx, "file:///a.mlir", text + "\n", 2);
  EXPECT_TRUE(c1.isFor(v1));
  EXPECT_TRUE(c1.isFor(v1Again)); // same text, same op indexes
  EXPECT_FALSE(c1.isFor(v2));
  EXPECT_EQ(freshOrNull(v2, &c1), nullptr);
}

TEST(CompiledDocument, PipelineErrorsAreDiagnostics) {
  ServerSettings settings;
  settings.targetModelOverrides = {"latency.bogus=1"};
  ServerDoc d(serverProgram(kLoadUse), true, settings);
  EXPECT_FALSE(d.compiled->succeeded());
  ASSERT_FALSE(d.compiled->getDiagnostics().empty());
  const lsp::Diagnostic &diag = d.compiled->getDiagnostics()[0];
  EXPECT_EQ(diag.code, "pipeline");
  EXPECT_NE(diag.message.find("unknown target override"), std::string::npos);
  // Located at an op of the input (the program).
  EXPECT_EQ(diag.range.start.line, 0);
  std::vector<lsp::Diagnostic> all =
      computeDiagnostics(*d.parsed, d.compiled.get(), settings);
  EXPECT_EQ(all.size(), d.compiled->getDiagnostics().size());
}

TEST(CompiledDocument, TargetOverridesApply) {
  ServerSettings slow;
  slow.targetModelOverrides = {"latency.vmem_load=400"};
  ServerDoc base(serverProgram(kLoadUse));
  ServerDoc slower(serverProgram(kLoadUse), true, slow);
  ASSERT_TRUE(base.compiled->succeeded() && slower.compiled->succeeded());
  auto [load, e] =
      base.parsed->getOpsOnLines(base.line("%x ="), base.line("%x ="));
  EXPECT_EQ(base.compiled->lookup(load)->annotation->latency, 100);
  EXPECT_EQ(slower.compiled->lookup(load)->annotation->latency, 400);

  ServerSettings gfx950;
  gfx950.targetOverride = TargetKind::gfx950;
  ServerDoc retargeted(serverProgram(kLoadUse), true, gfx950);
  ASSERT_TRUE(retargeted.compiled->succeeded());
  EXPECT_EQ(retargeted.compiled->getPrograms()[0]
                .annotations->getProgram()
                .getTargetKind(),
            TargetKind::gfx950);
  // The input is untouched and its ops still map.
  EXPECT_EQ(retargeted.parsed->getModule()
                ->getRegion(0)
                .front()
                .getOperations()
                .size(),
            1u);
  EXPECT_TRUE(retargeted.compiled->lookup(load));
}

TEST(CompiledDocument, BuildsOnAWorkerWhileTheMainThreadParses) {
  // One shared context, as in the server: the worker compiles documents
  // (one of them failing) while the main thread parses broken text. Each
  // side must see only its own diagnostics.
  mlir::MLIRContext ctx;
  std::string good = serverProgram(kLoadUse);
  ParsedDocument parsedGood(ctx, "file:///good.mlir", good, 1);
  ServerSettings bad;
  bad.targetModelOverrides = {"latency.bogus=1"};
  std::vector<size_t> workerDiags;
  std::thread worker([&] {
    for (int i = 0; i < 20; ++i) {
      CompiledDocument ok(parsedGood, {});
      CompiledDocument failing(parsedGood, bad);
      workerDiags.push_back(ok.getDiagnostics().size() * 1000 +
                            failing.getDiagnostics().size());
    }
  });
  for (int i = 0; i < 20; ++i) {
    ParsedDocument broken(ctx, "file:///broken.mlir",
                          serverProgram("  %y = waveasm.v_mov_b32 %nope : "
                                        "!waveasm.vreg -> !waveasm.vreg\n"),
                          i);
    EXPECT_EQ(broken.getDiagnostics().size(), 1u);
    ParsedDocument fine(ctx, "file:///fine.mlir", good, i);
    EXPECT_TRUE(fine.getDiagnostics().empty());
    (void)computeInlayHints(parsedGood, nullptr, {{0, 0}, {20, 0}}, {});
  }
  worker.join();
  for (size_t n : workerDiags)
    EXPECT_EQ(n, 1u); // none for `ok`, one for `failing`

  // The name index is built on first use, possibly by two threads at once.
  for (int i = 0; i < 20; ++i) {
    ParsedDocument fresh(ctx, "file:///fresh.mlir", good, i);
    CompiledDocument compiled(fresh, {});
    size_t lints = 0;
    std::thread other(
        [&] { lints = computeLints(fresh, compiled, {}).size(); });
    lsp::Position x = fresh.getOps()[4].name.start; // the load
    EXPECT_TRUE(computeHover(fresh, &compiled, x));
    EXPECT_EQ(fresh.getValues().size(), 5u);
    other.join();
    EXPECT_EQ(lints, 1u); // the waitcnt
  }
}
