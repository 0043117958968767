//===- RegisterTypes.cpp - queries over WaveASM register types ------------===//

#include "ir/RegisterTypes.h"
#include "ir/Dialect.h"
#include "ir/RegisterKind.h"

using namespace mlir;
using namespace waveasm;
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

Type waveasm::getPhysicalType(MLIRContext *ctx, RegClass cls, int64_t index,
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
