//===- Traits.h - native op traits of the WaveASM dialect -------*- C++ -*-===//
//
// Verifier traits shared by whole op families (ir/WaveASMOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_TRAITS_H
#define WAVEASM_IR_TRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace waveasm {

enum class BufferAccessKind { Load, Store };

namespace detail {
mlir::LogicalResult verifyInProgram(mlir::Operation *op);
mlir::LogicalResult verifyMFMAWidth(mlir::Operation *op, int64_t expected);
mlir::LogicalResult verifyBufferAccess(mlir::Operation *op,
                                       BufferAccessKind kind);
} // namespace detail

namespace OpTrait {

/// The op must be nested (at any depth) in a waveasm.program.
template <typename ConcreteType>
class InProgram : public mlir::OpTrait::TraitBase<ConcreteType, InProgram> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return detail::verifyInProgram(op);
  }
};

/// The accumulator (operand 2) and result of an MFMA hold `Regs` registers.
template <int64_t Regs> struct MFMAWidth {
  template <typename ConcreteType>
  class Impl : public mlir::OpTrait::TraitBase<ConcreteType, Impl> {
  public:
    static constexpr int64_t kAccRegs = Regs;
    static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
      return detail::verifyMFMAWidth(op, Regs);
    }
  };
};

/// Buffer instructions: 4-SGPR resource descriptor, 12-bit instOffset.
template <BufferAccessKind Kind> struct BufferAccess {
  template <typename ConcreteType>
  class Impl : public mlir::OpTrait::TraitBase<ConcreteType, Impl> {
  public:
    static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
      return detail::verifyBufferAccess(op, Kind);
    }
  };
};

} // namespace OpTrait
} // namespace waveasm

#endif // WAVEASM_IR_TRAITS_H
