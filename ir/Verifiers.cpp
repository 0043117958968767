//===- Verifiers.cpp - family traits and pseudo-op verifiers --------------===//
//
// Messages follow upstream's texts (SPEC.md 9.2) where upstream has one.
//
//===----------------------------------------------------------------------===//

#include "ir/Dialect.h"

using namespace mlir;
using namespace waveasm;

LogicalResult waveasm::detail::verifyInProgram(Operation *op) {
  if (op->getParentOfType<ProgramOp>())
    return success();
  return op->emitOpError("must be nested inside a waveasm.program");
}

// Width 1 is accepted as upstream's "broadcast placeholder", and an immediate
// accumulator means "start from zero".
LogicalResult waveasm::detail::verifyMFMAWidth(Operation *op,
                                               int64_t expected) {
  Type accType = op->getOperand(2).getType();
  if (!isa<ImmType>(accType)) {
    int64_t accRegs = getRegSize(accType);
    if (accRegs != expected && accRegs != 1)
      return op->emitOpError("accumulator size mismatch: expected ")
             << expected << " registers but got " << accRegs << " for "
             << op->getName();
  }
  int64_t resultRegs = getRegSize(op->getResult(0).getType());
  if (resultRegs != expected)
    return op->emitOpError("result size mismatch: expected ")
           << expected << " registers but got " << resultRegs << " for "
           << op->getName();
  return success();
}

LogicalResult waveasm::detail::verifyBufferAccess(Operation *op,
                                                  BufferAccessKind kind) {
  bool isLoad = kind == BufferAccessKind::Load;
  Type srdType = op->getOperand(isLoad ? 0 : 1).getType();
  int64_t srdRegs = getRegSize(srdType);
  if (srdRegs != 4)
    return op->emitOpError("buffer ")
           << (isLoad ? "load" : "store") << " requires 4-SGPR SRD but got "
           << srdRegs << " SGPRs";
  if (auto offset = dyn_cast_or_null<IntegerAttr>(op->getAttr("instOffset"))) {
    int64_t value = offset.getInt();
    if (value < 0 || value > 4095)
      return op->emitOpError("instruction offset ")
             << value << " is out of valid range [0, 4095]";
  }
  return success();
}

/// SGPR vs not and AGPR vs not, as upstream compares register files.
static bool sameRegisterFile(Type lhs, Type rhs) {
  std::optional<RegClass> a = getRegClass(lhs), b = getRegClass(rhs);
  return (a == RegClass::SGPR) == (b == RegClass::SGPR) &&
         (a == RegClass::AGPR) == (b == RegClass::AGPR);
}

LogicalResult ExtractOp::verify() {
  int64_t index = getIndex();
  Type sourceType = getSource().getType(), resultType = getResult().getType();
  if (index < 0)
    return emitOpError("index must be non-negative, got ") << index;
  if (!sameRegisterFile(sourceType, resultType))
    return emitOpError("result register class must match source register "
                       "class: source ")
           << sourceType << ", result " << resultType;
  int64_t sourceRegs = getRegSize(sourceType);
  int64_t resultRegs = getRegSize(resultType);
  if (resultRegs > sourceRegs)
    return emitOpError("result width (")
           << resultRegs << ") exceeds source width (" << sourceRegs << ")";
  if (index + resultRegs > sourceRegs)
    return emitOpError("extract range [")
           << index << ", " << index + resultRegs << ") exceeds source width "
           << sourceRegs;
  return success();
}

LogicalResult InsertOp::verify() {
  int64_t index = getIndex();
  Type vectorType = getVector().getType(), valueType = getValue().getType();
  if (index < 0)
    return emitOpError("index must be non-negative, got ") << index;
  if (getResult().getType() != vectorType)
    return emitOpError("result type ")
           << getResult().getType() << " must match source type " << vectorType;
  if (!sameRegisterFile(vectorType, valueType))
    return emitOpError("inserted value register class must match source "
                       "register class: source ")
           << vectorType << ", value " << valueType;
  int64_t vectorRegs = getRegSize(vectorType);
  int64_t valueRegs = getRegSize(valueType);
  if (valueRegs > vectorRegs)
    return emitOpError("inserted value width (")
           << valueRegs << ") exceeds source width (" << vectorRegs << ")";
  if (index + valueRegs > vectorRegs)
    return emitOpError("insert range [")
           << index << ", " << index + valueRegs << ") exceeds source width "
           << vectorRegs;
  return success();
}
