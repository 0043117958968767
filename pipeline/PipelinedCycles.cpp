//===- PipelinedCycles.cpp - cycles of a loop that may be pipelined -------===//

#include "pipeline/PipelinedCycles.h"

#include "analysis/TripCount.h"
#include "ir/LoopNumbering.h"
#include "pipeline/CountedWaits.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace waveasm;

int64_t waveasm::inputIterationsPerIteration(LoopOp loop) {
  auto steps = loop ? loop->getAttrOfType<IntegerAttr>(kPipelineStepsAttrName)
                    : IntegerAttr();
  return steps ? std::max<int64_t>(1, steps.getInt()) : 1;
}

std::optional<double>
waveasm::cyclesPerInputIteration(const ProgramMetrics &metrics,
                                 ProgramOp measured, unsigned loop) {
  if (loop >= metrics.loops.size())
    return std::nullopt;
  int64_t steps =
      measured ? inputIterationsPerIteration(getLoopByNumber(measured, loop))
               : 1;
  return double(metrics.loops[loop].est_cycles_per_iter) / double(steps);
}

std::optional<unsigned> waveasm::perIterationComparisonLoop(LoopOp loop) {
  if (!loop || getTripCount(loop).source != TripCountSource::Default)
    return std::nullopt;
  return getLoopNumber(loop);
}

int64_t waveasm::comparedCycles(const ProgramMetrics &metrics,
                                ProgramOp measured,
                                std::optional<unsigned> perIterationLoop) {
  std::optional<double> perIteration =
      perIterationLoop
          ? cyclesPerInputIteration(metrics, measured, *perIterationLoop)
          : std::nullopt;
  if (!perIteration)
    return metrics.est_cycles;
  int64_t thousandths =
      static_cast<int64_t>(std::llround(1000.0 * *perIteration));
  return thousandths * kComparedCyclesScale +
         std::min(metrics.est_cycles, kComparedCyclesScale - 1);
}

std::string waveasm::describeComparedCycles(int64_t before, int64_t after,
                                            bool perIteration) {
  if (perIteration) {
    if (before / kComparedCyclesScale != after / kComparedCyclesScale)
      return llvm::formatv("the loop's cycles per iteration as written "
                           "{0:f1} -> {1:f1}",
                           loopCyclesOf(before), loopCyclesOf(after))
          .str();
    before %= kComparedCyclesScale;
    after %= kComparedCyclesScale;
  }
  return llvm::formatv("est_cycles {0} -> {1}", before, after).str();
}
