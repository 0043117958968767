//===- BankConflictFeaturesTest.cpp - LDS bank conflicts in the server ----===//
//
// The hover section and the lint text of a ds op, on the compiled document
// as the server has it.
//
//===----------------------------------------------------------------------===//

#include "ServerTestUtils.h"

#include "server/features/BankConflicts.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::test;

namespace {

const char *kStrides = R"(  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %s4 = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.ds_read_b32 %s4 : !waveasm.vreg -> !waveasm.vreg
  %s128 = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %b = waveasm.ds_read_b32 %s128 : !waveasm.vreg -> !waveasm.vreg
  %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
  %y = waveasm.v_add_u32 %b, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd, %s4 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)";

std::string hoverAt(ServerDoc &d, llvm::StringRef needle) {
  std::optional<lsp::Hover> hover =
      computeHover(*d.parsed, d.compiled.get(), d.pos(needle, 10));
  return hover ? hover->contents.value : "";
}

TEST(BankConflictHover, ShowsPatternDegreeAndExtraSlots) {
  ServerDoc d(serverProgram(kStrides, " attributes {workgroup_size = [64, 1, "
                                      "1]}"));
  ASSERT_TRUE(d.compiled && d.compiled->succeeded());
  std::string clean = hoverAt(d, "%a = waveasm.ds_read_b32");
  EXPECT_NE(clean.find("**LDS banks** (64 × 4 B): lane address lane × 4 B; "
                       "no bank conflict (1 phase of 4 B per lane): 2 LDS "
                       "clocks"),
            std::string::npos)
      << clean;
  std::string conflict = hoverAt(d, "%b = waveasm.ds_read_b32");
  EXPECT_NE(conflict.find("lane × 128 B; 32-way bank conflict (1 phase of 4 "
                          "B per lane): 32 LDS clocks instead of 2, **+8 "
                          "issue slots**"),
            std::string::npos)
      << conflict;
  // Its latency includes the 8 slots.
  EXPECT_NE(conflict.find("**lat 28** slots"), std::string::npos) << conflict;
  std::string unknown = hoverAt(d, "%x = waveasm.ds_read_b32");
  EXPECT_NE(unknown.find("unknown: the address comes from ds_read_b32"),
            std::string::npos)
      << unknown;
  // Not a ds op: no section.
  EXPECT_EQ(hoverAt(d, "%y = waveasm.v_add_u32").find("LDS banks"),
            std::string::npos);
}

TEST(BankConflictLint, SaysWhatToDo) {
  ServerDoc d(serverProgram(kStrides, " attributes {workgroup_size = [64, 1, "
                                      "1]}"));
  ASSERT_TRUE(d.compiled && d.compiled->succeeded());
  // As the server publishes it: the lint reads the analysis the cycle model
  // charged.
  ServerSettings settings;
  std::vector<lsp::Diagnostic> lints;
  for (lsp::Diagnostic &diag : computeLints(*d.parsed, *d.compiled, settings))
    if (diag.code == "bankConflict")
      lints.push_back(std::move(diag));
  ASSERT_EQ(lints.size(), 1u);
  EXPECT_EQ(lints[0].severity, lsp::DiagnosticSeverity::Information);
  EXPECT_EQ(lints[0].range.start.line, d.line("%b = waveasm.ds_read_b32"));
  EXPECT_EQ(lints[0].message,
            "`ds_read_b32` has a 32-way LDS bank conflict (lane address lane "
            "× 128 B, 64 banks of 4 B): 32 LDS clocks instead of 2, +8 issue "
            "slots each time; pad the row stride from 128 to 132 bytes "
            "(`v_lshlrev_b32` on line " +
                std::to_string(d.line("%s128 =") + 1) +
                ") to make it conflict-free; every access to that LDS region "
                "must use the same layout, and the LDS use grows");

  settings.severityOf(LintCode::BankConflict) = LintSeverity::Off;
  for (const lsp::Diagnostic &diag :
       computeLints(*d.parsed, *d.compiled, settings))
    EXPECT_NE(diag.code, "bankConflict") << diag.message;
}

/// A row per lane, 128 bytes apart: the write and the read are 32-way
/// conflicts. `readRow` is the read's address: the same value as the
/// write's, or one computed again by a second shift.
std::string rowProgram(bool sameRow) {
  std::string readRow = sameRow ? "%row" : "%row2";
  return std::string(
             "waveasm.program @k target = #waveasm.target<#waveasm.gfx942> "
             "abi = #waveasm.abi<tid = 0> attributes {workgroup_size = [64, "
             "1, 1]} {\n"
             "  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>\n"
             "  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>\n"
             "  %c0 = waveasm.constant 0 : !waveasm.imm<0>\n"
             "  %c2 = waveasm.constant 2 : !waveasm.imm<2>\n"
             "  %c7 = waveasm.constant 7 : !waveasm.imm<7>\n"
             "  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, "
             "!waveasm.pvreg<0> -> !waveasm.vreg\n"
             "  %x = waveasm.buffer_load_dword %srd, %off, %c0 : "
             "!waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> "
             "!waveasm.vreg\n"
             "  %row = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, "
             "!waveasm.pvreg<0> -> !waveasm.vreg\n"
             "  waveasm.ds_write_b32 %x, %row : !waveasm.vreg, "
             "!waveasm.vreg\n"
             "  waveasm.s_barrier\n") +
         (sameRow ? ""
                  : "  %row2 = waveasm.v_lshlrev_b32 %c7, %tid : "
                    "!waveasm.imm<7>, !waveasm.pvreg<0> -> "
                    "!waveasm.vreg\n") +
         "  %y = waveasm.ds_read_b32 " + readRow +
         " : !waveasm.vreg -> !waveasm.vreg\n"
         "  waveasm.buffer_store_dword %y, %srd, %off offset : 1024 : "
         "!waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg\n"
         "  waveasm.s_endpgm\n}\n";
}

std::vector<lsp::Diagnostic> bankConflictLints(ServerDoc &d) {
  std::vector<lsp::Diagnostic> lints;
  for (lsp::Diagnostic &diag : computeLints(*d.parsed, *d.compiled, d.settings))
    if (diag.code == "bankConflict")
      lints.push_back(std::move(diag));
  return lints;
}

std::vector<lsp::TextEdit> editsOf(const lsp::CodeAction &action) {
  std::vector<lsp::TextEdit> edits;
  if (action.edit)
    for (const auto &[uri, list] : action.edit->changes)
      edits.insert(edits.end(), list.begin(), list.end());
  return edits;
}

TEST(BankConflictFix, PadsTheSharedStrideAndTheSimulatorAgrees) {
  ServerDoc d(rowProgram(/*sameRow=*/true));
  ASSERT_TRUE(d.compiled && d.compiled->succeeded());
  std::vector<lsp::Diagnostic> lints = bankConflictLints(d);
  ASSERT_EQ(lints.size(), 2u); // the write and the read
  std::vector<lsp::CodeAction> fixes = computeBankConflictQuickFixes(
      *d.parsed, d.compiled.get(), lints, d.settings);
  ASSERT_EQ(fixes.size(), 2u);
  const lsp::CodeAction &fix = fixes[1];
  EXPECT_EQ(fix.kind, "quickfix");
  EXPECT_FALSE(fix.isPreferred);
  ASSERT_EQ(fix.diagnostics.size(), 1u);
  EXPECT_EQ(fix.diagnostics[0].message, lints[1].message);
  EXPECT_NE(fix.title.find("Pad the LDS stride 128 -> 132 B (`v_lshlrev_b32` "
                           "on line " +
                           std::to_string(d.line("%row =") + 1) +
                           "): conflict-free, est. "),
            std::string::npos)
      << fix.title;
  EXPECT_EQ(fix.title.find("not checked"), std::string::npos) << fix.title;

  // Applied: the row op multiplies by the new constant, nothing else
  // changes, and the text compiles without a bank conflict and fewer slots.
  std::string fixed = applyEdits(d.text, editsOf(fix));
  EXPECT_NE(fixed.find("  %lds_stride_132 = waveasm.constant 132 : "
                       "!waveasm.imm<132>\n  %row = waveasm.v_mul_lo_u32 "
                       "%lds_stride_132, %tid : !waveasm.imm<132>, "
                       "!waveasm.pvreg<0> -> !waveasm.vreg\n  "
                       "waveasm.ds_write_b32"),
            std::string::npos)
      << fixed;
  ServerDoc after(fixed);
  ASSERT_TRUE(after.compiled && after.compiled->succeeded());
  EXPECT_TRUE(bankConflictLints(after).empty());
  EXPECT_LT(after.compiled->getPrograms()[0].result.metrics.est_cycles,
            d.compiled->getPrograms()[0].result.metrics.est_cycles);
}

TEST(BankConflictFix, AMalformedSimDirectiveLeavesTheFixUnchecked) {
  // The document's simulator inputs cannot be read: the fix is not
  // compared on other inputs, and its title says it was not checked.
  ServerDoc d("// waveasm-sim: --no-such-flag\n" + rowProgram(true));
  ASSERT_TRUE(d.compiled && d.compiled->succeeded());
  std::vector<lsp::Diagnostic> lints = bankConflictLints(d);
  ASSERT_EQ(lints.size(), 2u);
  std::vector<lsp::CodeAction> fixes = computeBankConflictQuickFixes(
      *d.parsed, d.compiled.get(), lints, d.settings);
  ASSERT_EQ(fixes.size(), 2u);
  for (const lsp::CodeAction &fix : fixes)
    EXPECT_NE(fix.title.find("(not checked by execution)"), std::string::npos)
        << fix.title;
}

TEST(BankConflictFix, NotOfferedWhenAnotherAccessKeepsTheOldLayout) {
  // Padding either row alone makes the read miss what the write put: the
  // simulator sees the stored values change, so nothing is offered.
  ServerDoc d(rowProgram(/*sameRow=*/false));
  ASSERT_TRUE(d.compiled && d.compiled->succeeded());
  std::vector<lsp::Diagnostic> lints = bankConflictLints(d);
  ASSERT_EQ(lints.size(), 2u);
  EXPECT_TRUE(computeBankConflictQuickFixes(*d.parsed, d.compiled.get(), lints,
                                            d.settings)
                  .empty());
  // Without the execution check the rules alone would offer an edit (the
  // pipeline's CSE makes the two shifts one, so the compiled program has a
  // single stride op): the check is what keeps it out.
  d.settings.checkByExecution = false;
  EXPECT_FALSE(computeBankConflictQuickFixes(*d.parsed, d.compiled.get(), lints,
                                             d.settings)
                   .empty());
}

} // namespace
