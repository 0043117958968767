//===- Session.h - one agent's iterative scheduling loop --------*- C++ -*-===//
//
// The design's "Iterative Loop Detail" for one agent: a Session owns a clone
// of the input module, tags one block, measures the baseline with
// compileAndMeasure (on a clone of the clone, assembly off), and then takes
// one round at a time: a reply (or commands from a built-in strategy),
// validated and applied move by move, pseudo ops anchored, compiled and
// measured; the round is kept if the metrics are lexicographically better
// (configurable key order) and reverted otherwise. The first invalid move
// aborts the round and reverts all of its moves. Between rounds the block
// is always in its best order, so the best schedule is the working IR.
//
// Driven synchronously: each call does the whole round on the caller's
// thread (a few hundred microseconds for a 300-op loop, see
// bench/ConductorRoundBench.cpp); an LLM driver awaits replies elsewhere and
// calls applyReply when one arrives.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_SESSION_H
#define WAVEASM_CONDUCTOR_SESSION_H

#include "analysis/Metrics.h"
#include "analysis/TargetModel.h"
#include "conductor/Commands.h"
#include "conductor/Moves.h"
#include "conductor/Tags.h"
#include "sim/Simulator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace waveasm {
class Compiler;
namespace conductor {

struct SessionOptions {
  /// Target kind name ("gfx950") replacing the program's target; empty:
  /// the program's own.
  std::string targetOverride;
  /// TargetModel overrides ("latency.vmem_load=120").
  std::vector<std::string> targetModelOverrides;
  /// Measure with the production pipeline (upstream's optimizations) or
  /// the backend passes only (CompileOptions::measuringPipeline).
  bool optimizePipeline = true;
  /// is_better order (Metrics.h key names); empty: the default order
  /// peak_vgpr, waitcnts_inserted, nops_inserted, total_instructions.
  std::vector<std::string> metricKeyOrder;
  int maxRounds = 10;
  /// The prompt's GOAL line; empty: the design's default.
  std::string goal;
  /// Run every schedule about to be kept against the input in the
  /// simulator (sim/Compare.h) on `executionSeeds` seeds; one that computes
  /// different results is reverted like an invalid move. A program the
  /// simulator cannot run is kept with a warning, once.
  bool checkByExecution = false;
  unsigned executionSeeds = 2;
  /// The simulator's inputs for that check: the document's own
  /// `// waveasm-sim:` lines (setExecutionInputs), so a kernel is checked
  /// on the inputs its author says are meaningful (scale bytes, loop
  /// counts) rather than on the defaults.
  sim::SimOptions executionInputs;
  /// Set when those lines are malformed: the check does not run (on
  /// inputs the author did not mean it proves nothing) and the first kept
  /// round warns with this message.
  std::string executionInputsError;
};

/// Fills `options.executionInputs` from the `// waveasm-sim:` lines of the
/// document `text` (sim/Directives.cpp), or `executionInputsError`.
void setExecutionInputs(SessionOptions &options, llvm::StringRef text);

struct RoundReport {
  int round = 0;
  std::vector<std::string> applied;  // command texts applied (before revert)
  std::optional<std::string> failed; // the invalid command
  std::string failureReason;         // why it failed, or why the round was
                                     // reverted (regression, compile error)
  std::vector<std::string> warnings; // MoveWarning::text()
  std::vector<std::string> ignoredLines; // reply lines that were no command
  /// Those of them that start like a command: CommandDiagnostic::str().
  std::vector<std::string> commandErrors;
  bool improved = false;
  bool reverted = false;
  bool done = false;
  /// Metrics of this round's schedule when it compiled. The loops'
  /// co-access figures are filled in only when the round is kept.
  std::optional<ProgramMetrics> metrics;
  /// For a kept round, the first key (in the session's order) that
  /// improved: "peak_vgpr 52 -> 48".
  std::string metricsChange;

  /// The design's error report ("Applied successfully: ...\nFailed: ...
  /// \nAll moves reverted."), empty when the round was kept.
  std::string text() const;
  /// One log line: "round 2: 3 moves, kept (peak_vgpr 96 -> 92)".
  std::string summary() const;
};

class Session {
public:
  /// Clones `input` (never mutated) and tags the block of `regionOwnerOrNull`
  /// (a loop or a program of `input`) or the default block of the first
  /// program. Fails with a message in `error` on a bad option or region.
  static mlir::FailureOr<std::unique_ptr<Session>>
  create(mlir::ModuleOp input, mlir::Operation *regionOwnerOrNull,
         SessionOptions options, std::string *error = nullptr);
  ~Session();

  /// The design's "LLM Input" for the next round.
  std::string prompt() const;
  /// Parse, validate, apply, anchor, measure, keep or revert.
  RoundReport applyReply(llvm::StringRef reply);
  /// The same for commands from a built-in strategy or tool calls.
  RoundReport applyCommands(llvm::ArrayRef<MoveCommand> commands);
  /// `done` was received or the round budget is used up.
  bool finished() const;
  int roundsUsed() const { return round; }
  int maxRounds() const { return options.maxRounds; }

  const ProgramMetrics &baselineMetrics() const { return baseline; }
  const ProgramMetrics &bestMetrics() const { return best; }
  /// Empty when the input compiled; else the pipeline's first diagnostic
  /// (every schedule that compiles is then better).
  const std::string &baselineError() const { return baselineFailure; }
  bool bestCompiles() const { return bestCompiled; }
  /// The accepted move texts, in order (replayable with applyCommands).
  std::vector<std::string> bestMoves() const { return acceptedMoves; }
  /// The metrics of the current best as "key: value" lines.
  std::string metricsText() const;
  /// The best schedule so far (the working module, tagged; a pipelined
  /// loop is its annotated body, see conductor/Stages.h).
  mlir::ModuleOp bestModule() const { return module.get(); }
  /// The program the best schedule compiles from: bestModule() with a
  /// staged loop expanded by waveasm-pipeline-loops (what was measured and
  /// checked by execution), else bestModule() itself.
  mlir::ModuleOp resultModule() const {
    return bestExpanded ? bestExpanded.get() : module.get();
  }
  /// Whether the best schedule pipelines the loop.
  bool bestIsPipelined() const { return bool(bestExpanded); }
  /// The program holding the scheduled block.
  ProgramOp program() const;
  /// The program of `copy` (a clone of the working module, maybe
  /// expanded, e.g. resultModule()) at the scheduled program's position.
  ProgramOp programIn(mlir::ModuleOp copy) const;
  const TaggedRegion &region() const { return tagged; }
  /// The current block order as tag indices (ops[i] of the region).
  std::vector<unsigned> currentOrder() const;
  /// The op of the *input* module that tag index `i` was cloned from.
  mlir::Operation *inputOp(unsigned tagIndex) const;
  const std::vector<RoundReport> &history() const { return reports; }
  const TargetModel &targetModel() const { return target; }
  llvm::ArrayRef<MetricKey> keyOrder() const { return keys; }
  /// The pipeline the session measures with (SessionOptions).
  bool optimizesPipeline() const { return options.optimizePipeline; }
  /// The TargetModel overrides the session measures with.
  const std::vector<std::string> &targetModelOverrides() const {
    return options.targetModelOverrides;
  }
  /// compareMetrics(a, b) with this session's key order.
  bool isBetter(const ProgramMetrics &a, const ProgramMetrics &b) const;
  /// Whether this session's best is better than `other`'s (a fork of the
  /// same session), as rounds are compared: see perIterationLoop.
  bool bestIsBetterThan(const Session &other) const;
  /// The scheduled loop's est_cycles_per_iter of the best schedule per
  /// iteration as written (a pipelined kernel runs several per iteration);
  /// none when the session schedules a program's block or nothing
  /// compiled.
  std::optional<double> bestCyclesPerInputIteration() const;

  /// Optional "--- Profiling ---" section text for the prompt (empty: none).
  void setProfilingSection(std::string text) { profiling = std::move(text); }
  /// The tagged IR text the cache key is computed from (header + region
  /// before any move of this session).
  const std::string &initialTaggedText() const { return initialText; }

  /// Deep copy (module, tags, metrics, history) for beam search.
  std::unique_ptr<Session> fork() const;

private:
  Session() = default;
  /// Compile and measure the working module; false with `error` set when the
  /// pipeline fails.
  bool measure(mlir::ModuleOp compiled, ProgramMetrics &out,
               std::string &error) const;
  /// The module a round measures: null when the loop is neither staged nor
  /// padded (the working module itself), else its expansion
  /// (conductor/Stages.h expandSchedule); false with `error` when it
  /// cannot be made.
  bool expand(mlir::OwningOpRef<mlir::ModuleOp> &expansion,
              std::string &error) const;
  RoundReport runRound(llvm::ArrayRef<MoveCommand> commands, bool done,
                       std::vector<std::string> ignored,
                       std::vector<std::string> commandErrors = {});
  /// Why the working module's results differ from the input's (empty when
  /// they do not, or when the check is off or impossible: then a warning
  /// goes to `report` once).
  std::string executionMismatch(ProgramOp candidate, RoundReport &report);

  /// The scheduled loop's position among its program's loops (pre-order,
  /// the order of ProgramMetrics::loops), none for a program's block.
  std::optional<unsigned> scheduledLoopIndex() const;
  /// `metrics` (of `measured`, the module compiled) as rounds compare
  /// them: est_cycles replaced by comparedCycles (pipeline/PipelinedCycles.h).
  ProgramMetrics comparable(const ProgramMetrics &metrics,
                            mlir::ModuleOp measured) const;

  SessionOptions options;
  /// The measuring backend, built on the first measure and kept for every
  /// round (its pass manager and target models are the same each time: a
  /// fresh one per round was about 50K instructions of a 300-op loop's
  /// round). Not copied by fork(): each session builds its own.
  mutable std::unique_ptr<Compiler> compiler;
  /// The scheduled loop's number when its trip count is not known: rounds
  /// then compare its cycles per iteration as written instead of the
  /// program's est_cycles (pipeline/PipelinedCycles.h).
  std::optional<unsigned> perIterationLoop;
  bool perIteration() const { return perIterationLoop.has_value(); }
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// The best schedule's pipelined expansion (null: not pipelined).
  mlir::OwningOpRef<mlir::ModuleOp> bestExpanded;
  /// The input's runs in the simulator (checkByExecution), made once and
  /// shared by forks: every kept schedule is compared with them.
  std::shared_ptr<const std::vector<sim::SimResult>> referenceRuns;
  /// Why the input cannot be checked by execution, once known.
  std::string uncheckable;
  bool uncheckableWarned = false;
  TaggedRegion tagged;
  std::vector<mlir::Operation *> inputOps; // by tag index
  TargetModel target;
  std::vector<MetricKey> keys;
  ProgramMetrics baseline, best;
  /// comparable(best, resultModule()).
  ProgramMetrics bestCompared;
  std::string baselineFailure;
  bool bestCompiled = true;
  std::vector<std::string> acceptedMoves;
  std::vector<RoundReport> reports;
  int round = 0;
  bool doneReceived = false;
  std::string profiling;
  std::string initialText;
  std::string header;
  /// The prompt's IR, printed once: SSA names are numbered at creation and
  /// then stay with their values (as tags stay with their ops), so a round
  /// only concatenates these in the block's current order.
  std::string regionHeader, regionFooter;
  std::vector<std::string> opText;                            // by tag index
  std::vector<llvm::SmallVector<std::string, 2>> resultNames; // by tag index
  llvm::DenseMap<mlir::Operation *, unsigned> tagIndex;
  void printRegionOnce();
  std::string regionText() const;
  std::string valueName(mlir::Value value) const;
};

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_SESSION_H
