//===- RotatedIterArgs.h - explicit copies for rotating iter_args -*- C++ -*-=//
//
// A loop that rotates iter_args by hand (the double-buffered examples yield
// `(%wr, %rd)` for `(%rd, %wr)`) yields block arguments of other positions,
// or values defined before the loop. The stage analysis and the pipeliner
// follow values to the body op that yields them, so such a yield gets an
// explicit copy at the start of the body (`s_mov_b32` / `v_mov_b32`): the
// yield is then a body result like any other, and the value of iteration j
// is the copy of iteration j's argument, as before. Coalescing removes the
// copy again when registers are allocated in a rotation-free loop.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_ROTATEDITERARGS_H
#define WAVEASM_PIPELINE_OPT_ROTATEDITERARGS_H

#include "ir/Dialect.h"

#include <string>

namespace waveasm {

/// The copies inserted into one loop, to undo when the loop is left alone.
class RotationCopies {
public:
  /// Inserts the copies; `failure` says which yield could not get one (a
  /// multi-register value or a register class without a plain move), and
  /// then nothing is inserted.
  static RotationCopies materialize(LoopOp loop);

  /// Removes the copies, restoring the yields.
  void undo();

  std::string failure;
  bool ok() const { return failure.empty(); }
  bool empty() const { return copies.empty(); }
  /// The inserted copy ops.
  llvm::SmallVector<mlir::Operation *> getOps() const {
    llvm::SmallVector<mlir::Operation *> ops;
    for (const Copy &c : copies)
      ops.push_back(c.op);
    return ops;
  }

private:
  struct Copy {
    mlir::Operation *op;
    unsigned iterArg;
    mlir::Value original;
  };
  LoopOp loop;
  llvm::SmallVector<Copy> copies;
};

/// After modulo variable expansion a kernel that runs as many steps as a
/// hand rotation has members yields each rotating argument back to itself
/// through the copies above (b0 -> copy of b1 -> ... -> copy of b0): such
/// an argument is its init in every iteration. Replaces its uses by the
/// init and folds the body's copies of values from outside the loop into
/// their sources, so the bases are constants per step instead of four SALU
/// copies a step (and what is computed from them only is loop-invariant).
/// Returns the number of copies removed.
unsigned foldInvariantRotations(LoopOp loop);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_ROTATEDITERARGS_H
