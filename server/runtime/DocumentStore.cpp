//===- DocumentStore.cpp - open documents and their edits
//------------------===//

#include "server/runtime/DocumentStore.h"

#include "protocol/JsonRpc.h"
#include "protocol/Logger.h"
#include "server/DocumentState.h"

using namespace waveasm;
using namespace waveasm::server;
using llvm::StringRef;

std::optional<size_t> waveasm::server::positionToOffset(StringRef text,
                                                        lsp::Position pos) {
  if (pos.line < 0 || pos.character < 0)
    return std::nullopt;
  // Find the line start; a line past the end clamps to the end.
  size_t start = 0;
  for (int line = 0; line < pos.line; ++line) {
    size_t newline = text.find('\n', start);
    if (newline == StringRef::npos)
      return text.size();
    start = newline + 1;
  }
  size_t end = text.find('\n', start);
  if (end == StringRef::npos)
    end = text.size();
  StringRef content = text.slice(start, end);
  // The "\r" of "\r\n" belongs to the line break, not to the line.
  if (content.ends_with("\r"))
    content = content.drop_back();
  return start + utf8OffsetOfUtf16(content, pos.character);
}

lsp::Position waveasm::server::offsetToPosition(StringRef text, size_t offset) {
  offset = std::min(offset, text.size());
  StringRef before = text.take_front(offset);
  size_t lineStart = before.rfind('\n');
  lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
  lsp::Position pos;
  pos.line = static_cast<int>(before.count('\n'));
  pos.character = utf16Length(before.drop_front(lineStart));
  return pos;
}

llvm::Error waveasm::server::applyChange(
    std::string &text, const lsp::TextDocumentContentChangeEvent &change) {
  if (!change.range) {
    text = change.text;
    return llvm::Error::success();
  }
  const lsp::Range &range = *change.range;
  std::optional<size_t> start = positionToOffset(text, range.start);
  std::optional<size_t> end = positionToOffset(text, range.end);
  if (!start || !end)
    return lsp::makeError(lsp::ErrorCode::InvalidParams,
                          "negative position in a change range");
  if (*start > *end)
    return lsp::makeError(lsp::ErrorCode::InvalidParams,
                          "change range starts after it ends");
  text.replace(*start, *end - *start, change.text);
  return llvm::Error::success();
}

const TextDocument &DocumentStore::open(const lsp::TextDocumentItem &item) {
  TextDocument &doc = documents[item.uri];
  doc.uri = item.uri;
  doc.languageId = item.languageId;
  doc.version = item.version;
  doc.text = item.text;
  return doc;
}

llvm::Expected<const TextDocument *> DocumentStore::change(
    const lsp::VersionedTextDocumentIdentifier &id,
    llvm::ArrayRef<lsp::TextDocumentContentChangeEvent> changes) {
  auto it = documents.find(id.uri);
  if (it == documents.end())
    return lsp::makeError(lsp::ErrorCode::InvalidParams,
                          "didChange for a document that is not open: " +
                              id.uri);
  TextDocument &doc = it->second;
  if (id.version <= doc.version)
    lsp::logInfo("{0}: version {1} does not follow {2}", id.uri, id.version,
                 doc.version);
  // One ranged change (the common case): it either applies in place or
  // fails leaving the text untouched, so no copy is needed.
  if (changes.size() == 1 && changes.front().range) {
    if (llvm::Error error = applyChange(doc.text, changes.front()))
      return std::move(error);
    doc.version = id.version;
    return &doc;
  }
  // All or nothing: apply to a copy only when some change is ranged (a
  // full-text change needs no copy of the old text).
  std::string text;
  bool copied = false;
  for (const lsp::TextDocumentContentChangeEvent &c : changes) {
    if (!copied && c.range) {
      text = doc.text;
      copied = true;
    }
    if (!c.range) {
      text = c.text;
      copied = true;
      continue;
    }
    if (llvm::Error error = applyChange(text, c))
      return std::move(error);
  }
  if (copied)
    doc.text = std::move(text);
  doc.version = id.version;
  return &doc;
}

bool DocumentStore::close(StringRef uri) { return documents.erase(uri); }

const TextDocument *DocumentStore::get(StringRef uri) const {
  auto it = documents.find(uri);
  return it == documents.end() ? nullptr : &it->second;
}

std::vector<std::string> DocumentStore::getURIs() const {
  std::vector<std::string> uris;
  for (const auto &entry : documents)
    uris.push_back(entry.getKey().str());
  return uris;
}
