//===- EpiloguePrefetch.h - a kernel's epilogue loads issued early -*- C++
//-*-===//
//
// The straight code after a pipelined kernel (its drain, then, for a loop
// whose LDS rotation was made deeper, LdsDeepening.h's last iterations
// without their direct-to-LDS loads) keeps the distance the loop as
// written gives its register prefetches: the deepening clones the body,
// whose B loads of step k + 1 issue in step k, one step before their
// MFMAs. The kernel runs them stages earlier (LoopStages.h), the epilogue
// does not: in mxfp4_preshuffle_gemm_loop (5 stages, 6 buffers) each of
// its steps waited ~45-50 slots for its B fragments.
//
// After the kernel, in its block up to the first op with regions: each
// global load into registers (no direct-to-LDS load) with the pure ops
// computing its operands (no memory, no region, not pinned, implicit SCC
// and EXEC reads only) moves up to the earliest place where
//  - its operands are defined (the kernel's results at the earliest),
//  - no passed op may write the bytes it reads (`MemoryAlias.h`), writes
//    EXEC or has regions; an `s_barrier` is passed only when no global
//    store of the program precedes the load (another wave's store before
//    the barrier would then be read before it),
//  - it stays after every other VMEM load (loads keep their order, so a
//    wait for one never waits for a later one moved above it),
//  - an SCC its moved ops write is live nowhere in between,
//  - the vector registers live at each passed op, with the load's result
//    (and its moved ops' results read below) added, stay within the
//    kernel's own peak, so the occupancy the kernel sets is kept.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_EPILOGUEPREFETCH_H
#define WAVEASM_PIPELINE_OPT_EPILOGUEPREFETCH_H

#include "ir/Dialect.h"

namespace waveasm {

/// Moves the register loads after `kernel` in its block as early as their
/// operands, memory and registers allow (above). Returns the number of
/// loads moved.
unsigned hoistEpiloguePrefetch(LoopOp kernel);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_EPILOGUEPREFETCH_H
