//===- RegisterKind.h - which register type a type is -----------*- C++ -*-===//
//
// Internal to ir/: the dispatch shared by RegisterTypes.cpp's queries and
// getRegTypeInfo (defined in Types.cpp, beside the types' accessors, so that
// they inline into it: it runs on every value in every pass), and the
// count of destroyed dialects that RegisterTypes.cpp's type cache checks.
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

/// How many WaveASM dialects (so contexts with WaveASM types) this process
/// has destroyed. A cache of types keyed by an MLIRContext pointer empties
/// itself when this moved: a new context may reuse a destroyed one's
/// address, and the cached types died with the old one. Advanced in
/// Types.cpp, where the dialect's private state is defined.
uint64_t getDestroyedDialectCount();

} // namespace waveasm::detail

#endif // WAVEASM_IR_REGISTERKIND_H
