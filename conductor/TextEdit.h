//===- TextEdit.h - reorder a block's ops in the source text ----*- C++ -*-===//
//
// The Conductor's schedules reach files and editors as text edits, not as
// re-printed modules: each op of the scheduled block owns its source lines
// (from the line of its first result to the end of the line where its
// definition ends, trailing comment included), and a new order moves those
// lines verbatim. Everything between two ops (comment lines, blank lines)
// stays where it is, so section comments keep heading the same slots and
// no formatting, SSA name or comment is lost. Locations come from MLIR's
// AsmParserState (what the language server parses with).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_TEXTEDIT_H
#define WAVEASM_CONDUCTOR_TEXTEDIT_H

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Block.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace waveasm {
namespace conductor {

/// Byte range [begin, end) of an op's whole lines (end after its newline).
struct OpTextRange {
  size_t begin = 0, end = 0;
};

/// The line ranges of the ops of `block`, in block order, in `buffer` (the
/// text `state` was parsed from). Fails with `error` when an op shares a
/// line with another op or with other text before it, or has no location in
/// the buffer.
mlir::FailureOr<std::vector<OpTextRange>>
computeOpTextRanges(llvm::StringRef buffer, mlir::Block &block,
                    const mlir::AsmParserState &state,
                    std::string *error = nullptr);

/// `buffer` with the op at slot k replaced by the text of op `newOrder[k]`
/// (indices into `ranges`, a permutation). Gaps between slots stay.
mlir::FailureOr<std::string>
reorderBlockText(llvm::StringRef buffer, llvm::ArrayRef<OpTextRange> ranges,
                 llvm::ArrayRef<unsigned> newOrder,
                 std::string *error = nullptr);

/// One contiguous replacement covering the reordered ops (for an LSP
/// TextEdit): bytes [begin, end) of `buffer` become `text`. Empty text and
/// begin == end when the order is unchanged.
struct BlockTextEdit {
  size_t begin = 0, end = 0;
  std::string text;
};
mlir::FailureOr<BlockTextEdit>
computeBlockTextEdit(llvm::StringRef buffer, llvm::ArrayRef<OpTextRange> ranges,
                     llvm::ArrayRef<unsigned> newOrder,
                     std::string *error = nullptr);

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_TEXTEDIT_H
