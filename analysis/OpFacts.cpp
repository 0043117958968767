//===- OpFacts.cpp - per-op timing facts, computed once -------------------===//

#include "analysis/OpFacts.h"

#include "analysis/IssueRules.h"
#include "ir/RegisterTypes.h"

#include "llvm/ADT/SmallVector.h"

using namespace mlir;
using namespace waveasm;

namespace {
/// An MFMA's four TargetModel figures, remembered per op name and A/B
/// operand sizes: a kernel repeats a few MFMA forms dozens of times, and
/// each figure looks up the op's MFMA table row again. Of the operands the
/// figures read only the A/B register sizes (getValuCoIssueDelay); what else
/// they read (the target, the table) is the same for every op of a program.
/// The scaled f8f6f4 forms also read their format attributes
/// (TargetModel::getMFMAPasses): they are not remembered.
class MFMAFactsCache {
public:
  explicit MFMAFactsCache(const TargetModel &target) : target(target) {}

  void fill(Operation *op, OpFacts &f) {
    if (isa<V_MFMA_SCALE_F32_16X16X128_F8F6F4,
            V_MFMA_SCALE_F32_32X32X64_F8F6F4>(op))
      return compute(op, f);
    Key key{op->getName(), operandSize(op, 0), operandSize(op, 1)};
    for (const auto &[known, figures] : entries)
      if (known == key)
        return copy(figures, f);
    compute(op, f);
    entries.push_back({key, f});
  }

private:
  struct Key {
    OperationName name;
    int64_t a, b;
    bool operator==(const Key &other) const {
      return name == other.name && a == other.a && b == other.b;
    }
  };
  static int64_t operandSize(Operation *op, unsigned i) {
    return i < op->getNumOperands() ? getRegSize(op->getOperand(i).getType())
                                    : -1;
  }
  void compute(Operation *op, OpFacts &f) const {
    f.latency = static_cast<int32_t>(target.getOpLatency(op));
    f.occupancy = static_cast<int32_t>(target.getUnitOccupancy(op));
    f.chainLatency = static_cast<int32_t>(target.getMFMAChainLatency(op));
    f.coIssueDelay = static_cast<int32_t>(target.getValuCoIssueDelay(op));
  }
  static void copy(const OpFacts &from, OpFacts &to) {
    to.latency = from.latency;
    to.occupancy = from.occupancy;
    to.chainLatency = from.chainLatency;
    to.coIssueDelay = from.coIssueDelay;
  }

  const TargetModel &target;
  llvm::SmallVector<std::pair<Key, OpFacts>, 4> entries;
};
} // namespace

std::vector<OpFacts> waveasm::computeOpFacts(const ProgramIndex &index,
                                             const TargetModel &target) {
  std::vector<OpFacts> facts(index.getNumOps());
  MFMAFactsCache mfmaFacts(target);
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
      mfmaFacts.fill(op, f);
    } else {
      f.latency = static_cast<int32_t>(target.getLatency(info.latencyClass));
      f.occupancy = 1;
    }
  }
  return facts;
}
