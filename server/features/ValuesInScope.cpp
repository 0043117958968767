//===- ValuesInScope.cpp - SSA values a new operand may name --------------===//

#include "server/features/ValuesInScope.h"
#include "server/DiagnosticCapture.h"
#include "server/features/OpLineContext.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>

using namespace llvm;

namespace waveasm::server {

namespace {

int countLines(StringRef text) {
  return std::count(text.begin(), text.end(), '\n');
}

/// `offset` moved forward to the start of a line (itself if it is one).
size_t toLineStart(StringRef text, size_t offset) {
  if (offset == 0 || offset >= text.size() || text[offset - 1] == '\n')
    return std::min(offset, text.size());
  size_t nl = text.find('\n', offset);
  return nl == StringRef::npos ? text.size() : nl + 1;
}

/// Strictly inside `range` (after its start, not after its end).
bool inside(const lsp::Range &range, lsp::Position pos) {
  return range.start < pos && pos <= range.end;
}

} // namespace

TextDelta::TextDelta(StringRef oldText, StringRef newText) {
  size_t limit = std::min(oldText.size(), newText.size());
  // Whole blocks by memcmp first: the texts are mostly equal.
  constexpr size_t kBlock = 4096;
  size_t prefix = 0;
  while (prefix + kBlock <= limit &&
         !memcmp(oldText.data() + prefix, newText.data() + prefix, kBlock))
    prefix += kBlock;
  while (prefix < limit && oldText[prefix] == newText[prefix])
    ++prefix;
  if (prefix == oldText.size() && prefix == newText.size()) {
    firstChanged = oldEnd = newEnd = countLines(newText) + 1;
    return;
  }
  // Back to the start of the line holding the first difference.
  size_t lineStart = oldText.take_front(prefix).rfind('\n');
  lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
  firstChanged = countLines(oldText.take_front(lineStart));

  size_t suffix = 0;
  size_t maxSuffix = limit - lineStart;
  while (suffix + kBlock <= maxSuffix &&
         !memcmp(oldText.end() - suffix - kBlock,
                 newText.end() - suffix - kBlock, kBlock))
    suffix += kBlock;
  while (suffix < maxSuffix && oldText[oldText.size() - 1 - suffix] ==
                                   newText[newText.size() - 1 - suffix])
    ++suffix;
  // Whole lines only: the common suffix starts at a line start in both.
  size_t newStart = toLineStart(newText, newText.size() - suffix);
  size_t oldStart = oldText.size() - (newText.size() - newStart);
  oldEnd = countLines(oldText.take_front(oldStart));
  newEnd = countLines(newText.take_front(newStart));
}

std::optional<int> TextDelta::newLineOf(int oldLine) const {
  if (oldLine < firstChanged)
    return oldLine;
  if (oldLine >= oldEnd)
    return oldLine - oldEnd + newEnd;
  return std::nullopt;
}

lsp::Position TextDelta::oldPositionOf(lsp::Position pos) const {
  if (pos.line < firstChanged)
    return pos;
  if (pos.line >= newEnd)
    return {pos.line - newEnd + oldEnd, pos.character};
  return {firstChanged, 0};
}

namespace {

/// Values defined by the op lines of `lines` (first line number `first`):
/// the names left of `=` with the result types after the last `->` (or
/// the last `:` when the format has no arrow).
void scanWrittenOps(StringRef text, size_t offset, int first, int last,
                    mlir::MLIRContext &context, std::vector<ScopedValue> &out) {
  DiagnosticCapture quiet(context); // half-typed types fail to parse
  for (int line = first; line < last && offset < text.size(); ++line) {
    size_t end = text.find('\n', offset);
    StringRef lineText = text.slice(offset, end);
    offset = end == StringRef::npos ? text.size() : end + 1;

    SmallVector<LineToken, 16> tokens = tokenizeLine(lineText);
    auto op = llvm::find_if(
        tokens, [](const LineToken &t) { return t.kind == LineToken::OpName; });
    if (op == tokens.end())
      continue;
    SmallVector<StringRef, 2> names;
    for (auto it = tokens.begin(); it != op; ++it)
      if (it->kind == LineToken::Value)
        names.push_back(it->text);
    if (names.empty())
      continue;
    SmallVector<mlir::Type, 2> types;
    auto arrow =
        std::find_if(tokens.rbegin(), tokens.rend(), [](const LineToken &t) {
          return t.kind == LineToken::Punct &&
                 (t.text == "->" || t.text == ":");
        });
    for (auto it = arrow.base(); arrow != tokens.rend() && it != tokens.end();
         ++it) {
      if (it->kind != LineToken::Type)
        continue;
      size_t read = 0;
      mlir::Type type = mlir::parseType(it->text, &context, &read);
      types.push_back(read == it->text.size() ? type : mlir::Type());
    }
    unsigned next = 0;
    for (StringRef name : names) {
      auto [base, count] = name.split(':');
      unsigned n = 1;
      if (!count.empty() && (count.getAsInteger(10, n) || n == 0))
        n = 1;
      for (unsigned k = 0; k < n; ++k, ++next) {
        if (next >= types.size() || !types[next])
          continue;
        std::string spelled = k ? (base + "#" + Twine(k)).str() : base.str();
        out.push_back({spelled, types[next], line, op->text});
      }
    }
  }
}

} // namespace

std::vector<ScopedValue> findValuesInScope(const ParsedDocument *lastGood,
                                           StringRef text, lsp::Position pos,
                                           mlir::MLIRContext &context) {
  std::vector<ScopedValue> out;
  TextDelta delta(lastGood ? lastGood->getText() : StringRef(), text);
  if (lastGood && lastGood->getModule()) {
    lsp::Position oldPos = delta.oldPositionOf(pos);
    ArrayRef<OpEntry> ops = lastGood->getOps();
    for (const ValueEntry &v : lastGood->getValues()) {
      std::optional<int> line = delta.newLineOf(v.def.start.line);
      if (!line || !(v.def.start < oldPos) || v.owner >= ops.size())
        continue;
      const OpEntry &owner = ops[v.owner];
      if (v.isBlockArg) {
        if (!inside(owner.scope, oldPos))
          continue;
      } else if (owner.parent == OpEntry::kNone ||
                 !inside(ops[owner.parent].scope, oldPos) ||
                 inside(owner.scope, oldPos)) {
        continue;
      }
      StringRef definer = v.isBlockArg ? StringRef("block argument")
                                       : owner.op->getName().getStringRef();
      for (unsigned k = 0; k < v.numValues; ++k) {
        mlir::Value value =
            v.isBlockArg
                ? v.value
                : v.value.getDefiningOp()->getResult(
                      mlir::cast<mlir::OpResult>(v.value).getResultNumber() +
                      k);
        std::string name = k ? (v.name + "#" + Twine(k)).str() : v.name.str();
        out.push_back({name, value.getType(), *line, definer});
      }
    }
  }
  // Ops written in the edited region above the cursor.
  int first = std::min(delta.firstChanged, pos.line);
  int last = std::min(delta.newEnd, pos.line);
  if (first < last) {
    size_t offset = 0;
    for (int l = 0; l < first && offset < text.size(); ++l) {
      size_t nl = text.find('\n', offset);
      offset = nl == StringRef::npos ? text.size() : nl + 1;
    }
    scanWrittenOps(text, offset, first, last, context, out);
  }
  return out;
}

} // namespace waveasm::server
