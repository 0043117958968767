//===- CloneInOrder.h - one-pass clone of SSA-ordered IR ---------*- C++
//-*-===//
//
// `cloneInOrder(op, mapper)` returns what `op->clone(mapper)` returns: the
// same ops, operands, attributes, block arguments, use-list order and
// mapping entries. MLIR's clone creates each block's ops without operands
// first (a use may precede its definition in a graph region) and then sets
// every op's operands, which allocates each op's operand storage a second
// time: a tenth of compile-and-measure's clone. WaveASM's regions are
// single-block SSA regions where every definition precedes its uses in
// pre-order, so each op can be created with its operands at once.
//
// An operand the walk has not mapped yet but that is defined inside `op`
// (a forward reference: unverified or graph-region IR) makes it drop the
// partial copy before creating that op, clear `mapper` of it and fall back
// to `op->clone(mapper)`; no use of a value inside `op` is ever added.
// Each op is created as Operation::clone creates it (Operation::create
// with the same fields), with its operands looked up once.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_CLONEINORDER_H
#define WAVEASM_PIPELINE_CLONEINORDER_H

namespace mlir {
class IRMapping;
class Operation;
} // namespace mlir

namespace waveasm {

struct CloneInOrderOptions {
  /// Map every op to its copy in the mapper, as MLIR's clone does. A caller
  /// that never asks the mapper for an op (compile-and-measure without
  /// assembly or a kept module) saves an insertion per op; values and
  /// blocks are mapped either way (a fallback to MLIR's clone maps ops
  /// too).
  bool mapOps = true;
};

/// `op->clone(mapper)`, created in one pre-order pass when the IR allows.
/// `fellBack`, when given, says whether MLIR's clone was used.
mlir::Operation *cloneInOrder(mlir::Operation *op, mlir::IRMapping &mapper,
                              bool *fellBack = nullptr,
                              CloneInOrderOptions options = {});

} // namespace waveasm

#endif // WAVEASM_PIPELINE_CLONEINORDER_H
