//===- SCCClobbers.h - where SCC is overwritten -----------------*- C++ -*-===//
//
// SCC is one implicit bit: an `!waveasm.scc` value is only readable while no
// other SCC writer has run since its producer (SPEC.md 11.4). This answers,
// for a producer/consumer pair, which ops overwrite SCC on the way, for the
// SCC verifier, the SCC spill/reload pass and the assembly emitter.
//
// Writers come from InstInfoOpInterface (implicit SCC definitions), plus what
// the emitter adds: a `waveasm.if` or `waveasm.condition` whose condition is
// an SGPR is tested with an `s_cmp`. An op with regions writes SCC when an op
// nested in it does.
//
// Paths follow the structured control flow: from the consumer back to the
// producer's block, the ops before the consumer in each enclosing block, the
// `s_cmp` of an enclosing `if` that tests an SGPR, and the whole body of
// every enclosing loop that does not contain the producer (later iterations
// reach the consumer again through the back edge).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_SCCCLOBBERS_H
#define WAVEASM_PIPELINE_SCCCLOBBERS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace waveasm {

/// True if `op` itself overwrites SCC (nested ops not considered).
bool opWritesSCC(mlir::Operation *op);

/// True if `op` or an op nested in its regions overwrites SCC.
bool writesSCC(mlir::Operation *op);

/// True if `consumer` is the op right after `producer` in its block: no op
/// runs between them, so nothing can overwrite SCC there. This is what
/// SCCClobbers::clobberedBetween answers for such a pair, without building
/// it (the usual `s_cmp` + `condition` pair is all most programs have).
inline bool readsRightAfter(mlir::Operation *producer,
                            mlir::Operation *consumer) {
  return producer->getNextNode() == consumer;
}

/// Positions and SCC writers of every block under a root, for queries in
/// constant time per enclosing block. Built once; the IR must not change
/// while it is used.
class SCCClobbers {
public:
  explicit SCCClobbers(mlir::Operation *root);

  /// writesSCC(op) of an op under the root, memoized.
  bool writes(mlir::Operation *op) const;

  /// True if some op overwrites SCC between `producer` (which defines an
  /// SCC value) and `consumer`, a later op that reads it.
  bool clobberedBetween(mlir::Operation *producer,
                        mlir::Operation *consumer) const;

  /// The ops that overwrite SCC between them: in each enclosing block, the
  /// writers among its top-level ops (an op with regions stands for the
  /// writers nested in it). Costs the number of ops on the path.
  llvm::SmallVector<mlir::Operation *>
  collectBetween(mlir::Operation *producer, mlir::Operation *consumer) const;

private:
  struct OpInfo {
    int32_t position; // in its block
    bool writes;      // writesSCC
  };
  bool numberBlock(mlir::Block &block);
  /// Writers among positions [from, to] of `block`.
  int32_t countIn(mlir::Block *block, int32_t from, int32_t to) const;
  /// Walks from `consumer` to the producer's block; `onRange(block, from,
  /// to)` gets each block range to search and `onOp(op)` each op that
  /// writes SCC by itself being on the path (an SGPR `if` test, a loop
  /// body). A callback returning true stops the walk.
  template <typename RangeFn, typename OpFn>
  void walkPath(mlir::Operation *producer, mlir::Operation *consumer,
                RangeFn onRange, OpFn onOp) const;

  llvm::DenseMap<mlir::Operation *, OpInfo> info;
  /// Per block: prefix[i] = writers among the first i ops.
  llvm::DenseMap<mlir::Block *, std::vector<int32_t>> prefix;
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_SCCCLOBBERS_H
