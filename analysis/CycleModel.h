//===- CycleModel.h - in-order single-wave issue model ----------*- C++ -*-===//
//
// Estimates when each instruction of one waveasm.program issues, assuming a
// single wave that issues in order, one instruction per cycle, on the
// numbers of TargetModel. A "cycle" here is TargetModel's unit, the issue
// slot of 4 clocks (one instruction per slot). The rules:
//
//  Issue.  An op issues at the first cycle >= the previous op's issue plus
//    its issue cycles (1; `s_nop N`: N+1) at which all of the following
//    hold; the difference is the op's stall.
//  Operands.  Each register/SCC operand must be ready: a VALU/SALU/MFMA/
//    other result is ready `TargetModel::getOpLatency` cycles after its
//    producer issued; a load result when its data arrives (below).
//  Memory counters.  VMEM ops (loads, stores, *_lds loads) complete in issue
//    order: completion = max(issue + latency, previous VMEM completion).
//    LDS ops complete in order among themselves; SMEM ops complete out of
//    order (issue + latency). FLAT ops count on vmcnt and, out of order, on
//    lgkmcnt. `s_waitcnt vmcnt(N)` stalls until at most N VMEM ops are
//    outstanding; `lgkmcnt(N)` until at most N LDS+SMEM ops are; a bare
//    `s_waitcnt` (and `s_endpgm`) waits for everything; expcnt is ignored.
//  Covering waits.  A wait guarantees the completion of the VMEM ops older
//    than the N youngest (in-order), of the LDS ops older than the N
//    youngest, and of SMEM/FLAT ops only with lgkmcnt(0). A load result read
//    without such a guarantee still stalls the reader until the data
//    arrives, and is reported as an uncovered dependency (the hardware does
//    not interlock on memory results: a lint should flag it).
//  MFMA pipe.  An MFMA occupies the MFMA pipe for its passes
//    (`TargetModel::getUnitOccupancy`) from its issue; the next MFMA waits
//    for the pipe.
//  MFMA co-issue.  A VALU op issues no earlier than
//    `TargetModel::getValuCoIssueDelay` slots after the latest MFMA of the
//    wave (1 + A/B bytes / 16 after XDL, passes + 2 after SGEMM/DGEMM).
//  Accumulator chains.  An MFMA reading as SrcC (its tied operand) a value
//    produced by an MFMA gets it forwarded: ready at producer issue +
//    `TargetModel::getMFMAChainLatency` (passes + mfmaChainPenalty). Every
//    other reader of an MFMA result (SrcA/SrcB, VALU, memory) waits for the
//    producer's latency (its wait states + 1); the s_nops the hazard pass
//    inserts for them are costed like any s_nop.
//  Free ops.  Non-emitting ops, comments and labels take no cycle; their
//    results are ready when their operands are (pack/extract/insert alias
//    registers). `waveasm.loop` emits only a label: no cycle;
//    `waveasm.condition` (s_cbranch_scc1) and `waveasm.if` (s_cbranch_scc0)
//    take one cycle and read only their condition; iter_args and yields
//    pass readiness on without waiting. `s_barrier` costs one cycle (a
//    single wave never waits at it). Implicit registers (VCC, M0, EXEC) do
//    not add dependencies: their producers have latency 1.
//  Ifs.  Both regions are simulated from the state at the branch; the
//    program continues from the region that finishes later (worst case),
//    whose yields give the results. An if marked `waveasm.likely = "then"`
//    (or "else") continues from that region instead: loop versioning's
//    run-time check (pipeline/opt/DescriptorVersioning.h) branches to the
//    fast copy whenever the descriptors are apart, the case the kernel is
//    written for, so its figures are those of the likely branch.
//  Loops.  Steady state: each loop is simulated in isolation (values from
//    outside ready at cycle 0, no memory outstanding), iteration after
//    iteration, each starting with the previous one's condition iter_args,
//    until the per-iteration duration converges; steady-state cycles = that
//    duration. Values from outside being ready at 0 makes the first d
//    iterations of a loop with prefetch distance d (a load's result carried
//    through d iter_args before it is read, LoopBounds.h
//    getPrefetchDistance) wait on nothing the model issued: iteration d + 1
//    is the first that waits on a load issued by the model. So: converged
//    when the last two iterations take the same cycles, the earlier of them
//    neither the first (cold) iteration nor before the (d + 1)-th (at least
//    max(3, d + 2) iterations; the figure is that duration); at most 6
//    more, and then the mean of the last 4 durations, rounded up, as the
//    durations still differ (a periodic pattern). Linear: a bounded number
//    of passes over the body. In the
//    program timeline a loop runs its first iteration in context, then
//    (tripCount - 1) * steady-state cycles are added to the clock, and the
//    loop's results and its still-outstanding memory ops are shifted by the
//    same amount. The trip count comes from TripCount.h (attribute,
//    inferred, else 1). Inner loops are costed the same way inside their
//    outer loop's simulation, with their own steady state.
//  Lower bound.  Per loop iteration, the larger of (LoopBounds.h):
//    - the resource bound: the busiest of the execution units (sum of
//      getUnitOccupancy over its ops) and of the issue slots (sum of issue
//      cycles), counting only the ops any schedule must execute: s_waitcnt,
//      s_nop and same-class register moves (v_mov_b32 VGPR->VGPR,
//      s_mov_b32/b64 SGPR->SGPR, the allocator's copies and renames) are
//      left out; inner loops count trip-count times; an if counts, per
//      unit, the cheaper of its regions;
//    - the recurrence bound: over the cycles of loop-carried dependences
//      (block argument -> ... -> condition operand -> block argument), the
//      largest sum of latencies divided by the iterations the cycle spans
//      (an accumulator through iter_args, an address increment); moves are
//      free on it, an MFMA feeds its accumulator with its chain latency,
//      nested loops and ifs are not crossed (so it stays a bound);
//    - the memory recurrence bound: a store of the body that may write
//      bytes a load of the next iteration reads (the alias analysis,
//      MemoryAlias.h, cannot rule it out with bases invariant in the loop,
//      nor PointerRoots.h's declarations) keeps that load behind it in
//      every legal schedule, so a path from the load's results to the
//      store within one iteration closes a cycle: its latencies (as for
//      the register recurrences) plus the store's issue slot, or, for a
//      ds write in a workgroup of several waves with a barrier of the body
//      between them, the store's latency (it completes before the barrier)
//      and the barrier's slot (not a direct-to-LDS load: a barrier waits
//      for one only where it publishes its bytes, LdsRotation.h).
//    The bound's kind is the resource's unit ("issue", "MFMA", ...),
//    "recurrence" or "memory recurrence". unitCycles/issueCycles keep every
//    op as compiled.
//  Critical path.  Longest latency-weighted dependency chain with unlimited
//    resources and no waits: an op finishes at max(operand ready) + latency
//    (SrcC chains: the producer's chain latency); stores count (their
//    completion).
//    Loops count one iteration; per loop, values from outside and the block
//    arguments are ready at 0.
//
// Per op, the model keeps the program timeline (first iteration of each
// loop) and, for ops inside a loop, their timing in the steady-state
// iteration of their innermost loop, relative to that iteration's start.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_CYCLEMODEL_H
#define WAVEASM_ANALYSIS_CYCLEMODEL_H

#include "analysis/LdsBankConflicts.h"
#include "analysis/OpFacts.h"
#include "analysis/ProgramIndex.h"
#include "analysis/TargetModel.h"
#include "analysis/TripCount.h"

#include <array>
#include <memory>
#include <string>

namespace waveasm {

/// `waveasm.likely` on a `waveasm.if`: "then" or "else", the region the
/// cycle model follows (Ifs, above).
constexpr llvm::StringLiteral kLikelyBranchAttr = "waveasm.likely";

enum class StallReason : uint8_t {
  None,
  Operand,       // waiting for a register operand
  UncoveredLoad, // waiting for load data no s_waitcnt covered
  MFMAPipe,      // the previous MFMA still occupies the pipe
  MFMACoIssue,   // a VALU op waits out the co-issue gap after an MFMA
  WaitCnt,       // s_waitcnt (or s_endpgm) waiting for memory counters
};
llvm::StringRef stringifyStallReason(StallReason reason);

struct OpTiming {
  int64_t issueCycle = 0;  // cycle the op issues (or sits at, if not issued)
  int64_t stall = 0;       // cycles waited before issuing
  int32_t latency = 0;     // TargetModel::getOpLatency
  int32_t issueCycles = 0; // issue slots taken: 1, s_nop N: N+1; 0 if free
  StallReason reason = StallReason::None;
  bool issued = false;
};

/// A load result read with no s_waitcnt guaranteeing its completion.
struct UncoveredDependency {
  mlir::Operation *user;
  mlir::Operation *load;
  mlir::Value value;   // the operand read (may be a loop block argument)
  int64_t stallCycles; // cycles the reader waited for the data (max seen)
};

/// Execution units counted by the resource bound, indexed by ExecUnit.
constexpr unsigned kNumExecUnits = 9;

struct LoopTiming {
  LoopOp loop;
  unsigned index = 0;
  TripCount tripCount;
  int64_t firstIterationCycles = 0; // isolated, from a cold start
  int64_t steadyStateCycles = 0;    // isolated, once converged (above)
  int32_t steadyIterations = 0;     // iterations simulated for it
  int32_t prefetchDistance = 0;     // LoopBounds.h getPrefetchDistance
  int64_t lowerBoundCycles = 0;     // max of the three bounds below
  /// busiestUnit, "recurrence" or "memory recurrence".
  llvm::StringRef boundKind;
  int64_t resourceBoundCycles = 0; // must-execute ops only
  llvm::StringRef busiestUnit;     // stringifyExecUnit name, or "issue"
  int64_t recurrenceBoundCycles = 0;
  int32_t recurrenceIterArg = -1; // an iter_arg on the binding cycle
  int32_t recurrenceDistance = 0; // iterations that cycle spans
  /// LoopBounds.h computeMemoryRecurrenceBound: its cycles and its store
  /// and next iteration's load (null when the loop has none).
  int64_t memoryRecurrenceBoundCycles = 0;
  mlir::Operation *memoryRecurrenceLoad = nullptr;
  mlir::Operation *memoryRecurrenceStore = nullptr;
  std::array<int64_t, kNumExecUnits> unitCycles = {}; // every op
  int64_t issueCycles = 0;                            // every op
  int64_t criticalPath = 0;
};

/// The lower bound's kind for a reader: "issue", "MFMA", ..., or
/// "recurrence via iter_arg 2" ("..., 2 iterations" when the cycle spans
/// more than one), "memory recurrence: buffer_store_dword -> next
/// iteration's buffer_load_dword".
std::string describeBoundKind(const LoopTiming &loop);

class CycleModel {
public:
  CycleModel(const ProgramIndex &index, const TargetModel &target);

  const ProgramIndex &getIndex() const { return index; }
  const TargetModel &getTarget() const { return target; }
  /// Latency, unit, issue cycles... of every op, by op number.
  llvm::ArrayRef<OpFacts> getOpFacts() const { return facts; }

  /// Program timeline (loops: their first iteration).
  const OpTiming &getTiming(unsigned idx) const { return timeline[idx]; }
  const OpTiming *getTiming(mlir::Operation *op) const;
  /// Timing in the steady-state iteration of the innermost enclosing loop,
  /// issue cycles relative to that iteration's start; null outside loops.
  const OpTiming *getSteadyTiming(unsigned idx) const;
  const OpTiming *getSteadyTiming(mlir::Operation *op) const;

  /// Cycles of the whole program (the clock after the last issue).
  int64_t getTotalCycles() const { return totalCycles; }
  int64_t getCriticalPath() const { return criticalPath; }

  /// Loops in pre-order (outer before inner).
  llvm::ArrayRef<LoopTiming> getLoops() const { return loops; }
  const LoopTiming *getLoopTiming(LoopOp loop) const;

  /// Distinct (user, value, load) triples, in order of discovery: a loop
  /// block argument read without a wait is reported once for the load
  /// feeding the first iteration and once for the one carried around.
  llvm::ArrayRef<UncoveredDependency> getUncoveredDependencies() const {
    return uncovered;
  }

  /// The LDS bank conflicts the model charged (kept so that the hover and
  /// the lint read the same analysis instead of evaluating it again).
  const LdsBankConflicts &getLdsBankConflicts() const { return *banks; }

private:
  friend class CycleSimulator;

  const ProgramIndex &index;
  const TargetModel &target;
  std::vector<OpFacts> facts;
  std::unique_ptr<LdsBankConflicts> banks;
  std::vector<OpTiming> timeline;
  std::vector<OpTiming> steady;
  std::vector<LoopTiming> loops;
  std::vector<unsigned> loopSlot; // op index -> position in `loops`
  std::vector<UncoveredDependency> uncovered;
  int64_t totalCycles = 0;
  int64_t criticalPath = 0;
};

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_CYCLEMODEL_H
