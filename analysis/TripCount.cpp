//===- TripCount.cpp - iterations of a waveasm.loop -----------------------===//

#include "analysis/TripCount.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// Longest loop simulated when counting; longer loops are "unknown".
constexpr int64_t kMaxSimulatedTrips = 1 << 20;

std::optional<int64_t> getConstant(Value value) {
  if (auto imm = dyn_cast<ImmType>(value.getType()))
    return imm.getValue();
  Operation *def = value.getDefiningOp();
  if (auto constant = dyn_cast_or_null<ConstantOp>(def))
    return constant.getValue();
  if (auto mov = dyn_cast_or_null<S_MOV_B32>(def))
    return getConstant(mov.getSrc());
  return std::nullopt;
}

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

/// If `value` is `arg + c` / `arg - c`, the signed step.
std::optional<int64_t> getStep(Value value, Value arg) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumOperands() != 2 || def->getOperand(0) != arg)
    return std::nullopt;
  std::optional<int64_t> c = getConstant(def->getOperand(1));
  if (!c)
    return std::nullopt;
  if (isa<S_ADD_U32, S_ADD_I32>(def))
    return *c;
  if (isa<S_SUB_U32, S_SUB_I32>(def))
    return -*c;
  return std::nullopt;
}

std::optional<int64_t> inferTripCount(LoopOp loop) {
  ConditionOp cond = loop.getConditionOp();
  if (!cond)
    return std::nullopt;
  Operation *cmpOp = cond.getCondition().getDefiningOp();
  std::optional<Compare> cmp = getCompare(cmpOp);
  if (!cmp)
    return std::nullopt;
  Value lhs = cmpOp->getOperand(0);
  std::optional<int64_t> bound = getConstant(cmpOp->getOperand(1));
  if (!bound)
    return std::nullopt;

  Block &body = loop.getBodyBlock();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    if (i >= cond.getIterArgs().size() || i >= loop.getInitArgs().size())
      break;
    Value next = cond.getIterArgs()[i];
    std::optional<int64_t> step = getStep(next, arg);
    std::optional<int64_t> init = getConstant(loop.getInitArgs()[i]);
    if (!step || !init || *step == 0)
      continue;
    // Iteration j (from 0) compares init + (j + offset) * step.
    int64_t offset;
    if (lhs == arg)
      offset = 0;
    else if (lhs == next)
      offset = 1;
    else
      continue;
    for (int64_t j = 0; j < kMaxSimulatedTrips; ++j)
      if (!evaluate(*cmp, *init + (j + offset) * *step, *bound))
        return j + 1;
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace

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
