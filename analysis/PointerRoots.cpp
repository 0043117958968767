//===- PointerRoots.cpp - which kernel argument a global pointer comes from
//===//

#include "analysis/PointerRoots.h"

#include "analysis/DescriptorsApart.h"

#include "ir/Dialect.h"
#include "ir/Immediates.h"
#include "ir/RegisterTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;

namespace {
/// What a value is computed from: the one kernel argument it is a pointer
/// into (`arg`, through the pointer arithmetic followed), the kernel
/// arguments anything else in its computation read (`taint`: offsets,
/// sizes, a second pointer), and whether part of it could not be followed
/// (`unknown`: a value loaded from memory, a chain too deep, a region's
/// argument).
struct Trace {
  std::optional<int64_t> arg;
  llvm::SmallVector<int64_t, 4> taint;
  bool unknown = false;

  void addTaint(int64_t slot) {
    if (!llvm::is_contained(taint, slot))
      taint.push_back(slot);
  }
  /// `other`'s whole computation as a part of this one's, not its pointer.
  void absorb(const Trace &other) {
    if (other.arg)
      addTaint(*other.arg);
    for (int64_t slot : other.taint)
      addTaint(slot);
    unknown |= other.unknown;
  }
  bool operator==(const Trace &other) const {
    if (arg != other.arg || unknown != other.unknown ||
        taint.size() != other.taint.size())
      return false;
    return llvm::all_of(taint, [&](int64_t slot) {
      return llvm::is_contained(other.taint, slot);
    });
  }
  static Trace unknownValue() {
    Trace t;
    t.unknown = true;
    return t;
  }
};

/// Follows one value back to the kernel arguments it is computed from.
/// Loop block arguments being followed are assumed to be what their init
/// is; the assumption is checked against the yield (and widened by it, a
/// few times at most).
class PointerTracer {
public:
  /// The trace of the pointer at dword `dword` of `value`.
  Trace trace(Value value, int64_t dword = 0, int depth = 0);

private:
  Trace traceUncached(Value value, int64_t dword, int depth);
  Trace traceBlockArg(BlockArgument arg, int64_t dword, int depth);
  /// Sets or drops the assumption for a block argument; what was traced
  /// under the old assumptions no longer holds.
  void assume(std::pair<Value, int64_t> key, const Trace *trace);
  Trace traceArithmetic(Operation *op, int depth);
  Trace traceOther(Operation *op, int depth);
  llvm::DenseMap<std::pair<Value, int64_t>, Trace> assumed;
  /// Traces known under the current assumptions: a pointer advanced in
  /// straight-line code (a pipelined prologue, unrolled steps) reaches the
  /// same values through both of its halves, so without it the walk
  /// doubles with every advance. A value first reached near the depth
  /// limit keeps its unknown trace (conservative).
  llvm::DenseMap<std::pair<Value, int64_t>, Trace> memo;
};
} // namespace

/// The argument whose pointer dword `dword` of a kernarg load holds: the
/// 8-byte slot it falls in (either half of a pointer names it). nullopt
/// for a load through any other pointer.
static std::optional<int64_t> kernargLoadSlot(Operation *load, int64_t dword) {
  auto base = load->getOperand(0).getDefiningOp<PrecoloredSRegOp>();
  auto program = load->getParentOfType<ProgramOp>();
  if (!base || !program || base.getIndex() != program.getAbi().getKernarg())
    return std::nullopt;
  std::optional<int64_t> imm = getImmediateValue(load->getOperand(1));
  if (!imm)
    return std::nullopt;
  int64_t offset = *imm + 4 * dword;
  if (auto attr = load->getAttrOfType<IntegerAttr>("instOffset"))
    offset += attr.getInt();
  return offset - offset % 8;
}

static bool isFlagOrConstant(Value v) {
  return isa<SCCType>(v.getType()) || isa<ImmType>(v.getType());
}

Trace PointerTracer::traceArithmetic(Operation *op, int depth) {
  // Pointer arithmetic on one dword: the result is a pointer into the one
  // argument among its operands (a subtraction's first), the other
  // operands its offset. Two arguments: no pointer, both in the taint.
  SmallVector<Trace, 3> operands;
  SmallVector<unsigned, 3> positions;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    if (isFlagOrConstant(operand))
      continue;
    operands.push_back(trace(operand, 0, depth + 1));
    positions.push_back(i);
  }
  int pointer = -1;
  bool mixed = false;
  for (auto [k, t] : llvm::enumerate(operands)) {
    if (!t.arg)
      continue;
    bool subtrahend = isa<S_SUB_U32>(op) && positions[k] != 0;
    if (pointer >= 0 || subtrahend)
      mixed = true;
    else
      pointer = int(k);
  }
  Trace result;
  if (!mixed && pointer >= 0) {
    result.arg = operands[pointer].arg;
    for (int64_t slot : operands[pointer].taint)
      result.addTaint(slot);
    result.unknown = operands[pointer].unknown;
  }
  for (auto [k, t] : llvm::enumerate(operands))
    if (mixed || int(k) != pointer)
      result.absorb(t);
  return result;
}

Trace PointerTracer::traceOther(Operation *op, int depth) {
  // Any other computation: no pointer, and everything it reads is taint.
  Trace result;
  for (Value operand : op->getOperands())
    if (!isFlagOrConstant(operand))
      result.absorb(trace(operand, 0, depth + 1));
  return result;
}

Trace PointerTracer::trace(Value value, int64_t dword, int depth) {
  // Address chains are short; a deep one is not followed.
  if (depth > 24)
    return Trace::unknownValue();
  auto key = std::make_pair(value, dword);
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  Trace result = traceUncached(value, dword, depth);
  memo[key] = result;
  return result;
}

void PointerTracer::assume(std::pair<Value, int64_t> key, const Trace *trace) {
  if (trace)
    assumed[key] = *trace;
  else
    assumed.erase(key);
  memo.clear();
}

Trace PointerTracer::traceUncached(Value value, int64_t dword, int depth) {
  if (isFlagOrConstant(value))
    return Trace();
  if (auto arg = dyn_cast<BlockArgument>(value))
    return traceBlockArg(arg, dword, depth);
  Operation *def = value.getDefiningOp();
  if (!def)
    return Trace::unknownValue();
  // Registers the prologue leaves (thread and workgroup ids, the kernarg
  // pointer itself) are not arguments' memory.
  if (isa<PrecoloredSRegOp, PrecoloredVRegOp, ConstantOp>(def))
    return Trace();
  if (isa<S_LOAD_DWORD, S_LOAD_DWORDX2, S_LOAD_DWORDX4, S_LOAD_DWORDX8>(def)) {
    Trace result;
    if (std::optional<int64_t> slot = kernargLoadSlot(def, dword)) {
      // A 64-bit pointer is loaded by a load of two or more dwords; a
      // single dword is an integer argument.
      if (isa<S_LOAD_DWORD>(def))
        result.addTaint(*slot);
      else
        result.arg = slot;
      return result;
    }
    return Trace::unknownValue(); // loaded from memory
  }
  if (auto extract = dyn_cast<ExtractOp>(def))
    return trace(extract.getSource(), dword + extract.getIndex(), depth + 1);
  if (auto pack = dyn_cast<PackOp>(def)) {
    // The element holding the dword holds the address; the others (the
    // high dword, a descriptor's size and format) are taint unless they
    // are the same pointer's.
    Trace result;
    int64_t begin = 0;
    std::optional<unsigned> holder;
    SmallVector<Trace, 4> elements;
    for (auto [k, element] : llvm::enumerate(pack->getOperands())) {
      int64_t size = getRegSize(element.getType());
      bool holds = dword >= begin && dword < begin + size;
      elements.push_back(trace(element, holds ? dword - begin : 0, depth + 1));
      if (holds)
        holder = k;
      begin += size;
    }
    if (!holder)
      return Trace::unknownValue();
    result = elements[*holder];
    for (auto [k, t] : llvm::enumerate(elements)) {
      if (k == *holder)
        continue;
      if (result.arg && t.arg == result.arg) {
        Trace rest = t;
        rest.arg.reset();
        result.absorb(rest);
      } else {
        result.absorb(t);
      }
    }
    return result;
  }
  if (isa<S_MOV_B32, S_MOV_B64>(def))
    return trace(def->getOperand(0), dword, depth + 1);
  if (isa<S_ADD_U32, S_ADDC_U32, S_SUB_U32>(def) &&
      value == def->getResult(0) && dword == 0)
    return traceArithmetic(def, depth);
  if (def->getNumRegions())
    return Trace::unknownValue();
  return traceOther(def, depth);
}

Trace PointerTracer::traceBlockArg(BlockArgument arg, int64_t dword,
                                   int depth) {
  auto key = std::make_pair(Value(arg), dword);
  auto it = assumed.find(key);
  if (it != assumed.end())
    return it->second;
  auto loop = dyn_cast<LoopOp>(arg.getOwner()->getParentOp());
  if (!loop || arg.getOwner() != &loop.getBody().front() ||
      arg.getArgNumber() >= loop.getInitArgs().size())
    return Trace::unknownValue();
  ConditionOp condition = loop.getConditionOp();
  if (!condition || arg.getArgNumber() >= condition.getIterArgs().size())
    return Trace::unknownValue();
  Trace current =
      trace(loop.getInitArgs()[arg.getArgNumber()], dword, depth + 1);
  // The value in a later iteration is the yield computed from the value in
  // the one before: widen the assumption until the yield adds nothing.
  for (int round = 0; round < 4; ++round) {
    assume(key, &current);
    Trace yielded =
        trace(condition.getIterArgs()[arg.getArgNumber()], dword, depth + 1);
    Trace next = current;
    if (yielded.arg != current.arg) {
      next.arg.reset();
      next.absorb(current);
      next.absorb(yielded);
    } else {
      for (int64_t slot : yielded.taint)
        next.addTaint(slot);
      next.unknown |= yielded.unknown;
    }
    if (next == current) {
      assume(key, nullptr);
      return current;
    }
    current = next;
  }
  assume(key, nullptr);
  return Trace::unknownValue();
}

/// The trace of the pointer `value`.
static Trace tracePointer(Value value) {
  PointerTracer tracer;
  return tracer.trace(value);
}

/// Whether accesses through pointers traced `a` and `b` are into two
/// different arguments when `apart` are declared apart: different
/// arguments, fully followed, one of them in `apart`, and no offset of
/// either computed from either pointer (a pointer difference such as
/// x + (y - x) is y, not x). Offsets computed from other arguments are
/// taken for integers: a kernel that reaches y as x + (z - w) with z and w
/// the same buffer breaks the declaration's promise.
static bool separated(const Trace &a, const Trace &b, ArrayRef<int64_t> apart) {
  if (!a.arg || !b.arg || *a.arg == *b.arg || a.unknown || b.unknown)
    return false;
  if (!llvm::is_contained(apart, *a.arg) && !llvm::is_contained(apart, *b.arg))
    return false;
  for (const Trace *t : {&a, &b})
    for (int64_t slot : t->taint)
      if (slot == *a.arg || slot == *b.arg)
        return false;
  return true;
}

std::optional<int64_t> waveasm::getPointerArg(Value value) {
  Trace t = tracePointer(value);
  if (t.unknown || !t.arg || llvm::is_contained(t.taint, *t.arg))
    return std::nullopt;
  return t.arg;
}

Value waveasm::getAddressPointer(Operation *op) {
  auto info = dyn_cast<InstInfoOpInterface>(op);
  if (!info ||
      !((info.getMemReads() | info.getMemWrites()) & (MemGlobal | MemScalar)))
    return {};
  // Loads and direct-to-LDS loads (pointer, ...), stores and atomics
  // (data, pointer, ...), scalar loads (base, offset): the first SGPR pair
  // or descriptor.
  for (Value operand : op->getOperands()) {
    Type type = operand.getType();
    if (getRegClass(type) == RegClass::SGPR &&
        (getRegSize(type) == 2 || getRegSize(type) == 4))
      return operand;
  }
  return {};
}

bool waveasm::inDistinctNoAliasArgs(Operation *a, Operation *b) {
  // Precolored descriptors a run-time check proved apart count as declared
  // (the versioned loop's fast copy, DescriptorsApart.h).
  if (inDescriptorsCheckedApart(a, b))
    return true;
  SmallVector<int64_t, 4> listed =
      getNoAliasArgs(a->getParentOfType<ProgramOp>());
  if (listed.empty())
    return false;
  Value pa = getAddressPointer(a), pb = getAddressPointer(b);
  if (!pa || !pb)
    return false;
  return separated(tracePointer(pa), tracePointer(pb), listed);
}

std::string waveasm::noAliasHint(Operation *a, Operation *b) {
  Value pa = getAddressPointer(a), pb = getAddressPointer(b);
  if (!pa || !pb)
    return "";
  Trace ta = tracePointer(pa), tb = tracePointer(pb);
  if (!ta.arg || !tb.arg)
    return "";
  int64_t lo = std::min(*ta.arg, *tb.arg), hi = std::max(*ta.arg, *tb.arg);
  // Only a declaration that would separate them is proposed.
  SmallVector<int64_t, 4> proposed =
      getNoAliasArgs(a->getParentOfType<ProgramOp>());
  for (int64_t slot : {lo, hi})
    if (!llvm::is_contained(proposed, slot))
      proposed.push_back(slot);
  if (!separated(ta, tb, proposed))
    return "";
  return llvm::formatv("through the kernel arguments at kernarg offsets {0} "
                       "and {1}: if they never overlap, declare "
                       "noalias_args = [{0}, {1}] on waveasm.program",
                       lo, hi)
      .str();
}
