//===- DrainReadsAhead.cpp - a drain step's LDS reads a step earlier ------===//

#include "pipeline/opt/DrainReadsAhead.h"

#include "analysis/Liveness.h"
#include "analysis/ProgramIndex.h"
#include "ir/InstFacts.h"
#include "pipeline/opt/LoadsAfterReads.h"
#include "pipeline/opt/OperandFacts.h"
#include "pipeline/opt/TailHoist.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;

namespace {

/// An LDS read into registers: reads LDS only, writes nothing, a result.
bool isLdsRead(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  return facts.hasInfo && !facts.pinned && op->getNumResults() &&
         !hasPhysicalResults(op) && facts.memReads == MemLDS &&
         facts.memWrites == MemNone && !isDirectToLds(op) &&
         !facts.implicitDefs && !(facts.implicitUses & ~ImpEXEC);
}

/// Raw text (or an op without facts) may read or write any memory, LDS
/// included (InsertWaitcnt.cpp treats it so): every barrier around it stays.
bool mayTouchAnyMemory(Operation *op, const InstFacts &facts) {
  return !facts.hasInfo || isa<RawOp>(op);
}

} // namespace

/// The barriers of the straight code after `kernel` that order nothing an
/// earlier kept one does not (DrainReadsAhead.h), erased.
static unsigned eraseDrainBarriers(LoopOp kernel) {
  if (!isa<ProgramOp>(kernel->getParentOp()))
    return 0;
  SmallVector<Operation *> tail = straightCodeAfter(kernel);
  if (tail.empty())
    return 0;
  // The tail must run to the program's end: code past a region could
  // write LDS after a barrier erased here.
  Operation *end = tail.back()->getNextNode();
  if (end && !end->hasTrait<mlir::OpTrait::IsTerminator>())
    return 0;
  // The last op writing LDS: no barrier before it is erased.
  size_t lastLdsWrite = 0;
  for (size_t i = 0; i < tail.size(); ++i) {
    InstFacts facts = lookupInstFacts(tail[i]);
    if ((facts.memWrites & MemLDS) || mayTouchAnyMemory(tail[i], facts))
      lastLdsWrite = i + 1;
  }
  unsigned erased = 0;
  Operation *kept = nullptr;
  bool ordered = false;
  for (size_t i = 0; i < tail.size(); ++i) {
    Operation *op = tail[i];
    InstFacts facts = lookupInstFacts(op);
    if (!isa<S_BARRIER>(op)) {
      // What another barrier would order against later accesses: a write
      // (RAW), or a global read a later store may overwrite (WAR).
      if (facts.memWrites != MemNone || (facts.memReads & MemGlobal) ||
          mayTouchAnyMemory(op, facts))
        ordered = true;
      continue;
    }
    if (kept && !ordered && i >= lastLdsWrite) {
      op->erase();
      ++erased;
      continue;
    }
    kept = op;
    ordered = false;
  }
  return erased;
}

unsigned waveasm::hoistDrainReads(LoopOp kernel) {
  unsigned count = eraseDrainBarriers(kernel);

  SmallVector<Operation *> tail = straightCodeAfter(kernel);
  if (llvm::none_of(tail, isLdsRead))
    return count;
  auto program = kernel->getParentOfType<ProgramOp>();
  ProgramIndex index(program);
  Liveness liveness(index);
  // The tail's own peak as written: the moved reads fill registers its
  // later steps free (the kernel's peak, counted before allocation, is far
  // above what the allocation holds: the preshuffle's 7-buffer kernel 156
  // against 128 allocated).
  int32_t cap = 0;
  llvm::DenseMap<Operation *, int32_t> pressure, added;
  for (Operation *op : tail) {
    pressure[op] = vectorPressure(liveness.getPressure(op));
    cap = std::max(cap, pressure[op]);
  }
  llvm::SmallPtrSet<Operation *, 32> inTail(tail.begin(), tail.end());

  llvm::SmallPtrSet<Operation *, 32> moved;
  for (Operation *read : tail) {
    if (!isLdsRead(read))
      continue;
    HoistSlice slice = collectHoistSlice(read, inTail, moved);
    // A moved op writing SCC could clobber an SCC live where it lands.
    if (llvm::any_of(slice.ops, [](Operation *op) {
          return lookupInstFacts(op).implicitDefs & ImpSCC ||
                 llvm::any_of(op->getResultTypes(), llvm::IsaPred<SCCType>);
        }))
      continue;

    Operation *insertBefore = nullptr;
    for (Operation *op = read->getPrevNode(); op && op != kernel.getOperation();
         op = op->getPrevNode()) {
      if (slice.ops.count(op))
        continue;
      InstFacts facts = lookupInstFacts(op);
      if (slice.fixed.count(op) || op->getNumRegions() || !facts.hasInfo ||
          facts.pinned || facts.memReads != MemNone ||
          facts.memWrites != MemNone)
        break;
      if (pressure.lookup(op) + added.lookup(op) + slice.width > cap)
        break;
      insertBefore = op;
    }
    if (!insertBefore)
      continue;
    hoistSlice(read, slice, insertBefore, added, moved);
    ++count;
  }
  return count;
}
