//===- CycleModel.cpp - in-order single-wave issue model ------------------===//
//
// The rules are in CycleModel.h, the simulation in CycleSimulator.cpp; LDS
// bank conflicts are charged through the op facts (addLdsBankConflicts below
// says how).
//
//===----------------------------------------------------------------------===//

#include "analysis/CycleModel.h"

#include "analysis/CycleSimulator.h"
#include "analysis/LdsBankConflicts.h"

using namespace mlir;
using namespace waveasm;

std::string waveasm::describeBoundKind(const LoopTiming &loop) {
  if (loop.boundKind == "memory recurrence" && loop.memoryRecurrenceStore &&
      loop.memoryRecurrenceLoad)
    return ("memory recurrence: " +
            loop.memoryRecurrenceStore->getName().stripDialect() +
            " -> next iteration's " +
            loop.memoryRecurrenceLoad->getName().stripDialect())
        .str();
  if (loop.boundKind != "recurrence")
    return loop.boundKind.str();
  std::string text =
      "recurrence via iter_arg " + std::to_string(loop.recurrenceIterArg);
  if (loop.recurrenceDistance > 1)
    text += ", " + std::to_string(loop.recurrenceDistance) + " iterations";
  return text;
}

StringRef waveasm::stringifyStallReason(StallReason reason) {
  switch (reason) {
  case StallReason::None:
    return "none";
  case StallReason::Operand:
    return "operand";
  case StallReason::UncoveredLoad:
    return "uncovered load";
  case StallReason::MFMAPipe:
    return "MFMA pipe";
  case StallReason::MFMACoIssue:
    return "MFMA co-issue";
  case StallReason::WaitCnt:
    return "waitcnt";
  }
  return "none";
}

//===----------------------------------------------------------------------===//
// CycleModel
//===----------------------------------------------------------------------===//

/// LDS bank conflicts (LdsBankConflicts.h): a conflicting ds op's extra
/// slots add to its latency (its data returns later) and to its LDS pipe
/// occupancy, which the simulation holds the pipe for (the next ds op
/// starts no earlier) and the lower bound counts. Conflict-free ds ops keep
/// their facts: one issues per slot anyway, so the pipe never delays them.
static void addLdsBankConflicts(const ProgramIndex &index,
                                const LdsBankConflicts &banks,
                                std::vector<OpFacts> &facts) {
  for (const LdsAccessInfo &access : banks.getAccesses()) {
    if (!access.known || !access.extraSlots)
      continue;
    std::optional<unsigned> idx = index.lookup(access.op);
    if (!idx || facts[*idx].unit != ExecUnit::LDS)
      continue;
    facts[*idx].latency += static_cast<int32_t>(access.extraSlots);
    facts[*idx].occupancy += static_cast<int32_t>(access.extraSlots);
  }
}

CycleModel::CycleModel(const ProgramIndex &index, const TargetModel &target)
    : index(index), target(target), facts(computeOpFacts(index, target)),
      banks(std::make_unique<LdsBankConflicts>(index, target)) {
  addLdsBankConflicts(index, *banks, facts);
  CycleSimulator(*this, CycleSimulator::Options()).run();
}

const OpTiming *CycleModel::getTiming(Operation *op) const {
  std::optional<unsigned> idx = index.lookup(op);
  return idx ? &timeline[*idx] : nullptr;
}

const OpTiming *CycleModel::getSteadyTiming(unsigned idx) const {
  if (index.getParentLoop(idx) == ProgramIndex::kNone)
    return nullptr;
  return &steady[idx];
}

const OpTiming *CycleModel::getSteadyTiming(Operation *op) const {
  std::optional<unsigned> idx = index.lookup(op);
  return idx ? getSteadyTiming(*idx) : nullptr;
}

const LoopTiming *CycleModel::getLoopTiming(LoopOp loop) const {
  std::optional<unsigned> idx = index.lookup(loop);
  if (!idx || loopSlot[*idx] == ProgramIndex::kNone)
    return nullptr;
  return &loops[loopSlot[*idx]];
}
