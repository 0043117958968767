//===- StorageKeys.h - what a value occupies, for dataflow passes -*- C++ -*-===//
//
// Shared by the wait-count and hazard passes, which both track "the storage
// an instruction wrote" and must work before and after register allocation:
//  - before allocation a value is its own storage (one SSA value, one key);
//  - after allocation (physical types, or precolored values) a value is the
//    physical registers it covers (one key per register), so two values that
//    overlap in registers alias, whatever their SSA identity.
// It also predicts where the emitter copies a value into a loop block
// argument, a loop result or an `if` result (SPEC.md 14.3, 14.4, 17.5):
// such a copy is a real read of the value at the loop entry, the latch or the
// yield; otherwise the value is passed in place and is only read where the
// block argument or result is used.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_STORAGEKEYS_H
#define WAVEASM_PIPELINE_STORAGEKEYS_H

#include "ir/Dialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace waveasm {

/// A run of physical registers.
struct PhysRange {
  RegClass cls;
  int64_t index;
  int64_t size;
  bool operator==(const PhysRange &other) const {
    return cls == other.cls && index == other.index && size == other.size;
  }
  bool overlaps(const PhysRange &other) const {
    return cls == other.cls && index < other.index + other.size &&
           other.index < index + size;
  }
};

/// The registers `value` occupies: from a physical type, or from the
/// index/size of the precolored op defining a virtual-typed value.
std::optional<PhysRange> getPhysRange(mlir::Value value);

/// One unit of storage: a physical register (low bit set) or an SSA value.
using StorageKey = uintptr_t;

inline StorageKey getValueKey(mlir::Value value) {
  return reinterpret_cast<uintptr_t>(value.getAsOpaquePointer());
}
inline StorageKey getRegKey(RegClass cls, int64_t index) {
  return ((static_cast<uintptr_t>(cls) << 16 | static_cast<uintptr_t>(index))
          << 1) |
         1;
}
inline bool isRegKey(StorageKey key) { return key & 1; }

/// Hardware SGPR numbers of the implicit registers (VCC is s106-s107).
constexpr int64_t kVCCIndex = 106;
constexpr int64_t kM0Index = 124;
constexpr int64_t kEXECIndex = 126;

/// Appends the keys of the storage `value` occupies.
void getStorageKeys(mlir::Value value,
                    llvm::SmallVectorImpl<StorageKey> &keys);
/// Appends the keys of the implicit registers in `mask` (ImplicitReg bits;
/// SCC is not a register and is skipped).
void getImplicitKeys(unsigned mask, llvm::SmallVectorImpl<StorageKey> &keys);

/// Pre-order position of every op of a program (SPEC.md 14.1).
class ProgramOrder {
public:
  explicit ProgramOrder(mlir::Operation *program);
  unsigned get(mlir::Operation *op) const { return positions.lookup(op); }

private:
  llvm::DenseMap<mlir::Operation *, unsigned> positions;
};

/// Where the emitter copies instead of passing a value in place.
class CopyModel {
public:
  explicit CopyModel(const ProgramOrder &order) : order(order) {}
  /// Init `i` is copied into block argument `i` at the loop entry.
  bool isInitCopy(LoopOp loop, unsigned i);
  /// Iter_arg `i` is copied into block argument `i` at the latch.
  bool isLatchCopy(LoopOp loop, unsigned i);
  /// Yielded value `i` is copied into result `i` of the enclosing `if`.
  bool isYieldCopy(YieldOp yield, unsigned i);

private:
  void compute(LoopOp loop);
  const ProgramOrder &order;
  llvm::DenseMap<mlir::Operation *,
                 std::pair<llvm::SmallVector<bool>, llvm::SmallVector<bool>>>
      loops;
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_STORAGEKEYS_H
