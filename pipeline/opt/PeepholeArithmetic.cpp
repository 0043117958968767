//===- PeepholeArithmetic.cpp - instruction-combining rules ---------------===//
//
// SPEC.md 18.5's rules and 18.2's BFE pack identity, one rewrite pattern
// each. Every rule keeps the 32-bit value computed (VALU shifts read the low
// five bits of the amount, sums wrap), creates ops whose results keep the
// type of what they replace, and fires only before register allocation.
// A rule that would leave a VALU op reading two SGPRs/literals (the GFX9
// constant bus holds one, SPEC.md 17.6) does not fire: the emitter would
// have to stage one through v15, undoing the saving.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Literals.h"
#include "pipeline/opt/OperandFacts.h"
#include "pipeline/opt/PeepholePatterns.h"

#include "ir/Dialect.h"
#include "ir/InstFacts.h"

#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace waveasm;

namespace {

constexpr const char *kConstantBus =
    "the result would read two SGPRs/literals (one constant-bus slot)";

/// Shared by the patterns: a rule applies to ops not yet allocated.
LogicalResult notAllocated(Operation *op, PatternRewriter &rewriter) {
  if (hasPhysicalResults(op))
    return rewriter.notifyMatchFailure(op, "the op is already allocated");
  return success();
}

/// A rule on `OpT`; its name (in the -debug-only log) and benefit are given
/// where it is registered.
template <typename OpT> struct Rule : public OpRewritePattern<OpT> {
  Rule(MLIRContext *context, StringRef name, PatternBenefit benefit = 1)
      : OpRewritePattern<OpT>(context, benefit) {
    this->setDebugName(name);
  }
};

/// `v_lshlrev_b32(C, x)` + `y` -> one fused op `x << C op y` (lshl+or,
/// lshl+add).
template <typename OuterOp, typename FusedOp>
struct ShiftFusion : public Rule<OuterOp> {
  using Rule<OuterOp>::Rule;

  static constexpr bool kIsAdd = std::is_same_v<OuterOp, V_ADD_U32>;

  LogicalResult matchAndRewrite(OuterOp op,
                                PatternRewriter &rewriter) const override {
    const char *why = nullptr;
    for (unsigned i : {0u, 1u}) {
      Value shifted = op->getOperand(i), addend = op->getOperand(1 - i);
      auto shift = shifted.getDefiningOp<V_LSHLREV_B32>();
      if (!shift)
        continue;
      why = checkFusion(op, shift, addend);
      if (why)
        continue;
      if (failed(notAllocated(op, rewriter)))
        return failure();
      int64_t amount = *getConstant32(shift.getSrc0());
      Value amountImm =
          getImmediate(rewriter, op.getLoc(), amount, shift.getSrc0());
      rewriter.replaceOpWithNewOp<FusedOp>(op, op.getType(), shift.getSrc1(),
                                           amountImm, addend);
      return success();
    }
    return why ? rewriter.notifyMatchFailure(op, why) : failure();
  }

  /// Why `shift` cannot fuse into `op` with the other operand `addend`.
  const char *checkFusion(OuterOp op, V_LSHLREV_B32 shift, Value addend) const {
    if (!shift.getResult().hasOneUse())
      return "the shift has other uses";
    std::optional<int64_t> amount = getConstant32(shift.getSrc0());
    if (!amount)
      return "the shift amount is not a constant";
    Value source = shift.getSrc1();
    if (kIsAdd && (*amount < 0 || *amount > 31))
      return "the shift amount is outside 0..31";
    // Upstream: lshl+or refuses only two distinct SGPRs; a literal spends
    // the same constant-bus slot.
    if (countConstantBusReads({source, shift.getSrc0(), addend}) > 1)
      return kConstantBus;
    if (!kIsAdd)
      return nullptr;
    // Keep BufferLoadLDSSoffset's shapes (SPEC.md 18.4): a scalar shift
    // that reaches a direct-to-LDS voffset through at most one more add
    // becomes that load's soffset instead.
    if (isSGPR(source) && feedsLDSLoadVoffset(op.getResult(), true))
      return "the scalar shift feeds a direct-to-LDS voffset (kept for the "
             "soffset rewrite)";
    // Upstream: fuses a VGPR shift with a scalar-shift addend when the sum
    // is the voffset itself; none of the soffset cases matches that shape,
    // and the scalar shift stays in the loop.
    if (isScalarShift(addend) && feedsLDSLoadVoffset(op.getResult(), false))
      return "the addend is a scalar shift that a direct-to-LDS voffset "
             "reads (kept for the soffset rewrite)";
    return nullptr;
  }
};

/// `v_mov_b32` of a VGPR -> the VGPR.
struct RedundantMove : public Rule<V_MOV_B32> {
  using Rule::Rule;
  LogicalResult matchAndRewrite(V_MOV_B32 op,
                                PatternRewriter &rewriter) const override {
    Value source = op.getSrc();
    if (!isVGPR(source) || !isVGPR(op.getResult()))
      return failure();
    if (!canReplaceValue(op.getResult(), source))
      return rewriter.notifyMatchFailure(
          op, "the source's type cannot replace the result's");
    if (failed(notAllocated(op, rewriter)))
      return failure();
    rewriter.replaceOp(op, source);
    return success();
  }
};

/// The constant operand of a binary op and the other operand.
struct ConstantOperand {
  int64_t constant;
  Value other;
};
std::optional<ConstantOperand> getConstantOperand(Operation *op) {
  for (unsigned i : {0u, 1u})
    if (std::optional<int64_t> constant = getConstant32(op->getOperand(i)))
      return ConstantOperand{*constant, op->getOperand(1 - i)};
  return std::nullopt;
}

/// Constant folding and identities of v_add_u32 / v_mul_lo_u32: both
/// constant -> `v_mov_b32` of the 32-bit result; add 0 / mul 1 -> the other
/// operand (when it is a VGPR); mul 0 -> `v_mov_b32 0`.
template <typename OpT> struct ConstantFold : public Rule<OpT> {
  using Rule<OpT>::Rule;
  static constexpr bool kIsMul = std::is_same_v<OpT, V_MUL_LO_U32>;

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    std::optional<ConstantOperand> c = getConstantOperand(op);
    if (!c || failed(notAllocated(op, rewriter)))
      return failure();
    uint32_t a = static_cast<uint32_t>(c->constant);
    std::optional<int64_t> other = getConstant32(c->other);
    std::optional<int64_t> folded;
    if (other) {
      uint32_t b = static_cast<uint32_t>(*other);
      folded = signExtend32(kIsMul ? a * b : a + b);
    } else if (kIsMul && a == 0) {
      folded = 0;
    }
    if (folded) {
      Value imm = getImmediate(rewriter, op.getLoc(), *folded);
      rewriter.replaceOpWithNewOp<V_MOV_B32>(op, op.getType(), imm);
      return success();
    }
    if (a != (kIsMul ? 1u : 0u))
      return failure();
    if (!isVGPR(c->other) || !canReplaceValue(op.getResult(), c->other))
      return rewriter.notifyMatchFailure(
          op, "the identity's other operand is not a VGPR of the result's "
              "type");
    rewriter.replaceOp(op, c->other);
    return success();
  }
};

/// `v_mul_lo_u32(x, 2^k)` -> `v_lshlrev_b32 k, x`;
/// `v_mul_lo_u32(x, -2^k)` -> `v_sub_u32 0, v_lshlrev_b32(k, x)`.
struct MulByPowerOfTwo : public Rule<V_MUL_LO_U32> {
  using Rule::Rule;
  LogicalResult matchAndRewrite(V_MUL_LO_U32 op,
                                PatternRewriter &rewriter) const override {
    std::optional<ConstantOperand> c = getConstantOperand(op);
    if (!c || getConstant32(c->other))
      return failure();
    uint32_t factor = static_cast<uint32_t>(c->constant);
    bool negative = !llvm::has_single_bit(factor);
    if (negative && !llvm::has_single_bit(0u - factor))
      return failure();
    if (failed(notAllocated(op, rewriter)))
      return failure();
    int64_t k = llvm::countr_zero(negative ? 0u - factor : factor);
    Location loc = op.getLoc();
    Value shift = V_LSHLREV_B32::create(
        rewriter, loc, op.getType(), getImmediate(rewriter, loc, k), c->other);
    if (negative)
      shift = V_SUB_U32::create(rewriter, loc, op.getType(),
                                getImmediate(rewriter, loc, 0), shift);
    rewriter.replaceOp(op, shift);
    return success();
  }
};

/// `v_lshlrev_b32(N, v_lshrrev_b32(N, x))`, 0 < N < 32 ->
/// `v_and_b32 ~(2^N - 1), x`.
struct ShiftPair : public Rule<V_LSHLREV_B32> {
  using Rule::Rule;
  LogicalResult matchAndRewrite(V_LSHLREV_B32 op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc1().getDefiningOp<V_LSHRREV_B32>();
    if (!inner)
      return failure();
    std::optional<int64_t> n = getConstant32(op.getSrc0());
    if (!n || *n <= 0 || *n >= 32 || getConstant32(inner.getSrc0()) != n)
      return rewriter.notifyMatchFailure(
          op, "the two shift amounts are not one constant in 1..31");
    Value x = inner.getSrc1();
    int64_t mask = signExtend32(~((uint64_t{1} << *n) - 1));
    if (countConstantBusReads({x}, {mask}) > 1)
      return rewriter.notifyMatchFailure(op, kConstantBus);
    if (failed(notAllocated(op, rewriter)))
      return failure();
    Value maskImm = getImmediate(rewriter, op.getLoc(), mask);
    rewriter.replaceOpWithNewOp<V_AND_B32>(op, op.getType(), maskImm, x);
    return success();
  }
};

/// `v_add_u32(a, v_sub_u32(0, b))` -> `v_sub_u32 a, b`.
struct AddOfNegation : public Rule<V_ADD_U32> {
  using Rule::Rule;
  LogicalResult matchAndRewrite(V_ADD_U32 op,
                                PatternRewriter &rewriter) const override {
    for (unsigned i : {0u, 1u}) {
      auto negation = op->getOperand(i).getDefiningOp<V_SUB_U32>();
      if (!negation || getConstant32(negation.getSrc0()) != 0)
        continue;
      Value a = op->getOperand(1 - i), b = negation.getSrc1();
      if (countConstantBusReads({a, b}) > 1)
        return rewriter.notifyMatchFailure(op, kConstantBus);
      if (failed(notAllocated(op, rewriter)))
        return failure();
      rewriter.replaceOpWithNewOp<V_SUB_U32>(op, op.getType(), a, b);
      return success();
    }
    return failure();
  }
};

/// The ops MFMAZeroAccumulator looks at: MFMAs with an accumulator.
bool isMFMAWithAccumulator(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  return facts.unit == ExecUnit::MFMA && facts.tiedOperand >= 0;
}

/// An MFMA whose accumulator is a single-use `v_mov_b32 0` (without
/// `no_cse`) accumulates onto the immediate 0 instead.
struct MFMAZeroAccumulator : public RewritePattern {
  MFMAZeroAccumulator(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {
    setDebugName("MFMA zero accumulator");
  }
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isMFMAWithAccumulator(op))
      return failure();
    unsigned accIndex = lookupInstFacts(op).tiedOperand;
    auto mov = op->getOperand(accIndex).getDefiningOp<V_MOV_B32>();
    if (!mov || getConstantValue(mov.getSrc()) != 0)
      return failure();
    if (mov->hasAttr("no_cse"))
      return rewriter.notifyMatchFailure(op, "the zero move is `no_cse`");
    if (!mov.getResult().hasOneUse())
      return rewriter.notifyMatchFailure(op, "the zero move has other uses");
    if (failed(notAllocated(op, rewriter)))
      return failure();
    Value zero = getImmediate(rewriter, op->getLoc(), 0, mov.getSrc());
    rewriter.modifyOpInPlace(op, [&] { op->setOperand(accIndex, zero); });
    return success();
  }
};

/// A single-use `v_mov_b32 C` read by `OpT` at one of `operands` -> C.
template <typename OpT> struct FoldConstantMove : public Rule<OpT> {
  FoldConstantMove(MLIRContext *context, StringRef name,
                   ArrayRef<unsigned> operands)
      : Rule<OpT>(context, name), operands(operands) {}
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    const char *why = nullptr;
    for (unsigned index : operands) {
      Value operand = op->getOperand(index);
      auto mov = operand.getDefiningOp<V_MOV_B32>();
      if (!mov)
        continue;
      std::optional<int64_t> constant = getConstant32(mov.getSrc());
      if (!constant || getRegSize(operand.getType()) != 1)
        continue;
      if (!operand.hasOneUse()) {
        why = "the constant move has other uses";
        continue;
      }
      SmallVector<Value, 2> others;
      for (auto [i, other] : llvm::enumerate(op->getOperands()))
        if (i != index)
          others.push_back(other);
      if (countConstantBusReads(others, {*constant}) > 1) {
        why = kConstantBus;
        continue;
      }
      // VOP2 takes a literal only in src0; commutative ops can swap.
      if (index != 0 &&
          !OpT::template hasTrait<mlir::OpTrait::IsCommutative>() &&
          !isInlineConstant(*constant)) {
        why = "a literal in src1 of this op would be staged through v15";
        continue;
      }
      if (failed(notAllocated(op, rewriter)))
        return failure();
      Value imm = getImmediate(rewriter, op.getLoc(), *constant, mov.getSrc());
      rewriter.modifyOpInPlace(op, [&] { op->setOperand(index, imm); });
      return success();
    }
    return why ? rewriter.notifyMatchFailure(op, why) : failure();
  }
  SmallVector<unsigned, 2> operands;
};

/// `value` = `v_bfe_u32(X, offset, 8)` with constant offset and width: X.
Value matchByteOf(Value value, int64_t offset) {
  auto bfe = value.getDefiningOp<V_BFE_U32>();
  if (!bfe || getConstant32(bfe.getSrc1()) != offset ||
      getConstant32(bfe.getSrc2()) != 8)
    return {};
  return bfe.getSrc0();
}

/// `value` = `v_lshl_or_b32(high, shift, low)`: {high, low}.
std::optional<std::pair<Value, Value>> matchLshlOr(Value value, int64_t shift) {
  auto op = value.getDefiningOp<V_LSHL_OR_B32>();
  if (!op || getConstant32(op.getSrc1()) != shift)
    return std::nullopt;
  return std::make_pair(op.getSrc0(), op.getSrc2());
}

/// SPEC.md 18.2: the four bytes of X extracted with v_bfe_u32 and packed back
/// in order with three v_lshl_or_b32 are X.
struct BFEPackIdentity : public Rule<V_LSHL_OR_B32> {
  using Rule::Rule;
  LogicalResult matchAndRewrite(V_LSHL_OR_B32 op,
                                PatternRewriter &rewriter) const override {
    auto top = matchLshlOr(op.getResult(), 24);
    if (!top)
      return failure();
    Value x = matchByteOf(top->first, 24);
    auto middle = matchLshlOr(top->second, 16);
    auto bottom = middle ? matchLshlOr(middle->second, 8) : std::nullopt;
    if (!x || !bottom || matchByteOf(middle->first, 16) != x ||
        matchByteOf(bottom->first, 8) != x ||
        matchByteOf(bottom->second, 0) != x)
      return failure();
    if (!isVGPR(x) || !canReplaceValue(op.getResult(), x))
      return rewriter.notifyMatchFailure(
          op, "the packed value is not a VGPR of the result's type");
    if (failed(notAllocated(op, rewriter)))
      return failure();
    rewriter.replaceOp(op, x);
    return success();
  }
};

} // namespace

bool waveasm::peepholeAnyOpMayMatch(Operation *op) {
  return isMFMAWithAccumulator(op);
}

void waveasm::populatePeepholeArithmeticPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ShiftFusion<V_OR_B32, V_LSHL_OR_B32>>(context, "lshl+or fusion");
  patterns.add<ShiftFusion<V_ADD_U32, V_LSHL_ADD_U32>>(context,
                                                       "lshl+add fusion");
  patterns.add<RedundantMove>(context, "redundant move");
  patterns.add<MulByPowerOfTwo>(context, "mul by 2^k");
  patterns.add<ShiftPair>(context, "shift pair");
  patterns.add<AddOfNegation>(context, "add of negation");
  patterns.add<MFMAZeroAccumulator>(context);
  // Before the rules that treat one operand as a variable: a fold (or an
  // identity) removes the op.
  patterns.add<ConstantFold<V_ADD_U32>, ConstantFold<V_MUL_LO_U32>>(
      context, "add/mul constant folding", /*benefit=*/2);
  patterns.add<BFEPackIdentity>(context, "BFE pack identity", /*benefit=*/2);
  StringRef fold = "fold constant move";
  SmallVector<unsigned, 2> both = {0, 1}, amount = {0};
  patterns.add<FoldConstantMove<V_ADD_U32>>(context, fold, both);
  patterns.add<FoldConstantMove<V_SUB_U32>>(context, fold, both);
  patterns.add<FoldConstantMove<V_AND_B32>>(context, fold, both);
  patterns.add<FoldConstantMove<V_LSHLREV_B32>>(context, fold, amount);
  patterns.add<FoldConstantMove<V_LSHRREV_B32>>(context, fold, amount);
}
