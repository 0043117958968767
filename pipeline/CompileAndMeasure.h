//===- CompileAndMeasure.h - run the backend on a clone, measure -*- C++
//-*-===//
//
// The one entry point the language server and the Conductor use to turn IR
// into numbers: clone the module, run register allocation, wait-count
// insertion and hazard mitigation on the clone, model its cycles, emit its
// assembly, and report metrics. The input is never modified.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_COMPILEANDMEASURE_H
#define WAVEASM_PIPELINE_COMPILEANDMEASURE_H

#include "analysis/Metrics.h"
#include "pipeline/AssemblyEmitter.h"
#include "pipeline/OptimizationTrace.h"
#include "pipeline/PipelineConfig.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <string>
#include <vector>

namespace waveasm {

struct CompileOptions {
  WaveASMPipelineConfig pipeline = measuringPipeline();
  /// TargetModel overrides ("latency.vmem_load=120", ...), applied to every
  /// program's target.
  std::vector<std::string> targetOverrides;
  /// Render the assembly text and the op <-> line map.
  bool emitAssembly = true;
  /// Keep the compiled clone in the result (for hovers showing the
  /// allocator's registers, and for the assembly view).
  bool keepCompiledModule = false;
  /// Record what each optimization did to each loop
  /// (CompiledProgram::loopEffects; OptimizationTrace.h).
  bool traceOptimizations = false;
  /// The loops' co-access figures (LoopMetrics::coaccess_*, of the input's
  /// loop bodies). Off where candidate orders are measured for their cycles
  /// only: the strategies' evaluator and the Conductor's per-round measure
  /// (which adds them to the baseline and to kept rounds).
  bool coAccessMetrics = true;
  /// The program's lower bound (ProgramMetrics::lower_bound_cycles,
  /// LoopBoundsProgram.h): a trace of every loop unrolled to its trip
  /// count, about as costly as the rest of the measure on a 32-trip loop.
  /// Off where only cycles and registers judge: the strategies' evaluator,
  /// the Conductor's rounds and the pipelining pass's trials.
  bool programBound = true;
  /// Leaves out what only a reader of the figures needs (the co-access
  /// figures and the program's bound): for measures that judge a schedule
  /// by its cycles and registers, and tests that compare with them.
  void judgeByCyclesOnly() {
    coAccessMetrics = false;
    programBound = false;
  }

  /// What compile-and-measure runs: by default the production order, so
  /// the figures are those of what the compiler emits; `optimize` false:
  /// the backend passes only, the schedule measured exactly as written.
  static WaveASMPipelineConfig measuringPipeline(bool optimize = true) {
    WaveASMPipelineConfig config;
    config.optimize = optimize;
    config.runGenericCleanups = false;
    return config;
  }
};

struct CompiledProgram {
  ProgramMetrics metrics;
  /// The program's assembly (empty unless CompileOptions::emitAssembly).
  std::string assembly;
  /// For each op of the *input* program, the 0-based lines of `assembly` it
  /// produced. Waits, nops and copies the pipeline inserted belong to no
  /// input op and are absent.
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<unsigned, 2>> opLines;
  /// For each line of `assembly`, the input op that produced it, or null.
  std::vector<mlir::Operation *> lineOps;
  /// The compiled counterpart of each input op (when the module is kept).
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> compiledOf;
  /// With traceOptimizations: the loops the optimizations changed (their
  /// `loop` is the compiled loop, valid while the module is kept).
  std::vector<LoopOptimizationEffect> loopEffects;
};

struct CompileResult {
  std::vector<CompiledProgram> programs;      // in module order
  mlir::OwningOpRef<mlir::ModuleOp> compiled; // if keepCompiledModule
};

/// A configured pipeline for many compile-and-measure calls with the same
/// options (the Conductor measures hundreds of schedules per run): the pass
/// manager and the target models are built once, not per call. Not
/// thread-safe: one Compiler per thread. The context must outlive it.
///
/// Constructing the first Compiler of a process also raises glibc's
/// M_TRIM_THRESHOLD and fixes M_MMAP_THRESHOLD (see the .cpp): a call
/// allocates and frees a few hundred KiB, and with the defaults every call
/// would give that memory back to the OS and fault in fresh pages on the
/// next one.
class Compiler {
public:
  explicit Compiler(mlir::MLIRContext *context, CompileOptions options = {});
  ~Compiler();
  Compiler(const Compiler &) = delete;
  Compiler &operator=(const Compiler &) = delete;

  /// Compiles a clone of `module` and measures every program. Fails (with
  /// diagnostics through the context's handlers, located at the input's
  /// locations) when a pass or the emitter fails, e.g. on register overflow.
  mlir::FailureOr<CompileResult> compile(mlir::ModuleOp module);

  const CompileOptions &getOptions() const { return options; }

private:
  struct Impl;
  CompileOptions options;
  std::unique_ptr<Impl> impl;
};

/// One compile with a Compiler built for it; for repeated calls with the
/// same options, keep a Compiler instead.
mlir::FailureOr<CompileResult>
compileAndMeasure(mlir::ModuleOp module, const CompileOptions &options = {});

} // namespace waveasm

#endif // WAVEASM_PIPELINE_COMPILEANDMEASURE_H
