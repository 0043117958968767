//===- SemanticTokens.cpp - instruction families by unit ------------------===//
//
// Three sources, merged by position: op names (typed by execution unit from
// InstInfoOpInterface), SSA names (from the parser's occurrence list) and a
// light lexical scan of the requested lines for comments, types (`!...`),
// attributes (`#...`) and symbols (`@...`).
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {

TokenType tokenTypeOf(Operation *op) {
  if (isa<LoopOp, IfOp, ConditionOp, YieldOp>(op))
    return TokenType::Branch;
  auto info = dyn_cast<InstInfoOpInterface>(op);
  if (!info || info.isNonEmitting())
    return TokenType::Pseudo;
  switch (info.getExecUnit()) {
  case ExecUnit::None:
    return TokenType::Pseudo;
  case ExecUnit::VALU:
    return TokenType::VALU;
  case ExecUnit::SALU:
    return TokenType::SALU;
  case ExecUnit::SMEM:
    return TokenType::SMEM;
  case ExecUnit::VMEM:
    return TokenType::VMEM;
  case ExecUnit::LDS:
    return TokenType::LDS;
  case ExecUnit::MFMA:
    return TokenType::MFMA;
  case ExecUnit::Branch:
    return TokenType::Branch;
  case ExecUnit::Sync:
    return TokenType::Sync;
  }
  return TokenType::Pseudo;
}

bool isIdChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

lsp::SemanticToken makeToken(int line, int start, int length, TokenType type,
                             unsigned modifiers = 0) {
  return {line, start, length, static_cast<unsigned>(type), modifiers};
}

/// Comments, types, attributes and symbols on one line. `%names` and op
/// names are skipped (they come from the parser).
void scanLine(llvm::StringRef text, int line, bool ascii,
              std::vector<lsp::SemanticToken> &out) {
  auto col = [&](size_t byte) {
    return ascii ? static_cast<int>(byte) : utf16Length(text.take_front(byte));
  };
  for (size_t i = 0, e = text.size(); i < e;) {
    char c = text[i];
    if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      out.push_back(
          makeToken(line, col(i), col(e) - col(i), TokenType::Comment));
      return;
    }
    if (c == '"') {
      size_t j = i + 1;
      for (; j < e && text[j] != '"'; ++j)
        if (text[j] == '\\')
          ++j;
      i = std::min(j + 1, e);
      continue;
    }
    if (c == '!' || c == '#' || c == '@') {
      size_t j = i + 1;
      if (c == '@' && j < e && text[j] == '"') {
        for (++j; j < e && text[j] != '"'; ++j)
          ;
        j = std::min(j + 1, e);
      } else {
        while (j < e && isIdChar(text[j]))
          ++j;
      }
      if (j > i + 1) {
        TokenType type = c == '!'   ? TokenType::Type
                         : c == '#' ? TokenType::Attribute
                                    : TokenType::Symbol;
        out.push_back(makeToken(line, col(i), col(j) - col(i), type));
      }
      i = j;
      continue;
    }
    if (c == '%' || c == '^' || isIdChar(c)) {
      // A name, number or keyword: skip it whole, so that `%x#1` and
      // `vreg<4, 4>` do not start tokens in the middle.
      size_t j = i + 1;
      while (j < e && isIdChar(text[j]))
        ++j;
      if (c == '%' && j < e && text[j] == '#')
        for (++j; j < e && llvm::isDigit(text[j]); ++j)
          ;
      i = j;
      continue;
    }
    ++i;
  }
}

} // namespace

const SemanticTokenLegend &waveasm::server::getSemanticTokenLegend() {
  static const SemanticTokenLegend legend = {
      {"valu", "salu", "smem", "vmem", "lds", "mfma", "branch", "sync",
       "pseudo", "value", "type", "attribute", "comment", "symbol"},
      {"declaration", "transcendental", "loopBody"}};
  return legend;
}

std::vector<lsp::SemanticToken>
waveasm::server::computeSemanticTokens(const ParsedDocument &parsed,
                                       std::optional<lsp::Range> range) {
  int firstLine = range ? range->start.line : 0;
  int lastLine = range ? range->end.line
                       : static_cast<int>(parsed.getLines().getNumLines()) - 1;
  std::vector<lsp::SemanticToken> tokens;
  tokens.reserve(8 * (lastLine - firstLine + 1));

  // Op names.
  auto [begin, end] = parsed.getOpsOnLines(firstLine, lastLine);
  llvm::ArrayRef<OpEntry> ops = parsed.getOps();
  for (unsigned i = begin; i < end; ++i) {
    const OpEntry &entry = ops[i];
    if (entry.name.start.line != entry.name.end.line)
      continue;
    unsigned modifiers = 0;
    if (auto info = dyn_cast<InstInfoOpInterface>(entry.op))
      if (info.getLatencyClass() == LatencyClass::Trans)
        modifiers |= ModTrans;
    if (entry.op->getParentOfType<LoopOp>())
      modifiers |= ModLoopBody;
    tokens.push_back(
        makeToken(entry.name.start.line, entry.name.start.character,
                  entry.name.end.character - entry.name.start.character,
                  tokenTypeOf(entry.op), modifiers));
  }

  // SSA names.
  llvm::ArrayRef<NameOccurrence> occs = parsed.getOccurrences();
  auto it = std::lower_bound(occs.begin(), occs.end(), firstLine,
                             [](const NameOccurrence &o, int line) {
                               return o.range.start.line < line;
                             });
  for (; it != occs.end() && it->range.start.line <= lastLine; ++it) {
    if (it->range.start.line != it->range.end.line)
      continue;
    tokens.push_back(
        makeToken(it->range.start.line, it->range.start.character,
                  it->range.end.character - it->range.start.character,
                  TokenType::Value, it->isDef ? ModDeclaration : 0));
  }

  // Comments, types, attributes, symbols.
  const LineTable &lines = parsed.getLines();
  for (int line = std::max(firstLine, 0);
       line <= lastLine && line < static_cast<int>(lines.getNumLines()); ++line)
    scanLine(lines.getLine(line), line, lines.isAsciiLine(line), tokens);

  llvm::sort(
      tokens, [](const lsp::SemanticToken &a, const lsp::SemanticToken &b) {
        return a.line != b.line ? a.line < b.line : a.startChar < b.startChar;
      });
  // Drop overlaps (a name inside a comment the parser never saw cannot
  // happen, but an op name the scanner also saw can: keep the first).
  std::vector<lsp::SemanticToken> result;
  result.reserve(tokens.size());
  for (const lsp::SemanticToken &tok : tokens) {
    if (tok.length <= 0)
      continue;
    if (!result.empty() && result.back().line == tok.line &&
        result.back().startChar + result.back().length > tok.startChar)
      continue;
    result.push_back(tok);
  }
  return result;
}
