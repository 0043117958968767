//===- RegisterTypes.cpp - queries over WaveASM register types ------------===//

#include "ir/RegisterTypes.h"
#include "ir/Dialect.h"
#include "ir/RegisterKind.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace waveasm;
using waveasm::detail::getDestroyedDialectCount;
using waveasm::detail::getRegisterKind;
using waveasm::detail::kFirstPhysical;
using waveasm::detail::kNotRegister;

std::optional<RegClass> waveasm::getRegClass(Type type) {
  int kind = getRegisterKind(type);
  if (kind == kNotRegister)
    return std::nullopt;
  return static_cast<RegClass>(kind % kFirstPhysical);
}

int64_t waveasm::getRegSize(Type type) { return getRegTypeInfo(type).size; }

int64_t waveasm::getRegAlignment(Type type) {
  return getRegTypeInfo(type).alignment;
}

std::optional<int64_t> waveasm::getPhysicalIndex(Type type) {
  return getRegTypeInfo(type).physicalIndex;
}

bool waveasm::isVirtualReg(Type type) {
  int kind = getRegisterKind(type);
  return kind != kNotRegister && kind < kFirstPhysical;
}

bool waveasm::isPhysicalReg(Type type) {
  return getRegisterKind(type) >= kFirstPhysical;
}

bool waveasm::areTypesCompatible(Type lhs, Type rhs) {
  if (lhs == rhs)
    return true;
  std::optional<RegClass> lhsClass = getRegClass(lhs);
  if (!lhsClass || lhsClass != getRegClass(rhs))
    return false;
  // Same family (both virtual or both physical): sizes must agree.
  if (isVirtualReg(lhs) == isVirtualReg(rhs))
    return lhs.getTypeID() == rhs.getTypeID() &&
           getRegSize(lhs) == getRegSize(rhs);
  // Virtual vs physical of one class: half-allocated IR.
  return true;
}

static Type buildPhysicalType(MLIRContext *ctx, RegClass cls, int64_t index,
                              int64_t size) {
  switch (cls) {
  case RegClass::VGPR:
    return PVRegType::get(ctx, index, size);
  case RegClass::SGPR:
    return PSRegType::get(ctx, index, size);
  case RegClass::AGPR:
    return PARegType::get(ctx, index, size);
  }
  llvm_unreachable("unknown register class");
}

namespace {
/// (class, index, size) in one word: class in bits 48-49, size in 32-47,
/// index in 0-31. The top bits stay clear, so no key is DenseMap's empty
/// or tombstone key.
struct PhysicalTypeKeyInfo {
  static uint64_t getEmptyKey() { return ~0ull; }
  static uint64_t getTombstoneKey() { return ~0ull - 1; }
  // DenseMapInfo<uint64_t> keeps the low 32 bits only (index * 37): every
  // size and class of one index would collide.
  static unsigned getHashValue(uint64_t key) {
    return static_cast<unsigned>((key * 0x9E3779B97F4A7C15ull) >> 32);
  }
  static bool isEqual(uint64_t a, uint64_t b) { return a == b; }
};

/// This thread's physical types of one context. MLIR's uniquing costs
/// about 500 instructions per get (hash, lock, compare); allocation and
/// VGPR compaction ask for about 150 per compile-and-measure of a 300-op
/// loop, mostly the same few types. Per thread: the language server
/// compiles on two threads with one context, and no lock is needed.
struct PhysicalTypeCache {
  MLIRContext *context = nullptr;
  /// getDestroyedDialectCount() when filled: a destroyed context's address
  /// may come back as a new context's, whose types these are not.
  uint64_t destroyedDialects = 0;
  llvm::DenseMap<uint64_t, Type, PhysicalTypeKeyInfo> types;
};
} // namespace

Type waveasm::getPhysicalType(MLIRContext *ctx, RegClass cls, int64_t index,
                              int64_t size) {
  if (index < 0 || index > UINT32_MAX || size < 0 || size > UINT16_MAX)
    return buildPhysicalType(ctx, cls, index, size); // no key: uncached
  uint64_t key = (static_cast<uint64_t>(cls) << 48) |
                 (static_cast<uint64_t>(size) << 32) |
                 static_cast<uint64_t>(index);
  thread_local PhysicalTypeCache cache;
  uint64_t destroyed = getDestroyedDialectCount();
  if (cache.context != ctx || cache.destroyedDialects != destroyed) {
    cache.types.clear();
    cache.context = ctx;
    cache.destroyedDialects = destroyed;
  }
  auto [it, inserted] = cache.types.try_emplace(key, Type());
  if (inserted)
    it->second = buildPhysicalType(ctx, cls, index, size);
  return it->second;
}

StringRef waveasm::getRegPrefix(RegClass cls) {
  switch (cls) {
  case RegClass::VGPR:
    return "v";
  case RegClass::SGPR:
    return "s";
  case RegClass::AGPR:
    return "a";
  }
  llvm_unreachable("unknown register class");
}

StringRef waveasm::getRegClassName(RegClass cls) {
  switch (cls) {
  case RegClass::VGPR:
    return "VGPR";
  case RegClass::SGPR:
    return "SGPR";
  case RegClass::AGPR:
    return "AGPR";
  }
  llvm_unreachable("unknown register class");
}
