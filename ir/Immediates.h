//===- Immediates.h - the constant an immediate operand holds ---*- C++ -*-===//
//
// One answer to "which constant is this operand?" for every layer: a
// `waveasm.constant`'s `value` attribute, else the `!waveasm.imm<N>` type's
// N. SPEC.md 5: where the two disagree the attribute wins (the verifier does
// not tie them, and the emitter prints the attribute).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_IMMEDIATES_H
#define WAVEASM_IR_IMMEDIATES_H

#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>

namespace waveasm {

/// The constant `value` holds as an immediate; nullopt for a register or a
/// null value.
std::optional<int64_t> getImmediateValue(mlir::Value value);

} // namespace waveasm

#endif // WAVEASM_IR_IMMEDIATES_H
