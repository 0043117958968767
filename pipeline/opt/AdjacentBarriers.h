//===- AdjacentBarriers.h - one barrier where two follow -------*- C++ -*-===//
//
// A software-pipelined step runs the stages of several iterations, each
// with its own barriers, so two `s_barrier`s of different stages often end
// up next to each other (gemm_loop in 4 stages: the barrier after one
// iteration's LDS reads and the one after another's LDS writes, only MFMAs
// between). A barrier orders every wave's memory accesses before it against
// every wave's accesses after it. With no memory access between two
// barriers, the accesses before the first are those before the second and
// the accesses after the second are among those after the first, so the
// later barrier alone gives every ordering the two gave: the earlier one is
// erased. The ops between then issue before the barrier, in the wait that
// drains the LDS accesses before it (pipeline/InsertWaitcnt.cpp (b)),
// instead of after it.
//
// Only ops that certainly need no barrier may lie between: ops with the
// instruction facts, no memory read or write (an LDS access, a global or
// scalar load or store, a direct-to-LDS load), no nested region, not
// pinned (a wait, a label, raw text, another barrier). A wait between
// two barriers keeps both: the barrier after it may publish the data the
// wait waited for.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_ADJACENTBARRIERS_H
#define WAVEASM_PIPELINE_OPT_ADJACENTBARRIERS_H

#include "mlir/IR/Block.h"

namespace waveasm {

/// Erases, among the ops [begin, end) of one block, each `s_barrier`
/// followed by another with only ops between that need no barrier (above).
/// Returns how many were erased. Nested blocks are not visited.
unsigned mergeAdjacentBarriers(mlir::Block::iterator begin,
                               mlir::Block::iterator end);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_ADJACENTBARRIERS_H
