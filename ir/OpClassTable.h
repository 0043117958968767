//===- OpClassTable.h - facts per op class, per thread --------*- C++ -*-===//
//
// A direct-mapped table of what is true of every op of a class, keyed by
// the class's TypeID: unlike an OperationName, it outlives the context that
// registered the class, so entries stay true across contexts. The TypeIDs of
// a dialect's ops are consecutive statics: few collide, and a collision only
// costs a recomputation. Not thread safe: keep one per thread.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_OPCLASSTABLE_H
#define WAVEASM_IR_OPCLASSTABLE_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/Compiler.h"

#include <cstdint>

namespace waveasm {

template <typename Facts, unsigned NumSlots> class OpClassTable {
public:
  /// The facts of `op`'s class, `compute(op)` when its slot holds another
  /// class. `op` is registered (an unregistered op's TypeID is void's, one
  /// for every name).
  template <typename Compute> Facts get(mlir::Operation *op, Compute compute) {
    const void *id = op->getName().getTypeID().getAsOpaquePointer();
    Slot &slot = slots[(reinterpret_cast<uintptr_t>(id) >> 3) % NumSlots];
    if (LLVM_LIKELY(slot.id == id))
      return slot.facts;
    return fill(slot, id, op, compute);
  }

private:
  struct Slot {
    const void *id = nullptr;
    Facts facts{};
  };

  /// The miss: out of line, so the hit path saves no registers (a lookup
  /// of InstFacts is asked for most ops by most passes).
  template <typename Compute>
  LLVM_ATTRIBUTE_NOINLINE static Facts
  fill(Slot &slot, const void *id, mlir::Operation *op, Compute compute) {
    slot.facts = compute(op);
    slot.id = id;
    return slot.facts;
  }

  Slot slots[NumSlots];
};

} // namespace waveasm

#endif // WAVEASM_IR_OPCLASSTABLE_H
