//===- MemoryOffsetOpt.cpp - waveasm-memory-offset-opt --------------------===//
//
// `waveasm-memory-offset-opt` (SPEC.md 19): the address of a memory op is
// split into base + K, K a constant, looking through
//   v_add_u32(a, b)              (a + b)
//   v_or_b32(a, b)               when no bit can be set in both (then a + b)
//   v_lshlrev_b32(N, a)          ((a' + K) << N = (a' << N) + (K << N))
//   v_lshl_add_u32(a, N, b)      ((a << N) + b, the fused form of the above)
//   v_mov_b32 of a constant, constants
// (mod 2^32, as the VALU computes). K is folded into the op's offset field
// when the field then stays in range: `offset` of ds_read*/ds_write*
// (<= 65535), `instOffset` of buffer/global/flat loads and stores
// (<= 4095). A larger (or negative) K stays as one `v_add_u32 K, base`, so
// equal bases can be CSE'd. Ops of the address tree that had to change are
// rebuilt next to the originals (same loop level); the originals are left
// for canonicalize when they become dead.
//
// Not rewritten, where upstream folds:
//   * direct-to-LDS loads (`buffer_load_dword[x4]_lds`): their instruction
//     offset also moves the LDS destination (M0 + offset + lane * size), so
//     a voffset constant cannot move there;
//   * ds_read2*/ds_write2*: their element offsets are `offset0`/`offset1`;
//     upstream's emitter drops `offset` on them.
//
//===----------------------------------------------------------------------===//

#include "pipeline/ForEachOp.h"
#include "pipeline/Passes.h"
#include "pipeline/opt/OperandFacts.h"

#include "ir/InstFacts.h"
#include "ir/OpClassTable.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/Debug.h"

#include <vector>

#define DEBUG_TYPE "waveasm-memory-offset-opt"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMMEMORYOFFSETOPT
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

constexpr int64_t kMaxLDSOffset = 65535;
constexpr int64_t kMaxBufferOffset = 4095;
/// How deep the walks look into an address tree (address math is shallow;
/// the bound keeps the cost per memory op constant).
constexpr unsigned kMaxDepth = 8;

/// A constant shift amount in 0..31, as VALU shifts use it.
std::optional<unsigned> getShiftAmount(Value amount) {
  std::optional<int64_t> n = getConstant32(amount);
  if (!n || *n < 0 || *n > 31)
    return std::nullopt;
  return static_cast<unsigned>(*n);
}

/// Bits of `value` known to be zero.
uint32_t knownZeroBits(Value value, unsigned depth) {
  if (std::optional<int64_t> constant = getConstant32(value))
    return ~static_cast<uint32_t>(*constant);
  Operation *def = value.getDefiningOp();
  if (!def || depth == 0)
    return 0;
  auto zeros = [&](Value v) { return knownZeroBits(v, depth - 1); };
  auto lowMask = [](unsigned n) { return n >= 32 ? ~0u : (1u << n) - 1; };
  auto trailingZeros = [&](Value v) -> unsigned {
    return llvm::countr_one(zeros(v));
  };
  if (auto shl = dyn_cast<V_LSHLREV_B32>(def)) {
    if (std::optional<unsigned> n = getShiftAmount(shl.getSrc0()))
      return (zeros(shl.getSrc1()) << *n) | lowMask(*n);
  } else if (auto shr = dyn_cast<V_LSHRREV_B32>(def)) {
    if (std::optional<unsigned> n = getShiftAmount(shr.getSrc0()))
      return (zeros(shr.getSrc1()) >> *n) | ~(~0u >> *n);
  } else if (auto andOp = dyn_cast<V_AND_B32>(def)) {
    return zeros(andOp.getSrc0()) | zeros(andOp.getSrc1());
  } else if (auto orOp = dyn_cast<V_OR_B32>(def)) {
    return zeros(orOp.getSrc0()) & zeros(orOp.getSrc1());
  } else if (auto bfe = dyn_cast<V_BFE_U32>(def)) {
    if (std::optional<unsigned> width = getShiftAmount(bfe.getSrc2()))
      return ~lowMask(*width);
  } else if (auto lshlOr = dyn_cast<V_LSHL_OR_B32>(def)) {
    if (std::optional<unsigned> n = getShiftAmount(lshlOr.getSrc1()))
      return ((zeros(lshlOr.getSrc0()) << *n) | lowMask(*n)) &
             zeros(lshlOr.getSrc2());
  } else if (auto lshlAdd = dyn_cast<V_LSHL_ADD_U32>(def)) {
    if (std::optional<unsigned> n = getShiftAmount(lshlAdd.getSrc1()))
      return lowMask(std::min(trailingZeros(lshlAdd.getSrc0()) + *n,
                              trailingZeros(lshlAdd.getSrc2())));
  } else if (auto add = dyn_cast<V_ADD_U32>(def)) {
    return lowMask(
        std::min(trailingZeros(add.getSrc0()), trailingZeros(add.getSrc1())));
  } else if (auto mov = dyn_cast<V_MOV_B32>(def)) {
    if (isVGPR(mov.getSrc()))
      return zeros(mov.getSrc());
  }
  return 0;
}

/// `a | b` equals `a + b`: no bit can be set in both.
bool areDisjoint(Value a, Value b) {
  return (~knownZeroBits(a, kMaxDepth) & ~knownZeroBits(b, kMaxDepth)) == 0;
}

/// An address as base + constant. The base is an existing value, a node to
/// rebuild, or absent (the address is a constant).
struct Split {
  Value value; // the existing base, when node < 0
  int node = -1;
  bool hasBase = false;
  uint32_t constant = 0;

  static Split leaf(Value v) { return {v, -1, true, 0}; }
  static Split constantOnly(uint32_t k) { return {{}, -1, false, k}; }
  Split withConstant(uint32_t k) const {
    Split s = *this;
    s.constant = k;
    return s;
  }
  bool isSGPRBase() const { return node < 0 && hasBase && isSGPR(value); }
};

enum class NodeKind { Add, Shl, LshlAdd };

/// A base to rebuild without the constants: `kind` of the bases `lhs`
/// (and `rhs`), next to the op it replaces.
struct Node {
  NodeKind kind;
  Operation *anchor;
  Split lhs, rhs;
  Value amount; // Shl, LshlAdd
};

class AddressSplitter {
public:
  Split split(Value value, unsigned depth = kMaxDepth) {
    auto it = memo.find(value);
    if (it != memo.end())
      return it->second;
    Split s = compute(value, depth);
    memo[value] = s;
    return s;
  }

  /// The base value of `s`, building its nodes on first use.
  Value materialize(const Split &s) {
    if (!s.hasBase)
      return {};
    if (s.node < 0)
      return s.value;
    if (built[s.node])
      return built[s.node];
    Node node = nodes[s.node];
    Value lhs = materialize(node.lhs);
    Value rhs = materialize(node.rhs);
    OpBuilder builder(node.anchor->getContext());
    builder.setInsertionPointAfter(node.anchor);
    Location loc = node.anchor->getLoc();
    Type type = node.anchor->getResult(0).getType();
    Value result;
    switch (node.kind) {
    case NodeKind::Add:
      result = V_ADD_U32::create(builder, loc, type, lhs, rhs);
      break;
    case NodeKind::Shl:
      result = V_LSHLREV_B32::create(builder, loc, type, node.amount, lhs);
      break;
    case NodeKind::LshlAdd:
      result =
          V_LSHL_ADD_U32::create(builder, loc, type, lhs, node.amount, rhs);
      break;
    }
    built[s.node] = result;
    ++rebuilt;
    return result;
  }

  unsigned rebuilt = 0;

private:
  Split compute(Value value, unsigned depth) {
    if (std::optional<int64_t> constant = getConstant32(value))
      return Split::constantOnly(static_cast<uint32_t>(*constant));
    Operation *def = value.getDefiningOp();
    Type type = value.getType();
    // Only single virtual VGPRs can be rebuilt.
    if (!def || depth == 0 || !isVGPR(value) || !isVirtualReg(type) ||
        getRegSize(type) != 1)
      return Split::leaf(value);
    unsigned next = depth - 1;
    if (auto add = dyn_cast<V_ADD_U32>(def))
      return combineAdd(value, def, split(add.getSrc0(), next),
                        split(add.getSrc1(), next));
    if (auto orOp = dyn_cast<V_OR_B32>(def)) {
      if (areDisjoint(orOp.getSrc0(), orOp.getSrc1()))
        return combineAdd(value, def, split(orOp.getSrc0(), next),
                          split(orOp.getSrc1(), next));
      return Split::leaf(value);
    }
    if (auto shl = dyn_cast<V_LSHLREV_B32>(def)) {
      std::optional<unsigned> n = getShiftAmount(shl.getSrc0());
      if (!n)
        return Split::leaf(value);
      Split x = split(shl.getSrc1(), next);
      uint32_t k = x.constant << *n;
      if (!x.hasBase)
        return Split::constantOnly(k);
      if (k == 0)
        return Split::leaf(value);
      return addNode({NodeKind::Shl, def, x, {}, shl.getSrc0()}, k);
    }
    if (auto lshlAdd = dyn_cast<V_LSHL_ADD_U32>(def)) {
      std::optional<unsigned> n = getShiftAmount(lshlAdd.getSrc1());
      if (!n)
        return Split::leaf(value);
      Split x = split(lshlAdd.getSrc0(), next);
      Split y = split(lshlAdd.getSrc2(), next);
      uint32_t k = (x.constant << *n) + y.constant;
      if (!x.hasBase && !y.hasBase)
        return Split::constantOnly(k);
      if (k == 0)
        return Split::leaf(value);
      if (!x.hasBase)
        return y.withConstant(k);
      if (!y.hasBase)
        return addNode({NodeKind::Shl, def, x, {}, lshlAdd.getSrc1()}, k);
      if (x.isSGPRBase() && y.isSGPRBase() && x.value != y.value)
        return Split::leaf(value); // two SGPRs on the constant bus
      return addNode({NodeKind::LshlAdd, def, x, y, lshlAdd.getSrc1()}, k);
    }
    return Split::leaf(value);
  }

  Split combineAdd(Value value, Operation *def, Split a, Split b) {
    uint32_t k = a.constant + b.constant;
    if (!a.hasBase && !b.hasBase)
      return Split::constantOnly(k);
    if (k == 0)
      return Split::leaf(value);
    if (!a.hasBase)
      return b.withConstant(k);
    if (!b.hasBase)
      return a.withConstant(k);
    if (a.isSGPRBase() && b.isSGPRBase() && a.value != b.value)
      return Split::leaf(value); // two SGPRs on the constant bus
    return addNode({NodeKind::Add, def, a, b, {}}, k);
  }

  Split addNode(Node node, uint32_t constant) {
    nodes.push_back(node);
    built.push_back({});
    Split s;
    s.node = nodes.size() - 1;
    s.hasBase = true;
    s.constant = constant;
    return s;
  }

  llvm::DenseMap<Value, Split> memo;
  std::vector<Node> nodes;
  std::vector<Value> built;
};

/// Where a memory op keeps its address and constant offset.
struct OffsetField {
  unsigned addressOperand;
  StringRef attribute;
  int64_t max;
};

/// Which offset field an op class has: its kind, read once per class and
/// kept per thread by TypeID (the pass asks every op; an InstFacts lookup
/// and up to six kind tests cost more than this lookup). An unregistered
/// op's TypeID is one for every name, and none has InstFacts.
enum class OffsetKind : uint8_t { None, LDS, VMEMLoad, VMEMOther };
OffsetKind getOffsetKind(Operation *op) {
  static thread_local OpClassTable<OffsetKind, 512> kinds;
  return kinds.get(op, [](Operation *op) {
    InstFacts facts = lookupInstFacts(op);
    if (facts.unit == ExecUnit::LDS)
      return isa<DS_READ2_B32, DS_READ2_B64, DS_WRITE2_B32, DS_WRITE2_B64>(op)
                 ? OffsetKind::None
                 : OffsetKind::LDS;
    if (facts.unit != ExecUnit::VMEM ||
        isa<BUFFER_LOAD_DWORD_LDS, BUFFER_LOAD_DWORDX4_LDS>(op))
      return OffsetKind::None;
    return facts.latencyClass == LatencyClass::VMEMLoad ? OffsetKind::VMEMLoad
                                                        : OffsetKind::VMEMOther;
  });
}

std::optional<OffsetField> getOffsetField(Operation *op) {
  switch (getOffsetKind(op)) {
  case OffsetKind::None:
    return std::nullopt;
  case OffsetKind::LDS:
    // ds_read: (vaddr); ds_write: (data, vaddr).
    return OffsetField{op->getNumOperands() - 1, "offset", kMaxLDSOffset};
  case OffsetKind::VMEMLoad:
    // Loads: (saddr, voffset, soffset); stores and atomics: (data, saddr,
    // voffset).
    return OffsetField{1u, "instOffset", kMaxBufferOffset};
  case OffsetKind::VMEMOther:
    return OffsetField{2u, "instOffset", kMaxBufferOffset};
  }
  llvm_unreachable("offset kind");
}

/// `address` is already `v_add_u32(base, K)`.
bool isCanonicalAdd(Value address, Value base, int64_t k) {
  auto add = address.getDefiningOp<V_ADD_U32>();
  if (!add)
    return false;
  for (unsigned i : {0u, 1u})
    if (add->getOperand(i) == base &&
        getConstant32(add->getOperand(1 - i)) == k)
      return true;
  return false;
}

class MemoryOffsetOpt {
public:
  void run(ProgramOp program) {
    // Collected first: rewriting inserts ops next to the address trees.
    SmallVector<std::pair<Operation *, OffsetField>> accesses;
    forEachOpPostOrder(program.getBody(), [&](Operation *op) {
      if (std::optional<OffsetField> field = getOffsetField(op))
        accesses.push_back({op, *field});
    });
    for (auto &[op, field] : accesses)
      rewrite(op, field);
    LLVM_DEBUG(llvm::dbgs()
               << "[" DEBUG_TYPE "] @" << program.getSymName() << ": " << folded
               << " offsets folded, " << canonical << " v_add_u32 K, base, "
               << splitter.rebuilt << " address ops rebuilt\n");
  }

private:
  void rewrite(Operation *op, const OffsetField &field) {
    auto skip = [&](const char *why) {
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] '" << op->getName() << "' at "
                 << op->getLoc() << ": " << why << "\n");
    };
    Value address = op->getOperand(field.addressOperand);
    if (!isVirtualReg(address.getType()))
      return skip("the address is not a virtual VGPR");
    Split s = splitter.split(address);
    if (!s.hasBase)
      return skip("the address is a constant");
    if (s.constant == 0)
      return skip("no constant addend");
    if (s.isSGPRBase())
      return skip("without the constant the address is an SGPR");
    int64_t k = signExtend32(s.constant);
    int64_t offset = 0;
    if (auto attr = op->getAttrOfType<IntegerAttr>(field.attribute))
      offset = attr.getInt();
    OpBuilder builder(op->getContext());
    if (k > 0 && offset >= 0 && offset + k <= field.max) {
      op->setOperand(field.addressOperand, splitter.materialize(s));
      op->setAttr(field.attribute, builder.getI64IntegerAttr(offset + k));
      ++folded;
      return;
    }
    if (s.node < 0 && isCanonicalAdd(address, s.value, k))
      return skip("the constant does not fit the offset field and the "
                  "address is already `v_add_u32 K, base`");
    Value base = splitter.materialize(s);
    Value &sum = canonicalAdds[{base, k}];
    if (!sum) {
      // Right after the base: it dominates every user of the address.
      if (Operation *def = base.getDefiningOp())
        builder.setInsertionPointAfter(def);
      else
        builder.setInsertionPointToStart(base.getParentBlock());
      Location loc = op->getLoc();
      Value imm = getImmediate(builder, loc, k);
      sum = V_ADD_U32::create(builder, loc, address.getType(), imm, base);
    }
    op->setOperand(field.addressOperand, sum);
    ++canonical;
  }

  AddressSplitter splitter;
  llvm::DenseMap<std::pair<Value, int64_t>, Value> canonicalAdds;
  unsigned folded = 0, canonical = 0;
};

struct MemoryOffsetOptPass
    : public waveasm::impl::WaveASMMemoryOffsetOptBase<MemoryOffsetOptPass> {
  void runOnOperation() override { MemoryOffsetOpt().run(getOperation()); }
};

} // namespace
