//===- EpiloguePrefetch.cpp - a kernel's epilogue loads issued early ------===//

#include "pipeline/opt/EpiloguePrefetch.h"

#include "analysis/Liveness.h"
#include "analysis/MemoryAlias.h"
#include "analysis/PointerRoots.h"
#include "analysis/ProgramIndex.h"
#include "ir/InstFacts.h"
#include "pipeline/SCCClobbers.h"
#include "pipeline/opt/LoadsAfterReads.h"
#include "pipeline/opt/OperandFacts.h"
#include "pipeline/opt/TailHoist.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;

namespace {

/// A global load into registers: reads global memory only, writes none, no
/// implicit register but EXEC read, a result. Not into a physical register:
/// moving it up could pass a reader or writer of that register's earlier
/// value, which SSA does not show.
bool isRegisterLoad(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  return facts.hasInfo && op->getNumResults() && !hasPhysicalResults(op) &&
         facts.memReads == MemGlobal && facts.memWrites == MemNone &&
         !facts.implicitDefs && !(facts.implicitUses & ~ImpEXEC) &&
         !isDirectToLds(op);
}

} // namespace

unsigned waveasm::hoistEpiloguePrefetch(LoopOp kernel) {
  // The straight code after the kernel.
  SmallVector<Operation *> tail = straightCodeAfter(kernel);
  if (llvm::none_of(tail, isRegisterLoad))
    return 0;

  auto program = kernel->getParentOfType<ProgramOp>();
  ProgramIndex index(program);
  Liveness liveness(index);
  // The kernel's peak of vector registers: what its occupancy allows.
  unsigned k = *index.lookup(kernel);
  int32_t cap = 0;
  for (unsigned i = k; i <= index.getSubtreeEnd(k); ++i)
    cap = std::max(cap, vectorPressure(liveness.getPressure(i)));
  // Pressure at each tail op as written, and what moved loads add to it.
  llvm::DenseMap<Operation *, int32_t> pressure;
  for (Operation *op : tail)
    pressure[op] = vectorPressure(liveness.getPressure(op));
  llvm::DenseMap<Operation *, int32_t> added;
  llvm::SmallPtrSet<Operation *, 32> inTail(tail.begin(), tail.end());
  // Global stores of the program, for the barriers a load may pass.
  SmallVector<std::pair<unsigned, Operation *>> stores;
  program.walk([&](Operation *op) {
    if (lookupInstFacts(op).memWrites & MemGlobal)
      stores.push_back({*index.lookup(op), op});
  });
  // The loops around the tail: their stores run again before it.
  SmallVector<Operation *> enclosingLoops;
  for (Operation *p = kernel->getParentOp(); p && p != program.getOperation();
       p = p->getParentOp())
    if (isa<LoopOp>(p))
      enclosingLoops.push_back(p);

  llvm::SmallPtrSet<Operation *, 32> moved;
  unsigned count = 0;
  for (Operation *load : tail) {
    if (!isRegisterLoad(load))
      continue;
    // The ops computing its operands that move with it, and the registers
    // it holds from its new place on.
    HoistSlice slice = collectHoistSlice(load, inTail, moved);
    bool scc = llvm::any_of(slice.ops, opWritesSCC);
    // A barrier orders other waves' stores before this load: those earlier
    // in the text, or anywhere in a loop around the load (they run before
    // it on the next trip). A store later in the text and in no such loop
    // runs, in every wave, after the barriers that follow the load as
    // written, moved or not. alias() reasons about one wave's lanes, so
    // only a buffer proved apart (two noalias arguments, or descriptors a
    // check proved apart) lets the load pass a barrier.
    unsigned loadIndex = *index.lookup(load);
    bool barrierOrdersLoad = llvm::any_of(stores, [&](auto &s) {
      bool runsBefore = s.first < loadIndex ||
                        llvm::any_of(enclosingLoops, [&](Operation *loop) {
                          return loop->isAncestor(s.second);
                        });
      return runsBefore && !inDistinctNoAliasArgs(s.second, load);
    });

    // Up from the load: the highest place all the rules allow.
    Operation *insertBefore = nullptr;
    llvm::SmallPtrSet<Value, 4> liveScc;
    bool liveImplicitScc = false;
    for (Operation *op = load->getPrevNode(); op && op != kernel.getOperation();
         op = op->getPrevNode()) {
      if (slice.ops.count(op))
        continue;
      InstFacts facts = lookupInstFacts(op);
      if (slice.fixed.count(op) || op->getNumRegions() || !facts.hasInfo)
        break;
      if ((facts.memReads & MemGlobal) || (facts.implicitDefs & ImpEXEC))
        break;
      if ((facts.memWrites & MemGlobal) &&
          alias(op, load) != AliasResult::NoAlias)
        break;
      // A barrier orders nothing this load reads unless a store may write
      // its buffer; a wait or another pinned op is not passed.
      if (isa<S_BARRIER>(op) ? barrierOrdersLoad : facts.pinned)
        break;
      if (pressure.lookup(op) + added.lookup(op) + slice.width > cap)
        break;
      // The SCC live above `op`: what it and the ops below it read, less
      // what it writes.
      for (Value r : op->getResults())
        liveScc.erase(r);
      if (opWritesSCC(op))
        liveImplicitScc = false;
      for (Value v : op->getOperands())
        if (isa<SCCType>(v.getType()))
          liveScc.insert(v);
      liveImplicitScc |= bool(facts.implicitUses & ImpSCC);
      if (!scc || (liveScc.empty() && !liveImplicitScc))
        insertBefore = op;
    }
    if (!insertBefore)
      continue;
    // The moved ops in their order, then the load, before `insertBefore`.
    hoistSlice(load, slice, insertBefore, added, moved);
    ++count;
  }
  return count;
}
