//===- StorageKeys.h - storage a value occupies, for the passes -*- C++ -*-===//
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
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

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

/// One unit of storage: a physical register or an SSA value. A value's key
/// is its (8-aligned) impl pointer. A register's key carries its slot in
/// RegisterSlots' fixed layout (bit 1 set, the slot in bits 3 and up), or,
/// for an index past its class's slots, the class and index (bit 0 set).
using StorageKey = uintptr_t;

/// Dense slots for register keys, so that a StorageMap finds them in a
/// table instead of hashing: a fixed layout per register class (VGPRs,
/// SGPRs, AGPRs, one class after the other, each as many as a target has),
/// so getRegKey gives a register its slot directly. (A layout sized to the
/// program's registers needed every key noted and rewritten afterwards:
/// about a sixth of the wait and hazard passes' setup.)
class RegisterSlots {
public:
  static constexpr uint32_t kClassSlots[3] = {512, 128, 256};
  static constexpr uint32_t kClassBase[3] = {0, 512, 640};
  static constexpr uint32_t kNumSlots = 896;
  /// The slot of register `index` of class `cls`, or -1 outside the layout.
  static int32_t slotFor(RegClass cls, int64_t index) {
    unsigned c = static_cast<unsigned>(cls);
    if (c >= 3 || index < 0 || index >= int64_t(kClassSlots[c]))
      return -1;
    return static_cast<int32_t>(kClassBase[c] + index);
  }
  /// The slot a key carries, or -1.
  static int32_t slotOf(StorageKey key) {
    return (key & 7) == 2 ? static_cast<int32_t>(key >> 3) : -1;
  }
  uint32_t size() const { return kNumSlots; }
};

inline StorageKey getValueKey(mlir::Value value) {
  return reinterpret_cast<uintptr_t>(value.getAsOpaquePointer());
}
inline StorageKey getRegKey(RegClass cls, int64_t index) {
  int32_t slot = RegisterSlots::slotFor(cls, index);
  if (slot >= 0)
    return static_cast<StorageKey>(slot) << 3 | 2;
  return ((static_cast<uintptr_t>(cls) << 16 | static_cast<uintptr_t>(index))
          << 1) |
         1;
}
inline bool isRegKey(StorageKey key) { return key & 3; }

/// DenseMap traits for storage keys. DenseMapInfo's hash of an integer
/// (key * 37) sends the keys of v5, s5 and a5 to one bucket and uses an
/// eighth of the buckets for (8-aligned) value keys: probe chains grow
/// long. A multiplicative hash keeps the top bits of the product.
struct StorageKeyInfo {
  static StorageKey getEmptyKey() { return ~StorageKey(0); }
  static StorageKey getTombstoneKey() { return ~StorageKey(0) - 1; }
  static unsigned getHashValue(StorageKey key) {
    return static_cast<unsigned>((uint64_t(key) * 0x9E3779B97F4A7C15ull) >> 32);
  }
  static bool isEqual(StorageKey a, StorageKey b) { return a == b; }
};

/// A map from storage keys to T for the states of the dataflow walkers, which
/// look keys up on every operand of every op and copy states at every loop
/// and if. Slotted register keys (all keys of allocated code but immediates
/// and SCC) index a small table of positions in a vector of entries; other
/// keys are hashed. A copy costs the table plus the entries. Iteration order
/// is unspecified, as a DenseMap's.
template <typename T> class StorageMap {
public:
  explicit StorageMap(const RegisterSlots &slots) : position(slots.size(), 0) {}
  /// A copy has room for half as many entries again: the walkers copy a
  /// state and go on adding to it, and a vector copied to its size moves
  /// every entry on the first addition.
  StorageMap(const StorageMap &other)
      : position(other.position), hashed(other.hashed) {
    entries.reserve(other.entries.size() + other.entries.size() / 2 + 4);
    entries.insert(entries.end(), other.entries.begin(), other.entries.end());
  }
  StorageMap(StorageMap &&) = default;
  StorageMap &operator=(const StorageMap &) = default;
  StorageMap &operator=(StorageMap &&) = default;
  /// Room for `n` entries.
  void reserve(size_t n) { entries.reserve(n); }

  const T *lookup(StorageKey key) const {
    int32_t slot = RegisterSlots::slotOf(key);
    if (slot >= 0) {
      uint16_t pos = position[slot];
      return pos ? &entries[pos - 1].second : nullptr;
    }
    auto it = hashed.find(key);
    return it == hashed.end() ? nullptr : &it->second;
  }
  T *lookup(StorageKey key) {
    return const_cast<T *>(std::as_const(*this).lookup(key));
  }
  /// The value of `key`, default-constructed if absent.
  T &operator[](StorageKey key) {
    int32_t slot = RegisterSlots::slotOf(key);
    if (slot < 0)
      return hashed[key];
    uint16_t &pos = position[slot];
    if (!pos) {
      entries.emplace_back(key, T());
      pos = static_cast<uint16_t>(entries.size());
    }
    return entries[pos - 1].second;
  }
  void erase(StorageKey key) {
    int32_t slot = RegisterSlots::slotOf(key);
    if (slot < 0) {
      hashed.erase(key);
      return;
    }
    uint16_t pos = position[slot];
    if (!pos)
      return;
    // Move the last entry into the hole.
    if (pos != entries.size()) {
      entries[pos - 1] = std::move(entries.back());
      position[RegisterSlots::slotOf(entries[pos - 1].first)] = pos;
    }
    entries.pop_back();
    position[slot] = 0;
  }
  size_t size() const { return entries.size() + hashed.size(); }

  /// Calls `fn(key, value)` for every entry; `fn` must not add or erase.
  template <typename Fn> void forEach(Fn &&fn) const {
    for (const auto &[key, value] : entries)
      fn(key, value);
    for (const auto &[key, value] : hashed)
      fn(key, value);
  }
  template <typename Fn> void forEach(Fn &&fn) {
    for (auto &[key, value] : entries)
      fn(key, value);
    for (auto &[key, value] : hashed)
      fn(key, value);
  }

  bool operator==(const StorageMap &other) const {
    if (size() != other.size())
      return false;
    for (const auto &[key, value] : entries) {
      const T *theirs = other.lookup(key);
      if (!theirs || !(*theirs == value))
        return false;
    }
    return hashed == other.hashed;
  }

private:
  /// Per slot: 1 + the index of its entry, 0 if absent (at most kNumSlots
  /// entries, so 16 bits suffice).
  std::vector<uint16_t> position;
  std::vector<std::pair<StorageKey, T>> entries;
  llvm::DenseMap<StorageKey, T, StorageKeyInfo> hashed;
};

/// Hardware SGPR numbers of the implicit registers (VCC is s106-s107).
constexpr int64_t kVCCIndex = 106;
constexpr int64_t kM0Index = 124;
constexpr int64_t kEXECIndex = 126;

/// Appends the keys of the storage `value` occupies.
void getStorageKeys(mlir::Value value, llvm::SmallVectorImpl<StorageKey> &keys);
/// getStorageKeys for a value of a register class; nothing for one of none
/// (an immediate, SCC). No memory op loads such a value and no hazard
/// producer's record lands on one (only SALU ops define SCC, only constants
/// immediates), so the walkers' reads of them find nothing: most operands of
/// allocated code that are not registers are immediates, whose value keys
/// each cost a hashed lookup per walk.
void getRegisterStorageKeys(mlir::Value value,
                            llvm::SmallVectorImpl<StorageKey> &keys);
/// Appends the keys of the implicit registers in `mask` (ImplicitReg bits;
/// SCC is not a register and is skipped).
void getImplicitKeys(unsigned mask, llvm::SmallVectorImpl<StorageKey> &keys);

/// isa<OpTys...>(op) for an op whose TypeID is `id`. The walkers classify
/// every op with a chain of such tests; isa reads the op's registered name
/// again for every alternative.
template <typename... OpTys> bool isOpType(mlir::TypeID id) {
  return ((id == mlir::TypeID::get<OpTys>()) || ...);
}

/// The op of a program at one pre-order position (SPEC.md 14.1: an op comes
/// before the ops of its regions), with what a walker needs to step over or
/// into its regions.
struct PreorderOp {
  mlir::Operation *op;
  /// Position of the last op nested in its regions (its own if none).
  uint32_t end;
  /// Position of the first op of its second region (`end + 1` if it has
  /// none or that region is empty): region 0 is [pos + 1, secondRegion - 1],
  /// region 1 is [secondRegion, end].
  uint32_t secondRegion;
};

/// The ops of `block` and of the first block of every nested region (the
/// only block of verified WaveASM regions), in pre-order: the dataflow
/// walkers step through positions instead of hashing ops.
std::vector<PreorderOp> flattenPreorder(mlir::Block &block);

/// A run of storage keys in a KeyArena.
struct KeySpan {
  uint32_t begin = 0;
  uint32_t size = 0;
};

/// Storage keys of many values in one vector, so that a walker computes
/// them once per value use instead of on every visit.
class KeyArena {
public:
  /// Room for `n` keys (a walker's estimate: growing the vector copies
  /// every key so far).
  void reserve(size_t n) { keys.reserve(n); }
  KeySpan add(mlir::Value value) { return addAll(llvm::ArrayRef(value)); }
  /// The keys of every value of `values` (a range of Values),
  /// concatenated.
  template <typename Range> KeySpan addAll(Range &&values) {
    return append(
        values, [](mlir::Value value, llvm::SmallVectorImpl<StorageKey> &out) {
          getStorageKeys(value, out);
        });
  }
  /// add and addAll through getRegisterStorageKeys.
  KeySpan addRegisters(mlir::Value value) {
    return addAllRegisters(llvm::ArrayRef(value));
  }
  template <typename Range> KeySpan addAllRegisters(Range &&values) {
    return append(
        values, [](mlir::Value value, llvm::SmallVectorImpl<StorageKey> &out) {
          getRegisterStorageKeys(value, out);
        });
  }
  KeySpan addKeys(llvm::ArrayRef<StorageKey> more) {
    uint32_t begin = keys.size();
    keys.append(more.begin(), more.end());
    return {begin, static_cast<uint32_t>(more.size())};
  }
  llvm::ArrayRef<StorageKey> get(KeySpan span) const {
    return llvm::ArrayRef(keys).slice(span.begin, span.size);
  }
  /// For a pack, extract or insert (its results alias its operands'
  /// registers): the span of each result whose keys are not all physical
  /// registers, appended to `spans`.
  void addAliasResultSpans(mlir::Operation *op, std::vector<KeySpan> &spans) {
    for (mlir::Value result : op->getResults()) {
      KeySpan to = add(result);
      if (!llvm::all_of(get(to), isRegKey))
        spans.push_back(to);
    }
  }

private:
  /// Appends `collect(value, keys)` for every value; the span they fill.
  template <typename Range, typename Collect>
  KeySpan append(Range &&values, Collect collect) {
    uint32_t begin = keys.size();
    for (mlir::Value value : values)
      collect(value, keys);
    return {begin, static_cast<uint32_t>(keys.size() - begin)};
  }

  llvm::SmallVector<StorageKey, 0> keys;
};

/// Where the emitter copies a loop's values instead of passing them in
/// place (SPEC.md 14.3, 14.4): `inits[i]`, init `i` is copied into block
/// argument `i` at the loop entry; `latches[i]`, iter_arg `i` is copied
/// into block argument `i` at the latch.
struct LoopCopies {
  llvm::SmallVector<bool> inits;
  llvm::SmallVector<bool> latches;
};
LoopCopies getLoopCopies(LoopOp loop);

/// Yielded value `i` is copied into result `i` of the enclosing `if`.
bool isYieldCopy(YieldOp yield, unsigned i);

/// Calls `fn(region, yielded, result, copy)` for every value a yield of
/// `ifOp` (then: region 0, else: 1) passes to a result of the if, with
/// isYieldCopy's answer.
void forEachIfYield(
    IfOp ifOp,
    llvm::function_ref<void(unsigned, mlir::Value, mlir::Value, bool)> fn);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_STORAGEKEYS_H
