//===- VGPRCompaction.cpp - move allocated VGPR ranges down ---------------===//
//
// `waveasm-vgpr-compaction` (SPEC.md 19), after register allocation: every
// VGPR range is placed again, shortest lifetime first, at the lowest free
// aligned base, so that the highest VGPR in use (the kernel's VGPR count,
// hence occupancy) drops. SGPRs and AGPRs are not touched.
//
// Liveness is the allocator's own (LiveIntervals.h, with physical values
// included) and so is its conflict rule: a range occupies its registers over
// the whole program points of its envelope, so a result never takes the
// registers of an operand its op reads (MFMA sources, multi-register moves,
// the emitter's staging through the destination stay safe).
//
// Values that must keep sharing registers move together as one unit: loop
// inits, block arguments, iter_args and results in the same registers (loop
// block arguments are renamed consistently), if results and the yields in
// their registers, an op's result in the registers of one of its operands
// (the MFMA accumulator), pack operands, extract and insert results at
// their offset in the aggregate, and the `v_mov_b32` + `dce_protect` the
// allocator writes an insert's slot with. Values only copied into each other
// (the emitter's copies where those registers differ) move independently.
//
// Pinned: units holding a `precolored.vreg` value keep their registers, which
// are reserved for the whole program (the hardware fills them before the
// first instruction), and so is the scratch v15.
//
// Order: shortest lifetime first, as upstream; when that greedy order
// cannot beat the input's peak, the ranges are placed again by start (first
// fit, as linear scan does) and the better placement is kept. Neither runs
// when the registers live at one point already reach the input's peak, and
// a placement stops at the first unit that would reach it: either way it
// would be refused (the allocation is often as tight as that bound).
//
// Alignment: physical types have none, so a unit keeps the alignment of its
// old base up to its size rounded to a power of two (a tuple at v8..v11
// stays 4-aligned; a single register may go anywhere).
//
// The program is left unchanged (with a note under
// --debug-only=waveasm-vgpr-compaction) when it is not allocated, when raw
// text names VGPRs, when `_iterArgPhysRegs` or a loop result disagrees with
// the types, or when the new placement would not lower the VGPR peak.
//
// Cost: the linear scan's liveness taken over (AllocatedLiveModel.h; one
// build when it is not at hand), then per unit a query and an update of
// register bit masks kept per block of program points and per point
// (BlockedOccupancy.h): O((n x peak / 16 + units x 16) x registers / 64).
//
//===----------------------------------------------------------------------===//

#include "pipeline/AllocatedLiveModel.h"
#include "pipeline/BlockedOccupancy.h"
#include "pipeline/ForEachOp.h"
#include "pipeline/Literals.h"
#include "pipeline/LiveIntervals.h"
#include "pipeline/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <atomic>
#include <numeric>

#define DEBUG_TYPE "waveasm-vgpr-compaction"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMVGPRCOMPACTION
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;
using namespace waveasm::regalloc;

namespace {
std::atomic<uint64_t> takenModels{0};
} // namespace

uint64_t waveasm::getTakenAllocatedLiveModels() { return takenModels.load(); }
void waveasm::noteTakenAllocatedLiveModel() { ++takenModels; }

namespace {

/// The first register of a physical VGPR type, or -1 for any other type.
/// One TypeID compare and a field read: getRegTypeInfo decodes all six
/// register kinds, and compaction asks this of every operand of every op.
/// Once checkSupported passed, every VGPR value is physical.
int64_t physicalVGPRIndex(Type type) {
  auto vgpr = dyn_cast<PVRegType>(type);
  return vgpr ? vgpr.getIndex() : -1;
}

/// Whether a bit of [from, to) is set in `mask`, and the first one. A word
/// at a time: placing a unit scans the busy registers below its slot, and a
/// bit at a time that was most of this pass (86M of 117M instructions at
/// 20k ops); the answer is the same.
bool anyBitIn(ArrayRef<uint64_t> mask, int64_t from, int64_t to,
              int64_t *firstSet) {
  while (from < to) {
    int64_t word = from / 64, bit = from % 64;
    uint64_t bits = mask[word] >> bit;
    int64_t span = std::min<int64_t>(64 - bit, to - from);
    if (span < 64)
      bits &= (uint64_t(1) << span) - 1;
    if (bits) {
      *firstSet = from + llvm::countr_zero(bits);
      return true;
    }
    from += span;
  }
  return false;
}

/// The first clear bit of `mask` at or after `from`, or `to` when every
/// bit of [from, to) is set.
int64_t firstClearBit(ArrayRef<uint64_t> mask, int64_t from, int64_t to) {
  while (from < to) {
    int64_t word = from / 64, bit = from % 64;
    uint64_t clear = ~mask[word] >> bit;
    if (clear)
      return std::min(to, from + llvm::countr_zero(clear));
    from += 64 - bit;
  }
  return to;
}

void setBits(MutableArrayRef<uint64_t> mask, int64_t from, int64_t to) {
  for (int64_t r = from; r < to; ++r)
    mask[r / 64] |= uint64_t(1) << (r % 64);
}

//===----------------------------------------------------------------------===//
// Units: values that keep sharing registers
//===----------------------------------------------------------------------===//

struct Unit {
  int64_t lo = INT64_MAX, hi = 0;      // registers [lo, hi) in the input
  int64_t start = INT64_MAX, end = -1; // program points
  int64_t pinnedHi = 0;                // precolored extent (attr size)
  bool pinned = false;
  int64_t base = -1; // new lo
  int64_t size() const { return hi - lo; }
  int64_t align() const {
    int64_t natural = static_cast<int64_t>(llvm::PowerOf2Ceil(size()));
    if (lo == 0)
      return natural;
    return std::min<int64_t>(natural, lo & -lo);
  }
};

class Compactor {
public:
  /// `allocated`: the linear scan's model of this program, taken over
  /// (AllocatedLiveModel.h); null to build one.
  Compactor(ProgramOp program, std::unique_ptr<LiveModel> allocated)
      : program(program), model(program), handed(std::move(allocated)) {}

  /// Plans the new placement; false (with the reason logged) when the
  /// program must stay as it is.
  bool plan();
  /// Retypes every VGPR value and updates `_iterArgPhysRegs`.
  void rewrite();

  int64_t oldPeak = 0, newPeak = 0;
  size_t moved = 0, unitCount = 0;

private:
  ProgramOp program;
  LiveModel model;
  std::unique_ptr<LiveModel> handed;
  std::vector<int32_t> parent;   // union-find over model.values
  std::vector<int32_t> unitOf;   // value id -> unit, or -1 (not a VGPR)
  std::vector<int64_t> firstReg; // value id -> its first VGPR (units only)
  std::vector<Unit> units;
  /// Made by the first placement, cleared for the second.
  std::unique_ptr<BlockedOccupancy> occupancy;

  bool refuse(const Twine &why) {
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": @" << program.getSymName()
                            << ": left unchanged: " << why << "\n");
    return false;
  }
  int32_t find(int32_t id) {
    while (parent[id] != id)
      id = parent[id] = parent[parent[id]];
    return id;
  }
  /// A VGPR value's id and first register, or (-1, -1).
  std::pair<int32_t, int64_t> vgpr(Value value) const {
    int64_t reg = physicalVGPRIndex(value.getType());
    if (reg < 0)
      return {-1, -1};
    return {model.idOf(value), reg};
  }
  /// A VGPR value's id when its first register is `reg`, else -1: the
  /// value's id is looked up only when the registers match.
  int32_t vgprAt(Value value, int64_t reg) const {
    if (physicalVGPRIndex(value.getType()) != reg)
      return -1;
    return model.idOf(value);
  }
  /// Unites `a` and `b` if `a` lives exactly `offset` registers above `b`.
  void tieAt(Value a, Value b, int64_t offset) {
    tieAt(vgpr(a), vgpr(b), offset);
  }
  /// The same with `vgpr` of both values already known.
  void tieAt(std::pair<int32_t, int64_t> a, std::pair<int32_t, int64_t> b,
             int64_t offset) {
    if (a.first < 0 || b.first < 0 || a.second != b.second + offset)
      return;
    parent[find(a.first)] = find(b.first);
  }
  bool checkSupported();
  void buildTies();
  /// A lower bound of any placement's peak: the most registers the
  /// unpinned units live at one program point occupy, plus the `reserved`
  /// registers below that many (they are taken at every point).
  int64_t lowerBoundOfPeak(ArrayRef<uint64_t> reserved) const;
  /// Places the units of `order` one by one at the lowest free aligned
  /// base (setting Unit::base); the highest register used, or nullopt when
  /// a unit finds no room below `limit`.
  std::optional<int64_t> place(ArrayRef<int32_t> order,
                               ArrayRef<uint64_t> reserved, int64_t limit,
                               unsigned words);
  template <unsigned FixedWords>
  std::optional<int64_t> placeWith(ArrayRef<int32_t> order,
                                   ArrayRef<uint64_t> reserved, int64_t limit,
                                   unsigned words);
};

bool mentionsVGPR(StringRef text) {
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != 'v' ||
        (i > 0 && (llvm::isAlnum(text[i - 1]) || text[i - 1] == '_')))
      continue;
    if (llvm::isDigit(text[i + 1]) || text[i + 1] == '[')
      return true;
  }
  return false;
}

/// Whether compaction cannot work on `op` (and why, in `why`).
bool isUnsupported(Operation *op, std::string &why) {
  // A virtual VGPR is a VRegType (RegisterTypes.h: the only virtual kind
  // of the class).
  auto virtualVGPR = [](Value v) { return isa<VRegType>(v.getType()); };
  if (llvm::any_of(op->getResults(), virtualVGPR)) {
    why = "it has virtual VGPRs (run --waveasm-linear-scan first)";
    return true;
  }
  if (auto raw = dyn_cast<RawOp>(op); raw && mentionsVGPR(raw.getText())) {
    why = "raw text names VGPRs: \"" + raw.getText().str() + "\"";
    return true;
  }
  if (auto loop = dyn_cast<LoopOp>(op)) {
    if (loop.getBody().empty())
      return false;
    for (auto [arg, result] :
         llvm::zip(loop.getBody().getArguments(), loop.getResults()))
      if (getRegClass(arg.getType()) == RegClass::VGPR &&
          arg.getType() != result.getType()) {
        why = "a loop result is not in its block argument's registers";
        return true;
      }
    if (llvm::any_of(loop.getBody().getArguments(), virtualVGPR)) {
      why = "it has virtual VGPRs (run --waveasm-linear-scan first)";
      return true;
    }
  }
  if (auto cond = dyn_cast<ConditionOp>(op))
    if (auto regs = cond->getAttrOfType<DenseI64ArrayAttr>("_iterArgPhysRegs"))
      for (auto [reg, value] : llvm::zip(regs.asArrayRef(), cond.getIterArgs()))
        if (getRegClass(value.getType()) == RegClass::VGPR &&
            getPhysicalIndex(value.getType()) != reg) {
          why = "_iterArgPhysRegs names a VGPR other than its iter_arg's";
          return true;
        }
  return false;
}

bool Compactor::checkSupported() {
  std::string why;
  size_t numOps = 0;
  bool unsupported = false;
  // In Region::walk's order (post-order), so the reason given is the same
  // op's; inlined (ForEachOp.h), and on past a refusal, which is rare.
  forEachOpPostOrder(program.getBody(), [&](Operation *op) {
    ++numOps;
    if (!unsupported)
      unsupported = isUnsupported(op, why);
  });
  if (unsupported)
    return refuse(why);
  // A handed model numbers the ops the allocator left; the analysis manager
  // drops it when a pass changes the program, so the count is a check of
  // that contract, which a mismatch breaks: the model is built again.
  if (handed && handed->ops.size() != numOps) {
    LLVM_DEBUG(llvm::dbgs()
               << DEBUG_TYPE ": @" << program.getSymName()
               << ": the allocator's model numbers " << handed->ops.size()
               << " ops, the program has " << numOps << ": built again\n");
    handed.reset();
  }
  return true;
}

void Compactor::buildTies() {
  parent.resize(model.values.size());
  std::iota(parent.begin(), parent.end(), 0);
  for (Operation *op : model.ops) {
    // The op's class read once, not once per kind asked.
    TypeID kind = op->getName().getTypeID();
    if (kind == TypeID::get<PackOp>()) {
      auto pack = cast<PackOp>(op);
      int64_t offset = 0;
      for (Value element : pack.getElements()) {
        tieAt(element, pack.getResult(), offset);
        offset += getRegSize(element.getType());
      }
    } else if (kind == TypeID::get<ExtractOp>()) {
      auto extract = cast<ExtractOp>(op);
      tieAt(extract.getResult(), extract.getSource(),
            static_cast<int64_t>(extract.getIndex()));
    } else if (kind == TypeID::get<InsertOp>()) {
      auto insert = cast<InsertOp>(op);
      int64_t slot = static_cast<int64_t>(insert.getIndex());
      tieAt(insert.getResult(), insert.getVector(), 0);
      tieAt(insert.getValue(), insert.getResult(), slot);
      // The allocator writes the slot with `v_mov_b32` + `dce_protect`
      // right before the insert (SPEC.md 14.4 step 8).
      if (auto protect = dyn_cast_or_null<DCEProtectOp>(op->getPrevNode()))
        if (auto mov = protect->getOperand(0).getDefiningOp<V_MOV_B32>())
          if (mov.getSrc() == insert.getValue())
            tieAt(mov.getResult(), insert.getResult(), slot);
    } else if (kind == TypeID::get<LoopOp>()) {
      auto loop = cast<LoopOp>(op);
      if (loop.getBody().empty())
        continue;
      ConditionOp cond = loop.getConditionOp();
      for (auto [i, arg] : llvm::enumerate(loop.getBody().getArguments())) {
        tieAt(loop.getResult(i), arg, 0);
        tieAt(loop.getInitArgs()[i], arg, 0);
        if (cond && i < cond.getIterArgs().size())
          tieAt(cond.getIterArgs()[i], arg, 0);
      }
    } else if (kind == TypeID::get<IfOp>()) {
      auto ifOp = cast<IfOp>(op);
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
        if (YieldOp yield = ifOp.getYield(*region))
          for (auto [value, result] :
               llvm::zip(yield.getValues(), ifOp.getResults()))
            tieAt(value, result, 0);
    } else if (op->getNumRegions() == 0 && kind != TypeID::get<V_MOV_B32>()) {
      // A result in the registers of an operand is tied to it (the MFMA
      // accumulator); an ordinary result never shares an operand's
      // registers after allocation. Copies are separate values.
      // The result's register once, not once per operand; its id only
      // once an operand is found in its registers (seldom).
      for (Value result : op->getResults()) {
        int64_t reg = physicalVGPRIndex(result.getType());
        if (reg < 0)
          continue;
        int32_t tied = -2; // not looked up yet
        for (Value operand : op->getOperands()) {
          int32_t id = vgprAt(operand, reg);
          if (id < 0)
            continue;
          if (tied == -2)
            tied = model.idOf(result);
          if (tied < 0)
            break;
          parent[find(tied)] = find(id);
        }
      }
    }
  }
}

bool Compactor::plan() {
  if (!checkSupported())
    return false;
  if (handed) {
    // The allocator's values of every class and the physical VGPRs it
    // tracked: the VGPRs have the intervals a VGPR-only build gives them
    // (tests/unit/LiveModelTest.cpp), the other classes are skipped below.
    model = std::move(*handed);
    handed.reset();
    model.adoptTrackedPhysical();
    noteTakenAllocatedLiveModel();
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": @" << program.getSymName()
                            << ": the allocator's live intervals taken over\n");
  } else {
    model.includePhysical = true;
    model.onlyClass = RegClass::VGPR;
    model.buildIntervals();
  }
  buildTies();

  // Units and their extents.
  // Units numbered in the order of their first value, as before (a root's
  // unit by the root's id: a table, not a hash map).
  unitOf.assign(model.values.size(), -1);
  firstReg.assign(model.values.size(), -1);
  std::vector<int32_t> unitOfRoot(model.values.size(), -1);
  for (auto [id, info] : llvm::enumerate(model.values)) {
    if (info.regClass != RegClass::VGPR)
      continue;
    int64_t reg = physicalVGPRIndex(info.value.getType());
    firstReg[id] = reg;
    int32_t &rootUnit = unitOfRoot[find(static_cast<int32_t>(id))];
    if (rootUnit < 0) {
      rootUnit = static_cast<int32_t>(units.size());
      units.emplace_back();
    }
    Unit &unit = units[rootUnit];
    unitOf[id] = rootUnit;
    unit.lo = std::min(unit.lo, reg);
    unit.hi = std::max(unit.hi, reg + info.size);
    unit.start = std::min(unit.start, info.live.start >> 1);
    unit.end = std::max(unit.end, info.live.end >> 1);
    if (auto pre = info.value.getDefiningOp<PrecoloredVRegOp>()) {
      unit.pinned = true;
      unit.pinnedHi = std::max(
          unit.pinnedHi, reg + std::max<int64_t>(info.size, pre.getSize()));
    }
    oldPeak = std::max(oldPeak, reg + info.size);
  }
  unitCount = units.size();
  if (units.empty())
    return refuse("it has no VGPR values");

  // The registers every placement must avoid: pinned units (whole
  // program) and the scratch v15.
  int64_t limit = oldPeak;
  unsigned words = static_cast<unsigned>(llvm::divideCeil(limit, 64));
  SmallVector<uint64_t, 8> reserved(words, 0);
  if (kScratchVGPR < limit)
    setBits(reserved, kScratchVGPR, kScratchVGPR + 1);
  for (Unit &unit : units)
    if (unit.pinned) {
      unit.base = unit.lo;
      setBits(reserved, unit.lo,
              std::min(limit, std::max(unit.hi, unit.pinnedHi)));
      newPeak = std::max(newPeak, unit.hi);
    }

  // No placement can beat the old peak when the ranges live at one point,
  // with the reserved registers below them, already fill it: every
  // placement would fail or be refused below, so it is not tried.
  int64_t bound = lowerBoundOfPeak(reserved);
  if (bound >= oldPeak)
    return refuse("the ranges live at one point need v" + Twine(bound) +
                  ", the input's peak is v" + Twine(oldPeak));

  SmallVector<int32_t> order;
  for (auto [i, unit] : llvm::enumerate(units))
    if (!unit.pinned)
      order.push_back(static_cast<int32_t>(i));
  // Each order sorts keys laid out beside the unit's index (comparing
  // through the indices read both units' fields at every comparison); the
  // index is the last key, so the order is the same total order.
  struct Keyed {
    int64_t first, second, third;
    int32_t unit;
    bool operator<(const Keyed &other) const {
      return std::tie(first, second, third, unit) <
             std::tie(other.first, other.second, other.third, other.unit);
    }
  };
  auto sortBy = [&](auto key) {
    SmallVector<Keyed> keyed;
    keyed.reserve(order.size());
    for (int32_t index : order)
      keyed.push_back(key(index, units[index]));
    // std::sort: llvm::sort of a type with operator< alone is qsort.
    std::sort(keyed.begin(), keyed.end());
    for (auto [slot, entry] : llvm::zip(order, keyed))
      slot = entry.unit;
  };
  auto byLength = [](int32_t index, const Unit &unit) {
    return Keyed{unit.end - unit.start, unit.start, unit.lo, index};
  };
  auto byStart = [](int32_t index, const Unit &unit) {
    return Keyed{unit.start, -unit.size(), unit.lo, index};
  };
  // Upstream: shortest lifetime first only. Greedy placement in that order
  // can need more registers than the allocation it replaces; then the
  // ranges are placed again in order of their start (first fit, as linear
  // scan does), and the lower of the two peaks wins.
  // A placement is kept only below the old peak: one that reaches it is
  // stopped there (as if it did not fit), which refuses it as before.
  int64_t below = oldPeak - 1;
  sortBy(byLength);
  std::optional<int64_t> first = place(order, reserved, below, words);
  SmallVector<int64_t> firstBases;
  if (first)
    for (const Unit &unit : units)
      firstBases.push_back(unit.base);
  if (!first || *first >= oldPeak) {
    sortBy(byStart);
    std::optional<int64_t> second = place(order, reserved, below, words);
    if (second && (!first || *second < *first)) {
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": @" << program.getSymName()
                              << ": shortest-first placement "
                              << (first ? "reaches v" + std::to_string(*first)
                                        : std::string("does not fit"))
                              << "; placed by start instead\n");
      first = second;
      firstBases.clear();
    }
  }
  if (!first)
    return refuse("the ranges find no placement below the input's peak v" +
                  Twine(oldPeak));
  if (!firstBases.empty())
    for (auto [unit, base] : llvm::zip(units, firstBases))
      unit.base = base;
  newPeak = std::max(newPeak, *first);
  if (newPeak >= oldPeak)
    return refuse("the placement does not lower the VGPR peak (" +
                  Twine(oldPeak) + ")");
  for (const Unit &unit : units)
    moved += unit.base != unit.lo;
  return true;
}

int64_t Compactor::lowerBoundOfPeak(ArrayRef<uint64_t> reserved) const {
  // Units occupy their registers over [start, end], clipped to the points
  // as the occupancy clips them: a sweep over the points.
  int64_t points = static_cast<int64_t>(model.ops.size()) + 1;
  std::vector<int64_t> delta(points + 1, 0);
  for (const Unit &unit : units) {
    int64_t start = std::max<int64_t>(unit.start, 0);
    int64_t end = std::min(unit.end, points - 1);
    if (unit.pinned || start > end)
      continue;
    delta[start] += unit.size();
    delta[end + 1] -= unit.size();
  }
  int64_t live = 0, most = 0;
  for (int64_t p = 0; p < points; ++p) {
    live += delta[p];
    most = std::max(most, live);
  }
  int64_t reservedBelow = 0;
  for (int64_t r = 0, e = std::min<int64_t>(most, 64 * reserved.size()); r < e;
       ++r)
    reservedBelow += (reserved[r / 64] >> (r % 64)) & 1;
  return most + reservedBelow;
}

std::optional<int64_t> Compactor::place(ArrayRef<int32_t> order,
                                        ArrayRef<uint64_t> reserved,
                                        int64_t limit, unsigned words) {
  // Up to 256 VGPRs (the hardware's file; the trial allocation's 512 is
  // the rare rest) the mask width is a compile-time constant.
  switch (words) {
  case 1:
    return placeWith<1>(order, reserved, limit, words);
  case 2:
    return placeWith<2>(order, reserved, limit, words);
  case 3:
    return placeWith<3>(order, reserved, limit, words);
  case 4:
    return placeWith<4>(order, reserved, limit, words);
  default:
    return placeWith<0>(order, reserved, limit, words);
  }
}

template <unsigned FixedWords>
std::optional<int64_t> Compactor::placeWith(ArrayRef<int32_t> order,
                                            ArrayRef<uint64_t> reserved,
                                            int64_t limit, unsigned words) {
  // One occupancy for both placements: the second starts from a cleared
  // one.
  if (occupancy)
    occupancy->clear();
  else
    occupancy = std::make_unique<BlockedOccupancy>(
        static_cast<int64_t>(model.ops.size()) + 1, words);
  // A fixed width copies and clears its masks inline (a run-time width
  // called memcpy and memset for two words per unit).
  const unsigned n = FixedWords ? FixedWords : words;
  SmallVector<uint64_t, 8> busy(n), mask(n);
  int64_t peak = 0;
  for (int32_t index : order) {
    Unit &unit = units[index];
    std::copy_n(reserved.data(), n, busy.data());
    occupancy->query<FixedWords>(unit.start, unit.end, busy);
    int64_t size = unit.size(), align = unit.align();
    int64_t base = 0, firstSet = 0;
    // The lowest aligned base whose registers are all free. A base up to
    // the end of the run of busy registers at `firstSet` would still hold
    // one of them, so the search resumes after that run.
    while (base + size <= limit && anyBitIn(busy, base, base + size, &firstSet))
      base = llvm::alignTo(firstClearBit(busy, firstSet, limit), align);
    if (base + size > limit)
      return std::nullopt;
    unit.base = base;
    std::fill_n(mask.data(), n, 0);
    setBits(mask, base, base + size);
    occupancy->add<FixedWords>(unit.start, unit.end, mask);
    peak = std::max(peak, base + size);
  }
  return peak;
}

void Compactor::rewrite() {
  MLIRContext *ctx = program.getContext();
  // getPhysicalType keeps this thread's types of the context (its cache).
  for (auto [id, info] : llvm::enumerate(model.values)) {
    if (unitOf[id] < 0)
      continue;
    const Unit &unit = units[unitOf[id]];
    if (unit.base == unit.lo)
      continue; // its type names the same registers
    int64_t index = unit.base + (firstReg[id] - unit.lo);
    info.value.setType(getPhysicalType(ctx, RegClass::VGPR, index, info.size));
  }
  for (Operation *op : model.ops) {
    auto cond = dyn_cast<ConditionOp>(op);
    if (!cond || !cond->hasAttr("_iterArgPhysRegs"))
      continue;
    SmallVector<int64_t> regs;
    for (Value value : cond.getIterArgs())
      regs.push_back(getPhysicalIndex(value.getType()).value_or(-1));
    cond->setAttr("_iterArgPhysRegs", DenseI64ArrayAttr::get(ctx, regs));
  }
}

struct VGPRCompactionPass
    : public waveasm::impl::WaveASMVGPRCompactionBase<VGPRCompactionPass> {
  void runOnOperation() override {
    ProgramOp program = getOperation();
    if (program.getBody().empty())
      return markAllAnalysesPreserved();
    std::unique_ptr<LiveModel> allocated;
    if (auto cached = getCachedAnalysis<AllocatedLiveModel>())
      allocated = std::move(cached->get().model);
    Compactor compactor(program, std::move(allocated));
    if (!compactor.plan())
      return markAllAnalysesPreserved();
    compactor.rewrite();
    LLVM_DEBUG(llvm::dbgs()
               << DEBUG_TYPE ": @" << program.getSymName() << ": moved "
               << compactor.moved << " of " << compactor.unitCount
               << " VGPR ranges; peak v" << compactor.oldPeak << " -> v"
               << compactor.newPeak << "\n");
  }
};

} // namespace
