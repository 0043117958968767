//===- KernelExitBarrier.cpp - a barrier after a pipelined kernel ---------===//

#include "pipeline/opt/KernelExitBarrier.h"

#include "analysis/MemoryAlias.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace waveasm;

bool waveasm::insertKernelExitBarrier(LoopOp loop) {
  bool dma = false, barrier = false;
  for (Operation &op : loop.getBodyBlock()) {
    dma |= isa<BUFFER_LOAD_DWORD_LDS, BUFFER_LOAD_DWORDX4_LDS>(op);
    barrier |= isa<S_BARRIER>(op);
  }
  if (!dma || !barrier)
    return false;
  // What the wait pass's window after the loop's last barrier sees on the
  // exit path (InsertWaitcnt.cpp computeBarrierPublishes): nothing to gain
  // when it meets a barrier or the end of the program first.
  Operation *after = loop->getNextNode();
  for (; after && !isa<S_BARRIER, S_ENDPGM>(after);
       after = after->getNextNode())
    if (after->getNumRegions() || isa<RawOp>(after) ||
        ((memReads(after) | memWrites(after)) & MemLDS))
      break;
  if (after && isa<S_BARRIER, S_ENDPGM>(after))
    return false;
  OpBuilder b(loop->getContext());
  b.setInsertionPointAfter(loop);
  S_BARRIER::create(b, loop.getLoc());
  return true;
}
