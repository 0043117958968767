//===- DiagnosticRanges.h - MLIR locations as LSP ranges --------*- C++ -*-===//
//
// Where a diagnostic goes in a text: MLIR locates diagnostics by
// file:line:col, an editor wants the range of the token there. Shared by
// the full parse (ParsedDocument) and the incremental one
// (IncrementalModel), which must agree to the character.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_DIAGNOSTICRANGES_H
#define WAVEASM_SERVER_DIAGNOSTICRANGES_H

#include "server/DiagnosticCapture.h"
#include "server/DocumentState.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace waveasm::server {

/// The range of the source token starting at byte `offset` of `lines`'
/// text: an identifier with its sigil, a string, else one character.
lsp::Range tokenRangeAt(const LineTable &lines, size_t offset);

/// The token range of the first position in `loc` (or nested in it) that
/// lies in the document `uri`; nullopt if there is none.
std::optional<lsp::Range> fileRangeOf(mlir::Location loc, llvm::StringRef uri,
                                      const LineTable &lines);

/// An MLIR diagnostic as an LSP one in the document `uri`; notes become
/// related information. `rangeOf` places a location (nullopt: the
/// diagnostic goes to the first line, a note to the diagnostic's range).
lsp::Diagnostic toLspDiagnostic(
    const RawDiagnostic &raw, llvm::StringRef uri,
    llvm::function_ref<std::optional<lsp::Range>(mlir::Location)> rangeOf);

} // namespace waveasm::server

#endif // WAVEASM_SERVER_DIAGNOSTICRANGES_H
