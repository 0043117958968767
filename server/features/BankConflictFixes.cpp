//===- BankConflictFixes.cpp - pad the LDS stride of a bankConflict -------===//
//
// The `bankConflict` quick fix: the padding LdsBankConflicts::suggestPadding
// finds (a stride constant of the ds op's address chain, e.g. 128 -> 132
// bytes) written into the text. The stride op becomes a multiplication by a
// new constant (a shift cannot multiply by 132):
//   v_lshlrev_b32 s, x      -> v_mul_lo_u32 c, x
//   s_lshl_b32 x, s         -> s_mul_i32 x, c
//   v_mul_lo_u32 / v_mul_u32_u24 / v_mad_u32_u24 / s_mul_i32 with a
//   constant operand        -> the same op with c
// (v_lshl_add_u32 and v_lshl_or_b32 are left alone: the first would need
// two ops, the second is an OR that a padded stride would break.)
//
// A padded stride changes the LDS layout, which is correct only if every
// access to that region uses the padded stride too. The fix is therefore
// offered only when the simulator shows the program's global memory
// unchanged (the LDS itself may differ: that is the point) and the fixed
// program, compiled again, has the lower conflict; an edit the simulator
// cannot run is offered with "(not checked by execution)" and never
// preferred. Runs on the worker: each candidate compiles and simulates.
//
//===----------------------------------------------------------------------===//

#include "server/DiagnosticCapture.h"
#include "server/Features.h"
#include "server/features/Common.h"
#include "server/features/TypeText.h"

#include "sim/CompareBuffers.h"
#include "sim/Directives.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {

/// Seeds the fix is compared on (two: the even one draws moderate bytes).
constexpr unsigned kPaddingSeeds = 2;

std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

bool isConstant(Value value) {
  return value.getDefiningOp<ConstantOp>() != nullptr;
}

/// The stride op rewritten to multiply by `constant` (a name the caller
/// defines with value `bytes`): the op's text, or nullopt for shapes the
/// header leaves alone.
std::optional<std::string> paddedOpText(const ParsedDocument &parsed,
                                        Operation *op, llvm::StringRef constant,
                                        int64_t bytes) {
  if (op->getNumResults() != 1 || !op->getAttrs().empty())
    return std::nullopt;
  llvm::StringRef name = op->getName().stripDialect();
  std::string immType = "!waveasm.imm<" + std::to_string(bytes) + ">";
  // The new op's operands: names and types, the constant at `constantAt`.
  llvm::SmallVector<Value, 3> operands(op->getOperands());
  std::string newName;
  int constantAt = -1;
  if (name == "v_lshlrev_b32" && operands.size() == 2 &&
      isConstant(operands[0])) {
    newName = "v_mul_lo_u32";
    constantAt = 0;
  } else if (name == "s_lshl_b32" && operands.size() == 2 &&
             isConstant(operands[1])) {
    newName = "s_mul_i32";
    constantAt = 1;
  } else if (name == "v_mul_lo_u32" || name == "v_mul_u32_u24" ||
             name == "v_mad_u32_u24" || name == "s_mul_i32") {
    newName = name.str();
    for (unsigned i = 0; i < 2 && i < operands.size(); ++i)
      if (isConstant(operands[i])) {
        constantAt = i;
        break;
      }
  }
  if (constantAt < 0)
    return std::nullopt;
  std::string names, types;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    std::string sep = i ? ", " : "";
    bool isNew = int(i) == constantAt;
    names += sep + (isNew ? constant.str() : getValueName(parsed, operand));
    types += sep + (isNew ? immType : typeText(operand.getType()));
  }
  return getValueName(parsed, op->getResult(0)) + " = waveasm." + newName +
         " " + names + " : " + types + " -> " +
         typeText(op->getResult(0).getType());
}

/// A name for the new constant that the text does not use yet.
std::string freshConstantName(const ParsedDocument &parsed, int64_t bytes) {
  std::string base = "%lds_stride_" + std::to_string(bytes);
  std::string name = base;
  for (unsigned n = 1; parsed.getText().contains(name + " ") ||
                       parsed.getText().contains(name + ",");
       ++n)
    name = base + "_" + std::to_string(n);
  return name;
}

/// The op entry of `fixed` written as `text` (the ds op, which the fix does
/// not touch), or kNone.
unsigned findOpByText(const ParsedDocument &fixed, llvm::StringRef text) {
  for (unsigned i = 0, e = fixed.getOps().size(); i < e; ++i)
    if (getOpText(fixed, i) == text)
      return i;
  return OpEntry::kNone;
}

/// The conflict degree of the ds op written as `dsText` in `fixed`,
/// compiled; nullopt if it is not found or not analysed.
std::optional<unsigned> degreeAfter(const ParsedDocument &fixed,
                                    const CompiledDocument &compiled,
                                    llvm::StringRef dsText) {
  unsigned entry = findOpByText(fixed, dsText);
  const CompiledOpInfo *info =
      entry == OpEntry::kNone ? nullptr : compiled.lookup(entry);
  if (!info)
    return std::nullopt;
  const LdsAccessInfo *access = compiled.getPrograms()[info->program]
                                    .annotations->getCycleModel()
                                    .getLdsBankConflicts()
                                    .lookup(info->compiled);
  if (!access || !access->known)
    return std::nullopt;
  return access->cost.degree;
}

struct PaddingFix {
  lsp::TextEdit edit;
  LdsPaddingHint hint;
  unsigned strideEntry = 0;
};

/// The edit for the padding of the ds op at `dsEntry`, before any check.
std::optional<PaddingFix> proposePadding(const ParsedDocument &parsed,
                                         const CompiledDocument &compiled,
                                         unsigned dsEntry) {
  const CompiledOpInfo *info = compiled.lookup(dsEntry);
  if (!info)
    return std::nullopt;
  const LdsBankConflicts &banks = compiled.getPrograms()[info->program]
                                      .annotations->getCycleModel()
                                      .getLdsBankConflicts();
  const LdsAccessInfo *access = banks.lookup(info->compiled);
  if (!access)
    return std::nullopt;
  std::optional<LdsPaddingHint> hint = banks.suggestPadding(*access);
  if (!hint)
    return std::nullopt;
  std::optional<unsigned> strideEntry = compiled.lookupCompiled(hint->op);
  if (!strideEntry)
    return std::nullopt;
  Operation *strideOp = parsed.getOps()[*strideEntry].op;
  // The pipeline may have rewritten the op: only the one written is edited.
  if (strideOp->getName() != hint->op->getName())
    return std::nullopt;
  std::string constant = freshConstantName(parsed, hint->toBytes);
  std::optional<std::string> opText =
      paddedOpText(parsed, strideOp, constant, hint->toBytes);
  if (!opText)
    return std::nullopt;
  // The definition's line, from its indentation to the op's end; the
  // constant goes on a line of its own above, indented the same.
  const OpEntry &entry = parsed.getOps()[*strideEntry];
  std::optional<lsp::Range> def =
      getValueDefRange(parsed, strideOp->getResult(0));
  if (!def || def->start.line != entry.scope.start.line)
    return std::nullopt;
  std::string indent(def->start.character, ' ');
  lsp::Range range{def->start, entry.scope.end};
  std::string text = llvm::formatv("{0} = waveasm.constant {1} : "
                                   "!waveasm.imm<{1}>\n{2}{3}",
                                   constant, hint->toBytes, indent, *opText);
  return PaddingFix{{range, text}, *hint, *strideEntry};
}

} // namespace

bool waveasm::server::isBankConflictDiagnostic(
    const lsp::Diagnostic &diagnostic) {
  return diagnostic.code == stringifyLintCode(LintCode::BankConflict);
}

std::vector<lsp::CodeAction> waveasm::server::computeBankConflictQuickFixes(
    const ParsedDocument &parsed, const CompiledDocument *compiled,
    llvm::ArrayRef<lsp::Diagnostic> diagnostics, const ServerSettings &settings,
    const QuickFixOptions &options) {
  std::vector<lsp::CodeAction> actions;
  if (!parsed.isVerified() || !freshOrNull(parsed, compiled) ||
      !compiled->succeeded())
    return actions;
  DiagnosticCapture quiet(parsed.getContext());
  unsigned answered = 0;
  for (const lsp::Diagnostic &diag : diagnostics) {
    if (!isBankConflictDiagnostic(diag) || diag.range.start.line < 0)
      continue;
    // Each answer compiles and simulates the program.
    if (answered++ == options.maxDiagnostics)
      break;
    unsigned dsEntry = parsed.findOpNameAt(diag.range.start);
    if (dsEntry == OpEntry::kNone)
      continue;
    std::optional<PaddingFix> fix = proposePadding(parsed, *compiled, dsEntry);
    if (!fix)
      continue;
    ParsedDocument fixed(parsed.getContext(), parsed.getURI(),
                         applyTextEdits(parsed.getLines(), {fix->edit}),
                         parsed.getVersion(), settings);
    if (!fixed.isVerified())
      continue;
    CompiledDocument after(fixed, settings);
    if (!after.succeeded())
      continue;
    std::optional<unsigned> degree =
        degreeAfter(fixed, after, getOpText(parsed, dsEntry));
    if (!degree || *degree > fix->hint.degree)
      continue;
    unsigned program = parsed.getOps()[dsEntry].program;
    bool notChecked = false;
    if (settings.checkByExecution) {
      // On the document's `// waveasm-sim:` inputs; a malformed line
      // leaves the fix unchecked, as it leaves the move actions.
      sim::SimDirectives read = sim::readSimDirectives(parsed.getText());
      const sim::SimOptions &simOptions = read.options;
      if (read.error) {
        notChecked = true;
      } else {
        ProgramOp a =
            cast<ProgramOp>(parsed.getOps()[parsed.getPrograms()[program]].op);
        ProgramOp b =
            cast<ProgramOp>(fixed.getOps()[fixed.getPrograms()[program]].op);
        sim::Comparison result =
            sim::compareBuffersOnSeeds(a, b, kPaddingSeeds, simOptions);
        // Another access of the region keeps the old layout: the fix
        // would change what the kernel computes.
        if (result.verdict == sim::Comparison::Verdict::Different)
          continue;
        notChecked = result.verdict == sim::Comparison::Verdict::NotChecked;
      }
    }
    const ProgramMetrics &m0 = compiled->getPrograms()[program].result.metrics;
    const ProgramMetrics &m1 = after.getPrograms()[program].result.metrics;
    std::string outcome = *degree == 1 ? std::string("conflict-free")
                                       : std::to_string(*degree) + "-way";
    lsp::CodeAction action;
    action.title = llvm::formatv(
        "Pad the LDS stride {0} -> {1} B (`{2}` on line {3}): {4}, est. {5} "
        "-> {6} slots{7}",
        fix->hint.fromBytes, fix->hint.toBytes,
        getMnemonic(parsed.getOps()[fix->strideEntry].op),
        getDisplayLine(parsed, fix->strideEntry), outcome, m0.est_cycles,
        m1.est_cycles, notChecked ? " (not checked by execution)" : "");
    action.kind = kQuickFixKind.str();
    action.diagnostics = {diag};
    // A layout change: never applied without a look.
    action.isPreferred = false;
    action.edit =
        makeWorkspaceEdit(parsed, {fix->edit}, options.versionedEdits);
    actions.push_back(std::move(action));
  }
  return actions;
}
