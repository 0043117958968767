//===- QuickFixes.cpp - fixes attached to diagnostics ---------------------===//
//
// One function per kind of diagnostic proposes at most one fix as text
// edits; `offer` then re-verifies it the way the server parses any text
// (a ParsedDocument of the fixed text: parse and verify) and keeps it only
// if the fixed text has no error the original did not have and no longer
// has the diagnostic (each fix says how to recognise that). Fixes are
// proposed only when they are unambiguous:
//  - MFMA accumulator/result widths: the result, the accumulator chain of
//    the same MFMA width and the accumulator's definition when that is a
//    precolored value or a move of an immediate (zeroing), retyped to the
//    width the verifier expects;
//  - a 2-SGPR buffer descriptor: only when it is a precolored value, whose
//    size and type become 4 (a loaded descriptor cannot grow by a type);
//  - an op the target lacks: the documented replacement when the dialect
//    has it and it moves the same data (v_mad_f32 -> v_fma_f32, not
//    preferred: it rounds once); buffer_load_dwordx4 ... lds ->
//    buffer_load_dword ... lds would load a quarter of the data and is not
//    offered;
//  - a misaligned physical tuple an instruction defines: the value made
//    virtual, so the allocator places it (a precolored tuple's registers
//    are where its data is: no fix);
//  - `scc`: the producer moved next to its reader when the Conductor's
//    validator accepts the move without warnings;
//  - `unused`: the op's lines removed;
//  - `stall` (computeStallQuickFixes, on the worker): the best measured
//    single move of the stalled op or of its producer after which the
//    compiled text no longer has the stall.
//
//===----------------------------------------------------------------------===//

#include "server/DiagnosticCapture.h"
#include "server/Features.h"
#include "server/features/Common.h"
#include "server/features/TypeText.h"

#include "conductor/TextEdit.h"

#include "ir/RegisterTypes.h"
#include "ir/TargetAvailability.h"
#include "ir/Traits.h"
#include "pipeline/SCCClobbers.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Regex.h"

#include <functional>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {

/// A fix before it is checked.
struct Candidate {
  std::string title;
  std::vector<lsp::TextEdit> edits;
  bool preferred = true;
  /// Whether the fixed text (parsed and verified without new errors) no
  /// longer has the diagnostic.
  std::function<bool(const ParsedDocument &fixed)> resolved;
};

struct FixContext {
  const ParsedDocument &parsed;
  const ServerSettings &settings;
  const QuickFixOptions &options;
};

//===--- re-verification -------------------------------------------------===//

bool isError(const lsp::Diagnostic &d) {
  return d.severity == lsp::DiagnosticSeverity::Error;
}

/// `edits` applied to the document, parsed and verified as the server does.
std::unique_ptr<ParsedDocument>
parseFixed(const FixContext &ctx, llvm::ArrayRef<lsp::TextEdit> edits) {
  return std::make_unique<ParsedDocument>(
      ctx.parsed.getContext(), ctx.parsed.getURI(),
      applyTextEdits(ctx.parsed.getLines(), edits), ctx.parsed.getVersion(),
      ctx.settings);
}

/// True when every error of `fixed` is one `parsed` had besides `diag`
/// (compared by message: the fix may move lines).
bool hasNoNewErrors(const ParsedDocument &parsed, const lsp::Diagnostic &diag,
                    const ParsedDocument &fixed) {
  if (!fixed.getModule())
    return false;
  std::multiset<std::string> before;
  for (const lsp::Diagnostic &d : parsed.getDiagnostics())
    if (isError(d))
      before.insert(d.message);
  if (auto it = before.find(diag.message); it != before.end())
    before.erase(it);
  for (const lsp::Diagnostic &d : fixed.getDiagnostics()) {
    if (!isError(d))
      continue;
    auto it = before.find(d.message);
    if (it == before.end())
      return false;
    before.erase(it);
  }
  return true;
}

/// The fix as a code action if it survives re-verification.
std::optional<lsp::CodeAction>
offer(const FixContext &ctx, const lsp::Diagnostic &diag, Candidate candidate) {
  if (candidate.edits.empty())
    return std::nullopt;
  std::unique_ptr<ParsedDocument> fixed = parseFixed(ctx, candidate.edits);
  if (!hasNoNewErrors(ctx.parsed, diag, *fixed) ||
      (candidate.resolved && !candidate.resolved(*fixed)))
    return std::nullopt;
  lsp::CodeAction action;
  action.title = std::move(candidate.title);
  action.kind = kQuickFixKind.str();
  action.diagnostics = {diag};
  action.isPreferred = candidate.preferred;
  action.edit = makeWorkspaceEdit(ctx.parsed, std::move(candidate.edits),
                                  ctx.options.versionedEdits);
  return action;
}

/// The fixed text no longer reports `diag`'s message on its line (for
/// fixes that keep lines where they are).
std::function<bool(const ParsedDocument &)>
messageGoneFrom(const lsp::Diagnostic &diag) {
  return [message = diag.message,
          line = diag.range.start.line](const ParsedDocument &fixed) {
    return llvm::none_of(fixed.getDiagnostics(), [&](const lsp::Diagnostic &d) {
      return d.message == message && d.range.start.line == line;
    });
  };
}

//===--- finding what a diagnostic is about ------------------------------===//

/// The op a diagnostic at `range` is about: the innermost op containing its
/// start on that line, else the first op named on that line.
Operation *findDiagnosedOp(const ParsedDocument &parsed, lsp::Range range) {
  if (!parsed.getModule() || range.start.line < 0)
    return nullptr;
  auto [begin, end] = parsed.getOpsOnLines(range.start.line, range.start.line);
  unsigned inner = parsed.findOpAt(range.start);
  if (inner != OpEntry::kNone && inner >= begin && inner < end)
    return parsed.getOps()[inner].op;
  if (begin < end)
    return parsed.getOps()[begin].op;
  return inner == OpEntry::kNone ? nullptr : parsed.getOps()[inner].op;
}

/// The target a program is compiled for (the settings' override first).
TargetKind targetOf(const FixContext &ctx, Operation *op) {
  if (ctx.settings.targetOverride)
    return *ctx.settings.targetOverride;
  auto program = op->getParentOfType<ProgramOp>();
  return program ? program.getTargetKind() : TargetKind::gfx942;
}

/// The op text around a value name, for titles: "%acc".
std::string nameOf(const ParsedDocument &parsed, Value value) {
  return getValueName(parsed, value);
}

/// The registers an MFMA's accumulator and result hold (its MFMAWidth
/// trait); nullopt for other ops.
std::optional<int64_t> getMFMAAccRegs(Operation *op) {
  if (op->hasTrait<waveasm::OpTrait::MFMAWidth<2>::Impl>())
    return 2;
  if (op->hasTrait<waveasm::OpTrait::MFMAWidth<4>::Impl>())
    return 4;
  if (op->hasTrait<waveasm::OpTrait::MFMAWidth<8>::Impl>())
    return 8;
  if (op->hasTrait<waveasm::OpTrait::MFMAWidth<16>::Impl>())
    return 16;
  if (op->hasTrait<waveasm::OpTrait::MFMAWidth<32>::Impl>())
    return 32;
  return std::nullopt;
}

bool isPrecolored(Operation *op) {
  return op && getMnemonic(op).starts_with("precolored.");
}

/// A definition whose width is only its type: a precolored value (which
/// registers), or a move of an immediate into a tuple (every register gets
/// the immediate, how accumulators are zeroed).
bool hasFlexibleWidth(Operation *def) {
  if (!def)
    return false;
  if (isPrecolored(def))
    return true;
  llvm::StringRef name = getMnemonic(def);
  return (name == "v_mov_b32" || name == "v_accvgpr_write_b32") &&
         def->getNumOperands() == 1 &&
         isa<ImmType>(def->getOperand(0).getType());
}

/// The edit giving a precolored op the size `size` (its `index, size`
/// operands), if its size is written that way.
std::optional<lsp::TextEdit> resizePrecolored(const ParsedDocument &parsed,
                                              Operation *op, int64_t size) {
  std::optional<unsigned> entry = parsed.lookupOp(op);
  if (!entry)
    return std::nullopt;
  const OpEntry &e = parsed.getOps()[*entry];
  llvm::StringRef text = parsed.getText();
  size_t at = e.nameLoc.End.getPointer() - text.data();
  llvm::StringRef rest = text.substr(at);
  // ` 8, 2 :` or ` 8 :`; an attribute dictionary size is left alone (the
  // check after the fix sees it).
  llvm::Regex pattern("^([ \t]+-?[0-9]+)([ \t]*,[ \t]*[0-9]+)?");
  llvm::SmallVector<llvm::StringRef, 3> groups;
  if (!pattern.match(rest, &groups))
    return std::nullopt;
  size_t sizeBegin = at + groups[1].size();
  size_t sizeEnd = sizeBegin + groups[2].size();
  const LineTable &lines = parsed.getLines();
  return lsp::TextEdit{
      {lines.getPosition(sizeBegin), lines.getPosition(sizeEnd)},
      ", " + std::to_string(size)};
}

/// Every edit retyping `values` to `size` registers (precolored sizes
/// included); nullopt when one cannot be written.
std::optional<std::vector<lsp::TextEdit>>
resizeValues(const ParsedDocument &parsed, llvm::ArrayRef<Value> values,
             int64_t size) {
  std::vector<lsp::TextEdit> edits;
  for (Value value : values) {
    Type type = withRegSize(value.getType(), size);
    if (!type)
      return std::nullopt;
    std::optional<std::vector<lsp::TextEdit>> retyped =
        retypeValue(parsed, value, type);
    if (!retyped)
      return std::nullopt;
    edits.insert(edits.end(), retyped->begin(), retyped->end());
    Operation *def = value.getDefiningOp();
    if (isPrecolored(def)) {
      std::optional<lsp::TextEdit> resized =
          resizePrecolored(parsed, def, size);
      if (!resized)
        return std::nullopt;
      edits.push_back(std::move(*resized));
    }
  }
  return edits;
}

/// "%a, %b and %c".
std::string listNames(const ParsedDocument &parsed,
                      llvm::ArrayRef<Value> values) {
  std::string text;
  for (auto [i, value] : llvm::enumerate(values)) {
    if (i)
      text += i + 1 == values.size() ? " and " : ", ";
    text += nameOf(parsed, value);
  }
  return text;
}

//===--- the fixes -------------------------------------------------------===//

/// `accumulator size mismatch: expected N registers but got M for X` and
/// the same for the result.
std::optional<Candidate> fixMFMAWidth(const FixContext &ctx,
                                      const lsp::Diagnostic &diag) {
  llvm::Regex pattern("(accumulator|result) size mismatch: expected ([0-9]+) "
                      "registers but got ([0-9]+)");
  llvm::SmallVector<llvm::StringRef, 4> groups;
  if (!pattern.match(diag.message, &groups))
    return std::nullopt;
  int64_t expected = 0;
  if (groups[2].getAsInteger(10, expected))
    return std::nullopt;
  Operation *mfma = findDiagnosedOp(ctx.parsed, diag.range);
  if (!mfma || getMFMAAccRegs(mfma) != expected)
    return std::nullopt;
  // The values that must change together: the result, an accumulator of
  // another width (1 and immediates are accepted as they are), and through
  // the accumulator ties every MFMA of the same width that reads one of
  // them or defines one.
  auto wrong = [&](Value v) {
    return !isa<ImmType>(v.getType()) && getRegSize(v.getType()) != expected &&
           getRegSize(v.getType()) != 1;
  };
  llvm::SetVector<Value> values;
  llvm::SmallVector<Operation *> work = {mfma};
  llvm::SmallPtrSet<Operation *, 8> seen = {mfma};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (op->getNumOperands() < 3 || op->getNumResults() != 1)
      return std::nullopt;
    Value acc = op->getOperand(2), result = op->getResult(0);
    if (wrong(acc)) {
      values.insert(acc);
      Operation *def = acc.getDefiningOp();
      if (def && getMFMAAccRegs(def) == expected) {
        if (seen.insert(def).second)
          work.push_back(def);
      } else if (!hasFlexibleWidth(def)) {
        return std::nullopt; // a load, a block argument, another op
      }
    }
    if (getRegSize(result.getType()) != expected) {
      values.insert(result);
      for (OpOperand &use : result.getUses()) {
        Operation *user = use.getOwner();
        if (use.getOperandNumber() == 2 && getMFMAAccRegs(user) == expected &&
            seen.insert(user).second)
          work.push_back(user);
      }
    }
  }
  if (values.empty())
    return std::nullopt;
  std::optional<std::vector<lsp::TextEdit>> edits =
      resizeValues(ctx.parsed, values.getArrayRef(), expected);
  if (!edits)
    return std::nullopt;
  Candidate fix;
  fix.title = "Make " + listNames(ctx.parsed, values.getArrayRef()) + " " +
              std::to_string(expected) + " registers (" +
              printType(withRegSize(values.front().getType(), expected)) + ")";
  fix.edits = std::move(*edits);
  fix.resolved = messageGoneFrom(diag);
  return fix;
}

/// `buffer load requires 4-SGPR SRD but got 2 SGPRs` on a precolored SRD.
std::optional<Candidate> fixBufferDescriptor(const FixContext &ctx,
                                             const lsp::Diagnostic &diag) {
  llvm::Regex pattern("buffer (load|store) requires 4-SGPR SRD but got "
                      "([0-9]+) SGPRs");
  llvm::SmallVector<llvm::StringRef, 3> groups;
  if (!pattern.match(diag.message, &groups))
    return std::nullopt;
  Operation *op = findDiagnosedOp(ctx.parsed, diag.range);
  if (!op || op->getNumOperands() < 2)
    return std::nullopt;
  // ir/Verifiers.cpp verifyBufferAccess: loads read the SRD first.
  Value srd = op->getOperand(groups[1] == "load" ? 0 : 1);
  Operation *def = srd.getDefiningOp();
  if (!isPrecolored(def) || getRegClass(srd.getType()) != RegClass::SGPR)
    return std::nullopt;
  // A physical SRD must start at a multiple of 4 (the emitter's rule).
  if (std::optional<int64_t> index = getPhysicalIndex(srd.getType()))
    if (*index % 4)
      return std::nullopt;
  std::optional<std::vector<lsp::TextEdit>> edits =
      resizeValues(ctx.parsed, {srd}, 4);
  if (!edits)
    return std::nullopt;
  Candidate fix;
  fix.title = "Make " + nameOf(ctx.parsed, srd) + " a 4-SGPR descriptor (" +
              printType(withRegSize(srd.getType(), 4)) + ")";
  fix.edits = std::move(*edits);
  fix.resolved = messageGoneFrom(diag);
  return fix;
}

/// An op the target lacks (the emitter's `... does not exist on gfx942
/// (...)`): its documented replacement.
std::optional<Candidate> fixUnavailableOp(const FixContext &ctx,
                                          const lsp::Diagnostic &diag) {
  Operation *op = findDiagnosedOp(ctx.parsed, diag.range);
  if (!op)
    return std::nullopt;
  llvm::StringRef mnemonic = getMnemonic(op);
  TargetKind target = targetOf(ctx, op);
  std::string message = getUnavailableMessage(mnemonic, target);
  if (message.empty() || !llvm::StringRef(diag.message).contains(message))
    return std::nullopt;
  OpAvailability availability = getOpAvailability(mnemonic, target);
  if (availability.replacement.empty())
    return std::nullopt;
  std::string replacement = "waveasm." + availability.replacement;
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup(replacement, &ctx.parsed.getContext());
  auto facts = dyn_cast<InstInfoOpInterface>(op);
  if (!name || !facts ||
      !getOpAvailability(availability.replacement, target).available)
    return std::nullopt;
  // A replacement that moves another amount of data per lane is another
  // program (buffer_load_dword ... lds for ...dwordx4 ... lds loads a
  // quarter of it, to other LDS addresses): not a fix.
  auto *replacementFacts = name->getInterface<InstInfoOpInterface>();
  if (!replacementFacts ||
      replacementFacts->getDataDwords() != facts.getDataDwords() ||
      replacementFacts->getMemWrites() != facts.getMemWrites())
    return std::nullopt;
  std::optional<unsigned> entry = ctx.parsed.lookupOp(op);
  if (!entry)
    return std::nullopt;
  Candidate fix;
  fix.title = "Replace " + mnemonic.str() + " by " + availability.replacement;
  if (!availability.replacementIsExact &&
      !availability.replacementChange.empty())
    fix.title += " (" + availability.replacementChange + ")";
  fix.preferred = availability.replacementIsExact;
  fix.edits = {{ctx.parsed.getOps()[*entry].name, replacement}};
  lsp::Position at = ctx.parsed.getOps()[*entry].name.start;
  fix.resolved = [at, target, want = availability.replacement](
                     const ParsedDocument &fixed) {
    unsigned e = fixed.findOpNameAt(at);
    if (e == OpEntry::kNone)
      return false;
    llvm::StringRef now = getMnemonic(fixed.getOps()[e].op);
    return now == want && getOpAvailability(now, target).available;
  };
  return fix;
}

/// The emitter's `register tuple v[21:22] must start at an even register`
/// and `SGPR tuple s[5:6] must start at a multiple of 2`.
std::optional<Candidate> fixMisalignedTuple(const FixContext &ctx,
                                            const lsp::Diagnostic &diag) {
  llvm::Regex vector("register tuple ([va])\\[([0-9]+):[0-9]+\\] must start "
                     "at an even register");
  llvm::Regex scalar("SGPR tuple s\\[([0-9]+):[0-9]+\\] must start at a "
                     "multiple of ([0-9]+)");
  llvm::SmallVector<llvm::StringRef, 4> groups;
  RegClass cls;
  int64_t index = 0, alignment = 2;
  if (vector.match(diag.message, &groups)) {
    cls = groups[1] == "v" ? RegClass::VGPR : RegClass::AGPR;
    if (groups[2].getAsInteger(10, index))
      return std::nullopt;
  } else if (scalar.match(diag.message, &groups)) {
    cls = RegClass::SGPR;
    if (groups[1].getAsInteger(10, index) ||
        groups[2].getAsInteger(10, alignment))
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  Operation *op = findDiagnosedOp(ctx.parsed, diag.range);
  if (!op)
    return std::nullopt;
  // The misaligned value: an operand or result of the op with that first
  // register.
  Value value;
  auto matches = [&](Value v) {
    RegTypeInfo info = getRegTypeInfo(v.getType());
    return info.cls == cls && info.physicalIndex == index && info.size >= 2;
  };
  for (Value v : op->getResults())
    if (!value && matches(v))
      value = v;
  for (Value v : op->getOperands())
    if (!value && matches(v))
      value = v;
  // VGPR compaction re-places allocated tuples (keeping their misalignment),
  // so the emitter may name other registers than the text: then the one
  // misaligned tuple of that class the op touches, if there is one.
  if (!value) {
    llvm::SetVector<Value> misaligned;
    auto isMisaligned = [&](Value v) {
      RegTypeInfo info = getRegTypeInfo(v.getType());
      return info.cls == cls && info.physicalIndex && info.size >= 2 &&
             *info.physicalIndex % alignment;
    };
    for (Value v : op->getResults())
      if (isMisaligned(v))
        misaligned.insert(v);
    for (Value v : op->getOperands())
      if (isMisaligned(v))
        misaligned.insert(v);
    if (misaligned.size() != 1)
      return std::nullopt;
    value = misaligned.front();
  }
  Operation *def = value ? value.getDefiningOp() : nullptr;
  // A precolored tuple's registers are where its data is.
  if (!def || isPrecolored(def) || !isa<InstInfoOpInterface>(def))
    return std::nullopt;
  Type virtualType = toVirtualReg(value.getType(), alignment);
  std::optional<std::vector<lsp::TextEdit>> edits =
      retypeValue(ctx.parsed, value, virtualType);
  if (!edits)
    return std::nullopt;
  Candidate fix;
  fix.title = "Let the allocator place " + nameOf(ctx.parsed, value) + " (" +
              printType(virtualType) + " instead of " +
              printType(value.getType()) + ")";
  fix.edits = std::move(*edits);
  return fix;
}

/// `scc`: the producer moved right before its reader (or the reader's
/// ancestor in the producer's block).
std::optional<Candidate> fixSCCClobber(const FixContext &ctx,
                                       const lsp::Diagnostic &diag) {
  Operation *consumer = findDiagnosedOp(ctx.parsed, diag.range);
  auto program = consumer ? consumer->getParentOfType<ProgramOp>() : nullptr;
  if (!program)
    return std::nullopt;
  SCCClobbers clobbers(program);
  Operation *producer = nullptr;
  for (Value operand : consumer->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (def && isa<SCCType>(operand.getType()) &&
        clobbers.clobberedBetween(def, consumer)) {
      producer = def;
      break;
    }
  }
  if (!producer)
    return std::nullopt;
  Block *block = producer->getBlock();
  Operation *anchor = block->findAncestorOpInBlock(*consumer);
  if (!anchor || anchor == producer || !producer->isBeforeInBlock(anchor))
    return std::nullopt;
  std::vector<conductor::MoveWarning> warnings;
  std::optional<lsp::TextEdit> edit = computeValidatedMoveEdit(
      ctx.parsed, *block, {producer, anchor, /*after=*/false}, nullptr,
      &warnings);
  // A move the Conductor warns about (memory order, a barrier, implicit
  // VCC/EXEC/M0) is a judgement call, not a fix.
  if (!edit || llvm::any_of(warnings, [](const conductor::MoveWarning &w) {
        return w.severity != conductor::Severity::Info;
      }))
    return std::nullopt;
  Candidate fix;
  fix.title = "Move `" + getMnemonic(producer).str() + "` next to `" +
              getMnemonic(consumer).str() + "`, which reads its SCC";
  fix.edits = {std::move(*edit)};
  size_t before = lintSCCClobbers(ctx.parsed, diag.severity).size();
  fix.resolved = [before, severity = diag.severity](const ParsedDocument &f) {
    return lintSCCClobbers(f, severity).size() < before;
  };
  return fix;
}

/// `unused`: the op's lines removed.
std::optional<Candidate> fixUnusedResult(const FixContext &ctx,
                                         const lsp::Diagnostic &diag) {
  Operation *op = findDiagnosedOp(ctx.parsed, diag.range);
  if (!op || !isRemovableUnusedOp(op))
    return std::nullopt;
  FailureOr<std::vector<conductor::OpTextRange>> ranges =
      conductor::computeOpTextRanges(ctx.parsed.getText(), *op->getBlock(),
                                     ctx.parsed.getAsmState());
  if (failed(ranges))
    return std::nullopt;
  unsigned index = 0;
  for (Operation &other : *op->getBlock()) {
    if (&other == op)
      break;
    ++index;
  }
  const conductor::OpTextRange &range = (*ranges)[index];
  const LineTable &lines = ctx.parsed.getLines();
  Candidate fix;
  fix.title = "Remove `" + getMnemonic(op).str() + "`, whose result " +
              nameOf(ctx.parsed, op->getResult(0)) + " is unused";
  fix.edits = {
      {{lines.getPosition(range.begin), lines.getPosition(range.end)}, ""}};
  size_t ops = ctx.parsed.getOps().size();
  fix.resolved = [ops](const ParsedDocument &fixed) {
    return fixed.getOps().size() + 1 == ops;
  };
  return fix;
}

/// The first `maxDiagnostics` distinct diagnostics.
std::vector<lsp::Diagnostic>
boundDiagnostics(llvm::ArrayRef<lsp::Diagnostic> diagnostics,
                 const QuickFixOptions &options) {
  std::vector<lsp::Diagnostic> bounded;
  for (const lsp::Diagnostic &diag : diagnostics) {
    if (bounded.size() == options.maxDiagnostics)
      break;
    if (llvm::none_of(bounded, [&](const lsp::Diagnostic &d) {
          return d.range == diag.range && d.message == diag.message;
        }))
      bounded.push_back(diag);
  }
  return bounded;
}

std::optional<Candidate> proposeFix(const FixContext &ctx,
                                    const lsp::Diagnostic &diag) {
  if (diag.code == stringifyLintCode(LintCode::SCC))
    return fixSCCClobber(ctx, diag);
  if (diag.code == stringifyLintCode(LintCode::Unused))
    return fixUnusedResult(ctx, diag);
  if (!diag.code.empty() && diag.code != "verifier" && diag.code != "pipeline")
    return std::nullopt;
  for (auto propose : {fixMFMAWidth, fixBufferDescriptor, fixUnavailableOp,
                       fixMisalignedTuple})
    if (std::optional<Candidate> fix = propose(ctx, diag))
      return fix;
  return std::nullopt;
}

} // namespace

std::vector<lsp::Diagnostic> waveasm::server::selectQuickFixDiagnostics(
    llvm::ArrayRef<lsp::Diagnostic> context,
    llvm::ArrayRef<lsp::Diagnostic> all, lsp::Range range) {
  if (!context.empty())
    return context.vec();
  std::vector<lsp::Diagnostic> touching;
  for (const lsp::Diagnostic &d : all)
    if (!(d.range.end < range.start) && !(range.end < d.range.start))
      touching.push_back(d);
  return touching;
}

bool waveasm::server::isStallDiagnostic(const lsp::Diagnostic &diagnostic) {
  return diagnostic.code == stringifyLintCode(LintCode::Stall);
}

std::vector<lsp::CodeAction> waveasm::server::computeQuickFixes(
    const ParsedDocument &parsed, llvm::ArrayRef<lsp::Diagnostic> diagnostics,
    const ServerSettings &settings, const QuickFixOptions &options) {
  std::vector<lsp::CodeAction> actions;
  if (!parsed.getModule())
    return actions;
  FixContext ctx{parsed, settings, options};
  // Re-verification parses a copy: its diagnostics are its own.
  DiagnosticCapture quiet(parsed.getContext());
  for (const lsp::Diagnostic &diag : boundDiagnostics(diagnostics, options))
    if (std::optional<Candidate> fix = proposeFix(ctx, diag))
      if (std::optional<lsp::CodeAction> action =
              offer(ctx, diag, std::move(*fix)))
        actions.push_back(std::move(*action));
  return actions;
}

//===--- stall fixes -----------------------------------------------------===//

namespace {

/// True if `fixed`, compiled, has a stall lint on an op written as `text`.
bool stallsAt(const ParsedDocument &fixed, llvm::StringRef text,
              const ServerSettings &settings) {
  if (!fixed.isVerified())
    return true;
  CompiledDocument compiled(fixed, settings);
  if (!compiled.succeeded())
    return true;
  for (const lsp::Diagnostic &d : computeLints(fixed, compiled, settings)) {
    if (!isStallDiagnostic(d))
      continue;
    unsigned entry = fixed.findOpNameAt(d.range.start);
    if (entry != OpEntry::kNone && getOpText(fixed, entry) == text)
      return true;
  }
  return false;
}

} // namespace

std::vector<lsp::CodeAction> waveasm::server::computeStallQuickFixes(
    const ParsedDocument &parsed, const CompiledDocument *compiled,
    llvm::ArrayRef<lsp::Diagnostic> diagnostics, const ServerSettings &settings,
    const QuickFixOptions &options) {
  std::vector<lsp::CodeAction> actions;
  if (!parsed.isVerified() || !freshOrNull(parsed, compiled) ||
      !compiled->succeeded())
    return actions;
  FixContext ctx{parsed, settings, options};
  for (const lsp::Diagnostic &diag : boundDiagnostics(diagnostics, options)) {
    if (!isStallDiagnostic(diag) || diag.range.start.line < 0)
      continue;
    unsigned entry = parsed.findOpNameAt(diag.range.start);
    if (entry == OpEntry::kNone)
      continue;
    Operation *stalled = parsed.getOps()[entry].op;
    // The stalled op moved later, or the producer it waits for moved
    // earlier (when it is in the same block: the lint's related location).
    llvm::SmallVector<Operation *, 2> candidates = {stalled};
    if (const CompiledOpInfo *info = compiled->lookup(entry)) {
      const ProgramAnnotations &ann =
          *compiled->getPrograms()[info->program].annotations;
      OperandSource source =
          findLatestOperand(ann, info->compiled, /*memoryOnly=*/false);
      std::optional<unsigned> producer =
          source ? compiled->lookupCompiled(source.producer) : std::nullopt;
      if (producer) {
        Operation *op = parsed.getOps()[*producer].op;
        if (Operation *inBlock =
                stalled->getBlock()->findAncestorOpInBlock(*op))
          if (inBlock != stalled)
            candidates.push_back(inBlock);
      }
    }
    std::vector<SingleMoveEdit> moves;
    for (Operation *op : candidates) {
      std::vector<SingleMoveEdit> found =
          computeSingleMoveEdits(parsed, *stalled->getBlock(), op, settings,
                                 /*maxMoves=*/2, options.maxCandidates);
      moves.insert(moves.end(), std::make_move_iterator(found.begin()),
                   std::make_move_iterator(found.end()));
    }
    // Each list is best first; together, by the measured deltas.
    llvm::stable_sort(moves,
                      [](const SingleMoveEdit &a, const SingleMoveEdit &b) {
                        return std::make_pair(a.cyclesDelta, a.vgprDelta) <
                               std::make_pair(b.cyclesDelta, b.vgprDelta);
                      });
    llvm::StringRef text = getOpText(parsed, entry);
    DiagnosticCapture quiet(parsed.getContext());
    for (SingleMoveEdit &move : moves) {
      if (llvm::any_of(move.warnings, [](const conductor::MoveWarning &w) {
            return w.severity == conductor::Severity::Critical;
          }))
        continue;
      std::unique_ptr<ParsedDocument> fixed = parseFixed(ctx, {move.edit});
      if (!hasNoNewErrors(parsed, diag, *fixed) ||
          stallsAt(*fixed, text, settings))
        continue;
      lsp::CodeAction action;
      action.title = std::move(move.title);
      action.kind = kQuickFixKind.str();
      action.diagnostics = {diag};
      // A schedule change trades cycles: never applied without a look.
      action.isPreferred = false;
      action.edit = makeWorkspaceEdit(parsed, {std::move(move.edit)},
                                      options.versionedEdits);
      actions.push_back(std::move(action));
      break;
    }
  }
  return actions;
}
