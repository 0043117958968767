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

/// An op that may move up with a load it computes an operand of: no memory,
/// no region, not pinned, no implicit register but EXEC read and SCC
/// written, no SCC read, no SCC result that anything reads (another
/// writer could come between it and its reader), and no physical register
/// result (as for isRegisterLoad).
bool isPureMovable(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  if (!facts.hasInfo || facts.pinned || op->getNumRegions() ||
      hasPhysicalResults(op) || facts.memReads != MemNone ||
      facts.memWrites != MemNone || (facts.implicitDefs & ~ImpSCC) ||
      (facts.implicitUses & ~ImpEXEC))
    return false;
  if (llvm::any_of(op->getOperandTypes(), llvm::IsaPred<SCCType>))
    return false;
  return llvm::all_of(op->getResults(), [](Value r) {
    return !isa<SCCType>(r.getType()) || r.use_empty();
  });
}

int64_t vectorRegisters(Value v) {
  std::optional<RegClass> cls = getRegClass(v.getType());
  return cls && *cls != RegClass::SGPR ? getRegSize(v.getType()) : 0;
}

int32_t vectorPressure(const RegCounts &c) { return c.vgprs() + c.agprs(); }

} // namespace

unsigned waveasm::hoistEpiloguePrefetch(LoopOp kernel) {
  // The straight code after the kernel.
  SmallVector<Operation *> tail;
  for (Operation *op = kernel->getNextNode(); op; op = op->getNextNode()) {
    if (op->getNumRegions() || op->hasTrait<mlir::OpTrait::IsTerminator>())
      break;
    tail.push_back(op);
  }
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
    // The ops computing its operands that move with it (`slice`), and those
    // that cannot (`fixed`): it stays below them.
    llvm::SmallPtrSet<Operation *, 16> slice, fixed;
    SmallVector<Operation *> work{load};
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!def || !inTail.count(def) || slice.count(def) || fixed.count(def))
          continue;
        if (moved.count(def) || !isPureMovable(def)) {
          fixed.insert(def);
          continue;
        }
        slice.insert(def);
        work.push_back(def);
      }
    }
    // Its registers held from its new place on: its results, and those of
    // its moved ops that ops staying below read.
    int64_t width = 0;
    for (Value r : load->getResults())
      width += vectorRegisters(r);
    for (Operation *op : slice)
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(), [&](Operation *u) {
              return u != load && !slice.count(u);
            }))
          width += vectorRegisters(r);
    bool scc = llvm::any_of(slice, opWritesSCC);
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
      if (slice.count(op))
        continue;
      InstFacts facts = lookupInstFacts(op);
      if (fixed.count(op) || op->getNumRegions() || !facts.hasInfo)
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
      if (pressure.lookup(op) + added.lookup(op) + width > cap)
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
    // The moved ops in their order, then the load, before `insertBefore`;
    // the ops they pass hold the load's registers too.
    SmallVector<Operation *> order;
    for (Operation *op = insertBefore; op != load; op = op->getNextNode()) {
      if (slice.count(op))
        order.push_back(op);
      else
        added[op] += width;
    }
    order.push_back(load);
    for (Operation *op : order) {
      op->moveBefore(insertBefore);
      moved.insert(op);
    }
    ++count;
  }
  return count;
}
