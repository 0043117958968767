//===- ScheduleEvaluator.h - measure an order of one block ------*- C++ -*-===//
//
// Compile-and-measure of a candidate order of one block's ops, without
// touching the input: the enclosing module is cloned once, and each
// candidate reorders the clone's block and runs the backend on it
// (pipeline/CompileAndMeasure.h clones again, so the clone stays reusable).
// The strategies use it to keep only schedules that measure better, and the
// single-move suggestions to rank moves by their measured effect.
//
// The block's cost is the est_cycles_per_iter of its loop when the block is
// a loop body, else the program's est_cycles.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_SCHEDULEEVALUATOR_H
#define WAVEASM_CONDUCTOR_STRATEGIES_SCHEDULEEVALUATOR_H

#include "analysis/Metrics.h"
#include "pipeline/CompileAndMeasure.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace waveasm::conductor {

struct BlockMeasure {
  ProgramMetrics program;
  /// est_cycles_per_iter of the block's loop, or the program's est_cycles.
  int64_t cycles = 0;
  int64_t peakVGPR = 0;
  int64_t peakAGPR = 0;
  int64_t peakSGPR = 0;
  /// Block cycles with global memory twice as slow as modeled (-1: not
  /// measured). Real load latency varies and is often longer than the
  /// model's; among equally fast schedules the one that hides more of it
  /// is the safer bet (it is also what llvm-mca's cheaper MFMAs reward).
  int64_t robustCycles = -1;
};

class ScheduleEvaluator {
public:
  /// `block` must be inside a waveasm.program inside a module.
  /// With `robust`, every measure also runs with doubled global load
  /// latency (BlockMeasure::robustCycles).
  explicit ScheduleEvaluator(mlir::Block &block, CompileOptions options = {},
                             bool robust = false);
  ~ScheduleEvaluator();

  /// Metrics of the program with the block's ops in `order` (a permutation
  /// of the input block's ops). Nullopt if the backend fails on it (e.g.
  /// register allocation overflows); its diagnostics are swallowed.
  std::optional<BlockMeasure> measure(llvm::ArrayRef<mlir::Operation *> order);
  /// Same; robust cycles only when `withRobust` (and the evaluator is
  /// robust): a caller that needs them only to break ties saves a compile.
  std::optional<BlockMeasure> measure(llvm::ArrayRef<mlir::Operation *> order,
                                      bool withRobust);
  /// Metrics of the input order.
  std::optional<BlockMeasure> measureInput();

  /// Number of compile-and-measure runs so far.
  unsigned getNumMeasured() const { return numMeasured; }

private:
  mlir::Block &block;
  CompileOptions options;
  std::optional<CompileOptions> robustOptions;
  /// The backends of `options` and `robustOptions`, built on first use and
  /// kept for every candidate (a pass manager and target models per measure
  /// were about 50K instructions of a 300-op loop's).
  std::unique_ptr<Compiler> compiler, robustCompiler;
  mlir::OwningOpRef<mlir::ModuleOp> clone;
  mlir::Block *cloneBlock = nullptr;
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> cloneOf;
  unsigned programIndex = 0;
  std::optional<unsigned> loopIndex; // pre-order among the program's loops
  unsigned numMeasured = 0;
  std::optional<std::optional<BlockMeasure>> inputMeasure;
};

/// The latency strategy's rank of a schedule, lower is better: registers
/// above `limit` (VGPRs, then AGPRs: a schedule must not raise them), then
/// cycles, robust cycles, VGPRs, program cycles.
std::array<int64_t, 6> latencyRank(const BlockMeasure &m,
                                   const BlockMeasure &limit);
bool isFeasible(const BlockMeasure &m, const BlockMeasure &limit);

/// True if `a` is a strictly better schedule than `b` for a latency
/// strategy: not more VGPRs/AGPRs than `limit`, and fewer cycles; on a tie
/// fewer robust cycles, then fewer VGPRs, then fewer program cycles.
bool isFasterWithin(const BlockMeasure &a, const BlockMeasure &b,
                    const BlockMeasure &limit);

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_SCHEDULEEVALUATOR_H
