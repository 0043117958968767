//===- MemoryLints.cpp - redundantLoad: loads that repeat a load ----------===//
//
// On the text as written, like SourceLints.cpp: the loads that
// analysis/RedundantLoads.h finds (the analysis behind
// --waveasm-redundant-load-elim, so the lint and the pass always agree).
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"

#include "analysis/RedundantLoads.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

std::vector<lsp::Diagnostic>
waveasm::server::lintRedundantLoads(const ParsedDocument &parsed,
                                    lsp::DiagnosticSeverity severity) {
  std::vector<lsp::Diagnostic> out;
  if (!parsed.getModule() || !parsed.isVerified())
    return out;
  for (unsigned programEntry : parsed.getPrograms()) {
    auto program = cast<ProgramOp>(parsed.getOps()[programEntry].op);
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
