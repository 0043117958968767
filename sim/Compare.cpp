//===- Compare.cpp - equivalence of two programs by execution -------------===//

#include "sim/Compare.h"
#include "sim/CompareBuffers.h"
#include "sim/Machine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace waveasm;
using namespace waveasm::sim;

namespace {
/// The dword at `offset` of `bytes`, for messages.
uint32_t dwordAt(const std::vector<uint8_t> &bytes, size_t offset) {
  uint32_t word = 0;
  size_t first = offset & ~size_t(3);
  for (size_t i = 0; i < 4 && first + i < bytes.size(); ++i)
    word |= uint32_t(bytes[first + i]) << (8 * i);
  return word;
}

/// Appends to `out` the differing dwords of `a` and `b` (named `what`),
/// up to `limit` entries in all, each as "WHAT + OFFSET: dword A vs B";
/// with `runs`, one entry per run of differing dwords, a run of more than
/// one followed by ", N dwords differ to + END".
void diffBytes(llvm::StringRef what, const std::vector<uint8_t> &a,
               const std::vector<uint8_t> &b, size_t limit, bool runs,
               std::vector<std::string> &out) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n && out.size() < limit; ++i) {
    if (a[i] == b[i])
      continue;
    std::string text = llvm::formatv("{0} + {1:x}: dword {2:x8} vs {3:x8}",
                                     what, i, dwordAt(a, i), dwordAt(b, i));
    if (!runs) {
      out.push_back(std::move(text));
      i |= 3; // the next dword
      continue;
    }
    // The run goes on through every dword with a differing byte.
    size_t end = (i & ~size_t(3)) + 4;
    while (end < n &&
           !std::equal(a.begin() + end, a.begin() + std::min(end + 4, n),
                       b.begin() + end))
      end += 4;
    if (size_t dwords = (end - (i & ~size_t(3))) / 4; dwords > 1)
      text += llvm::formatv(", {0} dwords differ to + {1:x}", dwords, end);
    out.push_back(std::move(text));
    i = end - 1;
  }
  if (a.size() != b.size() && out.size() < limit)
    out.push_back(
        llvm::formatv("{0}: {1} vs {2} bytes", what, a.size(), b.size()));
}

/// differences(), each entry a run of dwords if `runs`, else one dword.
std::vector<std::string> collectDifferences(const SimResult &a,
                                            const SimResult &b, size_t limit,
                                            bool compareLDS, bool runs) {
  std::vector<std::string> out;
  // Every page either run wrote; an unwritten page keeps its first contents.
  std::map<uint64_t, bool> written;
  for (const auto &[address, bytes] : a.pages)
    written[address] = true;
  for (const auto &[address, bytes] : b.pages)
    written[address] = true;
  for (const auto &[address, unused] : written) {
    if (out.size() >= limit)
      return out;
    diffBytes(llvm::formatv("buffer {0} byte {1:x}", (address >> 32) - 1,
                            address & 0xffffffff)
                  .str(),
              a.bytes(address, kPageBytes), b.bytes(address, kPageBytes), limit,
              runs, out);
  }
  if (compareLDS)
    diffBytes("LDS", a.lds, b.lds, limit, runs, out);
  return out;
}
} // namespace

std::vector<std::string> waveasm::sim::differences(const SimResult &a,
                                                   const SimResult &b,
                                                   size_t limit,
                                                   bool compareLDS) {
  return collectDifferences(a, b, limit, compareLDS, /*runs=*/true);
}

/// firstDifference, the LDS only if `compareLDS`: the first differing
/// dword, not the run it starts.
static std::string firstDifferenceIn(const SimResult &a, const SimResult &b,
                                     bool compareLDS) {
  std::vector<std::string> first =
      collectDifferences(a, b, 1, compareLDS, /*runs=*/false);
  return first.empty() ? "" : first.front();
}

std::string waveasm::sim::firstDifference(const SimResult &a,
                                          const SimResult &b) {
  return firstDifferenceIn(a, b, /*compareLDS=*/true);
}

std::vector<SimResult> waveasm::sim::runOnSeeds(ProgramOp program,
                                                unsigned seeds,
                                                SimOptions options) {
  std::vector<SimResult> runs;
  uint64_t first = options.seed;
  // Decoded once for every seed.
  DecodedProgram decoded(program);
  std::vector<std::string> staleReads;
  for (unsigned i = 0; i < std::max(seeds, 1u); ++i) {
    options.seed = first + i;
    runs.push_back(simulateDecoded(decoded, options, staleReads));
    if (runs.back().error)
      break;
  }
  return runs;
}

/// compareWithRuns, the LDS compared only if `compareLDS`.
static Comparison compareRuns(llvm::ArrayRef<SimResult> first, ProgramOp b,
                              SimOptions options, bool compareLDS) {
  Comparison result;
  std::optional<DecodedProgram> decoded;
  for (const SimResult &ra : first) {
    options.seed = ra.seed;
    result.seed = options.seed;
    if (ra.error) {
      result.verdict = Comparison::Verdict::NotChecked;
      result.message = "first program: " + ra.error->str();
      return result;
    }
    std::vector<std::string> staleReads;
    if (!decoded)
      decoded.emplace(b); // once for every seed
    const SimResult rb = simulateDecoded(*decoded, options, staleReads);
    // A read that saw a stale value (a hazard without its s_nop) explains a
    // difference, and a fault after it (a stale address) is one.
    std::string stale;
    if (!staleReads.empty())
      stale = "; it read a stale value: " + staleReads.front();
    if (rb.error &&
        (rb.error->kind == SimError::Kind::Race || !stale.empty())) {
      result.verdict = Comparison::Verdict::Different;
      result.message = llvm::formatv("seed {0}: second program: {1}{2}",
                                     options.seed, rb.error->str(), stale)
                           .str();
      return result;
    }
    if (rb.error) {
      result.verdict = Comparison::Verdict::NotChecked;
      result.message = "second program: " + rb.error->str();
      return result;
    }
    // Its output may be the first's only by the simulator's order of the
    // waves: a race the first program does not have is a difference.
    if (!rb.ldsRaces.empty() && ra.ldsRaces.empty()) {
      result.verdict = Comparison::Verdict::Different;
      result.message = llvm::formatv("seed {0}: second program: {1}",
                                     options.seed, rb.ldsRaces.front())
                           .str();
      return result;
    }
    for (const SimResult *r : {&ra, &rb})
      for (const std::string &name : r->hostPrecision)
        if (!llvm::is_contained(result.hostPrecision, name))
          result.hostPrecision.push_back(name);
    if (std::string d = firstDifferenceIn(ra, rb, compareLDS); !d.empty()) {
      result.verdict = Comparison::Verdict::Different;
      result.message =
          llvm::formatv("seed {0}: {1}{2}", options.seed, d, stale).str();
      return result;
    }
  }
  result.verdict = Comparison::Verdict::Equal;
  result.message = "";
  return result;
}

Comparison waveasm::sim::compareWithRuns(llvm::ArrayRef<SimResult> first,
                                         ProgramOp b, SimOptions options) {
  return compareRuns(first, b, options, /*compareLDS=*/true);
}

Comparison waveasm::sim::compareOnSeeds(ProgramOp a, ProgramOp b,
                                        unsigned seeds, SimOptions options) {
  return compareWithRuns(runOnSeeds(a, seeds, options), b, options);
}

Comparison waveasm::sim::compareBuffersWithRuns(llvm::ArrayRef<SimResult> first,
                                                ProgramOp b,
                                                SimOptions options) {
  return compareRuns(first, b, options, /*compareLDS=*/false);
}

Comparison waveasm::sim::compareBuffersOnSeeds(ProgramOp a, ProgramOp b,
                                               unsigned seeds,
                                               SimOptions options) {
  return compareRuns(runOnSeeds(a, seeds, options), b, options,
                     /*compareLDS=*/false);
}

llvm::StringRef waveasm::sim::verdictName(Comparison::Verdict verdict) {
  switch (verdict) {
  case Comparison::Verdict::Equal:
    return "equal";
  case Comparison::Verdict::Different:
    return "different";
  case Comparison::Verdict::NotChecked:
    return "not checked";
  }
  return "";
}
