//===- LoopRewrite.h - shared pieces of the loop optimizations --*- C++ -*-===//
//
// What the passes that rewrite `waveasm.loop` iter_args share (SPEC.md 18):
// the inner-first loop order, the step that replaces a loop by one with
// other iter_args, and the guard of a loop whose first iterations run
// ahead of it. Upstream's notion of a constant is OperandFacts.h's.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_LOOPREWRITE_H
#define WAVEASM_PIPELINE_OPT_LOOPREWRITE_H

#include "ir/Dialect.h"
#include "pipeline/opt/OperandFacts.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace waveasm {

/// Every loop under `root`, inner loops before the loops containing them.
llvm::SmallVector<LoopOp> collectLoopsInnerFirst(mlir::Operation *root);

/// The innermost loops under `root` not yet register-allocated, in
/// pre-order; with `loopIndex` >= 0 only the loop of that index in the
/// pre-order of all loops (if it is one of them).
llvm::SmallVector<LoopOp> selectInnermostLoops(mlir::Operation *root,
                                               int64_t loopIndex);

/// True when the loop carries physical registers: it has been through
/// register allocation, after which these rewrites (which create virtual
/// values) do not apply.
bool isRegisterAllocated(LoopOp loop);

/// True when `value` is defined outside `loop` (before it: SSA dominance).
bool isDefinedOutside(mlir::Value value, LoopOp loop);

/// Replaces `loop` by a new loop with inits `inits` and the old body, moved
/// (not cloned: the body's ops keep their identity, so compile-and-measure's
/// input-op map and every location survive, and the cost is one splice).
/// The caller has already given the body the block arguments and the
/// condition the iter_args that match `inits`; result types are the block
/// arguments' types. Old result i is replaced by new result
/// `oldToNewResult[i]`; where that is -1, by `rebuildDropped(b, newLoop, i)`
/// (called with `b` after the new loop; only for results that have uses).
/// The new loop is inserted at the old one's place with its attributes; the
/// old loop is erased (through DeferredErase).
LoopOp
replaceLoop(LoopOp loop, mlir::ValueRange inits,
            llvm::ArrayRef<int64_t> oldToNewResult,
            llvm::function_ref<mlir::Value(mlir::OpBuilder &, LoopOp, unsigned)>
                rebuildDropped = nullptr);

/// replaceLoop for a loop that only gained iter_args (appended): old result
/// i is new result i.
LoopOp replaceLoopKeepingResults(LoopOp loop, mlir::ValueRange inits);

/// all = c ? all : 0, right after c's compare (`c` an SCC, or an SGPR then
/// compared with 0 first); `all` an SGPR holding 1 or 0.
mlir::Value foldLoopCondition(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value c, mlir::Value all);

/// The guard of a rewrite that issues a loop's first iterations before it
/// (the pipeliner's prologue, LDS deepening's loads ahead) when the IR does
/// not give the trip count: the conditions of those iterations, computed
/// by the caller from the inits through the loop control, folded into one
/// SGPR that stays 1 while each holds; `test()` is the SCC of the
/// `waveasm.if` that picks the rewritten loop or the original.
class LoopGuardBuilder {
public:
  /// Emits all = s_mov_b32 1 at `b`.
  LoopGuardBuilder(mlir::OpBuilder &b, mlir::Location loc);
  /// Folds iteration's condition `c` in (foldLoopCondition).
  void fold(mlir::OpBuilder &b, mlir::Value c);
  /// all != 0, as an SCC.
  mlir::Value test(mlir::OpBuilder &b);

private:
  mlir::Location loc;
  mlir::Value zero, all;
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_LOOPREWRITE_H
