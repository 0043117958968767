//===- RegisterTypes.cpp - queries over WaveASM register types ------------===//

#include "ir/RegisterTypes.h"
#include "ir/Dialect.h"

using namespace mlir;
using namespace waveasm;

namespace {
/// The six register types: VRegType, SRegType, ARegType (virtual), then
/// PVRegType, PSRegType, PARegType (physical), in RegClass order.
enum RegisterKind : int { kNotRegister = -1, kFirstPhysical = 3 };

/// The kind of `type`: one TypeID load and up to six compares with
/// constants, inline (these queries run on every value in every pass).
int getRegisterKind(Type type) {
  TypeID id = type.getTypeID();
  if (id == TypeID::get<VRegType>())
    return 0;
  if (id == TypeID::get<SRegType>())
    return 1;
  if (id == TypeID::get<ARegType>())
    return 2;
  if (id == TypeID::get<PVRegType>())
    return 3;
  if (id == TypeID::get<PSRegType>())
    return 4;
  if (id == TypeID::get<PARegType>())
    return 5;
  return kNotRegister;
}
} // namespace

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

RegTypeInfo waveasm::getRegTypeInfo(Type type) {
  auto virt = [](RegClass cls, auto t) {
    return RegTypeInfo{cls, t.getSize(), t.getAlignment(), std::nullopt};
  };
  auto phys = [](RegClass cls, auto t) {
    return RegTypeInfo{cls, t.getSize(), 1, t.getIndex()};
  };
  switch (getRegisterKind(type)) {
  case 0:
    return virt(RegClass::VGPR, cast<VRegType>(type));
  case 1:
    return virt(RegClass::SGPR, cast<SRegType>(type));
  case 2:
    return virt(RegClass::AGPR, cast<ARegType>(type));
  case 3:
    return phys(RegClass::VGPR, cast<PVRegType>(type));
  case 4:
    return phys(RegClass::SGPR, cast<PSRegType>(type));
  case 5:
    return phys(RegClass::AGPR, cast<PARegType>(type));
  }
  return RegTypeInfo();
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
