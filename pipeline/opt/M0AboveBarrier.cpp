//===- M0AboveBarrier.cpp - M0 writes above their barriers ---------------===//

#include "pipeline/opt/M0AboveBarrier.h"

#include "ir/InstFacts.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// An op an M0 write may pass: no memory, wait, barrier, region, pinned op
/// or M0 access.
bool isPassable(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  return facts.hasInfo && !facts.pinned && op->getNumRegions() == 0 &&
         facts.memReads == MemNone && facts.memWrites == MemNone &&
         !((facts.implicitUses | facts.implicitDefs) & ImpM0);
}

} // namespace

SmallVector<M0Move> waveasm::hoistM0AboveBarriers(Block &block) {
  SmallVector<S_BARRIER> barriers;
  for (Operation &op : block)
    if (auto barrier = dyn_cast<S_BARRIER>(op))
      barriers.push_back(barrier);
  SmallVector<M0Move> moved;
  for (S_BARRIER barrier : barriers) {
    for (Operation *op = barrier->getNextNode(); op; op = op->getNextNode()) {
      if (auto m0 = dyn_cast<S_MOV_B32_M0>(op)) {
        Operation *def = m0->getOperand(0).getDefiningOp();
        Operation *inBlock = def ? block.findAncestorOpInBlock(*def) : nullptr;
        if (!inBlock || inBlock->isBeforeInBlock(barrier)) {
          moved.push_back({m0, m0->getNextNode()});
          m0->moveBefore(barrier);
        }
        break;
      }
      if (!isPassable(op))
        break;
    }
  }
  return moved;
}

void waveasm::undoM0Moves(ArrayRef<M0Move> moves) {
  for (const M0Move &move : llvm::reverse(moves))
    move.write->moveBefore(move.next);
}
