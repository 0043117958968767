//===- AdjacentBarriers.cpp - one barrier where two follow ----------------===//

#include "pipeline/opt/AdjacentBarriers.h"

#include "analysis/MemoryAlias.h"
#include "ir/Dialect.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// Whether `op` may lie between two barriers that become one: it touches
/// no memory and orders nothing (AdjacentBarriers.h).
bool needsNoBarrier(Operation *op) {
  auto info = dyn_cast<InstInfoOpInterface>(op);
  return info && !info.isPinned() && op->getNumRegions() == 0 &&
         !readsMemory(op) && !writesMemory(op);
}

} // namespace

unsigned waveasm::mergeAdjacentBarriers(Block::iterator begin,
                                        Block::iterator end) {
  unsigned erased = 0;
  Operation *open = nullptr; // the last barrier, while only ops needing
                             // no barrier followed it
  for (Block::iterator it = begin; it != end;) {
    Operation *op = &*it++;
    if (isa<S_BARRIER>(op)) {
      if (open) {
        open->erase();
        ++erased;
      }
      open = op;
    } else if (!needsNoBarrier(op)) {
      open = nullptr;
    }
  }
  return erased;
}
