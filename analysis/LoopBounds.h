//===- LoopBounds.h - resource, recurrence and latency bounds ---*- C++ -*-===//
//
// Schedule-independent bounds on a region of a program: how long its busiest
// execution unit (or the issue stage) is occupied, the loop-carried
// dependence cycles of a loop (recurrence bound), and its longest
// latency-weighted dependency chain with unlimited resources. The rules are
// documented in CycleModel.h, which reports them per loop. Also what the
// global-load latency allows at a prefetch distance (computeLatencyLimit):
// not a bound of the loop as it is, a figure of what is reachable at a
// register budget.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LOOPBOUNDS_H
#define WAVEASM_ANALYSIS_LOOPBOUNDS_H

#include "analysis/OpFacts.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>

namespace waveasm {

/// Trip count of the loop at an op index.
using TripCountFn = llvm::function_ref<int64_t(unsigned loopIdx)>;

struct UnitUsage {
  std::array<int64_t, 9> unitCycles = {}; // indexed by ExecUnit
  int64_t issueCycles = 0;

  /// max(busiest unit, issue cycles).
  int64_t getLowerBound() const;
  /// Name of the unit giving the bound: stringifyExecUnit, or "issue" when
  /// the issue stage is strictly busier than every unit.
  llvm::StringRef getBusiestUnit() const;
};

/// Usage of the body of loop `loopIdx` in one iteration; with
/// `mustExecuteOnly`, without the ops isScheduleArtifact names.
UnitUsage computeLoopUsage(const ProgramIndex &index,
                           llvm::ArrayRef<OpFacts> facts, unsigned loopIdx,
                           TripCountFn tripCount, bool mustExecuteOnly = false);
/// Both usages of the body of loop `loopIdx` (every op, and without the
/// ops isScheduleArtifact names) from one walk of it: what the cycle model
/// reports per loop.
struct LoopUsages {
  UnitUsage every, mustExecute;
};
LoopUsages computeLoopUsages(const ProgramIndex &index,
                             llvm::ArrayRef<OpFacts> facts, unsigned loopIdx,
                             TripCountFn tripCount);

/// An op a better schedule or allocation would not need: s_waitcnt, s_nop,
/// and register moves within one class (v_mov_b32 VGPR->VGPR, s_mov_b32 /
/// s_mov_b64 SGPR->SGPR). Moves of immediates and SGPR->VGPR broadcasts
/// stay: they make a value.
bool isScheduleArtifact(mlir::Operation *op);

/// The recurrence bound of loop `loopIdx` (rules in CycleModel.h): cycles
/// per iteration, an iter_arg on the binding cycle and the iterations the
/// cycle spans (-1 and 0 when the loop carries no dependence cycle).
struct RecurrenceBound {
  int64_t cycles = 0;
  int32_t iterArg = -1;
  int32_t distance = 0;
};
RecurrenceBound computeRecurrenceBound(const ProgramIndex &index,
                                       llvm::ArrayRef<OpFacts> facts,
                                       unsigned loopIdx);
/// The same with every path walked over every op of the body and the best
/// cycle searched over the whole argument matrix, where
/// computeRecurrenceBound visits only the ops a path reaches and the edges
/// that exist: the definition it must equal (LoopBoundsTest compares them).
RecurrenceBound computeRecurrenceBoundByFullWalk(const ProgramIndex &index,
                                                 llvm::ArrayRef<OpFacts> facts,
                                                 unsigned loopIdx);

/// The memory recurrence bound of loop `loopIdx` (rules in CycleModel.h):
/// a memory op of the body that writes bytes a memory op of the next
/// iteration may read keeps that reader behind it in every legal schedule
/// (the alias analysis cannot rule it out: MemoryAlias.h with bases
/// invariant in the loop, PointerRoots.h's declarations). Where the
/// reader's results reach the writer in one iteration, the path's latency
/// plus the writer's issue slot (for a ds write in a workgroup of several
/// waves with a barrier between the two: the write's completion and the
/// barrier's slot) is a dependence cycle of one iteration; the longest
/// one, with its two ops (null and 0 when there is none).
struct MemoryRecurrenceBound {
  int64_t cycles = 0;
  mlir::Operation *load = nullptr;
  mlir::Operation *store = nullptr;
};
MemoryRecurrenceBound
computeMemoryRecurrenceBound(const ProgramIndex &index,
                             llvm::ArrayRef<OpFacts> facts, unsigned loopIdx);
/// The same with a walk from every load, where computeMemoryRecurrenceBound
/// skips a load when a bound on every cycle through it cannot beat the best
/// found so far: the definition it must equal (LoopBoundsTest compares
/// them).
MemoryRecurrenceBound computeMemoryRecurrenceBoundByEveryLoad(
    const ProgramIndex &index, llvm::ArrayRef<OpFacts> facts, unsigned loopIdx);

/// Both recurrence bounds of loop `loopIdx`, equal to computeRecurrenceBound
/// and computeMemoryRecurrenceBound, with the flattened body both walk
/// built once (what the cycle model asks of every loop).
struct LoopRecurrenceBounds {
  RecurrenceBound registers;
  MemoryRecurrenceBound memory;
};
LoopRecurrenceBounds computeLoopRecurrenceBounds(const ProgramIndex &index,
                                                 llvm::ArrayRef<OpFacts> facts,
                                                 unsigned loopIdx);

/// Prefetch distance as written: the most iter_args a VMEM load's result
/// passes through (block argument to condition operand, directly or through
/// aliases) before the iteration that reads it; 0 when every load is read in
/// the iteration that issues it.
unsigned getPrefetchDistance(const ProgramIndex &index,
                             llvm::ArrayRef<OpFacts> facts, unsigned loopIdx);

/// What the global-load latency allows per iteration when every VMEM load
/// writing VGPRs is issued `maxDistance` iterations before its use: a load
/// and the next load into the same registers are `maxDistance + 1`
/// iterations apart, so an iteration takes at least
/// ceil((loadLatency + 1) / (maxDistance + 1)) (1: the reader's issue).
/// maxDistance = distance as written + freeVgprEntries / loadVgprs, each
/// further iteration of prefetch holding one more copy of the loads'
/// registers. All zero when no VMEM load in the body writes VGPRs.
struct LatencyLimit {
  int64_t cycles = 0;
  int64_t loadLatency = 0; // the slowest VMEM load of the body
  int64_t loadVgprs = 0;   // VGPRs the body's VMEM loads write
  int64_t maxDistance = 0;
};
LatencyLimit computeLatencyLimit(const ProgramIndex &index,
                                 llvm::ArrayRef<OpFacts> facts,
                                 unsigned loopIdx, int64_t freeVgprEntries);

/// Critical path lengths: of the whole program and per loop body.
class CriticalPaths {
public:
  CriticalPaths(const ProgramIndex &index, llvm::ArrayRef<OpFacts> facts);
  /// The whole program, each loop counted once.
  int64_t ofProgram();
  /// One iteration of loop `loopIdx`: values from outside and block
  /// arguments ready at 0.
  int64_t ofLoop(unsigned loopIdx);

private:
  int64_t walk(unsigned begin, unsigned end);

  const ProgramIndex &index;
  llvm::ArrayRef<OpFacts> facts;
  static constexpr int64_t kNoChain = -1;
  std::vector<int64_t> ready; // by value id
  /// By value id: when an MFMA may read it as SrcC (an MFMA result), else
  /// kNoChain.
  std::vector<int64_t> chainReady;
};

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LOOPBOUNDS_H
