//===- ParsedDocument.cpp - parse, verify, index --------------------------===//

#include "server/DiagnosticCapture.h"
#include "server/DiagnosticRanges.h"
#include "server/DocumentState.h"
#include "server/Timing.h"

#include "ir/Dialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;

/// Deepest bracket nesting outside comments and strings, and where it
/// first exceeds `kMaxNesting`.
std::optional<size_t>
waveasm::server::findExcessiveNesting(llvm::StringRef text) {
  static const auto special = [] {
    std::array<bool, 256> table = {};
    for (unsigned char c : llvm::StringRef("/\"([{<)]}>"))
      table[c] = true;
    return table;
  }();
  int depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (!special[static_cast<unsigned char>(c)])
      continue;
    if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      size_t eol = text.find('\n', i);
      i = eol == llvm::StringRef::npos ? e : eol;
    } else if (c == '"') {
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxNesting)
        return i;
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      depth = std::max(depth - 1, 0);
    }
  }
  return std::nullopt;
}

ParsedDocument::ParsedDocument(MLIRContext &context, std::string uri,
                               std::string text, int64_t version,
                               const ServerSettings &)
    : context(&context), uri(std::move(uri)), text(std::move(text)),
      version(version), textHash(llvm::xxh3_64bits(this->text)),
      lines(this->text), asmState(std::make_unique<AsmParserState>()) {
  // The SourceMgr refers to our copy of the text (no second copy); the
  // LineTable above does too, so SMLoc and offsets agree.
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(this->text, this->uri,
                                       /*RequiresNullTerminator=*/true),
      llvm::SMLoc());
  // Normally loaded once at start-up; loading is not thread-safe, a
  // lookup is.
  if (!context.getLoadedDialect<WaveASMDialect>())
    context.loadDialect<WaveASMDialect>();
  parse();
}

ParsedDocument::~ParsedDocument() = default;

void ParsedDocument::parse() {
  if (std::optional<size_t> at = findExcessiveNesting(text)) {
    lsp::Diagnostic diag;
    lsp::Position pos = lines.getPosition(*at);
    diag.range = {pos, {pos.line, pos.character + 1}};
    diag.message = "brackets nested more than " + std::to_string(kMaxNesting) +
                   " levels deep; the document is not parsed";
    diagnostics.push_back(std::move(diag));
    return;
  }

  std::vector<RawDiagnostic> raw;
  auto start = std::chrono::steady_clock::now();
  {
    DiagnosticCapture capture(*context);
    Block block;
    // Verification runs separately so that IR which parses but does not
    // verify still gets navigation.
    ParserConfig config(context, /*verifyAfterParse=*/false);
    if (succeeded(
            parseAsmSourceFile(sourceMgr, &block, config, asmState.get()))) {
      Location fileLoc = FileLineColLoc::get(context, uri, 1, 1);
      module = mlir::detail::constructContainerOpForParserIfNecessary<ModuleOp>(
          &block, context, fileLoc);
      parseMs = msSince(start);
      start = std::chrono::steady_clock::now();
      if (module)
        verified = succeeded(verify(*module));
      verifyMs = msSince(start);
    }
    if (!module) {
      // The state points into the ops `block` destroys.
      asmState = std::make_unique<AsmParserState>();
    }
    raw = capture.take();
  }
  for (const RawDiagnostic &diag : raw)
    diagnostics.push_back(toLspDiagnostic(diag));
}

//===----------------------------------------------------------------------===//
// Positions
//===----------------------------------------------------------------------===//

SMLoc ParsedDocument::getSMLoc(lsp::Position pos) const {
  return SMLoc::getFromPointer(text.data() + lines.getOffset(pos));
}

lsp::Position ParsedDocument::getPosition(SMLoc loc) const {
  const char *p = loc.getPointer();
  if (!p || p < text.data() || p > text.data() + text.size())
    return {};
  return lines.getPosition(p - text.data());
}

lsp::Range ParsedDocument::getRange(SMRange range) const {
  unsigned hint = ~0u;
  return getRange(range, hint);
}

lsp::Range ParsedDocument::getRange(SMRange range, unsigned &hint) const {
  const char *begin = text.data(), *end = begin + text.size();
  auto offset = [&](SMLoc loc) -> size_t {
    const char *p = loc.getPointer();
    return p && p >= begin && p <= end ? p - begin : 0;
  };
  lsp::Position start = lines.getPosition(offset(range.Start), hint);
  return {start, lines.getPosition(offset(range.End), hint)};
}

lsp::Range ParsedDocument::getTokenRange(SMLoc loc) const {
  const char *p = loc.getPointer();
  if (!p || p < text.data() || p >= text.data() + text.size())
    return {getPosition(loc), getPosition(loc)};
  return tokenRangeAt(lines, p - text.data());
}

std::optional<lsp::Range> ParsedDocument::getRange(Location loc) const {
  if (std::optional<lsp::Range> found = fileRangeOf(loc, uri, lines))
    return found;
  const OpIndex &index = opIndexes();
  auto it = index.opsByLocation.find(loc);
  if (it != index.opsByLocation.end() && it->second != OpEntry::kNone)
    return index.ops[it->second].name;
  return std::nullopt;
}

lsp::Diagnostic
ParsedDocument::toLspDiagnostic(const RawDiagnostic &raw) const {
  return server::toLspDiagnostic(
      raw, uri, [this](Location loc) { return getRange(loc); });
}

//===----------------------------------------------------------------------===//
// Indexes
//===----------------------------------------------------------------------===//

const ParsedDocument::OpIndex &ParsedDocument::opIndexes() const {
  std::call_once(opsOnce, [this] {
    if (module)
      buildOpIndex(opIndex);
  });
  return opIndex;
}

void ParsedDocument::buildOpIndex(OpIndex &index) const {
  std::vector<OpEntry> &ops = index.ops;
  std::vector<unsigned> &programs = index.programs;
  llvm::DenseMap<Operation *, unsigned> &opIndex = index.opIndex;
  llvm::DenseMap<Location, unsigned> &opsByLocation = index.opsByLocation;
  // Ops inside programs (and the programs), in source order. The parser
  // finishes children before parents: sort (pointer, definition) pairs,
  // cheaper to move than entries.
  std::vector<
      std::pair<const char *, const AsmParserState::OperationDefinition *>>
      sorted;
  for (const AsmParserState::OperationDefinition &def : asmState->getOpDefs())
    if (isa<ProgramOp>(def.op) || def.op->getParentOfType<ProgramOp>())
      sorted.emplace_back(def.loc.Start.getPointer(), &def);
  llvm::sort(sorted, llvm::less_first());
  ops.reserve(sorted.size());
  for (auto [ptr, def] : sorted) {
    OpEntry entry;
    entry.op = def->op;
    entry.nameLoc = def->loc;
    entry.scopeLoc = def->scopeLoc;
    ops.push_back(entry);
  }
  opIndex.reserve(ops.size());
  unsigned hint = ~0u;
  for (auto [i, entry] : llvm::enumerate(ops)) {
    opIndex[entry.op] = i;
    entry.name = getRange(entry.nameLoc, hint);
    // The scope starts at the op name; its end is usually on the same
    // line, but for region ops far below: keep `hint` on the name.
    unsigned endHint = hint;
    SMRange end(entry.scopeLoc.End, entry.scopeLoc.End);
    entry.scope = {entry.name.start, getRange(end, endHint).start};
  }
  for (auto [i, entry] : llvm::enumerate(ops)) {
    if (isa<ProgramOp>(entry.op)) {
      entry.program = programs.size();
      programs.push_back(i);
      continue;
    }
    // Parents start before their children: already numbered.
    if (auto it = opIndex.find(entry.op->getParentOp()); it != opIndex.end()) {
      entry.parent = it->second;
      entry.program = ops[it->second].program;
    }
  }
  // Conductor tags, block by block.
  for (OpEntry &entry : ops) {
    for (Region &region : entry.op->getRegions())
      for (Block &block : region) {
        std::vector<int> tags = computeConductorTags(block);
        for (auto [op, tag] : llvm::zip(block, tags))
          if (auto it = opIndex.find(&op); it != opIndex.end())
            ops[it->second].tag = tag;
      }
  }
  // Ops with explicit, non-file locations (Conductor tags), for
  // diagnostics located there.
  for (auto [i, entry] : llvm::enumerate(ops)) {
    Location loc = entry.op->getLoc();
    if (auto file = dyn_cast<FileLineColRange>(loc);
        file && file.getFilename().getValue() == uri)
      continue;
    auto [it, inserted] = opsByLocation.try_emplace(loc, i);
    if (!inserted)
      it->second = OpEntry::kNone;
  }
}

const ParsedDocument::NameIndex &ParsedDocument::names() const {
  std::call_once(namesOnce, [this] {
    if (module)
      buildNameIndex(nameIndex);
  });
  return nameIndex;
}

const Liveness *ParsedDocument::getLiveness(unsigned program) const {
  std::call_once(livenessOnce, [this] {
    for (unsigned entry : getPrograms()) {
      auto index =
          std::make_unique<ProgramIndex>(cast<ProgramOp>(getOps()[entry].op));
      programLiveness.push_back(std::make_unique<Liveness>(*index));
      programIndexes.push_back(std::move(index));
    }
  });
  return program < programLiveness.size() ? programLiveness[program].get()
                                          : nullptr;
}

void ParsedDocument::buildNameIndex(NameIndex &index) const {
  std::vector<ValueEntry> &values = index.values;
  std::vector<lsp::Range> &useRanges = index.useRanges;
  std::vector<NameOccurrence> &occurrences = index.occurrences;
  llvm::DenseMap<Value, unsigned> &valueIndex = index.valueIndex;
  // SSA names: result groups, then block arguments. Every definition and
  // use is collected as byte offsets, sorted once, and converted to LSP
  // positions in one ascending sweep (no binary search per position).
  struct Pending {
    uint32_t start, end;
    uint32_t value;
    int32_t use; // index into useRanges, -1 for the definition
  };
  std::vector<Pending> pending;
  std::vector<size_t> useStart; // per value, into useRanges
  const char *base = text.data();
  auto offsetOf = [&](SMLoc loc) {
    const char *p = loc.getPointer();
    return static_cast<uint32_t>(
        p && p >= base && p <= base + text.size() ? p - base : 0);
  };
  auto addValue = [&](const AsmParserState::SMDefinition &def, Value value,
                      unsigned numValues, unsigned owner, bool isBlockArg) {
    if (!def.loc.Start.isValid())
      return;
    uint32_t idx = values.size();
    ValueEntry entry;
    entry.name = spellingOf(def);
    entry.value = value;
    entry.numValues = numValues;
    entry.owner = owner;
    entry.isBlockArg = isBlockArg;
    values.push_back(entry);
    pending.push_back(
        {offsetOf(def.loc.Start), offsetOf(def.loc.End), idx, -1});
    useStart.push_back(useRanges.size());
    for (SMRange use : def.uses) {
      pending.push_back({offsetOf(use.Start), offsetOf(use.End), idx,
                         static_cast<int32_t>(useRanges.size())});
      useRanges.emplace_back();
    }
  };
  const llvm::DenseMap<Operation *, unsigned> &opIndex = opIndexes().opIndex;
  for (const AsmParserState::OperationDefinition &def : asmState->getOpDefs()) {
    auto it = opIndex.find(def.op);
    unsigned owner = it == opIndex.end() ? OpEntry::kNone : it->second;
    unsigned numResults = def.op->getNumResults();
    for (auto [g, group] : llvm::enumerate(def.resultGroups)) {
      unsigned next = g + 1 < def.resultGroups.size()
                          ? def.resultGroups[g + 1].startIndex
                          : numResults;
      if (group.startIndex >= numResults)
        continue;
      addValue(group.definition, def.op->getResult(group.startIndex),
               next - group.startIndex, owner, /*isBlockArg=*/false);
    }
  }
  for (const AsmParserState::BlockDefinition &def : asmState->getBlockDefs()) {
    Block *block = def.block;
    auto it = opIndex.find(block->getParentOp());
    unsigned owner = it == opIndex.end() ? OpEntry::kNone : it->second;
    for (auto [i, arg] : llvm::enumerate(def.arguments))
      if (i < block->getNumArguments())
        addValue(arg, block->getArgument(i), 1, owner, /*isBlockArg=*/true);
  }

  llvm::sort(pending, [](const Pending &a, const Pending &b) {
    return a.start < b.start;
  });
  occurrences.reserve(pending.size());
  unsigned hint = ~0u;
  for (const Pending &p : pending) {
    lsp::Position start = lines.getPosition(p.start, hint);
    unsigned endHint = hint;
    lsp::Range range{start, lines.getPosition(p.end, endHint)};
    if (p.use < 0)
      values[p.value].def = range;
    else
      useRanges[p.use] = range;
    occurrences.push_back({range, p.value, p.use < 0});
  }
  useStart.push_back(useRanges.size());
  valueIndex.reserve(values.size() * 2);
  for (auto [i, entry] : llvm::enumerate(values)) {
    entry.uses = llvm::ArrayRef(useRanges).slice(useStart[i],
                                                 useStart[i + 1] - useStart[i]);
    if (entry.isBlockArg) {
      valueIndex[entry.value] = i;
    } else {
      Operation *op = entry.value.getDefiningOp();
      unsigned first = cast<OpResult>(entry.value).getResultNumber();
      for (unsigned r = 0; r < entry.numValues; ++r)
        valueIndex[op->getResult(first + r)] = i;
    }
  }
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

std::optional<unsigned> ParsedDocument::lookupOp(Operation *op) const {
  const llvm::DenseMap<Operation *, unsigned> &opIndex = opIndexes().opIndex;
  auto it = opIndex.find(op);
  if (it == opIndex.end())
    return std::nullopt;
  return it->second;
}

std::pair<unsigned, unsigned>
ParsedDocument::getOpsOnLines(int firstLine, int lastLine) const {
  llvm::ArrayRef<OpEntry> ops = getOps();
  auto begin = std::lower_bound(
      ops.begin(), ops.end(), firstLine,
      [](const OpEntry &e, int line) { return e.name.start.line < line; });
  auto end = std::upper_bound(
      begin, ops.end(), lastLine,
      [](int line, const OpEntry &e) { return line < e.name.start.line; });
  return {static_cast<unsigned>(begin - ops.begin()),
          static_cast<unsigned>(end - ops.begin())};
}

unsigned ParsedDocument::findOpAt(lsp::Position pos) const {
  llvm::ArrayRef<OpEntry> ops = getOps();
  // The innermost op containing `pos` is the last op starting at or before
  // `pos`, or one of its ancestors (ops nest properly).
  auto it = std::upper_bound(
      ops.begin(), ops.end(), pos,
      [](lsp::Position p, const OpEntry &e) { return p < e.name.start; });
  if (it == ops.begin())
    return OpEntry::kNone;
  unsigned idx = (it - ops.begin()) - 1;
  while (idx != OpEntry::kNone && !ops[idx].scope.contains(pos))
    idx = ops[idx].parent;
  return idx;
}

unsigned ParsedDocument::findOpNameAt(lsp::Position pos) const {
  llvm::ArrayRef<OpEntry> ops = getOps();
  auto it = std::upper_bound(
      ops.begin(), ops.end(), pos,
      [](lsp::Position p, const OpEntry &e) { return p < e.name.start; });
  if (it == ops.begin())
    return OpEntry::kNone;
  unsigned idx = (it - ops.begin()) - 1;
  return ops[idx].name.contains(pos) ? idx : OpEntry::kNone;
}

const NameOccurrence *
ParsedDocument::findOccurrenceAt(lsp::Position pos) const {
  llvm::ArrayRef<NameOccurrence> occurrences = getOccurrences();
  auto it = std::upper_bound(occurrences.begin(), occurrences.end(), pos,
                             [](lsp::Position p, const NameOccurrence &o) {
                               return p < o.range.start;
                             });
  if (it == occurrences.begin())
    return nullptr;
  const NameOccurrence &occ = *std::prev(it);
  return occ.range.contains(pos) ? &occ : nullptr;
}

std::optional<unsigned> ParsedDocument::lookupValue(Value value) const {
  const llvm::DenseMap<Value, unsigned> &valueIndex = names().valueIndex;
  auto it = valueIndex.find(value);
  if (it == valueIndex.end())
    return std::nullopt;
  return it->second;
}

//===----------------------------------------------------------------------===//
// Conductor tags
//===----------------------------------------------------------------------===//

// Schedulable: an instruction a scheduler may move. Pinned ops (barriers,
// waits, terminators, labels, branches) stay put; ops with regions are
// structure; ops that issue nothing (constants, precolored registers, pack
// and extract) have no position worth naming.
bool waveasm::server::isSchedulable(Operation *op) {
  auto info = dyn_cast<InstInfoOpInterface>(op);
  return info && !info.isPinned() && !info.isNonEmitting() &&
         op->getNumRegions() == 0;
}

std::vector<int> waveasm::server::computeConductorTags(Block &block) {
  // conductor/Tags.h's numbering: every op of the block, pinned and pseudo
  // ops included (they are anchors of moves), so the hints, the code
  // actions' titles and the LLM's prompt name the same op the same way.
  std::vector<int> tags;
  int next = 0;
  for (Operation &op : block) {
    (void)op;
    tags.push_back(next++);
  }
  return tags;
}

std::string waveasm::server::formatConductorTag(int tag) {
  return "I" + std::to_string(tag);
}
