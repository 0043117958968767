//===- AllocatedLiveModel.h - the allocator's liveness, kept --*- C++ -*-===//
//
// VGPR compaction runs right after the linear scan and needs the same live
// intervals: an interval depends only on its value's definition and uses,
// which allocation does not move, only retypes. It built them again from
// scratch (numbering every op, hashing every value: a quarter of the pass
// on a 300-op loop). The linear scan now hands its final model on as an
// analysis of the program, with the intervals of the physical VGPR values
// it does not allocate tracked beside its own (LiveModel::
// trackPhysicalClass), and compaction takes it over.
//
// Why an MLIR analysis and not an object passed along: the two passes are
// separate entries of the pipeline (either runs alone under waveasm-opt),
// and the analysis manager drops the model as soon as any pass between
// them does not preserve it, so a model of IR that changed since is never
// read. The linear scan hands it on only when its rewrite added no op (an
// insert whose slot is written by a move adds two, and the numbering would
// be off); compaction moves it out, so it is read once.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_ALLOCATEDLIVEMODEL_H
#define WAVEASM_PIPELINE_ALLOCATEDLIVEMODEL_H

#include "pipeline/LiveIntervals.h"

#include "mlir/Pass/AnalysisManager.h"

#include <cstdint>
#include <memory>

namespace waveasm {

struct AllocatedLiveModel {
  explicit AllocatedLiveModel(mlir::Operation *) {}

  /// Kept only while every pass after the linear scan preserves it.
  bool isInvalidated(const mlir::AnalysisManager::PreservedAnalyses &pa) {
    return !pa.isPreserved<AllocatedLiveModel>();
  }

  /// The linear scan's model of the allocated program (VGPRs tracked), or
  /// null once taken.
  std::unique_ptr<regalloc::LiveModel> model;
};

/// How many models VGPR compaction took over from the linear scan in this
/// process (a statistic, for tests).
uint64_t getTakenAllocatedLiveModels();
void noteTakenAllocatedLiveModel();

} // namespace waveasm

#endif // WAVEASM_PIPELINE_ALLOCATEDLIVEMODEL_H
