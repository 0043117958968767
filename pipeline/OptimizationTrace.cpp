//===- OptimizationTrace.cpp - what each optimization did to each loop ----===//

#include "pipeline/OptimizationTrace.h"

#include "analysis/IssueRules.h"
#include "analysis/Liveness.h"
#include "analysis/ProgramIndex.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace waveasm;

namespace {

const void *keyOf(LoopOp loop) { return loop.getLoc().getAsOpaquePointer(); }

/// The programs a pass ran on: the op itself or those it contains.
SmallVector<ProgramOp> programsOf(Operation *op) {
  SmallVector<ProgramOp> out;
  if (auto program = dyn_cast<ProgramOp>(op))
    out.push_back(program);
  else
    op->walk<WalkOrder::PreOrder>([&](ProgramOp program) {
      out.push_back(program);
      return WalkResult::skip();
    });
  return out;
}

/// Issued instructions per innermost loop body, by the loop's location.
llvm::DenseMap<const void *, LoopOpCounts> countLoopBodies(ProgramOp program) {
  llvm::DenseMap<const void *, LoopOpCounts> counts;
  program.walk([&](LoopOp loop) { counts[keyOf(loop)]; });
  program.walk([&](Operation *op) {
    InstFacts facts = lookupInstFacts(op);
    if (!takesIssueSlot(op, facts))
      return;
    auto loop = op->getParentOfType<LoopOp>();
    if (!loop)
      return;
    LoopOpCounts &c = counts[keyOf(loop)];
    if (facts.unit == ExecUnit::VALU)
      ++c.valu;
    else if (facts.unit == ExecUnit::SALU)
      ++c.salu;
    else
      ++c.other;
  });
  return counts;
}

/// The peak of live VGPRs over each loop's body, by location.
llvm::DenseMap<const void *, int64_t> liveVGPRPeaks(ProgramOp program) {
  ProgramIndex index(program);
  Liveness liveness(index);
  llvm::DenseMap<const void *, int64_t> peaks;
  for (unsigned loopIdx : index.getLoops()) {
    auto [first, last] = index.getRegionRange(loopIdx, 0);
    int64_t peak = 0;
    for (unsigned i = first; i <= last && i < index.getNumOps(); ++i)
      peak = std::max<int64_t>(peak, liveness.getPressure(i).vgprs());
    peaks[keyOf(cast<LoopOp>(index.getOp(loopIdx)))] = peak;
  }
  return peaks;
}

LoopOpCounts operator-(const LoopOpCounts &a, const LoopOpCounts &b) {
  return {a.valu - b.valu, a.salu - b.salu, a.other - b.other};
}

bool operator!=(const LoopOpCounts &a, const LoopOpCounts &b) {
  return a.valu != b.valu || a.salu != b.salu || a.other != b.other;
}

} // namespace

void OptimizationTracer::reset() {
  std::lock_guard<std::mutex> lock(mutex);
  programs.clear();
}

void OptimizationTracer::runBeforePass(Pass *pass, Operation *op) {
  // Allocation ends the optimizations; the trace stops there.
  bool allocation = pass->getArgument() == "waveasm-linear-scan";
  for (ProgramOp program : programsOf(op)) {
    std::lock_guard<std::mutex> lock(mutex);
    auto [it, fresh] = programs.try_emplace(program.getOperation());
    if (fresh) {
      llvm::DenseMap<const void *, int64_t> live = liveVGPRPeaks(program);
      for (auto &[key, counts] : countLoopBodies(program)) {
        LoopState &state = it->second.loops[key];
        state.counts = state.effect.before = counts;
        state.effect.liveVGPRsBefore = live.lookup(key);
      }
    }
    if (allocation && !it->second.done)
      finish(program);
  }
}

void OptimizationTracer::runAfterPass(Pass *pass, Operation *op) {
  for (ProgramOp program : programsOf(op)) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = programs.find(program.getOperation());
    if (it == programs.end() || it->second.done)
      continue;
    for (auto &[key, counts] : countLoopBodies(program)) {
      LoopState &state = it->second.loops[key];
      if (counts != state.counts)
        state.effect.passes.push_back(
            {pass->getArgument().str(), counts - state.counts});
      state.counts = counts;
    }
  }
}

void OptimizationTracer::finish(ProgramOp program) {
  ProgramState &state = programs[program.getOperation()];
  llvm::DenseMap<const void *, int64_t> live = liveVGPRPeaks(program);
  for (auto &[key, loop] : state.loops) {
    loop.effect.after = loop.counts;
    loop.effect.liveVGPRsAfter = live.lookup(key);
  }
  state.done = true;
}

std::vector<LoopOptimizationEffect>
OptimizationTracer::takeEffects(ProgramOp program) {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<LoopOptimizationEffect> effects;
  auto it = programs.find(program.getOperation());
  if (it == programs.end())
    return effects;
  if (!it->second.done)
    finish(program);
  program.walk<WalkOrder::PreOrder>([&](LoopOp loop) {
    auto found = it->second.loops.find(keyOf(loop));
    if (found == it->second.loops.end() || !found->second.effect.changed())
      return;
    LoopOptimizationEffect effect = std::move(found->second.effect);
    effect.loop = loop;
    effects.push_back(std::move(effect));
  });
  programs.erase(it);
  return effects;
}
