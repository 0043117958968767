//===- LdsBankConflicts.cpp - LDS bank conflicts of ds accesses -----------===//
//
// The rules are in the header. Values are evaluated on 32-bit words, as the
// hardware computes addresses.
//
//===----------------------------------------------------------------------===//

#include "analysis/LdsBankConflicts.h"
#include "analysis/LdsAnalysisMemo.h"
#include "analysis/LdsBankCostMemo.h"
#include "analysis/LdsPadding.h"

#include "ir/InstFacts.h"
#include "ir/OpClassTable.h"
#include "ir/Workgroup.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;

LdsBankCost waveasm::computeLdsBankCost(llvm::ArrayRef<uint32_t> addresses,
                                        uint64_t activeMask,
                                        unsigned bytesPerLane, unsigned banks,
                                        int64_t minClocks) {
  LdsBankCost cost;
  banks = std::max(1u, banks);
  unsigned dwordsPerLane = std::max(1u, bytesPerLane / 4);
  unsigned lanesPerPhase = std::max(1u, banks / dwordsPerLane);
  unsigned lanes = addresses.size();
  int64_t sum = 0;
  // Per phase, the distinct dwords in an open-addressing set and a count
  // per bank: a phase holds at most max(banks, dwordsPerLane) dwords, so a
  // table of twice that (a power of two) stays sparse, and a slot belongs
  // to the phase that stamped it (no clearing between phases). Constant
  // time per dword whatever the conflict; the per-bank chains this
  // replaces walked a d-way bank's d dwords for each new one, most of the
  // cycle model's bank-conflict time on conflicting accesses.
  unsigned capacity = llvm::PowerOf2Ceil(2 * std::max(banks, dwordsPerLane));
  unsigned shift = 32 - llvm::Log2_32(capacity);
  llvm::SmallVector<uint32_t, 256> slots(capacity);
  llvm::SmallVector<uint32_t, 256> stamps(capacity, 0);
  llvm::SmallVector<unsigned, 64> count(banks);
  bool banksPow2 = llvm::isPowerOf2_32(banks);
  uint32_t stamp = 0;
  for (unsigned first = 0; first < lanes; first += lanesPerPhase) {
    ++stamp;
    std::fill(count.begin(), count.end(), 0);
    bool active = false;
    unsigned worst = 0;
    for (unsigned lane = first; lane < std::min(lanes, first + lanesPerPhase);
         ++lane) {
      if (lane < 64 && !(activeMask >> lane & 1))
        continue;
      active = true;
      for (unsigned d = 0; d < dwordsPerLane; ++d) {
        uint32_t dword = addresses[lane] / 4 + d;
        // Fibonacci hashing: the top bits of the product.
        uint32_t slot = uint32_t(dword * 0x9E3779B1u) >> shift;
        bool seen = false;
        while (stamps[slot] == stamp) {
          if (slots[slot] == dword) {
            seen = true;
            break;
          }
          slot = (slot + 1) & (capacity - 1);
        }
        if (seen)
          continue;
        stamps[slot] = stamp;
        slots[slot] = dword;
        unsigned bank = banksPow2 ? dword & (banks - 1) : dword % banks;
        worst = std::max(worst, ++count[bank]);
      }
    }
    if (!active)
      continue;
    ++cost.phases;
    cost.degree = std::max(cost.degree, worst);
    sum += worst;
  }
  cost.clocks = std::max(minClocks, sum);
  cost.idealClocks = std::max<int64_t>(minClocks, cost.phases);
  return cost;
}

LdsBankModel waveasm::getLdsBankModel(const TargetModel &target) {
  LdsBankModel model;
  if (target.arch && target.arch->kind == TargetKind::gfx1250)
    model.banks = 32;
  return model;
}

int64_t waveasm::ldsExtraSlots(int64_t extraClocks) {
  return (extraClocks + kClocksPerIssueSlot - 1) / kClocksPerIssueSlot;
}

namespace {

/// A value for every thread of the workgroup, plus possibly a per-wave
/// unknown constant.
struct LaneValue {
  bool known = false;
  bool perWave = false; // + U, an unknown constant per wave
  std::string why;      // when !known
  std::vector<uint32_t> v;
};

/// Whether every lane of `lanes` (as many as `reference` has) is the
/// lane of `reference` plus one constant multiple of 4 bytes, exactly (no
/// wrap-around): the addresses then name the reference's dwords shifted by
/// a whole number of dwords, and have its bank cost.
bool shiftedByDwords(llvm::ArrayRef<uint32_t> lanes,
                     llvm::ArrayRef<uint32_t> reference) {
  if (reference.empty())
    return false;
  int64_t shift = int64_t(lanes[0]) - int64_t(reference[0]);
  if (shift % 4 != 0)
    return false;
  for (size_t l = 1; l < reference.size(); ++l)
    if (int64_t(lanes[l]) - int64_t(reference[l]) != shift)
      return false;
  return true;
}

bool isDsAccess(llvm::StringRef name) {
  return name.starts_with("ds_read") || name.starts_with("ds_write");
}

} // namespace

/// Evaluates address chains (header: "Addresses"), memoized per value.
class LdsBankConflicts::Evaluator {
public:
  Evaluator(ProgramOp program, unsigned waveSize, unsigned numThreads,
            std::array<int64_t, 3> size)
      : waveSize(waveSize), numThreads(numThreads) {
    tidReg = program.getAbi().getTid();
    tid.resize(numThreads);
    for (unsigned t = 0; t < numThreads; ++t) {
      uint64_t x = t % size[0], y = t / size[0] % size[1],
               z = t / (size[0] * size[1]);
      tid[t] = uint32_t(x | (y << 10) | (z << 20));
    }
  }

  /// A multiplier to replace while evaluating (suggestPadding).
  Operation *overrideOp = nullptr;
  int64_t overrideFactor = 0;

  const LaneValue &eval(Value value, unsigned depth = 0);

  /// Ops of `value`'s chain that multiply by a constant, with the factor.
  void
  collectStrides(Value value,
                 llvm::SmallVectorImpl<std::pair<Operation *, int64_t>> &out,
                 llvm::DenseSet<Value> &seen);

private:
  LaneValue unknown(std::string why) {
    LaneValue r;
    r.why = std::move(why);
    return r;
  }
  LaneValue filled(uint32_t word) {
    LaneValue r;
    r.known = true;
    r.v.assign(numThreads, word);
    return r;
  }
  LaneValue perWaveUnknown() {
    LaneValue r = filled(0);
    r.perWave = true;
    return r;
  }
  /// True if `x` is the same within each wave.
  bool waveUniform(const LaneValue &x) const {
    for (unsigned t = 0; t < numThreads; ++t)
      if (x.v[t] != x.v[t - t % waveSize])
        return false;
    return true;
  }
  /// The value every thread has, if they all have the same.
  static std::optional<uint32_t> uniformOf(const LaneValue &x) {
    if (x.v.empty())
      return std::nullopt;
    uint32_t first = x.v[0];
    bool same = true;
    for (uint32_t word : x.v)
      same &= word == first;
    return same ? std::optional<uint32_t>(first) : std::nullopt;
  }
  /// True if each wave's values differ from `a`'s by one constant.
  bool sameUpToWaveConstant(const LaneValue &a, const LaneValue &b) const {
    for (unsigned t = 0; t < numThreads; ++t) {
      unsigned w0 = t - t % waveSize;
      if (b.v[t] - a.v[t] != b.v[w0] - a.v[w0])
        return false;
    }
    return true;
  }
  LaneValue compute(Operation *op, Value value, unsigned depth);
  LaneValue computeBlockArg(BlockArgument arg, unsigned depth);

  unsigned waveSize, numThreads;
  int64_t tidReg = -1;
  std::vector<uint32_t> tid;
  llvm::DenseMap<Value, unsigned> memo;
  std::vector<LaneValue> pool;
  std::vector<Value> order; // memo insertion order, for rollback
};

static constexpr unsigned kMaxDepth = 200;

const LaneValue &LdsBankConflicts::Evaluator::eval(Value value,
                                                   unsigned depth) {
  auto it = memo.find(value);
  if (it != memo.end())
    return pool[it->second];
  LaneValue result;
  if (depth > kMaxDepth)
    result = unknown("the address chain is too long to follow");
  else if (auto arg = dyn_cast<BlockArgument>(value))
    result = computeBlockArg(arg, depth);
  else
    result = compute(value.getDefiningOp(), value, depth);
  // An SGPR the chain cannot compute is still one value per wave.
  if (!result.known && isa<SRegType, PSRegType>(value.getType()))
    result = perWaveUnknown();
  // computeBlockArg may have memoized `value` itself.
  it = memo.find(value);
  if (it != memo.end()) {
    pool[it->second] = std::move(result);
    return pool[it->second];
  }
  memo[value] = pool.size();
  order.push_back(value);
  pool.push_back(std::move(result));
  return pool.back();
}

LaneValue LdsBankConflicts::Evaluator::computeBlockArg(BlockArgument arg,
                                                       unsigned depth) {
  auto loop = dyn_cast<LoopOp>(arg.getOwner()->getParentOp());
  if (!loop)
    return unknown("a block argument of a region other than a loop");
  ConditionOp cond = loop.getConditionOp();
  unsigned no = arg.getArgNumber();
  if (!cond || no >= loop.getInitArgs().size() ||
      no >= cond.getIterArgs().size())
    return unknown("a loop block argument without an init or a yield");
  LaneValue init = eval(loop.getInitArgs()[no], depth + 1);
  if (!init.known)
    return unknown("the loop's init: " + init.why);
  // Assume "init + a per-wave constant" and check that the yield keeps it.
  size_t mark = order.size();
  LaneValue assumed = init;
  assumed.perWave = true;
  memo[arg] = pool.size();
  order.push_back(arg);
  pool.push_back(assumed);
  LaneValue yielded = eval(cond.getIterArgs()[no], depth + 1);
  bool ok = yielded.known && sameUpToWaveConstant(init, yielded);
  if (ok)
    return assumed;
  // Undo what was computed under the assumption.
  for (size_t i = mark; i < order.size(); ++i)
    memo.erase(order[i]);
  order.resize(mark);
  return unknown(yielded.known ? "a loop block argument whose lanes move apart"
                               : "the loop's yield: " + yielded.why);
}

namespace {
enum class Kind {
  Other,
  Mov,
  Add,
  Sub,
  SubRev,
  Add3,
  ShlRev,
  ShrRev,
  Mul,
  MulU24,
  LshlAdd,
  LshlOr,
  MadU24,
  And,
  Or,
  Xor,
  Bfe,
  SAdd,
  SSub,
  SShl,
  SMul,
};

Kind classify(llvm::StringRef name) {
  return llvm::StringSwitch<Kind>(name)
      .Cases({"v_mov_b32", "s_mov_b32"}, Kind::Mov)
      .Cases({"v_add_u32", "v_add_i32", "v_add_co_u32"}, Kind::Add)
      .Cases({"v_sub_u32", "v_sub_i32", "v_sub_co_u32"}, Kind::Sub)
      .Cases({"v_subrev_u32", "v_subrev_co_u32"}, Kind::SubRev)
      .Case("v_add3_u32", Kind::Add3)
      .Case("v_lshlrev_b32", Kind::ShlRev)
      .Case("v_lshrrev_b32", Kind::ShrRev)
      .Cases({"v_mul_lo_u32", "v_mul_lo_i32"}, Kind::Mul)
      .Case("v_mul_u32_u24", Kind::MulU24)
      .Case("v_lshl_add_u32", Kind::LshlAdd)
      .Case("v_lshl_or_b32", Kind::LshlOr)
      .Case("v_mad_u32_u24", Kind::MadU24)
      .Cases({"v_and_b32", "s_and_b32"}, Kind::And)
      .Cases({"v_or_b32", "s_or_b32"}, Kind::Or)
      .Cases({"v_xor_b32", "s_xor_b32"}, Kind::Xor)
      .Case("v_bfe_u32", Kind::Bfe)
      .Cases({"s_add_u32", "s_add_i32"}, Kind::SAdd)
      .Cases({"s_sub_u32", "s_sub_i32"}, Kind::SSub)
      .Case("s_lshl_b32", Kind::SShl)
      .Case("s_mul_i32", Kind::SMul)
      .Default(Kind::Other);
}

/// The ds ops' offset attributes the analysis reads, by name.
constexpr llvm::StringLiteral kOffsetAttrNames[] = {"offset", "offset0",
                                                    "offset1"};

/// Which operand of a ds op (by its name without the dialect) is the
/// address: a write's data comes first.
unsigned dsAddressOperand(llvm::StringRef name) {
  return name.starts_with("ds_write") ? 1 : 0;
}

/// What the scan for ds ops and the analysis's key read of an op's class:
/// functions of its name and of its declared attributes. Asked for about
/// every op of a program and every value of the address chains on each
/// compile; a name's split, prefix tests and string switch cost about 150
/// instructions, a lookup here about 20.
struct OpClassFacts {
  bool dsAccess = false;      // isDsAccess
  uint8_t addressOperand = 0; // dsAddressOperand
  Kind kind = Kind::Other;
  /// Bit k: kOffsetAttrNames[k] is an inherent attribute of the class
  /// (what Operation::getAttr asks first).
  uint8_t inherentOffsets = 0;
};

/// Class facts by the class's TypeID (OpClassTable.h: the analysis memo's
/// key names ops by it too). A program has a few dozen classes.
class OpClassFactsCache {
public:
  /// `op`'s class facts (`op` registered).
  OpClassFacts get(Operation *op) { return table.get(op, compute); }

  /// This thread's cache.
  static OpClassFactsCache &forThisThread() {
    thread_local OpClassFactsCache cache;
    return cache;
  }

private:
  static OpClassFacts compute(Operation *op) {
    llvm::StringRef name = op->getName().stripDialect();
    OpClassFacts facts;
    facts.dsAccess = isDsAccess(name);
    facts.addressOperand = dsAddressOperand(name);
    facts.kind = classify(name);
    if (op->getPropertiesStorageSize())
      for (auto [k, attr] : llvm::enumerate(kOffsetAttrNames))
        if (op->getInherentAttr(attr).has_value())
          facts.inherentOffsets |= uint8_t(1u << k);
    return facts;
  }

  OpClassTable<OpClassFacts, 256> table;
};

/// Whether `op` is a ds read or write.
bool isDsAccess(Operation *op, OpClassFactsCache &classes) {
  OperationName name = op->getName();
  return name.isRegistered() ? classes.get(op).dsAccess
                             : isDsAccess(name.stripDialect());
}
} // namespace

LaneValue LdsBankConflicts::Evaluator::compute(Operation *op, Value value,
                                               unsigned depth) {
  if (auto c = dyn_cast<ConstantOp>(op))
    return filled(uint32_t(c.getValue()));
  if (auto pre = dyn_cast<PrecoloredVRegOp>(op)) {
    if (pre.getIndex() == tidReg && tidReg >= 0) {
      LaneValue r;
      r.known = true;
      r.v = tid;
      return r;
    }
    return unknown(
        llvm::formatv("v{0} is not the ABI's thread id", pre.getIndex()));
  }
  llvm::StringRef name = op->getName().stripDialect();
  Kind kind = classify(name);
  if (kind == Kind::Other || value != op->getResult(0))
    return unknown(("the address comes from " + name).str());
  unsigned n = op->getNumOperands();
  for (unsigned i = 0; i < n; ++i) {
    const LaneValue &x = eval(op->getOperand(i), depth + 1);
    if (!x.known)
      return unknown(x.why);
  }
  // Pointers only now: evaluating an operand grows the pool, which moves
  // the others; the second lookups are memo hits.
  llvm::SmallVector<const LaneValue *, 3> in;
  for (unsigned i = 0; i < n; ++i)
    in.push_back(&eval(op->getOperand(i), depth + 1));
  auto need = [&](unsigned count) { return in.size() >= count; };
  // The operands' lanes as plain arrays: the loops below read them and
  // write the result through pointers, so the compiler vectorizes them
  // (a loop over `in[k]->v[t]` reloaded the vectors each lane).
  const uint32_t *a = n > 0 ? in[0]->v.data() : nullptr;
  const uint32_t *b = n > 1 ? in[1]->v.data() : nullptr;
  const uint32_t *c = n > 2 ? in[2]->v.data() : nullptr;
  LaneValue r;
  r.known = true;
  r.v.resize(numThreads);
  uint32_t *out = r.v.data();
  unsigned threads = numThreads;
  auto lanewise = [&](auto fn, bool allowPerWave) -> LaneValue {
    for (const LaneValue *x : in)
      if (x->perWave && !allowPerWave)
        return unknown((name + " of a value with an unknown SGPR term").str());
    for (unsigned t = 0; t < threads; ++t)
      out[t] = fn(t);
    for (const LaneValue *x : in)
      r.perWave |= x->perWave;
    return std::move(r);
  };
  // A product keeps the per-wave term only if the factor multiplying it is
  // the same on every lane of the wave.
  auto scaled = [&](const LaneValue &x, const LaneValue &factor) {
    return !x.perWave || (!factor.perWave && waveUniform(factor));
  };
  // suggestPadding's trial replaces this op's constant factor.
  bool overridden = op == overrideOp;
  uint32_t override = uint32_t(overrideFactor);
  // x * 2^(s & 31) (mod 2^32) is x << (s & 31); with the same shift on
  // every thread (a constant, the usual case) the loop has no per-lane
  // shift count, which the vector unit lacks.
  auto shifted = [&](const uint32_t *x, const LaneValue &s, auto then) {
    const uint32_t *sv = s.v.data();
    if (overridden)
      return lanewise([=](unsigned t) { return then(t, x[t] * override); },
                      true);
    if (std::optional<uint32_t> k = uniformOf(s)) {
      uint32_t bits = *k & 31;
      return lanewise([=](unsigned t) { return then(t, x[t] << bits); }, true);
    }
    return lanewise([=](unsigned t) { return then(t, x[t] << (sv[t] & 31)); },
                    true);
  };
  auto plain = [](unsigned, uint32_t hi) { return hi; };
  switch (kind) {
  case Kind::Mov:
    if (!need(1))
      break;
    return *in[0];
  case Kind::Add:
  case Kind::SAdd:
    if (!need(2))
      break;
    return lanewise([=](unsigned t) { return a[t] + b[t]; }, true);
  case Kind::Sub:
  case Kind::SSub:
    if (!need(2))
      break;
    return lanewise([=](unsigned t) { return a[t] - b[t]; }, true);
  case Kind::SubRev:
    if (!need(2))
      break;
    return lanewise([=](unsigned t) { return b[t] - a[t]; }, true);
  case Kind::Add3:
    if (!need(3))
      break;
    return lanewise([=](unsigned t) { return a[t] + b[t] + c[t]; }, true);
  case Kind::ShlRev:
  case Kind::SShl: {
    if (!need(2))
      break;
    // v_lshlrev_b32 shift, x; s_lshl_b32 x, shift.
    const LaneValue &x = kind == Kind::ShlRev ? *in[1] : *in[0];
    const LaneValue &s = kind == Kind::ShlRev ? *in[0] : *in[1];
    if (!scaled(x, s) || s.perWave)
      return unknown((name + " of an unknown SGPR term").str());
    return shifted(x.v.data(), s, plain);
  }
  case Kind::Mul:
  case Kind::SMul:
  case Kind::MulU24: {
    if (!need(2))
      break;
    bool u24 = kind == Kind::MulU24;
    if (u24 && (in[0]->perWave || in[1]->perWave))
      return unknown((name + " of an unknown SGPR term").str());
    if (!scaled(*in[0], *in[1]) || !scaled(*in[1], *in[0]))
      return unknown((name + " of an unknown SGPR term").str());
    uint32_t mask = u24 ? 0xffffff : ~uint32_t(0);
    if (!overridden)
      return lanewise([=](unsigned t) { return (a[t] & mask) * (b[t] & mask); },
                      true);
    // The constant factor is the one a padding would change.
    if (isa_and_nonnull<ConstantOp>(op->getOperand(0).getDefiningOp()))
      return lanewise([=](unsigned t) { return override * (b[t] & mask); },
                      true);
    return lanewise([=](unsigned t) { return (a[t] & mask) * override; }, true);
  }
  case Kind::LshlAdd:
  case Kind::LshlOr: {
    if (!need(3))
      break;
    const LaneValue &x = *in[0], &s = *in[1], &addend = *in[2];
    bool isOr = kind == Kind::LshlOr;
    if (s.perWave || !scaled(x, s) || (isOr && (x.perWave || addend.perWave)))
      return unknown((name + " of an unknown SGPR term").str());
    if (isOr)
      return shifted(x.v.data(), s,
                     [=](unsigned t, uint32_t hi) { return hi | c[t]; });
    return shifted(x.v.data(), s,
                   [=](unsigned t, uint32_t hi) { return hi + c[t]; });
  }
  case Kind::MadU24: {
    if (!need(3))
      break;
    if (in[0]->perWave || in[1]->perWave)
      return unknown((name + " of an unknown SGPR term").str());
    uint32_t mask = 0xffffff;
    if (!overridden)
      return lanewise(
          [=](unsigned t) { return (a[t] & mask) * (b[t] & mask) + c[t]; },
          true);
    if (isa_and_nonnull<ConstantOp>(op->getOperand(0).getDefiningOp()))
      return lanewise(
          [=](unsigned t) { return override * (b[t] & mask) + c[t]; }, true);
    return lanewise([=](unsigned t) { return (a[t] & mask) * override + c[t]; },
                    true);
  }
  case Kind::ShrRev:
    if (!need(2))
      break;
    if (std::optional<uint32_t> k = uniformOf(*in[0])) {
      uint32_t bits = *k & 31;
      return lanewise([=](unsigned t) { return b[t] >> bits; }, false);
    }
    return lanewise([=](unsigned t) { return b[t] >> (a[t] & 31); }, false);
  case Kind::And:
    if (!need(2))
      break;
    return lanewise([=](unsigned t) { return a[t] & b[t]; }, false);
  case Kind::Or:
    if (!need(2))
      break;
    return lanewise([=](unsigned t) { return a[t] | b[t]; }, false);
  case Kind::Xor:
    if (!need(2))
      break;
    return lanewise([=](unsigned t) { return a[t] ^ b[t]; }, false);
  case Kind::Bfe:
    if (!need(3))
      break;
    return lanewise(
        [=](unsigned t) {
          uint32_t off = b[t] & 31, width = c[t] & 31;
          uint32_t mask = width ? (uint32_t(1) << width) - 1 : 0;
          return (a[t] >> off) & mask;
        },
        false);
  case Kind::Other:
    break;
  }
  return unknown(("the address comes from " + name).str());
}

void LdsBankConflicts::Evaluator::collectStrides(
    Value value, llvm::SmallVectorImpl<std::pair<Operation *, int64_t>> &out,
    llvm::DenseSet<Value> &seen) {
  if (!seen.insert(value).second || seen.size() > kMaxDepth)
    return;
  Operation *op = value.getDefiningOp();
  if (!op)
    return;
  auto constOf = [&](unsigned i) -> std::optional<int64_t> {
    if (i >= op->getNumOperands())
      return std::nullopt;
    if (auto c = op->getOperand(i).getDefiningOp<ConstantOp>())
      return c.getValue();
    return std::nullopt;
  };
  Kind kind = classify(op->getName().stripDialect());
  std::optional<int64_t> factor;
  if (kind == Kind::ShlRev || kind == Kind::LshlAdd || kind == Kind::LshlOr ||
      kind == Kind::SShl) {
    unsigned shiftOperand =
        kind == Kind::ShlRev ? 0 : (kind == Kind::SShl ? 1 : 1);
    if (auto s = constOf(shiftOperand); s && *s >= 0 && *s < 31)
      factor = int64_t(1) << *s;
  } else if (kind == Kind::Mul || kind == Kind::MulU24 ||
             kind == Kind::MadU24 || kind == Kind::SMul) {
    factor = constOf(0);
    if (!factor)
      factor = constOf(1);
  }
  if (factor && *factor > 1)
    out.push_back({op, *factor});
  for (Value operand : op->getOperands())
    collectStrides(operand, out, seen);
}

//===----------------------------------------------------------------------===//
// The analysis's key (LdsAnalysisMemo.h)
//===----------------------------------------------------------------------===//

namespace {
/// Writes the graph `Evaluator::eval` reads from a value, in a form from
/// which it could be read back (so equal keys are equal graphs): each value
/// once, where first reached, later as a reference to its number. Values
/// are numbered as reached, which names the same graph the same way
/// whatever the ops' addresses.
class AnalysisKeyWriter {
public:
  AnalysisKeyWriter(llvm::SmallVectorImpl<uint64_t> &out,
                    OpClassFactsCache &classes)
      : out(out), classes(classes) {}

  /// False when the graph holds what the key cannot name exactly (an
  /// unregistered op: its kind has no TypeID) or is deeper than the walk
  /// follows; the analysis is then not remembered.
  bool ok() const { return complete; }

  void write(Value value, unsigned depth = 0) {
    if (!complete)
      return;
    auto [it, fresh] = numbers.try_emplace(value, numbers.size());
    if (!fresh) {
      out.append({kReference, it->second});
      return;
    }
    // Deeper than eval follows (it gives up there, with a reason that
    // names no op): keep the walk's recursion bounded and key nothing.
    if (depth > kMaxDepth) {
      complete = false;
      return;
    }
    // eval turns any unknown SGPR into a per-wave unknown.
    uint64_t sgpr = isa<SRegType, PSRegType>(value.getType());
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<LoopOp>(arg.getOwner()->getParentOp());
      out.append({kBlockArgument, sgpr, uint64_t(bool(loop))});
      if (!loop)
        return;
      ConditionOp cond = loop.getConditionOp();
      unsigned no = arg.getArgNumber();
      bool carried = cond && no < loop.getInitArgs().size() &&
                     no < cond.getIterArgs().size();
      out.append({no, uint64_t(carried)});
      if (!carried)
        return;
      write(loop.getInitArgs()[no], depth + 1);
      write(cond.getIterArgs()[no], depth + 1);
      return;
    }
    Operation *op = value.getDefiningOp();
    OperationName name = op->getName();
    if (!name.isRegistered()) {
      complete = false;
      return;
    }
    unsigned resultNo = cast<OpResult>(value).getResultNumber();
    out.append({kResult, sgpr,
                uint64_t(reinterpret_cast<uintptr_t>(
                    name.getTypeID().getAsOpaquePointer())),
                resultNo});
    if (auto c = dyn_cast<ConstantOp>(op)) {
      out.push_back(uint64_t(c.getValue()));
      return;
    }
    if (auto pre = dyn_cast<PrecoloredVRegOp>(op)) {
      out.push_back(uint64_t(pre.getIndex()));
      return;
    }
    // eval stops at ops it does not compute (the name, a function of the
    // kind, says why).
    if (classes.get(op).kind == Kind::Other || resultNo != 0)
      return;
    out.push_back(op->getNumOperands());
    for (Value operand : op->getOperands())
      write(operand, depth + 1);
  }

private:
  // Tags that start a value's entry; a kind's TypeID is a pointer, far
  // from them, and each entry's length follows from its tag and kind.
  enum : uint64_t { kReference = 1, kBlockArgument = 2, kResult = 3 };
  llvm::SmallVectorImpl<uint64_t> &out;
  OpClassFactsCache &classes;
  /// A 300-op loop's address chains hold about a hundred values: inline
  /// buckets instead of a table grown from empty on every compile.
  llvm::SmallDenseMap<Value, uint64_t, 256> numbers;
  bool complete = true;
};

/// The integer attributes kOffsetAttrNames of `op` as the analysis reads
/// them (`getAttrOfType<IntegerAttr>`): each absent (or not an integer) or
/// its value. As Operation::getAttr looks: an inherent attribute's slot,
/// else the discardable dictionary; with the class's inherent names known
/// (`inherent`, OpClassFacts), no name is searched for where it cannot be.
void writeOffsetAttrs(Operation *op, uint8_t inherent,
                      llvm::SmallVectorImpl<uint64_t> &out) {
  // The discardable ones in one pass over the dictionary (a ds op carries
  // an offset or two), not a binary search of it per name.
  Attribute attrs[std::size(kOffsetAttrNames)] = {};
  if (DictionaryAttr discardable = op->getRawDictionaryAttrs())
    for (NamedAttribute named : discardable)
      for (auto [k, name] : llvm::enumerate(kOffsetAttrNames))
        if (!(inherent & (1u << k)) && named.getName().getValue() == name)
          attrs[k] = named.getValue();
  for (auto [k, name] : llvm::enumerate(kOffsetAttrNames)) {
    if (inherent & (1u << k))
      attrs[k] = *op->getInherentAttr(name);
    auto value = dyn_cast_or_null<IntegerAttr>(attrs[k]);
    out.append({uint64_t(bool(value)), value ? uint64_t(value.getInt()) : 0});
  }
}
} // namespace

/// Everything the analysis reads (its parameters, then the ds ops
/// `dsOps` in program order and the graph of their address chains) as
/// LdsAnalysisMemo's key; false when the program holds something the key
/// cannot name.
static bool writeAnalysisKey(const ProgramIndex &index,
                             llvm::ArrayRef<unsigned> dsOps, unsigned waveSize,
                             unsigned numThreads, std::array<int64_t, 3> size,
                             const LdsBankModel &model,
                             OpClassFactsCache &classes,
                             llvm::SmallVectorImpl<uint64_t> &key) {
  ProgramOp program = index.getProgram();
  key.append({waveSize, numThreads, uint64_t(size[0]), uint64_t(size[1]),
              uint64_t(size[2]), uint64_t(program.getAbi().getTid()),
              model.banks, uint64_t(model.minClocks), dsOps.size()});
  AnalysisKeyWriter writer(key, classes);
  for (unsigned idx : dsOps) {
    Operation *op = index.getOp(idx);
    OperationName name = op->getName();
    if (!name.isRegistered())
      return false;
    key.append({uint64_t(reinterpret_cast<uintptr_t>(
                    name.getTypeID().getAsOpaquePointer())),
                op->getNumOperands()});
    OpClassFacts facts = classes.get(op);
    writeOffsetAttrs(op, facts.inherentOffsets, key);
    unsigned addrOperand = facts.addressOperand;
    if (addrOperand < op->getNumOperands())
      writer.write(op->getOperand(addrOperand));
    if (!writer.ok())
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// LdsBankConflicts
//===----------------------------------------------------------------------===//

namespace {
/// The workgroup's dimensions, one wave without a declared size.
std::array<int64_t, 3> workgroupSize(ProgramOp program, unsigned waveSize) {
  return getDeclaredWorkgroupSize(program).value_or(
      std::array<int64_t, 3>{int64_t(waveSize), 1, 1});
}
} // namespace

LdsBankConflicts::LdsBankConflicts(const ProgramIndex &index,
                                   const TargetModel &target)
    : index(index), target(target), model(getLdsBankModel(target)) {
  waveSize = unsigned(target.arch ? target.arch->defaultWaveSize : 64);
  std::array<int64_t, 3> size = workgroupSize(index.getProgram(), waveSize);
  // The workgroup's threads, capped (1024 is the hardware's maximum).
  numThreads = unsigned(std::min<int64_t>(size[0] * size[1] * size[2], 1024));
  slotOf.assign(index.getNumOps(), ~0u);
  OpClassFactsCache &classes = OpClassFactsCache::forThisThread();
  llvm::SmallVector<unsigned, 64> dsOps;
  for (unsigned idx = 0, e = index.getNumOps(); idx < e; ++idx)
    if (isDsAccess(index.getOp(idx), classes))
      dsOps.push_back(idx);
  if (dsOps.empty())
    return;
  // Another program with the same address chains (this one compiled again
  // in another order, LdsAnalysisMemo.h) has the same analysis.
  llvm::SmallVector<uint64_t, 2048> key;
  bool keyed = writeAnalysisKey(index, dsOps, waveSize, numThreads, size, model,
                                classes, key);
  LdsAnalysisMemo &analyses = getThreadLdsAnalysisMemo();
  std::optional<LdsAnalysisMemo::Key> memoKey;
  if (keyed)
    memoKey.emplace(key);
  if (memoKey)
    if (const std::vector<LdsAccessInfo> *known = analyses.lookup(*memoKey)) {
      accesses = *known;
      for (auto [slot, idx] : llvm::enumerate(dsOps)) {
        accesses[slot].op = index.getOp(idx);
        slotOf[idx] = slot;
      }
      return;
    }
  evaluator = std::make_unique<Evaluator>(index.getProgram(), waveSize,
                                          numThreads, size);
  std::vector<uint32_t> lanes, firstWave;
  LdsBankCostMemo &memo = getThreadLdsBankCostMemo();
  // Per address value: its largest lane; per address form (the value, the
  // access's width, pairing and first offset modulo 4; a pair's second
  // offset is the first plus whole elements of 4 or 8 bytes, so it has the
  // same residue): its cost (below).
  using CostKey = std::pair<const void *, unsigned>;
  llvm::DenseMap<const void *, uint32_t> maxLane;
  llvm::DenseMap<CostKey, LdsBankCost> costOfForm;
  for (unsigned idx : dsOps) {
    Operation *op = index.getOp(idx);
    llvm::StringRef name = op->getName().stripDialect();
    slotOf[idx] = accesses.size();
    LdsAccessInfo &info = accesses.emplace_back();
    info.op = op;
    InstFacts facts = lookupInstFacts(op);
    // Sub-dword accesses (u8/i8/b8, u16/i16/b16) move one dword slot per
    // lane; b64/b128 their data dwords.
    bool byte =
        name.ends_with("_u8") || name.ends_with("_i8") || name.ends_with("_b8");
    bool half = name.ends_with("_u16") || name.ends_with("_i16") ||
                name.ends_with("_b16");
    info.bytesPerLane = byte ? 1 : half ? 2 : 4 * facts.dataDwords;
    // A two-address op (`offset0`/`offset1` in elements, or the byte
    // `offset` and the element after it, as the emitter writes them) costs
    // its two element accesses, one after the other.
    bool pair = name.starts_with("ds_read2") || name.starts_with("ds_write2");
    SmallVector<uint32_t, 2> offsets;
    if (pair) {
      unsigned element = info.bytesPerLane / 2;
      info.bytesPerLane = element;
      auto o0 = op->getAttrOfType<IntegerAttr>("offset0");
      auto o1 = op->getAttrOfType<IntegerAttr>("offset1");
      if (o0 || o1) {
        offsets.push_back(uint32_t((o0 ? o0.getInt() : 0) * element));
        offsets.push_back(uint32_t((o1 ? o1.getInt() : 0) * element));
      } else {
        auto attr = op->getAttrOfType<IntegerAttr>("offset");
        uint32_t at = attr ? uint32_t(attr.getInt()) : 0;
        offsets.append({at, at + element});
      }
    }
    unsigned addrOperand = dsAddressOperand(name);
    if (addrOperand >= op->getNumOperands())
      continue;
    const LaneValue &addr = evaluator->eval(op->getOperand(addrOperand));
    if (!addr.known) {
      info.whyUnknown = addr.why;
      continue;
    }
    if (!pair) {
      uint32_t offset = 0;
      if (auto attr = op->getAttrOfType<IntegerAttr>("offset"))
        offset = uint32_t(attr.getInt());
      offsets.push_back(offset);
    }
    info.known = true;
    info.perWaveUnknown = addr.perWave;
    // Wave 0's lanes of the first element describe the access.
    unsigned count0 = std::min(waveSize, numThreads);
    lanes.resize(waveSize);
    for (unsigned l = 0; l < count0; ++l)
      lanes[l] = addr.v[l] + offsets.front();
    info.lane0Address = lanes[0];
    int64_t stride = count0 > 1 ? int64_t(lanes[1]) - lanes[0] : 0;
    bool affine = true;
    for (unsigned l = 0; l < count0 && affine; ++l)
      affine = uint32_t(lanes[0] + stride * l) == lanes[l];
    if (affine)
      info.laneStride = stride;
    info.firstLanes.assign(lanes.begin(), lanes.begin() + std::min(count0, 8u));

    // Accesses through one address value whose offsets differ by whole
    // dwords (per element) move every lane's dwords by the same amount,
    // which permutes the banks and keeps which dwords are distinct: every
    // wave costs what it cost the first such access (exact while no lane's
    // address + offset wraps around 32 bits, checked). A tile's reads
    // usually share an address and differ in the offset.
    std::optional<CostKey> key;
    Value addrValue = op->getOperand(addrOperand);
    {
      auto [maxIt, fresh] =
          maxLane.try_emplace(addrValue.getAsOpaquePointer(), 0);
      if (fresh)
        maxIt->second = *std::max_element(addr.v.begin(), addr.v.end());
      uint64_t maxOffset = *std::max_element(offsets.begin(), offsets.end());
      if (uint64_t(maxIt->second) + maxOffset + info.bytesPerLane <=
          uint64_t(UINT32_MAX))
        key = CostKey{addrValue.getAsOpaquePointer(),
                      info.bytesPerLane | unsigned(pair) << 8 |
                          (offsets.front() & 3) << 16};
      if (key)
        if (auto it = costOfForm.find(*key); it != costOfForm.end()) {
          info.cost = it->second;
          info.extraSlots = ldsExtraSlots(info.cost.extraClocks());
          continue;
        }
    }
    // Every wave costed, the worst kept (header: "Hardware model").
    auto costOfWaves = [&]() {
      LdsBankCost worst;
      LdsBankCost firstCost;
      for (unsigned first = 0; first < numThreads; first += waveSize) {
        unsigned count = std::min(waveSize, numThreads - first);
        uint64_t mask = count >= 64 ? ~uint64_t(0) : (uint64_t(1) << count) - 1;
        LdsBankCost cost;
        for (auto [k, offset] : llvm::enumerate(offsets)) {
          for (unsigned l = 0; l < count; ++l)
            lanes[l] = addr.v[first + l] + offset;
          // Waves usually address the same pattern at another base (a wave's
          // tile): every dword then moves by the same whole number of dwords,
          // which permutes the banks and keeps which dwords are distinct, so
          // the cost is the first wave's. Three in four calls of the cost
          // were such repeats.
          LdsBankCost part =
              !pair && first != 0 && count == count0 &&
                      shiftedByDwords(llvm::ArrayRef(lanes).take_front(count),
                                      llvm::ArrayRef(firstWave))
                  ? firstCost
                  : computeLdsBankCost(llvm::ArrayRef(lanes).take_front(count),
                                       mask, info.bytesPerLane, model.banks,
                                       model.minClocks);
          if (k == 0) {
            cost = part;
            continue;
          }
          cost.addPairedElement(part);
        }
        if (first == 0) {
          // Only a single-address access takes the shortcut above.
          if (!pair)
            firstWave.assign(lanes.begin(), lanes.begin() + count);
          firstCost = cost;
        }
        if (first == 0 || cost.extraClocks() > worst.extraClocks())
          worst = cost;
      }
      return worst;
    };
    // Across compiles, the thread's memo (LdsBankCostMemo.h) by the
    // addresses and everything else the cost reads; `key` says that moving
    // them wraps no address.
    if (key) {
      uint64_t params[] = {
          waveSize,        info.bytesPerLane | uint64_t(pair) << 8,
          model.banks,     uint64_t(model.minClocks),
          offsets.front(), offsets.back()};
      info.cost = memo.get(addr.v, params, costOfWaves);
    } else {
      info.cost = costOfWaves();
    }
    if (key)
      costOfForm[*key] = info.cost;
    info.extraSlots = ldsExtraSlots(info.cost.extraClocks());
  }
  if (memoKey)
    analyses.insert(*memoKey, accesses);
}

LdsBankConflicts::~LdsBankConflicts() = default;

const LdsAccessInfo *LdsBankConflicts::lookup(unsigned idx) const {
  if (idx >= slotOf.size() || slotOf[idx] == ~0u)
    return nullptr;
  return &accesses[slotOf[idx]];
}

const LdsAccessInfo *LdsBankConflicts::lookup(Operation *op) const {
  std::optional<unsigned> idx = index.lookup(op);
  return idx ? lookup(*idx) : nullptr;
}

std::optional<LdsPaddingHint>
LdsBankConflicts::suggestPadding(const LdsAccessInfo &access) const {
  if (!access.known || access.cost.degree <= 1)
    return std::nullopt;
  // An analysis taken from the memo evaluated nothing: the strides are
  // read from this program's chain by an evaluator of its own (collecting
  // them evaluates nothing).
  std::optional<Evaluator> fresh;
  if (!evaluator)
    fresh.emplace(index.getProgram(), waveSize, numThreads,
                  workgroupSize(index.getProgram(), waveSize));
  Evaluator &strideReader = evaluator ? *evaluator : *fresh;
  Operation *op = access.op;
  llvm::StringRef name = op->getName().stripDialect();
  Value addrValue = op->getOperand(dsAddressOperand(name));
  llvm::SmallVector<std::pair<Operation *, int64_t>> strides;
  llvm::DenseSet<Value> seen;
  strideReader.collectStrides(addrValue, strides, seen);
  uint32_t offset = 0;
  if (auto attr = op->getAttrOfType<IntegerAttr>("offset"))
    offset = uint32_t(attr.getInt());
  int64_t step = std::max(4u, access.bytesPerLane);
  std::optional<LdsPaddingHint> best;
  std::array<int64_t, 3> size = workgroupSize(index.getProgram(), waveSize);
  for (auto [strideOp, factor] : strides) {
    // Padding, not a new layout: at most a quarter of the stride (or one
    // access width); the candidates and the tie rule are LdsPadding.h's.
    auto worstWith = [&, strideOp = strideOp,
                      factor = factor](int64_t pad) -> std::optional<int64_t> {
      // A fresh evaluator: the memo of the real one must stay intact.
      Evaluator trial(index.getProgram(), waveSize, numThreads, size);
      trial.overrideOp = strideOp;
      trial.overrideFactor = factor + pad;
      const LaneValue &addr = trial.eval(addrValue);
      if (!addr.known)
        return std::nullopt;
      unsigned worst = 1;
      std::vector<uint32_t> lanes(waveSize);
      for (unsigned first = 0; first < numThreads; first += waveSize) {
        unsigned count = std::min(waveSize, numThreads - first);
        uint64_t mask = count >= 64 ? ~uint64_t(0) : (uint64_t(1) << count) - 1;
        for (unsigned l = 0; l < count; ++l)
          lanes[l] = addr.v[first + l] + offset;
        worst = std::max(
            worst, computeLdsBankCost(llvm::ArrayRef(lanes).take_front(count),
                                      mask, access.bytesPerLane, model.banks,
                                      model.minClocks)
                       .degree);
      }
      return int64_t(worst);
    };
    std::optional<std::pair<int64_t, int64_t>> pick =
        pickLdsPad(step, std::max(step, factor / 4),
                   best ? int64_t(best->degree) : int64_t(access.cost.degree),
                   /*floor=*/1, worstWith);
    if (pick)
      best = LdsPaddingHint{strideOp, factor, factor + pick->first,
                            unsigned(pick->second)};
    if (best && best->degree == 1)
      break;
  }
  return best;
}

LdsThreadEvaluator::LdsThreadEvaluator(ProgramOp program,
                                       const TargetModel &target) {
  waveSize = unsigned(target.arch ? target.arch->defaultWaveSize : 64);
  std::array<int64_t, 3> size = workgroupSize(program, waveSize);
  numThreads = unsigned(std::min<int64_t>(size[0] * size[1] * size[2], 1024));
  evaluator = std::make_unique<LdsBankConflicts::Evaluator>(program, waveSize,
                                                            numThreads, size);
}

LdsThreadEvaluator::~LdsThreadEvaluator() = default;

std::optional<std::vector<uint32_t>>
LdsThreadEvaluator::evaluate(Value value, bool &perWave, std::string &why) {
  const LaneValue &x = evaluator->eval(value);
  perWave = x.perWave;
  if (!x.known) {
    why = x.why;
    return std::nullopt;
  }
  return x.v;
}

std::string waveasm::describeLdsPattern(const LdsAccessInfo &access) {
  if (!access.known)
    return "unknown (" + access.whyUnknown + ")";
  std::string text;
  llvm::raw_string_ostream os(text);
  if (access.laneStride) {
    os << "lane × " << *access.laneStride << " B";
    if (access.lane0Address)
      os << " + " << access.lane0Address << " B";
  } else {
    os << "not affine in the lane: lanes 0-" << access.firstLanes.size() - 1
       << " at ";
    llvm::interleave(access.firstLanes, os, ", ");
    os << " B";
  }
  if (access.perWaveUnknown)
    os << " + an SGPR term per wave";
  return text;
}
