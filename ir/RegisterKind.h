//===- RegisterKind.h - which register type a type is -----------*- C++ -*-===//
//
// Internal to ir/: the dispatch shared by RegisterTypes.cpp's queries and
// getRegTypeInfo (defined in Types.cpp, beside the types' accessors, so that
// they inline into it: it runs on every value in every pass).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_REGISTERKIND_H
#define WAVEASM_IR_REGISTERKIND_H

#include "ir/Dialect.h"

namespace waveasm::detail {

/// The six register types: VRegType, SRegType, ARegType (virtual), then
/// PVRegType, PSRegType, PARegType (physical), in RegClass order.
enum RegisterKind : int { kNotRegister = -1, kFirstPhysical = 3 };

/// The kind of `type`: one TypeID load and up to six compares with
/// constants, inline (these queries run on every value in every pass).
inline int getRegisterKind(mlir::Type type) {
  mlir::TypeID id = type.getTypeID();
  if (id == mlir::TypeID::get<VRegType>())
    return 0;
  if (id == mlir::TypeID::get<SRegType>())
    return 1;
  if (id == mlir::TypeID::get<ARegType>())
    return 2;
  if (id == mlir::TypeID::get<PVRegType>())
    return 3;
  if (id == mlir::TypeID::get<PSRegType>())
    return 4;
  if (id == mlir::TypeID::get<PARegType>())
    return 5;
  return kNotRegister;
}

} // namespace waveasm::detail

#endif // WAVEASM_IR_REGISTERKIND_H
