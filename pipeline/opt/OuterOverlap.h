//===- OuterOverlap.h - a loop's iterations overlapped around its kernel --===//
//
// An outer loop whose body is [head, kernel, tail] (the kernel a loop the
// pipeliner made, the head holding its prologue and the tail its epilogue
// and the outer body's own ops) pays the kernel's ramp once per outer
// iteration: each tile starts with empty pipes. Rotated, the outer loop's
// body is [kernel(t), tail(t), head(t+1)], the first head peeled before it
// and the last kernel and tail after it, so the straight-line region
// tail(t) + head(t+1) can be interleaved (tile t's epilogue with tile
// t+1's loads and prologue):
//
//   head(0)
//   loop n-1 times: kernel(t); tail(t); head(t+1)   <- region reordered
//   kernel(n-1); tail(n-1)
//
// The rotation alone keeps the dynamic order of every op; the reordering
// of the region is a list schedule under its dependences: SSA, global
// memory that may alias (analysis/MemoryAlias.h, `noalias_args`), every
// LDS access and barrier in their original order, VCC/EXEC/M0 users in
// theirs, and global loads crossing a barrier only when no store of the
// outer body may reach their bytes. The exit condition of tile t + 1 is
// the tail's control slice evaluated again on the next iteration's values;
// an outer count the IR does not give is guarded by a `waveasm.if` on tile
// 0's condition (else: tile 0's kernel and tail alone).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_OUTEROVERLAP_H
#define WAVEASM_PIPELINE_OPT_OUTEROVERLAP_H

#include "ir/Dialect.h"

#include <string>

namespace waveasm {

class TargetModel;

/// Whether `loop` holds a loop or an if directly in its body (a candidate
/// for the rotation, which may still refuse it).
bool holdsInnerRegion(LoopOp loop);

/// Empty when `outer` can be rotated; else why not, in words for a remark.
std::string checkOuterOverlap(LoopOp outer);

/// Rotates `outer` (checkOuterOverlap must be empty) and interleaves the
/// region between two kernels; `target` gives latencies and MFMA passes to
/// the list schedule (null: one slot each). Returns the rotated loop.
LoopOp overlapOuterIterations(LoopOp outer, const TargetModel *target);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_OUTEROVERLAP_H
