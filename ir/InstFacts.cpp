//===- InstFacts.cpp - InstInfoOpInterface facts, read once per op class --===//

#include "ir/InstFacts.h"

#include "ir/Dialect.h"
#include "ir/OpClassTable.h"

using namespace mlir;
using namespace waveasm;

InstFacts waveasm::getInstFacts(Operation *op) {
  InstFacts facts;
  auto info = dyn_cast<InstInfoOpInterface>(op);
  if (!info)
    return facts;
  facts.hasInfo = true;
  facts.unit = info.getExecUnit();
  facts.latencyClass = info.getLatencyClass();
  facts.waitCounter = info.getWaitCounter();
  facts.dstConstraint = info.getDstConstraint();
  facts.memReads = static_cast<uint8_t>(info.getMemReads());
  facts.memWrites = static_cast<uint8_t>(info.getMemWrites());
  facts.implicitUses = static_cast<uint8_t>(info.getImplicitUses());
  facts.implicitDefs = static_cast<uint8_t>(info.getImplicitDefs());
  facts.tiedOperand = static_cast<int8_t>(info.getTiedOperandIndex());
  facts.dataDwords = static_cast<uint8_t>(info.getDataDwords());
  facts.pinned = info.isPinned();
  facts.nonEmitting = info.isNonEmitting();
  return facts;
}

namespace {
/// This thread's facts per op class.
thread_local OpClassTable<InstFacts, 512> table;
} // namespace

InstFacts waveasm::lookupInstFacts(Operation *op) {
  // An unregistered op's TypeID is void's (no class to cache for).
  TypeID id = op->getName().getTypeID();
  if (LLVM_UNLIKELY(id == TypeID::get<void>()))
    return getInstFacts(op);
  return table.get(op, getInstFacts);
}
