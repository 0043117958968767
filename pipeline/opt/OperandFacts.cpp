//===- OperandFacts.cpp - what an operand holds ---------------------------===//

#include "pipeline/opt/OperandFacts.h"

#include "pipeline/Literals.h"

using namespace mlir;
using namespace waveasm;

std::optional<int64_t> waveasm::getConstantValue(Value value) {
  if (!value)
    return std::nullopt;
  if (auto mov = value.getDefiningOp<V_MOV_B32>())
    return getConstantValue(mov.getSrc());
  return getImmediateValue(value);
}

std::optional<int64_t> waveasm::getConstant32(Value value) {
  std::optional<int64_t> constant = getConstantValue(value);
  if (!constant || !fitsIn32Bits(*constant))
    return std::nullopt;
  return signExtend32(*constant);
}

Value waveasm::getImmediate(OpBuilder &builder, Location loc, int64_t value,
                            Value existing) {
  if (existing && isa<ImmType>(existing.getType()) &&
      getConstantValue(existing) == value)
    return existing;
  return ConstantOp::create(builder, loc,
                            ImmType::get(builder.getContext(), value),
                            builder.getI64IntegerAttr(value));
}

bool waveasm::isVGPR(Value value) {
  return getRegClass(value.getType()) == RegClass::VGPR;
}

bool waveasm::isSGPR(Value value) {
  return getRegClass(value.getType()) == RegClass::SGPR;
}

unsigned waveasm::countConstantBusReads(ArrayRef<Value> operands,
                                        ArrayRef<int64_t> newImmediates) {
  SmallVector<Value, 3> sgprs;
  SmallVector<int64_t, 3> literals;
  auto addImmediate = [&](int64_t constant) {
    if (!isInlineConstant(constant) && !llvm::is_contained(literals, constant))
      literals.push_back(constant);
  };
  for (Value operand : operands) {
    if (isSGPR(operand)) {
      if (!llvm::is_contained(sgprs, operand))
        sgprs.push_back(operand);
    } else if (isa<ImmType>(operand.getType())) {
      if (std::optional<int64_t> constant = getConstantValue(operand))
        addImmediate(*constant);
    }
  }
  for (int64_t constant : newImmediates)
    addImmediate(constant);
  return sgprs.size() + literals.size();
}

bool waveasm::canReplaceValue(Value value, Value replacement) {
  Type from = value.getType(), to = replacement.getType();
  if (from == to)
    return true;
  std::optional<RegClass> cls = getRegClass(from);
  if (!cls || cls != getRegClass(to) || getRegSize(from) != getRegSize(to))
    return false;
  return !(isVirtualReg(from) && isVirtualReg(to));
}

bool waveasm::hasPhysicalResults(Operation *op) {
  // isPhysicalReg's three types, inline (scoped CSE and the peephole ask
  // every candidate).
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    if (isa<PVRegType, PSRegType, PARegType>(op->getResult(i).getType()))
      return true;
  return false;
}
