//===- QuickFixesTest.cpp - quick fixes applied and re-verified -----------===//
//
// Each fix of server/features/QuickFixes.cpp on a small program: the
// diagnostic is produced the way the server produces it (parse and verify,
// the background compile, the lints), the fix is asked for with that
// diagnostic, its edit is applied, and the result is parsed, verified (and
// compiled where the diagnostic came from the pipeline) again: the
// diagnostic must be gone. Ambiguous cases must get no fix.
//
//===----------------------------------------------------------------------===//

#include "ServerTestUtils.h"
#include "TestUtils.h"

#include "ir/TargetAvailability.h"

#include "gtest/gtest.h"

using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::test;

namespace {

/// Everything the server publishes for the document.
std::vector<lsp::Diagnostic> allDiagnostics(const ServerDoc &d) {
  return computeDiagnostics(*d.parsed, d.compiled.get(), d.settings);
}

/// The published diagnostic whose message contains `needle`.
std::optional<lsp::Diagnostic> findDiagnostic(const ServerDoc &d,
                                              llvm::StringRef needle) {
  for (const lsp::Diagnostic &diag : allDiagnostics(d))
    if (llvm::StringRef(diag.message).contains(needle))
      return diag;
  return std::nullopt;
}

std::vector<lsp::TextEdit> editsOf(const lsp::CodeAction &action) {
  std::vector<lsp::TextEdit> edits;
  if (!action.edit)
    return edits;
  for (const auto &[uri, list] : action.edit->changes)
    edits.insert(edits.end(), list.begin(), list.end());
  for (const lsp::TextDocumentEdit &doc : action.edit->documentChanges)
    edits.insert(edits.end(), doc.edits.begin(), doc.edits.end());
  return edits;
}

/// The fixes offered for the diagnostic containing `needle`.
std::vector<lsp::CodeAction> fixesFor(const ServerDoc &d,
                                      llvm::StringRef needle) {
  std::optional<lsp::Diagnostic> diag = findDiagnostic(d, needle);
  EXPECT_TRUE(diag) << "no diagnostic containing: " << needle.str();
  if (!diag)
    return {};
  std::vector<lsp::CodeAction> actions =
      computeQuickFixes(*d.parsed, {*diag}, d.settings);
  std::vector<lsp::CodeAction> stalls =
      computeStallQuickFixes(*d.parsed, d.compiled.get(), {*diag}, d.settings);
  actions.insert(actions.end(), stalls.begin(), stalls.end());
  for (const lsp::CodeAction &action : actions) {
    EXPECT_EQ(action.kind, "quickfix");
    EXPECT_EQ(action.diagnostics, std::vector<lsp::Diagnostic>{*diag});
  }
  return actions;
}

/// Applies the only fix for `needle` and checks the result: it verifies,
/// compiles, and no diagnostic contains `needle` any more.
std::string applyOnlyFix(const ServerDoc &d, llvm::StringRef needle,
                         lsp::CodeAction *out = nullptr) {
  std::vector<lsp::CodeAction> fixes = fixesFor(d, needle);
  EXPECT_EQ(fixes.size(), 1u);
  if (fixes.empty())
    return "";
  if (out)
    *out = fixes.front();
  std::string fixed = applyEdits(d.text, editsOf(fixes.front()));
  ServerDoc after(fixed, /*compile=*/true, d.settings);
  EXPECT_TRUE(after.parsed->isVerified()) << fixed;
  EXPECT_TRUE(after.compiled->succeeded()) << fixed;
  EXPECT_FALSE(findDiagnostic(after, needle)) << fixed;
  return fixed;
}

const char *kRegs = R"(  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %ab = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
)";

} // namespace

TEST(TargetAvailability, TableAndMessages) {
  OpAvailability mad = getOpAvailability("v_mad_f32", TargetKind::gfx942);
  EXPECT_FALSE(mad.available);
  EXPECT_EQ(mad.replacement, "v_fma_f32");
  EXPECT_FALSE(mad.replacementIsExact);
  EXPECT_EQ(getUnavailableMessage("v_mad_f32", TargetKind::gfx950),
            "v_mad_f32 does not exist on gfx950 (CDNA removed it); use "
            "v_fma_f32, or v_mul_f32 + v_add_f32");
  // gfx950 only.
  EXPECT_TRUE(getOpAvailability("v_mfma_f32_16x16x32_f16", TargetKind::gfx950)
                  .available);
  OpAvailability x32 =
      getOpAvailability("v_mfma_f32_16x16x32_f16", TargetKind::gfx942);
  EXPECT_FALSE(x32.available);
  EXPECT_EQ(x32.reason, "gfx950 only");
  EXPECT_TRUE(x32.replacement.empty());
  // The i8 MFMAs' replacement has no WaveASM op: named in the reason only.
  OpAvailability i8 =
      getOpAvailability("v_mfma_i32_16x16x16_i8", TargetKind::gfx942);
  EXPECT_FALSE(i8.available);
  EXPECT_TRUE(i8.replacement.empty());
  EXPECT_NE(i8.reason.find("v_mfma_i32_16x16x32_i8"), std::string::npos);
  // Everything else is available everywhere.
  EXPECT_TRUE(getOpAvailability("v_add_u32", TargetKind::gfx942).available);
  EXPECT_EQ(getUnavailableMessage("v_add_u32", TargetKind::gfx942), "");
}

TEST(QuickFixes, MFMAResultWidthAlongTheAccumulatorChain) {
  // Two chained MFMAs whose results are written 16 wide: the fix narrows
  // both (the second reads the first as its accumulator) and their use.
  ServerDoc d(program(std::string(kRegs) + R"(
  %p = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<16, 4>
  %q = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %p : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
  waveasm.buffer_store_dwordx4 %q, %srd, %v : !waveasm.vreg<16, 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"));
  lsp::CodeAction action;
  std::string fixed = applyOnlyFix(
      d, "result size mismatch: expected 4 registers but got 16", &action);
  EXPECT_TRUE(action.isPreferred);
  EXPECT_EQ(action.title, "Make %p and %q 4 registers (!waveasm.vreg<4, 4>)");
  EXPECT_EQ(llvm::StringRef(fixed).count("!waveasm.vreg<16, 4>"), 0u);
  EXPECT_EQ(llvm::StringRef(fixed).count("!waveasm.vreg<4, 4>"), 4u);
}

TEST(QuickFixes, MFMAAccumulatorFromAZeroingMove) {
  ServerDoc d(program(std::string(kRegs) + R"(
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<16, 4>
  %p = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %z : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %p, %srd, %v : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"));
  std::string fixed =
      applyOnlyFix(d, "accumulator size mismatch: expected 4 registers");
  // A client repeating the diagnostic gets the fix once.
  std::optional<lsp::Diagnostic> diag =
      findDiagnostic(d, "accumulator size mismatch");
  ASSERT_TRUE(diag);
  std::vector<lsp::Diagnostic> repeated(1000, *diag);
  EXPECT_EQ(computeQuickFixes(*d.parsed, repeated, d.settings).size(), 1u);
  EXPECT_NE(fixed.find("%z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> "
                       "!waveasm.vreg<4, 4>"),
            std::string::npos)
      << fixed;
}

TEST(QuickFixes, NoMFMAFixWhereTheWidthIsNotTheTypes) {
  // The accumulator is loaded (a load's width is its mnemonic's) or a loop
  // iter_arg (the loop's types would change too): no fix.
  ServerDoc loaded(program(std::string(kRegs) + R"(
  %l = waveasm.buffer_load_dwordx4 %srd, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<16, 4>
  %p = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %l : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %p, %srd, %v : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"));
  EXPECT_TRUE(fixesFor(loaded, "accumulator size mismatch").empty());

  ServerDoc looped(program(std::string(kRegs) + R"(
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<16, 4>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %kf, %accf = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg<16, 4>) -> (!waveasm.sreg, !waveasm.vreg<16, 4>) {
    %p = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %acc : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %p) : !waveasm.sreg, !waveasm.vreg<16, 4>
  }
  waveasm.s_endpgm)"));
  EXPECT_TRUE(fixesFor(looped, "accumulator size mismatch").empty());
}

TEST(QuickFixes, PrecoloredBufferDescriptorGrowsToFourSGPRs) {
  ServerDoc d(program(R"(  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 8, 2 : !waveasm.psreg<8, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %x = waveasm.buffer_load_dword %srd, %v, %c0 : !waveasm.psreg<8, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %srd, %v : !waveasm.vreg, !waveasm.psreg<8, 2>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"));
  std::string fixed =
      applyOnlyFix(d, "buffer load requires 4-SGPR SRD but got 2 SGPRs");
  EXPECT_NE(fixed.find("%srd = waveasm.precolored.sreg 8, 4 : "
                       "!waveasm.psreg<8, 4>"),
            std::string::npos)
      << fixed;
  EXPECT_EQ(llvm::StringRef(fixed).count("!waveasm.psreg<8, 2>"), 0u);
}

TEST(QuickFixes, NoDescriptorFixForAMisalignedOrLoadedSRD) {
  // s[6:9] is not 4-aligned: growing it would not assemble.
  ServerDoc odd(program(R"(  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 6, 2 : !waveasm.psreg<6, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %x = waveasm.buffer_load_dword %srd, %v, %c0 : !waveasm.psreg<6, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_endpgm)"));
  EXPECT_TRUE(fixesFor(odd, "requires 4-SGPR SRD").empty());
  // A descriptor loaded as two dwords cannot become four by its type.
  ServerDoc loaded(
      program(R"(  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %base = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %srd = waveasm.s_load_dwordx2 %base, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  %x = waveasm.buffer_load_dword %srd, %v, %c0 : !waveasm.sreg<2, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_endpgm)"));
  EXPECT_TRUE(fixesFor(loaded, "requires 4-SGPR SRD").empty());
}

TEST(QuickFixes, MadBecomesFmaNotPreferred) {
  ServerDoc d(program(std::string(kRegs) + R"(
  %x = waveasm.v_mad_f32 %v, %v, %v : !waveasm.pvreg<0>, !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %srd, %v : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)",
                      "gfx950"));
  lsp::CodeAction action;
  std::string fixed =
      applyOnlyFix(d, "v_mad_f32 does not exist on gfx950", &action);
  EXPECT_FALSE(action.isPreferred);
  EXPECT_EQ(action.title, "Replace v_mad_f32 by v_fma_f32 (fused: rounds once "
                          "where v_mad_f32 rounded twice)");
  EXPECT_NE(fixed.find("%x = waveasm.v_fma_f32 %v, %v, %v"), std::string::npos);
}

TEST(QuickFixes, NoReplacementThatChangesTheProgram) {
  // buffer_load_dword ... lds would load a quarter of the data; the i8
  // MFMAs' K32 replacement has no WaveASM op; gfx950-only MFMAs have none.
  ServerDoc lds(program(std::string(kRegs) + R"(
  waveasm.buffer_load_dwordx4_lds %v, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_endpgm)"));
  EXPECT_TRUE(
      fixesFor(lds, "buffer_load_dwordx4 ... lds does not exist").empty());
  ServerDoc i8(program(std::string(kRegs) + R"(
  %p = waveasm.v_mfma_i32_16x16x16_i8 %v, %v, %c0 : !waveasm.pvreg<0>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %p, %srd, %v : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"));
  EXPECT_TRUE(fixesFor(i8, "v_mfma_i32_16x16x16_i8 does not exist").empty());
}

TEST(QuickFixes, MisalignedResultTupleGoesToTheAllocator) {
  ServerDoc d(program(std::string(kRegs) + R"(
  %x = waveasm.buffer_load_dwordx2 %srd, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<21, 2>
  waveasm.buffer_store_dwordx2 %x, %srd, %v : !waveasm.pvreg<21, 2>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"));
  lsp::CodeAction action;
  std::string fixed =
      applyOnlyFix(d, "must start at an even register", &action);
  EXPECT_EQ(action.title, "Let the allocator place %x (!waveasm.vreg<2, 2> "
                          "instead of !waveasm.pvreg<21, 2>)");
  EXPECT_EQ(llvm::StringRef(fixed).count("!waveasm.vreg<2, 2>"), 2u);
}

TEST(QuickFixes, NoFixForAMisalignedPrecoloredTuple) {
  ServerDoc d(program(std::string(kRegs) + R"(
  %in = waveasm.precolored.vreg 21, 2 : !waveasm.pvreg<21, 2>
  waveasm.buffer_store_dwordx2 %in, %srd, %v : !waveasm.pvreg<21, 2>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"));
  EXPECT_TRUE(fixesFor(d, "must start at an even register").empty());
}

TEST(QuickFixes, SCCProducerMovesNextToItsReader) {
  const char *body = R"(  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %cmp = waveasm.s_cmp_lt_u32 %s, %c7 : !waveasm.psreg<2>, !waveasm.imm<7> -> !waveasm.scc
  %t:2 = waveasm.s_add_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %sel = waveasm.s_cselect_b32 %cmp, %t#0, %c1 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg
  %v = waveasm.v_mov_b32 %sel : !waveasm.sreg -> !waveasm.vreg
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  waveasm.buffer_store_dword %v, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)";
  ServerDoc d(program(body));
  lsp::CodeAction action;
  std::string fixed = applyOnlyFix(d, "is overwritten by", &action);
  EXPECT_EQ(action.title,
            "Move `s_cmp_lt_u32` next to `s_cselect_b32`, which reads its SCC");
  size_t add = fixed.find("%t:2 = "), cmp = fixed.find("%cmp = "),
         sel = fixed.find("%sel = ");
  EXPECT_LT(add, cmp);
  EXPECT_LT(cmp, sel);
}

TEST(QuickFixes, NoSCCMoveThatBreaksDominance) {
  // The clobbering op reads the producer's SGPR result: the producer cannot
  // move below it.
  ServerDoc d(program(R"(  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %a:2 = waveasm.s_add_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %b:2 = waveasm.s_add_u32 %a#0, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %sel = waveasm.s_cselect_b32 %a#1, %b#0, %c1 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg
  %v = waveasm.v_mov_b32 %sel : !waveasm.sreg -> !waveasm.vreg
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  waveasm.buffer_store_dword %v, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"));
  EXPECT_TRUE(fixesFor(d, "is overwritten by").empty());
}

TEST(QuickFixes, UnusedResultIsRemoved) {
  ServerDoc d(program(std::string(kRegs) + R"(
  %x = waveasm.buffer_load_dword %srd, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  // the dead add
  %dead = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg  // trailing
  waveasm.buffer_store_dword %x, %srd, %v : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"));
  std::optional<lsp::Diagnostic> diag =
      findDiagnostic(d, "which nothing reads");
  ASSERT_TRUE(diag);
  EXPECT_EQ(diag->code, "unused");
  EXPECT_EQ(diag->tags, std::vector<int>{1});
  EXPECT_EQ(diag->severity, lsp::DiagnosticSeverity::Hint);
  std::string fixed = applyOnlyFix(d, "which nothing reads");
  EXPECT_EQ(fixed.find("%dead"), std::string::npos);
  EXPECT_NE(fixed.find("// the dead add"), std::string::npos);
  // The unused load is not reported (memory ops may be there on purpose),
  // nor a precolored value or constant that nothing reads.
  ServerDoc load(program(std::string(kRegs) + R"(
  %x = waveasm.buffer_load_dword %srd, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_endpgm)"));
  for (const lsp::Diagnostic &d : allDiagnostics(load))
    EXPECT_NE(d.code, "unused") << d.message;
}

TEST(QuickFixes, StallFixIsAValidatedMoveThatRemovesTheStall) {
  // v_exp_f32 takes 4 slots (Lints.StallOnAnOperand): %y waits 2 of them,
  // which the independent %w and %w2 fill when %y moves after them (one
  // of them alone would only replace the hazard's nop).
  ServerSettings settings;
  settings.stallThresholdCycles = 2;
  ServerDoc d(program(R"(  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %e = waveasm.v_exp_f32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %y = waveasm.v_add_u32 %e, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
  %w = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %w2 = waveasm.v_add_u32 %w, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dword %w2, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"),
              /*compile=*/true, settings);
  ASSERT_TRUE(d.compiled->succeeded());
  lsp::CodeAction action;
  std::string fixed =
      applyOnlyFix(d, "before its operand %e is ready", &action);
  EXPECT_FALSE(action.isPreferred);
  EXPECT_TRUE(llvm::StringRef(action.title).starts_with("Move I"))
      << action.title;
  EXPECT_LT(fixed.find("%w2 = "), fixed.find("%y = ")) << fixed;
  // Without independent work there is no move that removes the stall.
  ServerDoc alone(
      program(R"(  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %e = waveasm.v_exp_f32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %y = waveasm.v_add_u32 %e, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm)"),
      /*compile=*/true, settings);
  EXPECT_TRUE(fixesFor(alone, "before its operand %e is ready").empty());
}

TEST(QuickFixes, NothingForOtherDiagnosticsOrBrokenText) {
  // A parse error: no fix, no crash.
  ServerDoc broken("waveasm.program @k target = #waveasm.target<", true);
  lsp::Diagnostic parseError = broken.parsed->getDiagnostics().at(0);
  EXPECT_TRUE(
      computeQuickFixes(*broken.parsed, {parseError}, broken.settings).empty());
  // A diagnostic pointing nowhere, with a fix's message.
  ServerDoc d(program(std::string(kRegs) + "  waveasm.s_endpgm"));
  lsp::Diagnostic stray;
  stray.range = {{500, 3}, {-2, 0}};
  stray.message = "result size mismatch: expected 4 registers but got 16";
  EXPECT_TRUE(computeQuickFixes(*d.parsed, {stray}, d.settings).empty());
  stray.code = "scc";
  EXPECT_TRUE(computeQuickFixes(*d.parsed, {stray}, d.settings).empty());
  stray.code = "stall";
  EXPECT_TRUE(
      computeStallQuickFixes(*d.parsed, d.compiled.get(), {stray}, d.settings)
          .empty());
}
