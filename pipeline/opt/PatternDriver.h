//===- PatternDriver.h - worklist driver for rewrite patterns ---*- C++ -*-===//
//
// The peephole passes are sets of MLIR rewrite patterns, applied until none
// matches, the way MLIR's greedy driver does. That driver also folds ops and
// erases every op it finds dead, which is wrong for this dialect and for a
// pass that cannot apply:
//   * `v_accvgpr_write_b32` is Pure and has no result (its destination AGPR
//     is an operand), so the greedy driver deletes every one (SPEC.md 21
//     item 8);
//   * IR that no pattern matches must come out byte-identical, including
//     dead ops already in it (canonicalize is there to remove those);
//   * compile-and-measure maps compiled ops back to input ops by address, so
//     erased ops must go through eraseOp (DeferredErase.h).
// This driver applies the patterns with a worklist (every op of the root in
// pre-order, then whatever the rewrites touch) and erases only ops that a
// rewrite left without uses, when they have results, no memory effects and
// are not precolored (those reserve ABI registers).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_PATTERNDRIVER_H
#define WAVEASM_PIPELINE_OPT_PATTERNDRIVER_H

#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace waveasm {

/// Applies `patterns` to the ops nested in `root` until none applies (or a
/// rewrite budget proportional to the op count runs out). Each applied
/// pattern and each reported near miss is logged under
/// `-debug-only=<debugType>`. Returns true if the IR changed.
///
/// Ops that no pattern can match are not tried: those whose name no
/// pattern is rooted on, when the set has no match-any pattern or
/// `anyOpMayMatch` (a superset of the ops its match-any patterns can
/// match) says no. Without `anyOpMayMatch`, a set with match-any patterns
/// tries every op.
bool applyPatternsWithWorklist(
    mlir::Operation *root, const mlir::FrozenRewritePatternSet &patterns,
    const char *debugType,
    llvm::function_ref<bool(mlir::Operation *)> anyOpMayMatch = nullptr);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_PATTERNDRIVER_H
