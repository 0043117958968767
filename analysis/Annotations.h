//===- Annotations.h - per-instruction facts for the editor -----*- C++ -*-===//
//
// One structure the language server reads for a program: per op its
// latency, issue cycle, stall, execution unit and the registers live after
// it, plus the loop results, pressure peaks and uncovered load uses. Built
// once from Liveness and CycleModel (which it owns, for follow-up queries
// such as the live values at an op); lookups are one hash probe.
//
// Timing fields come from the program timeline; for ops inside a loop the
// `steady*` fields give the op's timing in the steady-state iteration of its
// innermost loop (issue cycle relative to that iteration's start), which is
// what matters when rescheduling a loop body.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_ANNOTATIONS_H
#define WAVEASM_ANALYSIS_ANNOTATIONS_H

#include "analysis/CycleModel.h"
#include "analysis/Liveness.h"

#include <memory>

namespace waveasm {

struct InstAnnotation {
  // Program timeline.
  int64_t issueCycle = 0;
  int64_t stall = 0;
  StallReason stallReason = StallReason::None;
  int32_t latency = 0;
  int32_t issueCycles = 0; // 0 for ops that emit no instruction
  ExecUnit unit = ExecUnit::None;
  bool issued = false;
  // Steady-state iteration of the innermost loop (valid if inLoop).
  bool inLoop = false;
  int64_t steadyIssueCycle = 0;
  int64_t steadyStall = 0;
  StallReason steadyStallReason = StallReason::None;
  // Registers.
  RegCounts liveAfter; // still needed after the op
  RegCounts pressure;  // occupied while the op issues
};

class ProgramAnnotations {
public:
  /// Analyses `program` with `target` (copied).
  ProgramAnnotations(ProgramOp program, const TargetModel &target);
  /// Analyses `program` with the model of its own target attribute.
  explicit ProgramAnnotations(ProgramOp program);

  ProgramAnnotations(const ProgramAnnotations &) = delete;
  ProgramAnnotations &operator=(const ProgramAnnotations &) = delete;

  ProgramOp getProgram() const { return index->getProgram(); }
  /// Null for ops outside the program.
  const InstAnnotation *lookup(mlir::Operation *op) const;
  /// By op number (ProgramIndex order).
  llvm::ArrayRef<InstAnnotation> getAll() const { return annotations; }

  const PressurePeak &getPeak(RegClass cls) const {
    return liveness->getPeak(cls);
  }
  /// Waves per SIMD at the peaks (and the program's lds_size).
  int64_t getOccupancy() const;
  int64_t getTotalCycles() const { return cycles->getTotalCycles(); }
  int64_t getCriticalPath() const { return cycles->getCriticalPath(); }
  llvm::ArrayRef<LoopTiming> getLoops() const { return cycles->getLoops(); }
  llvm::ArrayRef<UncoveredDependency> getUncoveredDependencies() const {
    return cycles->getUncoveredDependencies();
  }

  /// One line per op (timeline, steady state, registers), then the loops,
  /// peaks and uncovered load uses; for debugging and golden tests.
  void print(llvm::raw_ostream &os) const;

  const TargetModel &getTarget() const { return *target; }
  const ProgramIndex &getIndex() const { return *index; }
  const Liveness &getLiveness() const { return *liveness; }
  const CycleModel &getCycleModel() const { return *cycles; }

private:
  // Owned through pointers: the analyses keep references to each other.
  std::unique_ptr<TargetModel> target;
  std::unique_ptr<ProgramIndex> index;
  std::unique_ptr<Liveness> liveness;
  std::unique_ptr<CycleModel> cycles;
  std::vector<InstAnnotation> annotations;
};

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_ANNOTATIONS_H
