//===- AdoptTrialAllocation.cpp - take promotion's trial allocation -------===//
//
// When may the linear scan take the trial's registers (TrialAllocation.h)?
// The trial allocated a copy of this very program (same ops, attributes and
// types; every pass since preserved the analysis) with other limits. A
// linear scan's limits change its result in two places only: a range that
// finds no room fails, and long VGPR tuples are placed from a ceiling of
// min(limit, live peak + reserved registers). So the results are the same
// when the same SGPR file and threshold were used, and the trial's VGPRs,
// AGPRs and precolored ranges all lie below this scan's limits with one
// register to spare (then the live peak plus the reserved registers,
// v15 included, is below both limits, and so is every register either
// scan can pick).
//
//===----------------------------------------------------------------------===//

#include "pipeline/TrialAllocation.h"

#include "pipeline/Literals.h"
#include "pipeline/LiveIntervals.h"

#include "ir/TargetInfo.h"

#include "llvm/Support/Debug.h"

#include <algorithm>
#include <atomic>

#define DEBUG_TYPE "waveasm-linear-scan"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::regalloc;

namespace {

std::atomic<uint64_t> adopted{0};

bool sameAllocation(ProgramOp program, const TrialAllocation &trial,
                    const AllocationLimits &limits) {
  const TargetInfo &target = getTargetInfo(program.getTargetKind());
  auto clamp = [](int64_t value, int64_t max) {
    return std::clamp<int64_t>(value, 0, max);
  };
  int64_t vgprs = clamp(limits.maxVGPRs, target.maxArchVGPRs);
  int64_t agprs = clamp(limits.maxAGPRs, target.maxAGPRs);
  if (limits.bidirectionalThreshold != trial.bidirectionalThreshold ||
      clamp(limits.maxSGPRs, target.maxSGPRs) !=
          clamp(trial.maxSGPRs, target.maxSGPRs) ||
      vgprs <= kScratchVGPR ||
      clamp(trial.maxVGPRs, target.maxArchVGPRs) < vgprs ||
      clamp(trial.maxAGPRs, target.maxAGPRs) < agprs)
    return false;
  int64_t vgprEnd = trial.peaks.vgpr, agprEnd = trial.peaks.agpr;
  WalkResult walk = program.getBody().walk([&](Operation *op) {
    if (std::optional<PrecoloredRange> range = getPrecoloredRange(op)) {
      int64_t end = range->index + range->size;
      if (range->cls == RegClass::VGPR)
        vgprEnd = std::max(vgprEnd, end);
      else if (range->cls == RegClass::AGPR)
        agprEnd = std::max(agprEnd, end);
    }
    return WalkResult::advance();
  });
  (void)walk;
  return vgprEnd + 1 <= vgprs && agprEnd <= agprs;
}

} // namespace

bool waveasm::adoptTrialAllocation(ProgramOp program, TrialAllocation &trial,
                                   const AllocationLimits &limits) {
  if (!trial.ready() || !sameAllocation(program, trial, limits))
    return false;
  Block &mine = program.getBody().front();
  Block &theirs = trial.copy.getBody().front();
  if (program.getBody().getBlocks().size() != 1 ||
      trial.copy.getBody().getBlocks().size() != 1 ||
      mine.getNumArguments() != 0 || theirs.getNumArguments() != 0 ||
      program->getAttrDictionary() != trial.copy->getAttrDictionary())
    return false;
  // Every op of the program must still be the one the trial copied, in
  // the same walk order.
  size_t next = 0;
  WalkResult walk = program.getBody().walk([&](Operation *op) {
    if (next == trial.copyOf.size() || trial.copyOf[next].first != op)
      return WalkResult::interrupt();
    ++next;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || next != trial.copyOf.size())
    return false;

  // Each op of the program becomes its copy as allocated (or nothing, when
  // the allocation erased it), for compile-and-measure's op map; recorded
  // while the ops are still in the program. Without a scope of the
  // program's (waveasm-opt) nothing would be recorded: the loop with two
  // locked lookups per op saved.
  if (hasDeferredEraseScope(program))
    for (auto [op, copy] : trial.copyOf)
      if (Operation *live = trial.erased->live(copy))
        noteReplacement(op, live);
  discardOps(mine);
  mine.getOperations().splice(mine.end(), theirs.getOperations());
  trial.copyOf.clear();
  ++adopted;
  LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": @" << program.getSymName()
                          << ": the allocation of loop address promotion's "
                             "trial, taken as it is\n");
  return true;
}

uint64_t waveasm::getAdoptedTrialAllocations() { return adopted.load(); }
