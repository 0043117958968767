//===- Immediates.cpp - the constant an immediate operand holds -----------===//
//
// See Immediates.h.
//
//===----------------------------------------------------------------------===//

#include "ir/Immediates.h"

#include "ir/Dialect.h"

using namespace mlir;

std::optional<int64_t> waveasm::getImmediateValue(Value value) {
  if (!value)
    return std::nullopt;
  if (auto constant = value.getDefiningOp<ConstantOp>())
    return static_cast<int64_t>(constant.getValue());
  if (auto imm = dyn_cast<ImmType>(value.getType()))
    return imm.getValue();
  return std::nullopt;
}
