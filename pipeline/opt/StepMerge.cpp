//===- StepMerge.cpp - the later stages of a pipelined step, merged -------===//

#include "pipeline/opt/StepMerge.h"

#include "analysis/IssueRules.h"
#include "analysis/MemoryAlias.h"
#include "ir/Dialect.h"

using namespace mlir;
using namespace waveasm;

bool waveasm::isLdsAccess(Operation *op) {
  return !isa<S_BARRIER>(op) && ((memReads(op) | memWrites(op)) & MemLDS);
}

bool waveasm::leadsIntoMfma(Operation *op) {
  return op->getNumRegions() == 0 &&
         (isa<S_SETPRIO>(op) || getIssueCycles(op) == 0);
}

StepClock::StepClock(const TargetModel *target, bool barrierDrains,
                     const LdsExtraSlots *ldsExtra, const FreeOps *freeOps)
    : target(target), drainSlots(target && barrierDrains
                                     ? target->getLatency(LatencyClass::LDSLoad)
                                     : 0),
      ldsExtra(ldsExtra), freeOps(freeOps) {}

int64_t StepClock::passes(Operation *op) const {
  return target ? target->getMFMAPasses(op) : 0;
}

int64_t StepClock::issue(Operation *op, int64_t ready) {
  int64_t at = std::max(clock, ready);
  if (int64_t p = passes(op)) {
    at = std::max(at, pipeFreeAt);
    pipeFreeAt = at + p;
  }
  if (isLdsAccess(op)) {
    // The cycle model's LDS pipe (CycleModel.cpp): a bank conflict adds
    // its extra slots to the access's pipe time and to its latency. A
    // barrier that drains nothing (one wave) waits for neither.
    int64_t extra = ldsExtra && drainSlots ? ldsExtra->lookup(op) : 0;
    int64_t start = std::max(at, ldsFreeAt);
    ldsFreeAt = start + 1 + extra;
    ldsDone = std::max(ldsDone, start + drainSlots + extra);
  }
  clock = at + (freeOps && freeOps->contains(op) ? 0 : getIssueCycles(op));
  return at;
}

StepMerger::StepMerger(ArrayRef<SmallVector<Operation *>> streams,
                       const TargetModel *target, ReadyFn ready,
                       bool barrierDrains, const LdsExtraSlots *ldsExtra,
                       const FreeOps *freeOps)
    : streams(streams), ready(ready),
      clock(target, barrierDrains, ldsExtra, freeOps),
      heads(streams.size(), 0) {
  for (const SmallVector<Operation *> &stream : streams) {
    SmallVector<size_t> &next = nextLds.emplace_back(stream.size() + 1);
    next[stream.size()] = stream.size();
    for (size_t i = stream.size(); i-- > 0;)
      next[i] = isLdsAccess(stream[i]) ? i : next[i + 1];
    for (Operation *op : stream)
      passesLeft += clock.passes(op);
  }
}

void StepMerger::issue(Operation *op) {
  order.push_back(op);
  passesLeft -= clock.passes(op);
  // Readiness only steers the cover rule; the others issue in order.
  issuedAt[op] = clock.issue(op);
}

int StepMerger::pickCover(ArrayRef<size_t> ends, ArrayRef<size_t> coverEnds,
                          int64_t after, CoverFilter filter) const {
  if (!coverAllowed || (!clock.ldsStarted() && !coverBeforeLds) ||
      !clock.pipeFree())
    return -1;
  bool ldsPending = false;
  for (unsigned k = 0; k < streams.size() && !ldsPending; ++k)
    ldsPending = nextLds[k][heads[k]] < ends[k];
  // While LDS accesses are pending, an MFMA costs the last one a slot:
  // only when the passes left outlast the drain after it. After them,
  // the pipe should not idle while the drain is still running. Without a
  // drain (a single-wave workgroup) the pipe should never idle while other
  // ops issue: an MFMA goes whenever the pipe is free.
  if (clock.drain() &&
      (ldsPending ? passesLeft + after <= clock.drain() : clock.drained()))
    return -1;
  // An MFMA at a stream's head, or after ops that only lead into it
  // (extracts and packs, which take no slot; a priority change) or that
  // the clock counts as gone (the scale bytes' repacking the optimizations
  // remove: counted as cover's obstacle, it kept the MFMAs of the
  // preshuffled mxfp4 loop behind the whole prefetch).
  for (unsigned k = 0; k < streams.size(); ++k) {
    size_t i = heads[k];
    while (i < coverEnds[k] &&
           (leadsIntoMfma(streams[k][i]) || clock.isFree(streams[k][i])) &&
           (!filter || filter(streams[k][i])))
      ++i;
    if (i >= coverEnds[k])
      continue;
    Operation *op = streams[k][i];
    if (clock.passes(op) && readyOf(op) <= clock.now() &&
        (!filter || filter(op)))
      return k;
  }
  return -1;
}

void StepMerger::cover(ArrayRef<size_t> ends, ArrayRef<size_t> coverEnds,
                       int64_t after, CoverFilter filter) {
  for (int k; (k = pickCover(ends, coverEnds, after, filter)) >= 0;)
    issue(streams[k][heads[k]++]);
}

int StepMerger::pickNearest(ArrayRef<size_t> ends) const {
  auto isAccess = [](Operation *op) {
    return !isa<S_BARRIER>(op) && (memReads(op) | memWrites(op));
  };
  auto distance = [&](unsigned k) {
    for (size_t i = heads[k]; i < ends[k]; ++i)
      if (isAccess(streams[k][i]))
        return i - heads[k];
    return std::numeric_limits<size_t>::max();
  };
  int best = -1;
  size_t bestDistance = 0;
  int bestRank = 0;
  for (unsigned k = 0; k < streams.size(); ++k) {
    if (heads[k] >= ends[k])
      continue;
    size_t d = distance(k);
    Operation *op = streams[k][heads[k]];
    bool atBarrier = isa<S_BARRIER>(op) && !clock.drained();
    bool waitsForPipe = !clock.pipeFree() &&
                        (clock.passes(op) || isa<S_BARRIER, S_SETPRIO>(op));
    int rank = atBarrier ? 2 : waitsForPipe ? 1 : 0;
    if (best < 0 || rank < bestRank || (rank == bestRank && d < bestDistance)) {
      bestRank = rank;
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

void StepMerger::merge(ArrayRef<size_t> ends, ArrayRef<size_t> coverEnds,
                       int64_t after) {
  while (true) {
    int k = pickCover(ends, coverEnds, after, nullptr);
    if (k < 0)
      k = pickNearest(ends);
    if (k < 0)
      return;
    issue(streams[k][heads[k]++]);
  }
}
