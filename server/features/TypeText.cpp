//===- TypeText.cpp - where an op's types are written ---------------------===//

#include "server/features/TypeText.h"
#include "server/features/Common.h"

#include "ir/Dialect.h"
#include "ir/RegisterTypes.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {

/// Byte offsets [begin, end) in the op's text.
struct Piece {
  size_t begin, end;
};

/// Splits `text` at top-level commas (outside brackets), trimming spaces
/// and comments; nullopt if a piece is empty.
std::optional<std::vector<Piece>> splitTopLevel(llvm::StringRef text,
                                                size_t begin, size_t end) {
  std::vector<Piece> pieces;
  int depth = 0;
  size_t start = begin;
  auto flush = [&](size_t stop) {
    size_t b = start, e = stop;
    while (b < e && isspace(static_cast<unsigned char>(text[b])))
      ++b;
    while (e > b && isspace(static_cast<unsigned char>(text[e - 1])))
      --e;
    if (b == e)
      return false;
    pieces.push_back({b, e});
    return true;
  };
  for (size_t i = begin; i < end; ++i) {
    char c = text[i];
    if (c == '(' || c == '[' || c == '{' || c == '<')
      ++depth;
    else if (c == ')' || c == ']' || c == '}' || c == '>')
      --depth;
    else if (c == ',' && depth == 0) {
      if (!flush(i))
        return std::nullopt;
      start = i + 1;
    }
  }
  if (!flush(end))
    return std::nullopt;
  return pieces;
}

/// The virtual register type of `cls` (getPhysicalType's counterpart).
Type getVirtualType(MLIRContext *ctx, RegClass cls, int64_t size,
                    int64_t alignment) {
  switch (cls) {
  case RegClass::VGPR:
    return VRegType::get(ctx, size, alignment);
  case RegClass::SGPR:
    return SRegType::get(ctx, size, alignment);
  case RegClass::AGPR:
    return ARegType::get(ctx, size, alignment);
  }
  return nullptr;
}

/// The recorded end of an op can stop inside its last type: the dialect's
/// type parser answers a spelling it has seen from a cache without
/// consuming the `<...>` body (ir/Types.cpp), so the parser's last token is
/// `!waveasm.vreg`. The body, if any, is part of the op.
size_t extendOverTypeBody(llvm::StringRef text, size_t end) {
  if (end >= text.size() || text[end] != '<')
    return end;
  int depth = 0;
  for (size_t i = end; i < text.size(); ++i) {
    if (text[i] == '<')
      ++depth;
    else if (text[i] == '>' && --depth == 0)
      return i + 1;
    else if (text[i] == '\n')
      break;
  }
  return end;
}

} // namespace

std::optional<OpTypeRanges>
waveasm::server::common::findOpTypeRanges(const ParsedDocument &parsed,
                                          Operation *op) {
  std::optional<unsigned> entry = parsed.lookupOp(op);
  if (!entry || op->getNumRegions())
    return std::nullopt;
  llvm::StringRef text = parsed.getText();
  llvm::SMRange scope = parsed.getOps()[*entry].scopeLoc;
  const char *base = text.data();
  if (!scope.Start.isValid() || !scope.End.isValid() ||
      scope.Start.getPointer() < base ||
      scope.End.getPointer() > base + text.size())
    return std::nullopt;
  size_t begin = scope.Start.getPointer() - base;
  size_t end = extendOverTypeBody(text, scope.End.getPointer() - base);
  // The last `:` outside brackets, comments and strings starts the type
  // list (`offset : 1024` and attribute dictionaries come before it);
  // comments are blanked so that a trailing `// a, b` cannot split types.
  std::string blank(text.substr(begin, end - begin));
  size_t colon = std::string::npos, arrow = std::string::npos;
  int depth = 0;
  for (size_t i = 0; i < blank.size(); ++i) {
    char c = blank[i];
    if (c == '/' && i + 1 < blank.size() && blank[i + 1] == '/') {
      for (; i < blank.size() && blank[i] != '\n'; ++i)
        blank[i] = ' ';
    } else if (c == '"') {
      for (++i; i < blank.size() && blank[i] != '"'; ++i)
        if (blank[i] == '\\')
          ++i;
    } else if (c == '-' && i + 1 < blank.size() && blank[i + 1] == '>') {
      if (depth == 0)
        arrow = i;
      ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      --depth;
    } else if (c == ':' && depth == 0) {
      colon = i;
      arrow = std::string::npos;
    }
  }
  if (colon == std::string::npos)
    return std::nullopt;
  unsigned numOperands = op->getNumOperands(), numResults = op->getNumResults();
  size_t operandsEnd = arrow == std::string::npos ? blank.size() : arrow;
  std::vector<Piece> operandTypes, resultTypes;
  if (arrow != std::string::npos || numResults == 0 || numOperands != 0) {
    if (numOperands) {
      auto pieces = splitTopLevel(blank, colon + 1, operandsEnd);
      if (!pieces)
        return std::nullopt;
      operandTypes = std::move(*pieces);
    }
    if (arrow != std::string::npos) {
      size_t b = arrow + 2, e = blank.size();
      while (b < e && isspace(static_cast<unsigned char>(blank[b])))
        ++b;
      while (e > b && isspace(static_cast<unsigned char>(blank[e - 1])))
        --e;
      if (b < e && blank[b] == '(' && blank[e - 1] == ')')
        ++b, --e;
      auto pieces = splitTopLevel(blank, b, e);
      if (!pieces)
        return std::nullopt;
      resultTypes = std::move(*pieces);
    }
  } else {
    // `%c = waveasm.constant 0 : !waveasm.imm<0>`: results only.
    auto pieces = splitTopLevel(blank, colon + 1, blank.size());
    if (!pieces)
      return std::nullopt;
    resultTypes = std::move(*pieces);
  }
  if (operandTypes.size() != numOperands || resultTypes.size() != numResults)
    return std::nullopt;
  auto toRange = [&](Piece p) {
    return llvm::SMRange(llvm::SMLoc::getFromPointer(base + begin + p.begin),
                         llvm::SMLoc::getFromPointer(base + begin + p.end));
  };
  OpTypeRanges ranges;
  for (Piece p : operandTypes)
    ranges.operands.push_back(toRange(p));
  for (Piece p : resultTypes)
    ranges.results.push_back(toRange(p));
  return ranges;
}

Type waveasm::server::common::withRegSize(Type type, int64_t size) {
  RegTypeInfo info = getRegTypeInfo(type);
  if (!info.cls)
    return nullptr;
  MLIRContext *ctx = type.getContext();
  if (info.physicalIndex)
    return getPhysicalType(ctx, *info.cls, *info.physicalIndex, size);
  return getVirtualType(ctx, *info.cls, size, std::min(info.alignment, size));
}

Type waveasm::server::common::toVirtualReg(Type type, int64_t alignment) {
  RegTypeInfo info = getRegTypeInfo(type);
  if (!info.cls)
    return nullptr;
  return getVirtualType(type.getContext(), *info.cls, info.size, alignment);
}

std::optional<std::vector<lsp::TextEdit>>
waveasm::server::common::retypeValue(const ParsedDocument &parsed, Value value,
                                     Type newType) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return std::nullopt;
  std::string spelled = printType(newType);
  std::vector<lsp::TextEdit> edits;
  std::optional<OpTypeRanges> def = findOpTypeRanges(parsed, result.getOwner());
  if (!def)
    return std::nullopt;
  edits.push_back(
      {parsed.getRange(def->results[result.getResultNumber()]), spelled});
  for (OpOperand &use : value.getUses()) {
    std::optional<OpTypeRanges> user = findOpTypeRanges(parsed, use.getOwner());
    if (!user)
      return std::nullopt;
    edits.push_back(
        {parsed.getRange(user->operands[use.getOperandNumber()]), spelled});
  }
  return edits;
}

std::string
waveasm::server::common::applyTextEdits(const LineTable &lines,
                                        llvm::ArrayRef<lsp::TextEdit> edits) {
  std::vector<std::pair<size_t, size_t>> spans;
  std::vector<unsigned> order;
  for (auto [i, edit] : llvm::enumerate(edits)) {
    spans.emplace_back(lines.getOffset(edit.range.start),
                       lines.getOffset(edit.range.end));
    order.push_back(i);
  }
  // Back to front, so earlier offsets stay valid.
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return spans[a].first > spans[b].first;
  });
  std::string out = lines.getText().str();
  for (unsigned i : order)
    out.replace(spans[i].first, spans[i].second - spans[i].first,
                edits[i].newText);
  return out;
}
