//===- RemovedByCleanups.cpp - loop ops the optimizations remove ----------===//

#include "pipeline/opt/RemovedByCleanups.h"
#include "pipeline/opt/StepOrder.h"

#include "pipeline/Passes.h"
#include "pipeline/PipelineConfig.h"

#include "analysis/MemoryAlias.h"
#include "analysis/TargetModel.h"
#include "ir/ThisThreadDiagnostics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"

#include <string>

using namespace mlir;
using namespace waveasm;

namespace {

constexpr llvm::StringLiteral kTagPrefix = "waveasm.cleanup_tag.";

/// Whether the issue clock may count `op` as gone when the optimizations
/// remove it: an op that still issues in some rewritten form (a memory
/// access, an MFMA, a wait, a barrier, anything pinned or holding regions)
/// keeps its slot.
bool mayCountAsRemoved(Operation *op, const TargetModel &target) {
  return !op->getNumRegions() && !memReads(op) && !memWrites(op) &&
         !target.getMFMAPasses(op) && !isa<ConditionOp>(op) &&
         !isOrderingOp(op);
}

/// The tags (body positions) `loc` carries, through fused and nested
/// locations (a rewrite may fuse its inputs' locations).
void collectTags(Location loc, llvm::DenseSet<unsigned> &tags) {
  loc->walk([&](Location nested) {
    if (auto name = dyn_cast<NameLoc>(nested)) {
      StringRef text = name.getName().getValue();
      unsigned position;
      if (text.consume_front(kTagPrefix) && !text.getAsInteger(10, position))
        tags.insert(position);
    }
    return WalkResult::advance();
  });
}

} // namespace

llvm::DenseSet<Operation *> waveasm::removedByCleanups(LoopOp loop) {
  llvm::DenseSet<Operation *> removed;
  auto program = loop->getParentOfType<ProgramOp>();
  if (!program)
    return removed;
  MLIRContext *ctx = loop->getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(program.getLoc());
  IRMapping mapping;
  OpBuilder::atBlockEnd(module->getBody()).clone(*program, mapping);

  SmallVector<Operation *> bodyOps;
  for (Operation &op : loop.getBodyBlock())
    bodyOps.push_back(&op);
  auto tag = [&](unsigned position) {
    return StringAttr::get(ctx, kTagPrefix + std::to_string(position));
  };
  for (auto [i, op] : llvm::enumerate(bodyOps)) {
    Operation *copy = mapping.lookupOrNull(op);
    if (!copy)
      return removed;
    copy->setLoc(NameLoc::get(tag(i), copy->getLoc()));
  }
  // The loop itself, so its rebuilt form (LoopRewrite.h keeps a loop's
  // location) is found again.
  Operation *loopCopy = mapping.lookupOrNull(loop.getOperation());
  if (!loopCopy)
    return removed;
  unsigned loopTag = bodyOps.size();
  loopCopy->setLoc(NameLoc::get(tag(loopTag), loopCopy->getLoc()));

  WaveASMPipelineConfig config;
  config.stopBeforeAllocation = true;
  PassManager pm(ctx, ModuleOp::getOperationName());
  buildWaveASMPipeline(pm, config);
  {
    ThisThreadDiagnosticHandler quiet(ctx);
    if (failed(pm.run(*module)))
      return removed;
  }

  LoopOp cleaned;
  module->walk([&](LoopOp l) {
    llvm::DenseSet<unsigned> tags;
    collectTags(l->getLoc(), tags);
    if (tags.contains(loopTag))
      cleaned = l;
  });
  if (!cleaned)
    return removed;
  llvm::DenseSet<unsigned> kept;
  cleaned.getBodyBlock().walk(
      [&](Operation *op) { collectTags(op->getLoc(), kept); });
  // Ops equal to one another: CSE keeps one of them, and which one keeps
  // its slot decides where the slot goes, so they keep theirs here and
  // StepOrder.cpp's foldedByUnroll frees the induction variable's partial
  // sums but its own step. (The copies of the loop control the LDS
  // deepening adds, k + 1 for the loads steps ahead: with CSE's choice,
  // the step's own add freed, the direct mxfp4 loop's 5-stage kernel at
  // 128 K steps took 4645 -> 4765 est_cycles.)
  llvm::DenseSet<Operation *> duplicated;
  for (auto [i, a] : llvm::enumerate(bodyOps))
    for (Operation *b : ArrayRef(bodyOps).drop_front(i + 1))
      if (a->getName() == b->getName() &&
          OperationEquivalence::isEquivalentTo(
              a, b, OperationEquivalence::IgnoreLocations)) {
        duplicated.insert(a);
        duplicated.insert(b);
      }
  const TargetModel &target = TargetModel::get(program.getTargetKind());
  for (auto [i, op] : llvm::enumerate(bodyOps))
    if (!kept.contains(i) && !duplicated.contains(op) &&
        mayCountAsRemoved(op, target))
      removed.insert(op);
  return removed;
}
