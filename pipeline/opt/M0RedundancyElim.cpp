//===- M0RedundancyElim.cpp - waveasm-m0-redundancy-elim ------------------===//
//
// `waveasm-m0-redundancy-elim` (SPEC.md 19): within a block, an
// `s_mov_b32_m0` whose source is the same SSA value as the previous M0 write
// is erased (M0 still holds that value). What is known about M0 is
// forgotten at every op with regions (and each nested block starts with
// nothing known), as upstream does, and also at labels (a branch may arrive
// with another M0), raw assembly text and any other op that writes M0.
// Upstream: tracks across labels and raw text.
//
//===----------------------------------------------------------------------===//

#include "pipeline/DeferredErase.h"
#include "pipeline/Passes.h"

#include "ir/InstFacts.h"
#include "ir/OpClassTable.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "waveasm-m0-redundancy-elim"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMM0REDUNDANCYELIM
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

/// What the walk asks of an op class: whether it is the tracked M0 write,
/// and whether M0's value may differ after one of its ops without regions
/// (other than through s_mov_b32_m0). Kept per thread by TypeID: the walk
/// asks every op, and the InstFacts lookup and kind tests cost more than
/// this lookup. An unregistered op's TypeID is one for every name, and
/// none has InstFacts: the same answer.
enum M0Fact : uint8_t { WritesTrackedM0 = 1, ForgetsM0 = 2 };
uint8_t m0Facts(Operation *op) {
  static thread_local OpClassTable<uint8_t, 512> table;
  return table.get(op, [](Operation *op) -> uint8_t {
    if (isa<S_MOV_B32_M0>(op))
      return WritesTrackedM0;
    if (isa<LabelOp, RawOp>(op))
      return ForgetsM0;
    InstFacts facts = lookupInstFacts(op);
    return !facts.hasInfo || (facts.implicitDefs & ImpM0) ? ForgetsM0 : 0;
  });
}

/// Whether M0's value may differ after `op` (of class `facts`), other than
/// through s_mov_b32_m0, which the walk tracks.
bool forgetsM0(Operation &op, uint8_t facts) {
  return op.getNumRegions() || (facts & ForgetsM0);
}

struct M0RedundancyElimPass
    : public waveasm::impl::WaveASMM0RedundancyElimBase<M0RedundancyElimPass> {
  void runOnOperation() override {
    unsigned erased = 0;
    walkBlock(getOperation().getBodyBlock(), erased);
    LLVM_DEBUG(llvm::dbgs()
               << "[" DEBUG_TYPE "] @" << getOperation().getSymName()
               << ": erased " << erased << " redundant s_mov_b32_m0\n");
  }

  void walkBlock(Block &block, unsigned &erased) {
    Value m0; // the source of the last M0 write, if known
    for (Operation &op : llvm::make_early_inc_range(block)) {
      uint8_t facts = m0Facts(&op);
      if (facts & WritesTrackedM0) {
        auto write = cast<S_MOV_B32_M0>(op);
        if (m0 && write.getSrc() == m0) {
          LLVM_DEBUG(llvm::dbgs()
                     << "[" DEBUG_TYPE "] erased at " << op.getLoc() << "\n");
          eraseOp(&op);
          ++erased;
          continue;
        }
        if (m0)
          LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kept at " << op.getLoc()
                                  << ": another source than the previous "
                                     "M0 write\n");
        m0 = write.getSrc();
        continue;
      }
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          walkBlock(nested, erased);
      if (forgetsM0(op, facts))
        m0 = {};
    }
  }
};

} // namespace
