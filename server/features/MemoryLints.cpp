//===- MemoryLints.cpp - redundantLoad, loadBehindStore -------------------===//
//
// On the text as written, like SourceLints.cpp: the loads that
// analysis/RedundantLoads.h finds (the analysis behind
// --waveasm-redundant-load-elim, so the lint and the pass always agree),
// and the loads of an outer loop that analysis/LoadsBehindStores.h finds
// kept behind a store for want of a noalias_args declaration.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"

#include "analysis/LoadsBehindStores.h"
#include "analysis/RedundantLoads.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {
/// The document's programs when it parsed and verified (the memory
/// analyses read verified IR only), else none.
llvm::SmallVector<ProgramOp> verifiedPrograms(const ParsedDocument &parsed) {
  llvm::SmallVector<ProgramOp> programs;
  if (!parsed.getModule() || !parsed.isVerified())
    return programs;
  for (unsigned entry : parsed.getPrograms())
    programs.push_back(cast<ProgramOp>(parsed.getOps()[entry].op));
  return programs;
}
} // namespace

std::vector<lsp::Diagnostic>
waveasm::server::lintRedundantLoads(const ParsedDocument &parsed,
                                    lsp::DiagnosticSeverity severity) {
  std::vector<lsp::Diagnostic> out;
  for (ProgramOp program : verifiedPrograms(parsed)) {
    for (const RedundantLoad &r : findRedundantLoads(program)) {
      std::optional<unsigned> entry = parsed.lookupOp(r.load);
      std::optional<unsigned> first = parsed.lookupOp(r.earlier);
      if (!entry || !first)
        continue;
      std::string mnemonic = getMnemonic(r.load).str();
      lsp::Diagnostic diag = makeLintDiagnostic(
          LintCode::RedundantLoad, parsed.getOps()[*entry].name, severity,
          "`" + mnemonic + "` reads what the same load on line " +
              std::to_string(getDisplayLine(parsed, *first)) + " (" +
              getValueName(parsed, r.earlier->getResult(0)) +
              ") read: no write that may alias it, barrier or EXEC change "
              "between; use that result (--waveasm-redundant-load-elim does)");
      diag.tags = {1}; // Unnecessary
      diag.related.push_back(
          {makeLocation(parsed, parsed.getOps()[*first].name),
           "first loaded here"});
      out.push_back(std::move(diag));
    }
  }
  return out;
}

std::vector<lsp::Diagnostic>
waveasm::server::lintLoadsBehindStores(const ParsedDocument &parsed,
                                       lsp::DiagnosticSeverity severity) {
  std::vector<lsp::Diagnostic> out;
  for (ProgramOp program : verifiedPrograms(parsed)) {
    for (const LoadBehindStore &f : findLoadsBehindStores(program)) {
      std::optional<unsigned> entry = parsed.lookupOp(f.load);
      std::optional<unsigned> store = parsed.lookupOp(f.store);
      if (!entry || !store)
        continue;
      lsp::Diagnostic diag = makeLintDiagnostic(
          LintCode::LoadBehindStore, parsed.getOps()[*entry].name, severity,
          "`" + getMnemonic(f.load).str() + "` waits behind `" +
              getMnemonic(f.store).str() + "` on line " +
              std::to_string(getDisplayLine(parsed, *store)) +
              (f.sameIteration ? "" : " of the previous iteration") +
              ": nothing says their memory is apart, so no schedule (the "
              "outer-loop rotation of --waveasm-pipeline-loops included) "
              "may issue the load first; " +
              f.apart);
      diag.related.push_back(
          {makeLocation(parsed, parsed.getOps()[*store].name),
           "the store it stays behind"});
      out.push_back(std::move(diag));
    }
  }
  return out;
}
