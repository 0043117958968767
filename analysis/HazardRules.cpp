//===- HazardRules.cpp - which producer/consumer pairs need wait states ---===//

#include "analysis/HazardRules.h"

#include "ir/Dialect.h"

using namespace mlir;
using namespace waveasm;

OperandHazardReaders::OperandHazardReaders(Operation *op,
                                           const InstFacts &facts) {
  base.unit = facts.unit;
  base.trans = facts.latencyClass == LatencyClass::Trans;
  readsLane = isa<V_READFIRSTLANE_B32, V_READLANE_B32>(op);
  selectsLane = isa<V_READLANE_B32, V_WRITELANE_B32>(op);
  accvgprWrite = isWrittenOperand(op, 1);
  if (facts.unit == ExecUnit::MFMA)
    tiedOperand = facts.tiedOperand;
}

HazardReader waveasm::getHazardReader(Operation *op, const InstFacts &facts,
                                      unsigned index) {
  return OperandHazardReaders(op, facts).get(index);
}

bool waveasm::isWrittenOperand(Operation *op, unsigned index) {
  return isa<V_ACCVGPR_WRITE_B32>(op) && index == 1;
}

std::optional<HazardSource>
waveasm::getResultHazardSource(const InstFacts &facts,
                               std::optional<RegClass> cls) {
  if (facts.unit == ExecUnit::MFMA)
    return HazardSource::MFMA;
  if (facts.unit == ExecUnit::VALU && cls == RegClass::SGPR)
    return HazardSource::ValuSGPR;
  if (facts.unit == ExecUnit::VALU && cls)
    return HazardSource::ValuVGPR;
  return std::nullopt;
}

bool waveasm::isTransResult(const InstFacts &facts,
                            std::optional<RegClass> cls) {
  return facts.unit == ExecUnit::VALU && cls && *cls != RegClass::SGPR &&
         facts.latencyClass == LatencyClass::Trans;
}

bool waveasm::readsLargeStoreData(Operation *op, const InstFacts &facts) {
  return facts.latencyClass == LatencyClass::VMEMStore &&
         facts.dataDwords >= 3 && op->getNumOperands() > 0;
}

int64_t waveasm::getHazardClockWidth(Operation *op, const InstFacts &facts) {
  if (auto nop = dyn_cast<S_NOP>(op))
    return static_cast<int64_t>(nop.getCount()) + 1;
  // s_sched_barrier only steers a compiler's scheduler: count it as nothing.
  if (isa<CommentOp, LabelOp, RawOp, S_SCHED_BARRIER, LoopOp, IfOp, ConditionOp,
          YieldOp, ProgramOp>(op))
    return 0;
  if (!facts.hasInfo || facts.nonEmitting)
    return 0;
  return 1;
}

int64_t waveasm::getReadHazardWaitStates(const TargetModel &model,
                                         HazardSource source,
                                         int64_t mfmaWaitStates,
                                         const HazardReader &reader,
                                         bool chain) {
  auto states = [&](HazardKind kind) {
    return model.getHazardWaitStates(kind);
  };
  int64_t required = 0;
  switch (source) {
  case HazardSource::Trans:
    if (reader.isVector() && !reader.trans)
      required = states(HazardKind::TransToValu);
    break;
  case HazardSource::ValuVGPR:
    if (reader.readLaneSource)
      required = states(HazardKind::ValuToReadFirstLane);
    break;
  case HazardSource::ValuSGPR:
    if (reader.unit == ExecUnit::VMEM)
      required = states(HazardKind::ValuSgprToVmem);
    if (reader.laneSelect)
      required = std::max(required, states(HazardKind::ValuSgprToLaneSelect));
    if (reader.isVector())
      required = std::max(required, states(HazardKind::ValuSgprToValuConst));
    break;
  case HazardSource::MFMA:
    if (reader.mfmaAcc && chain)
      break; // accumulator chain: the hardware forwards SrcC
    if (reader.isVector() || reader.unit == ExecUnit::VMEM ||
        reader.unit == ExecUnit::LDS)
      required = mfmaWaitStates;
    break;
  case HazardSource::SaluM0:
  case HazardSource::StoreData:
    break;
  }
  return required;
}

int64_t waveasm::getImplicitReadHazardWaitStates(const TargetModel &model,
                                                 HazardSource source,
                                                 ExecUnit unit) {
  int64_t required = 0;
  if (source == HazardSource::ValuSGPR &&
      (unit == ExecUnit::VALU || unit == ExecUnit::MFMA))
    required = model.getHazardWaitStates(HazardKind::ValuSgprToValuConst);
  if (source == HazardSource::SaluM0)
    required = model.getHazardWaitStates(HazardKind::SaluM0ToLdsDirect);
  return required;
}

int64_t waveasm::getWriteHazardWaitStates(const TargetModel &model,
                                          HazardSource source,
                                          int64_t mfmaWaitStates, bool chain) {
  if (source == HazardSource::StoreData)
    return model.getHazardWaitStates(HazardKind::LargeStoreDataOverwrite);
  // Overwriting an MFMA result in flight (WAW); the next MFMA of an
  // accumulator chain writes the same registers by design.
  if (source == HazardSource::MFMA && !chain)
    return mfmaWaitStates;
  return 0;
}
