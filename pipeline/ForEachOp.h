//===- ForEachOp.h - visit the ops nested in a region, inline -*- C++ -*-===//
//
// Region::walk's visits, with the callback inlined: MLIR's walk recurses
// through an out-of-line function per op and calls the callback through a
// function_ref, about 40 instructions an op, which is most of what a pass
// that looks for a few kinds of op spends. Same order as the walk (an op's
// regions before it in post-order, after it in pre-order), and the same
// early increment: the callback may erase the op it is given.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_FOREACHOP_H
#define WAVEASM_PIPELINE_FOREACHOP_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "llvm/ADT/STLExtras.h"

namespace waveasm {

/// Calls `fn(op)` for every op nested in `region`, each after the ops nested
/// in it (Region::walk's default order).
template <typename Fn> void forEachOpPostOrder(mlir::Region &region, Fn &&fn) {
  for (mlir::Block &block : region)
    for (mlir::Operation &op : llvm::make_early_inc_range(block)) {
      for (mlir::Region &nested : op.getRegions())
        forEachOpPostOrder(nested, fn);
      fn(&op);
    }
}

/// Calls `fn(op)` for every op nested in `region`, each before the ops
/// nested in it (Region::walk<WalkOrder::PreOrder>); `fn` may erase ops
/// after the one it is given, not that one.
template <typename Fn> void forEachOpPreOrder(mlir::Region &region, Fn &&fn) {
  for (mlir::Block &block : region)
    for (mlir::Operation &op : llvm::make_early_inc_range(block)) {
      fn(&op);
      for (mlir::Region &nested : op.getRegions())
        forEachOpPreOrder(nested, fn);
    }
}

} // namespace waveasm

#endif // WAVEASM_PIPELINE_FOREACHOP_H
