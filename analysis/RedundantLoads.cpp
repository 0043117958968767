//===- RedundantLoads.cpp - loads that repeat an earlier load -------------===//

#include "analysis/RedundantLoads.h"

#include "analysis/MemoryAlias.h"
#include "ir/InstFacts.h"
#include "ir/RegisterTypes.h"

using namespace mlir;
using namespace waveasm;

namespace {

bool isCandidate(Operation *op, const InstFacts &facts) {
  if (!facts.hasInfo || op->getNumRegions() || op->getNumResults() == 0 ||
      !facts.memReads || facts.memWrites || facts.pinned ||
      op->hasAttr("no_cse"))
    return false;
  return llvm::all_of(op->getResultTypes(), [](Type type) {
    return getRegClass(type) && !isPhysicalReg(type);
  });
}

bool sameLoad(Operation *a, Operation *b) {
  return a->getName() == b->getName() && a->getOperands() == b->getOperands() &&
         a->getResultTypes() == b->getResultTypes() &&
         a->getDiscardableAttrDictionary() ==
             b->getDiscardableAttrDictionary() &&
         a->getPropertiesAsAttribute() == b->getPropertiesAsAttribute();
}

/// Whether `op` (or an op nested in it) ends what is known about every
/// load: another wave's writes, other lanes, unknown effects.
bool forgetsEverything(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (isa<S_BARRIER, LabelOp, RawOp>(nested))
      return WalkResult::interrupt();
    InstFacts facts = lookupInstFacts(nested);
    if (!facts.hasInfo || (facts.implicitDefs & ImpEXEC))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

void scanBlock(Block &block, std::vector<RedundantLoad> &out) {
  std::vector<Operation *> available;
  for (Operation &op : block) {
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        scanBlock(nested, out);
    InstFacts facts = lookupInstFacts(&op);
    if (isCandidate(&op, facts)) {
      auto it = llvm::find_if(
          available, [&](Operation *prev) { return sameLoad(prev, &op); });
      if (it != available.end())
        out.push_back({&op, *it});
      else
        available.push_back(&op);
      continue;
    }
    if (forgetsEverything(&op)) {
      available.clear();
      continue;
    }
    if (writesMemory(&op))
      llvm::erase_if(available, [&](Operation *load) {
        return alias(&op, load) != AliasResult::NoAlias;
      });
  }
}

} // namespace

std::vector<RedundantLoad> waveasm::findRedundantLoads(ProgramOp program) {
  std::vector<RedundantLoad> out;
  bool explicitWaits = false;
  program.walk([&](Operation *op) {
    if (isa<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT, S_WAITCNT_EXPCNT>(
            op))
      explicitWaits = true;
  });
  if (!explicitWaits)
    scanBlock(program.getBodyBlock(), out);
  return out;
}
