//===- PointerRoots.cpp - which kernel argument a global pointer comes from
//===//

#include "analysis/PointerRoots.h"

#include "ir/Dialect.h"
#include "ir/RegisterTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;

namespace {
/// Follows one pointer back to its kernel argument. Loop block arguments
/// being followed are assumed to derive from their init's argument; the
/// assumption holds when every yield agrees (checked on the way back).
class PointerTracer {
public:
  /// The argument of the pointer at dword `dword` of `value`.
  std::optional<int64_t> trace(Value value, int64_t dword = 0, int depth = 0);

private:
  std::optional<int64_t> traceBlockArg(BlockArgument arg, int64_t dword,
                                       int depth);
  std::optional<int64_t> traceOperands(Operation *op, int depth);
  llvm::DenseMap<std::pair<Value, int64_t>, std::optional<int64_t>> assumed;
};

/// Distinct arguments of a set of operands: one, or none when they mix.
struct Agreement {
  std::optional<int64_t> arg;
  bool mixed = false;
  void add(std::optional<int64_t> other) {
    if (!other || mixed)
      return;
    if (arg && *arg != *other)
      mixed = true;
    else
      arg = other;
  }
  std::optional<int64_t> result() const { return mixed ? std::nullopt : arg; }
};
} // namespace

/// The argument whose pointer dword `dword` of a kernarg load holds: the
/// 8-byte slot it falls in (either half of a pointer names it).
static std::optional<int64_t> kernargLoadSlot(Operation *load, int64_t dword) {
  auto base = load->getOperand(0).getDefiningOp<PrecoloredSRegOp>();
  auto program = load->getParentOfType<ProgramOp>();
  if (!base || !program || base.getIndex() != program.getAbi().getKernarg())
    return std::nullopt;
  auto imm = dyn_cast<ImmType>(load->getOperand(1).getType());
  if (!imm)
    return std::nullopt;
  int64_t offset = imm.getValue() + 4 * dword;
  if (auto attr = load->getAttrOfType<IntegerAttr>("instOffset"))
    offset += attr.getInt();
  return offset - offset % 8;
}

std::optional<int64_t> PointerTracer::traceOperands(Operation *op, int depth) {
  Agreement agreement;
  for (Value operand : op->getOperands()) {
    if (isa<SCCType>(operand.getType()) || isa<ImmType>(operand.getType()))
      continue;
    agreement.add(trace(operand, 0, depth + 1));
  }
  return agreement.result();
}

std::optional<int64_t> PointerTracer::trace(Value value, int64_t dword,
                                            int depth) {
  // Address chains are short; a deep one is not worth following.
  if (depth > 24)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(value))
    return traceBlockArg(arg, dword, depth);
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<S_LOAD_DWORDX2, S_LOAD_DWORDX4, S_LOAD_DWORDX8>(def))
    return kernargLoadSlot(def, dword);
  if (auto extract = dyn_cast<ExtractOp>(def))
    return trace(extract.getSource(), dword + extract.getIndex(), depth + 1);
  if (auto pack = dyn_cast<PackOp>(def)) {
    // The element holding the dword holds the address; the others (the
    // high dword, a descriptor's size and format) may not name another
    // argument.
    std::optional<int64_t> found;
    int64_t begin = 0;
    for (Value element : pack->getOperands()) {
      int64_t size = getRegSize(element.getType());
      if (dword >= begin && dword < begin + size)
        found = trace(element, dword - begin, depth + 1);
      begin += size;
    }
    if (!found)
      return std::nullopt;
    for (Value element : pack->getOperands()) {
      std::optional<int64_t> arg = trace(element, 0, depth + 1);
      if (arg && *arg != *found)
        return std::nullopt;
    }
    return found;
  }
  // Pointer arithmetic on one dword: the result stays in the allocation of
  // the one argument among its operands.
  if (isa<S_MOV_B32, S_MOV_B64>(def))
    return trace(def->getOperand(0), dword, depth + 1);
  if (isa<S_ADD_U32, S_ADDC_U32, S_SUB_U32>(def) &&
      value == def->getResult(0) && dword == 0)
    return traceOperands(def, depth);
  return std::nullopt;
}

std::optional<int64_t> PointerTracer::traceBlockArg(BlockArgument arg,
                                                    int64_t dword, int depth) {
  auto key = std::make_pair(Value(arg), dword);
  auto it = assumed.find(key);
  if (it != assumed.end())
    return it->second;
  auto loop = dyn_cast<LoopOp>(arg.getOwner()->getParentOp());
  if (!loop || arg.getOwner() != &loop.getBody().front() ||
      arg.getArgNumber() >= loop.getInitArgs().size())
    return std::nullopt;
  ConditionOp condition = loop.getConditionOp();
  if (!condition || arg.getArgNumber() >= condition.getIterArgs().size())
    return std::nullopt;
  std::optional<int64_t> init =
      trace(loop.getInitArgs()[arg.getArgNumber()], dword, depth + 1);
  if (!init)
    return std::nullopt;
  assumed[key] = init;
  std::optional<int64_t> yielded =
      trace(condition.getIterArgs()[arg.getArgNumber()], dword, depth + 1);
  assumed.erase(key);
  return yielded == init ? init : std::nullopt;
}

std::optional<int64_t> waveasm::getPointerArg(Value value) {
  PointerTracer tracer;
  return tracer.trace(value);
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
  SmallVector<int64_t, 4> listed =
      getNoAliasArgs(a->getParentOfType<ProgramOp>());
  if (listed.empty())
    return false;
  Value pa = getAddressPointer(a), pb = getAddressPointer(b);
  if (!pa || !pb)
    return false;
  std::optional<int64_t> ka = getPointerArg(pa);
  if (!ka)
    return false;
  std::optional<int64_t> kb = getPointerArg(pb);
  if (!kb || *ka == *kb)
    return false;
  return llvm::is_contained(listed, *ka) || llvm::is_contained(listed, *kb);
}

std::string waveasm::noAliasHint(Operation *a, Operation *b) {
  Value pa = getAddressPointer(a), pb = getAddressPointer(b);
  if (!pa || !pb)
    return "";
  std::optional<int64_t> ka = getPointerArg(pa), kb = getPointerArg(pb);
  if (!ka || !kb || *ka == *kb)
    return "";
  int64_t lo = std::min(*ka, *kb), hi = std::max(*ka, *kb);
  return llvm::formatv("through the kernel arguments at kernarg offsets {0} "
                       "and {1}: if they never overlap, declare "
                       "noalias_args = [{0}, {1}] on waveasm.program",
                       lo, hi)
      .str();
}
