//===- RegisterTypes.h - queries over WaveASM register types ----*- C++ -*-===//
//
// Register class, width, physical index and structural compatibility of the
// WaveASM types (SPEC.md 2.4), in one place for verifiers and analyses.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_REGISTERTYPES_H
#define WAVEASM_IR_REGISTERTYPES_H

#include "mlir/IR/Types.h"
#include <optional>

namespace waveasm {

enum class RegClass : uint8_t { VGPR, SGPR, AGPR };

/// VGPR/SGPR/AGPR for register types; nullopt for imm, scc and foreign types.
std::optional<RegClass> getRegClass(mlir::Type type);
/// Registers covered by the type (1 for imm and scc).
int64_t getRegSize(mlir::Type type);
/// Alignment of a virtual register type (1 for everything else).
int64_t getRegAlignment(mlir::Type type);
/// First register of a physical type.
std::optional<int64_t> getPhysicalIndex(mlir::Type type);
bool isVirtualReg(mlir::Type type);

/// getRegClass, getRegSize, getRegAlignment and getPhysicalIndex of one
/// type from one type switch, for code that asks several of every value.
struct RegTypeInfo {
  std::optional<RegClass> cls;
  int64_t size = 1;
  int64_t alignment = 1;
  std::optional<int64_t> physicalIndex;
  bool isVirtual() const { return cls && !physicalIndex; }
};
RegTypeInfo getRegTypeInfo(mlir::Type type);
bool isPhysicalReg(mlir::Type type);
inline bool isRegister(mlir::Type type) { return getRegClass(type).has_value(); }
/// SPEC.md 2.4: identical; same family and size; or virtual vs physical of
/// the same class.
bool areTypesCompatible(mlir::Type lhs, mlir::Type rhs);
/// Physical type of `cls` at `index` covering `size` registers.
mlir::Type getPhysicalType(mlir::MLIRContext *ctx, RegClass cls, int64_t index,
                           int64_t size);
/// "v", "s" or "a".
llvm::StringRef getRegPrefix(RegClass cls);
llvm::StringRef getRegClassName(RegClass cls); // "VGPR", ...

} // namespace waveasm

#endif // WAVEASM_IR_REGISTERTYPES_H
