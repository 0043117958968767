//===- ArithLegalization.cpp - waveasm.arith.* to machine instructions ----===//
//
// `waveasm-arith-legalization` (SPEC.md 6) replaces every generic
// `waveasm.arith.*` op by machine instructions:
//
//   * an op with a vector-register operand runs on the VALU (AGPR operands
//     are read into VGPRs first); an op on SGPRs and immediates on the SALU;
//   * a VALU op reads at most one SGPR (none when it also reads VCC):
//     extra SGPRs are copied with v_mov_b32; an SALU op gets its SGPR in
//     src0 (commuted, or an immediate loaded with s_mov_b32);
//   * 32-bit: add, mul, or, and, cmp, select map to one instruction (plus
//     the compare flag, ArithLowering.h); readfirstlane to
//     v_readfirstlane_b32 (or a move of an SGPR); trunc/sext/zext to a low
//     word, a sign word (s_ashr_i32 / v_ashrrev_i32 31) or a zero;
//   * 64-bit: ArithLowering64.cpp, or per half (or, and, select, trunc);
//   * widths other than 32 and 64 bits are errors, reported for every bad
//     op before anything is changed.
//
// Where the declared result type is in another register file than the unit
// computes in, the words are moved into it (v_mov_b32 for a VGPR or AGPR
// result of SALU code). Upstream: gives the op a VGPR result whenever an
// operand is a VGPR, whatever its users expect; here the verified result
// type is kept, and an SGPR result of a VGPR computation is an error (it is
// what waveasm.arith.readfirstlane is for).
//
//===----------------------------------------------------------------------===//

#include "pipeline/DeferredErase.h"
#include "pipeline/ForEachOp.h"
#include "pipeline/Passes.h"
#include "pipeline/StorageKeys.h"
#include "pipeline/opt/ArithLowering.h"

#include "ir/OpClassTable.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "waveasm-arith-legalization"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMARITHLEGALIZATION
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;
using namespace waveasm::arith;

namespace {

/// The answer is kept per thread by TypeID (the pass asks every op, and
/// ten TypeID comparisons cost more than the lookup); an unregistered op's
/// TypeID is one for every name, and none is arith.
bool isArith(Operation *op) {
  static thread_local OpClassTable<bool, 512> table;
  return table.get(op, [](Operation *op) {
    return isOpType<ArithAddOp, ArithMulOp, ArithOrOp, ArithAndOp, ArithCmpOp,
                    ArithSelectOp, ArithReadFirstLaneOp, ArithTruncOp,
                    ArithSExtOp, ArithZExtOp>(op->getName().getTypeID());
  });
}

bool isVector(Type type) {
  std::optional<RegClass> cls = getRegClass(type);
  return cls == RegClass::VGPR || cls == RegClass::AGPR;
}

/// Registers of a value (an immediate fits any width: 0).
int64_t widthOf(Value value) {
  return isRegister(value.getType()) ? getRegSize(value.getType()) : 0;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

LogicalResult checkWidth(Operation *op, StringRef what, int64_t words,
                         ArrayRef<int64_t> allowed) {
  if (llvm::is_contained(allowed, words))
    return success();
  return op->emitOpError() << what << " is " << 32 * words << "-bit; only "
                           << (allowed.size() == 1
                                   ? std::to_string(32 * allowed[0])
                                   : std::string("32- and 64"))
                           << "-bit values can be legalized";
}

/// Every register operand in `operands` has `width` registers.
LogicalResult checkOperands(Operation *op, ValueRange operands, int64_t width) {
  for (OpOperand &use : op->getOpOperands()) {
    if (!llvm::is_contained(operands, use.get()))
      continue;
    int64_t w = widthOf(use.get());
    if (w != 0 && w != width)
      return op->emitOpError()
             << "operand #" << use.getOperandNumber() << " is " << 32 * w
             << "-bit but the operation is " << 32 * width << "-bit";
  }
  return success();
}

/// A vector operand makes the op VALU code with a VGPR result.
LogicalResult checkResultFile(Operation *op, Type resultType) {
  if (isa<ArithReadFirstLaneOp>(op) ||
      getRegClass(resultType) != RegClass::SGPR)
    return success();
  for (OpOperand &use : op->getOpOperands())
    if (isVector(use.get().getType()))
      return op->emitOpError()
             << "reads the vector register operand #" << use.getOperandNumber()
             << " (" << use.get().getType()
             << "), so it runs on the VALU and produces a VGPR, but its "
                "result is "
             << resultType
             << "; move a uniform value to an SGPR with "
                "waveasm.arith.readfirstlane";
  return success();
}

LogicalResult check(Operation *op) {
  Type resultType = op->getResult(0).getType();
  int64_t size = getRegSize(resultType);
  if (failed(checkResultFile(op, resultType)))
    return failure();
  if (isa<ArithAddOp, ArithMulOp, ArithOrOp, ArithAndOp>(op))
    return failure(failed(checkWidth(op, "the result", size, {1, 2})) ||
                   failed(checkOperands(op, op->getOperands(), size)));
  if (auto cmp = dyn_cast<ArithCmpOp>(op)) {
    int64_t width =
        std::max<int64_t>({widthOf(cmp.getLhs()), widthOf(cmp.getRhs()), 1});
    return failure(failed(checkWidth(op, "the result (0 or 1)", size, {1})) ||
                   failed(checkWidth(op, "the comparison", width, {1, 2})) ||
                   failed(checkOperands(op, op->getOperands(), width)));
  }
  if (auto select = dyn_cast<ArithSelectOp>(op))
    return failure(failed(checkWidth(op, "the condition",
                                     widthOf(select.getCondition()), {1})) ||
                   failed(checkWidth(op, "the result", size, {1, 2})) ||
                   failed(checkOperands(
                       op, {select.getTrueVal(), select.getFalseVal()}, size)));
  Value src = op->getOperand(0);
  if (isa<ArithReadFirstLaneOp>(op))
    return failure(failed(checkWidth(op, "the result", size, {1, 2})) ||
                   failed(checkOperands(op, src, size)));
  if (isa<ArithTruncOp>(op))
    return failure(
        failed(checkWidth(op, "the result", size, {1})) ||
        failed(checkWidth(op, "the source", std::max<int64_t>(widthOf(src), 1),
                          {1, 2})));
  // sext, zext: from 32 bits, or a copy at the same width.
  if (failed(checkWidth(op, "the result", size, {1, 2})))
    return failure();
  if (widthOf(src) > size)
    return op->emitOpError()
           << "operand #0 is " << 32 * widthOf(src) << "-bit but the result is "
           << 32 * size << "-bit";
  return success();
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

Unit unitOf(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isVector) ? Unit::VALU
                                                       : Unit::SALU;
}

Value lowerBinary(Operation *op, ArithBuilder &ab, Type resultType) {
  Value a = op->getOperand(0), b = op->getOperand(1);
  int64_t width = getRegSize(resultType);
  if (width == 2) {
    if (isa<ArithAddOp>(op))
      return lowerAdd64(ab, a, b, resultType);
    if (isa<ArithMulOp>(op))
      return lowerMul64(ab, a, b, resultType);
  }
  SmallVector<Value, 2> words;
  Type type = width == 1 ? ab.resultWordType(resultType) : ab.wordType();
  for (int k = 0; k < width; ++k) {
    Value x = ab.word(a, k, width);
    Value y = ab.word(b, k, width);
    if (isa<ArithAddOp>(op))
      words.push_back(ab.add(x, y, type));
    else if (isa<ArithMulOp>(op))
      words.push_back(ab.mulLo(x, y, type));
    else if (isa<ArithOrOp>(op))
      words.push_back(ab.bitOr(x, y, type));
    else
      words.push_back(ab.bitAnd(x, y, type));
  }
  return ab.finish(words, resultType);
}

Value lowerCmp(ArithCmpOp op, ArithBuilder &ab, Type resultType) {
  Value a = op.getLhs(), b = op.getRhs();
  if (std::max(widthOf(a), widthOf(b)) == 2)
    return lowerCmp64(ab, op.getPredicate(), a, b, resultType);
  Value x = ab.word(a, 0, 1);
  Value y = ab.word(b, 0, 1);
  return ab.finish(
      {ab.compare(op.getPredicate(), x, y, ab.resultWordType(resultType))},
      resultType);
}

Value lowerSelect(ArithSelectOp op, ArithBuilder &ab, Type resultType) {
  int64_t width = getRegSize(resultType);
  Value cond = ab.word(op.getCondition(), 0, 1);
  SmallVector<Value, 2> onTrue, onFalse;
  for (int k = 0; k < width; ++k) {
    onTrue.push_back(ab.word(op.getTrueVal(), k, width));
    onFalse.push_back(ab.word(op.getFalseVal(), k, width));
    if (ab.unit == Unit::VALU) {
      // Copies before the compare keep it next to the selects.
      Value srcs[] = {onFalse[k], onTrue[k]};
      ab.limitSGPRs(srcs, 0);
      onFalse[k] = srcs[0];
      onTrue[k] = srcs[1];
    }
  }
  Value zero = ab.constant(0);
  Value flag = ab.setFlag(CmpPredicate::ne, cond, zero);
  Type type = width == 1 ? ab.resultWordType(resultType) : ab.wordType();
  SmallVector<Value, 2> words;
  for (int k = 0; k < width; ++k)
    words.push_back(ab.selectWord(flag, onTrue[k], onFalse[k], type));
  return ab.finish(words, resultType);
}

Value lowerReadFirstLane(Value src, ArithBuilder &ab, Type resultType) {
  int64_t width = getRegSize(resultType);
  SmallVector<Value, 2> words;
  for (int k = 0; k < width; ++k) {
    Value w = ab.word(src, k, width);
    if (isVector(w.getType()))
      w = V_READFIRSTLANE_B32::create(
          ab.b, ab.loc,
          width == 1 ? ab.resultWordType(resultType) : ab.wordType(), w);
    words.push_back(w);
  }
  return ab.finish(words, resultType);
}

/// trunc, sext, zext of an immediate: the words as constants.
SmallVector<int64_t, 2> foldConversion(Operation *op, int64_t value,
                                       int64_t width) {
  int64_t lo = immHalf(value, 0);
  if (width == 1)
    return {lo};
  if (isa<ArithSExtOp>(op))
    return {lo, lo < 0 ? -1 : 0};
  return {lo, 0};
}

Value lowerConversion(Operation *op, ArithBuilder &ab, Type resultType) {
  Value src = op->getOperand(0);
  int64_t width = getRegSize(resultType);
  if (std::optional<int64_t> imm = getImmediateValue(src)) {
    SmallVector<int64_t, 2> values = foldConversion(op, *imm, width);
    if (width == 1)
      return ab.finish({ab.constant(values[0])}, resultType);
    SmallVector<Value, 2> words;
    Type single = ab.singleOf(*getRegClass(resultType));
    for (int64_t value : values)
      words.push_back(ab.finish({ab.constant(value)}, single));
    return ab.finish(words, resultType);
  }
  // The low word (trunc), or the whole value at equal width, in the same
  // register file: an extract, which the allocator turns into an alias.
  if (width == 1 || widthOf(src) == width) {
    if (src.getType() == resultType)
      return src;
    if (getRegClass(src.getType()) == getRegClass(resultType))
      return ExtractOp::create(ab.b, ab.loc, resultType, src, uint64_t(0));
    SmallVector<Value, 2> words;
    for (int k = 0; k < width; ++k)
      words.push_back(ab.word(src, k, widthOf(src)));
    return ab.finish(words, resultType);
  }
  // 32 -> 64 bits: {src, sign word or zero}.
  Value lo = ab.word(src, 0, 1);
  Value hi = isa<ArithSExtOp>(op) ? ab.signWord(lo, ab.wordType())
                                  : ab.inRegister(ab.constant(0));
  return ab.finish({lo, hi}, resultType);
}

Value lower(Operation *op) {
  Type resultType = op->getResult(0).getType();
  // readfirstlane produces SGPR words whatever it reads.
  Unit unit = isa<ArithReadFirstLaneOp>(op) ? Unit::SALU : unitOf(op);
  // An immediate-only conversion is materialized in the result's file.
  if (isa<ArithTruncOp, ArithSExtOp, ArithZExtOp>(op) &&
      getImmediateValue(op->getOperand(0)))
    unit = isVector(resultType) ? Unit::VALU : Unit::SALU;
  ArithBuilder ab(op, unit);
  if (isa<ArithAddOp, ArithMulOp, ArithOrOp, ArithAndOp>(op))
    return lowerBinary(op, ab, resultType);
  if (auto cmp = dyn_cast<ArithCmpOp>(op))
    return lowerCmp(cmp, ab, resultType);
  if (auto select = dyn_cast<ArithSelectOp>(op))
    return lowerSelect(select, ab, resultType);
  if (isa<ArithReadFirstLaneOp>(op))
    return lowerReadFirstLane(op->getOperand(0), ab, resultType);
  return lowerConversion(op, ab, resultType);
}

struct ArithLegalizationPass
    : public waveasm::impl::WaveASMArithLegalizationBase<
          ArithLegalizationPass> {
  void runOnOperation() override {
    ProgramOp program = getOperation();
    SmallVector<Operation *> ops;
    bool invalid = false;
    forEachOpPostOrder(program.getBody(), [&](Operation *op) {
      if (!isArith(op))
        return;
      ops.push_back(op);
      invalid |= failed(check(op));
    });
    if (invalid) {
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": @" << program.getSymName()
                              << ": left unchanged (see the errors)\n");
      return signalPassFailure();
    }
    if (ops.empty()) {
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": @" << program.getSymName()
                              << ": no waveasm.arith ops\n");
      return markAllAnalysesPreserved();
    }
    for (Operation *op : ops) {
      Value result = lower(op);
      op->getResult(0).replaceAllUsesWith(result);
      eraseOp(op);
    }
    LLVM_DEBUG(llvm::dbgs()
               << DEBUG_TYPE ": @" << program.getSymName() << ": legalized "
               << ops.size() << " waveasm.arith ops\n");
  }
};

} // namespace
