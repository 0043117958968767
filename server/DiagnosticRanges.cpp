//===- DiagnosticRanges.cpp - MLIR locations as LSP ranges ----------------===//

#include "server/DiagnosticRanges.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;

namespace {

bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

lsp::DiagnosticSeverity toLspSeverity(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return lsp::DiagnosticSeverity::Error;
  case DiagnosticSeverity::Warning:
    return lsp::DiagnosticSeverity::Warning;
  case DiagnosticSeverity::Remark:
    return lsp::DiagnosticSeverity::Information;
  case DiagnosticSeverity::Note:
    return lsp::DiagnosticSeverity::Hint;
  }
  return lsp::DiagnosticSeverity::Error;
}

} // namespace

lsp::Range waveasm::server::tokenRangeAt(const LineTable &lines,
                                         size_t offset) {
  llvm::StringRef text = lines.getText();
  if (offset >= text.size()) {
    lsp::Position pos = lines.getPosition(offset);
    return {pos, pos};
  }
  const char *begin = text.data(), *end = begin + text.size();
  const char *p = begin + offset, *q = p;
  if (*q == '"') {
    for (++q; q < end && *q != '"' && *q != '\n'; ++q)
      if (*q == '\\' && q + 1 < end)
        ++q;
    if (q < end && *q == '"')
      ++q;
  } else if (strchr("%@^#!", *q) || isIdentifierChar(*q)) {
    for (++q; q < end && isIdentifierChar(*q); ++q)
      ;
  } else if (*q != '\n' && *q != '\r') {
    // One character, a whole UTF-8 sequence.
    for (++q; q < end && (static_cast<unsigned char>(*q) & 0xC0) == 0x80; ++q)
      ;
  }
  unsigned hint = ~0u;
  lsp::Position start = lines.getPosition(p - begin, hint);
  return {start, lines.getPosition(q - begin, hint)};
}

std::optional<lsp::Range> waveasm::server::fileRangeOf(Location loc,
                                                       llvm::StringRef uri,
                                                       const LineTable &lines) {
  std::optional<lsp::Range> found;
  loc->walk([&](Location nested) {
    auto file = dyn_cast<FileLineColRange>(nested);
    if (!file || file.getFilename().getValue() != uri)
      return WalkResult::advance();
    unsigned line = std::max(file.getStartLine(), 1u);
    unsigned column = std::max(file.getStartColumn(), 1u);
    if (line > lines.getNumLines())
      return WalkResult::advance();
    size_t offset =
        lines.getLineStart(line - 1) +
        std::min<size_t>(column - 1, lines.getLine(line - 1).size());
    found = tokenRangeAt(lines, offset);
    return WalkResult::interrupt();
  });
  return found;
}

lsp::Diagnostic waveasm::server::toLspDiagnostic(
    const RawDiagnostic &raw, llvm::StringRef uri,
    llvm::function_ref<std::optional<lsp::Range>(Location)> rangeOf) {
  lsp::Diagnostic diag;
  diag.severity = toLspSeverity(raw.severity);
  diag.message = raw.message;
  diag.range = rangeOf(raw.loc).value_or(lsp::Range{});
  for (const auto &[loc, message] : raw.notes) {
    // MLIRContext::printOpOnDiagnostic's note repeats the op in generic
    // form: useful in a terminal, noise next to the op in an editor.
    if (llvm::StringRef(message).starts_with("see current operation:"))
      continue;
    lsp::DiagnosticRelatedInformation info;
    info.location.uri = uri.str();
    info.location.range = rangeOf(loc).value_or(diag.range);
    info.message = message;
    diag.related.push_back(std::move(info));
  }
  return diag;
}
