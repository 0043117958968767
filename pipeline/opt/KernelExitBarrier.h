//===- KernelExitBarrier.h - a barrier after a pipelined kernel -*- C++ -*-===//
//
// A loop whose body issues direct-to-LDS loads (`buffer_load_* ... lds`)
// and has a barrier keeps some of those loads in flight across its back
// edge: the barrier before the back edge waits only for the loads whose
// bytes the next iteration reads before its next barrier
// (pipeline/InsertWaitcnt.cpp (b), with the rotation of the bases from
// analysis/LdsRotation.h). That window also runs past the loop's exit, up
// to the first barrier after the loop; when an LDS access comes there first
// (a pipelined kernel's epilogue reads the tiles still in flight), the wait
// pass cannot place its bytes against the loop's rotating bases and makes
// the barrier wait for every such load, in every iteration: the mxfp4
// kernels waited 77 issue slots per kernel iteration for the loads just
// issued. An `s_barrier` right after the loop closes the window at the
// exit, so the loop's barrier waits only for what the next iteration reads,
// and the new barrier waits once for what the code after the loop reads.
//
// Inserting the barrier is legal because the loop has a barrier of its
// own: every wave of the workgroup must run the loop equally often for
// that one to be correct, so every wave reaches the new barrier too (a
// scalar loop condition alone would not say so: waves may hold different
// values). A barrier adds ordering without removing any.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_KERNELEXITBARRIER_H
#define WAVEASM_PIPELINE_OPT_KERNELEXITBARRIER_H

#include "ir/Dialect.h"

namespace waveasm {

/// Inserts an `s_barrier` right after `loop` when its body (not nested
/// regions) has a direct-to-LDS load and a barrier, and the ops after the
/// loop in its block reach an LDS access, a nested region or the block's
/// end before a barrier or `s_endpgm`. Returns whether it inserted one.
bool insertKernelExitBarrier(LoopOp loop);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_KERNELEXITBARRIER_H
