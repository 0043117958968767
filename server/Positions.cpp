//===- Positions.cpp - byte offsets <-> LSP positions ---------------------===//
//
// LSP counts characters in UTF-16 code units; the text is UTF-8. Lines are
// short, so converting one position scans one line prefix.
//
//===----------------------------------------------------------------------===//

#include "server/DocumentState.h"

#include <algorithm>
#include <cstring>

using namespace waveasm;
using namespace waveasm::server;

namespace {

/// Length of the UTF-8 sequence a lead byte starts (1 for invalid bytes:
/// they count as one unit each, as editors show them).
unsigned sequenceLength(unsigned char c) {
  if (c < 0xC0)
    return 1;
  if (c < 0xE0)
    return 2;
  if (c < 0xF0)
    return 3;
  if (c < 0xF8)
    return 4;
  return 1;
}

} // namespace

int waveasm::server::utf16Length(llvm::StringRef utf8) {
  int units = 0;
  for (size_t i = 0, e = utf8.size(); i < e;) {
    unsigned len = sequenceLength(utf8[i]);
    // A truncated sequence at the end counts byte by byte.
    if (i + len > e)
      len = 1;
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return units;
}

size_t waveasm::server::utf8OffsetOfUtf16(llvm::StringRef utf8, int units) {
  size_t i = 0;
  for (int seen = 0; i < utf8.size() && seen < units;) {
    unsigned len = sequenceLength(utf8[i]);
    if (i + len > utf8.size())
      len = 1;
    seen += len == 4 ? 2 : 1;
    i += len;
  }
  return i;
}

namespace {

/// True if [begin, end) holds only ASCII bytes; eight bytes at a time
/// (LineTable runs on every keystroke's text).
bool isAscii(const char *begin, const char *end) {
  uint64_t bits = 0;
  for (; end - begin >= 8; begin += 8) {
    uint64_t word;
    memcpy(&word, begin, 8);
    bits |= word;
  }
  for (; begin < end; ++begin)
    bits |= static_cast<unsigned char>(*begin);
  return (bits & 0x8080808080808080ull) == 0;
}

} // namespace

LineTable::LineTable(llvm::StringRef text) : text(text) {
  const char *begin = text.data(), *end = begin + text.size();
  lineStarts.reserve(text.size() / 32 + 1);
  for (const char *line = begin;;) {
    lineStarts.push_back(line - begin);
    const char *nl = static_cast<const char *>(memchr(line, '\n', end - line));
    asciiLine.push_back(isAscii(line, nl ? nl : end));
    if (!nl)
      break;
    line = nl + 1;
  }
}

llvm::StringRef LineTable::getLine(unsigned line) const {
  if (line >= lineStarts.size())
    return {};
  size_t start = lineStarts[line];
  size_t end =
      line + 1 < lineStarts.size() ? lineStarts[line + 1] - 1 : text.size();
  llvm::StringRef result = text.slice(start, end);
  if (result.ends_with("\r"))
    result = result.drop_back();
  return result;
}

size_t LineTable::getOffset(lsp::Position pos) const {
  if (pos.line < 0)
    return 0;
  if (static_cast<size_t>(pos.line) >= lineStarts.size())
    return text.size();
  llvm::StringRef line = getLine(pos.line);
  size_t character = std::max(pos.character, 0);
  if (asciiLine[pos.line])
    return lineStarts[pos.line] + std::min(character, line.size());
  return lineStarts[pos.line] + utf8OffsetOfUtf16(line, character);
}

lsp::Position LineTable::getPosition(size_t offset) const {
  unsigned hint = ~0u;
  return getPosition(offset, hint);
}

lsp::Position LineTable::getPosition(size_t offset, unsigned &hint) const {
  offset = std::min(offset, text.size());
  unsigned line;
  auto inLine = [&](unsigned l) {
    return l < lineStarts.size() && lineStarts[l] <= offset &&
           (l + 1 == lineStarts.size() || offset < lineStarts[l + 1]);
  };
  // Ascending conversions move forward a few lines at a time.
  if (hint < lineStarts.size() && lineStarts[hint] <= offset &&
      (hint + 8 >= lineStarts.size() || offset < lineStarts[hint + 8])) {
    line = hint;
    while (!inLine(line))
      ++line;
  } else {
    auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
    line = static_cast<unsigned>(it - lineStarts.begin()) - 1;
  }
  hint = line;
  size_t start = lineStarts[line];
  if (asciiLine[line])
    return {static_cast<int>(line), static_cast<int>(offset - start)};
  return {static_cast<int>(line), utf16Length(text.slice(start, offset))};
}
