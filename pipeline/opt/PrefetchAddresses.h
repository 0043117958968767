//===- PrefetchAddresses.h - a step's load addresses in the last one -*- C++
//-*-===//
//
// A pipelined step begins with stage 0's global loads and their address
// producers (StepOrder.h, late-first), and in a multi-wave LDS loop the
// step before ends with its barrier. The address SALU then take the slots
// after the barrier in which the MFMA pipe frees: in
// gemm_f16_32x32x8_global (5 stages x4) the barrier at slot 58, the two
// 64-bit pointer adds (4 SALU), the three `global_load_dwordx4` and the
// counter add, and the step's first MFMA at 67 where the pipe was free at
// 64: three idle pipe slots a step, while the step before left the pipe's
// shadow idle after each of its last MFMAs (7 slots each).
//
// Within one block, after each `s_barrier`: the scalar ALU ops (and the
// pseudo ops extracting and packing their registers) before the first
// MFMA after it, which read nothing computed after the barrier but by each
// other, move into the step before, right after one of its MFMAs: the one
// after which they make the first MFMA after the barrier issue earliest on
// the issue clock (one slot per emitted op, the MFMA pipe held for its
// passes), the latest such. The loads stay after the barrier (llvm-mca's
// barrier wait waits for loads issued before it: wt-ldsgemm3) and issue
// earlier by the slots the SALU left. An op writing SCC moves only when
// every reader of its SCC moves with it and nothing between the new place
// and the end of the run touches SCC. The loop's compare, whose SCC only
// the loop's condition reads, moves the same way when nothing but the
// condition follows it in the body (the run after the last barrier),
// judged by itself once the address ops have moved: the next iteration's
// first MFMA then comes a slot sooner (the padded double buffer, 4 steps:
// 135 -> 134 slots a kernel iteration; a wait and a barrier leave SCC
// alone). A body with scalar memory loads is
// left alone (an SGPR may then be a load's result, which the barrier's
// wait waits for), and so is one with direct-to-LDS loads: their steps
// are ordered around their M0 bases and the reads' drain
// (LoadsAfterReads.h, StepOrder.h readsLead), tuned on their own (the
// mxfp4 direct loop in 5 stages moved by 0.2 slots an iteration here).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_PREFETCHADDRESSES_H
#define WAVEASM_PIPELINE_OPT_PREFETCHADDRESSES_H

#include "ir/Dialect.h"

namespace waveasm {

class TargetModel;

/// Moves, after each barrier of `block`, the address SALU before the
/// first MFMA into an MFMA's shadow of the step before (above). Returns
/// the number of barriers after which ops moved.
unsigned hoistPrefetchAddresses(mlir::Block &block, const TargetModel &model);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_PREFETCHADDRESSES_H
