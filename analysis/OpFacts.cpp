//===- OpFacts.cpp - per-op timing facts, computed once -------------------===//

#include "analysis/OpFacts.h"

#include "analysis/IssueRules.h"
#include "ir/OpClassTable.h"
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

namespace {
/// What computeOpFacts reads of an op's class: its instruction facts and
/// the IssueRules.h answers that the class alone gives. Per op, only an
/// s_nop's count, a wait's thresholds, a condition's or if's operand count
/// and an MFMA's figures remain to read.
struct ClassFacts {
  InstFacts info;
  OpShape shape = OpShape::Plain;
  bool issued = false;         // takesIssueSlot
  bool nop = false;            // S_NOP: its count + 1 issue cycles
  bool readsCondition = false; // getNumReadOperands: at most one operand
  bool waits = false;          // getWaitThresholds may give a threshold
};

ClassFacts computeClassFacts(Operation *op) {
  ClassFacts c;
  c.info = lookupInstFacts(op);
  if (isa<LoopOp>(op))
    c.shape = OpShape::Loop;
  else if (isa<IfOp>(op))
    c.shape = OpShape::If;
  else if (isa<ConditionOp>(op))
    c.shape = OpShape::Condition;
  c.issued = takesIssueSlot(op, c.info);
  c.nop = isa<S_NOP>(op);
  c.readsCondition = isa<ConditionOp, IfOp>(op);
  c.waits = isa<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT, S_ENDPGM>(op);
  return c;
}

/// computeClassFacts per op class and thread (OpClassTable.h); an
/// unregistered op (no TypeID of its own) is computed each time.
ClassFacts lookupClassFacts(Operation *op) {
  static thread_local OpClassTable<ClassFacts, 256> table;
  if (!op->getName().isRegistered())
    return computeClassFacts(op);
  return table.get(op, computeClassFacts);
}
} // namespace

std::vector<OpFacts> waveasm::computeOpFacts(const ProgramIndex &index,
                                             const TargetModel &target) {
  std::vector<OpFacts> facts(index.getNumOps());
  MFMAFactsCache mfmaFacts(target);
  for (unsigned idx = 0, e = index.getNumOps(); idx < e; ++idx) {
    Operation *op = index.getOp(idx);
    OpFacts &f = facts[idx];
    ClassFacts c = lookupClassFacts(op);
    f.shape = c.shape;
    f.issued = c.issued;
    f.issueCycles = c.nop ? static_cast<int32_t>(getIssueCycles(op, c.issued))
                          : int32_t(c.issued);
    f.numRead =
        c.readsCondition ? getNumReadOperands(op) : op->getNumOperands();
    if (c.waits) {
      WaitThresholds wait = getWaitThresholds(op);
      if (wait.vmcnt)
        f.vmWait = static_cast<int32_t>(*wait.vmcnt);
      if (wait.lgkmcnt)
        f.lgkmWait = static_cast<int32_t>(*wait.lgkmcnt);
    }
    const InstFacts &info = c.info;
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
