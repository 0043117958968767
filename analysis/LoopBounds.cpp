//===- LoopBounds.cpp - resource bound and critical path ------------------===//

#include "analysis/LoopBounds.h"

using namespace mlir;
using namespace waveasm;

//===----------------------------------------------------------------------===//
// Resource usage
//===----------------------------------------------------------------------===//

int64_t UnitUsage::getLowerBound() const {
  int64_t bound = issueCycles;
  for (int64_t cycles : unitCycles)
    bound = std::max(bound, cycles);
  return bound;
}

StringRef UnitUsage::getBusiestUnit() const {
  unsigned best = 0;
  for (unsigned u = 1; u < unitCycles.size(); ++u)
    if (unitCycles[u] > unitCycles[best])
      best = u;
  if (issueCycles > unitCycles[best])
    return "issue";
  return stringifyExecUnit(static_cast<ExecUnit>(best));
}

static UnitUsage usageOf(const ProgramIndex &index,
                         llvm::ArrayRef<OpFacts> facts,
                         std::pair<unsigned, unsigned> range,
                         TripCountFn tripCount) {
  UnitUsage usage;
  if (range.first > range.second)
    return usage;
  for (unsigned idx = range.first; idx <= range.second;
       idx = index.getSubtreeEnd(idx) + 1) {
    const OpFacts &f = facts[idx];
    if (f.shape == OpShape::Loop) {
      UnitUsage inner =
          usageOf(index, facts, index.getRegionRange(idx, 0), tripCount);
      int64_t trips = tripCount(idx);
      for (unsigned u = 0; u < usage.unitCycles.size(); ++u)
        usage.unitCycles[u] += trips * inner.unitCycles[u];
      usage.issueCycles += trips * inner.issueCycles;
      continue;
    }
    if (f.shape == OpShape::If) {
      // Only one region runs: per unit, the cheaper one is a safe bound.
      UnitUsage thenUsage =
          usageOf(index, facts, index.getRegionRange(idx, 0), tripCount);
      UnitUsage elseUsage =
          usageOf(index, facts, index.getRegionRange(idx, 1), tripCount);
      for (unsigned u = 0; u < usage.unitCycles.size(); ++u)
        usage.unitCycles[u] +=
            std::min(thenUsage.unitCycles[u], elseUsage.unitCycles[u]);
      usage.issueCycles +=
          std::min(thenUsage.issueCycles, elseUsage.issueCycles);
    }
    if (!f.issued)
      continue;
    usage.unitCycles[static_cast<unsigned>(f.unit)] += f.occupancy;
    usage.issueCycles += f.issueCycles;
  }
  return usage;
}

UnitUsage waveasm::computeLoopUsage(const ProgramIndex &index,
                                    llvm::ArrayRef<OpFacts> facts,
                                    unsigned loopIdx, TripCountFn tripCount) {
  return usageOf(index, facts, index.getRegionRange(loopIdx, 0), tripCount);
}

//===----------------------------------------------------------------------===//
// Critical path
//===----------------------------------------------------------------------===//

CriticalPaths::CriticalPaths(const ProgramIndex &index,
                             llvm::ArrayRef<OpFacts> facts)
    : index(index), facts(facts), ready(index.getNumValues(), 0),
      chainReady(index.getNumValues(), kNoChain) {}

int64_t CriticalPaths::ofProgram() {
  std::fill(ready.begin(), ready.end(), 0);
  std::fill(chainReady.begin(), chainReady.end(), kNoChain);
  if (index.getNumOps() == 0)
    return 0;
  return walk(0, index.getNumOps() - 1);
}

int64_t CriticalPaths::ofLoop(unsigned loopIdx) {
  index.forEachUseFromOutside(loopIdx, [&](unsigned id) {
    ready[id] = 0;
    chainReady[id] = kNoChain;
  });
  Block &body = cast<LoopOp>(index.getOp(loopIdx)).getBodyBlock();
  for (unsigned i = 0; i < body.getNumArguments(); ++i) {
    ready[index.getBlockArgId(loopIdx, i)] = 0;
    chainReady[index.getBlockArgId(loopIdx, i)] = kNoChain;
  }
  auto [first, last] = index.getRegionRange(loopIdx, 0);
  return first <= last ? walk(first, last) : 0;
}

int64_t CriticalPaths::walk(unsigned begin, unsigned end) {
  constexpr unsigned kNone = ProgramIndex::kNone;
  auto copy = [&](unsigned to, unsigned from) {
    if (from == kNone)
      return;
    ready[to] = ready[from];
    chainReady[to] = chainReady[from];
  };
  int64_t longest = 0;
  for (unsigned idx = begin; idx <= end; idx = index.getSubtreeEnd(idx) + 1) {
    const OpFacts &f = facts[idx];
    llvm::ArrayRef<unsigned> operands = index.getOperandIds(idx);
    if (f.shape == OpShape::Loop) {
      auto loop = cast<LoopOp>(index.getOp(idx));
      unsigned numArgs = loop.getBodyBlock().getNumArguments();
      for (unsigned i = 0; i < numArgs && i < operands.size(); ++i)
        copy(index.getBlockArgId(idx, i), operands[i]);
      auto [first, last] = index.getRegionRange(idx, 0);
      if (first <= last)
        longest = std::max(longest, walk(first, last));
      if (ConditionOp cond = loop.getConditionOp()) {
        llvm::ArrayRef<unsigned> next =
            index.getOperandIds(*index.lookup(cond)).drop_front();
        for (unsigned i = 0; i < index.getNumResults(idx) && i < next.size();
             ++i)
          copy(index.getResultId(idx, i), next[i]);
      }
      continue;
    }

    // Start when the latest operand is ready; remember it for aliases.
    int64_t start = 0;
    unsigned latest = kNone;
    for (unsigned k = 0; k < f.numRead && k < operands.size(); ++k) {
      unsigned id = operands[k];
      if (id == kNone)
        continue;
      int64_t r = static_cast<int>(k) == f.tied && chainReady[id] != kNoChain
                      ? chainReady[id]
                      : ready[id];
      if (latest == kNone || r > start) {
        start = std::max(start, r);
        latest = id;
      }
    }

    if (f.shape == OpShape::If) {
      auto ifOp = cast<IfOp>(index.getOp(idx));
      longest = std::max(longest, start + f.latency);
      for (unsigned r = 0; r < 2; ++r) {
        auto [first, last] = index.getRegionRange(idx, r);
        if (first <= last)
          longest = std::max(longest, walk(first, last));
      }
      // Results: the later of the two yields.
      for (unsigned i = 0; i < index.getNumResults(idx); ++i) {
        unsigned res = index.getResultId(idx, i);
        ready[res] = 0;
        chainReady[res] = kNoChain;
        for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
          if (YieldOp yield = ifOp.getYield(*region)) {
            llvm::ArrayRef<unsigned> yielded =
                index.getOperandIds(*index.lookup(yield));
            if (i < yielded.size() && yielded[i] != kNone &&
                ready[yielded[i]] >= ready[res])
              copy(res, yielded[i]);
          }
      }
      continue;
    }

    if (!f.issued) {
      // Register aliases and constants: ready with their latest operand.
      for (unsigned i = 0; i < index.getNumResults(idx); ++i) {
        unsigned res = index.getResultId(idx, i);
        ready[res] = start;
        chainReady[res] = latest != kNone ? chainReady[latest] : kNoChain;
      }
      continue;
    }
    int64_t finish = start + f.latency;
    longest = std::max(longest, finish);
    for (unsigned i = 0; i < index.getNumResults(idx); ++i) {
      ready[index.getResultId(idx, i)] = finish;
      chainReady[index.getResultId(idx, i)] =
          f.unit == ExecUnit::MFMA ? start + f.chainLatency : kNoChain;
    }
  }
  return longest;
}
