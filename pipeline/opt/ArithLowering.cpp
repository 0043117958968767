//===- ArithLowering.cpp - building blocks of arith legalization ----------===//

#include "pipeline/opt/ArithLowering.h"

#include "llvm/ADT/SmallVector.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::arith;

int64_t waveasm::arith::immHalf(int64_t value, int k) {
  uint64_t bits = static_cast<uint64_t>(value) >> (32 * k);
  return static_cast<int32_t>(static_cast<uint32_t>(bits));
}

ArithBuilder::ArithBuilder(Operation *op, Unit unit)
    : b(op), loc(op->getLoc()), ctx(op->getContext()), unit(unit) {}

Type ArithBuilder::wordType() const {
  return singleOf(unit == Unit::SALU ? RegClass::SGPR : RegClass::VGPR);
}

Type ArithBuilder::singleOf(RegClass cls) const {
  switch (cls) {
  case RegClass::VGPR:
    return VRegType::get(ctx, 1, 1);
  case RegClass::SGPR:
    return SRegType::get(ctx, 1, 1);
  case RegClass::AGPR:
    return ARegType::get(ctx, 1, 1);
  }
  llvm_unreachable("unknown register class");
}

Type ArithBuilder::sccType() const { return SCCType::get(ctx); }

Value ArithBuilder::constant(int64_t value) {
  Value &slot = constants[value];
  if (!slot)
    slot = ConstantOp::create(b, loc, ImmType::get(ctx, value),
                              static_cast<uint64_t>(value));
  return slot;
}

Value ArithBuilder::word(Value value, int k, int64_t width) {
  if (std::optional<int64_t> imm = getImmediateValue(value)) {
    // A 32-bit operand keeps its constant when the value has 32 bits.
    if (width == 1 && *imm >= INT32_MIN && *imm <= UINT32_MAX)
      return value;
    return constant(immHalf(*imm, k));
  }
  Type type = value.getType();
  RegClass cls = *getRegClass(type);
  Value w = value;
  if (getRegSize(type) > 1)
    w = ExtractOp::create(b, loc, singleOf(cls), value,
                          static_cast<uint64_t>(k));
  // VALU instructions do not read AGPRs.
  if (cls == RegClass::AGPR)
    w = V_ACCVGPR_READ_B32::create(b, loc, VRegType::get(ctx, 1, 1), w);
  return w;
}

Value ArithBuilder::inRegister(Value value) {
  std::optional<RegClass> cls = getRegClass(value.getType());
  RegClass want = unit == Unit::SALU ? RegClass::SGPR : RegClass::VGPR;
  if (cls == want)
    return value;
  return move(value, wordType());
}

Value ArithBuilder::move(Value value, Type type) {
  if (getRegClass(type) == RegClass::SGPR)
    return S_MOV_B32::create(b, loc, type, value);
  return V_MOV_B32::create(b, loc, type, value);
}

void ArithBuilder::limitSGPRs(MutableArrayRef<Value> srcs, unsigned budget) {
  SmallVector<Value, 2> kept;
  for (Value &src : srcs) {
    if (getRegClass(src.getType()) != RegClass::SGPR ||
        llvm::is_contained(kept, src))
      continue;
    if (kept.size() < budget) {
      kept.push_back(src);
      continue;
    }
    Value &copy = vgprCopies[src];
    if (!copy) {
      copy = V_MOV_B32::create(b, loc, VRegType::get(ctx, 1, 1), src);
      ++sgprCopies;
    }
    src = copy;
  }
}

bool ArithBuilder::sgprFirst(Value &lhs, Value &rhs, bool commutes) {
  bool lhsReg = getRegClass(lhs.getType()).has_value();
  bool rhsReg = getRegClass(rhs.getType()).has_value();
  if (lhsReg)
    return false;
  if (commutes && rhsReg) {
    std::swap(lhs, rhs);
    return true;
  }
  lhs = move(lhs, SRegType::get(ctx, 1, 1));
  return false;
}

//===----------------------------------------------------------------------===//
// Flags
//===----------------------------------------------------------------------===//

namespace {

/// `a PRED b` is `b swap(PRED) a`.
CmpPredicate swapped(CmpPredicate pred) {
  switch (pred) {
  case CmpPredicate::slt:
    return CmpPredicate::sgt;
  case CmpPredicate::sle:
    return CmpPredicate::sge;
  case CmpPredicate::sgt:
    return CmpPredicate::slt;
  case CmpPredicate::sge:
    return CmpPredicate::sle;
  case CmpPredicate::ult:
    return CmpPredicate::ugt;
  case CmpPredicate::ule:
    return CmpPredicate::uge;
  case CmpPredicate::ugt:
    return CmpPredicate::ult;
  case CmpPredicate::uge:
    return CmpPredicate::ule;
  default:
    return pred; // eq, ne
  }
}

Value scalarCompare(OpBuilder &b, Location loc, Type scc, CmpPredicate pred,
                    Value lhs, Value rhs) {
  switch (pred) {
  case CmpPredicate::eq:
    return S_CMP_EQ_U32::create(b, loc, scc, lhs, rhs);
  case CmpPredicate::ne:
    return S_CMP_NE_U32::create(b, loc, scc, lhs, rhs);
  case CmpPredicate::slt:
    return S_CMP_LT_I32::create(b, loc, scc, lhs, rhs);
  case CmpPredicate::sle:
    return S_CMP_LE_I32::create(b, loc, scc, lhs, rhs);
  case CmpPredicate::sgt:
    return S_CMP_GT_I32::create(b, loc, scc, lhs, rhs);
  case CmpPredicate::sge:
    return S_CMP_GE_I32::create(b, loc, scc, lhs, rhs);
  case CmpPredicate::ult:
    return S_CMP_LT_U32::create(b, loc, scc, lhs, rhs);
  case CmpPredicate::ule:
    return S_CMP_LE_U32::create(b, loc, scc, lhs, rhs);
  case CmpPredicate::ugt:
    return S_CMP_GT_U32::create(b, loc, scc, lhs, rhs);
  case CmpPredicate::uge:
    return S_CMP_GE_U32::create(b, loc, scc, lhs, rhs);
  }
  llvm_unreachable("unknown predicate");
}

void vectorCompare(OpBuilder &b, Location loc, CmpPredicate pred, Value lhs,
                   Value rhs) {
  switch (pred) {
  case CmpPredicate::eq:
    V_CMP_EQ_U32::create(b, loc, lhs, rhs);
    return;
  case CmpPredicate::ne:
    V_CMP_NE_U32::create(b, loc, lhs, rhs);
    return;
  case CmpPredicate::slt:
    V_CMP_LT_I32::create(b, loc, lhs, rhs);
    return;
  case CmpPredicate::sle:
    V_CMP_LE_I32::create(b, loc, lhs, rhs);
    return;
  case CmpPredicate::sgt:
    V_CMP_GT_I32::create(b, loc, lhs, rhs);
    return;
  case CmpPredicate::sge:
    V_CMP_GE_I32::create(b, loc, lhs, rhs);
    return;
  case CmpPredicate::ult:
    V_CMP_LT_U32::create(b, loc, lhs, rhs);
    return;
  case CmpPredicate::ule:
    V_CMP_LE_U32::create(b, loc, lhs, rhs);
    return;
  case CmpPredicate::ugt:
    V_CMP_GT_U32::create(b, loc, lhs, rhs);
    return;
  case CmpPredicate::uge:
    V_CMP_GE_U32::create(b, loc, lhs, rhs);
    return;
  }
  llvm_unreachable("unknown predicate");
}

} // namespace

Value ArithBuilder::setFlag(CmpPredicate pred, Value lhs, Value rhs) {
  if (unit == Unit::SALU) {
    if (sgprFirst(lhs, rhs, /*commutes=*/true))
      pred = swapped(pred);
    return scalarCompare(b, loc, sccType(), pred, lhs, rhs);
  }
  Value srcs[] = {lhs, rhs};
  limitSGPRs(srcs, 1);
  vectorCompare(b, loc, pred, srcs[0], srcs[1]);
  // v_cmp writes VCC, which has no SSA value; v_cndmask_b32's `vcc_dep`
  // operand names the compare's first source so that the select is ordered
  // after it.
  return srcs[0];
}

Value ArithBuilder::selectWord(Value flag, Value onTrue, Value onFalse,
                               Type type) {
  if (unit == Unit::SALU)
    return S_CSELECT_B32::create(b, loc, type, flag, onTrue, onFalse);
  // v_cndmask_b32 dst, src0, src1 = VCC ? src1 : src0; the implicit VCC read
  // takes the constant bus.
  Value srcs[] = {onFalse, onTrue};
  limitSGPRs(srcs, 0);
  return V_CNDMASK_B32::create(b, loc, type, srcs[0], srcs[1], flag);
}

Value ArithBuilder::compare(CmpPredicate pred, Value lhs, Value rhs,
                            Type type) {
  Value flag = setFlag(pred, lhs, rhs);
  // Arguments are evaluated in no fixed order: create the constants first.
  Value one = constant(1);
  Value zero = constant(0);
  return selectWord(flag, one, zero, type);
}

//===----------------------------------------------------------------------===//
// Word operations
//===----------------------------------------------------------------------===//

namespace {

/// One SALU op with (dst, scc) results or one VALU op, both binary.
template <typename SALUOp, typename VALUOp, bool SALUHasSCC>
Value binary(ArithBuilder &ab, Value a, Value c, Type type, bool commutes) {
  if (ab.unit == Unit::SALU) {
    ab.sgprFirst(a, c, commutes);
    if constexpr (SALUHasSCC)
      return SALUOp::create(ab.b, ab.loc, type, ab.sccType(), a, c)
          ->getResult(0);
    else
      return SALUOp::create(ab.b, ab.loc, type, a, c);
  }
  Value srcs[] = {a, c};
  ab.limitSGPRs(srcs, 1);
  return VALUOp::create(ab.b, ab.loc, type, srcs[0], srcs[1]);
}

} // namespace

Value ArithBuilder::add(Value a, Value c, Type type) {
  return binary<S_ADD_U32, V_ADD_U32, true>(*this, a, c, type, true);
}
Value ArithBuilder::mulLo(Value a, Value c, Type type) {
  return binary<S_MUL_I32, V_MUL_LO_U32, false>(*this, a, c, type, true);
}
Value ArithBuilder::mulHi(Value a, Value c, Type type) {
  return binary<S_MUL_HI_U32, V_MUL_HI_U32, false>(*this, a, c, type, true);
}
Value ArithBuilder::bitOr(Value a, Value c, Type type) {
  return binary<S_OR_B32, V_OR_B32, true>(*this, a, c, type, true);
}
Value ArithBuilder::bitAnd(Value a, Value c, Type type) {
  return binary<S_AND_B32, V_AND_B32, true>(*this, a, c, type, true);
}
Value ArithBuilder::bitXor(Value a, Value c, Type type) {
  return binary<S_XOR_B32, V_XOR_B32, true>(*this, a, c, type, true);
}

Value ArithBuilder::signWord(Value a, Type type) {
  Value source = unit == Unit::SALU ? inRegister(a) : a;
  Value amount = constant(31);
  if (unit == Unit::SALU)
    return S_ASHR_I32::create(b, loc, type, sccType(), source, amount)
        ->getResult(0);
  // v_ashrrev_i32 takes the shift amount first.
  return V_ASHRREV_I32::create(b, loc, type, amount, source);
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

Type ArithBuilder::resultWordType(Type resultType) const {
  RegClass cls = unit == Unit::SALU ? RegClass::SGPR : RegClass::VGPR;
  if (getRegSize(resultType) == 1 && getRegClass(resultType) == cls)
    return resultType;
  return wordType();
}

Value ArithBuilder::finish(ArrayRef<Value> words, Type resultType) {
  if (words.size() == 1)
    return words[0].getType() == resultType ? words[0]
                                            : move(words[0], resultType);
  RegClass want = *getRegClass(resultType);
  SmallVector<Value, 2> parts(words.begin(), words.end());
  for (Value &part : parts)
    if (getRegClass(part.getType()) != want)
      part = move(part, singleOf(want));
  return PackOp::create(b, loc, resultType, parts);
}
