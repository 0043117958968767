//===- ProfileHints.cpp - a profile CSV's rows on the document's ops ------===//
//
// The rows of a per-instruction profile (conductor/Profile.h) attached to
// the ops they describe, for inlay hints and LLM prompts. Keys mean what
// they mean to `waveasm-conductor --profile`: a tag names an op of the
// default block of the first program, a line a line of that program's
// assembly. Lines go through the background compile's line map, so a
// profile of the text as written needs no compile of its own.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"

#include "conductor/Tags.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;

namespace {

/// "I5" / "i5" -> 5.
std::optional<unsigned> parseTagKey(llvm::StringRef key) {
  unsigned n;
  if (key.size() < 2 || (key[0] != 'I' && key[0] != 'i') ||
      key.drop_front().getAsInteger(10, n))
    return std::nullopt;
  return n;
}

/// 1-based assembly line; nullopt for anything else.
std::optional<unsigned> parseLineKey(llvm::StringRef key) {
  unsigned n;
  if (key.getAsInteger(10, n) || n == 0)
    return std::nullopt;
  return n;
}

/// The Conductor's default block: Session::create(module, nullptr, ...).
Block *getDefaultBlock(const ParsedDocument &parsed) {
  if (parsed.getPrograms().empty())
    return nullptr;
  auto program =
      dyn_cast<ProgramOp>(parsed.getOps()[parsed.getPrograms()[0]].op);
  return program ? conductor::findDefaultBlock(program) : nullptr;
}

/// The op entry of the input op `op` of the line map: `op` itself, or,
/// when the server compiled a retargeted copy, the input op whose compiled
/// counterpart is `op`'s.
std::optional<unsigned> entryOfLineOp(const ParsedDocument &parsed,
                                      const CompiledDocument &compiled,
                                      const CompiledProgram &program,
                                      Operation *op) {
  if (std::optional<unsigned> entry = parsed.lookupOp(op))
    return entry;
  if (Operation *copy = program.compiledOf.lookup(op))
    return compiled.lookupCompiled(copy);
  return std::nullopt;
}

std::string formatCycles(double value) {
  return llvm::formatv("{0:F0}", value).str();
}

} // namespace

std::vector<OpProfile> waveasm::server::correlateDocumentProfile(
    const ParsedDocument &parsed, const CompiledDocument *compiled,
    llvm::ArrayRef<conductor::ProfileRow> rows,
    std::vector<std::string> *unmatched) {
  std::vector<OpProfile> out;
  if (!parsed.getModule())
    return out;
  compiled = freshOrNull(parsed, compiled);
  Block *block = nullptr;
  bool blockLooked = false;
  const CompiledProgram *program =
      compiled && compiled->succeeded() && !compiled->getPrograms().empty()
          ? &compiled->getPrograms()[0].result
          : nullptr;
  llvm::SmallVector<llvm::StringRef> asmLines;
  if (program)
    llvm::StringRef(program->assembly).split(asmLines, '\n');

  for (const conductor::ProfileRow &row : rows) {
    OpProfile match;
    match.row = &row;
    std::optional<unsigned> entry;
    if (std::optional<unsigned> tag = parseTagKey(row.key)) {
      if (!blockLooked) {
        block = getDefaultBlock(parsed);
        blockLooked = true;
      }
      if (block && *tag < block->getOperations().size())
        entry = parsed.lookupOp(&*std::next(block->begin(), *tag));
    } else if (std::optional<unsigned> line = parseLineKey(row.key);
               line && program && *line <= program->lineOps.size()) {
      // A line the pipeline inserted (wait, nop) belongs to the next op.
      for (unsigned i = *line - 1; i < program->lineOps.size() && !entry; ++i) {
        if (Operation *op = program->lineOps[i])
          entry = entryOfLineOp(parsed, *compiled, *program, op);
        match.inserted |= i != *line - 1;
      }
      if (*line - 1 < asmLines.size())
        match.asmLine = asmLines[*line - 1].trim().str();
    }
    if (!entry) {
      if (unmatched)
        unmatched->push_back(row.key);
      continue;
    }
    match.opEntry = *entry;
    out.push_back(std::move(match));
  }
  llvm::stable_sort(out, [](const OpProfile &a, const OpProfile &b) {
    return a.opEntry < b.opEntry;
  });
  return out;
}

std::vector<conductor::ProfileRow> waveasm::server::selectProfileRowsForBlock(
    const ParsedDocument &parsed, Block *block,
    llvm::ArrayRef<conductor::ProfileRow> rows) {
  std::vector<conductor::ProfileRow> out;
  if (!block || parsed.getPrograms().empty())
    return out;
  bool defaultBlock = block == getDefaultBlock(parsed);
  Operation *first = parsed.getOps()[parsed.getPrograms()[0]].op;
  bool firstProgram = first->isAncestor(block->getParentOp());
  for (const conductor::ProfileRow &row : rows)
    if ((defaultBlock && parseTagKey(row.key)) ||
        (firstProgram && parseLineKey(row.key)))
      out.push_back(row);
  return out;
}

lsp::InlayHint waveasm::server::makeProfileHint(const OpProfile &profile,
                                                llvm::StringRef source,
                                                lsp::Position at) {
  const conductor::ProfileRow &row = *profile.row;
  lsp::InlayHint hint;
  hint.position = at;
  hint.paddingLeft = true;
  // U+23F1 STOPWATCH, U+2013 EN DASH, U+00D7 MULTIPLICATION SIGN.
  std::string label = "\xE2\x8F\xB1 ";
  if (profile.inserted) {
    llvm::StringRef mnemonic =
        llvm::StringRef(profile.asmLine).split(' ').first;
    label += (mnemonic.empty() ? "inserted" : mnemonic.str()) + " ";
  }
  label += formatCycles(row.latMean) + " cyc (" + formatCycles(row.latMin) +
           "\xE2\x80\x93" + formatCycles(row.latMax) + ") \xC3\x97" +
           std::to_string(row.hits);
  hint.label = std::move(label);

  std::string tip;
  llvm::raw_string_ostream os(tip);
  os << "**Profile** `" << row.key << "`";
  if (profile.inserted)
    os << " (an instruction the pipeline inserted before this one)";
  os << ": " << row.hits << " hits, latency min " << formatCycles(row.latMin)
     << " / mean " << formatCycles(row.latMean) << " / max "
     << formatCycles(row.latMax) << " cycles.";
  if (!profile.asmLine.empty())
    os << "\n\nAssembly line " << row.key << ": `" << profile.asmLine << "`";
  os << "\n\nFrom `" << source << ":" << row.csvLine << "`.";
  hint.tooltip = std::move(tip);
  return hint;
}
