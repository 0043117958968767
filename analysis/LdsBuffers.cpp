//===- LdsBuffers.cpp - LDS buffers and their lifetimes -------------------===//

#include "analysis/LdsBuffers.h"

#include "ir/Immediates.h"
#include "ir/InstFacts.h"
#include "ir/TargetInfo.h"
#include "ir/Workgroup.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <deque>

using namespace mlir;
using namespace waveasm;

namespace {

using Range = LdsAddressRange;

/// More bases than this are folded into one interval (the join of a
/// rotation of more buffers than a kernel has stages is not worth keeping).
constexpr size_t kMaxBases = 16;
/// LDS addresses are 32-bit; anything outside [0, 2^32) wrapped or is not
/// an address, and is not bounded.
constexpr int64_t kLimit = int64_t(1) << 32;
/// Loop iter_args reach their fixed point within this many rounds or are
/// not bounded (an induction variable never does).
constexpr unsigned kMaxLoopRounds = 8;
constexpr unsigned kMaxDepth = 64;

Range constantRange(int64_t c) { return Range{{c}, 0, 0}; }
Range intervalRange(int64_t lo, int64_t hi) { return Range{{0}, lo, hi}; }
int64_t minOf(const Range &r) { return r.bases.front() + r.lo; }
int64_t maxOf(const Range &r) { return r.bases.back() + r.hi; }
bool isConstant(const Range &r, int64_t &c) {
  if (r.bases.size() != 1 || r.lo != r.hi)
    return false;
  c = r.bases.front() + r.lo;
  return true;
}

std::optional<Range> checked(Range r) {
  llvm::sort(r.bases);
  r.bases.erase(std::unique(r.bases.begin(), r.bases.end()), r.bases.end());
  if (r.bases.size() > kMaxBases)
    r = Range{{r.bases.front()}, r.lo, r.hi + r.bases.back() - r.bases.front()};
  if (minOf(r) < 0 || maxOf(r) >= kLimit)
    return std::nullopt;
  return r;
}

Range collapse(const Range &r) {
  return Range{
      {r.bases.front()}, r.lo, r.hi + r.bases.back() - r.bases.front()};
}

bool operator==(const Range &a, const Range &b) {
  return a.bases == b.bases && a.lo == b.lo && a.hi == b.hi;
}

Range join(const Range &a, const Range &b) {
  Range r = a;
  r.bases.append(b.bases.begin(), b.bases.end());
  r.lo = std::min(a.lo, b.lo);
  r.hi = std::max(a.hi, b.hi);
  llvm::sort(r.bases);
  r.bases.erase(std::unique(r.bases.begin(), r.bases.end()), r.bases.end());
  return r.bases.size() > kMaxBases ? collapse(r) : r;
}

std::optional<Range> add(Range a, Range b) {
  if (a.bases.size() * b.bases.size() > kMaxBases)
    a = collapse(a), b = collapse(b);
  Range r{{}, a.lo + b.lo, a.hi + b.hi};
  for (int64_t x : a.bases)
    for (int64_t y : b.bases)
      r.bases.push_back(x + y);
  return checked(r);
}

std::optional<Range> scale(const Range &a, int64_t c) {
  if (c < 0 || c >= kLimit)
    return std::nullopt;
  Range r{{}, a.lo * c, a.hi * c};
  for (int64_t x : a.bases)
    r.bases.push_back(x * c);
  return checked(r);
}

/// Low bits known to be zero in every value `v` takes (32: zero). Loop
/// iter_args are the greatest fixed point over their init and yields (a
/// base rotated by hand from constant inits keeps their alignment).
class LowZeros {
public:
  unsigned get(Value v, unsigned depth = 0) {
    if (std::optional<int64_t> c = getImmediateValue(v))
      return *c == 0 ? 32 : llvm::countr_zero(uint32_t(*c));
    if (depth > 64)
      return 0;
    if (auto arg = dyn_cast<BlockArgument>(v))
      return loopArg(arg, depth);
    Operation *op = v.getDefiningOp();
    if (cast<OpResult>(v).getResultNumber() != 0)
      return 0;
    auto at = [&](unsigned i) { return get(op->getOperand(i), depth + 1); };
    auto shift = [&](unsigned i) -> unsigned {
      std::optional<int64_t> c = getImmediateValue(op->getOperand(i));
      return c && *c >= 0 && *c < 32 ? unsigned(*c) : 0;
    };
    auto cap = [](unsigned x) { return std::min(x, 32u); };
    if (isa<V_MOV_B32, S_MOV_B32, V_READFIRSTLANE_B32>(op))
      return at(0);
    if (isa<V_ADD_U32, S_ADD_U32, V_SUB_U32, S_SUB_U32, V_OR_B32, S_OR_B32,
            V_XOR_B32, S_XOR_B32>(op))
      return std::min(at(0), at(1));
    if (isa<V_AND_B32, S_AND_B32>(op))
      return std::max(at(0), at(1));
    if (isa<S_LSHL_B32>(op))
      return cap(at(0) + shift(1));
    if (isa<V_LSHLREV_B32>(op))
      return cap(at(1) + shift(0));
    if (isa<V_LSHL_ADD_U32, V_LSHL_OR_B32>(op))
      return std::min(cap(at(0) + shift(1)), at(2));
    if (isa<V_MUL_LO_U32, S_MUL_I32>(op))
      return cap(at(0) + at(1));
    return 0;
  }

private:
  llvm::DenseMap<Value, unsigned> assumed;

  unsigned loopArg(BlockArgument arg, unsigned depth) {
    auto loop = dyn_cast<LoopOp>(arg.getOwner()->getParentOp());
    if (!loop)
      return 0;
    if (auto it = assumed.find(arg); it != assumed.end())
      return it->second;
    unsigned i = arg.getArgNumber();
    ConditionOp condition = loop.getConditionOp();
    if (!condition || i >= loop.getInitArgs().size() ||
        i >= condition.getIterArgs().size())
      return 0;
    // From the top down until the yield agrees with the assumption.
    unsigned current = 32;
    for (;;) {
      assumed[arg] = current;
      unsigned next = std::min(get(loop.getInitArgs()[i], depth + 1),
                               get(condition.getIterArgs()[i], depth + 1));
      if (next >= current)
        break;
      current = next;
    }
    assumed.erase(arg);
    return current;
  }
};

/// What the analysis knows about one program's LDS address values.
class RangeEvaluator {
public:
  explicit RangeEvaluator(ProgramOp program) {
    ABIAttr abi = program.getAbi();
    tidReg = abi ? abi.getTid() : -1;
    // The packed work-item id x | y << 10 | z << 20; without a declared
    // workgroup size one wave, as the simulator and occupancy assume.
    std::array<int64_t, 3> size =
        getDeclaredWorkgroupSize(program).value_or(std::array<int64_t, 3>{
            getTargetInfo(program.getTargetKind()).defaultWaveSize, 1, 1});
    for (int64_t &dim : size)
      dim = std::min<int64_t>(dim, 1024);
    tidMax = (size[0] - 1) | ((size[1] - 1) << 10) | ((size[2] - 1) << 20);
  }

  std::optional<Range> get(Value value, unsigned depth = 0) {
    if (auto it = cache.find(value); it != cache.end())
      return ranges[it->second];
    if (auto it = assumed.find(value); it != assumed.end())
      return it->second;
    if (depth > kMaxDepth)
      return std::nullopt;
    std::optional<Range> r = compute(value, depth + 1);
    cache[value] = ranges.size();
    ranges.push_back(r);
    order.push_back(value);
    return r;
  }

private:
  std::optional<Range> constantOperand(Operation *op, unsigned i,
                                       unsigned depth, int64_t &c) {
    std::optional<Range> r = get(op->getOperand(i), depth);
    return r && isConstant(*r, c) ? r : std::nullopt;
  }

  std::optional<Range> compute(Value value, unsigned depth) {
    if (std::optional<int64_t> imm = getImmediateValue(value))
      return checked(constantRange(*imm));
    if (auto arg = dyn_cast<BlockArgument>(value))
      return computeIterArg(arg, depth);
    Operation *op = value.getDefiningOp();
    if (auto loop = dyn_cast<LoopOp>(op)) {
      // The last iteration's iter_args, within the block argument's range.
      unsigned i = cast<OpResult>(value).getResultNumber();
      return get(loop.getBodyBlock().getArgument(i), depth);
    }
    if (auto ifOp = dyn_cast<IfOp>(op)) {
      unsigned i = cast<OpResult>(value).getResultNumber();
      std::optional<Range> r;
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
        YieldOp yield = ifOp.getYield(*region);
        if (!yield || i >= yield.getValues().size())
          return std::nullopt;
        std::optional<Range> y = get(yield.getValues()[i], depth);
        if (!y)
          return std::nullopt;
        r = r ? join(*r, *y) : *y;
      }
      return r;
    }
    if (cast<OpResult>(value).getResultNumber() != 0)
      return std::nullopt; // carries, SCC
    if (auto pre = dyn_cast<PrecoloredVRegOp>(op)) {
      if (pre.getIndex() == tidReg && pre.getSize() == 1)
        return intervalRange(0, tidMax);
      return std::nullopt;
    }
    if (isa<V_MOV_B32, S_MOV_B32, V_READFIRSTLANE_B32>(op))
      return get(op->getOperand(0), depth);
    auto operand = [&](unsigned i) { return get(op->getOperand(i), depth); };
    int64_t c = 0;
    if (isa<V_ADD_U32, S_ADD_U32, V_ADD_CO_U32>(op)) {
      std::optional<Range> a = operand(0), b = operand(1);
      return a && b ? add(*a, *b) : std::nullopt;
    }
    if (isa<V_SUB_U32, S_SUB_U32>(op)) {
      std::optional<Range> a = operand(0);
      if (!a || !constantOperand(op, 1, depth, c))
        return std::nullopt;
      return add(*a, constantRange(-c));
    }
    // Shifts: v_lshlrev_b32 (shift, x), s_lshl_b32 (x, shift).
    if (isa<V_LSHLREV_B32, S_LSHL_B32, V_LSHL_ADD_U32, V_LSHL_OR_B32>(op)) {
      bool rev = isa<V_LSHLREV_B32>(op);
      std::optional<Range> x = operand(rev ? 1 : 0);
      if (!x || !constantOperand(op, rev ? 0 : 1, depth, c) || c < 0 || c > 31)
        return std::nullopt;
      std::optional<Range> shifted = scale(*x, int64_t(1) << c);
      if (!shifted || isa<V_LSHLREV_B32, S_LSHL_B32>(op))
        return shifted;
      std::optional<Range> y = operand(2);
      if (!y)
        return std::nullopt;
      return isa<V_LSHL_ADD_U32>(op) ? add(*shifted, *y) : bitOr(*shifted, *y);
    }
    if (isa<V_MUL_LO_U32, S_MUL_I32, V_MAD_U32_U24>(op)) {
      // v_mad_u32_u24 multiplies the factors' low 24 bits: the full product
      // is its value only when both factors are below 2^24.
      bool u24 = isa<V_MAD_U32_U24>(op);
      auto fitsU24 = [&](const Range &x) {
        return !u24 || (minOf(x) >= 0 && maxOf(x) < (int64_t(1) << 24) &&
                        c >= 0 && c < (int64_t(1) << 24));
      };
      std::optional<Range> product;
      if (constantOperand(op, 1, depth, c)) {
        if (std::optional<Range> x = operand(0); x && fitsU24(*x))
          product = scale(*x, c);
      } else if (constantOperand(op, 0, depth, c)) {
        if (std::optional<Range> x = operand(1); x && fitsU24(*x))
          product = scale(*x, c);
      }
      if (!product || !isa<V_MAD_U32_U24>(op))
        return product;
      std::optional<Range> addend = operand(2);
      return addend ? add(*product, *addend) : std::nullopt;
    }
    if (isa<V_AND_B32, S_AND_B32>(op)) {
      // A non-negative mask bounds the result whatever the other operand.
      unsigned maskNo = constantOperand(op, 1, depth, c) ? 1 : 0;
      if (maskNo == 0 && !constantOperand(op, 0, depth, c))
        return std::nullopt;
      if (c < 0)
        return std::nullopt;
      std::optional<Range> x = operand(1 - maskNo);
      return intervalRange(0, x ? std::min(c, maxOf(*x)) : c);
    }
    if (isa<V_OR_B32, S_OR_B32>(op)) {
      std::optional<Range> a = operand(0), b = operand(1);
      return a && b ? bitOr(*a, *b) : std::nullopt;
    }
    if (isa<V_XOR_B32, S_XOR_B32>(op)) {
      // Sets of constants (a buffer base toggled by `s_xor_b32 rd, 8192`).
      std::optional<Range> a = operand(0), b = operand(1);
      if (!a || !b)
        return std::nullopt;
      if (a->lo != a->hi || b->lo != b->hi) {
        // Intervals (a swizzled lane term, `v ^ (v >> 4 & 0x30)`): x ^ y
        // of non-negative values is at most x + y, differs from x only in
        // the bits y may hold (x | (2^bits(y) - 1) bounds it), and sets no
        // bit both operands know to be zero (16-byte units stay aligned).
        auto lowOnes = [](int64_t v) {
          return (int64_t(1) << llvm::Log2_64_Ceil(uint64_t(v) + 1)) - 1;
        };
        int64_t x = maxOf(*a), y = maxOf(*b);
        int64_t hi = std::min({x + y, x | lowOnes(y), y | lowOnes(x)});
        unsigned zeros = std::min({knownLowZeroBits(op->getOperand(0)),
                                   knownLowZeroBits(op->getOperand(1)), 31u});
        return checked(intervalRange(0, hi >> zeros << zeros));
      }
      Range r{{}, 0, 0};
      for (int64_t x : a->bases)
        for (int64_t y : b->bases)
          r.bases.push_back((x + a->lo) ^ (y + b->lo));
      return checked(r);
    }
    if (isa<V_BFE_U32>(op)) {
      int64_t width = 0;
      if (!constantOperand(op, 2, depth, width) || width < 0 || width > 31)
        return std::nullopt;
      int64_t hi = (int64_t(1) << width) - 1;
      if (std::optional<Range> x = operand(0))
        if (constantOperand(op, 1, depth, c) && c >= 0 && c < 32)
          hi = std::min(hi, maxOf(*x) >> c);
      return intervalRange(0, hi);
    }
    if (isa<V_LSHRREV_B32, S_LSHR_B32>(op)) {
      bool rev = isa<V_LSHRREV_B32>(op);
      std::optional<Range> x = operand(rev ? 1 : 0);
      if (!x || !constantOperand(op, rev ? 0 : 1, depth, c) || c < 0 || c > 31)
        return std::nullopt;
      return intervalRange(minOf(*x) >> c, maxOf(*x) >> c);
    }
    return std::nullopt;
  }

  /// a | b of non-negative values lies in [max(a, b), a + b].
  static std::optional<Range> bitOr(const Range &a, const Range &b) {
    int64_t c = 0;
    if (isConstant(a, c) && c == 0)
      return b;
    if (isConstant(b, c) && c == 0)
      return a;
    return checked(
        intervalRange(std::max(minOf(a), minOf(b)), maxOf(a) + maxOf(b)));
  }

  /// A loop block argument: the join of its init and every yielded value,
  /// iterated to a fixed point. Values computed under an assumption are
  /// forgotten after each round, since the assumption may still grow.
  std::optional<Range> computeIterArg(BlockArgument arg, unsigned depth) {
    auto loop = dyn_cast<LoopOp>(arg.getOwner()->getParentOp());
    if (!loop)
      return std::nullopt;
    unsigned i = arg.getArgNumber();
    ConditionOp condition = loop.getConditionOp();
    if (!condition || i >= loop.getInitArgs().size() ||
        i >= condition.getIterArgs().size())
      return std::nullopt;
    std::optional<Range> current = get(loop.getInitArgs()[i], depth);
    if (!current)
      return std::nullopt;
    for (unsigned round = 0; round < kMaxLoopRounds; ++round) {
      assumed[arg] = *current;
      size_t mark = order.size();
      std::optional<Range> next = get(condition.getIterArgs()[i], depth);
      for (size_t k = mark; k < order.size(); ++k)
        cache.erase(order[k]);
      order.resize(mark);
      ranges.erase(ranges.begin() + mark, ranges.end());
      assumed.erase(arg);
      if (!next)
        return std::nullopt;
      Range joined = join(*current, *next);
      if (joined == *current)
        return current;
      current = joined;
    }
    return std::nullopt;
  }

  int64_t tidReg = -1, tidMax = 0;
  // Small map entries (an index into `ranges`): the map is probed for
  // every operand of every address computation.
  // A deque: growing never copies the ranges (SmallVector's move is not
  // noexcept, so a vector would).
  llvm::DenseMap<Value, unsigned> cache;
  std::deque<std::optional<Range>> ranges;
  std::vector<Value> order; // cache insertion order, for rollbacks
  llvm::DenseMap<Value, Range> assumed;
};

int64_t intAttr(Operation *op, llvm::StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return 0;
}

} // namespace

std::optional<LdsAccessAddress> waveasm::getLdsAccessAddress(Operation *op,
                                                             int64_t waveSize) {
  InstFacts facts = lookupInstFacts(op);
  int64_t width = 4 * int64_t(facts.dataDwords);
  if (!facts.hasInfo || width == 0)
    return std::nullopt;
  LdsAccessAddress result;
  if (isa<BUFFER_LOAD_DWORD_LDS, BUFFER_LOAD_DWORDX4_LDS>(op)) {
    result.address = findM0Source(op);
    result.offset = intAttr(op, "instOffset");
    result.extent = waveSize * width;
    result.directToLds = true;
  } else if (facts.unit == ExecUnit::LDS &&
             !isa<DS_READ2_B32, DS_READ2_B64, DS_WRITE2_B32, DS_WRITE2_B64>(
                 op) &&
             op->getNumOperands() > 0) {
    result.address = op->getOperand(op->getNumOperands() - 1);
    result.offset = intAttr(op, "offset");
    result.extent = width;
  }
  if (!result.address)
    return std::nullopt;
  return result;
}

Value waveasm::findM0Source(Operation *op) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto write = dyn_cast<S_MOV_B32_M0>(prev))
      return write.getSrc();
    if (prev->getNumRegions() || isa<LabelOp, RawOp>(prev))
      return {};
    InstFacts facts = lookupInstFacts(prev);
    if (!facts.hasInfo || (facts.implicitDefs & ImpM0))
      return {};
  }
  return {};
}

namespace {

/// Pre-order numbering with subtree ends and the loop nest; only barriers
/// are looked up by op.
struct OpNumbering {
  std::vector<Operation *> ops;
  std::vector<unsigned> subtreeEnd, parentLoop;
  llvm::DenseMap<Operation *, unsigned> barriers;

  void visit(Block &block, unsigned loop) {
    for (Operation &op : block) {
      unsigned n = ops.size();
      ops.push_back(&op);
      if (isa<S_BARRIER>(op))
        barriers[&op] = n;
      subtreeEnd.push_back(n);
      parentLoop.push_back(loop);
      unsigned inner = isa<LoopOp>(op) ? n : loop;
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          visit(nested, inner);
      subtreeEnd[n] = ops.size() - 1;
    }
  }
};

/// The first s_barrier after `op` in its block or an enclosing one (every
/// wave passes it after `op`), or nullopt.
std::optional<unsigned> nextBarrier(const OpNumbering &numbering,
                                    Operation *op) {
  for (Operation *cur = op; cur && !isa<ProgramOp>(cur);
       cur = cur->getParentOp()) {
    for (Operation *next = cur->getNextNode(); next; next = next->getNextNode())
      if (isa<S_BARRIER>(next))
        return numbering.barriers.lookup(next);
  }
  return std::nullopt;
}

} // namespace

std::optional<LdsAddressRange> waveasm::getLdsAddressRange(ProgramOp program,
                                                           Value address) {
  RangeEvaluator evaluator(program);
  return evaluator.get(address);
}

struct LdsAccessBytes::Impl {
  explicit Impl(ProgramOp program)
      : evaluator(program),
        waveSize(getTargetInfo(program.getTargetKind()).defaultWaveSize) {}
  RangeEvaluator evaluator;
  int64_t waveSize;
  llvm::DenseMap<Operation *, std::optional<Ranges>> memo;
};

LdsAccessBytes::LdsAccessBytes(ProgramOp program)
    : impl(std::make_unique<Impl>(program)) {}
LdsAccessBytes::~LdsAccessBytes() = default;

const std::optional<LdsAccessBytes::Ranges> &
LdsAccessBytes::get(Operation *op) {
  auto [it, inserted] = impl->memo.try_emplace(op);
  if (!inserted)
    return it->second;
  std::optional<Ranges> result;
  if (std::optional<LdsAccessAddress> address =
          getLdsAccessAddress(op, impl->waveSize))
    if (std::optional<Range> range = impl->evaluator.get(address->address)) {
      result.emplace();
      for (int64_t base : range->bases)
        result->push_back(
            {base + range->lo + address->offset,
             base + range->hi + address->offset + address->extent});
    }
  it->second = std::move(result);
  return it->second;
}

bool LdsAccessBytes::mayOverlap(Operation *a, Operation *b) {
  const std::optional<Ranges> &ra = get(a);
  if (!ra)
    return true;
  Ranges first = *ra; // `get(b)` may grow the map and move its entries
  const std::optional<Ranges> &rb = get(b);
  if (!rb)
    return true;
  for (auto [aBegin, aEnd] : first)
    for (auto [bBegin, bEnd] : *rb)
      if (aBegin < bEnd && bBegin < aEnd)
        return true;
  return false;
}

LdsBufferInfo waveasm::collectLdsBuffers(ProgramOp program) {
  LdsBufferInfo info;
  OpNumbering numbering;
  unsigned count = 0;
  program.getBodyBlock().walk([&](Operation *) { ++count; });
  numbering.ops.reserve(count);
  numbering.subtreeEnd.reserve(count);
  numbering.parentLoop.reserve(count);
  numbering.visit(program.getBodyBlock(), ~0u);
  RangeEvaluator evaluator(program);
  int64_t waveSize = getTargetInfo(program.getTargetKind()).defaultWaveSize;

  // Accesses and the bytes each may touch.
  struct Piece {
    int64_t begin, end;
    unsigned access;
  };
  std::vector<Piece> pieces;
  std::vector<unsigned> ldsOps;
  for (auto [position, op] : llvm::enumerate(numbering.ops)) {
    InstFacts facts = lookupInstFacts(op);
    if (facts.hasInfo && !op->getNumRegions() &&
        ((facts.memReads | facts.memWrites) & MemLDS))
      ldsOps.push_back(position);
  }
  info.accesses.reserve(ldsOps.size());
  for (unsigned position : ldsOps) {
    Operation *op = numbering.ops[position];
    InstFacts facts = lookupInstFacts(op);
    LdsAccess access;
    access.op = op;
    access.position = position;
    access.reads = facts.memReads & MemLDS;
    access.writes = facts.memWrites & MemLDS;
    access.width = 4 * int64_t(facts.dataDwords);
    std::optional<Range> range;
    std::optional<LdsAccessAddress> address = getLdsAccessAddress(op, waveSize);
    int64_t offset = 0, extent = 0;
    if (address) {
      range = evaluator.get(address->address);
      offset = address->offset;
      extent = address->extent;
      access.offsetRewritable = !address->directToLds;
    }
    if (!range) {
      if (!info.unknownAccess)
        info.unknownAccess = op;
      access.offsetRewritable = false;
    } else {
      for (int64_t base : range->bases)
        access.ranges.push_back(
            {base + range->lo + offset, base + range->hi + offset + extent});
      for (auto [begin, end] : access.ranges)
        pieces.push_back({begin, end, unsigned(info.accesses.size())});
    }
    info.accesses.push_back(std::move(access));
  }

  // Buffers: maximal runs of overlapping pieces.
  llvm::sort(pieces, [](const Piece &a, const Piece &b) {
    return a.begin < b.begin || (a.begin == b.begin && a.end < b.end);
  });
  for (const Piece &piece : pieces) {
    if (info.buffers.empty() || piece.begin >= info.buffers.back().end) {
      LdsBuffer buffer;
      buffer.begin = piece.begin;
      buffer.end = piece.end;
      info.buffers.push_back(buffer);
    }
    LdsBuffer &buffer = info.buffers.back();
    buffer.end = std::max(buffer.end, piece.end);
    // Buffers are made in order and never revisited, so an access's
    // latest buffer is the only one it can already be in.
    LdsAccess &access = info.accesses[piece.access];
    unsigned id = info.buffers.size() - 1;
    if (access.buffers.empty() || access.buffers.back() != id) {
      access.buffers.push_back(id);
      buffer.accesses.push_back(piece.access);
    }
  }

  // Lifetimes and properties.
  for (LdsBuffer &buffer : info.buffers) {
    llvm::sort(buffer.accesses);
    const LdsAccess &first = info.accesses[buffer.accesses.front()];
    const LdsAccess &last = info.accesses[buffer.accesses.back()];
    buffer.firstAccess = first.op;
    buffer.lastAccess = last.op;
    buffer.liveIn = first.reads && !first.writes;
    buffer.movable = !buffer.liveIn && info.complete();
    unsigned start = buffer.liveIn ? 0 : first.position;
    unsigned stop = last.position;
    // The innermost loop around every access.
    auto loopsOf = [&](unsigned position) {
      llvm::SmallVector<unsigned, 4> loops;
      for (unsigned l = numbering.parentLoop[position]; l != ~0u;
           l = numbering.parentLoop[l])
        loops.push_back(l);
      return loops; // innermost first
    };
    llvm::SmallVector<unsigned, 4> common = loopsOf(first.position);
    for (unsigned a : buffer.accesses) {
      const LdsAccess &access = info.accesses[a];
      buffer.accessAlignment = std::max(buffer.accessAlignment, access.width);
      buffer.read |= access.reads;
      buffer.written |= access.writes;
      buffer.rotating |= access.buffers.size() > 1;
      buffer.movable &= access.offsetRewritable && access.buffers.size() == 1;
      llvm::SmallVector<unsigned, 4> loops = loopsOf(access.position);
      for (unsigned l : loops) {
        start = std::min(start, l);
        stop = std::max(stop, numbering.subtreeEnd[l]);
      }
      llvm::erase_if(common,
                     [&](unsigned l) { return !llvm::is_contained(loops, l); });
    }
    if (!common.empty()) {
      buffer.loop = common.front();
      bool readIn = false, writtenIn = false;
      for (unsigned a : buffer.accesses) {
        const LdsAccess &access = info.accesses[a];
        readIn |= access.reads;
        writtenIn |= access.writes;
      }
      buffer.readAndWrittenInLoop = readIn && writtenIn;
    }
    // Until every wave is past a barrier after the last access.
    std::optional<unsigned> barrier =
        nextBarrier(numbering, numbering.ops[stop]);
    buffer.start = start;
    buffer.stop = barrier ? *barrier : numbering.ops.size() - 1;
  }
  info.ops = std::move(numbering.ops);
  return info;
}

unsigned waveasm::knownLowZeroBits(Value value) {
  return LowZeros().get(value);
}
