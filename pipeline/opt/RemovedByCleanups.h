//===- RemovedByCleanups.h - loop ops the optimizations remove --*- C++ -*-===//
//
// The pipeliner orders a step (StepOrder.h) before the production order's
// optimizations run (SPEC.md 13: peepholes, scale-pack elimination, LICM,
// strength reduction, CSE, address promotion, all after
// `waveasm-pipeline-loops`), so the step it measures with its issue clock
// (StepMerge.h) still holds ops the compiled kernel does not: the scale
// bytes' repacking, loop-invariant address VALU, voffset chains the
// strength reduction turns into soffset bumps. Counted, they took ~50 issue
// slots a step in the preshuffled mxfp4 loop's clock where its kernel runs
// ~26, so the MFMAs' operands looked ready late and the MFMAs were placed
// late. Rather than a rule per optimization, the optimizations themselves
// say which ops go: they run on a copy of the loop's program whose body ops
// carry their position in their location (rewrites keep an op's location
// on what replaces it), and a body op none of whose positions is found in
// the optimized loop is removed.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_REMOVEDBYCLEANUPS_H
#define WAVEASM_PIPELINE_OPT_REMOVEDBYCLEANUPS_H

#include "ir/Dialect.h"

#include "llvm/ADT/DenseSet.h"

namespace waveasm {

/// The ops directly in `loop`'s body that the production order's
/// optimizations before allocation remove from the loop (erased, folded
/// into another op that does not carry their location, or hoisted out of
/// it), restricted to ops that neither access memory, wait, synchronize nor
/// use the MFMA pipe (a rewritten load or MFMA still issues), nor equal
/// another body op (CSE keeps one of the two; which one is
/// StepOrder.cpp's rule). Empty when the optimizations fail on the copy or
/// `loop` is in no program.
llvm::DenseSet<mlir::Operation *> removedByCleanups(LoopOp loop);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_REMOVEDBYCLEANUPS_H
