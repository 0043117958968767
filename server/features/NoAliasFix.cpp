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
  // The header ends at the body's brace: the first '{' outside an
  // attribute dictionary (the target and ABI attributes use angle
  // brackets only).
  llvm::StringRef header = text.slice(begin, end);
  size_t attributes = header.find(" attributes");
  size_t body = header.find('{');
  if (body == llvm::StringRef::npos)
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
  if (attributes == llvm::StringRef::npos || attributes > body)
    return at(body, body, "attributes {noalias_args = " + list + "} ");
  size_t open = header.find_first_not_of(" \t\r\n", attributes + 11);
  if (open == llvm::StringRef::npos || header[open] != '{')
    return std::nullopt;
  size_t close = header.find('}', open);
  if (close == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef dict = header.slice(open, close);
  size_t existing = dict.find("noalias_args");
  if (existing == llvm::StringRef::npos)
    return at(open + 1, open + 1, "noalias_args = " + list + ", ");
  size_t listBegin = dict.find('[', existing);
  size_t listEnd = dict.find(']', existing);
  if (listBegin == llvm::StringRef::npos || listEnd == llvm::StringRef::npos)
    return std::nullopt;
  return at(open + listBegin, open + listEnd + 1, list);
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
