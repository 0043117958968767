//===- StepOrder.cpp - issue order of a pipelined loop's step -------------===//

#include "pipeline/opt/StepOrder.h"

#include "analysis/MemoryAlias.h"

#include "llvm/ADT/DenseSet.h"

#include <limits>

using namespace mlir;
using namespace waveasm;

namespace {

/// Implicit registers an op (or an op nested in it) reads and writes;
/// SCC operands and results count as reads and writes of SCC.
struct ImplicitRegs {
  unsigned reads = 0, writes = 0;
};
ImplicitRegs implicitRegs(Operation *op) {
  ImplicitRegs regs;
  op->walk([&](Operation *nested) {
    if (auto info = dyn_cast<InstInfoOpInterface>(nested)) {
      regs.reads |= info.getImplicitUses();
      regs.writes |= info.getImplicitDefs();
    }
    for (Value r : nested->getResults())
      if (isa<SCCType>(r.getType()))
        regs.writes |= ImpSCC;
    for (Value v : nested->getOperands())
      if (isa<SCCType>(v.getType()))
        regs.reads |= ImpSCC;
  });
  return regs;
}

/// Ops that keep their place: waits, nops, priority changes, barriers and
/// pinned ops.
bool isOrderingOp(Operation *op) {
  if (isa<S_WAITCNT, S_NOP, S_SETPRIO, S_BARRIER>(op) ||
      op->getName().getStringRef().starts_with("waveasm.s_waitcnt"))
    return true;
  auto info = dyn_cast<InstInfoOpInterface>(op);
  return info && info.isPinned();
}

/// Whether `hoisted` may move above `passed` (an earlier op of the same
/// stage that stays). Two writes of SCC may swap when `sccWritesSwap`: the
/// hoisted op's SCC is read through SSA by hoisted ops only (checked by the
/// caller) and no op that stays reads SCC implicitly.
bool mayPass(Operation *hoisted, Operation *passed, bool sccWritesSwap) {
  if (isOrderingOp(passed) || isOrderingOp(hoisted))
    return false;
  unsigned rA = memReads(hoisted), wA = memWrites(hoisted);
  unsigned rB = memReads(passed), wB = memWrites(passed);
  if ((wA & (rB | wB)) | (wB & rA))
    return false;
  ImplicitRegs a = implicitRegs(hoisted), b = implicitRegs(passed);
  unsigned bothWrite = a.writes & b.writes;
  if (sccWritesSwap)
    bothWrite &= ~unsigned(ImpSCC);
  return !((a.writes & b.reads) | (a.reads & b.writes) | bothWrite);
}

} // namespace

std::optional<StepOrder> waveasm::parseStepOrder(StringRef text) {
  if (text == "body")
    return StepOrder::Body;
  if (text == "late-first")
    return StepOrder::LateFirst;
  return std::nullopt;
}

SmallVector<Operation *> waveasm::computeStepOrder(const LoopStages &stages,
                                                   StepOrder order) {
  SmallVector<Operation *> result;
  if (order == StepOrder::Body) {
    result.assign(stages.ops.begin(), stages.ops.end());
    return result;
  }
  int n = stages.ops.size();
  DenseMap<Operation *, int> index;
  for (auto [i, op] : llvm::enumerate(stages.ops))
    index[op] = i;
  Block *body = n ? stages.ops.front()->getBlock() : nullptr;
  auto bodyIndexOf = [&](Operation *op) {
    while (op && op->getBlock() != body)
      op = op->getParentOp();
    auto it = op ? index.find(op) : index.end();
    return it == index.end() ? -1 : it->second;
  };

  // The prefetch: stage-0 loads and, transitively, their stage-0 producers.
  SmallVector<bool> hoist(n, false);
  SmallVector<int> work;
  for (int i = 0; i < n; ++i)
    if (stages.stages[i] == 0 && isPrefetchLoad(stages.ops[i])) {
      hoist[i] = true;
      work.push_back(i);
    }
  while (!work.empty()) {
    int i = work.pop_back_val();
    stages.ops[i]->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        int p = v.getDefiningOp() ? bodyIndexOf(v.getDefiningOp()) : -1;
        if (p >= 0 && p != i && stages.stages[p] == 0 && !hoist[p]) {
          hoist[p] = true;
          work.push_back(p);
        }
      }
    });
  }
  // Every op passed by a hoisted one must allow it, and an SCC value a
  // hoisted op defines is read by hoisted ops only (the later stages come
  // between the two groups); else no hoisting.
  bool legal = true;
  bool sccWritesSwap = true;
  for (int i = 0; i < n; ++i)
    if (stages.stages[i] == 0 && !hoist[i])
      if (auto info = dyn_cast<InstInfoOpInterface>(stages.ops[i]))
        sccWritesSwap &= !(info.getImplicitUses() & ImpSCC);
  for (int h = 0; h < n && legal; ++h) {
    if (!hoist[h])
      continue;
    for (Value r : stages.ops[h]->getResults())
      if (isa<SCCType>(r.getType()))
        for (Operation *user : r.getUsers())
          if (int u = bodyIndexOf(user); u < 0 || !hoist[u])
            legal = false;
    for (int x = 0; x < h && legal; ++x)
      if (stages.stages[x] == 0 && !hoist[x])
        legal = mayPass(stages.ops[h], stages.ops[x], sccWritesSwap);
  }

  if (legal)
    for (int i = 0; i < n; ++i)
      if (hoist[i])
        result.push_back(stages.ops[i]);
  int highest = 0;
  for (int s : stages.stages)
    highest = std::max(highest, s);
  // The later stages, merged: each keeps its own order; the next op comes
  // from the stage whose next memory access is nearest (the latest stage
  // on a tie), so every stage's loads and LDS traffic issue early and the
  // compute of the others covers their latency.
  SmallVector<SmallVector<Operation *>> streams;
  for (int s = highest; s >= 1; --s) {
    streams.emplace_back();
    for (int i = 0; i < n; ++i)
      if (stages.stages[i] == s)
        streams.back().push_back(stages.ops[i]);
  }
  auto isAccess = [](Operation *op) {
    return !isa<S_BARRIER>(op) && (memReads(op) | memWrites(op));
  };
  SmallVector<size_t> head(streams.size(), 0);
  auto distance = [&](unsigned k) {
    for (size_t i = head[k]; i < streams[k].size(); ++i)
      if (isAccess(streams[k][i]))
        return i - head[k];
    return std::numeric_limits<size_t>::max();
  };
  while (true) {
    int best = -1;
    size_t bestDistance = 0;
    for (unsigned k = 0; k < streams.size(); ++k) {
      if (head[k] == streams[k].size())
        continue;
      size_t d = distance(k);
      if (best < 0 || d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    if (best < 0)
      break;
    result.push_back(streams[best][head[best]++]);
  }
  for (int i = 0; i < n; ++i)
    if (stages.stages[i] == 0 && !(legal && hoist[i]))
      result.push_back(stages.ops[i]);
  return result;
}
