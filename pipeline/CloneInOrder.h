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

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlir {
class IRMapping;
class Operation;
} // namespace mlir

namespace waveasm {

/// Each source value's copy, for a clone whose caller never asks the mapper
/// for a value: open addressing with linear probing over the values' opaque
/// pointers, hashed as DenseMap hashes pointers. The mapper's value map
/// hashes each pointer in full (Value's DenseMapInfo), and its lookups and
/// insertions were a third of the clone. A caller that clones repeatedly
/// keeps one, so its capacity is kept.
class ClonedValues {
public:
  /// Empties the table, sized for as many values as it held (a clone of
  /// the same program again does not grow it).
  void reset();
  /// The copy of `from`, or null.
  const void *lookup(const void *from) const {
    for (size_t i = hash(from) & mask;; i = (i + 1) & mask) {
      const Slot &slot = slots[i];
      if (slot.from == from || !slot.from)
        return slot.to;
    }
  }
  /// Maps `from` (not mapped yet) to `to`.
  void insert(const void *from, const void *to) {
    if (2 * (size + 1) > slots.size())
      grow();
    place(from, to);
    ++size;
  }
  size_t getSize() const { return size; }

private:
  struct Slot {
    const void *from = nullptr;
    const void *to = nullptr;
  };
  static size_t hash(const void *pointer) {
    uintptr_t bits = reinterpret_cast<uintptr_t>(pointer);
    return (bits >> 4) ^ (bits >> 9);
  }
  void place(const void *from, const void *to) {
    size_t i = hash(from) & mask;
    while (slots[i].from)
      i = (i + 1) & mask;
    slots[i] = {from, to};
  }
  void grow();

  std::vector<Slot> slots = std::vector<Slot>(2);
  size_t mask = 1;
  size_t size = 0;
};

struct CloneInOrderOptions {
  /// Map every op to its copy in the mapper, as MLIR's clone does. A caller
  /// that never asks the mapper for an op (compile-and-measure without
  /// assembly or a kept module) saves an insertion per op; values and
  /// blocks are mapped either way (a fallback to MLIR's clone maps ops
  /// too).
  bool mapOps = true;
  /// When given, the values' copies are mapped here (emptied first) instead
  /// of in the mapper, whose values are still read (a caller's
  /// substitutions apply). Ops, blocks and the root's results are mapped in
  /// the mapper as ever, and so is everything when the clone falls back to
  /// MLIR's.
  ClonedValues *values = nullptr;
};

/// `op->clone(mapper)`, created in one pre-order pass when the IR allows.
/// `fellBack`, when given, says whether MLIR's clone was used.
mlir::Operation *cloneInOrder(mlir::Operation *op, mlir::IRMapping &mapper,
                              bool *fellBack = nullptr,
                              CloneInOrderOptions options = {});

} // namespace waveasm

#endif // WAVEASM_PIPELINE_CLONEINORDER_H
