//===- M0AboveBarrier.h - M0 writes above their barriers -----*- C++ -*-===//
//
// A pipelined direct-to-LDS step begins after the barrier that ends the
// step before: `s_barrier`, `s_mov_b32_m0 base`, the soffset shift, the
// `buffer_load ... lds`, then the step's LDS reads and its first MFMA. Every
// slot between the barrier and the reads delays the fragments the next
// step's first MFMA waits for, and the load the barrier four or five steps
// later waits for; the M0 write needs neither the barrier nor anything
// after it (its base is a value of an earlier step or from before the
// loop), while the step before ends in its barrier's wait, where a SALU
// slot is free. Moved above the barrier, each step's reads and load issue a
// slot earlier: the preshuffled mxfp4 loop in 5 stages, 6 buffers, 161 ->
// 160 slots a kernel iteration of 6 steps, 1399 -> 1396 est_cycles.
//
// Within one block, for each `s_barrier`: an `s_mov_b32_m0` after it, with
// nothing between the two reading or writing M0, touching memory or
// waiting (only plain ops), whose operand is defined before the barrier or
// outside the block, moves right before the barrier. The first step's M0
// write follows no barrier of the body (the one before it ends the previous
// kernel iteration) and stays.
//
// The wait pass folds and merges the waits around a barrier
// (FoldWaits.h), and an M0 write before the barrier's wait changes what
// folds: in 4 stages the same loop lost a slot a kernel iteration (169 ->
// 170) and the direct mxfp4 loop in 3 stages 2 est_cycles. The pipeliner
// therefore moves them only in the program it keeps, measured with and
// without (PipelineLoops.cpp keepM0AboveBarriersIfFaster), not in the
// trials its choices compare.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_M0ABOVEBARRIER_H
#define WAVEASM_PIPELINE_OPT_M0ABOVEBARRIER_H

#include "ir/Dialect.h"

namespace waveasm {

/// An M0 write moved and the op it preceded, to undo the move.
struct M0Move {
  mlir::Operation *write;
  mlir::Operation *next;
};

/// Moves the M0 writes of `block` that follow a barrier above it (above).
llvm::SmallVector<M0Move> hoistM0AboveBarriers(mlir::Block &block);

/// Puts the moved writes back where they were.
void undoM0Moves(llvm::ArrayRef<M0Move> moves);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_M0ABOVEBARRIER_H
