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
// the loop's back edge iterated to a fixed point). A program whose outer
// loop was rotated around its kernel (pipeline/opt/OuterOverlap.h) carries
// it too: the peeled first head and last tile are the pipeline's fill and
// drain in straight-line code, and the whole program counts its waits.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_COUNTEDWAITS_H
#define WAVEASM_PIPELINE_COUNTEDWAITS_H

#include "llvm/ADT/StringRef.h"

namespace waveasm {

inline constexpr llvm::StringLiteral kCountedWaitsAttrName =
    "waveasm.counted_waits";

/// On the same loops: the steady-state steps (iterations of the input
/// loop) one iteration of the kernel runs (modulo variable expansion), so
/// per-iteration figures of the kernel can be read per input iteration.
inline constexpr llvm::StringLiteral kPipelineStepsAttrName =
    "waveasm.pipeline_steps";

} // namespace waveasm

#endif // WAVEASM_PIPELINE_COUNTEDWAITS_H
