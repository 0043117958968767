//===- OptimizationTrace.h - what each optimization did to each loop -*- C++
//-*-===//
//
// A pass instrumentation for the production pipeline: after every pass
// before allocation it counts, per loop body (ops whose innermost loop it
// is), the issued VALU, SALU and other instructions, and records per loop
// the passes that changed them and by how much; before allocation starts it
// adds each loop's peak of live VGPRs (analysis/Liveness) before and after
// the optimizations. Loops are identified by their location, which the
// loop rewrites keep (LoopRewrite.h). Counting is a walk per pass, so the
// trace is on request (CompileOptions::traceOptimizations): the language
// server shows it, the Conductor's measuring does not pay for it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPTIMIZATIONTRACE_H
#define WAVEASM_PIPELINE_OPTIMIZATIONTRACE_H

#include "ir/Dialect.h"

#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace waveasm {

/// Issued instructions of one loop body, per iteration (nested loops
/// count in their own body).
struct LoopOpCounts {
  int64_t valu = 0;
  int64_t salu = 0;
  int64_t other = 0;
  int64_t total() const { return valu + salu + other; }
};

/// One pass's change to one loop body.
struct LoopPassEffect {
  std::string pass; // the pass's flag, "waveasm-buffer-load-strength-reduction"
  LoopOpCounts delta;
};

/// What the optimizations did to one loop.
struct LoopOptimizationEffect {
  /// The loop after the pipeline (null if it was removed).
  LoopOp loop;
  /// In pipeline order, only passes that changed the loop's counts.
  std::vector<LoopPassEffect> passes;
  LoopOpCounts before, after;
  /// Peak of live VGPRs in the body, as written and when allocation starts.
  int64_t liveVGPRsBefore = 0, liveVGPRsAfter = 0;

  bool changed() const {
    return !passes.empty() || liveVGPRsBefore != liveVGPRsAfter;
  }
};

class OptimizationTracer : public mlir::PassInstrumentation {
public:
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;

  /// Forgets the previous compile (one tracer serves many).
  void reset();
  /// The effects on the loops of `program` (a program of the compiled
  /// module), in pre-order of the loops that exist at the end.
  std::vector<LoopOptimizationEffect> takeEffects(ProgramOp program);

private:
  struct LoopState {
    LoopOpCounts counts;
    LoopOptimizationEffect effect;
  };
  struct ProgramState {
    /// By the loop's location.
    llvm::DenseMap<const void *, LoopState> loops;
    bool done = false; // allocation has started
  };
  void snapshot(ProgramOp program, llvm::StringRef passName);
  void finish(ProgramOp program);

  std::mutex mutex; // programs run on several threads
  llvm::DenseMap<mlir::Operation *, ProgramState> programs;
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPTIMIZATIONTRACE_H
