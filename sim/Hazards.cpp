//===- Hazards.cpp - stale values of reads too soon after their producer --===//
//
// Timing mode on allocated registers: every write by a hazard producer
// (analysis/HazardRules.h: MFMA, VALU, transcendental VALU) leaves a record
// on its registers with the wave's hazard clock and the contents they had
// before. A read sooner than the rules allow sees those contents, as the
// hardware without the s_nop would, so a nop the hazard pass should have
// put there changes the result. The clock counts wait states exactly as the
// pass does (getHazardClockWidth), so the pass's output never reads stale.
//
//===----------------------------------------------------------------------===//

#include "sim/Machine.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;

namespace {

/// Records older than this can never matter (the largest MFMA read wait is
/// 20; HazardMitigation.cpp's window).
constexpr int64_t kWindow = 32;

/// Keeps the first few stale reads for the report.
constexpr size_t kMaxStaleReads = 8;

llvm::StringRef sourceName(HazardSource source) {
  switch (source) {
  case HazardSource::Trans:
    return "transcendental";
  case HazardSource::ValuVGPR:
  case HazardSource::ValuSGPR:
    return "VALU";
  case HazardSource::SaluM0:
    return "SALU";
  case HazardSource::MFMA:
    return "MFMA";
  case HazardSource::StoreData:
    return "store";
  }
  return "";
}

std::vector<HazardSlot> &slotsOf(Wave &wave, RegClass cls) {
  std::vector<HazardSlot> &slots = wave.hazards[static_cast<unsigned>(cls)];
  if (slots.empty())
    slots.resize(cls == RegClass::VGPR   ? wave.vgprSet.size()
                 : cls == RegClass::AGPR ? wave.agprSet.size()
                                         : wave.sgprSet.size());
  return slots;
}

/// How the current op reads `value`: as the operand it is, or, for the
/// copies the emitter makes for loop and if values (a v_mov or s_mov), as a
/// VALU or SALU read; pack/extract/insert emit nothing and read nothing.
std::optional<HazardReader> readerOf(const WaveExec &exec, Value value,
                                     RegClass cls) {
  Operation *op = exec.op;
  if (isa<LoopOp, ConditionOp, IfOp, YieldOp>(op)) {
    HazardReader copy;
    copy.unit = cls == RegClass::SGPR ? ExecUnit::SALU : ExecUnit::VALU;
    return copy;
  }
  InstFacts facts = exec.facts();
  if (!facts.hasInfo || facts.nonEmitting)
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands())
    if (operand.get() == value) {
      unsigned index = operand.getOperandNumber();
      if (isWrittenOperand(op, index))
        return std::nullopt;
      return getHazardReader(op, facts, index);
    }
  return std::nullopt;
}

/// The MFMA `op` reading or writing registers [first, first + size)
/// continues the accumulator chain of `record`.
bool isChain(const HazardRecord &record, Operation *op, int64_t first,
             int64_t size) {
  return record.source == HazardSource::MFMA &&
         record.producer->getName() == op->getName() && record.first == first &&
         record.size == size;
}

} // namespace

void WaveExec::applyReadHazards(Value value, const RegTypeInfo &info,
                                RegValue &v) {
  // Virtual IR has no nops yet (the pipeline puts them), even where it
  // names registers: only allocated IR is held to the rules.
  if (!wg.options.timing || !wg.model || !wg.allocated || !op)
    return;
  std::vector<HazardSlot> &slots = slotsOf(wave, *info.cls);
  int64_t first = *info.physicalIndex;
  std::optional<HazardReader> reader;
  bool readerKnown = false;
  for (int64_t d = 0; d < info.size; ++d) {
    HazardSlot &slot = slots[first + d];
    for (const HazardRecord &record : slot.records) {
      int64_t have = wave.hazardClock - record.clock - 1;
      if (have >= kWindow)
        continue;
      // How the op reads the value, once, and only when a record is
      // recent enough to matter.
      if (!readerKnown) {
        reader = readerOf(*this, value, *info.cls);
        readerKnown = true;
      }
      if (!reader)
        return;
      bool chain = reader->mfmaAcc && isChain(record, op, first, info.size);
      int64_t required = getReadHazardWaitStates(
          *wg.model, record.source, record.mfmaWaitStates, *reader, chain);
      if (have >= required)
        continue;
      // Too soon: the read sees what the register held before.
      if (v.vector)
        std::copy(slot.stale.begin(), slot.stale.end(),
                  v.words.begin() + d * v.lanes);
      else
        v.words[d] = slot.stale.front();
      std::lock_guard<std::mutex> lock(wg.errorMutex);
      if (wg.staleReads.size() < kMaxStaleReads)
        wg.staleReads.push_back(llvm::formatv(
            "{0}: reads {1}{2} {3} wait states after the {4} result of {5} "
            "(needs {6}; an s_nop is missing): the stale value",
            describeOp(op), getRegPrefix(*info.cls), first + d,
            std::max<int64_t>(have, 0), sourceName(record.source),
            describeOp(record.producer), required));
      break;
    }
  }
}

bool WaveExec::noteWrite(Value value, const RegTypeInfo &info) {
  if (!wg.options.timing || !wg.model || !wg.allocated || !op)
    return true;
  std::vector<HazardSlot> &slots = slotsOf(wave, *info.cls);
  int64_t first = *info.physicalIndex;
  bool isResult = llvm::is_contained(op->getResults(), value);
  InstFacts facts = this->facts();
  std::optional<HazardSource> source;
  bool trans = false;
  int64_t mfmaWaitStates = 0;
  if (isa<LoopOp, ConditionOp, IfOp, YieldOp>(op)) {
    // The emitter's copy: a v_mov into vector registers.
    if (*info.cls != RegClass::SGPR)
      source = HazardSource::ValuVGPR;
  } else if (isResult ||
             (op->getNumOperands() > 1 && op->getOperand(1) == value &&
              isWrittenOperand(op, 1))) {
    source = getResultHazardSource(facts, info.cls);
    trans = isTransResult(facts, info.cls);
    if (source == HazardSource::MFMA)
      mfmaWaitStates = decoded && decoded->op == op
                           ? decoded->mfmaReadWaitStates
                           : wg.model->getMFMAReadWaitStates(op);
  }
  bool vector = *info.cls != RegClass::SGPR;
  const std::vector<uint32_t> &file =
      *(*info.cls == RegClass::VGPR   ? &wave.vgpr
        : *info.cls == RegClass::AGPR ? &wave.agpr
                                      : &wave.sgpr);
  for (int64_t d = 0; d < info.size; ++d) {
    HazardSlot &slot = slots[first + d];
    for (const HazardRecord &record : slot.records) {
      int64_t have = wave.hazardClock - record.clock - 1;
      if (have >= kWindow)
        continue;
      bool chain = isResult && isChain(record, op, first, info.size);
      int64_t required = getWriteHazardWaitStates(*wg.model, record.source,
                                                  record.mfmaWaitStates, chain);
      if (have < required)
        return fail(SimError::Kind::Race,
                    llvm::formatv("overwrites {0}{1} {2} wait states after "
                                  "the {3} at {4} (needs {5}; an s_nop is "
                                  "missing)",
                                  getRegPrefix(*info.cls), first + d,
                                  std::max<int64_t>(have, 0),
                                  sourceName(record.source),
                                  describeOp(record.producer), required));
    }
    slot.records.clear();
    if (!source)
      continue;
    if (vector)
      slot.stale.assign(file.begin() + (first + d) * wave.lanes,
                        file.begin() + (first + d + 1) * wave.lanes);
    else
      slot.stale.assign(1, file[first + d]);
    slot.records.push_back(HazardRecord{*source, wave.hazardClock,
                                        mfmaWaitStates, op, first, info.size});
    if (trans)
      slot.records.push_back(HazardRecord{HazardSource::Trans, wave.hazardClock,
                                          0, op, first, info.size});
  }
  return true;
}

void WaveExec::beforeOp() {
  wave.vccBefore = wave.vcc;
  wave.m0Before = wave.m0;
  // Virtual IR has no nops yet: only allocated IR is held to the rules.
  if (!wg.options.timing || !wg.model || !wg.allocated || !op)
    return;
  InstFacts facts = this->facts();
  auto tooSoon = [&](const Wave::ImplicitRecord &record, HazardSource source,
                     llvm::StringRef name) {
    if (!record.producer)
      return false;
    int64_t have = wave.hazardClock - record.clock - 1;
    int64_t required =
        getImplicitReadHazardWaitStates(*wg.model, source, facts.unit);
    if (have >= required)
      return false;
    std::lock_guard<std::mutex> lock(wg.errorMutex);
    if (wg.staleReads.size() < kMaxStaleReads)
      wg.staleReads.push_back(llvm::formatv(
          "{0}: reads {1} {2} wait states after {3} (needs {4}; an s_nop is "
          "missing): the stale value",
          describeOp(op), name, std::max<int64_t>(have, 0),
          describeOp(record.producer), required));
    return true;
  };
  if ((facts.implicitUses & ImpVCC) &&
      tooSoon(wave.vccRecord, HazardSource::ValuSGPR, "VCC")) {
    wave.heldVcc = wave.vcc;
    wave.vcc = wave.vccRecord.stale;
  }
  if ((facts.implicitUses & ImpM0) &&
      tooSoon(wave.m0Record, HazardSource::SaluM0, "M0")) {
    wave.heldM0 = wave.m0;
    wave.m0 = uint32_t(wave.m0Record.stale);
  }
}

void WaveExec::afterOp() {
  if (!op)
    return;
  InstFacts facts = this->facts();
  // An op that read a stale VCC or M0 and did not write it leaves the
  // current value.
  if (wave.heldVcc && !(facts.implicitDefs & ImpVCC))
    wave.vcc = *wave.heldVcc;
  if (wave.heldM0 && !(facts.implicitDefs & ImpM0))
    wave.m0 = *wave.heldM0;
  wave.heldVcc.reset();
  wave.heldM0.reset();
  if (facts.implicitDefs & ImpVCC)
    wave.vccRecord =
        facts.unit == ExecUnit::VALU
            ? Wave::ImplicitRecord{op, wave.hazardClock, wave.vccBefore}
            : Wave::ImplicitRecord{};
  if (facts.implicitDefs & ImpM0)
    wave.m0Record =
        facts.unit == ExecUnit::SALU
            ? Wave::ImplicitRecord{op, wave.hazardClock, wave.m0Before}
            : Wave::ImplicitRecord{};
  if (wg.options.timing && wg.model && wg.allocated &&
      readsLargeStoreData(op, facts)) {
    RegTypeInfo info = getRegTypeInfo(op->getOperand(0).getType());
    if (info.cls && info.physicalIndex) {
      std::vector<HazardSlot> &slots = slotsOf(wave, *info.cls);
      for (int64_t d = 0; d < info.size; ++d)
        if (*info.physicalIndex + d < int64_t(slots.size()))
          slots[*info.physicalIndex + d].records.push_back(
              HazardRecord{HazardSource::StoreData, wave.hazardClock, 0, op,
                           *info.physicalIndex, info.size});
    }
  }
  wave.hazardClock += decoded && decoded->op == op
                          ? decoded->clockWidth
                          : getHazardClockWidth(op, facts);
}
