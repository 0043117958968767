//===- LineDiff.cpp - a line diff of two texts ----------------------------===//

#include "support/LineDiff.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace waveasm;

std::string DiffHunk::header() const {
  return llvm::formatv("@@ -{0},{1} +{2},{3} @@", oldStart, oldCount, newStart,
                       newCount);
}

namespace {

std::vector<llvm::StringRef> splitLines(llvm::StringRef text) {
  std::vector<llvm::StringRef> lines;
  if (text.empty())
    return lines;
  text.consume_back("\n");
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, '\n');
  lines.assign(parts.begin(), parts.end());
  return lines;
}

/// Myers' greedy forward search over a[0..n) and b[0..m) (line ids), the
/// V array of each step kept for the walk back. Returns false, leaving
/// `script` alone, when more than `maxEdits` edits would be needed.
bool myers(llvm::ArrayRef<unsigned> a, llvm::ArrayRef<unsigned> b,
           unsigned maxEdits, std::vector<DiffLine::Kind> &script) {
  int n = a.size(), m = b.size();
  int max = std::min<int>(n + m, maxEdits);
  std::vector<int> v(2 * max + 3, 0);
  int offset = max + 1;
  // trace[d]: V over k in [-d, d] before step d.
  std::vector<std::vector<int>> trace;
  for (int d = 0; d <= max; ++d) {
    trace.emplace_back(v.begin() + offset - d, v.begin() + offset + d + 1);
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                  ? v[offset + k + 1]
                  : v[offset + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y])
        ++x, ++y;
      v[offset + k] = x;
      if (x < n || y < m)
        continue;
      // Walk back from (n, m), emitting in reverse.
      std::vector<DiffLine::Kind> reversed;
      for (int e = d; e > 0; --e) {
        const std::vector<int> &prev = trace[e];
        auto at = [&](int kk) { return prev[kk + e]; };
        int kk = x - y;
        int prevK = (kk == -e || (kk != e && at(kk - 1) < at(kk + 1))) ? kk + 1
                                                                       : kk - 1;
        int prevX = at(prevK), prevY = prevX - prevK;
        while (x > prevX && y > prevY) {
          reversed.push_back(DiffLine::Same);
          --x, --y;
        }
        reversed.push_back(x == prevX ? DiffLine::Added : DiffLine::Removed);
        x = prevX, y = prevY;
      }
      while (x > 0 && y > 0) {
        reversed.push_back(DiffLine::Same);
        --x, --y;
      }
      script.assign(reversed.rbegin(), reversed.rend());
      return true;
    }
  }
  return false;
}

} // namespace

std::vector<DiffLine> waveasm::diffLines(llvm::StringRef before,
                                         llvm::StringRef after,
                                         unsigned maxEdits) {
  std::vector<llvm::StringRef> a = splitLines(before), b = splitLines(after);
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
    ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;

  // Lines as small integers, so the search compares ints.
  llvm::DenseMap<llvm::StringRef, unsigned> ids;
  auto idsOf = [&](const std::vector<llvm::StringRef> &lines) {
    std::vector<unsigned> out;
    for (size_t i = prefix; i < lines.size() - suffix; ++i)
      out.push_back(ids.try_emplace(lines[i], ids.size()).first->second);
    return out;
  };
  std::vector<unsigned> midA = idsOf(a), midB = idsOf(b);
  // The search costs about (lines) x (edits): bound the product too, so a
  // 20,000-line program rewritten by a pass costs milliseconds, not seconds.
  constexpr size_t kMaxWork = 20'000'000;
  size_t work = midA.size() + midB.size() + 1;
  unsigned budget =
      std::min<size_t>(maxEdits, std::max<size_t>(64, kMaxWork / work));
  std::vector<DiffLine::Kind> script;
  if (!myers(midA, midB, budget, script)) {
    script.assign(midA.size(), DiffLine::Removed);
    script.insert(script.end(), midB.size(), DiffLine::Added);
  }

  std::vector<DiffLine> lines;
  lines.reserve(prefix + script.size() + suffix);
  for (size_t i = 0; i < prefix; ++i)
    lines.push_back({DiffLine::Same, a[i]});
  size_t x = prefix, y = prefix;
  for (DiffLine::Kind kind : script) {
    if (kind == DiffLine::Same) {
      lines.push_back({kind, b[y]});
      ++x, ++y;
    } else if (kind == DiffLine::Removed) {
      lines.push_back({kind, a[x++]});
    } else {
      lines.push_back({kind, b[y++]});
    }
  }
  for (size_t i = 0; i < suffix; ++i)
    lines.push_back({DiffLine::Same, a[a.size() - suffix + i]});
  return lines;
}

std::vector<DiffHunk> waveasm::diffHunks(llvm::StringRef before,
                                         llvm::StringRef after,
                                         unsigned context, unsigned maxEdits) {
  std::vector<DiffLine> lines = diffLines(before, after, maxEdits);
  std::vector<DiffHunk> hunks;
  // Old and new line numbers (0-based) at each script position.
  std::vector<std::pair<unsigned, unsigned>> at(lines.size() + 1);
  for (size_t i = 0; i < lines.size(); ++i) {
    at[i + 1] = at[i];
    if (lines[i].kind != DiffLine::Added)
      ++at[i + 1].first;
    if (lines[i].kind != DiffLine::Removed)
      ++at[i + 1].second;
  }
  size_t i = 0;
  while (i < lines.size()) {
    if (lines[i].kind == DiffLine::Same) {
      ++i;
      continue;
    }
    size_t begin = i >= context ? i - context : 0;
    // Extend over changes closer than two contexts apart.
    size_t end = i;
    for (;;) {
      while (end < lines.size() && lines[end].kind != DiffLine::Same)
        ++end;
      size_t same = end;
      while (same < lines.size() && lines[same].kind == DiffLine::Same &&
             same - end < 2 * context)
        ++same;
      if (same < lines.size() && lines[same].kind != DiffLine::Same) {
        end = same;
        continue;
      }
      end = std::min(lines.size(), end + context);
      break;
    }
    DiffHunk hunk;
    hunk.lines.assign(lines.begin() + begin, lines.begin() + end);
    hunk.oldStart = at[begin].first + 1;
    hunk.newStart = at[begin].second + 1;
    hunk.oldCount = at[end].first - at[begin].first;
    hunk.newCount = at[end].second - at[begin].second;
    hunks.push_back(std::move(hunk));
    i = end;
  }
  return hunks;
}
