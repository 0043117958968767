//===- DefinedValues.h - every value a region defines -----------*- C++ -*-===//
//
// Passes, verifiers and analyses that ask something of every register value
// of a program (is any virtual, which physical registers are named, how high
// do they go) visit the same set: the results of every nested op and the
// block arguments of every nested region.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_DEFINEDVALUES_H
#define WAVEASM_IR_DEFINEDVALUES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "mlir/IR/Visitors.h"

namespace waveasm {

/// Calls `fn` on every value defined inside `region`: the results of each
/// nested op, then the block arguments of that op's regions, with that op.
/// (The block arguments of `region` itself are not visited.) Stops when `fn`
/// interrupts, and says so.
mlir::WalkResult
walkDefinedValues(mlir::Region &region,
                  llvm::function_ref<mlir::WalkResult(mlir::Operation *owner,
                                                      mlir::Value value)>
                      fn);

/// walkDefinedValues' visits in its order with `fn(owner, value)` inlined,
/// for a caller that never stops early and asks little of each value (the
/// metrics' register peaks: a call through function_ref per value cost as
/// much as the question).
template <typename Fn> void forEachDefinedValue(mlir::Region &region, Fn &&fn) {
  for (mlir::Block &block : region)
    for (mlir::Operation &op : block) {
      for (mlir::Region &nested : op.getRegions())
        forEachDefinedValue(nested, fn);
      for (mlir::Value result : op.getResults())
        fn(&op, result);
      for (mlir::Region &nested : op.getRegions())
        for (mlir::Block &nestedBlock : nested)
          for (mlir::BlockArgument arg : nestedBlock.getArguments())
            fn(&op, arg);
    }
}

/// True when a value defined inside `region` (walkDefinedValues' set) has a
/// virtual register type: the program is not (fully) allocated.
bool definesVirtualRegisters(mlir::Region &region);

} // namespace waveasm

#endif // WAVEASM_IR_DEFINEDVALUES_H
