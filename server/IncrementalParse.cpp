//===- IncrementalParse.cpp - re-parse one edited op, exactly -------------===//

#include "server/IncrementalParse.h"
#include "server/DiagnosticCapture.h"
#include "server/DiagnosticRanges.h"
#include "server/DocumentState.h"
#include "server/Timing.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// A line with nothing but blanks, or blanks and a comment.
bool isFreeLine(llvm::StringRef line) {
  // MLIR's lexer ends a comment at a lone '\r' too (LineTable does not
  // break lines there): such a line is not known to be free.
  if (line.contains('\r'))
    return false;
  line = line.ltrim(" \t");
  return line.empty() || line.starts_with("//");
}

bool isSuffixIdChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

/// The `%name`s used in `text` (the group names: `%x#1` gives `%x`),
/// outside strings and comments, in first-use order.
llvm::SmallVector<llvm::StringRef> valueNamesIn(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> names;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        break;
    } else if (c == '"') {
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '%') {
      size_t j = i + 1;
      while (j < e && isSuffixIdChar(text[j]))
        ++j;
      llvm::StringRef name = text.slice(i, j);
      if (name.size() > 1 && !llvm::is_contained(names, name))
        names.push_back(name);
      i = j - 1;
    }
  }
  return names;
}

/// The first token of `line` (after blanks): what the parser of the op
/// before it looks at when it decides where that op ends.
llvm::StringRef firstToken(llvm::StringRef line) {
  line = line.ltrim(" \t");
  size_t end = 1;
  if (line.empty())
    return line;
  if (line[0] == '"') {
    for (; end < line.size() && line[end] != '"'; ++end)
      if (line[end] == '\\')
        ++end;
    ++end;
  } else {
    while (end < line.size() && isSuffixIdChar(line[end]))
      ++end;
  }
  return line.take_front(std::min(end, line.size()));
}

/// The first token on lines [first, last] of `table`, past blank and
/// comment lines.
llvm::StringRef firstTokenOn(const LineTable &table, unsigned first,
                             unsigned last) {
  for (unsigned line = first; line <= last; ++line)
    if (!isFreeLine(table.getLine(line)))
      return firstToken(table.getLine(line));
  return {};
}

/// Whether the op before the edited one (unchanged) ends where it did when
/// the edited op starts with `now` instead of `was`. Parsers decide on
/// the kind of the next token; the one exception is an optional keyword,
/// which is undotted, so a dotted op name (`waveasm.v_add_u32`) can never
/// be taken for one.
bool sameLookahead(llvm::StringRef was, llvm::StringRef now) {
  if (was == now)
    return true;
  if (was.empty() || now.empty())
    return false;
  if (was[0] == '"' && now[0] == '"')
    return true;
  return llvm::isAlpha(was[0]) && llvm::isAlpha(now[0]) && was.contains('.') &&
         now.contains('.');
}

/// Where an op's text starts: its first result name, else its name.
const char *textStart(const AsmParserState::OperationDefinition &def) {
  return def.resultGroups.empty()
             ? def.scopeLoc.Start.getPointer()
             : def.resultGroups.front().definition.loc.Start.getPointer();
}

/// The lines of a leaf op's text, if nothing else of the program shares
/// them. The parser's scope end is not used as the op's end: it stops
/// before the body of a trailing dialect type (`!waveasm.vreg<4, 4>`).
/// Between two ops of a block there is only blanks and comments, so an op
/// ends where its next sibling starts; the last op of a block ends before
/// the line of the region's `}`.
struct OpLines {
  unsigned first, last;
  /// Lines (last, gapEnd) hold only blanks and comments between this op
  /// and its next sibling or the region's `}`: lexed as trivia.
  unsigned gapEnd;
};

std::optional<OpLines> linesOf(const ParsedDocument &parsed,
                               const AsmParserState::OperationDefinition &def) {
  llvm::StringRef text = parsed.getText();
  const LineTable &lines = parsed.getLines();
  auto startsItsLine = [&](const char *p) {
    if (!p || p < text.data() || p >= text.data() + text.size())
      return false;
    for (size_t i = p - text.data(); i > 0 && text[i - 1] != '\n'; --i)
      if (!isBlank(text[i - 1]))
        return false;
    return true;
  };
  const char *start = textStart(def);
  if (!startsItsLine(start))
    return std::nullopt;
  unsigned first = lines.getPosition(start - text.data()).line;
  if (Operation *next = def.op->getNextNode()) {
    const AsmParserState::OperationDefinition *nextDef =
        parsed.getAsmState().getOpDef(next);
    if (!nextDef || !startsItsLine(textStart(*nextDef)))
      return std::nullopt;
    unsigned nextLine =
        lines.getPosition(textStart(*nextDef) - text.data()).line;
    if (nextLine <= first)
      return std::nullopt;
    unsigned last = nextLine - 1;
    while (last > first && isFreeLine(lines.getLine(last)))
      --last;
    return OpLines{first, last, nextLine};
  }
  // The last op of its block: what follows its scope end on that line is
  // the rest of a type, then only blank and comment lines up to the `}`.
  const char *end = def.scopeLoc.End.getPointer();
  if (!end || end < start || end > text.data() + text.size())
    return std::nullopt;
  size_t to = end - text.data();
  while (to > static_cast<size_t>(start - text.data()) &&
         llvm::isSpace(text[to - 1]))
    --to;
  unsigned last = lines.getPosition(to - 1).line;
  llvm::StringRef lastText = lines.getLine(last);
  llvm::StringRef rest = lastText.drop_front(
      std::min(lastText.size(), to - lines.getLineStart(last)));
  if (rest.split("//").first.find_first_of("{}\"") != llvm::StringRef::npos)
    return std::nullopt;
  unsigned line = last + 1;
  while (line < lines.getNumLines() && isFreeLine(lines.getLine(line)))
    ++line;
  if (line < lines.getNumLines() && firstToken(lines.getLine(line)) != "}")
    return std::nullopt;
  return OpLines{first, last, line};
}

} // namespace

IncrementalModel::~IncrementalModel() = default;

std::unique_ptr<IncrementalModel>
IncrementalModel::build(const ParsedDocument &parsed) {
  if (!parsed.getModule())
    return nullptr;
  std::unique_ptr<IncrementalModel> model(new IncrementalModel);
  model->uri = parsed.getURI();
  model->current = std::make_unique<Text>(parsed.getText().str());
  const LineTable &lines = parsed.getLines();
  model->gapLines.assign(lines.getNumLines(), false);
  for (unsigned line = 0;
       line < lines.getNumLines() && isFreeLine(lines.getLine(line)); ++line)
    model->gapLines[line] = true;
  IRMapping map;
  model->module = cast<ModuleOp>(parsed.getModule()->clone(map));
  // A use cloned before its definition (a name used in one program and
  // defined in a later one, which parses but does not verify) still names
  // the snapshot's value: point it at the copy.
  model->module->walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands())
      if (Value copy = map.lookupOrNull(operand.get()))
        operand.set(copy);
  });

  for (const AsmParserState::OperationDefinition &def :
       parsed.getAsmState().getOpDefs()) {
    Operation *op = map.lookupOrNull(def.op);
    if (!op)
      continue;
    unsigned numResults = op->getNumResults();
    llvm::SmallVector<std::pair<std::string, unsigned>, 1> groups;
    for (auto [g, group] : llvm::enumerate(def.resultGroups)) {
      unsigned next = g + 1 < def.resultGroups.size()
                          ? def.resultGroups[g + 1].startIndex
                          : numResults;
      if (group.startIndex >= numResults || !group.definition.loc.isValid())
        continue;
      llvm::StringRef name = spellingOf(group.definition);
      groups.emplace_back(name.str(), group.startIndex);
      model->names[name].push_back(
          {op, nullptr, group.startIndex, next - group.startIndex});
    }
    if (op->getNumRegions() || op->getNumSuccessors())
      continue;
    std::optional<OpLines> span = linesOf(parsed, def);
    if (!span)
      continue;
    for (unsigned line = span->last + 1; line < span->gapEnd; ++line)
      model->gapLines[line] = true;
    LineOp lineOp;
    lineOp.op = op;
    lineOp.firstLine = span->first;
    lineOp.lastLine = span->last;
    lineOp.groups = std::move(groups);
    model->lineOps.push_back(std::move(lineOp));
  }
  for (const AsmParserState::BlockDefinition &def :
       parsed.getAsmState().getBlockDefs()) {
    Block *block = map.lookupOrNull(def.block);
    if (!block)
      continue;
    for (auto [i, arg] : llvm::enumerate(def.arguments))
      if (i < block->getNumArguments() && arg.loc.isValid())
        model->names[spellingOf(arg)].push_back(
            {nullptr, block, static_cast<unsigned>(i), 1});
  }
  llvm::sort(model->lineOps, [](const LineOp &a, const LineOp &b) {
    return a.firstLine < b.firstLine;
  });
  // Two ops on overlapping lines (a multi-line op around another) would
  // make "the op on these lines" ambiguous: keep neither.
  for (size_t i = 1; i < model->lineOps.size(); ++i)
    if (model->lineOps[i].firstLine <= model->lineOps[i - 1].lastLine)
      model->lineOps[i].op = model->lineOps[i - 1].op = nullptr;
  llvm::erase_if(model->lineOps,
                 [](const LineOp &lineOp) { return !lineOp.op; });

  // The model's diagnostics are verification only: a text whose parse
  // itself reports something (a warning) is not one the model reproduces.
  std::optional<std::vector<lsp::Diagnostic>> diags = model->diagnose();
  if (!diags || *diags != parsed.getDiagnostics())
    return nullptr;
  return model;
}

std::optional<std::vector<lsp::Diagnostic>>
IncrementalModel::decline(llvm::StringRef reason) {
  fallbackReason = reason.str();
  return std::nullopt;
}

const IncrementalModel::NameDef *
IncrementalModel::resolve(llvm::StringRef name, Operation *user) const {
  auto it = names.find(name);
  if (it == names.end())
    return nullptr;
  for (const NameDef &def : it->second) {
    Block *block = def.op ? def.op->getBlock() : def.block;
    // The ancestor of `user` in `block`, without leaving an isolated
    // scope (names outside it are not visible inside).
    Operation *ancestor = user;
    while (ancestor && ancestor->getBlock() != block) {
      ancestor = ancestor->getParentOp();
      if (ancestor && ancestor->hasTrait<mlir::OpTrait::IsIsolatedFromAbove>())
        ancestor = nullptr;
    }
    if (!ancestor)
      continue;
    // Defined before the use: a block argument, or an earlier op.
    if (!def.op || (def.op != ancestor && def.op->isBeforeInBlock(ancestor)))
      return &def;
  }
  return nullptr;
}

std::optional<std::vector<lsp::Diagnostic>> IncrementalModel::diagnose() {
  std::vector<RawDiagnostic> raw;
  auto start = std::chrono::steady_clock::now();
  {
    DiagnosticCapture capture(*module->getContext());
    (void)verify(*module);
    raw = capture.take();
  }
  verifyMs = msSince(start);
  bool placed = true;
  std::vector<lsp::Diagnostic> out;
  out.reserve(raw.size());
  for (const RawDiagnostic &diag : raw)
    out.push_back(toLspDiagnostic(diag, uri, [&](Location loc) {
      std::optional<lsp::Range> range = fileRangeOf(loc, uri, current->lines);
      placed &= range.has_value();
      return range;
    }));
  // The full parse places the others through its op index (explicit
  // `loc("I12")` locations); not worth reproducing here.
  if (!placed)
    return decline("a diagnostic is not located in the text");
  return out;
}

std::optional<std::vector<lsp::Diagnostic>>
IncrementalModel::update(llvm::StringRef newText) {
  fallbackReason.clear();
  const std::string &text = current->text;
  const LineTable &lines = current->lines;
  if (newText == text)
    return diagnose();
  // The changed bytes: [prefix, old end - suffix) became
  // [prefix, new end - suffix).
  size_t common = std::min(text.size(), newText.size());
  size_t prefix = 0;
  while (prefix < common && text[prefix] == newText[prefix])
    ++prefix;
  size_t suffix = 0;
  while (suffix < common - prefix &&
         text[text.size() - 1 - suffix] == newText[newText.size() - 1 - suffix])
    ++suffix;
  llvm::StringRef was =
      llvm::StringRef(text).slice(prefix, text.size() - suffix);
  llvm::StringRef now = newText.slice(prefix, newText.size() - suffix);
  if (was.count('\n') != now.count('\n'))
    return decline("the edit adds or removes lines");
  // Same line count: lines before `first` and after `last` (the line where
  // the common suffix starts, in either text) are the same in both.
  auto next = std::make_unique<const Text>(newText.str());
  const LineTable &newLines = next->lines;
  unsigned first = lines.getPosition(prefix).line;
  unsigned last = lines.getPosition(prefix + was.size()).line;
  if (newLines.getPosition(prefix + now.size()).line != last ||
      newLines.getNumLines() != lines.getNumLines())
    return decline("the edit adds or removes lines");
  auto freeLines = [&](const LineTable &table) {
    for (unsigned line = first; line <= last; ++line)
      if (!isFreeLine(table.getLine(line)))
        return false;
    return true;
  };

  // The op whose lines hold the edit, if any.
  auto it = std::upper_bound(
      lineOps.begin(), lineOps.end(), first,
      [](unsigned line, const LineOp &op) { return line < op.firstLine; });
  LineOp *edited = nullptr;
  if (it != lineOps.begin() && std::prev(it)->lastLine >= first)
    edited = &*std::prev(it);

  if (!edited || edited->lastLine < last) {
    // Comments and blank lines only, before and after, where the lexer
    // takes them as trivia (between ops, or before the first line of
    // code; a "comment" inside a multi-line `<...>` body is not one):
    // same tokens.
    for (unsigned line = first; line <= last; ++line)
      if (!gapLines[line])
        return decline("the edit is not inside one op");
    if (!freeLines(lines) || !freeLines(newLines))
      return decline("the edit is not inside one op");
    current = std::move(next);
    return diagnose();
  }
  if (findExcessiveNesting(newText))
    return decline("brackets nest too deep");

  // The op after it, parsed along so that the edited op's parser sees the
  // same next token: the next op alone on its lines, or a `}`.
  LineOp *nextOp = nullptr;
  unsigned line = edited->lastLine + 1;
  while (line < newLines.getNumLines() && isFreeLine(newLines.getLine(line)))
    ++line;
  llvm::StringRef after = firstToken(newLines.getLine(line));
  if (after != "}") {
    if (edited + 1 == lineOps.data() + lineOps.size() ||
        edited[1].firstLine != line)
      return decline("the op is followed by structure");
    nextOp = edited + 1;
  }
  if (edited->firstLine == 0)
    return decline("the op is on the first line");
  if (!sameLookahead(
          firstTokenOn(lines, edited->firstLine, edited->lastLine),
          firstTokenOn(newLines, edited->firstLine, edited->lastLine)))
    return decline("the op's first token changed kind");

  // The scratch buffer: one line defining the operands, blank lines, then
  // the document's lines of the op (and of the next), at their own line
  // numbers.
  llvm::StringRef lastLineText =
      newLines.getLine(nextOp ? nextOp->lastLine : edited->lastLine);
  size_t snippetBegin = newLines.getLineStart(edited->firstLine);
  size_t snippetEnd = lastLineText.end() - newLines.getText().data();
  llvm::StringRef snippet = newLines.getText().slice(snippetBegin, snippetEnd);
  Operation *old = edited->op;
  llvm::SmallVector<const NameDef *> defs;
  std::string scratch;
  for (llvm::StringRef name : valueNamesIn(snippet)) {
    if (llvm::any_of(edited->groups,
                     [&](const auto &group) { return group.first == name; }))
      continue; // defined by the op itself
    const NameDef *def = resolve(name, old);
    if (!def)
      continue; // the scratch parse reports it: declined
    defs.push_back(def);
    scratch += name;
    if (def->count > 1)
      scratch += ":" + std::to_string(def->count);
    scratch += " = \"builtin.unrealized_conversion_cast\"() : () -> (";
    for (unsigned i = 0; i < def->count; ++i) {
      Type type = def->value(i).getType();
      auto [typeSpelling, inserted] = typeSpellings.try_emplace(type);
      if (inserted) {
        llvm::raw_string_ostream os(typeSpelling->second);
        type.print(os);
      }
      scratch += i ? ", " : "";
      scratch += typeSpelling->second;
    }
    scratch += ") ";
  }
  scratch.append(edited->firstLine, '\n');
  size_t snippetOffset = scratch.size();
  scratch += snippet;

  MLIRContext *context = module->getContext();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(scratch, uri,
                                       /*RequiresNullTerminator=*/true),
      llvm::SMLoc());
  AsmParserState state;
  Block block;
  {
    DiagnosticCapture capture(*context);
    ParserConfig config(context, /*verifyAfterParse=*/false);
    if (failed(parseAsmSourceFile(sourceMgr, &block, config, &state)))
      return decline("the edited op does not parse on its own");
    if (!capture.take().empty())
      return decline("the edited op's parse reported something");
  }
  size_t expected = defs.size() + 1 + (nextOp ? 1 : 0);
  if (block.getOperations().size() != expected)
    return decline("the edited lines are not exactly one op");
  auto ops = llvm::make_pointer_range(block.getOperations());
  llvm::SmallVector<Operation *> parsedOps(ops.begin(), ops.end());
  Operation *fresh = parsedOps[defs.size()];
  if (fresh->getNumRegions() || fresh->getNumSuccessors())
    return decline("the edited op has regions or successors");

  // The next op must start where it does in the document: the edited
  // op's parser stopped at the same token.
  if (nextOp) {
    const AsmParserState::OperationDefinition *nextDef =
        state.getOpDef(parsedOps.back());
    size_t lineStart = newLines.getLineStart(nextOp->firstLine);
    llvm::StringRef nextLine = newLines.getLine(nextOp->firstLine);
    size_t indent = nextLine.size() - nextLine.ltrim(" \t").size();
    const char *expectedStart =
        scratch.data() + snippetOffset + (lineStart - snippetBegin) + indent;
    if (!nextDef || textStart(*nextDef) != expectedStart)
      return decline("the edited op runs into the next one");
  }

  // Same result names, counts and types: the rest of the document binds
  // its uses exactly as before.
  const AsmParserState::OperationDefinition *freshDef = state.getOpDef(fresh);
  if (!freshDef || fresh->getNumResults() != old->getNumResults() ||
      freshDef->resultGroups.size() != edited->groups.size())
    return decline("the edited op's results changed");
  for (auto [group, was] : llvm::zip(freshDef->resultGroups, edited->groups)) {
    if (spellingOf(group.definition) != was.first ||
        group.startIndex != was.second)
      return decline("the edited op's result names changed");
  }
  if (fresh->getResultTypes() != old->getResultTypes())
    return decline("the edited op's result types changed");

  // Operands: the definitions' stand-ins become the model's values.
  IRMapping mapping;
  for (auto [def, cast] : llvm::zip(defs, parsedOps))
    for (unsigned i = 0; i < def->count; ++i)
      mapping.map(cast->getResult(i), def->value(i));
  for (Value operand : fresh->getOperands())
    if (!mapping.contains(operand))
      return decline("an operand is not defined before the op");

  // Splice.
  Operation *spliced = fresh->clone(mapping);
  old->getBlock()->getOperations().insert(Block::iterator(old), spliced);
  old->replaceAllUsesWith(spliced);
  for (const auto &group : edited->groups)
    for (NameDef &def : names[group.first])
      if (def.op == old)
        def.op = spliced;
  old->erase();
  edited->op = spliced;
  current = std::move(next);
  return diagnose();
}
