//===- LdsDeepening.h - an LDS rotation made deeper -------------*- C++ -*-===//
//
// A loop that double-buffers its direct-to-LDS loads by hand (the tile of
// step k+1 is loaded into the write buffer while step k is read from the
// other; the two SGPR bases swap through iter_args or toggle with
// s_xor_b32; one s_barrier per iteration publishes the next step) waits in
// every iteration for the loads it issued in that iteration. With N
// buffers (3 to kMaxLdsBuffers) the loads run N-1 steps ahead, as
// examples/mxfp4_rotating4_direct_to_lds.mlir does by hand (N-2 with one
// buffer kept spare, `spare` below; read N-2 for that many below).
//
// A loop that already rotates R > 2 bases by hand (`(b0, .., bR-1) ->
// (b1, .., bR-1, b0)`, reads through b0, loads through bD: the tile of step
// k+D loaded in iteration k) is deepened the same way: its R buffers keep
// their bases (in the order the reads visit them), N - R new ones go above
// the program's LDS, and the loads move N-1-spare-D iterations further
// ahead (the prologue below counts from the input's own D steps). The
// rotating4 example (R = 4, D = 3) publishes a tile two barriers after its
// loads issue, about 58 slots against ~100 of global-load latency. The
// two-buffer description below is the case R = 2, D = 1:
//
//   prologue:  the loads of the original's iterations 0 .. N-3 (steps
//              1 .. N-2, with those iterations' control values) into
//              buffers 1 .. N-2;
//   loop:      N SGPR bases rotating (b0, .., bN-1) -> (b1, .., bN-1, b0);
//              the reads use b0 as they used the read base; the loads, the
//              M0 writes and the pure ops computing their operands use the
//              control iter_args of iteration t + N - 2 (the control
//              update cloned N - 2 times) and bN-1 for the write base; it
//              runs T - N + 2 times (the counted condition's bound moved
//              by N - 2 steps, else the condition N - 2 iterations ahead
//              and a `trip_count` attribute);
//   epilogue:  the original's last N - 2 iterations without the loads.
//
// So every step is loaded once, by the same instructions with the same
// operands as before, nothing past the original's last load is read, and
// buffer s mod N holds step s from its load until the barrier after its
// reads; a buffer is rewritten 1 + spare iterations after its last reads,
// behind that iteration's barrier. A hand rotation of R buffers whose loads
// run D steps ahead rewrites a buffer R - D steps after its reads, and its
// barriers may rely on that: a plan with 1 + spare < R - D is refused. The new
// buffers go above the program's LDS (the span of the loop's accesses above
// their base, rounded to 128 bytes), and lds_size grows.
//
// A trip count the IR gives (analysis/TripCount.h) must be at least N - 1;
// any other count is guarded: a `waveasm.if` evaluates the loop control's
// conditions of the original's iterations 0 .. N-3 before the loop and
// runs the rewrite only when they all hold, else the original loop.
//
// Only what is checked is rewritten: the rotation's constant bases,
// LDS traffic of the loop made of direct-to-LDS loads through the write
// base and reads through the read base (addresses: base + values from
// before the loop, analysis/LdsRotation.h's bytesAbove), M0 written in the
// body before any read and read only by those loads, no LDS access after
// the loop, no nested regions or stage annotations. Anything else is a
// failure naming the reason, and the loop is not touched.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_LDSDEEPENING_H
#define WAVEASM_PIPELINE_OPT_LDSDEEPENING_H

#include "ir/Dialect.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace waveasm {

/// The plan for one loop (planLdsDeepening); applied by applyLdsDeepening.
struct LdsDeepening {
  /// Why the loop cannot be deepened ("" when it can).
  std::string failure;
  /// The failure is the LDS size (the message names the bytes over).
  bool outOfMemory = false;
  /// The failure is the LDS size or the trip count: fewer buffers may do.
  bool fewerMayFit = false;
  bool ok() const { return failure.empty(); }

  /// Buffers after the rewrite (3 to kMaxLdsBuffers), and the input's own
  /// rotation: its buffers (2 for a swap or a toggle) and how many steps
  /// ahead of the reads its loads write (1 for two buffers).
  int buffers = 0;
  int rotation = 2;
  int distance = 1;
  /// Buffers kept spare (0 or 1): the loads run buffers - 1 - spare steps
  /// ahead. With one spare, a step's loads write the buffer read two steps
  /// earlier, not one, so the barrier between the two steps need not wait
  /// for the previous step's reads (pipeline/InsertWaitcnt.cpp (b)): the
  /// reads of a pipelined step stay in flight across its barrier.
  int spare = 0;
  /// Iterations the loads move ahead of the original's (buffers - 1 -
  /// spare - distance): the prologue's loads and the epilogue's iterations.
  int aheadIterations() const { return buffers - 1 - spare - distance; }
  LoopOp loop;
  /// The read base's block argument; the write base: a block argument
  /// (swapped or rotated bases, `writeArg`) or the s_xor_b32 toggling the
  /// read base. `cycle`: the rotation's block arguments in the order the
  /// reads visit their buffers (cycle[0] = readArg, cycle[distance] =
  /// writeArg; the read base alone for a toggle).
  unsigned readArg = 0;
  int writeArg = -1;
  llvm::SmallVector<unsigned> cycle;
  mlir::Operation *toggle = nullptr;
  mlir::Value writeBase;
  /// Constant byte addresses of buffers 0 .. N-1 (0 .. R-1: the inits of
  /// `cycle`'s arguments, or the read base's and the toggled one), and the
  /// program's LDS bytes before and after.
  llvm::SmallVector<int64_t> bases;
  int64_t ldsBefore = 0, ldsAfter = 0;
  /// The original trip count (a hint when `guarded`), and whether it is
  /// not known from the IR: the rewrite then runs behind a `waveasm.if`
  /// that counts N - 1 iterations first, with the original loop otherwise.
  int64_t trips = 0;
  bool guarded = false;
  /// Per block argument: loop control (a closed set of pure updates).
  llvm::SmallVector<bool> control;
  /// The direct-to-LDS loads and M0 writes, and the pure ops computing
  /// their operands or the condition (cloned N - 2 iterations ahead).
  llvm::DenseSet<mlir::Operation *> loads, ahead;
  /// The ops computing the condition (part of `ahead`).
  llvm::DenseSet<mlir::Operation *> condition;
  /// The ops computing the control iter_args' yields, in body order.
  llvm::SmallVector<mlir::Operation *> update;
  /// Whether the loop issues the loads (with their M0 writes and operands)
  /// after the iteration's LDS reads, right before the barrier after them
  /// (canIssueLoadsAfterReads says where that is possible): the reads then
  /// start a pipelined step and the loads issue in the barrier's LDS drain,
  /// but they are waited for sooner when few steps ahead. Planned for 4
  /// buffers (3 steps ahead), not 3 (the preshuffled loop, 2 stages: 2524
  /// -> 2601 est_cycles that way); waveasm-pipeline-loops measures both.
  bool loadsAfterReads = false;
};

/// Whether `plan`'s loads may go after its reads (loadsAfterReads changes
/// the rewrite).
bool canIssueLoadsAfterReads(const LdsDeepening &plan);

/// The deepest rotation tried or accepted. 8 buffers of the mxfp4 tiles
/// (5 to 9 KiB each) stay within gfx950's 64 KiB a workgroup and 160 KiB a
/// CU; deeper ones hold LDS that the global-load latency (~100 slots, 3 to
/// 4 steps of these loops) does not need.
constexpr int kMaxLdsBuffers = 8;

/// Checks `loop` for `buffers` (3 to kMaxLdsBuffers, more than the input
/// rotates, `spare` of them kept spare, the loads at least one step further
/// ahead; 0: two more than the input rotates, else one when those do not
/// fit or the trip count is too short, none spare). Changes nothing.
LdsDeepening planLdsDeepening(LoopOp loop, int buffers, int spare = 0);

/// Rewrites the loop of an ok() plan; returns the new loop (the original
/// is erased through DeferredErase).
LoopOp applyLdsDeepening(const LdsDeepening &plan);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_LDSDEEPENING_H
