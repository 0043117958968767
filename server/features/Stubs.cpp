//===- Stubs.cpp - features not implemented yet ---------------------------===//

#include "server/Features.h"

using namespace waveasm::server;
namespace lsp = waveasm::lsp;

std::vector<lsp::Diagnostic>
waveasm::server::computeLints(const ParsedDocument &, const CompiledDocument &,
                              const ServerSettings &) {
  return {};
}
std::vector<lsp::Diagnostic>
waveasm::server::computeDiagnostics(const ParsedDocument &parsed,
                                    const CompiledDocument *,
                                    const ServerSettings &) {
  return parsed.getDiagnostics();
}
std::vector<lsp::InlayHint> waveasm::server::computeInlayHints(
    const ParsedDocument &, const CompiledDocument *, lsp::Range,
    const ServerSettings &) {
  return {};
}
std::optional<lsp::Hover>
waveasm::server::computeHover(const ParsedDocument &, const CompiledDocument *,
                              lsp::Position) {
  return std::nullopt;
}
std::vector<lsp::Location>
waveasm::server::findDefinition(const ParsedDocument &, lsp::Position) {
  return {};
}
std::vector<lsp::Location>
waveasm::server::findReferences(const ParsedDocument &, lsp::Position, bool) {
  return {};
}
std::vector<lsp::DocumentHighlight>
waveasm::server::computeDocumentHighlights(const ParsedDocument &,
                                           lsp::Position) {
  return {};
}
std::optional<lsp::Range> waveasm::server::prepareRename(const ParsedDocument &,
                                                         lsp::Position) {
  return std::nullopt;
}
bool waveasm::server::isValidSSAName(llvm::StringRef) { return false; }
std::optional<lsp::WorkspaceEdit>
waveasm::server::renameValue(const ParsedDocument &, lsp::Position,
                             llvm::StringRef, std::string *error) {
  if (error)
    *error = "not implemented";
  return std::nullopt;
}
std::vector<lsp::DocumentSymbol>
waveasm::server::computeDocumentSymbols(const ParsedDocument &) {
  return {};
}
std::vector<lsp::FoldingRange>
waveasm::server::computeFoldingRanges(const ParsedDocument &) {
  return {};
}
const SemanticTokenLegend &waveasm::server::getSemanticTokenLegend() {
  static SemanticTokenLegend legend;
  return legend;
}
std::vector<lsp::SemanticToken>
waveasm::server::computeSemanticTokens(const ParsedDocument &,
                                       std::optional<lsp::Range>) {
  return {};
}
std::vector<lsp::CodeLens>
waveasm::server::computeCodeLenses(const ParsedDocument &,
                                   const CompiledDocument *) {
  return {};
}
std::string waveasm::server::renderMetricsTable(const ParsedDocument &,
                                                const CompiledDocument &) {
  return {};
}
std::string waveasm::server::renderInstructionTable(const ParsedDocument &,
                                                    const CompiledDocument &) {
  return {};
}
