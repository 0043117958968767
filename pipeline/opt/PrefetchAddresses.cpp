//===- PrefetchAddresses.cpp - a step's load addresses in the last one ----===//

#include "pipeline/opt/PrefetchAddresses.h"

#include "analysis/IssueRules.h"
#include "analysis/TargetModel.h"
#include "ir/InstFacts.h"
#include "pipeline/opt/LoadsAfterReads.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;

namespace {

bool touchesSCC(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  return ((facts.implicitDefs | facts.implicitUses) & ImpSCC) ||
         llvm::any_of(op->getOperandTypes(), llvm::IsaPred<SCCType>) ||
         llvm::any_of(op->getResultTypes(), llvm::IsaPred<SCCType>);
}

/// A scalar ALU op or a register pseudo op (extract, pack) that may move:
/// no memory, no region, not pinned, no implicit register but SCC.
bool isMovable(Operation *op) {
  auto info = dyn_cast<InstInfoOpInterface>(op);
  InstFacts facts = lookupInstFacts(op);
  return info && !info.isPinned() && op->getNumRegions() == 0 &&
         (facts.unit == ExecUnit::SALU || facts.unit == ExecUnit::None) &&
         facts.memReads == MemNone && facts.memWrites == MemNone &&
         !((facts.implicitDefs | facts.implicitUses) & ~ImpSCC);
}

/// The issue slot of the first MFMA of `ops` after `barrier`, issued in
/// order: one slot each (getIssueCycles), an MFMA no earlier than the
/// previous one's passes end (without one, the slot the next iteration's
/// first MFMA could issue in).
int64_t firstMfmaAfter(ArrayRef<Operation *> ops, Operation *barrier,
                       const TargetModel &model) {
  int64_t clock = 0, pipeFree = 0;
  bool after = false;
  for (Operation *op : ops) {
    int64_t passes = model.getMFMAPasses(op);
    int64_t slot = passes ? std::max(clock, pipeFree) : clock;
    if (passes && after)
      return slot;
    after |= op == barrier;
    pipeFree = passes ? slot + passes : pipeFree;
    clock = slot + getIssueCycles(op);
  }
  // No MFMA after the barrier in this iteration: the next one's first
  // issues once both the body and the pipe are through.
  return std::max(clock, pipeFree);
}

/// After `barrier`: moves the address ops (above). True when it did.
/// `compare`: the ops whose SCC the block's terminator reads (the loop's
/// compare) may move too; the caller asks once the others have moved, so
/// that the compare is judged alone and does not ride along with them into
/// a shadow that has no slot left for it (gemm_f16_32x32x8 in 5 stages:
/// its compare after the address ops delayed the step's last MFMA).
bool hoistAfter(Operation *barrier, const TargetModel &model, bool compare) {
  // The run after the barrier up to its first MFMA, and the ops of it that
  // move: movable, reading nothing the run computes but each other.
  SmallVector<Operation *> run;
  llvm::SmallPtrSet<Operation *, 16> moving;
  Operation *mfma = nullptr;
  for (Operation *op = barrier->getNextNode(); op; op = op->getNextNode()) {
    if (model.getMFMAPasses(op)) {
      mfma = op;
      break;
    }
    if (op == op->getBlock()->getTerminator())
      break; // the next iteration's first MFMA follows
    if (isa<S_BARRIER>(op))
      return false;
    InstFacts facts = lookupInstFacts(op);
    bool load = facts.memReads == MemGlobal && facts.memWrites == MemNone &&
                !facts.implicitUses && !facts.implicitDefs;
    if (!load && !isMovable(op))
      return false; // not a prefetch: an LDS access, M0, a wait
    run.push_back(op);
    bool free = llvm::all_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return !def || def->getBlock() != barrier->getBlock() ||
             def->isBeforeInBlock(barrier) || moving.count(def);
    });
    if (free && isMovable(op))
      moving.insert(op);
  }
  // An SCC written by a moving op is read by moving ops only, or by the
  // block's terminator (the loop's compare, read by its condition, when
  // the run ends the body: nothing from its new place on may then touch
  // SCC), and one read by a moving op is written by one; what reads a
  // staying op stays.
  Operation *terminator = barrier->getBlock()->getTerminator();
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : run) {
      if (!moving.count(op))
        continue;
      bool stays = llvm::any_of(op->getResults(), [&](Value r) {
        return isa<SCCType>(r.getType()) &&
               llvm::any_of(r.getUsers(), [&](Operation *u) {
                 return !moving.count(u) &&
                        (u != terminator || mfma || !compare);
               });
      });
      stays |= llvm::any_of(op->getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        bool inRun = def && llvm::is_contained(run, def);
        return (inRun && !moving.count(def)) ||
               (isa<SCCType>(v.getType()) && !inRun);
      });
      if (stays) {
        moving.erase(op);
        changed = true;
      }
    }
  }
  if (moving.empty())
    return false;
  bool scc = llvm::any_of(moving, touchesSCC);
  bool sccToTerminator = llvm::any_of(moving, [&](Operation *op) {
    return llvm::any_of(op->getResults(), [&](Value r) {
      return isa<SCCType>(r.getType()) &&
             llvm::is_contained(r.getUsers(), terminator);
    });
  });
  SmallVector<Operation *> staying;
  // An op staying may write SCC (after the moved ops, as before) but read
  // only an SCC written in the run, and touch none that the terminator
  // reads from a moved op.
  for (Operation *op : run)
    if (!moving.count(op)) {
      bool readsOutside = llvm::any_of(op->getOperands(), [&](Value v) {
        return isa<SCCType>(v.getType()) &&
               !llvm::is_contained(run, v.getDefiningOp());
      });
      if (sccToTerminator && touchesSCC(op))
        return false;
      if (scc &&
          (readsOutside ||
           ((lookupInstFacts(op).implicitUses & ImpSCC) &&
            !llvm::any_of(op->getOperandTypes(), llvm::IsaPred<SCCType>))))
        return false;
      staying.push_back(op);
    }
  // The step before: back to the previous barrier or the block's start.
  SmallVector<Operation *> before;
  for (Operation *op = barrier->getPrevNode(); op && !isa<S_BARRIER>(op);
       op = op->getPrevNode())
    before.push_back(op);
  std::reverse(before.begin(), before.end());
  SmallVector<Operation *> movingOps;
  for (Operation *op : run)
    if (moving.count(op))
      movingOps.push_back(op);
  // Without an MFMA after the barrier in this iteration, the next one's
  // first: the branch back, then the body's ops before it (a leading LDS
  // read in the double buffer's kernel), so that the compare moved out of
  // the branch's way counts.
  SmallVector<Operation *> next;
  if (mfma) {
    next.push_back(mfma);
  } else {
    next.push_back(terminator);
    for (Operation &op : *barrier->getBlock()) {
      if (&op == barrier || isa<S_BARRIER>(op))
        break;
      next.push_back(&op);
      if (model.getMFMAPasses(&op))
        break;
    }
  }
  // Orders: the moving ops after before[k] (an MFMA), or where they are.
  auto order = [&](int64_t k) {
    SmallVector<Operation *> ops(before.begin(), before.begin() + k + 1);
    ops.append(movingOps);
    ops.append(before.begin() + k + 1, before.end());
    ops.push_back(barrier);
    ops.append(staying);
    ops.append(next);
    return ops;
  };
  SmallVector<Operation *> current(before);
  current.push_back(barrier);
  current.append(run);
  current.append(next);
  int64_t best = firstMfmaAfter(current, barrier, model), where = -1;
  // From the latest MFMA back, while nothing between it and the barrier
  // touches SCC (when a moving op does) or is a moving op's operand.
  for (int64_t k = int64_t(before.size()) - 1; k >= 0; --k) {
    Operation *op = before[k];
    if (model.getMFMAPasses(op)) {
      int64_t slot = firstMfmaAfter(order(k), barrier, model);
      if (slot < best) {
        best = slot;
        where = k;
      }
    }
    bool defines = llvm::any_of(movingOps, [&](Operation *m) {
      return llvm::any_of(m->getOperands(),
                          [&](Value v) { return v.getDefiningOp() == op; });
    });
    if (defines || (scc && touchesSCC(op)) || op->getNumRegions())
      break;
  }
  if (where < 0)
    return false;
  Operation *after = before[where];
  for (Operation *op : movingOps) {
    op->moveAfter(after);
    after = op;
  }
  return true;
}

} // namespace

unsigned waveasm::hoistPrefetchAddresses(Block &block,
                                         const TargetModel &model) {
  for (Operation &op : block) {
    if ((lookupInstFacts(&op).memReads & MemScalar) || isDirectToLds(&op))
      return 0;
  }
  SmallVector<Operation *> barriers;
  for (Operation &op : block)
    if (isa<S_BARRIER>(op))
      barriers.push_back(&op);
  unsigned moved = 0;
  for (Operation *barrier : barriers) {
    bool addresses = hoistAfter(barrier, model, /*compare=*/false);
    moved += hoistAfter(barrier, model, /*compare=*/true) || addresses;
  }
  return moved;
}
