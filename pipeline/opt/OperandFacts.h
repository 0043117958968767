//===- OperandFacts.h - what an operand holds -------------------*- C++ -*-===//
//
// The questions every WaveASM-to-WaveASM optimization asks of an operand:
// which constant it holds (SPEC.md 18's getConstantValue), which register
// file it lives in, how many constant-bus slots a VALU instruction reading it
// spends, and whether one value may stand in for another.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_OPERANDFACTS_H
#define WAVEASM_PIPELINE_OPT_OPERANDFACTS_H

#include "ir/Dialect.h"
#include "ir/Immediates.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace waveasm {

/// SPEC.md 18: the constant `value` holds -- a `waveasm.constant` (its
/// `value` attribute), a `v_mov_b32` of a constant, or any value of type
/// `!waveasm.imm<N>` (N).
std::optional<int64_t> getConstantValue(mlir::Value value);

/// getConstantValue as the 32 bits an instruction operand holds,
/// sign-extended; nullopt when there is no constant or it does not fit in
/// 32 bits (the emitter rejects such operands, so nothing folds them).
std::optional<int64_t> getConstant32(mlir::Value value);

/// The low 32 bits of `bits`, sign-extended: the canonical spelling of a
/// 32-bit result (0xFFFFFFF0 is -16, an inline constant).
inline int64_t signExtend32(uint64_t bits) {
  return static_cast<int32_t>(static_cast<uint32_t>(bits));
}

/// An `!waveasm.imm` value holding `value`: `existing` when it already is
/// one with that value, else a new `waveasm.constant` at the insertion point.
mlir::Value getImmediate(mlir::OpBuilder &builder, mlir::Location loc,
                         int64_t value, mlir::Value existing = {});

bool isVGPR(mlir::Value value);
bool isSGPR(mlir::Value value);

/// Constant-bus slots a GFX9 VALU instruction reading `operands` (and the
/// immediates `newImmediates`, not yet materialized) spends: one per distinct
/// SGPR value and one per distinct literal (an immediate outside -16..64).
/// Above one, the emitter must stage operands through v15 (SPEC.md 17.6),
/// so a rewrite producing that saves nothing.
unsigned countConstantBusReads(llvm::ArrayRef<mlir::Value> operands,
                               llvm::ArrayRef<int64_t> newImmediates = {});

/// Whether `replacement` may take the place of `value` in every user: the
/// same register class and size, and the identical type when both are
/// virtual (loops demand exact types before allocation, SPEC.md 4.2).
bool canReplaceValue(mlir::Value value, mlir::Value replacement);

/// True when a result of `op` is a physical register: the IR is allocated,
/// and replacing a value would read a register that may have been reused
/// meanwhile. The optimizations run before allocation and leave such ops
/// alone.
bool hasPhysicalResults(mlir::Operation *op);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_OPERANDFACTS_H
