//===- InstFacts.cpp - InstInfoOpInterface facts, read once per op class --===//

#include "ir/InstFacts.h"

#include "ir/Dialect.h"

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
/// A direct-mapped table per thread, keyed by the op class's TypeID (which,
/// unlike an OperationName, outlives the context that registered it). The
/// TypeIDs of a dialect's ops are consecutive statics: few collide, and a
/// collision only costs a recomputation.
struct Entry {
  const void *typeID = nullptr;
  InstFacts facts;
};
constexpr unsigned kSlots = 512;
thread_local Entry table[kSlots];

/// The miss: out of line, so the hit path saves no registers.
LLVM_ATTRIBUTE_NOINLINE InstFacts fillEntry(Operation *op, Entry &entry,
                                            const void *typeID) {
  entry.facts = getInstFacts(op);
  entry.typeID = typeID;
  return entry.facts;
}
} // namespace

InstFacts waveasm::lookupInstFacts(Operation *op) {
  // An unregistered op's TypeID is void's (no class to cache for).
  TypeID id = op->getName().getTypeID();
  if (LLVM_UNLIKELY(id == TypeID::get<void>()))
    return getInstFacts(op);
  const void *typeID = id.getAsOpaquePointer();
  Entry &entry = table[(reinterpret_cast<uintptr_t>(typeID) >> 3) % kSlots];
  if (LLVM_LIKELY(entry.typeID == typeID))
    return entry.facts;
  return fillEntry(op, entry, typeID);
}
