//===- StepMerge.h - the later stages of a pipelined step, merged -*- C++
//-*-===//
//
// One step of a pipelined loop issues the ops of every stage
// (pipeline/opt/StepOrder.h); the stages after the first are "streams",
// each in its own body order, and the merge decides which stream issues
// next. It follows an issue clock (StepClock: one slot per op, an MFMA
// waits for the MFMA pipe and holds it for its passes, the LDS latency
// after the last LDS access) and three rules, first match wins:
//
//   cover    an MFMA at a stream's head issues when the MFMA pipe is free,
//            its operands are ready, the step's LDS traffic has started
//            and is not over, and more MFMA passes are left (plus the ops
//            that follow the LDS traffic anyway) than the LDS latency
//            after the last LDS access: its passes run under the LDS
//            traffic instead of after it, at one issue slot to the LDS
//            stream. The rest covers the barrier's drain. (The double
//            buffer issued its eight LDS reads, two writes, then eight
//            MFMAs back to back: 52 slots a step for 32 of MFMA pipe.)
//            Without a drain (a single-wave workgroup) an MFMA issues
//            whenever the pipe is free and its operands are ready, once
//            the LDS traffic has started. A step bound by the MFMA pipe
//            (more passes than every other op's slot plus the drain)
//            covers before its first LDS access too. A single-wave step
//            whose MFMAs fill at most half of it has no cover at all
//            (setCover): its MFMAs would only push back the reads that
//            feed the next step's.
//   drain    a stream stopped at a barrier waits while the LDS accesses
//            issued before it drain (the barrier's lgkmcnt(0),
//            pipeline/InsertWaitcnt.cpp (b)): the other streams go first,
//            and no longer (the accesses after the barrier keep their
//            distance from their readers);
//   nearest  else the stream whose next memory access is nearest (the
//            latest stage on a tie), so loads and LDS traffic issue early;
//            while the MFMA pipe is busy, a stream whose head is an MFMA
//            (it would wait for the pipe), a barrier or a priority change
//            goes after one whose head issues at once: the other stages'
//            SALU, loads and M0 writes fill the pipe's passes instead of
//            following the MFMAs issued back to back (mxfp4 direct-to-LDS,
//            5 stages: 9 of ~30 slots a step the pipe stalled; 30.7 ->
//            27.0 slots per iteration with the clock's FreeOps below).
//
// Any merge is legal: ops of different stages belong to different
// iterations, and the stage rules keep the LDS accesses a barrier orders
// in its stage or on another copy (analysis/LoopStages.h). The clock only
// decides the order; the cycle model (analysis/CycleModel.h) measures it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_STEPMERGE_H
#define WAVEASM_PIPELINE_OPT_STEPMERGE_H

#include "analysis/TargetModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <limits>

namespace waveasm {

/// Whether `op` reads or writes LDS (a barrier does neither).
bool isLdsAccess(mlir::Operation *op);

/// Whether `op` only leads into the MFMA after it in its stage, so the
/// cover rule takes it along: no issue slot (an extract or a pack of the
/// MFMA's operands) or a priority change; never an op with regions.
bool leadsIntoMfma(mlir::Operation *op);

/// Extra LDS pipe slots of a ds op (its bank conflict,
/// analysis/LdsBankConflicts.h); an op not in it has none.
using LdsExtraSlots = llvm::DenseMap<mlir::Operation *, int64_t>;

/// Ops the issue clock counts as taking no slot: the steady state's unroll
/// removes them (StepOrder.cpp, foldedByUnroll).
using FreeOps = llvm::DenseSet<mlir::Operation *>;

/// The issue clock of a step order being built, in issue slots: the cycle
/// model's rules (analysis/CycleModel.h) reduced to what the merge asks.
/// Every op takes one slot; an MFMA waits for the MFMA pipe and holds it
/// for its passes; an LDS access takes the LDS pipe for a slot plus its
/// bank conflict's extra slots (`ldsExtra`), starts when the pipe is free
/// and completes the LDS latency plus those slots later, as in the cycle
/// model; the accesses issued so far have drained once the last to
/// complete has. Without a target model no op has
/// passes and nothing needs draining; nor in a single-wave workgroup, whose
/// barrier waits for no LDS access (`barrierDrains` false,
/// pipeline/InsertWaitcnt.cpp (b)): there the cover rule takes every ready
/// MFMA while LDS accesses are left and the drain rule never holds a
/// barrier.
class StepClock {
public:
  /// `ldsExtra` (may be null: no conflicts) must outlive the clock.
  explicit StepClock(const TargetModel *target, bool barrierDrains = true,
                     const LdsExtraSlots *ldsExtra = nullptr,
                     const FreeOps *freeOps = nullptr);
  /// MFMA passes of `op` (0 for every other op).
  int64_t passes(mlir::Operation *op) const;
  /// Whether the clock counts no slot for `op` (FreeOps).
  bool isFree(mlir::Operation *op) const {
    return freeOps && freeOps->contains(op);
  }
  /// Issues `op` at the first slot it may take, no earlier than `ready`;
  /// returns that slot.
  int64_t issue(mlir::Operation *op, int64_t ready = 0);
  /// The next free issue slot.
  int64_t now() const { return clock; }
  /// Whether an MFMA issued now would not wait for the pipe.
  bool pipeFree() const { return clock >= pipeFreeAt; }
  /// Whether an LDS access has issued.
  bool ldsStarted() const { return ldsDone != kNever; }
  /// Whether every LDS access issued so far has completed by the time the
  /// issue slots and the MFMA pipe are both free (an MFMA after a barrier
  /// waits for the pipe anyway, so its passes count as cover). A
  /// conflicting access holds the LDS pipe longer, so the ones after it
  /// complete later too: the drain ends at the latest completion, not the
  /// LDS latency after the last issue (rotating4's five conflicting reads
  /// drained 12 slots after that, the SALU meant for the drain went after
  /// the barrier).
  bool drained() const { return std::max(clock, pipeFreeAt) >= ldsDone; }
  /// The LDS latency in slots.
  int64_t drain() const { return drainSlots; }

private:
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::min() / 2;
  const TargetModel *target;
  int64_t drainSlots;
  const LdsExtraSlots *ldsExtra;
  const FreeOps *freeOps;
  int64_t clock = 0;
  int64_t pipeFreeAt = 0;
  /// The first slot the LDS pipe takes another access, and the slot at
  /// which every LDS access issued so far has completed.
  int64_t ldsFreeAt = 0;
  int64_t ldsDone = kNever;
};

/// Merges streams of ops (above) into one issue order.
class StepMerger {
public:
  /// The slot of the step from which `op`'s operands are ready.
  using ReadyFn = llvm::function_ref<int64_t(mlir::Operation *)>;

  /// `streams` are kept by reference and must outlive the merger; `ready`
  /// may be null (every operand ready).
  StepMerger(llvm::ArrayRef<llvm::SmallVector<mlir::Operation *>> streams,
             const TargetModel *target, ReadyFn ready = nullptr,
             bool barrierDrains = true, const LdsExtraSlots *ldsExtra = nullptr,
             const FreeOps *freeOps = nullptr);

  /// Lets the cover rule take MFMAs before the step's first LDS access too:
  /// for a step bound by the MFMA pipe, where an idle pipe costs more than
  /// the slot an MFMA takes from the LDS stream (StepOrder.cpp decides).
  void setCoverBeforeLds(bool allow) { coverBeforeLds = allow; }
  /// Turns the cover rule off: the MFMAs then issue by the nearest rule,
  /// after the other streams' memory accesses (StepOrder.cpp decides).
  void setCover(bool allow) { coverAllowed = allow; }
  /// Issues an op outside the streams (the prefetch, the loop control).
  void issue(mlir::Operation *op);
  /// Issues the streams' ops: stream k's before ends[k], and its MFMAs
  /// before coverEnds[k] (>= ends[k]) by the cover rule only. `after`:
  /// ops that will issue after these and before the step's barrier
  /// whatever the merge does (they lengthen the window the MFMAs left
  /// after the LDS traffic must cover).
  void merge(llvm::ArrayRef<size_t> ends, llvm::ArrayRef<size_t> coverEnds,
             int64_t after = 0);
  /// Whether an MFMA may issue as cover here (null: any).
  using CoverFilter = llvm::function_ref<bool(mlir::Operation *)>;
  /// Issues the MFMAs the cover rule picks now (before an op outside the
  /// streams), `ends` being what the streams will issue after it.
  void cover(llvm::ArrayRef<size_t> ends, llvm::ArrayRef<size_t> coverEnds,
             int64_t after = 0, CoverFilter filter = nullptr);
  /// Stream k's next op.
  size_t head(unsigned k) const { return heads[k]; }
  const StepClock &getClock() const { return clock; }
  /// The order so far, and each op's issue slot.
  llvm::ArrayRef<mlir::Operation *> getOrder() const { return order; }
  const llvm::DenseMap<mlir::Operation *, int64_t> &getIssueSlots() const {
    return issuedAt;
  }

private:
  int pickCover(llvm::ArrayRef<size_t> ends, llvm::ArrayRef<size_t> coverEnds,
                int64_t after, CoverFilter filter) const;
  int pickNearest(llvm::ArrayRef<size_t> ends) const;
  int64_t readyOf(mlir::Operation *op) const { return ready ? ready(op) : 0; }

  llvm::ArrayRef<llvm::SmallVector<mlir::Operation *>> streams;
  ReadyFn ready;
  StepClock clock;
  llvm::SmallVector<size_t> heads;
  /// Per stream, per position: the next LDS access at or after it.
  llvm::SmallVector<llvm::SmallVector<size_t>> nextLds;
  /// MFMA passes of the streams not issued yet.
  int64_t passesLeft = 0;
  bool coverBeforeLds = false;
  bool coverAllowed = true;
  llvm::SmallVector<mlir::Operation *> order;
  llvm::DenseMap<mlir::Operation *, int64_t> issuedAt;
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_STEPMERGE_H
