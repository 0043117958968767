//===- OpLineContext.cpp - where in an op's text the cursor is ------------===//

#include "server/features/OpLineContext.h"
#include "server/Completion.h"
#include "server/DocumentState.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace waveasm::server {

namespace {

bool isIdentChar(char c) {
  return isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-';
}

/// The end of `<...>` starting at `i` (balanced; the line's end if open).
size_t skipAngles(StringRef line, size_t i) {
  int depth = 0;
  for (; i < line.size(); ++i) {
    if (line[i] == '<')
      ++depth;
    else if (line[i] == '>' && --depth == 0)
      return i + 1;
  }
  return i;
}

} // namespace

SmallVector<LineToken, 16> tokenizeLine(StringRef line) {
  SmallVector<LineToken, 16> tokens;
  size_t i = 0;
  auto push = [&](LineToken::Kind kind, size_t begin, size_t end) {
    tokens.push_back({kind, line.slice(begin, end), begin, end});
    i = end;
  };
  while (i < line.size()) {
    char c = line[i];
    if (isSpace(c)) {
      ++i;
      continue;
    }
    if (line.substr(i).starts_with("//"))
      break;
    size_t begin = i;
    if (c == '"') {
      size_t j = i + 1;
      while (j < line.size() && line[j] != '"')
        j += line[j] == '\\' ? 2 : 1;
      push(LineToken::String, begin, std::min(j + 1, line.size()));
    } else if (c == '%') {
      size_t j = i + 1;
      while (j < line.size() && isIdentChar(line[j]) && line[j] != '.')
        ++j;
      // `%x#1` (a result of a group) and `%x:2` (a group's size).
      if (j + 1 < line.size() && (line[j] == '#' || line[j] == ':') &&
          isDigit(line[j + 1]))
        for (++j; j < line.size() && isDigit(line[j]);)
          ++j;
      push(LineToken::Value, begin, j);
    } else if (c == '!' || c == '#') {
      size_t j = i + 1;
      while (j < line.size() && isIdentChar(line[j]) && line[j] != '-')
        ++j;
      if (j < line.size() && line[j] == '<')
        j = skipAngles(line, j);
      push(c == '!' ? LineToken::Type : LineToken::Attr, begin, j);
    } else if (isAlnum(c) || c == '_' ||
               (c == '-' && i + 1 < line.size() && isDigit(line[i + 1]))) {
      size_t j = i + 1;
      while (j < line.size() && isIdentChar(line[j]) &&
             !(line[j] == '-' && line[j - 1] != 'e'))
        ++j;
      StringRef word = line.slice(begin, j);
      push(word.starts_with("waveasm.") ? LineToken::OpName : LineToken::Word,
           begin, j);
    } else if (c == '-' && i + 1 < line.size() && line[i + 1] == '>') {
      push(LineToken::Punct, begin, i + 2);
    } else {
      push(LineToken::Punct, begin, i + 1);
    }
  }
  return tokens;
}

namespace {

using Where = OpLineContext::Where;

bool isPunct(const LineToken &t, StringRef text) {
  return t.kind == LineToken::Punct && t.text == text;
}

/// Matches the tokens after the op name against the op's format; the
/// element reached at the cursor says what goes there.
class FormatMatcher {
public:
  FormatMatcher(const OpSignature &sig, OpLineContext &ctx)
      : sig(sig), format(getOpFormat(sig)), ctx(ctx),
        elements(format.elements.begin(), format.elements.end()) {
    ctx.operandTexts.assign(sig.numOperands, StringRef());
  }

  void run(ArrayRef<LineToken> tokens) {
    size_t i = 0;
    while (i < tokens.size()) {
      const LineToken &tok = tokens[i];
      if (isPunct(tok, "{")) {
        size_t close = i + 1;
        while (close < tokens.size() && !isPunct(tokens[close], "}"))
          ++close;
        if (close == tokens.size())
          return inAttrDict(tokens.drop_front(i + 1));
        i = close + 1;
        if (e < elements.size() && elements[e].kind == FormatElement::AttrDict)
          ++e;
        continue;
      }
      skipAttrDicts();
      if (e >= elements.size())
        break;
      const FormatElement el = elements[e];
      switch (el.kind) {
      case FormatElement::Literal:
        if (tok.text == el.text)
          ++e;
        else
          openGroup(tok); // else tolerated: the format did not expect it
        ++i;
        break;
      case FormatElement::Optional:
        if (tok.kind == LineToken::Word && tok.text == el.text) {
          const std::vector<FormatElement> &group = format.groups[el.index];
          elements.erase(elements.begin() + e);
          elements.insert(elements.begin() + e, group.begin(), group.end());
          ++i;
        } else {
          ++e;
        }
        break;
      case FormatElement::Operand:
      case FormatElement::Type: {
        bool isValue =
            el.kind == FormatElement::Operand
                ? tok.kind == LineToken::Value || tok.kind == LineToken::Word
                : tok.kind == LineToken::Type;
        bool variadic = isVariadic(el);
        if (isValue) {
          if (el.kind == FormatElement::Operand && el.index < sig.numOperands &&
              ctx.operandTexts[el.index].empty())
            ctx.operandTexts[el.index] = tok.text;
          lastSlot = {el.kind, el.index};
          ++i;
          if (!variadic)
            ++e;
          else
            afterListItem = true;
          break;
        }
        if (variadic && afterListItem && isPunct(tok, ",") &&
            !(e + 1 < elements.size() &&
              elements[e + 1].kind == FormatElement::Literal &&
              elements[e + 1].text == ",")) {
          afterListItem = false;
          ++i;
          break;
        }
        afterListItem = false;
        ++e; // not written (an empty variadic list, or skipped)
        break;
      }
      case FormatElement::Attribute:
        if (tok.kind == LineToken::Word || tok.kind == LineToken::String ||
            tok.kind == LineToken::Attr) {
          ++i;
          ++e;
        } else {
          ++e;
        }
        break;
      case FormatElement::AttrDict:
        ++e;
        break;
      }
    }
    atCursor();
  }

private:
  bool isVariadic(const FormatElement &el) const {
    if (el.kind == FormatElement::Operand)
      return el.index < sig.numOperands && sig.operands()[el.index].arity;
    unsigned index = el.index;
    if (index >= kResultTypeBase)
      return index - kResultTypeBase < sig.numResults &&
             sig.results()[index - kResultTypeBase].arity;
    return index < sig.numOperands && sig.operands()[index].arity;
  }

  void skipAttrDicts() {
    while (e < elements.size() && elements[e].kind == FormatElement::AttrDict)
      ++e;
  }

  /// A keyword of an optional group met where a later element was expected
  /// (`offset : 16` before the attr-dict): open the group there.
  bool openGroup(const LineToken &tok) {
    if (tok.kind != LineToken::Word)
      return false;
    for (size_t k = e; k < elements.size(); ++k) {
      if (elements[k].kind != FormatElement::Optional ||
          elements[k].text != tok.text)
        continue;
      const std::vector<FormatElement> &group =
          format.groups[elements[k].index];
      elements.erase(elements.begin() + k);
      elements.insert(elements.begin() + k, group.begin(), group.end());
      e = k;
      return true;
    }
    return false;
  }

  void inAttrDict(ArrayRef<LineToken> inside) {
    for (size_t k = 0; k + 1 < inside.size(); ++k)
      if (inside[k].kind == LineToken::Word && isPunct(inside[k + 1], "="))
        ctx.attrsWritten.push_back(inside[k].text);
    // After `name =` with no `,` since: the value.
    bool value = false;
    for (const LineToken &t : inside) {
      if (isPunct(t, "="))
        value = true;
      else if (isPunct(t, ","))
        value = false;
    }
    ctx.where = value ? Where::AttrValue : Where::AttrName;
  }

  void atCursor() {
    skipAttrDicts();
    StringRef prefix = ctx.prefix;
    // A `%` where the format wants no operand: still a value (an operand
    // list the matcher lost track of), offered without a type filter.
    auto anyValue = [&] {
      ctx.where = Where::Operand;
      ctx.slot = ~0u;
    };
    if (prefix.starts_with("#")) { // program headers' target and abi
      ctx.where = Where::AttrText;
      return;
    }
    if (e >= elements.size()) {
      if (prefix.starts_with("%"))
        return anyValue();
      ctx.where = prefix.starts_with("!") ? Where::TypeText : Where::Nothing;
      setLastSlot();
      return;
    }
    const FormatElement &el = elements[e];
    switch (el.kind) {
    case FormatElement::Operand:
      if (prefix.starts_with("!"))
        break;
      ctx.where = Where::Operand;
      ctx.slot = el.index;
      return;
    case FormatElement::Type:
      if (prefix.starts_with("%"))
        return anyValue();
      ctx.where = Where::TypeSlot;
      ctx.slot = el.index;
      return;
    case FormatElement::Literal:
    case FormatElement::Optional:
      if (prefix.starts_with("%"))
        return anyValue();
      if (prefix.starts_with("!"))
        break;
      // A keyword the format wants next (`into`, `offset`); punctuation is
      // left to the user, and the parameter just written stays active.
      for (size_t k = e; k < elements.size(); ++k) {
        const FormatElement &next = elements[k];
        if ((next.kind != FormatElement::Literal &&
             next.kind != FormatElement::Optional) ||
            next.text.empty() || !isAlpha(next.text.front()))
          break;
        ctx.keywords.push_back(next.text);
        if (next.kind != FormatElement::Optional)
          break;
      }
      ctx.where = ctx.keywords.empty() ? Where::Nothing : Where::Literal;
      setLastSlot();
      return;
    default:
      ctx.where = Where::Nothing;
      return;
    }
    ctx.where = Where::TypeText;
  }

  void setLastSlot() {
    if (!lastSlot)
      return;
    ctx.slot = lastSlot->second;
  }

  const OpSignature &sig;
  const OpFormat &format;
  OpLineContext &ctx;
  std::vector<FormatElement> elements; // groups spliced in when opened
  size_t e = 0;
  bool afterListItem = false;
  std::optional<std::pair<FormatElement::Kind, unsigned>> lastSlot;
};

bool isPrefixToken(const LineToken &t) {
  return t.kind != LineToken::Punct && t.kind != LineToken::String;
}

} // namespace

OpLineContext analyzeOpLine(StringRef line, size_t column) {
  OpLineContext ctx;
  column = std::min(column, line.size());
  size_t comment = line.find("//");
  SmallVector<LineToken, 16> all = tokenizeLine(line.take_front(column));

  // The token the cursor ends (the prefix being typed), if any.
  ctx.prefixBegin = column;
  if (!all.empty() && all.back().end == column) {
    const LineToken &last = all.back();
    if (last.kind == LineToken::String)
      return ctx; // inside or right after a string
    if (isPrefixToken(last)) {
      ctx.prefix = last.text;
      ctx.prefixBegin = last.begin;
      all.pop_back();
    }
  }
  // Inside a comment or an unterminated string: nothing.
  if (comment != StringRef::npos && comment < column &&
      llvm::count(line.take_front(comment), '"') % 2 == 0 &&
      (all.empty() || all.back().end <= comment))
    return ctx;
  if (!all.empty() && all.back().kind == LineToken::String &&
      (all.back().text.size() < 2 || !all.back().text.ends_with("\"")))
    return ctx;

  ArrayRef<LineToken> tokens = all;
  // `%a, %b = ` binds names.
  size_t opAt = tokens.size();
  for (size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].kind == LineToken::OpName) {
      opAt = i;
      break;
    }
  bool sawEquals = false;
  for (size_t i = 0; i < opAt; ++i) {
    if (isPunct(tokens[i], "="))
      sawEquals = true;
    else if (tokens[i].kind == LineToken::Value)
      ++ctx.numBoundNames;
  }

  if (opAt == tokens.size()) {
    if (ctx.prefix.starts_with("!")) {
      ctx.where = Where::TypeText;
      return ctx;
    }
    if (ctx.prefix.starts_with("#")) {
      ctx.where = Where::AttrText;
      return ctx;
    }
    bool statementStart =
        tokens.empty() || (sawEquals && isPunct(tokens.back(), "="));
    if (ctx.prefix.starts_with("%")) {
      // Left of `=` a name is being made up; elsewhere (a loop header's
      // inits) it is a use.
      bool naming = llvm::all_of(tokens, [](const LineToken &t) {
        return t.kind == LineToken::Value || isPunct(t, ",");
      });
      ctx.where = naming ? Where::ResultName : Where::Operand;
      ctx.slot = ~0u;
      return ctx;
    }
    if (statementStart)
      ctx.where = Where::OpName;
    return ctx;
  }

  ctx.opName = tokens[opAt].text;
  ctx.op = lookupOpSignature(ctx.opName);
  ArrayRef<LineToken> rest = tokens.drop_front(opAt + 1);
  if (!ctx.op || ctx.op->customAssembly) {
    // loop/if/program headers, unknown ops: values and types by their
    // sigils only.
    if (ctx.prefix.starts_with("%")) {
      ctx.where = Where::Operand;
      ctx.slot = ~0u;
    } else if (ctx.prefix.starts_with("!")) {
      ctx.where = Where::TypeText;
    } else if (ctx.prefix.starts_with("#")) {
      ctx.where = Where::AttrText;
    }
    return ctx;
  }
  FormatMatcher(*ctx.op, ctx).run(rest);
  return ctx;
}

namespace {

/// The line without its comment and surrounding blanks.
StringRef codeOf(StringRef line) {
  SmallVector<LineToken, 16> tokens = tokenizeLine(line);
  if (tokens.empty())
    return "";
  return line.slice(tokens.front().begin, tokens.back().end);
}

bool continues(StringRef previous, StringRef current) {
  StringRef prev = codeOf(previous), cur = codeOf(current);
  if (prev.empty() || prev.ends_with("{") || prev.ends_with("}"))
    return false;
  for (StringRef end : {",", "(", "=", ":", "->"})
    if (prev.ends_with(end))
      return true;
  for (StringRef start : {":", "->", ",", ")", "iter_args"})
    if (cur.starts_with(start))
      return true;
  return false;
}

} // namespace

StatementText getStatementAt(StringRef document, int line, int character) {
  StatementText out;
  std::optional<std::pair<StringRef, size_t>> found =
      getLineOfText(document, line);
  if (!found)
    return out;
  out.valid = true;
  auto [lineText, lineOffset] = *found;
  out.line = lineText;
  out.lineOffset = lineOffset;
  out.column = utf8OffsetOfUtf16(lineText, character);
  // Earlier lines of the same statement, nearest last.
  SmallVector<StringRef, 4> earlier;
  StringRef current = lineText;
  size_t offset = lineOffset;
  while (earlier.size() < 8 && offset > 0) {
    size_t prevStart = document.take_front(offset - 1).rfind('\n');
    prevStart = prevStart == StringRef::npos ? 0 : prevStart + 1;
    StringRef previous = document.slice(prevStart, offset - 1);
    previous.consume_back("\r");
    if (!continues(previous, current))
      break;
    earlier.push_back(previous);
    current = previous;
    offset = prevStart;
  }
  for (StringRef prev : llvm::reverse(earlier)) {
    out.text += codeOf(prev);
    out.text += ' ';
  }
  out.lineInText = out.text.size();
  out.text += lineText.take_front(out.column);
  out.cursor = out.text.size();
  return out;
}

} // namespace waveasm::server
