//===- CountedWaits.h - loops that ask for counted waits --------*- C++ -*-===//
//
// The production rule (SPEC.md 13) inserts counted waits (`vmcnt(N)`, wait
// only until the load a use reads has landed) only in workgroups with at
// least two waves in both M and N, and `vmcnt(0)` elsewhere. A software-
// pipelined loop exists to keep loads of later iterations in flight while
// it consumes earlier ones, and a `vmcnt(0)` would drain them every step:
// the steady-state loops `waveasm-pipeline-loops` builds carry this unit
// attribute, and `waveasm-insert-waitcnt` counts the waits inside them in
// every mode (the counting itself is the ticketed mode's, SPEC.md 15, with
// the loop's back edge iterated to a fixed point). The program holding such
// a loop carries it too (markCountedWaits): its prologue and epilogue are
// the pipeline's fill and drain, whose loads a `vmcnt(0)` would drain at
// the first use (80 slots in the nested GEMM's last tile), and so are the
// peeled first head and last tile of an outer loop rotated around its
// kernel (pipeline/opt/OuterOverlap.h). Marking every program that gets a
// kernel, not only rotated ones, keeps a rotation from being credited with
// the attribute's gain when it is measured against the program without it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_COUNTEDWAITS_H
#define WAVEASM_PIPELINE_COUNTEDWAITS_H

#include "ir/Dialect.h"

#include "llvm/ADT/StringRef.h"

namespace waveasm {

inline constexpr llvm::StringLiteral kCountedWaitsAttrName =
    "waveasm.counted_waits";

/// On the same loops: the steady-state steps (iterations of the input
/// loop) one iteration of the kernel runs (modulo variable expansion), so
/// per-iteration figures of the kernel can be read per input iteration.
inline constexpr llvm::StringLiteral kPipelineStepsAttrName =
    "waveasm.pipeline_steps";

/// Marks `loop` (a pipelined steady state) and the program holding it for
/// counted waits.
inline void markCountedWaits(LoopOp loop) {
  mlir::UnitAttr unit = mlir::UnitAttr::get(loop.getContext());
  loop->setAttr(kCountedWaitsAttrName, unit);
  if (auto program = loop->getParentOfType<ProgramOp>())
    program->setAttr(kCountedWaitsAttrName, unit);
}

} // namespace waveasm

#endif // WAVEASM_PIPELINE_COUNTEDWAITS_H
