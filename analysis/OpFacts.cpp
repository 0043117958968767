//===- OpFacts.cpp - per-op timing facts, computed once -------------------===//

#include "analysis/OpFacts.h"

#include "analysis/IssueRules.h"

using namespace mlir;
using namespace waveasm;

std::vector<OpFacts> waveasm::computeOpFacts(const ProgramIndex &index,
                                             const TargetModel &target) {
  std::vector<OpFacts> facts(index.getNumOps());
  for (unsigned idx = 0, e = index.getNumOps(); idx < e; ++idx) {
    Operation *op = index.getOp(idx);
    OpFacts &f = facts[idx];
    if (isa<LoopOp>(op))
      f.shape = OpShape::Loop;
    else if (isa<IfOp>(op))
      f.shape = OpShape::If;
    else if (isa<ConditionOp>(op))
      f.shape = OpShape::Condition;
    InstFacts info = lookupInstFacts(op);
    f.issued = takesIssueSlot(op, info);
    f.issueCycles = static_cast<int32_t>(getIssueCycles(op, f.issued));
    f.numRead = getNumReadOperands(op);
    WaitThresholds wait = getWaitThresholds(op);
    if (wait.vmcnt)
      f.vmWait = static_cast<int32_t>(*wait.vmcnt);
    if (wait.lgkmcnt)
      f.lgkmWait = static_cast<int32_t>(*wait.lgkmcnt);
    if (!info.hasInfo)
      continue;
    f.unit = info.unit;
    f.counter = info.waitCounter;
    // TargetModel::getOpLatency and getUnitOccupancy, from the cached facts:
    // only an MFMA's latency depends on more than its latency class.
    if (f.unit == ExecUnit::MFMA) {
      f.tied = info.tiedOperand;
      f.latency = static_cast<int32_t>(target.getOpLatency(op));
      f.occupancy = static_cast<int32_t>(target.getUnitOccupancy(op));
      f.chainLatency = static_cast<int32_t>(target.getMFMAChainLatency(op));
      f.coIssueDelay = static_cast<int32_t>(target.getValuCoIssueDelay(op));
    } else {
      f.latency = static_cast<int32_t>(target.getLatency(info.latencyClass));
      f.occupancy = 1;
    }
  }
  return facts;
}
