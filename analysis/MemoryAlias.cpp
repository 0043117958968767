//===- MemoryAlias.cpp - lightweight per-lane alias analysis --------------===//

#include "analysis/MemoryAlias.h"

#include "analysis/PointerRoots.h"

#include "ir/Dialect.h"
#include "ir/Immediates.h"
#include "ir/InstFacts.h"
#include "ir/Workgroup.h"

using namespace mlir;
using namespace waveasm;

/// The facts come from lookupInstFacts (cached per op class): the
/// pipeliner's step merge asks these of every op it passes, and a walk with
/// an interface cast per op cost a tenth of pipelining a 300-op loop. An op
/// without regions is its own answer; `MemoryAliasTest` compares both with
/// the interface on every op of the examples and random programs.
static unsigned collect(Operation *op, bool writes) {
  auto spaces = [writes](Operation *nested) -> unsigned {
    InstFacts facts = lookupInstFacts(nested);
    return writes ? facts.memWrites : facts.memReads;
  };
  if (op->getNumRegions() == 0)
    return spaces(op);
  unsigned mask = 0;
  op->walk([&](Operation *nested) { mask |= spaces(nested); });
  return mask;
}

unsigned waveasm::memReads(Operation *op) { return collect(op, false); }
unsigned waveasm::memWrites(Operation *op) { return collect(op, true); }
bool waveasm::readsMemory(Operation *op) { return memReads(op) != 0; }
bool waveasm::writesMemory(Operation *op) { return memWrites(op) != 0; }

llvm::StringRef waveasm::describeSpaces(unsigned spaces) {
  switch (spaces) {
  case MemLDS:
    return "LDS";
  case MemGlobal:
    return "global";
  case MemScalar:
    return "scalar";
  default:
    return "memory";
  }
}

/// `value` as base + constant: looks through v_add_u32 with an immediate
/// operand (what address arithmetic in these kernels is made of).
static std::pair<Value, int64_t> splitConstantAdd(Value value) {
  int64_t offset = 0;
  for (int depth = 0; depth < 4; ++depth) {
    auto add = value.getDefiningOp<V_ADD_U32>();
    if (!add)
      break;
    Value lhs = add->getOperand(0), rhs = add->getOperand(1);
    if (auto c = getImmediateValue(rhs)) {
      offset += *c;
      value = lhs;
    } else if (auto c = getImmediateValue(lhs)) {
      offset += *c;
      value = rhs;
    } else {
      break;
    }
  }
  return {value, offset};
}

static int64_t optionalAttr(Operation *op, llvm::StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return 0;
}

std::optional<MemoryAccess> waveasm::getMemoryAccess(Operation *op) {
  auto info = dyn_cast<InstInfoOpInterface>(op);
  if (!info || op->getNumRegions())
    return std::nullopt;
  MemoryAccess access;
  access.spaces = info.getMemReads() | info.getMemWrites();
  access.width = 4 * static_cast<int64_t>(info.getDataDwords());
  if (!access.spaces)
    return std::nullopt;
  // Two-address LDS ops and FLAT (global or LDS by address) stay unknown.
  if (isa<DS_READ2_B32, DS_READ2_B64, DS_WRITE2_B32, DS_WRITE2_B64>(op) ||
      access.spaces == (MemGlobal | MemLDS))
    return access;

  if (access.spaces == MemLDS) {
    // LDS read: (vaddr); LDS write: (data, vaddr); `offset` attribute.
    Value vaddr = op->getOperand(op->getNumOperands() - 1);
    int64_t offset = optionalAttr(op, "offset");
    if (std::optional<int64_t> c = getImmediateValue(vaddr)) {
      access.offset = *c + offset; // the same address in every lane
      return access;
    }
    auto [base, add] = splitConstantAdd(vaddr);
    access.base = base;
    access.offset = add + offset;
    return access;
  }
  bool toLDS = info.getMemWrites() & MemLDS;
  if (info.getExecUnit() == ExecUnit::VMEM && !toLDS &&
      op->getNumOperands() == 3) {
    // Loads: (saddr, voffset, soffset) -> results; stores and atomics:
    // (data, saddr, voffset) with soffset 0. `instOffset` defaults to 0.
    bool isLoad = op->getNumResults() > 0;
    unsigned first = isLoad ? 0 : 1;
    access.srd = op->getOperand(first);
    Value voffset = op->getOperand(first + 1);
    int64_t offset = optionalAttr(op, "instOffset");
    if (auto c = getImmediateValue(voffset))
      offset += *c;
    else
      access.base = voffset;
    if (isLoad) {
      Value soffset = op->getOperand(2);
      if (auto c = getImmediateValue(soffset))
        offset += *c;
      else
        access.soffset = soffset;
    }
    access.offset = offset;
    return access;
  }
  return access; // scalar loads, direct-to-LDS loads: unknown
}

/// An upper bound on |v(l) - v(m)| over two lanes l, m of one wave (64
/// lanes at most), for an address value computed from the ABI's thread id
/// in a one-dimensional workgroup by moves, adds, shifts left and products
/// by constants; lane-uniform values (constants, SGPRs) span 0. nullopt:
/// unknown (any other op or leaf, or a span too large to reason about).
static std::optional<uint64_t> laneSpan(Value value, unsigned depth = 0) {
  if (!isa<VRegType, PVRegType>(value.getType()))
    return 0; // an immediate or SGPR: the same in every lane
  Operation *def = value.getDefiningOp();
  if (!def || depth > 8)
    return std::nullopt;
  constexpr uint64_t kLimit = uint64_t(1) << 24;
  auto capped = [&](uint64_t span) -> std::optional<uint64_t> {
    return span <= kLimit ? std::optional<uint64_t>(span) : std::nullopt;
  };
  if (auto pre = dyn_cast<PrecoloredVRegOp>(def)) {
    auto program = def->getParentOfType<ProgramOp>();
    if (!program || pre.getIndex() != program.getAbi().getTid())
      return std::nullopt;
    // One wave without a declared size; the id packs y and z above bit 10,
    // so only a one-dimensional workgroup's lanes are consecutive ids.
    std::array<int64_t, 3> size = getDeclaredWorkgroupSize(program).value_or(
        std::array<int64_t, 3>{64, 1, 1});
    if (size[1] != 1 || size[2] != 1 || size[0] < 1)
      return std::nullopt;
    return uint64_t(std::min<int64_t>(size[0], 64) - 1);
  }
  if (isa<ConstantOp>(def))
    return 0;
  auto operand = [&](unsigned i) {
    return laneSpan(def->getOperand(i), depth + 1);
  };
  // A shift by a constant of at most 24 bits (larger spreads are unknown).
  auto shiftOf = [&](unsigned i) -> std::optional<unsigned> {
    std::optional<int64_t> shift = getImmediateValue(def->getOperand(i));
    if (!shift || *shift < 0 || *shift > 24)
      return std::nullopt;
    return unsigned(*shift);
  };
  if (isa<V_MOV_B32>(def))
    return operand(0);
  if (isa<V_ADD_U32>(def)) {
    std::optional<uint64_t> x = operand(0), y = operand(1);
    return x && y ? capped(*x + *y) : std::nullopt;
  }
  if (isa<V_LSHLREV_B32>(def)) { // src1 << src0
    std::optional<unsigned> shift = shiftOf(0);
    std::optional<uint64_t> x = operand(1);
    return shift && x ? capped(*x << *shift) : std::nullopt;
  }
  if (isa<V_LSHL_ADD_U32>(def)) { // (src0 << src1) + src2
    std::optional<unsigned> shift = shiftOf(1);
    std::optional<uint64_t> x = operand(0), y = operand(2);
    return shift && x && y ? capped((*x << *shift) + *y) : std::nullopt;
  }
  if (isa<V_MUL_LO_U32>(def)) {
    for (unsigned i = 0; i < 2; ++i) {
      std::optional<int64_t> c = getImmediateValue(def->getOperand(i));
      std::optional<uint64_t> x = operand(1 - i);
      if (c && x && *c >= 0 && *c <= int64_t(kLimit))
        return capped(*x * uint64_t(*c));
    }
  }
  return std::nullopt;
}

/// Whether [offset, offset + width) of x and y are apart by at least
/// `slack` bytes (both offsets known).
static bool rangesApart(const MemoryAccess &x, const MemoryAccess &y,
                        int64_t slack) {
  return *x.offset + x.width + slack <= *y.offset ||
         *y.offset + y.width + slack <= *x.offset;
}

bool waveasm::disjointInEachLane(const MemoryAccess &x, const MemoryAccess &y) {
  return x.spaces == y.spaces && x.srd == y.srd && x.base == y.base &&
         x.soffset == y.soffset && x.offset && y.offset && x.width && y.width &&
         rangesApart(x, y, 0);
}

static AliasResult aliasSingle(Operation *a, Operation *b) {
  std::optional<MemoryAccess> x = getMemoryAccess(a);
  std::optional<MemoryAccess> y = getMemoryAccess(b);
  if (!x || !y)
    return AliasResult::MayAlias;
  // FLAT may address both global memory and LDS.
  auto widen = [](unsigned s) { return s & MemGlobal ? s | MemScalar : s; };
  unsigned common = widen(x->spaces) & widen(y->spaces);
  if (!common)
    return AliasResult::NoAlias;
  // Global memory of two kernel arguments the program declares apart: asked
  // only where the bases and offsets leave the pair together (it traces
  // both pointers).
  auto apart = [&](AliasResult r) {
    return r == AliasResult::MayAlias && !(common & MemLDS) &&
                   inDistinctNoAliasArgs(a, b)
               ? AliasResult::NoAlias
               : r;
  };
  if (x->spaces != y->spaces || !x->offset || !y->offset || !x->width ||
      !y->width)
    return apart(AliasResult::MayAlias);
  // Same base values (null matches null: a constant address).
  if (x->srd != y->srd || x->base != y->base || x->soffset != y->soffset)
    return apart(AliasResult::MayAlias);
  if (*x->offset == *y->offset && x->width == y->width)
    return AliasResult::MustAlias;
  // Disjoint offsets from one base value are apart in every lane, but a
  // per-lane (VGPR) base differs between lanes: lane i's [v_i + 4, +4) is
  // lane i+1's [v_{i+1}, +4) when the lanes are 4 bytes apart. A wave's
  // memory ops run in program order for all its lanes (lanes exchange data
  // through LDS and global memory that way), so the offsets must be apart
  // by the lanes' spread too (0 for a lane-uniform address).
  std::optional<uint64_t> span = x->base ? laneSpan(x->base) : 0;
  if (span && rangesApart(*x, *y, int64_t(*span)))
    return AliasResult::NoAlias;
  return apart(AliasResult::MayAlias);
}

AliasResult waveasm::alias(Operation *a, Operation *b) {
  if (!a->getNumRegions() && !b->getNumRegions())
    return aliasSingle(a, b);
  // Ops with regions: the strongest answer over the nested memory ops.
  AliasResult result = AliasResult::NoAlias;
  a->walk([&](Operation *x) {
    if (!memReads(x) && !memWrites(x))
      return;
    if (x->getNumRegions())
      return;
    b->walk([&](Operation *y) {
      if (y->getNumRegions() || (!memReads(y) && !memWrites(y)))
        return;
      AliasResult r = aliasSingle(x, y);
      if (r == AliasResult::MustAlias ||
          (r == AliasResult::MayAlias && result == AliasResult::NoAlias))
        result = r;
    });
  });
  return result;
}
