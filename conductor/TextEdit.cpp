//===- TextEdit.cpp - reorder a block's ops in the source text ------------===//

#include "conductor/TextEdit.h"

#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace waveasm::conductor;

static FailureOr<std::vector<OpTextRange>> fail(std::string *error,
                                                const llvm::Twine &message) {
  if (error)
    *error = message.str();
  return failure();
}

FailureOr<std::vector<OpTextRange>>
waveasm::conductor::computeOpTextRanges(llvm::StringRef buffer, Block &block,
                                        const AsmParserState &state,
                                        std::string *error) {
  std::vector<OpTextRange> ranges;
  const char *base = buffer.data();
  auto inBuffer = [&](const char *p) {
    return p >= base && p <= base + buffer.size();
  };
  for (Operation &op : block) {
    const AsmParserState::OperationDefinition *def = state.getOpDef(&op);
    if (!def || !inBuffer(def->scopeLoc.Start.getPointer()) ||
        !inBuffer(def->scopeLoc.End.getPointer()))
      return fail(error, "'" + op.getName().getStringRef() +
                             "' has no source range in this text");
    const char *start = def->scopeLoc.Start.getPointer();
    for (const auto &group : def->resultGroups)
      start = std::min(start, group.definition.loc.Start.getPointer());
    size_t begin = start - base;
    size_t lineBegin = buffer.rfind('\n', begin == 0 ? 0 : begin - 1);
    lineBegin =
        (lineBegin == llvm::StringRef::npos || begin == 0) ? 0 : lineBegin + 1;
    if (!buffer.slice(lineBegin, begin).trim().empty())
      return fail(error, "'" + op.getName().getStringRef() +
                             "' does not start its line");
    size_t endOffset = def->scopeLoc.End.getPointer() - base;
    size_t lineEnd = buffer.find('\n', endOffset == 0 ? 0 : endOffset - 1);
    lineEnd = lineEnd == llvm::StringRef::npos ? buffer.size() : lineEnd + 1;
    if (!ranges.empty() && lineBegin < ranges.back().end)
      return fail(error, "two ops share a line ('" +
                             op.getName().getStringRef() + "')");
    ranges.push_back({lineBegin, lineEnd});
  }
  return ranges;
}

FailureOr<BlockTextEdit> waveasm::conductor::computeBlockTextEdit(
    llvm::StringRef buffer, llvm::ArrayRef<OpTextRange> ranges,
    llvm::ArrayRef<unsigned> newOrder, std::string *error) {
  auto failWith = [&](const llvm::Twine &message) -> FailureOr<BlockTextEdit> {
    if (error)
      *error = message.str();
    return failure();
  };
  if (newOrder.size() != ranges.size())
    return failWith("the new order has " + llvm::Twine(newOrder.size()) +
                    " ops, the block " + llvm::Twine(ranges.size()));
  std::vector<bool> seen(ranges.size());
  for (unsigned index : newOrder) {
    if (index >= ranges.size() || seen[index])
      return failWith("the new order is not a permutation of the block");
    seen[index] = true;
  }
  for (size_t i = 0; i < ranges.size(); ++i)
    if (ranges[i].begin > ranges[i].end || ranges[i].end > buffer.size() ||
        (i && ranges[i - 1].end > ranges[i].begin))
      return failWith("op text ranges overlap or leave the buffer");
  // The first and last slot that change bound the edit.
  size_t first = 0, last = newOrder.size();
  while (first < newOrder.size() && newOrder[first] == first)
    ++first;
  while (last > first && newOrder[last - 1] == last - 1)
    --last;
  BlockTextEdit edit;
  if (first == last)
    return edit;
  edit.begin = ranges[first].begin;
  edit.end = ranges[last - 1].end;
  for (size_t slot = first; slot < last; ++slot) {
    const OpTextRange &moved = ranges[newOrder[slot]];
    llvm::StringRef text = buffer.slice(moved.begin, moved.end);
    edit.text += text.str();
    // The last line of the file may lack its newline.
    if (!text.ends_with("\n"))
      edit.text += "\n";
    if (slot + 1 < last)
      edit.text += buffer.slice(ranges[slot].end, ranges[slot + 1].begin).str();
  }
  if (!buffer.slice(edit.begin, edit.end).ends_with("\n") &&
      llvm::StringRef(edit.text).ends_with("\n"))
    edit.text.pop_back();
  return edit;
}

FailureOr<std::string> waveasm::conductor::reorderBlockText(
    llvm::StringRef buffer, llvm::ArrayRef<OpTextRange> ranges,
    llvm::ArrayRef<unsigned> newOrder, std::string *error) {
  FailureOr<BlockTextEdit> edit =
      computeBlockTextEdit(buffer, ranges, newOrder, error);
  if (failed(edit))
    return failure();
  if (edit->begin == edit->end)
    return buffer.str();
  return (buffer.take_front(edit->begin) + edit->text +
          buffer.drop_front(edit->end))
      .str();
}
