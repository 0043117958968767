//===- StepReadsFirst.h - LDS reads ahead of a stage's loads ---*- C++ -*-===//
//
// The `reads-first` step order (StepOrder.h) is `late-first` with one more
// rule inside each later stage: the stage's LDS reads (with the address ops
// only they read) issue ahead of the direct-to-LDS loads of the same stage
// (their M0 writes and voffset ops too), instead of after them as a
// deepened rotation's body has it (LdsDeepening.h: the load of step t + N - 2
// into buffer N - 1, then the reads of step t from buffer 0). With a spare
// buffer the barrier does not wait for those reads, so what bounds the step
// is the distance from a step's reads to the next step's first MFMA: the
// M0 write, three voffset VALU and the load in front of the reads add five
// slots to it every step (the preshuffled mxfp4 loop, 7 buffers, one
// spare, 6 stages: 173 slots per 7 steps as deepened, 165 with the reads
// first, a hand-edited order before this rule).
//
// Unlike LoadsAfterReads.h (the loads sunk to the barrier at the end of the
// body, before the stages exist) the loads stay where they were, right
// after the reads, so they keep their distance to the barrier that
// publishes them.
//
// Legal because a step's stage runs one iteration in its own order: a read
// moved above a load of the same iteration must not touch the bytes the
// load writes (analysis/LdsRotation.h, distance 0), and every op moved may
// pass every op it passes (no barrier, wait or pinned op, no other memory
// conflict, no implicit register both use with one writing it).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_STEPREADSFIRST_H
#define WAVEASM_PIPELINE_OPT_STEPREADSFIRST_H

#include "mlir/IR/Operation.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace waveasm {

/// Whether `hoisted` (moved up) may issue before `passed`, ops of one
/// stage of one iteration (an LDS read passing a direct-to-LDS load
/// included: StepOrder.cpp asks the LDS rotation whether their bytes meet).
using MayPassFn =
    llvm::function_ref<bool(mlir::Operation *hoisted, mlir::Operation *passed)>;

/// `stream` (one stage's ops in issue order) with its LDS reads and their
/// own address ops moved right before the first op of its direct-to-LDS
/// load group (the loads, the M0 writes, the pure ops only those read),
/// when `mayPass` allows every move; the reads after the first ordering op
/// (a barrier) stay. True when something moved.
bool moveReadsAheadOfLoads(llvm::SmallVectorImpl<mlir::Operation *> &stream,
                           MayPassFn mayPass);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_STEPREADSFIRST_H
