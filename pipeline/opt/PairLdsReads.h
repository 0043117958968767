//===- PairLdsReads.h - ds_read_b64 pairs as one ds_read2_b64 ---*- C++ -*-===//
//
// Two `ds_read_b64` of one address value whose byte offsets differ by a
// multiple of 8 (at most 255 elements apart) read as one `ds_read2_b64`
// (offset0/offset1 in elements of 8 bytes, SPEC.md 7.11): one LDS issue
// slot and one lgkmcnt ticket instead of two. In a pipelined double-buffer
// step every LDS access must be complete at the step's barrier, so a step
// lasts at least its last LDS access plus the LDS latency: the fewer LDS
// ops a step issues, the earlier that drain starts (gemm_f16_double_buffer:
// 10 accesses a step -> 6).
//
// The pair issues where the first read was, so the second read moves up:
// only past ops that cannot change the bytes it reads or what a wait
// counts (no LDS write, barrier, wait, op with regions in between; the
// pairing runs before the wait pass, so the waits it then inserts count
// the pair as one ticket). The two halves are `waveasm.extract`s of the
// pair's four registers, which the allocator places without copies.
//
// The offset fields hold 0..255 elements: a pair further out reads from a
// rebased address, `v_add_u32 K, base` placed before `loop` when `base` is
// defined there (a loop-invariant VGPR, one per distinct K), so the loop
// issues no extra VALU; a pair that needs an in-loop add is left alone.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_PAIRLDSREADS_H
#define WAVEASM_PIPELINE_OPT_PAIRLDSREADS_H

#include "ir/Dialect.h"

#include "llvm/ADT/DenseMap.h"

namespace waveasm {

/// Pairs the `ds_read_b64`s of `loop`'s body (above). With `stageOf` (the
/// pipeliner's stages of the body ops), only reads of one stage pair, and
/// the ops made take that stage. A body with a wait that counts LDS tickets
/// is left alone. Returns the number of pairs made.
unsigned
pairLdsReads(LoopOp loop,
             llvm::DenseMap<mlir::Operation *, int> *stageOf = nullptr);

/// Whether `loop`'s body has two `ds_read_b64` pairLdsReads might pair (the
/// same address value and offsets in reach, nothing between that the second
/// may not pass; no wait counting LDS tickets).
bool hasLdsReadPairs(LoopOp loop);

/// In a pipelined kernel whose LDS copy bases became constants
/// (ConstantIterArgs.h): a `ds_read2_b64` whose address is a body
/// `v_add_u32` of a constant K and a VGPR x from before the loop reads from
/// x + K computed before the loop (the offset fields cannot take K, as the
/// memory offset pass does for plain reads). Returns the pairs rebased.
unsigned hoistPairAddresses(LoopOp kernel);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_PAIRLDSREADS_H
