//===- PipelineStrategy.h - the software-pipelining strategy ----*- C++ -*-===//
//
// Issue 12's built-in strategy that overlaps iterations: for 2 to 5 stages
// it assigns stages (analysis/LoopStages.h computeLoopStages), expands the
// loop with waveasm-pipeline-loops, and also tries the latency strategy's
// reorder of the steady-state body on top; every candidate is compiled and
// measured on a clone of the whole module. The best candidate is returned
// only when it lowers the *program's* est_cycles (per-iteration cycles are
// not comparable: pipelining changes the kernel's trip count), or, when the
// loop's trip count is not known (est_cycles then count one iteration), the
// loop's cycles per iteration as written (pipeline/PipelinedCycles.h, as
// the Session compares); otherwise nothing, and the input stays. When the LDS
// planner finds bank conflicts a padded layout lowers (analysis/LdsPadding.h),
// that padding is also tried alone and on the fastest unpadded candidate (`pad
// lds S P` first).
//
// The result is commands (`pad lds S P`, `stage Ix N`, then moves), so the
// Session applies it like any other round: validated, measured pipelined
// and padded, kept by its key order and checked by execution
// (conductor/Stages.h, conductor/Padding.h).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_PIPELINESTRATEGY_H
#define WAVEASM_CONDUCTOR_STRATEGIES_PIPELINESTRATEGY_H

#include "conductor/Commands.h"
#include "conductor/Tags.h"

#include "analysis/Metrics.h"
#include "analysis/TargetModel.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace waveasm::conductor {

struct PipelineStrategyOptions {
  /// Stage counts tried, in order (ties keep the earlier). Four and five
  /// stages give the LDS reads and the loads' consumers stages of their
  /// own (analysis/LoopStages.cpp "Anchors"): gemm_loop 46.7 -> 37.5 slots
  /// per iteration (bench/README.md, pipeline_table.py).
  std::vector<int> stageCounts = {2, 3, 4, 5};
  /// Also try the latency strategy's reorder of the staged body.
  bool reorder = true;
  /// Also try the padded LDS layout (`pad lds S P`).
  bool tryLdsPadding = true;
  /// Measure with the production pipeline (as the Session does).
  bool optimizePipeline = true;
  std::vector<std::string> targetOverrides;
};

/// One measured candidate, for reports and code action titles.
struct PipelineCandidate {
  int numStages = 0;
  bool reordered = false;
  bool padded = false; // numStages 0: the padding alone
  ProgramMetrics metrics;
  /// comparedCycles of `metrics`: what candidates are chosen by.
  int64_t comparedCycles = 0;
  std::vector<MoveCommand> commands;
};

struct PipelineStrategyResult {
  /// Empty unless a candidate lowers the compared cycles.
  std::vector<MoveCommand> commands;
  std::optional<ProgramMetrics> before;
  /// comparedCycles of `before`.
  int64_t beforeComparedCycles = 0;
  /// The chosen candidate (when commands is not empty).
  std::optional<PipelineCandidate> best;
  /// Every candidate measured, in the order tried.
  std::vector<PipelineCandidate> tried;
  /// Why no candidate could be measured ("" when one was): the first
  /// refusal (LoopStages's remark naming the dependence, the pass's, or
  /// the compile error of the pipelined program, e.g. too many VGPRs).
  std::string refusal;
};

/// The strategy on `region` (a loop body of `module`).
PipelineStrategyResult
schedulePipelined(mlir::ModuleOp module, const TaggedRegion &region,
                  const TargetModel &target,
                  const PipelineStrategyOptions &options = {});

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_PIPELINESTRATEGY_H
