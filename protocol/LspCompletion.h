//===- LspCompletion.h - completion and signature help types ----*- C++ -*-===//
//
// The LSP 3.17 shapes of textDocument/completion, completionItem/resolve
// and textDocument/signatureHelp, and their JSON (LspCompletionJSON.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_LSPCOMPLETION_H
#define WAVEASM_PROTOCOL_LSPCOMPLETION_H

#include "protocol/LspJSON.h"

namespace waveasm::lsp {

// LSP CompletionItemKind values used here.
enum class CompletionItemKind {
  Function = 3,
  Variable = 6,
  Property = 10,
  Keyword = 14,
  Snippet = 15,
  EnumMember = 20,
  Operator = 24,
  TypeParameter = 25,
};

enum class InsertTextFormat { PlainText = 1, Snippet = 2 };

struct CompletionItem {
  std::string label;
  CompletionItemKind kind = CompletionItemKind::Function;
  std::string detail;
  std::optional<MarkupContent> documentation;
  std::string sortText;   // empty: the label
  std::string filterText; // empty: the label
  /// Replaces the typed prefix; `format` says whether newText is a snippet.
  TextEdit textEdit;
  InsertTextFormat format = InsertTextFormat::PlainText;
  bool preselect = false;
  /// Returned by the client in completionItem/resolve.
  llvm::json::Value data = nullptr;
};

struct CompletionList {
  /// True: the client asks again as the user types (the list depends on
  /// more than the prefix).
  bool isIncomplete = false;
  std::vector<CompletionItem> items;
  /// LSP 3.17 itemDefaults.editRange, for clients that support it: items
  /// whose edit has this range send only its text (`textEditText`), which
  /// halves the JSON of a long list.
  std::optional<Range> defaultEditRange;
};

struct ParameterInformation {
  /// [start, end) of the parameter in the signature's label, UTF-16.
  unsigned labelStart = 0, labelEnd = 0;
  std::optional<MarkupContent> documentation;
};

struct SignatureInformation {
  std::string label;
  std::optional<MarkupContent> documentation;
  std::vector<ParameterInformation> parameters;
  std::optional<unsigned> activeParameter;
};

struct SignatureHelp {
  std::vector<SignatureInformation> signatures;
  unsigned activeSignature = 0;
  std::optional<unsigned> activeParameter;
};

#define WAVEASM_LSP_JSON(Type)                                                 \
  llvm::json::Value toJSON(const Type &value);                                 \
  bool fromJSON(const llvm::json::Value &json, Type &value,                    \
                llvm::json::Path path);

WAVEASM_LSP_JSON(CompletionItemKind)
WAVEASM_LSP_JSON(CompletionItem)
WAVEASM_LSP_JSON(CompletionList)
WAVEASM_LSP_JSON(ParameterInformation)
WAVEASM_LSP_JSON(SignatureInformation)
WAVEASM_LSP_JSON(SignatureHelp)

#undef WAVEASM_LSP_JSON

} // namespace waveasm::lsp

#endif // WAVEASM_PROTOCOL_LSPCOMPLETION_H
