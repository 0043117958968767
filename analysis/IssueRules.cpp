//===- IssueRules.cpp - what an op costs the issue stage ------------------===//

#include "analysis/IssueRules.h"

using namespace mlir;
using namespace waveasm;

bool waveasm::takesIssueSlot(Operation *op) {
  return takesIssueSlot(op, getInstFacts(op));
}

bool waveasm::takesIssueSlot(Operation *op, const InstFacts &facts) {
  return facts.hasInfo && !isa<LoopOp>(op) && !facts.nonEmitting &&
         facts.unit != ExecUnit::None;
}

int64_t waveasm::getIssueCycles(Operation *op) {
  return getIssueCycles(op, takesIssueSlot(op));
}

int64_t waveasm::getIssueCycles(Operation *op, bool takesSlot) {
  if (auto nop = dyn_cast<S_NOP>(op))
    return int64_t(nop.getCount()) + 1;
  return takesSlot ? 1 : 0;
}

unsigned waveasm::getNumReadOperands(Operation *op) {
  if (isa<ConditionOp, IfOp>(op))
    return std::min(1u, op->getNumOperands());
  return op->getNumOperands();
}

WaitThresholds waveasm::getWaitThresholds(Operation *op) {
  if (auto wait = dyn_cast<S_WAITCNT>(op)) {
    WaitThresholds t{wait.getVmcnt(), wait.getLgkmcnt()};
    if (!t.vmcnt && !t.lgkmcnt && !wait.getExpcnt())
      t = {0u, 0u};
    return t;
  }
  if (auto wait = dyn_cast<S_WAITCNT_VMCNT>(op))
    return {wait.getCount(), std::nullopt};
  if (auto wait = dyn_cast<S_WAITCNT_LGKMCNT>(op))
    return {std::nullopt, wait.getCount()};
  if (isa<S_ENDPGM>(op))
    return {0u, 0u};
  return {};
}
