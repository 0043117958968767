//===- StepOrder.h - issue order of a pipelined loop's step -----*- C++ -*-===//
//
// One step of a software-pipelined loop runs stage q of iteration t - q for
// every stage q (pipeline/opt/PipelineLoops.cpp). Ops of different stages
// belong to different iterations, so within a step they have no data
// dependence on each other: the stage rules (analysis/LoopStages.h) put
// every same-iteration producer and every possibly conflicting memory
// access or barrier in the same or an earlier stage, and earlier stages of
// an iteration ran in earlier steps. Only the ops of one stage must keep
// their relative order. That leaves the order of the stages in a step free,
// and it decides how far a load runs ahead of its consumer:
//
//   body       every op in body order (stages interleaved as written);
//   late-first the loads of stage 0 (the prefetch) and the stage-0 ops
//              they need first, then stages S-1, S-2, ..., 1, then the
//              rest of stage 0 (loop control; its leading plain ops merge
//              with the later stages as a last stream, so they issue in a
//              barrier's LDS drain when one is waited out). A load
//              issued at the top of step t is consumed in stage 1 of step
//              t + 1 (or later), the ops of the latest stages in between,
//              so a load's
//              latency is covered by almost whole steps instead of the
//              distance between the two ops in body order. When every
//              load is read two or more steps after it is issued, the
//              later stages' LDS accesses before their first barrier go
//              ahead of the prefetch: the barrier drains every earlier
//              LDS access (~20 slots after the last), the loads have
//              whole steps of slack. In a workgroup declared one wave
//              (ir/Workgroup.h) the barrier drains nothing: there only
//              with four or more steps between the loads and their
//              readers (the reads then return a step ahead of the MFMAs
//              they feed), else the prefetch keeps the top of the step;
//              and when the MFMAs fill at most half such a step they do
//              not cover, they follow the reads. The later stages merge by
//              pipeline/opt/StepMerge.h's rules: MFMAs of one stage issue
//              between another's LDS accesses while more MFMA passes are
//              left than the LDS drain after the last one (cover), a stage
//              stopped at a barrier waits while the LDS accesses before it
//              drain (the other stages' ops issue in that window instead
//              of after the barrier's wait, and no longer), else the stage
//              whose next memory access is nearest goes first. The merge
//              runs twice: the second knows when the operands an MFMA
//              reads from earlier steps arrive (the first's issue slots,
//              a step's length per step back) and keeps an MFMA whose
//              fragments are still in flight out of the cover.
//   reads-first late-first, and in each later stage with direct-to-LDS
//              loads the stage's LDS reads (and the address ops only they
//              read) ahead of the stage's loads, their M0 writes and
//              voffsets (pipeline/opt/StepReadsFirst.h), the loads right
//              after the reads: those LDS accesses ahead of the prefetch
//              merge without MFMA cover. The same as late-first where no
//              read moves. PipelineLoops.cpp measures it next to
//              late-first for a deepened rotation with a spare buffer
//              (no `order` given) and keeps the faster program.
//
// Hoisting the prefetch above other stage-0 ops is only done when nothing
// it passes could be reordered with it (memory it writes or reads, a
// barrier or wait, an implicit register, an SCC value read later); else
// stage 0 keeps body order, still after the later stages.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_STEPORDER_H
#define WAVEASM_PIPELINE_OPT_STEPORDER_H

#include "analysis/LoopStages.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace waveasm {

enum class StepOrder { Body, LateFirst, ReadsFirst };

/// "body" / "late-first" / "reads-first"; nullopt for another text.
std::optional<StepOrder> parseStepOrder(llvm::StringRef text);
/// The text parseStepOrder reads as `order`.
llvm::StringRef stepOrderName(StepOrder order);

/// Ops that keep their place in a step: waits, nops, priority changes,
/// barriers and pinned ops.
bool isOrderingOp(mlir::Operation *op);

/// Whether `order`, one step of `stages`, gives every reader of VCC, EXEC
/// or M0 the value the loop as written gives it (the same writer, or none
/// in the step) and leaves each such register as the loop does. A merge of
/// the stages' streams may interleave a VCC writer and its reader with
/// another stage's pair; computeStepOrder falls back to the body's order
/// then.
bool keepsImplicitRegisterFlow(const LoopStages &stages,
                               llvm::ArrayRef<mlir::Operation *> order);

/// The body ops of `stages` (which passed the stage rules) in the order one
/// step issues them. `removed`: the body ops the production order's
/// optimizations remove (RemovedByCleanups.h), when the caller computed them
/// once for several stagings of one body; null: computed here.
llvm::SmallVector<mlir::Operation *>
computeStepOrder(const LoopStages &stages, StepOrder order,
                 const llvm::DenseSet<mlir::Operation *> *removed = nullptr);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_STEPORDER_H
