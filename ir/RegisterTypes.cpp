//===- RegisterTypes.cpp - queries over WaveASM register types ------------===//

#include "ir/RegisterTypes.h"
#include "ir/Dialect.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace waveasm;

std::optional<RegClass> waveasm::getRegClass(Type type) {
  return llvm::TypeSwitch<Type, std::optional<RegClass>>(type)
      .Case<VRegType, PVRegType>([](auto) { return RegClass::VGPR; })
      .Case<SRegType, PSRegType>([](auto) { return RegClass::SGPR; })
      .Case<ARegType, PARegType>([](auto) { return RegClass::AGPR; })
      .Default([](Type) { return std::nullopt; });
}

int64_t waveasm::getRegSize(Type type) {
  return llvm::TypeSwitch<Type, int64_t>(type)
      .Case<VRegType, SRegType, ARegType, PVRegType, PSRegType, PARegType>(
          [](auto t) { return t.getSize(); })
      .Default([](Type) { return 1; });
}

int64_t waveasm::getRegAlignment(Type type) {
  return llvm::TypeSwitch<Type, int64_t>(type)
      .Case<VRegType, SRegType, ARegType>(
          [](auto t) { return t.getAlignment(); })
      .Default([](Type) { return 1; });
}

std::optional<int64_t> waveasm::getPhysicalIndex(Type type) {
  return llvm::TypeSwitch<Type, std::optional<int64_t>>(type)
      .Case<PVRegType, PSRegType, PARegType>(
          [](auto t) { return t.getIndex(); })
      .Default([](Type) { return std::nullopt; });
}

bool waveasm::isVirtualReg(Type type) {
  return isa<VRegType, SRegType, ARegType>(type);
}

bool waveasm::isPhysicalReg(Type type) {
  return isa<PVRegType, PSRegType, PARegType>(type);
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
