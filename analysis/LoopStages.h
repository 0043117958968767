//===- LoopStages.h - software-pipelining stages of a loop body -*- C++ -*-===//
//
// Seed 003's ScheduleLoops for `waveasm.loop`: each op of the body gets a
// stage (the iteration offset at which it runs once the loop is pipelined:
// stage s of iteration j runs in the same steady-state step as stage 0 of
// iteration j + s) and a cluster (ops issued together). Memory loads go to
// stage 0 and MFMAs to the last stage, so a load's latency is hidden behind
// the previous iterations' compute.
//
// A stage assignment is legal when (the same rules check hand-edited
// annotations):
//   - SSA: an op's stage is at least its in-body producers' stages; SCC
//     values (never iter_args) stay in their producer's stage;
//   - iterations: an op reading block argument k runs no earlier than the
//     op yielding iter_arg k (the previous iteration's value);
//   - loop control: the condition's producer (and so its whole slice) is in
//     stage 0, since the steady-state loop decides from the newest
//     iteration whether another one starts;
//   - memory: two ops that may touch the same bytes, one writing, share a
//     stage (so no iteration's access moves across another's). LDS pairs
//     always conflict (lanes of a wave exchange data through LDS, which
//     MemoryAlias's per-lane answer does not cover); global pairs conflict
//     unless `alias` proves them disjoint with loop-invariant bases (an
//     address value that changes per iteration says nothing about the
//     previous iteration's accesses);
//   - barriers share the stage of every LDS access; an `s_waitcnt` or
//     `s_nop` takes the stage of the op after it; implicit SCC/VCC/EXEC/M0
//     readers share the stage of the writer they read.
// Clusters are the maximal runs of one stage in body order, numbered from
// 0; the pipelined loop issues ops in body order, so a cluster is a run of
// ops of one iteration issued back to back.
//
// Attributes (ours; ARCHITECTURE.md "Loop stages"):
//   `waveasm.stage = <i32>` and `waveasm.cluster = <i32>` on body ops,
//   `waveasm.num_stages = <i32>` on the loop.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LOOPSTAGES_H
#define WAVEASM_ANALYSIS_LOOPSTAGES_H

#include "ir/Dialect.h"

#include <string>

namespace waveasm {

inline constexpr llvm::StringLiteral kStageAttrName = "waveasm.stage";
inline constexpr llvm::StringLiteral kClusterAttrName = "waveasm.cluster";
inline constexpr llvm::StringLiteral kNumStagesAttrName = "waveasm.num_stages";

struct LoopStages {
  /// Body ops in order, the terminator excluded.
  llvm::SmallVector<mlir::Operation *> ops;
  llvm::SmallVector<int> stages;
  llvm::SmallVector<int> clusters;
  int numStages = 1;
  /// Why the loop cannot be pipelined (empty when it can), and the op the
  /// reason is about.
  std::string failure;
  mlir::Operation *failureOp = nullptr;
  bool ok() const { return failure.empty(); }
  /// Index of `op` in `ops`, -1 when it is not a body op.
  int indexOf(mlir::Operation *op) const;
};

/// Assigns stages for a pipeline of `numStages` (>= 2) stages. Fails when
/// the rules leave fewer than two non-empty stages (naming the dependence
/// that pulled the loads late) or put loop control after stage 0.
LoopStages computeLoopStages(LoopOp loop, int numStages);

/// The stages written on the loop's ops (possibly edited by hand), checked
/// against the rules; `numStages` is the loop's `waveasm.num_stages`, else
/// the largest stage + 1. Fails naming the first broken rule, or when an op
/// has no stage.
LoopStages readLoopStages(LoopOp loop);

/// Whether any body op carries a stage attribute.
bool hasLoopStages(LoopOp loop);

/// Maximal runs of equal stage in body order, numbered from 0.
llvm::SmallVector<int> computeClusters(llvm::ArrayRef<int> stages);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LOOPSTAGES_H
