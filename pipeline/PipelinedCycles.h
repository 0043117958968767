//===- PipelinedCycles.h - cycles of a loop that may be pipelined -*- C++
//-*-===//
//
// What schedules of a loop are compared by, in waveasm-pipeline-loops's
// `only-if-profitable` and in the Conductor (its rounds, its pipeline
// strategy, "Pipeline this loop"). With a trip count the IR gives, the
// program's est_cycles. Without one, est_cycles count a single iteration
// of the loop, so a pipelined loop (a prologue and an epilogue, a kernel
// iteration running several iterations as written) would always look
// slower: the loop's cycles per iteration as written decide, as the pass's
// automatic stage count decides.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_PIPELINEDCYCLES_H
#define WAVEASM_PIPELINE_PIPELINEDCYCLES_H

#include "analysis/Metrics.h"
#include "ir/Dialect.h"

#include <cstdint>
#include <optional>

namespace waveasm {

/// Iterations of the loop as written that one iteration of `loop` runs:
/// its waveasm.pipeline_steps (a pipelined kernel unrolled by modulo
/// variable expansion), else 1.
int64_t inputIterationsPerIteration(LoopOp loop);

/// Loop `loop`'s est_cycles_per_iter in `metrics` over the iterations as
/// written one of its iterations runs in `measured` (the program the
/// metrics are of; null: one); none when the metrics have no such loop.
std::optional<double> cyclesPerInputIteration(const ProgramMetrics &metrics,
                                              ProgramOp measured,
                                              unsigned loop);

/// `loop`'s number (ir/LoopNumbering.h) when its trip count is not known,
/// so that comparedCycles compares it per iteration; else none.
std::optional<unsigned> perIterationComparisonLoop(LoopOp loop);

/// The cycles schedules are compared by (fewer is better):
/// `metrics.est_cycles`, or with `perIterationLoop` that loop's
/// est_cycles_per_iter over the iterations as written it runs in `measured`
/// (the program compiled), in thousandths, times kComparedCyclesScale,
/// plus est_cycles: equal loops are told apart by the code around them.
int64_t comparedCycles(const ProgramMetrics &metrics, ProgramOp measured,
                       std::optional<unsigned> perIterationLoop);
/// Above any program's est_cycles (16M slots).
inline constexpr int64_t kComparedCyclesScale = int64_t(1) << 24;
/// The loop's cycles per iteration as written a comparedCycles value with
/// a loop holds (to the thousandth).
inline double loopCyclesOf(int64_t compared) {
  return double(compared / kComparedCyclesScale) / 1000.0;
}

/// "est_cycles 407 -> 395", or with a loop compared per iteration, "the
/// loop's cycles per iteration as written 141.0 -> 131.0" (the program's
/// est_cycles when those are equal), from two comparedCycles.
std::string describeComparedCycles(int64_t before, int64_t after,
                                   bool perIteration);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_PIPELINEDCYCLES_H
