//===- SourceLints.cpp - scc and unused: lints on the text as written -----===//
//
// Both read only the parsed module (no pipeline): what they report is a
// property of the IR as written, and their quick fixes (QuickFixes.cpp)
// check the fixed text with the same functions.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"

#include "pipeline/SCCClobbers.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {

/// "`s_cmp_lt_u32` on line 12".
std::string describeOp(const ParsedDocument &parsed, Operation *op) {
  std::string text = "`" + getMnemonic(op).str() + "`";
  if (std::optional<unsigned> entry = parsed.lookupOp(op))
    text += " on line " + std::to_string(getDisplayLine(parsed, *entry));
  return text;
}

/// True if every result is an SSA value of its own (virtual registers and
/// SCC): a physical result names registers that a later precolored value
/// may read without an SSA use.
bool hasOnlyVirtualResults(Operation *op) {
  return llvm::all_of(op->getResultTypes(), [](Type type) {
    return isa<SCCType>(type) || (getRegClass(type) && !isPhysicalReg(type));
  });
}

} // namespace

std::vector<lsp::Diagnostic>
waveasm::server::lintSCCClobbers(const ParsedDocument &parsed,
                                 lsp::DiagnosticSeverity severity) {
  std::vector<lsp::Diagnostic> out;
  if (!parsed.getModule() || !parsed.isVerified())
    return out;
  for (unsigned programEntry : parsed.getPrograms()) {
    Operation *program = parsed.getOps()[programEntry].op;
    SCCClobbers clobbers(program);
    program->walk([&](Operation *consumer) {
      for (Value operand : consumer->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (!producer || !isa<SCCType>(operand.getType()) ||
            !clobbers.clobberedBetween(producer, consumer))
          continue;
        std::optional<unsigned> entry = parsed.lookupOp(consumer);
        if (!entry)
          continue;
        SmallVector<Operation *> writers =
            clobbers.collectBetween(producer, consumer);
        std::string by = writers.size() == 1
                             ? describeOp(parsed, writers.front())
                             : std::to_string(writers.size()) +
                                   " SCC writers (first " +
                                   describeOp(parsed, writers.front()) + ")";
        lsp::Diagnostic diag = makeLintDiagnostic(
            LintCode::SCC, parsed.getOps()[*entry].name, severity,
            "SCC from " + describeOp(parsed, producer) + " is overwritten by " +
                by + " before `" + getMnemonic(consumer).str() +
                "` reads it: the pipeline saves it in an SGPR and re-creates "
                "it (s_cselect_b32, s_cmp_ne_u32); put the producer next to "
                "its reader");
        if (std::optional<unsigned> def = parsed.lookupOp(producer))
          diag.related.push_back(
              {makeLocation(parsed, parsed.getOps()[*def].name),
               "SCC defined here"});
        for (Operation *writer : writers)
          if (std::optional<unsigned> at = parsed.lookupOp(writer))
            diag.related.push_back(
                {makeLocation(parsed, parsed.getOps()[*at].name),
                 "SCC overwritten here"});
        out.push_back(std::move(diag));
      }
    });
  }
  return out;
}

bool waveasm::server::isRemovableUnusedOp(Operation *op) {
  auto facts = dyn_cast<InstInfoOpInterface>(op);
  if (!facts || op->getNumRegions() || op->getNumResults() == 0 ||
      facts.isNonEmitting() || facts.isPinned() || facts.getMemReads() ||
      facts.getMemWrites() ||
      (facts.getImplicitDefs() & (ImpVCC | ImpEXEC | ImpM0)))
    return false;
  return op->use_empty() && hasOnlyVirtualResults(op);
}

std::vector<lsp::Diagnostic>
waveasm::server::lintUnusedResults(const ParsedDocument &parsed,
                                   lsp::DiagnosticSeverity severity) {
  std::vector<lsp::Diagnostic> out;
  if (!parsed.getModule() || !parsed.isVerified())
    return out;
  for (const OpEntry &entry : parsed.getOps()) {
    if (!isRemovableUnusedOp(entry.op))
      continue;
    std::string name = getValueName(parsed, entry.op->getResult(0));
    lsp::Diagnostic diag = makeLintDiagnostic(
        LintCode::Unused, entry.name, severity,
        "`" + getMnemonic(entry.op).str() + "` computes " + name +
            (entry.op->getNumResults() > 1 ? " (all its results)" : "") +
            ", which nothing reads, and has no other effect");
    diag.tags = {1}; // Unnecessary: editors fade the op
    out.push_back(std::move(diag));
  }
  return out;
}
