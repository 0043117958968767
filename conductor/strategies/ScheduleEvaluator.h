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
};

class ScheduleEvaluator {
public:
  /// `block` must be inside a waveasm.program inside a module.
  explicit ScheduleEvaluator(mlir::Block &block, CompileOptions options = {});
  ~ScheduleEvaluator();

  /// Metrics of the program with the block's ops in `order` (a permutation
  /// of the input block's ops). Nullopt if the backend fails on it (e.g.
  /// register allocation overflows); its diagnostics are swallowed.
  std::optional<BlockMeasure> measure(llvm::ArrayRef<mlir::Operation *> order);
  /// Metrics of the input order.
  std::optional<BlockMeasure> measureInput();

  /// Number of compile-and-measure runs so far.
  unsigned getNumMeasured() const { return numMeasured; }

private:
  mlir::Block &block;
  CompileOptions options;
  mlir::OwningOpRef<mlir::ModuleOp> clone;
  mlir::Block *cloneBlock = nullptr;
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> cloneOf;
  unsigned programIndex = 0;
  std::optional<unsigned> loopIndex; // pre-order among the program's loops
  unsigned numMeasured = 0;
  std::optional<std::optional<BlockMeasure>> inputMeasure;
};

/// True if `a` is a strictly better schedule than `b` for a latency
/// strategy: fewer cycles, not more VGPRs/AGPRs than `limit`.
bool isFasterWithin(const BlockMeasure &a, const BlockMeasure &b,
                    const BlockMeasure &limit);

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_SCHEDULEEVALUATOR_H
