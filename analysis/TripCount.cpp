//===- TripCount.cpp - iterations of a waveasm.loop -----------------------===//

#include "analysis/TripCount.h"
#include "analysis/ExitCompare.h"
#include "ir/Immediates.h"

using namespace mlir;
using namespace waveasm;

namespace {

enum class Pred { EQ, NE, LT, LE, GT, GE };

struct Compare {
  Pred pred;
  bool isSigned;
};

std::optional<Compare> getCompare(Operation *op) {
  if (!op)
    return std::nullopt;
  bool isSigned = isa<S_CMP_EQ_I32, S_CMP_NE_I32, S_CMP_LT_I32, S_CMP_LE_I32,
                      S_CMP_GT_I32, S_CMP_GE_I32>(op);
  if (isa<S_CMP_EQ_U32, S_CMP_EQ_I32>(op))
    return Compare{Pred::EQ, isSigned};
  if (isa<S_CMP_NE_U32, S_CMP_NE_I32>(op))
    return Compare{Pred::NE, isSigned};
  if (isa<S_CMP_LT_U32, S_CMP_LT_I32>(op))
    return Compare{Pred::LT, isSigned};
  if (isa<S_CMP_LE_U32, S_CMP_LE_I32>(op))
    return Compare{Pred::LE, isSigned};
  if (isa<S_CMP_GT_U32, S_CMP_GT_I32>(op))
    return Compare{Pred::GT, isSigned};
  if (isa<S_CMP_GE_U32, S_CMP_GE_I32>(op))
    return Compare{Pred::GE, isSigned};
  return std::nullopt;
}

bool evaluate(Compare cmp, int64_t lhs, int64_t rhs) {
  // 32-bit registers: compare the low words with the op's signedness.
  int64_t a = cmp.isSigned ? int64_t(int32_t(lhs)) : int64_t(uint32_t(lhs));
  int64_t b = cmp.isSigned ? int64_t(int32_t(rhs)) : int64_t(uint32_t(rhs));
  switch (cmp.pred) {
  case Pred::EQ:
    return a == b;
  case Pred::NE:
    return a != b;
  case Pred::LT:
    return a < b;
  case Pred::LE:
    return a <= b;
  case Pred::GT:
    return a > b;
  case Pred::GE:
    return a >= b;
  }
  return false;
}

/// Longest loop simulated when counting; longer loops are "unknown".
constexpr int64_t kMaxSimulatedTrips = 1 << 20;
/// Longest chain of adds and copies followed from one value (the loop
/// control is a few ops; a bound keeps a pathological chain cheap).
constexpr unsigned kMaxChain = 32;

/// A scalar value as `block argument + offset` (arg >= 0: the argument's
/// number in the loop body) or a constant (arg < 0), modulo 2^32 like the
/// 32-bit SALU ops that compute it.
struct Affine {
  int arg = -1;
  uint32_t offset = 0;
};

std::optional<Affine> getAffine(Value value, Block &body, unsigned depth = 0) {
  if (depth > kMaxChain)
    return std::nullopt;
  if (std::optional<int64_t> imm = getImmediateValue(value))
    return Affine{-1, uint32_t(*imm)};
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != &body)
      return std::nullopt;
    return Affine{int(arg.getArgNumber()), 0};
  }
  auto result = cast<OpResult>(value);
  Operation *def = result.getOwner();
  if (auto mov = dyn_cast<S_MOV_B32>(def))
    return getAffine(mov.getSrc(), body, depth + 1);
  bool add = isa<S_ADD_U32, S_ADD_I32>(def);
  bool sub = isa<S_SUB_U32, S_SUB_I32>(def);
  // Result 0 is the sum; result 1 the carry (SCC), not affine.
  if (!(add || sub) || result.getResultNumber() != 0 ||
      def->getNumOperands() != 2)
    return std::nullopt;
  std::optional<Affine> a = getAffine(def->getOperand(0), body, depth + 1);
  if (!a)
    return std::nullopt;
  std::optional<Affine> b = getAffine(def->getOperand(1), body, depth + 1);
  // One side at most varies: arg + c, c + arg, arg - c; not c - arg or
  // arg + arg (coefficients other than 1).
  if (!b || (b->arg >= 0 && (sub || a->arg >= 0)))
    return std::nullopt;
  if (sub)
    return Affine{a->arg, a->offset - b->offset};
  return Affine{std::max(a->arg, b->arg), a->offset + b->offset};
}

/// An induction variable: block argument k is init + j * step in iteration
/// j (from 0).
struct Induction {
  uint32_t init = 0, step = 0;
};

/// Block argument `k` as an induction variable: its yield is itself plus a
/// constant and its init is a constant.
std::optional<Induction> getInduction(LoopOp loop, ConditionOp cond,
                                      unsigned k) {
  Block &body = loop.getBodyBlock();
  if (k >= cond.getIterArgs().size() || k >= loop.getInitArgs().size())
    return std::nullopt;
  std::optional<Affine> next = getAffine(cond.getIterArgs()[k], body);
  std::optional<Affine> init = getAffine(loop.getInitArgs()[k], body);
  if (!next || next->arg != int(k) || !init || init->arg >= 0)
    return std::nullopt;
  return Induction{init->offset, next->offset};
}

std::optional<ExitOperand> getOperand(LoopOp loop, ConditionOp cond, Value v) {
  std::optional<Affine> value = getAffine(v, loop.getBodyBlock());
  if (!value)
    return std::nullopt;
  ExitOperand operand;
  operand.arg = value->arg;
  operand.offset = value->offset;
  if (value->arg < 0)
    return operand;
  std::optional<Induction> induction = getInduction(loop, cond, value->arg);
  if (!induction)
    return std::nullopt;
  operand.init = induction->init;
  operand.step = induction->step;
  return operand;
}

std::optional<int64_t> inferTripCount(LoopOp loop) {
  std::optional<ExitCompare> exit = getExitCompare(loop);
  if (!exit)
    return std::nullopt;
  Compare cmp = *getCompare(exit->compare);
  // Iteration j runs, then compares lhs(j) with rhs(j): the body runs again
  // while that holds.
  int64_t limit =
      exit->lhs.varies() || exit->rhs.varies() ? kMaxSimulatedTrips : 1;
  for (int64_t j = 0; j < limit; ++j)
    if (!evaluate(cmp, exit->lhs.at(j), exit->rhs.at(j)))
      return j + 1;
  return std::nullopt;
}

} // namespace

std::optional<ExitCompare> waveasm::getExitCompare(LoopOp loop) {
  ConditionOp cond = loop.getConditionOp();
  if (!cond)
    return std::nullopt;
  Operation *cmpOp = cond.getCondition().getDefiningOp();
  if (!getCompare(cmpOp))
    return std::nullopt;
  std::optional<ExitOperand> lhs = getOperand(loop, cond, cmpOp->getOperand(0));
  std::optional<ExitOperand> rhs = getOperand(loop, cond, cmpOp->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  return ExitCompare{cmpOp, *lhs, *rhs};
}

TripCount waveasm::getTripCount(LoopOp loop) {
  if (auto attr = loop->getAttrOfType<IntegerAttr>(kTripCountAttrName))
    return {std::max<int64_t>(1, attr.getInt()), TripCountSource::Attribute};
  if (std::optional<int64_t> count = inferTripCount(loop))
    return {*count, TripCountSource::Inferred};
  return {1, TripCountSource::Default};
}

llvm::StringRef waveasm::stringifyTripCountSource(TripCountSource source) {
  switch (source) {
  case TripCountSource::Attribute:
    return "attribute";
  case TripCountSource::Inferred:
    return "inferred";
  case TripCountSource::Default:
    return "default";
  }
  return "default";
}
