//===- ConstantIterArgs.cpp - iter_args a kernel brings back --------------===//

#include "pipeline/opt/ConstantIterArgs.h"
#include "pipeline/opt/OperandFacts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// Deeper than any base update chain a kernel has (at most three ops a
/// step, twelve steps); the bound keeps a long unrelated chain cheap.
constexpr unsigned kMaxDepth = 48;

/// The ops whose results the evaluator computes (and the fold may erase
/// once the iter_args no longer read them).
bool isEvaluated(Operation *op) {
  return isa<S_MOV_B32, S_XOR_B32, S_ADD_U32, S_CMP_GE_U32, S_CSELECT_B32>(op);
}

} // namespace

std::optional<uint32_t> ScalarEvaluator::evaluate(Value value) {
  return evaluate(value, 0);
}

std::optional<uint32_t> ScalarEvaluator::evaluate(Value value, unsigned depth) {
  if (std::optional<int64_t> c = getConstant32(value))
    return static_cast<uint32_t>(*c);
  if (auto arg = dyn_cast<BlockArgument>(value))
    return argument(arg);
  Operation *def = value.getDefiningOp();
  if (!def || depth >= kMaxDepth || !isEvaluated(def))
    return std::nullopt;
  auto operand = [&](unsigned i) {
    return evaluate(def->getOperand(i), depth + 1);
  };
  if (isa<S_MOV_B32>(def))
    return operand(0);
  if (isa<S_CSELECT_B32>(def)) {
    std::optional<uint32_t> scc = operand(0);
    return scc ? operand(*scc ? 1 : 2) : std::nullopt;
  }
  std::optional<uint32_t> a = operand(0), b = a ? operand(1) : std::nullopt;
  if (!b)
    return std::nullopt;
  if (isa<S_CMP_GE_U32>(def))
    return uint32_t(*a >= *b);
  // The SCC results of the xor and the add are not evaluated (carries).
  if (value != def->getResult(0))
    return std::nullopt;
  return isa<S_XOR_B32>(def) ? *a ^ *b : *a + *b;
}

unsigned waveasm::foldConstantIterArgs(LoopOp kernel) {
  Block &body = kernel.getBodyBlock();
  auto cond = cast<ConditionOp>(body.getTerminator());
  // Values from before the loop: no body argument is reached.
  ScalarEvaluator outside(
      [](BlockArgument) -> std::optional<uint32_t> { return std::nullopt; });
  llvm::DenseMap<unsigned, uint32_t> held;
  for (auto [k, init] : llvm::enumerate(kernel.getInitArgs()))
    if (isSGPR(init) && body.getArgument(k).getType() == init.getType())
      if (std::optional<uint32_t> c = outside.evaluate(init))
        held[k] = *c;
  // Induction: while some candidate's yield is not its constant (with the
  // others holding theirs), it is no candidate.
  auto heldBy = [&](BlockArgument arg) -> std::optional<uint32_t> {
    if (arg.getOwner() != &body)
      return std::nullopt;
    auto it = held.find(arg.getArgNumber());
    return it == held.end() ? std::nullopt
                            : std::optional<uint32_t>(it->second);
  };
  for (bool changed = true; changed;) {
    changed = false;
    ScalarEvaluator inside(heldBy);
    for (auto [k, c] : llvm::to_vector(held))
      if (inside.evaluate(cond.getIterArgs()[k]) != c) {
        held.erase(k);
        changed = true;
      }
  }

  unsigned folded = 0;
  // Through the mutable range: getBeginOperandIndex() of an empty range (a
  // loop without iter_args) reads past the operands.
  MutableOperandRange iterArgs = cond.getIterArgsMutable();
  llvm::SetVector<Operation *> maybeDead;
  for (auto [k, c] : held) {
    Value yielded = cond.getIterArgs()[k];
    if (yielded == body.getArgument(k))
      continue;
    iterArgs[k].set(body.getArgument(k));
    if (Operation *def = yielded.getDefiningOp())
      maybeDead.insert(def);
  }
  // Address adds of a constant SGPR.
  ScalarEvaluator inside(heldBy);
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    auto add = dyn_cast<V_ADD_U32>(&op);
    if (!add || !isSGPR(add.getSrc0()) || !isVGPR(add.getSrc1()))
      continue;
    std::optional<uint32_t> c = inside.evaluate(add.getSrc0());
    if (!c)
      continue;
    if (Operation *def = add.getSrc0().getDefiningOp())
      maybeDead.insert(def);
    ++folded;
    if (*c == 0 && canReplaceValue(add.getResult(), add.getSrc1())) {
      add.getResult().replaceAllUsesWith(add.getSrc1());
      add->erase();
      continue;
    }
    OpBuilder b(add);
    add->setOperand(0, getImmediate(b, add.getLoc(), signExtend32(*c)));
  }
  // The update chains nothing reads any more, last op first.
  while (!maybeDead.empty()) {
    Operation *op = maybeDead.pop_back_val();
    if (op->getBlock() != &body || !isEvaluated(op) || !op->use_empty())
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        maybeDead.insert(def);
    op->erase();
    ++folded;
  }
  return folded;
}
