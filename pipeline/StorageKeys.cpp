//===- StorageKeys.cpp - what a value occupies, for dataflow passes -------===//

#include "pipeline/StorageKeys.h"

using namespace mlir;
using namespace waveasm;

/// getPhysRange, given the facts of the value's type.
static std::optional<PhysRange> physRangeOf(Value value,
                                            const RegTypeInfo &type) {
  if (!type.cls)
    return std::nullopt;
  if (type.physicalIndex)
    return PhysRange{*type.cls, *type.physicalIndex, type.size};
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
  return PhysRange{*type.cls, *index, type.size};
}

std::optional<PhysRange> waveasm::getPhysRange(Value value) {
  return physRangeOf(value, getRegTypeInfo(value.getType()));
}

/// getStorageKeys (`valueKeyForNone`) and getRegisterStorageKeys.
static inline void appendStorageKeys(Value value,
                                     SmallVectorImpl<StorageKey> &keys,
                                     bool valueKeyForNone) {
  // The walkers ask this of every operand and result: physical types, the
  // common case, are recognized by TypeID before the general query.
  Type type = value.getType();
  TypeID id = type.getTypeID();
  // One resize per value: a push_back per register (its capacity check and
  // growth path inlined into every call) was half of this function.
  auto addRange = [&](RegClass cls, int64_t index, int64_t size) {
    size_t begin = keys.size();
    keys.resize_for_overwrite(begin + size);
    StorageKey *out = keys.data() + begin;
    for (int64_t i = 0; i < size; ++i)
      out[i] = getRegKey(cls, index + i);
  };
  if (id == TypeID::get<PVRegType>()) {
    auto reg = cast<PVRegType>(type);
    return addRange(RegClass::VGPR, reg.getIndex(), reg.getSize());
  }
  if (id == TypeID::get<PSRegType>()) {
    auto reg = cast<PSRegType>(type);
    return addRange(RegClass::SGPR, reg.getIndex(), reg.getSize());
  }
  if (id == TypeID::get<PARegType>()) {
    auto reg = cast<PARegType>(type);
    return addRange(RegClass::AGPR, reg.getIndex(), reg.getSize());
  }
  RegTypeInfo info = getRegTypeInfo(type);
  if (!info.cls) {
    // imm and scc: nothing a memory op or a hazard can involve, but keep the
    // value as its own key so a caller can still attach facts to it.
    if (valueKeyForNone)
      keys.push_back(getValueKey(value));
    return;
  }
  if (std::optional<PhysRange> range = physRangeOf(value, info))
    return addRange(range->cls, range->index, range->size);
  keys.push_back(getValueKey(value));
}

void waveasm::getStorageKeys(Value value, SmallVectorImpl<StorageKey> &keys) {
  appendStorageKeys(value, keys, /*valueKeyForNone=*/true);
}

void waveasm::getRegisterStorageKeys(Value value,
                                     SmallVectorImpl<StorageKey> &keys) {
  appendStorageKeys(value, keys, /*valueKeyForNone=*/false);
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

static void flattenInto(Block &block, std::vector<PreorderOp> &ops) {
  for (Operation &op : block) {
    uint32_t pos = ops.size();
    ops.push_back({&op, pos, pos + 1});
    for (unsigned r = 0, e = op.getNumRegions(); r < e; ++r) {
      if (r == 1)
        ops[pos].secondRegion = ops.size();
      Region &region = op.getRegion(r);
      if (!region.empty())
        flattenInto(region.front(), ops);
    }
    ops[pos].end = ops.size() - 1;
    if (op.getNumRegions() < 2)
      ops[pos].secondRegion = ops[pos].end + 1;
  }
}

std::vector<PreorderOp> waveasm::flattenPreorder(Block &block) {
  std::vector<PreorderOp> ops;
  flattenInto(block, ops);
  return ops;
}

/// True if `a` comes after `b` in pre-order; both are inside one program.
/// (Comparing ancestors is cheaper than numbering every op for the few
/// queries the copy model makes.)
static bool comesAfter(Operation *a, Operation *b) {
  if (a == b)
    return false;
  // Each op and its ancestors, innermost first.
  SmallVector<Operation *, 8> pathA, pathB;
  for (Operation *op = a; op; op = op->getParentOp())
    pathA.push_back(op);
  for (Operation *op = b; op; op = op->getParentOp())
    pathB.push_back(op);
  while (!pathA.empty() && !pathB.empty() && pathA.back() == pathB.back()) {
    pathA.pop_back();
    pathB.pop_back();
  }
  if (pathA.empty())
    return false; // `a` contains `b`
  if (pathB.empty())
    return true; // `b` contains `a`
  // The outermost ancestors that differ have the same parent op.
  Operation *x = pathA.back(), *y = pathB.back();
  Region *regionX = x->getParentRegion(), *regionY = y->getParentRegion();
  assert(regionX && regionY && "ops of different trees");
  if (regionX != regionY)
    return regionX->getRegionNumber() > regionY->getRegionNumber();
  if (x->getBlock() != y->getBlock())
    for (Block &block : *regionX) {
      if (&block == y->getBlock())
        return true;
      if (&block == x->getBlock())
        return false;
    }
  return y->isBeforeInBlock(x);
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

LoopCopies waveasm::getLoopCopies(LoopOp loop) {
  LoopCopies copies;
  auto &[inits, latches] = copies;
  Block &body = loop.getBodyBlock();
  unsigned n = body.getNumArguments();
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
      if (comesAfter(owner, loop))
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
        for (Operation *user : arg.getUsers())
          if (user != condition.getOperation() && comesAfter(user, def))
            copy = true;
      }
    }
    for (unsigned j = 0; j < i && !copy; ++j)
      if (condition.getIterArgs()[j] == yielded)
        copy = true;
    latches.push_back(copy);
  }
  return copies;
}

bool waveasm::isYieldCopy(YieldOp yield, unsigned i) {
  auto ifOp = dyn_cast<IfOp>(yield->getParentOp());
  if (!ifOp || i >= ifOp.getNumResults())
    return false;
  if (std::optional<bool> copy =
          physicalCopy(yield.getValues()[i], ifOp.getResult(i)))
    return *copy;
  // The allocator gives the results the then-yield's registers (14.4 step 8).
  return yield->getParentRegion() != &ifOp.getThenRegion();
}

void waveasm::forEachIfYield(
    IfOp ifOp, llvm::function_ref<void(unsigned, Value, Value, bool)> fn) {
  for (unsigned r = 0; r < 2; ++r) {
    Region &region = ifOp->getRegion(r);
    YieldOp yield = region.empty() ? YieldOp() : ifOp.getYield(region);
    if (!yield)
      continue;
    for (auto [i, value] : llvm::enumerate(yield.getValues())) {
      if (i >= ifOp.getNumResults())
        break;
      fn(r, value, ifOp.getResult(i), isYieldCopy(yield, i));
    }
  }
}
