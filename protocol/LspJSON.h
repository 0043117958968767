//===- LspJSON.h - JSON form of the LSP value types -------------*- C++ -*-===//
//
// toJSON/fromJSON for every struct of LspTypes.h, in the shapes LSP 3.17
// defines. Found by argument-dependent lookup, so llvm::json::Value can be
// built directly from these types and containers of them. Optional fields
// left at their default (empty code, no related information, no tooltip)
// are omitted rather than sent empty.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_LSPJSON_H
#define WAVEASM_PROTOCOL_LSPJSON_H

#include "protocol/LspTypes.h"

#include "llvm/Support/JSON.h"

namespace waveasm::lsp {

#define WAVEASM_LSP_JSON(Type)                                                 \
  llvm::json::Value toJSON(const Type &value);                                 \
  bool fromJSON(const llvm::json::Value &json, Type &value,                    \
                llvm::json::Path path);

WAVEASM_LSP_JSON(Position)
WAVEASM_LSP_JSON(Range)
WAVEASM_LSP_JSON(Location)
WAVEASM_LSP_JSON(DiagnosticSeverity)
WAVEASM_LSP_JSON(DiagnosticRelatedInformation)
WAVEASM_LSP_JSON(Diagnostic)
WAVEASM_LSP_JSON(MarkupKind)
WAVEASM_LSP_JSON(MarkupContent)
WAVEASM_LSP_JSON(Hover)
WAVEASM_LSP_JSON(InlayHintKind)
WAVEASM_LSP_JSON(InlayHint)
WAVEASM_LSP_JSON(TextEdit)
WAVEASM_LSP_JSON(ChangeAnnotation)
WAVEASM_LSP_JSON(TextDocumentEdit)
WAVEASM_LSP_JSON(WorkspaceEdit)
WAVEASM_LSP_JSON(DocumentHighlightKind)
WAVEASM_LSP_JSON(DocumentHighlight)
WAVEASM_LSP_JSON(SymbolKind)
WAVEASM_LSP_JSON(DocumentSymbol)
WAVEASM_LSP_JSON(FoldingRange)
WAVEASM_LSP_JSON(Command)
WAVEASM_LSP_JSON(CodeLens)
WAVEASM_LSP_JSON(CodeAction)

#undef WAVEASM_LSP_JSON

/// Semantic tokens travel as one flat integer array, five per token, each
/// position relative to the previous token (LSP 3.17 "integer encoding").
/// `tokens` must be sorted by position.
llvm::json::Array
encodeSemanticTokens(const std::vector<SemanticToken> &tokens);
/// The inverse; fails on a length that is not a multiple of five or a
/// non-integer entry.
bool decodeSemanticTokens(const llvm::json::Value &data,
                          std::vector<SemanticToken> &tokens,
                          llvm::json::Path path);

} // namespace waveasm::lsp

#endif // WAVEASM_PROTOCOL_LSPJSON_H
