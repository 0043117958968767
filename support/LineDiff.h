//===- LineDiff.h - a line diff of two texts --------------------*- C++ -*-===//
//
// What a pass changed, as the unified diff a reviewer reads: Myers' O(ND)
// shortest edit script over lines (the algorithm behind `diff` and git),
// after the common prefix and suffix are cut off. An edit script longer
// than `maxEdits` (a pass that rewrites every line, like the register
// allocator's types on a 20,000-line program) is not searched for: the
// middle becomes one deletion and one insertion, the same lines a reader
// would skim, in bounded time and memory. `maxEdits` is lowered further so
// that lines times edits stays under 20 million.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SUPPORT_LINEDIFF_H
#define WAVEASM_SUPPORT_LINEDIFF_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace waveasm {

struct DiffLine {
  enum Kind : char { Same = ' ', Removed = '-', Added = '+' };
  Kind kind;
  llvm::StringRef text; // into the old or the new text
};

/// A hunk: lines of both texts around changes, with `context` lines of
/// unchanged text on each side.
struct DiffHunk {
  unsigned oldStart = 0, oldCount = 0; // 1-based start, as in `@@ -a,b`
  unsigned newStart = 0, newCount = 0;
  std::vector<DiffLine> lines;
  /// "@@ -a,b +c,d @@"
  std::string header() const;
};

/// The edit script from `before` to `after`, line by line.
std::vector<DiffLine> diffLines(llvm::StringRef before, llvm::StringRef after,
                                unsigned maxEdits = 2000);
/// The same, grouped into unified-diff hunks.
std::vector<DiffHunk> diffHunks(llvm::StringRef before, llvm::StringRef after,
                                unsigned context = 3, unsigned maxEdits = 2000);

} // namespace waveasm

#endif // WAVEASM_SUPPORT_LINEDIFF_H
