//===- TrialAllocation.h - reuse promotion's trial allocation ---*- C++ -*-===//
//
// Loop address promotion (SPEC.md 13, 18.7) decides whether a program stays
// within its VGPR limit once promoted by allocating a promoted copy of it.
// The real allocation then ran again on the promoted program and found the
// same registers: at 20k instructions that second linear scan was a tenth of
// the whole pipeline.
//
// The copy's allocation is kept as an analysis of the program. It survives
// only while no pass changes the program (the SCC passes in between
// preserve it when they change nothing); the linear scan then takes the
// copy's body instead of allocating again, when its own options would have
// given the same registers (the limits only decide failure, and the
// bidirectional ceiling, which is the live peak whenever the allocation
// fits below both limits). The op map of compile-and-measure follows each op
// of the program to its copy (noteReplacement), and the copy's live model
// goes on to VGPR compaction as the linear scan's own would.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_TRIALALLOCATION_H
#define WAVEASM_PIPELINE_TRIALALLOCATION_H

#include "pipeline/DeferredErase.h"
#include "pipeline/LiveIntervals.h"

#include "analysis/Metrics.h"
#include "ir/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/AnalysisManager.h"

#include <memory>
#include <utility>
#include <vector>

namespace waveasm {

struct TrialAllocation {
  explicit TrialAllocation(mlir::Operation *) {}

  /// Kept only while every pass after promotion preserves it.
  bool isInvalidated(const mlir::AnalysisManager::PreservedAnalyses &pa) {
    return !pa.isPreserved<TrialAllocation>();
  }

  /// Whether `copy` holds an allocation the linear scan may take.
  bool ready() const { return copy && !copyOf.empty(); }

  /// One program, allocated by a linear scan with the options below.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ProgramOp copy;
  /// Ops the copy's allocation erased stay allocated while `copyOf` names
  /// them (destroyed before `module`).
  std::unique_ptr<DeferredEraseScope> erased;
  /// Every op of the promoted program with its op in the copy (as promoted
  /// and before allocation), in the program's walk order: a program still
  /// as copied walks the same ops in the same order, which adoption checks
  /// op by op (a hash map of 20k ops was built and probed for that before).
  std::vector<std::pair<mlir::Operation *, mlir::Operation *>> copyOf;
  /// The copy's linear-scan options and its allocated registers.
  int64_t maxVGPRs = 0, maxSGPRs = 0, maxAGPRs = 0, bidirectionalThreshold = 0;
  PeakRegisters peaks;
  /// The copy's linear-scan live model (AllocatedLiveModel.h), when that
  /// scan handed one on: once the copy's body is adopted, it numbers the
  /// program's ops, and VGPR compaction takes it over.
  std::unique_ptr<regalloc::LiveModel> allocatedModel;
};

/// The linear scan's register files, as its options give them (before the
/// target clamps them).
struct AllocationLimits {
  int64_t maxVGPRs, maxSGPRs, maxAGPRs, bidirectionalThreshold;
};

/// Replaces `program`'s body by the trial's allocated copy when a linear
/// scan with `limits` would have allocated the program exactly as the trial
/// did; false (the program untouched) otherwise.
bool adoptTrialAllocation(ProgramOp program, TrialAllocation &trial,
                          const AllocationLimits &limits);

/// How many allocations adoptTrialAllocation took in this process (a
/// statistic, for tests).
uint64_t getAdoptedTrialAllocations();

} // namespace waveasm

#endif // WAVEASM_PIPELINE_TRIALALLOCATION_H
