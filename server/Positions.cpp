//===- Positions.cpp - byte offsets <-> LSP positions ---------------------===//
//
// LSP counts characters in UTF-16 code units; the text is UTF-8. Lines are
// short, so converting one position scans one line prefix.
//
//===----------------------------------------------------------------------===//

#include "server/DocumentState.h"

#include <algorithm>

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

LineTable::LineTable(llvm::StringRef text) : text(text) {
  lineStarts.push_back(0);
  for (size_t i = 0, e = text.size(); i < e; ++i)
    if (text[i] == '\n')
      lineStarts.push_back(i + 1);
}

llvm::StringRef LineTable::getLine(unsigned line) const {
  if (line >= lineStarts.size())
    return {};
  size_t start = lineStarts[line];
  size_t end = line + 1 < lineStarts.size() ? lineStarts[line + 1] - 1
                                            : text.size();
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
  return lineStarts[pos.line] +
         utf8OffsetOfUtf16(line, std::max(pos.character, 0));
}

lsp::Position LineTable::getPosition(size_t offset) const {
  offset = std::min(offset, text.size());
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  unsigned line = static_cast<unsigned>(it - lineStarts.begin()) - 1;
  size_t start = lineStarts[line];
  return {static_cast<int>(line),
          utf16Length(text.slice(start, offset))};
}
