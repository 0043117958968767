//===- Navigation.cpp - definition, references, highlight, rename ---------===//
//
// As in MLIR's own mlir-lsp-server, everything comes from the parser's
// AsmParserState: the range of every SSA name's definition and uses, which
// ParsedDocument turned into a sorted occurrence list.
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

const ValueEntry *findValueAt(const ParsedDocument &parsed, lsp::Position pos) {
  const NameOccurrence *occ = parsed.findOccurrenceAt(pos);
  return occ ? &parsed.getValues()[occ->value] : nullptr;
}

bool isIdPunct(char c) { return c == '$' || c == '.' || c == '_' || c == '-'; }

} // namespace

std::vector<lsp::Location>
waveasm::server::findDefinition(const ParsedDocument &parsed,
                                lsp::Position pos) {
  const ValueEntry *value = findValueAt(parsed, pos);
  if (!value)
    return {};
  return {makeLocation(parsed, value->def)};
}

std::vector<lsp::Location>
waveasm::server::findReferences(const ParsedDocument &parsed, lsp::Position pos,
                                bool includeDeclaration) {
  std::vector<lsp::Location> refs;
  const ValueEntry *value = findValueAt(parsed, pos);
  if (!value)
    return refs;
  if (includeDeclaration)
    refs.push_back(makeLocation(parsed, value->def));
  for (const lsp::Range &use : value->uses)
    refs.push_back(makeLocation(parsed, use));
  return refs;
}

std::vector<lsp::DocumentHighlight>
waveasm::server::computeDocumentHighlights(const ParsedDocument &parsed,
                                           lsp::Position pos) {
  std::vector<lsp::DocumentHighlight> highlights;
  const ValueEntry *value = findValueAt(parsed, pos);
  if (!value)
    return highlights;
  highlights.push_back({value->def, lsp::DocumentHighlightKind::Write});
  for (const lsp::Range &use : value->uses)
    highlights.push_back({use, lsp::DocumentHighlightKind::Read});
  return highlights;
}

std::optional<lsp::Range>
waveasm::server::prepareRename(const ParsedDocument &parsed,
                               lsp::Position pos) {
  const NameOccurrence *occ = parsed.findOccurrenceAt(pos);
  if (!occ)
    return std::nullopt;
  return occ->range;
}

bool waveasm::server::isValidSSAName(StringRef name) {
  name.consume_front("%");
  if (name.empty())
    return false;
  if (llvm::isDigit(name.front()))
    return llvm::all_of(name, llvm::isDigit);
  if (!llvm::isAlpha(name.front()) && !isIdPunct(name.front()))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || isIdPunct(c); });
}

std::optional<lsp::WorkspaceEdit>
waveasm::server::renameValue(const ParsedDocument &parsed, lsp::Position pos,
                             StringRef newName, std::string *error) {
  auto fail = [&](std::string message) -> std::optional<lsp::WorkspaceEdit> {
    if (error)
      *error = std::move(message);
    return std::nullopt;
  };
  const NameOccurrence *occ = parsed.findOccurrenceAt(pos);
  if (!occ)
    return fail("no SSA value or block argument here");
  if (!isValidSSAName(newName))
    return fail("'" + newName.str() +
                "' is not a valid SSA name: use %name with letters, digits, "
                "'$', '.', '_' or '-' (not starting with a digit), or %number");
  std::string name =
      newName.starts_with("%") ? newName.str() : "%" + newName.str();
  const ValueEntry &target = parsed.getValues()[occ->value];
  if (name == target.name)
    return lsp::WorkspaceEdit{};

  // MLIR scopes names per isolated region, and this dialect's only one is
  // the program: a name already defined anywhere in the same program could
  // collide (nested regions may shadow nothing).
  auto programOf = [&](const ValueEntry &v) {
    return v.owner == OpEntry::kNone ? OpEntry::kNone
                                     : parsed.getOps()[v.owner].program;
  };
  unsigned program = programOf(target);
  for (const ValueEntry &other : parsed.getValues())
    if (other.name == name && programOf(other) == program)
      return fail(name + " is already defined in this program (line " +
                  std::to_string(other.def.start.line + 1) + ")");

  lsp::WorkspaceEdit edit;
  std::vector<lsp::TextEdit> &edits = edit.changes[parsed.getURI()];
  edits.push_back({target.def, name});
  for (const lsp::Range &use : target.uses)
    edits.push_back({use, name});
  return edit;
}

//===----------------------------------------------------------------------===//
// Outline
//===----------------------------------------------------------------------===//

namespace {

std::optional<lsp::DocumentSymbol> makeSymbol(const ParsedDocument &parsed,
                                              unsigned idx) {
  const OpEntry &entry = parsed.getOps()[idx];
  lsp::DocumentSymbol sym;
  sym.range = entry.scope;
  sym.selectionRange = entry.name;
  if (auto program = dyn_cast<ProgramOp>(entry.op)) {
    sym.name = "@" + program.getSymName().str();
    sym.kind = lsp::SymbolKind::Function;
    // Guarded: the document may not have verified.
    if (auto target = program->getAttrOfType<TargetAttr>("target"))
      if (TargetAttrInterface kind = target.getTargetKind())
        sym.detail = getTargetInfo(kind.getTargetKind()).name.str();
    return sym;
  }
  if (auto loop = dyn_cast<LoopOp>(entry.op)) {
    sym.name = "loop";
    sym.kind = lsp::SymbolKind::Namespace;
    sym.detail = std::to_string(loop.getInitArgs().size()) + " iter_args, " +
                 "line " + std::to_string(entry.name.start.line + 1);
    return sym;
  }
  if (isa<IfOp>(entry.op)) {
    sym.name = "if";
    sym.kind = lsp::SymbolKind::Operator;
    sym.detail = std::to_string(entry.op->getNumResults()) + " results, line " +
                 std::to_string(entry.name.start.line + 1);
    return sym;
  }
  return std::nullopt;
}

} // namespace

std::vector<lsp::DocumentSymbol>
waveasm::server::computeDocumentSymbols(const ParsedDocument &parsed) {
  llvm::ArrayRef<OpEntry> ops = parsed.getOps();
  // Structure ops only; parents precede children in source order, so each
  // symbol's parent is finished being placed before its children arrive.
  std::vector<std::optional<lsp::DocumentSymbol>> symbols(ops.size());
  std::vector<unsigned> structural;
  for (unsigned i = 0; i < ops.size(); ++i)
    if (ops[i].op->getNumRegions() != 0)
      if ((symbols[i] = makeSymbol(parsed, i)))
        structural.push_back(i);
  auto symbolParent = [&](unsigned idx) {
    unsigned p = ops[idx].parent;
    while (p != OpEntry::kNone && !symbols[p])
      p = ops[p].parent;
    return p;
  };
  // Attach children to parents from the innermost (last) up.
  for (auto it = structural.rbegin(); it != structural.rend(); ++it) {
    unsigned p = symbolParent(*it);
    if (p == OpEntry::kNone)
      continue;
    auto &children = symbols[p]->children;
    children.insert(children.begin(), std::move(*symbols[*it]));
    symbols[*it].reset();
  }
  std::vector<lsp::DocumentSymbol> result;
  for (unsigned idx : structural)
    if (symbols[idx] && symbolParent(idx) == OpEntry::kNone)
      result.push_back(std::move(*symbols[idx]));
  return result;
}

std::vector<lsp::FoldingRange>
waveasm::server::computeFoldingRanges(const ParsedDocument &parsed) {
  std::vector<lsp::FoldingRange> ranges;
  // Region ops: from the op's line to the line before its closing brace.
  for (const OpEntry &entry : parsed.getOps())
    if (entry.op->getNumRegions() != 0 &&
        entry.scope.end.line - 1 > entry.scope.start.line)
      ranges.push_back(
          {entry.scope.start.line, entry.scope.end.line - 1, "region"});
  // Runs of comment lines.
  const LineTable &lines = parsed.getLines();
  int runStart = -1;
  for (unsigned line = 0, e = lines.getNumLines(); line <= e; ++line) {
    bool comment = line < e && lines.getLine(line).ltrim().starts_with("//");
    if (comment && runStart < 0)
      runStart = line;
    if (!comment && runStart >= 0) {
      if (static_cast<int>(line) - 1 > runStart)
        ranges.push_back({runStart, static_cast<int>(line) - 1, "comment"});
      runStart = -1;
    }
  }
  llvm::sort(ranges,
             [](const lsp::FoldingRange &a, const lsp::FoldingRange &b) {
               return a.startLine < b.startLine;
             });
  return ranges;
}
