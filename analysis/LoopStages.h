//===- LoopStages.h - software-pipelining stages of a loop body -*- C++ -*-===//
//
// Seed 003's ScheduleLoops for `waveasm.loop`: each op of the body gets a
// stage (the iteration offset at which it runs once the loop is pipelined:
// stage s of iteration j runs in the same steady-state step as stage 0 of
// iteration j + s) and a cluster (ops issued together). Memory loads go to
// stage 0 and MFMAs to the last stage, so a load's latency is hidden behind
// the previous iterations' compute; in a loop without MFMAs (streaming:
// load, compute, store) a register load's consumers take the last stage,
// so S stages read a load S - 1 steps after it.
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
// LDS ping/pong: when the loop's LDS traffic is private to an iteration
// (`ldsCopyShape` is empty: single-address ds ops only, every write before
// every read in body order, loop-invariant write addresses, a barrier
// between the last write and the first read and one after the last read or
// before the first write), the LDS writes may run in an earlier stage than
// the reads of the same iteration: writes share one stage, a read runs no
// earlier than the writes, a barrier before the first read shares the
// writes' stage and one after it the reads' stage. Iteration j then needs
// its own copy of the buffers while iterations j+1 .. j+C-1 write theirs:
// `ldsCopies` = C = (latest read stage) - (earliest write stage) + 1, and
// the pipeliner gives iteration j copy j mod C (pipeline/opt/LdsCopies.h).
// The barriers stay correct across waves: iteration j's writes are followed
// by the RAW barrier in the writes' stage before any read of copy j, and
// the next write of copy j (iteration j+C, one step after the reads) comes
// after the WAR barrier in the reads' stage.
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
  /// Copies of the loop's LDS buffers the stages need (1: none extra;
  /// see "LDS ping/pong" above).
  int ldsCopies = 1;
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
/// With `allowLdsCopies` false, LDS accesses and barriers keep one stage
/// (no ping/pong).
LoopStages computeLoopStages(LoopOp loop, int numStages,
                             bool allowLdsCopies = true);

/// The stages written on the loop's ops (possibly edited by hand), checked
/// against the rules; `numStages` is the loop's `waveasm.num_stages`, else
/// the largest stage + 1. Fails naming the first broken rule, or when an op
/// has no stage.
LoopStages readLoopStages(LoopOp loop, bool allowLdsCopies = true);

/// Why the loop's LDS writes cannot run in an earlier stage than its reads
/// (empty when they can: "LDS ping/pong" above). Names the op at fault.
std::string ldsCopyShape(LoopOp loop);

/// Whether any body op carries a stage attribute.
bool hasLoopStages(LoopOp loop);

/// Global and scalar loads: the latencies worth hiding (hundreds of clocks,
/// SCHEDULING-FACTS.md), anchored to stage 0 and issued first by a
/// pipelined step. LDS reads stay with the LDS writes.
bool isPrefetchLoad(mlir::Operation *op);

/// Maximal runs of equal stage in body order, numbered from 0.
llvm::SmallVector<int> computeClusters(llvm::ArrayRef<int> stages);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LOOPSTAGES_H
