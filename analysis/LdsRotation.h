//===- LdsRotation.h - LDS bases rotated by hand through iter_args -*- C++
//-*-===//
//
// A loop that keeps N LDS buffers in flight (the direct-to-LDS loads of
// step k + N - 1 written while step k is read) rotates their bases through
// SGPR iter_args by hand: `(%b0, %b1, %b2) -> (%b1, %b2, %b0)`, constants at
// entry (or a constant plus addends every argument of the rotation shares:
// a base promoted to VGPRs by loop-address promotion). LdsBuffers.h sees every
// access of such a loop touch every buffer (the iter_args' union); this
// analysis keeps the relation between them: in iteration t block argument k
// holds init[sigma^t(k)], where sigma maps each argument to the one its yield
// forwards (through s_mov_b32 copies). So the DMA of iteration t and the reads
// of iteration t + d touch different buffers whenever their arguments' values
// differ for every t, which is what the wait before a barrier needs
// (InsertWaitcnt.cpp (b)): a barrier publishes only the DMA writes whose bytes
// are accessed after it.
//
// A software-pipelined kernel (pipeline/opt/PipelineLoops.cpp) also carries
// values computed from a rotating base one step early: an M0 base `%m =
// %b3 + %w` of stage 0 read by a DMA of stage 1 is a block argument of its
// own that yields `%b3 + %w` (or another such argument: two steps early).
// Such a "lagged" argument k is placed as a rotating argument p plus
// loop-invariant addends: its yield is argument j (rotating, or lagged
// itself as p' plus addends) plus addends defined before the loop, p is an
// argument the rotation forwards into j (or p'), and k's init is p's plus
// those addends, checked term by term. By induction k then holds p's value
// plus the addends in every iteration. Without it the bytes of a DMA
// through a lagged M0 were unknown, so a barrier of rotating4's 3- and
// 4-stage kernels waited vmcnt(0) for loads it does not publish.
//
// Conservative everywhere: an address that is not "rotating (or lagged)
// argument + loop-invariant bounded rest" (or bounded alone), another loop,
// nested regions: "may overlap".
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LDSROTATION_H
#define WAVEASM_ANALYSIS_LDSROTATION_H

#include "ir/Dialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace waveasm {

class LdsRotation {
public:
  explicit LdsRotation(LoopOp loop);

  /// Whether the LDS bytes `first` touches in some iteration t and those
  /// `second` touches in iteration t + distance (distance >= 0) may
  /// overlap. Both ops directly in the loop body; true when unknown.
  bool mayOverlap(mlir::Operation *first, mlir::Operation *second,
                  unsigned distance);

  /// Block argument k's successor under the rotation (-1: not rotating).
  int successor(unsigned k) const { return next[k]; }

  /// The bytes `op` (directly in the loop body) touches above `base`, a
  /// value of the body (a block argument, a toggled base): [lo, hi) over
  /// every lane, wave and iteration, when its address is `base` plus
  /// addends defined before the loop whose ranges are bounded; else
  /// nullopt. What a pass that moves the buffer needs (LdsDeepening.h).
  std::optional<std::pair<int64_t, int64_t>> bytesAbove(mlir::Operation *op,
                                                        mlir::Value base);

private:
  /// An access's bytes: base(t) + [lo, hi), base(t) = init of the rotating
  /// argument's value in iteration t, or 0 without one (arg = -1).
  struct Footprint {
    int arg = -1;
    int64_t lo = 0, hi = 0;
  };
  std::optional<Footprint> footprint(mlir::Operation *op);
  std::optional<Footprint> compute(mlir::Operation *op);

  LoopOp loop;
  ProgramOp program;
  /// Per block argument: the argument its yield forwards (-1: none) and
  /// its constant init.
  llvm::SmallVector<int> next;
  llvm::SmallVector<int64_t> init;
  /// Per rotating argument, the non-constant addends of its init, shared
  /// by the whole rotation (its value is init + these).
  llvm::SmallVector<llvm::SmallVector<mlir::Value, 2>> shared;
  /// Per lagged argument (not rotating itself): the rotating argument whose
  /// value it holds plus `laggedConstant` and `laggedRest` in every
  /// iteration (-1: not lagged).
  llvm::SmallVector<int> lagged;
  llvm::SmallVector<int64_t> laggedConstant;
  llvm::SmallVector<llvm::SmallVector<mlir::Value, 2>> laggedRest;
  void placeLaggedArguments();
  llvm::DenseMap<mlir::Operation *, std::optional<Footprint>> cache;
};

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LDSROTATION_H
