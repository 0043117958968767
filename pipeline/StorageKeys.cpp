//===- StorageKeys.cpp - what a value occupies, for dataflow passes -------===//

#include "pipeline/StorageKeys.h"

using namespace mlir;
using namespace waveasm;

std::optional<PhysRange> waveasm::getPhysRange(Value value) {
  Type type = value.getType();
  std::optional<RegClass> cls = getRegClass(type);
  if (!cls)
    return std::nullopt;
  if (std::optional<int64_t> index = getPhysicalIndex(type))
    return PhysRange{*cls, *index, getRegSize(type)};
  // A precolored value of virtual type sits where its op says; the emitter
  // reads the width from the type (SPEC.md 21 item 22).
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  std::optional<int64_t> index;
  if (auto op = dyn_cast<PrecoloredVRegOp>(def))
    index = op.getIndex();
  else if (auto op = dyn_cast<PrecoloredSRegOp>(def))
    index = op.getIndex();
  else if (auto op = dyn_cast<PrecoloredARegOp>(def))
    index = op.getIndex();
  if (!index)
    return std::nullopt;
  return PhysRange{*cls, *index, getRegSize(type)};
}

void waveasm::getStorageKeys(Value value, SmallVectorImpl<StorageKey> &keys) {
  if (!getRegClass(value.getType())) {
    // imm and scc: nothing a memory op or a hazard can involve, but keep the
    // value as its own key so a caller can still attach facts to it.
    keys.push_back(getValueKey(value));
    return;
  }
  if (std::optional<PhysRange> range = getPhysRange(value)) {
    for (int64_t i = 0; i < range->size; ++i)
      keys.push_back(getRegKey(range->cls, range->index + i));
    return;
  }
  keys.push_back(getValueKey(value));
}

void waveasm::getImplicitKeys(unsigned mask,
                              SmallVectorImpl<StorageKey> &keys) {
  if (mask & ImpVCC) {
    keys.push_back(getRegKey(RegClass::SGPR, kVCCIndex));
    keys.push_back(getRegKey(RegClass::SGPR, kVCCIndex + 1));
  }
  if (mask & ImpM0)
    keys.push_back(getRegKey(RegClass::SGPR, kM0Index));
  if (mask & ImpEXEC) {
    keys.push_back(getRegKey(RegClass::SGPR, kEXECIndex));
    keys.push_back(getRegKey(RegClass::SGPR, kEXECIndex + 1));
  }
}

ProgramOrder::ProgramOrder(Operation *program) {
  unsigned next = 0;
  program->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { positions[op] = next++; });
}

/// Both physical: copied when the registers differ. One physical, one not
/// (half-allocated IR): assume a copy. Both virtual: nullopt, the caller
/// applies the allocator's rules.
static std::optional<bool> physicalCopy(Value from, Value to) {
  std::optional<PhysRange> a = getPhysRange(from);
  std::optional<PhysRange> b = getPhysRange(to);
  if (a && b)
    return !(*a == *b);
  if (a || b)
    return true;
  return std::nullopt;
}

static bool isSubDwordBufferLoad(Operation *op) {
  return isa<BUFFER_LOAD_UBYTE, BUFFER_LOAD_SBYTE, BUFFER_LOAD_USHORT,
             BUFFER_LOAD_SSHORT>(op);
}

void CopyModel::compute(LoopOp loop) {
  auto &[inits, latches] = loops[loop];
  Block &body = loop.getBodyBlock();
  unsigned n = body.getNumArguments();
  unsigned loopPos = order.get(loop);
  OperandRange initArgs = loop.getInitArgs();
  for (unsigned i = 0; i < n; ++i) {
    Value init = initArgs[i];
    Value arg = body.getArgument(i);
    if (std::optional<bool> copy = physicalCopy(init, arg)) {
      inits.push_back(*copy);
      continue;
    }
    // The allocator ties an init to its block argument only when the init's
    // live range ends at the loop (SPEC.md 14.3); a duplicate init gets a
    // fresh register (14.4 step 2).
    bool copy = false;
    for (OpOperand &use : init.getUses()) {
      Operation *owner = use.getOwner();
      if (owner == loop.getOperation()) {
        if (use.getOperandNumber() != i)
          copy = true;
        continue;
      }
      if (order.get(owner) > loopPos)
        copy = true;
    }
    inits.push_back(copy);
  }

  ConditionOp condition = loop.getConditionOp();
  for (unsigned i = 0; i < n; ++i) {
    if (!condition || i >= condition.getIterArgs().size()) {
      latches.push_back(true);
      continue;
    }
    Value yielded = condition.getIterArgs()[i];
    Value arg = body.getArgument(i);
    if (std::optional<bool> copy = physicalCopy(yielded, arg)) {
      latches.push_back(*copy);
      continue;
    }
    // Allocator rules (SPEC.md 14.3): the iter_arg is tied to the block
    // argument unless it is another block argument (swap), is defined
    // outside the loop, comes from a sub-dword buffer load, is yielded twice,
    // or is defined before a later use of the block argument (WAR).
    bool copy = false;
    if (auto blockArg = dyn_cast<BlockArgument>(yielded)) {
      copy = blockArg.getOwner() != &body || blockArg.getArgNumber() != i;
    } else {
      Operation *def = yielded.getDefiningOp();
      if (!loop->isProperAncestor(def) || isSubDwordBufferLoad(def)) {
        copy = true;
      } else {
        unsigned defPos = order.get(def);
        for (Operation *user : arg.getUsers())
          if (user != condition.getOperation() && order.get(user) > defPos)
            copy = true;
      }
    }
    for (unsigned j = 0; j < i && !copy; ++j)
      if (condition.getIterArgs()[j] == yielded)
        copy = true;
    latches.push_back(copy);
  }
}

bool CopyModel::isInitCopy(LoopOp loop, unsigned i) {
  if (!loops.count(loop))
    compute(loop);
  return loops[loop].first[i];
}

bool CopyModel::isLatchCopy(LoopOp loop, unsigned i) {
  if (!loops.count(loop))
    compute(loop);
  return loops[loop].second[i];
}

bool CopyModel::isYieldCopy(YieldOp yield, unsigned i) {
  auto ifOp = dyn_cast<IfOp>(yield->getParentOp());
  if (!ifOp || i >= ifOp.getNumResults())
    return false;
  if (std::optional<bool> copy =
          physicalCopy(yield.getValues()[i], ifOp.getResult(i)))
    return *copy;
  // The allocator gives the results the then-yield's registers (14.4 step 8).
  return yield->getParentRegion() != &ifOp.getThenRegion();
}
