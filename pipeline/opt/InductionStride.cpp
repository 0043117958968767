//===- InductionStride.cpp - how buffer-load addresses move per iteration -===//

#include "pipeline/opt/InductionStride.h"
#include "pipeline/opt/LoopRewrite.h"

#include "pipeline/CountedWaits.h"
#include "pipeline/StorageKeys.h"

#include "ir/OpClassTable.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace waveasm;

std::optional<BufferLoadOperands>
waveasm::getBufferLoadOperands(Operation *op) {
  // The op's kind kept per thread by TypeID (strength reduction asks every
  // op, and eight TypeID comparisons cost more than the lookup). An
  // unregistered op's TypeID is one for every name, and none is a load.
  enum class Kind : uint8_t { None, Load, LoadToLDS };
  static thread_local OpClassTable<Kind, 512> kinds;
  Kind kind = kinds.get(op, [](Operation *op) {
    TypeID id = op->getName().getTypeID();
    if (isOpType<BUFFER_LOAD_DWORD, BUFFER_LOAD_DWORDX2, BUFFER_LOAD_DWORDX3,
                 BUFFER_LOAD_DWORDX4, BUFFER_LOAD_UBYTE, BUFFER_LOAD_USHORT>(
            id))
      return Kind::Load;
    if (isOpType<BUFFER_LOAD_DWORD_LDS, BUFFER_LOAD_DWORDX4_LDS>(id))
      return Kind::LoadToLDS;
    return Kind::None;
  });
  if (kind == Kind::Load)
    return BufferLoadOperands{/*voffset=*/1, /*srd=*/0, /*soffset=*/2,
                              /*toLDS=*/false};
  if (kind == Kind::LoadToLDS)
    return BufferLoadOperands{/*voffset=*/0, /*srd=*/1, /*soffset=*/2,
                              /*toLDS=*/true};
  return std::nullopt;
}

bool waveasm::isAddressOp(Operation *op) {
  return isa<V_LSHLREV_B32, V_LSHL_OR_B32, V_LSHL_ADD_U32, V_ADD_U32, V_SUB_U32,
             V_AND_B32, V_OR_B32, V_LSHRREV_B32, V_MUL_LO_U32, V_MOV_B32,
             V_XOR_B32, V_BFE_U32, S_MUL_I32, S_ADD_U32, S_SUB_U32, S_MOV_B32>(
      op);
}

/// The constant a counter `arg` moves by per iteration when `yielded` (its
/// iter_arg) is `arg` stepped by a chain of at most `maxAdds` s_add_u32s of
/// constants in the body (either operand order), else nullopt.
static std::optional<int64_t> counterStep(Block &body, BlockArgument arg,
                                          Value yielded, unsigned maxAdds) {
  int64_t total = 0;
  Value v = yielded;
  for (unsigned adds = 0; adds < maxAdds && v != arg; ++adds) {
    auto add = v.getDefiningOp<S_ADD_U32>();
    if (!add || add->getBlock() != &body)
      return std::nullopt;
    std::optional<int64_t> c = getConstantValue(add.getSrc1());
    v = add.getSrc0();
    if (!c) {
      c = getConstantValue(add.getSrc0());
      v = add.getSrc1();
    }
    if (!c)
      return std::nullopt;
    total += *c;
  }
  if (v != arg)
    return std::nullopt;
  return total;
}

unsigned waveasm::getPipelinedKernelSteps(LoopOp loop) {
  if (!loop->hasAttr(kCountedWaitsAttrName))
    return 0;
  auto steps = loop->getAttrOfType<IntegerAttr>(kPipelineStepsAttrName);
  return steps ? std::max<int64_t>(steps.getInt(), 1) : 1;
}

std::optional<InductionVariable>
waveasm::getInductionVariable(LoopOp loop, const char *&whyNot) {
  Block &body = loop.getBodyBlock();
  ConditionOp cond = loop.getConditionOp();
  if (!cond || body.getNumArguments() == 0) {
    whyNot = "the loop has no iter_args";
    return std::nullopt;
  }
  BlockArgument iv = body.getArgument(0);
  auto add = cond.getIterArgs()[0].getDefiningOp<S_ADD_U32>();
  if (add && add->getBlock() == &body &&
      (add.getSrc0() == iv || add.getSrc1() == iv)) {
    std::optional<int64_t> step =
        getConstantValue(add.getSrc0() == iv ? add.getSrc1() : add.getSrc0());
    if (!step) {
      whyNot = "the induction variable's step is not a constant";
      return std::nullopt;
    }
    return InductionVariable{iv, *step};
  }
  // A pipelined kernel (modulo variable expansion, PipelineLoops.cpp) runs
  // U steps per iteration: its counter is the last iter_arg, stepped U
  // times, and each step's addresses read one of the partial sums. Any
  // block argument stepped by a chain of constant adds is its induction
  // variable (the partial sums are IV + constant, so StrideAnalysis derives
  // their strides); loops as written keep SPEC.md 18.3's rule.
  if (unsigned maxAdds = getPipelinedKernelSteps(loop)) {
    for (auto [arg, yielded] :
         llvm::zip(body.getArguments(), cond.getIterArgs()))
      if (isa<SRegType>(arg.getType()))
        if (std::optional<int64_t> step =
                counterStep(body, arg, yielded, maxAdds))
          if (*step != 0)
            return InductionVariable{arg, *step};
    whyNot = "no iter_arg of the pipelined kernel is its block argument "
             "stepped by s_add_u32s of constants";
    return std::nullopt;
  }
  whyNot = "iter_arg 0 is not an s_add_u32 of block argument 0 in the body";
  return std::nullopt;
}

StrideAnalysis::StrideAnalysis(LoopOp loop, InductionVariable iv)
    : body(loop.getBodyBlock()), iv(iv) {}

const StrideAnalysis::Stride &StrideAnalysis::of(Value value) const {
  auto it = strides.find(value);
  assert(it != strides.end() && "operand stride not computed first");
  return it->second;
}

/// Values that are not computed by an op of the body's block.
StrideAnalysis::Stride StrideAnalysis::leaf(Value value) {
  Stride s;
  if (value == iv.iv) {
    s.dependsOnIV = true;
    s.perIteration = iv.step;
    return s;
  }
  // Upstream: every other block argument counts as invariant (stride 0),
  // so an address built on a rotating one (a double buffer's base) is
  // hoisted with its first value and loses the rotation; the simulator
  // shows the loads reading the wrong bytes. Only a block argument the
  // condition passes back unchanged is invariant.
  auto arg = dyn_cast<BlockArgument>(value);
  if (arg && arg.getOwner() == &body) {
    auto cond = dyn_cast<ConditionOp>(body.getTerminator());
    if (!cond || cond.getIterArgs()[arg.getArgNumber()] != value) {
      s.error = "depends on a loop-carried value other than the induction "
                "variable";
      s.culprit = arg.getOwner()->getParentOp();
    }
  }
  return s;
}

namespace {

using Stride = StrideAnalysis::Stride;

} // namespace

static Stride fail(const char *why, Operation *op) {
  Stride s;
  s.error = why;
  s.culprit = op;
  return s;
}

/// The moving value `x` shifted left by the constant `amount`.
static Stride shiftLeft(const Stride &x, Value amount, Operation *op) {
  std::optional<int64_t> shift = getConstantValue(amount);
  if (!shift)
    return fail("shift of an induction-dependent value by a non-constant "
                "amount",
                op);
  if (*shift < 0 || *shift > 31)
    return fail("shift amount outside [0, 31]", op);
  Stride s = x;
  s.perIteration = x.perIteration * (int64_t(1) << *shift);
  return s;
}

Stride StrideAnalysis::derive(Operation *op) {
  auto operand = [&](unsigned i) -> const Stride & {
    return of(op->getOperand(i));
  };
  for (Value v : op->getOperands())
    if (const Stride &s = of(v); s.error)
      return s;
  if (isa<ConstantOp>(op))
    return Stride();
  bool anyMoves = llvm::any_of(op->getOperands(),
                               [&](Value v) { return of(v).dependsOnIV; });
  if (!anyMoves)
    return Stride();

  Stride s;
  s.dependsOnIV = true;
  if (isa<V_ADD_U32, S_ADD_U32>(op)) {
    s.perIteration = operand(0).perIteration + operand(1).perIteration;
  } else if (isa<V_SUB_U32, S_SUB_U32>(op)) {
    s.perIteration = operand(0).perIteration - operand(1).perIteration;
  } else if (isa<V_MOV_B32, S_MOV_B32>(op)) {
    s = operand(0);
  } else if (isa<V_LSHLREV_B32>(op)) { // src1 << src0
    if (operand(0).dependsOnIV)
      return fail("the shift amount depends on the induction variable", op);
    s = shiftLeft(operand(1), op->getOperand(0), op);
  } else if (isa<V_LSHL_ADD_U32, V_LSHL_OR_B32>(op)) { // (src0 << src1) op src2
    if (operand(1).dependsOnIV)
      return fail("the shift amount depends on the induction variable", op);
    if (isa<V_LSHL_OR_B32>(op) && operand(2).dependsOnIV)
      return fail("the or-operand of v_lshl_or_b32 depends on the induction "
                  "variable",
                  op);
    if (operand(0).dependsOnIV)
      s = shiftLeft(operand(0), op->getOperand(1), op);
    if (s.error)
      return s;
    s.dependsOnIV = true;
    s.perIteration += operand(2).perIteration;
  } else if (isa<V_LSHRREV_B32>(op)) { // src1 >> src0
    if (operand(0).dependsOnIV)
      return fail("the shift amount depends on the induction variable", op);
    std::optional<int64_t> shift = getConstantValue(op->getOperand(0));
    if (!shift || *shift < 0 || *shift > 31)
      return fail("shift right of an induction-dependent value by a "
                  "non-constant amount",
                  op);
    int64_t d = operand(1).perIteration;
    if (d % (int64_t(1) << *shift) != 0)
      return fail("shift right of a stride that it does not divide exactly",
                  op);
    s.perIteration = d / (int64_t(1) << *shift);
  } else if (isa<V_MUL_LO_U32, S_MUL_I32>(op)) {
    if (operand(0).dependsOnIV && operand(1).dependsOnIV)
      return fail("product of two induction-dependent values", op);
    unsigned moving = operand(0).dependsOnIV ? 0 : 1;
    std::optional<int64_t> factor =
        getConstantValue(op->getOperand(1 - moving));
    if (!factor)
      return fail("product of an induction-dependent value and a non-constant",
                  op);
    int64_t product;
    if (__builtin_mul_overflow(operand(moving).perIteration, *factor, &product))
      return fail("the stride does not fit 32 bits", op);
    s.perIteration = product;
  } else {
    // v_and_b32, v_or_b32, v_xor_b32, v_bfe_u32: not affine.
    return fail("bitwise op of an induction-dependent value", op);
  }
  if (!llvm::isInt<32>(s.perIteration))
    return fail("the stride does not fit 32 bits", op);
  return s;
}

const Stride &StrideAnalysis::get(Value root) {
  if (auto it = strides.find(root); it != strides.end())
    return it->second;
  // Iterative post-order over the chain: address chains of generated
  // programs can be thousands of ops deep.
  auto inBody = [&](Value v) -> Operation * {
    Operation *def = v.getDefiningOp();
    return def && def->getBlock() == &body ? def : nullptr;
  };
  SmallVector<std::pair<Value, bool>> stack = {{root, false}};
  while (!stack.empty()) {
    auto [value, operandsDone] = stack.pop_back_val();
    if (strides.count(value))
      continue;
    Operation *def = inBody(value);
    if (!def) {
      strides[value] = leaf(value);
      continue;
    }
    if (!isAddressOp(def) && !isa<ConstantOp>(def)) {
      // The chain stops here whatever the operands are.
      Stride s = fail("computed by an op that is not address arithmetic", def);
      for (Value result : def->getResults())
        strides[result] = s;
      continue;
    }
    if (operandsDone) {
      Stride s = derive(def);
      for (Value result : def->getResults())
        strides[result] = s;
      continue;
    }
    stack.push_back({value, true});
    for (Value operand : def->getOperands())
      if (!strides.count(operand))
        stack.push_back({operand, false});
  }
  return strides.find(root)->second;
}
