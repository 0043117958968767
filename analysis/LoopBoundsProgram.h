//===- LoopBoundsProgram.h - a lower bound of a whole program ---*- C++ -*-===//
//
// A lower bound of the cycles of a whole program that holds for every
// legal schedule of its ops, where LoopBounds.h bounds one steady-state
// iteration of a loop. A loop whose trip count T the IR gives runs T
// iterations and a short one never reaches its steady state: its loads'
// latency is paid at least once, and the per-iteration bound times T says
// nothing about that. Here the program's ops are traced with every loop
// unrolled to its trip count (one iteration without one: the body runs at
// least once), and the trace is bounded by a one-unit relaxation with
// heads and tails (proof below).
//
// Trace. Each op instance i that a schedule must execute gets
//   head(i): the longest dependence path from the program's start to its
//            issue (an operand is ready its producer's latency after the
//            producer issued; an MFMA's accumulator its chain latency),
//   tail(i): the longest path from its issue to the program's end: at
//            least its issue slots (the end is the clock after the last
//            issue), for a memory op its latency plus s_endpgm's slot when
//            the program ends with s_endpgm (which waits for every
//            counter), else its readers' edge plus their tails.
// Ops a better schedule would not need (isScheduleArtifact: waits, nops,
// same-class moves) pass readiness on for free; the regions of a
// `waveasm.if` are left out (the `if` takes its slot; its results are
// ready when it issues). Leaving ops or edges out only lowers heads, tails
// and sums, so every figure below stays a lower bound.
//
// Proof. Take a unit U (the issue stage, occupied issueCycles by every op,
// or an execution unit, occupied by its ops' occupancy from their issue,
// TargetModel::getUnitOccupancy) and any set S of instances that occupy
// it. Their occupancy intervals do not overlap and none starts before
// min_S head, so the instance k of S that issues last issues at
// t_k >= min_S head + sum_S occ - occ_k, and the program ends at
// >= t_k + tail(k). Hence, for every schedule,
//   cycles >= min_S head + sum_S occ + min_S (tail - occ).
// The bound is the largest of these over two families of S per unit (the
// instances with head >= h for every h, and those with tail - occ >= q
// for every q) and the critical path max_i head(i) + tail(i). With S all
// of a unit's instances it is at least that unit's total occupancy, the
// resource bound of the whole program.
//
// The trace is capped (kMaxTracedInstances): past it the rest of the
// program is left out, which keeps the figure a bound (a smaller one). It
// is tight where one chain or one unit decides: a load, its reader and
// nothing else (LoopBoundsProgramTest).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LOOPBOUNDSPROGRAM_H
#define WAVEASM_ANALYSIS_LOOPBOUNDSPROGRAM_H

#include "analysis/OpFacts.h"

#include <string>

namespace waveasm {

struct ProgramBound {
  int64_t cycles = 0;
  /// What binds: "critical path", or the unit of the one-unit relaxation
  /// ("issue", "MFMA", "VMEM", ... as stringifyExecUnit names it).
  std::string kind;
  /// The longest dependence path of the trace alone.
  int64_t criticalPath = 0;
  /// Op instances traced, and whether the cap cut the trace short.
  int64_t instances = 0;
  bool truncated = false;
};

/// Instances traced at most (a GEMM of 32 trips of 300 ops is ~10,000).
inline constexpr int64_t kMaxTracedInstances = 1 << 16;

/// The lower bound of the whole program of `index` (header comment).
ProgramBound computeProgramBound(const ProgramIndex &index,
                                 llvm::ArrayRef<OpFacts> facts,
                                 int64_t maxInstances = kMaxTracedInstances);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LOOPBOUNDSPROGRAM_H
