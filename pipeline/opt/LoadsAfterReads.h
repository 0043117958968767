//===- LoadsAfterReads.h - loads issued after the LDS reads -----*- C++ -*-===//
//
// A loop body that issues its direct-to-LDS loads (with their M0 writes)
// ahead of its LDS reads, then one s_barrier, makes the barrier wait for
// the reads to drain (lgkmcnt(0): the next step's loads may overwrite what
// they read), and that drain starts only after the loads, the M0 writes
// and everything else ahead of the reads have issued. With the loads sunk
// after the reads, right before that barrier, the reads start the step and
// the loads issue in their drain (examples/mxfp4_rotating4_direct_to_lds.mlir
// pipelined in 5 stages: 57.5 -> 48.5 slots per input iteration).
//
// The move's legality, in one place (findLoadsSinkPoint, also what
// LdsDeepening.h's loadsAfterReads asks):
//   - the moved ops keep their order and go right before the first
//     s_barrier after the last LDS access that is not moved, so they pass no
//     barrier (what another wave sees between two barriers is unchanged)
//     and no pinned op (no wait counts them in another place);
//   - no op they pass reads SCC (the moved SALU ops write it), touches M0
//     or EXEC (the loads read both), writes global memory (the loads read
//     it) or has regions;
//   - no LDS access they pass may touch the bytes a moved load writes in
//     the same iteration (the caller's test: analysis/LdsRotation.h for a
//     rotation by hand; the deepening proves its buffers apart itself).
// What moves (planLoadsAfterReads): every direct-to-LDS load of the body,
// every s_mov_b32_m0, and the pure ops only these read (to a fixed point).
// A loop with stage annotations, nested regions or already allocated is
// left alone, with the reason.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_LOADSAFTERREADS_H
#define WAVEASM_PIPELINE_OPT_LOADSAFTERREADS_H

#include "ir/Dialect.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace waveasm {

/// A load from global memory into LDS (no register result).
bool isDirectToLds(mlir::Operation *op);

/// The s_barrier before which the ops `moved` selects (in `body`, in body
/// order from the first of them) may issue after every LDS access that is
/// not moved, by the rules above; `ldsMayOverlap(moved, passed)` says
/// whether a moved op and an LDS access it would pass may touch the same
/// bytes. nullptr, with the reason in `why` when given, when they may not
/// (or nothing would move past an LDS access).
mlir::Operation *findLoadsSinkPoint(
    mlir::Block &body, llvm::function_ref<bool(mlir::Operation *)> moved,
    llvm::function_ref<bool(mlir::Operation *, mlir::Operation *)>
        ldsMayOverlap,
    std::string *why = nullptr);

/// The plan for one loop (planLoadsAfterReads).
struct LoadsAfterReads {
  /// Why the loads cannot move ("" when they can).
  std::string failure;
  bool ok() const { return failure.empty(); }
  LoopOp loop;
  /// The ops that move, in body order, and the barrier they go before.
  llvm::SmallVector<mlir::Operation *> moved;
  mlir::Operation *before = nullptr;
};

/// Checks `loop`; changes nothing.
LoadsAfterReads planLoadsAfterReads(LoopOp loop);

/// Moves the ops of an ok() plan before its barrier.
void applyLoadsAfterReads(const LoadsAfterReads &plan);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_LOADSAFTERREADS_H
