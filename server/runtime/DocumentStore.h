//===- DocumentStore.h - open documents and their edits ---------*- C++ -*-===//
//
// The text of every open document as the client has it, kept in sync by
// didOpen/didChange/didClose (TextDocumentSyncKind.Incremental). Edits are
// ranges in LSP positions (UTF-16 code units) applied to UTF-8 text.
//
// Robustness rules (a bad edit must not crash the server or corrupt the
// text silently):
//   - a line past the end means the end of the document, a character past
//     the end of its line means the end of that line (before "\r\n");
//   - a character inside a surrogate pair (the middle of a 4-byte UTF-8
//     sequence) means after that character, as in server/Positions.cpp;
//   - negative positions and ranges whose start is after their end are
//     rejected: the whole didChange is refused and the text stays as it
//     was (an edit applied to a guessed text would only diverge further).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_DOCUMENTSTORE_H
#define WAVEASM_SERVER_RUNTIME_DOCUMENTSTORE_H

#include "protocol/LspParams.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <string>

namespace waveasm::server {

struct TextDocument {
  std::string uri;
  std::string languageId;
  int64_t version = 0;
  std::string text;
};

/// Byte offset of `pos` in `text` under the rules above; nullopt for a
/// negative position.
std::optional<size_t> positionToOffset(llvm::StringRef text, lsp::Position pos);
/// The LSP position of byte `offset` (clamped to the text).
lsp::Position offsetToPosition(llvm::StringRef text, size_t offset);

/// Applies one content change to `text` in place; on error `text` is
/// unchanged.
llvm::Error applyChange(std::string &text,
                        const lsp::TextDocumentContentChangeEvent &change);

class DocumentStore {
public:
  /// Opens (or reopens, replacing) a document.
  const TextDocument &open(const lsp::TextDocumentItem &item);
  /// Applies the changes in order, all or nothing, and sets the version.
  /// Errors: unknown document, invalid range. A version that does not
  /// increase is accepted (the client is the authority) and logged.
  llvm::Expected<const TextDocument *>
  change(const lsp::VersionedTextDocumentIdentifier &id,
         llvm::ArrayRef<lsp::TextDocumentContentChangeEvent> changes);
  /// False if it was not open.
  bool close(llvm::StringRef uri);
  /// Null if not open.
  const TextDocument *get(llvm::StringRef uri) const;
  std::vector<std::string> getURIs() const;
  size_t size() const { return documents.size(); }

private:
  llvm::StringMap<TextDocument> documents;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_DOCUMENTSTORE_H
