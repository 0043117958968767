//===- Compare.h - equivalence of two programs by execution -----*- C++ -*-===//
//
// Two programs are equivalent on a seed when, run from that seed's
// environment, they leave every buffer and the LDS byte-identical.
// compareOnSeeds runs both on N seeds: "different" names the first
// differing byte; "not checked" (an op not simulated, a fault, a loop over
// the limit in either) is never reported as equal.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SIM_COMPARE_H
#define WAVEASM_SIM_COMPARE_H

#include "sim/Simulator.h"

namespace waveasm::sim {

struct Comparison {
  enum class Verdict { Equal, Different, NotChecked };
  Verdict verdict = Verdict::NotChecked;
  /// Different: where and what ("buffer 1 byte 0x40 (lane 16 of a dword
  /// store?): 0x3f800000 vs 0x0"); NotChecked: why.
  std::string message;
  uint64_t seed = 0;
  /// Ops either run computed at host precision (SimResult::hostPrecision).
  std::vector<std::string> hostPrecision;
  bool equal() const { return verdict == Verdict::Equal; }
};

/// The first difference between two runs' memory, or "" when equal.
std::string firstDifference(const SimResult &a, const SimResult &b);

/// Every difference between two runs' memory, a run of differing dwords
/// per entry ("buffer 1 byte 0 + 40: dword 3f800000 vs 0, 16 dwords differ
/// to + 80"), at most `limit` entries; the LDS too if `compareLDS`.
std::vector<std::string> differences(const SimResult &a, const SimResult &b,
                                     size_t limit, bool compareLDS = true);

/// `program` run on seeds options.seed .. options.seed + seeds - 1,
/// stopping after a run that did not finish.
std::vector<SimResult> runOnSeeds(ProgramOp program, unsigned seeds,
                                  SimOptions options = {});

/// `b` against a first program's runOnSeeds, seed by seed (a caller that
/// compares many programs with one keeps the first's runs).
Comparison compareWithRuns(llvm::ArrayRef<SimResult> first, ProgramOp b,
                           SimOptions options = {});

/// Runs `a` and `b` on seeds options.seed .. options.seed + seeds - 1.
Comparison compareOnSeeds(ProgramOp a, ProgramOp b, unsigned seeds,
                          SimOptions options = {});

llvm::StringRef verdictName(Comparison::Verdict verdict);

} // namespace waveasm::sim

#endif // WAVEASM_SIM_COMPARE_H
