//===- FoldWaits.h - one wait where a pipelined step had several -*- C++
//-*-===//
//
// The wait pass (InsertWaitcnt.cpp) waits only as strictly as each use
// needs, so a pipelined step whose MFMAs read the fragments of the previous
// step one after another gets a counted wait before each of them (gemm_loop
// in 5 stages: lgkmcnt(4) before the first MFMA, lgkmcnt(6) three reads
// later before the second; vmcnt(7) and vmcnt(6) before its two ds_writes).
// Each wait takes an issue slot: four a step, where the step's bound is 20.
//
// In the body of a loop marked `waveasm.counted_waits` (a pipelined steady
// state, CountedWaits.h), a later wait W_j folds into the wait W_i before it
// (W_i's thresholds lowered, W_j removed) when, for each counter W_j waits
// on with threshold n, the m ops between them that count on it leave
// n - m >= 0. Then "at most n - m outstanding at W_i" implies "at most n
// outstanding at W_j" whatever completes in between (the counter rises by
// at most m), so the fold is always as strict as the two waits it replaces;
// nothing in between may have regions, be a label, a branch or raw text.
//
// It pays when waiting earlier costs at most the issue slot it saves: the
// newest ticket W_i now waits for was issued at least `latency` slots
// before W_i (counting issue slots backwards, across the back edge into
// the previous iteration), or at most one slot after the ticket W_i
// already waited for (in-order completion: it lands at most that much
// later; VMEM only, an LDS op may queue behind bank conflicts). The slots
// are counted one per issued op, an MFMA no earlier than the previous
// one's passes end, the waits not judged yet none (a later fold may
// remove them): a lower bound of the real distance (operand and
// counter stalls only add to it), so the estimated cost is an upper bound
// (gemm_loop in 6 stages: the second MFMA's fragment wait folds once the
// MFMA pipe's three idle slots count, 25.4 -> 24.4 per iteration). An LDS
// op's latency includes its bank-conflict slots (LdsBankConflicts.h, as
// the cycle model charges them): without them the preshuffled mxfp4
// kernel's fragment waits folded into the barriers before them while the
// conflicting reads were still in flight (6 steps: 166 -> 163 slots).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_FOLDWAITS_H
#define WAVEASM_PIPELINE_FOLDWAITS_H

#include "ir/Dialect.h"

namespace waveasm {

class TargetModel;

/// Folds waits in the bodies of the program's counted-wait loops (above);
/// a folded wait is moved right after the wait it folds into, with its
/// thresholds lowered, so the caller's merge of adjacent waits makes the
/// two one op. Returns the number of waits folded.
unsigned foldCountedWaits(ProgramOp program, const TargetModel &model);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_FOLDWAITS_H
