//===- PipelineSnapshots.h - the program after each pass --------*- C++ -*-===//
//
// What each pass of the backend pipeline did: the module as parsed, then the
// module after every pass, each with a few metrics. Built on MLIR's pass
// instrumentation (runAfterPass / runAfterPassFailed, the machinery behind
// `--mlir-print-ir-after-all`), on a clone: the input is never modified.
//
// Cost: after each pass the programs it ran on are fingerprinted
// (OperationFingerPrint: a hash of ops, operands, attributes and types, as
// `--mlir-print-ir-after-change` uses); only a changed fingerprint prints
// the program and recomputes its metrics, and only a printed text that
// differs from the previous one makes the snapshot `changed`. Unchanged
// snapshots carry no text, so a response is a few copies of the program
// however long the pipeline.
//
// Multi-program modules: nested passes run per program (in parallel when
// the context allows it). Each program keeps its own list of texts, one per
// pass of the pipeline in order (a module-level pass appends to every
// program's list), and the snapshot after pass k is the programs' texts
// after pass k, in module order, joined by a blank line.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_PIPELINESNAPSHOTS_H
#define WAVEASM_PIPELINE_PIPELINESNAPSHOTS_H

#include "pipeline/PipelineConfig.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace waveasm {

/// The figures of one snapshot, over all programs: instructions issued and
/// est_cycles summed, register peaks the maximum. Peaks are the live
/// registers (analysis/Liveness) while any register is virtual, and the
/// allocated registers (computePhysicalPeaks, SPEC.md 17.4) once all are
/// physical, so the last snapshot's peaks are the compile's metrics.
struct SnapshotMetrics {
  int64_t instructions = 0;
  int64_t peakVGPR = 0;
  int64_t peakSGPR = 0;
  int64_t peakAGPR = 0;
  int64_t estCycles = 0;
};

struct PipelineSnapshot {
  /// "input" for the first snapshot, else the pass's flag
  /// ("waveasm-scoped-cse", "canonicalize").
  std::string pass;
  /// The printed module differs from the previous snapshot's.
  bool changed = false;
  /// The programs' text; empty when unchanged (the previous text holds) and
  /// for a pass that failed.
  std::string text;
  SnapshotMetrics metrics;
  /// The pass failed: no IR after it, no later snapshots.
  bool failed = false;
};

struct SnapshotOptions {
  /// The pipeline to run (the server passes its background pipeline's).
  WaveASMPipelineConfig pipeline;
  /// TargetModel overrides for the passes and the cycle estimate.
  std::vector<std::string> targetOverrides;
};

struct PipelineSnapshots {
  /// The input, then one per pass run (all of them unless one failed).
  std::vector<PipelineSnapshot> snapshots;
  bool failed = false;
};

/// Runs `options.pipeline` on a clone of `module` and records the
/// snapshots. A failing pass reports through the context's diagnostic
/// handlers (the caller captures them) and ends the list with a `failed`
/// snapshot.
PipelineSnapshots snapshotPipeline(mlir::ModuleOp module,
                                   const SnapshotOptions &options);

/// `module`'s programs as the snapshots print them.
std::string printPrograms(mlir::ModuleOp module);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_PIPELINESNAPSHOTS_H
