//===- NoAliasFix.cpp - "Declare kernel arguments apart" ------------------===//
//
// On the header line of a loop that cannot be pipelined because a global
// store and another access may touch the same bytes in another iteration:
// when the two address through different kernel arguments
// (analysis/PointerRoots.h) and declaring them in the program's
// `noalias_args` lets the loop's stages be assigned, the action adds the
// declaration to the program's attribute dictionary (the rest of the text
// untouched). The user vouches for it: the title says what it declares.
// Whether pipelining then pays is "Pipeline this loop"'s measurement.
//
//===----------------------------------------------------------------------===//

#include "server/features/Pipelining.h"

#include "analysis/LoopStages.h"
#include "analysis/MemoryAlias.h"
#include "analysis/PointerRoots.h"
#include "ir/InstInfo.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;

namespace {

/// The kernel arguments of the global accesses in `loop`'s body that a
/// global write there may conflict with (two different known arguments).
std::set<int64_t> conflictingArgs(LoopOp loop) {
  SmallVector<std::pair<Operation *, int64_t>> accesses;
  loop.getBodyBlock().walk([&](Operation *op) {
    if (!((memReads(op) | memWrites(op)) & MemGlobal))
      return;
    if (Value pointer = getAddressPointer(op))
      if (std::optional<int64_t> arg = getPointerArg(pointer))
        accesses.push_back({op, *arg});
  });
  std::set<int64_t> args;
  for (auto [writer, writerArg] : accesses) {
    if (!(memWrites(writer) & MemGlobal))
      continue;
    for (auto [other, otherArg] : accesses)
      if (other != writer && otherArg != writerArg) {
        args.insert(writerArg);
        args.insert(otherArg);
      }
  }
  return args;
}

/// Whether `loop`'s stages can be assigned once its program declares
/// `args`: on a clone of the program, so the document's IR stays as is.
bool pipelinesWith(ProgramOp program, LoopOp loop, ArrayRef<int64_t> args) {
  IRMapping mapping;
  OwningOpRef<ProgramOp> copy(cast<ProgramOp>(program->clone(mapping)));
  Builder builder(program.getContext());
  (*copy)->setAttr(kNoAliasArgsAttr, builder.getI64ArrayAttr(args));
  auto copiedLoop = cast<LoopOp>(mapping.lookup(loop.getOperation()));
  return computeLoopStages(copiedLoop, 2).ok();
}

/// Where a program's header (its text from the op name) has its attribute
/// dictionary, its `noalias_args` list and its body: a scan that skips
/// comments and strings and counts brackets, so a comment, a string or a
/// nested dictionary cannot be taken for them.
struct HeaderScan {
  static constexpr size_t npos = llvm::StringRef::npos;
  size_t dictOpen = npos, dictClose = npos, listBegin = npos, listEnd = npos,
         body = npos;
};

bool isWordAt(llvm::StringRef text, size_t at, llvm::StringRef word) {
  auto identifier = [](char c) {
    return llvm::isAlnum(c) || llvm::StringRef("_.$-@%#!").contains(c);
  };
  return text.substr(at).starts_with(word) &&
         (at == 0 || !identifier(text[at - 1])) &&
         (at + word.size() == text.size() ||
          !identifier(text[at + word.size()]));
}

HeaderScan scanHeader(llvm::StringRef text) {
  HeaderScan h;
  int depth = 0;
  bool keyword = false, key = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '/' && text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        break;
      continue;
    }
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    bool inDict =
        h.dictOpen != HeaderScan::npos && h.dictClose == HeaderScan::npos;
    if (depth == 0 && h.dictOpen == HeaderScan::npos &&
        isWordAt(text, i, "attributes")) {
      keyword = true;
      i += llvm::StringRef("attributes").size() - 1;
      continue;
    }
    if (inDict && depth == 1 && isWordAt(text, i, kNoAliasArgsAttr)) {
      key = true;
      i += kNoAliasArgsAttr.size() - 1;
      continue;
    }
    if (c == '{' || c == '[' || c == '(') {
      if (depth == 0 && c == '{') {
        if (!keyword || h.dictOpen != HeaderScan::npos) {
          h.body = i;
          return h;
        }
        h.dictOpen = i;
      }
      if (inDict && depth == 1 && c == '[' && key &&
          h.listBegin == HeaderScan::npos)
        h.listBegin = i;
      ++depth;
      continue;
    }
    if (c == '}' || c == ']' || c == ')') {
      --depth;
      if (inDict && depth == 0 && c == '}')
        h.dictClose = i;
      if (inDict && depth == 1 && c == ']' && h.listBegin != HeaderScan::npos &&
          h.listEnd == HeaderScan::npos)
        h.listEnd = i;
      if (depth < 0)
        return HeaderScan();
    }
  }
  return HeaderScan();
}

/// The edit that makes the program's `noalias_args` `args`: the list
/// replaced, added to the attribute dictionary, or a dictionary added
/// before the body. nullopt when the header is not in a form it knows.
std::optional<lsp::TextEdit> declarationEdit(const ParsedDocument &parsed,
                                             unsigned program,
                                             ArrayRef<int64_t> args) {
  const OpEntry &entry = parsed.getOps()[parsed.getPrograms()[program]];
  llvm::StringRef text = parsed.getText();
  size_t begin = parsed.getLines().getOffset(entry.scope.start);
  size_t end = parsed.getLines().getOffset(entry.scope.end);
  HeaderScan h = scanHeader(text.slice(begin, end));
  if (h.body == HeaderScan::npos)
    return std::nullopt;
  std::string list =
      "[" +
      llvm::join(
          llvm::map_range(args, [](int64_t a) { return std::to_string(a); }),
          ", ") +
      "]";
  auto at = [&](size_t from, size_t to, std::string replacement) {
    return lsp::TextEdit{{parsed.getLines().getPosition(begin + from),
                          parsed.getLines().getPosition(begin + to)},
                         std::move(replacement)};
  };
  if (h.dictOpen == HeaderScan::npos)
    return at(h.body, h.body, "attributes {noalias_args = " + list + "} ");
  if (h.listBegin != HeaderScan::npos && h.listEnd != HeaderScan::npos)
    return at(h.listBegin, h.listEnd + 1, list);
  llvm::StringRef inside =
      text.slice(begin + h.dictOpen + 1, begin + h.dictClose).trim();
  return at(h.dictOpen + 1, h.dictOpen + 1,
            "noalias_args = " + list + (inside.empty() ? "" : ", "));
}

} // namespace

std::optional<lsp::CodeAction>
waveasm::server::computeDeclareNoAliasAction(const ParsedDocument &parsed,
                                             lsp::Position pos,
                                             const CodeActionOptions &options) {
  std::optional<ScheduleTarget> target = findLoopHeaderAt(parsed, pos);
  if (!target)
    return std::nullopt;
  std::optional<unsigned> entry = parsed.lookupOp(target->owner);
  auto loop = dyn_cast<LoopOp>(target->owner);
  auto program = target->owner->getParentOfType<ProgramOp>();
  if (!loop || !program || computeLoopStages(loop, 2).ok())
    return std::nullopt;
  SmallVector<int64_t, 4> declared = getNoAliasArgs(program);
  std::set<int64_t> wanted(declared.begin(), declared.end());
  std::set<int64_t> conflicting = conflictingArgs(loop);
  SmallVector<int64_t, 4> added;
  for (int64_t arg : conflicting)
    if (wanted.insert(arg).second)
      added.push_back(arg);
  if (added.empty())
    return std::nullopt;
  SmallVector<int64_t, 4> args(wanted.begin(), wanted.end());
  if (!pipelinesWith(program, loop, args))
    return std::nullopt;
  std::optional<lsp::TextEdit> edit =
      declarationEdit(parsed, parsed.getOps()[*entry].program, args);
  if (!edit)
    return std::nullopt;
  lsp::CodeAction action;
  std::string names = llvm::join(
      llvm::map_range(added, [](int64_t a) { return std::to_string(a); }),
      ", ");
  action.title =
      llvm::formatv("Declare the kernel arguments at kernarg offsets {0} "
                    "apart (noalias_args): the loop's loads can then run ahead",
                    names)
          .str();
  action.kind = kCodeActionKind.str();
  action.edit = makeWorkspaceEdit(parsed, {*edit}, options.versionedEdits);
  return action;
}
