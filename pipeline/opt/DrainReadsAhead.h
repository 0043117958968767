//===- DrainReadsAhead.h - drain reads a step ahead -------------*- C++ -*-===//
//
// The straight code after a pipelined kernel (its drain, then a deepened
// rotation's last iterations, LdsDeepening.h, clones of the body without
// their loads) runs each step as the loop as written does: barrier, the
// step's LDS reads, their ~20-slot latency exposed, the step's MFMAs, the
// next barrier. The kernel issues a step's reads before the MFMAs of the
// step before (its stages), so they land under those MFMAs; the straight
// code cannot, since the barrier that publishes the next tile follows the
// MFMAs (the preshuffle loop with 7 buffers, one spare: four such steps,
// 21 stall slots each).
//
// hoistDrainReads, in the block of `kernel` after it, up to the first op
// with regions:
//  - where that code runs to the program's end (the kernel directly in the
//    program), a barrier is erased when an earlier barrier after the kernel
//    was kept with nothing between them that writes memory (LDS or global)
//    or reads global memory, and nothing after it writes LDS: the kept
//    barrier then orders every write before it against every access after
//    it, and no access before it against a later write (the wait pass
//    makes the kept barrier wait for the direct-to-LDS loads its longer
//    window reads, InsertWaitcnt.cpp (b));
//  - then each LDS read (reads LDS only, writes nothing, not direct to
//    LDS), with the pure ops computing its operands (no memory, no region,
//    not pinned, no implicit register but EXEC read, no SCC written or
//    read, no physical register result), moves up as far as its operands,
//    the barriers and other memory accesses (none is passed: LDS reads
//    keep their order, and their waits count them so) and the registers
//    allow: the vector registers live at each passed op, with its result
//    and its moved ops' results read below, stay within the tail's own
//    peak as written, so the registers the kernel's allocation holds still
//    do (the kernel's peak counted before allocation is no bound: the
//    preshuffle's 7-buffer kernel 156 against 128 allocated, and reads
//    moved up to it cost the 8-buffer program a wave).
// Equal by execution: the reads read what they read before (no barrier and
// no memory write passed), and the kept barriers order what the erased ones
// did. The preshuffle loop, 7 buffers with one spare, 5 stages: 1427 ->
// 1347 est_cycles at 4 waves; every direct-to-LDS candidate of
// waveasm-pipeline-loops has it (its choices weigh the drains as they run).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_DRAINREADSAHEAD_H
#define WAVEASM_PIPELINE_OPT_DRAINREADSAHEAD_H

#include "ir/Dialect.h"

namespace waveasm {

/// Erases the barriers and moves the LDS reads after `kernel` (above);
/// returns the number of barriers erased and reads moved.
unsigned hoistDrainReads(LoopOp kernel);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_DRAINREADSAHEAD_H
