//===- DescriptorVersioning.cpp - a loop versioned on descriptors apart ---===//
//
// See DescriptorVersioning.h.
//
//===----------------------------------------------------------------------===//

#include "pipeline/opt/DescriptorVersioning.h"

#include "analysis/CycleModel.h"
#include "analysis/DescriptorsApart.h"
#include "analysis/ExitCompare.h"
#include "analysis/LoadsBehindStores.h"
#include "analysis/MemoryAlias.h"
#include "analysis/PointerRoots.h"
#include "analysis/TripCount.h"
#include "ir/Immediates.h"
#include "ir/RegisterTypes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace mlir;
using namespace waveasm;

namespace {

constexpr uint64_t kWord = 0xffffffffu;

/// An upper bound of the 32-bit scalar `value` (an immediate, or an SGPR
/// computed by moves, shifts, adds and products by constants from an outer
/// loop's induction variable with a trip count the IR gives); nullopt when
/// none is known or it would wrap.
std::optional<uint64_t> scalarBound(Value value, unsigned depth = 0) {
  if (std::optional<int64_t> c = getImmediateValue(value))
    return uint64_t(uint32_t(*c));
  if (depth > 8)
    return std::nullopt;
  auto within = [](uint64_t v) -> std::optional<uint64_t> {
    return v <= kWord ? std::optional<uint64_t>(v) : std::nullopt;
  };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<LoopOp>(arg.getOwner()->getParentOp());
    if (!loop)
      return std::nullopt;
    std::optional<ExitCompare> exit = getExitCompare(loop);
    TripCount trips = getTripCount(loop);
    if (!exit || trips.source != TripCountSource::Inferred || trips.count < 1)
      return std::nullopt;
    for (const ExitOperand &side : {exit->lhs, exit->rhs}) {
      if (side.arg != int(arg.getArgNumber()))
        continue;
      // Iterations 0 .. count-1 of init + i * step, none wrapping.
      uint64_t last =
          uint64_t(side.init) + uint64_t(trips.count - 1) * uint64_t(side.step);
      if (side.step > (kWord >> 1))
        return std::nullopt; // a step down: values wrap below init
      return within(std::max<uint64_t>(side.init, last));
    }
    return std::nullopt;
  }
  Operation *def = value.getDefiningOp();
  if (!def || value != def->getResult(0))
    return std::nullopt;
  auto operand = [&](unsigned i) {
    return scalarBound(def->getOperand(i), depth + 1);
  };
  if (isa<S_MOV_B32>(def))
    return operand(0);
  if (isa<S_LSHL_B32>(def)) {
    std::optional<int64_t> shift = getImmediateValue(def->getOperand(1));
    std::optional<uint64_t> x = operand(0);
    if (!shift || *shift < 0 || *shift > 31 || !x)
      return std::nullopt;
    return within(*x << *shift);
  }
  if (isa<S_ADD_U32>(def)) {
    std::optional<uint64_t> x = operand(0), y = operand(1);
    return x && y ? within(*x + *y) : std::nullopt;
  }
  if (isa<S_MUL_I32>(def)) {
    std::optional<uint64_t> x = operand(0), y = operand(1);
    return x && y && (*x == 0 || *y <= kWord / *x) ? within(*x * *y)
                                                   : std::nullopt;
  }
  return std::nullopt;
}

std::string name(Value descriptor) {
  int64_t first = *getPrecoloredDescriptor(descriptor);
  return llvm::formatv("s[{0}:{1}]", first, first + 3).str();
}

} // namespace

std::string DescriptorVersioning::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto [k, pair] : llvm::enumerate(pairs)) {
    bool sameStore = k > 0 && pairs[k - 1].first == pair.first;
    if (k > 0)
      os << (sameStore
                 ? (k + 1 == pairs.size() || pairs[k + 1].first != pair.first
                        ? " and "
                        : ", ")
                 : "; ");
    if (!sameStore)
      os << name(descriptors[pair.first]) << " apart from ";
    os << name(descriptors[pair.second]);
  }
  return text;
}

DescriptorVersioning waveasm::planDescriptorVersioning(LoopOp loop) {
  DescriptorVersioning plan;
  // A copy the check made already (either branch): versioned once.
  for (Operation *parent = loop->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<IfOp>(parent) && parent->hasAttr(kDescriptorsApartAttr)) {
      plan.failure = "it is a copy of a loop versioned already";
      return plan;
    }
  // What makes it worth a check: a load of the body that only precolored
  // descriptors keep behind a store (the lint's finding).
  auto program = loop->getParentOfType<ProgramOp>();
  for (const LoadBehindStore &found : findLoadsBehindStores(program))
    if (found.load->getBlock() == &loop.getBodyBlock() &&
        getPrecoloredDescriptor(getAddressPointer(found.load)) &&
        getPrecoloredDescriptor(getAddressPointer(found.store)))
      ++plan.loadsBehind;
  if (!plan.loadsBehind) {
    plan.failure = "no load of its body stays behind a store only because "
                   "their descriptors are precolored";
    return plan;
  }
  // The loop's global accesses through precolored descriptors.
  SmallVector<std::pair<Operation *, Value>> accesses;
  loop->walk([&](Operation *op) {
    if (op->getNumRegions() ||
        !((memReads(op) | memWrites(op)) & (MemGlobal | MemScalar)))
      return;
    Value pointer = getAddressPointer(op);
    if (getPrecoloredDescriptor(pointer))
      accesses.push_back({op, pointer});
  });
  auto indexOf = [&](Value descriptor) {
    auto it = llvm::find(plan.descriptors, descriptor);
    if (it != plan.descriptors.end())
      return unsigned(it - plan.descriptors.begin());
    plan.descriptors.push_back(descriptor);
    return unsigned(plan.descriptors.size() - 1);
  };
  // Every pair of a store's descriptor and another one the loop reaches
  // that the alias analysis keeps together: the promise covers them all.
  for (auto [store, storeDescriptor] : accesses) {
    if (!(memWrites(store) & MemGlobal))
      continue;
    for (auto [other, otherDescriptor] : accesses) {
      if (getPrecoloredDescriptor(otherDescriptor) ==
              getPrecoloredDescriptor(storeDescriptor) ||
          alias(store, other) == AliasResult::NoAlias)
        continue;
      std::pair<unsigned, unsigned> pair = {indexOf(storeDescriptor),
                                            indexOf(otherDescriptor)};
      if (!llvm::is_contained(plan.pairs, pair) &&
          !llvm::is_contained(plan.pairs,
                              std::make_pair(pair.second, pair.first)))
        plan.pairs.push_back(pair);
    }
  }
  llvm::stable_sort(plan.pairs);
  // The check runs before the loop, so it can only read descriptors that
  // exist there.
  for (Value descriptor : plan.descriptors) {
    Region *defined = descriptor.getParentRegion();
    if (loop->isAncestor(defined->getParentOp())) {
      plan.failure = "a descriptor it checks is defined inside the loop "
                     "(the check runs before the loop)";
      return plan;
    }
  }
  // Each checked descriptor's reach past num_records: the largest sum of
  // an access's scalar operands (soffset, which gfx9 does not range-check;
  // VGPR operands are its data or its range-checked voffset).
  plan.reach.assign(plan.descriptors.size(), 0);
  for (auto [op, pointer] : accesses) {
    auto it = llvm::find(plan.descriptors, pointer);
    if (it == plan.descriptors.end())
      continue;
    uint64_t sum = 0;
    for (Value operand : op->getOperands()) {
      if (operand == pointer ||
          !(isa<ImmType>(operand.getType()) ||
            (getRegClass(operand.getType()) == RegClass::SGPR &&
             getRegSize(operand.getType()) == 1)))
        continue;
      std::optional<uint64_t> bound = scalarBound(operand);
      if (!bound) {
        std::string where;
        llvm::raw_string_ostream os(where);
        os << op->getLoc();
        plan.failure =
            llvm::formatv("the scalar offset of {0} at {1} through {2} has "
                          "no bound the check could add to its range",
                          op->getName().getStringRef(), where, name(pointer))
                .str();
        return plan;
      }
      sum += *bound;
    }
    uint64_t &reach = plan.reach[it - plan.descriptors.begin()];
    reach = std::max(reach, sum);
  }
  return plan;
}

namespace {

/// A 64-bit value in two SGPRs.
struct Wide {
  Value hi, lo;
};

/// The check's SALU code at a builder's point, counting its issue slots.
struct CheckBuilder {
  OpBuilder &b;
  Location loc;
  Type sreg, scc;
  unsigned slots = 0;

  CheckBuilder(OpBuilder &b, Location loc)
      : b(b), loc(loc), sreg(SRegType::get(b.getContext(), 1, 1)),
        scc(SCCType::get(b.getContext())) {}

  Value imm(int64_t v) {
    return ConstantOp::create(b, loc, ImmType::get(b.getContext(), v), v);
  }
  Value word(Value descriptor, unsigned k) {
    return ExtractOp::create(b, loc, sreg, descriptor, uint64_t(k));
  }
  Value andOf(Value x, Value y) {
    ++slots;
    return S_AND_B32::create(b, loc, sreg, scc, x, y).getResult(0);
  }
  Value orOf(Value x, Value y) {
    ++slots;
    return S_OR_B32::create(b, loc, sreg, scc, x, y).getResult(0);
  }
  /// x + v, v a 32-bit SGPR or immediate (x.hi stays below 2^32 for a raw
  /// descriptor: 16 bits of base, plus carries).
  Wide add(Wide x, Value v) {
    slots += 2;
    auto lo = S_ADD_U32::create(b, loc, sreg, scc, x.lo, v);
    auto hi =
        S_ADDC_U32::create(b, loc, sreg, scc, lo->getResult(1), x.hi, imm(0));
    return {hi->getResult(0), lo->getResult(0)};
  }
  /// SCC = x < y as 64-bit numbers, y.hi below 2^32 - 1: x.lo - y.lo
  /// borrows exactly when the low words decide for x, so x < y is
  /// x.hi < y.hi + borrow (gfx9 has no 64-bit `s_cmp_lt`, and the dialect
  /// no `s_subb_u32`).
  Value lessThan(Wide x, Wide y) {
    slots += 3;
    auto borrow = S_SUB_U32::create(b, loc, sreg, scc, x.lo, y.lo);
    auto hi = S_ADDC_U32::create(b, loc, sreg, scc, borrow->getResult(1), y.hi,
                                 imm(0));
    return S_CMP_LT_U32::create(b, loc, scc, x.hi, hi->getResult(0));
  }
  Value select(Value flag, Value x, Value y) {
    ++slots;
    return S_CSELECT_B32::create(b, loc, sreg, flag, x, y);
  }
};

} // namespace

VersionedLoop waveasm::versionLoop(LoopOp loop,
                                   const DescriptorVersioning &plan) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  CheckBuilder c(b, loc);
  Operation *checkBegin = nullptr;
  // Per descriptor: its 48-bit base (words 1:0; a raw descriptor has
  // nothing else in word 1's high half) and its end, base + num_records +
  // reach. Words 1 and 3 of every descriptor are or-ed together and tested
  // once for raw buffers: stride (word 1 bits 16-29), cache swizzle (30,
  // which moves no byte but must be 0 for word 1 to be the base's high
  // bits: a descriptor that sets it takes the loop as written) and swizzle
  // (31); ADD_TID_ENABLE (word 3 bit 23).
  SmallVector<Wide> base, end;
  Value words1, words3;
  for (auto [k, descriptor] : llvm::enumerate(plan.descriptors)) {
    Value w1 = c.word(descriptor, 1);
    if (!checkBegin)
      checkBegin = w1.getDefiningOp();
    Wide start = {w1, c.word(descriptor, 0)};
    Wide stop = c.add(start, c.word(descriptor, 2));
    if (plan.reach[k])
      stop = c.add(stop, c.imm(int64_t(plan.reach[k])));
    base.push_back(start);
    end.push_back(stop);
    Value w3 = c.word(descriptor, 3);
    words1 = words1 ? c.orOf(words1, w1) : w1;
    words3 = words3 ? c.orOf(words3, w3) : w3;
  }
  // `bad` is nonzero when some descriptor is not raw; each pair that may
  // overlap (base[x] < end[y] and base[y] < end[x]) makes it 1, one
  // select per comparison, so one compare with 0 decides.
  Value bad = c.orOf(c.andOf(words1, c.imm(int64_t(0xffff0000u))),
                     c.andOf(words3, c.imm(1 << 23)));
  Value one = c.imm(1);
  for (auto [x, y] : plan.pairs) {
    Value first = c.select(c.lessThan(base[x], end[y]), one, bad);
    bad = c.select(c.lessThan(base[y], end[x]), first, bad);
  }
  c.slots += 1;
  Value cond = S_CMP_EQ_U32::create(b, loc, c.scc, bad, c.imm(0));

  auto ifOp = IfOp::create(b, loc, loop.getResultTypes(), cond);
  SmallVector<Attribute> listed;
  for (auto [x, y] : plan.pairs) {
    listed.push_back(
        b.getI64IntegerAttr(*getPrecoloredDescriptor(plan.descriptors[x])));
    listed.push_back(
        b.getI64IntegerAttr(*getPrecoloredDescriptor(plan.descriptors[y])));
  }
  ifOp->setAttr(kDescriptorsApartAttr, b.getArrayAttr(listed));
  ifOp->setAttr(kLikelyBranchAttr, b.getStringAttr("then"));

  OpBuilder thenB = OpBuilder::atBlockEnd(b.createBlock(&ifOp.getThenRegion()));
  auto fast = cast<LoopOp>(thenB.clone(*loop));
  YieldOp::create(thenB, loc, fast.getResults());
  OpBuilder elseB = OpBuilder::atBlockEnd(b.createBlock(&ifOp.getElseRegion()));
  auto yield = YieldOp::create(elseB, loc, loop.getResults());
  loop->replaceUsesWithIf(ifOp.getResults(), [&](OpOperand &use) {
    return use.getOwner() != yield.getOperation();
  });
  loop->moveBefore(yield);
  return {ifOp, fast, loop, checkBegin, c.slots + 1}; // + the branch
}

namespace {

/// Whether `op`, at the head of both copies, may issue before the check
/// without waiting: no memory written, no load result read (that read
/// waits for the load, and the check's slots are what should fill the
/// wait), nothing pinned, no region, no EXEC/VCC/M0.
bool issuesWithoutWaiting(Operation *op) {
  if (op->getNumRegions() || op->hasTrait<mlir::OpTrait::IsTerminator>() ||
      writesMemory(op))
    return false;
  auto facts = dyn_cast<InstInfoOpInterface>(op);
  if (facts && (facts.isPinned() ||
                ((facts.getImplicitUses() | facts.getImplicitDefs()) &
                 (ImpVCC | ImpEXEC | ImpM0))))
    return false;
  return llvm::none_of(op->getOperands(), [](Value operand) {
    Operation *def = operand.getDefiningOp();
    return def && readsMemory(def);
  });
}

} // namespace

unsigned waveasm::hoistSharedHead(const VersionedLoop &versioned) {
  IfOp branch = versioned.branch;
  Block &thenBlock = branch.getThenRegion().front();
  Block &elseBlock = branch.getElseRegion().front();
  unsigned hoisted = 0;
  while (!thenBlock.empty() && !elseBlock.empty()) {
    Operation *fast = &thenBlock.front(), *slow = &elseBlock.front();
    if (!issuesWithoutWaiting(fast) ||
        !OperationEquivalence::isEquivalentTo(
            fast, slow, OperationEquivalence::exactValueMatch, nullptr,
            OperationEquivalence::IgnoreLocations))
      break;
    fast->moveBefore(versioned.checkBegin);
    slow->replaceAllUsesWith(fast);
    slow->erase();
    ++hoisted;
  }
  return hoisted;
}
