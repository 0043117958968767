//===- AssignLoopStages.cpp - stage annotations of loop bodies ------------===//
//
// `waveasm-assign-loop-stages`: writes analysis/LoopStages.h's assignment
// as attributes (`waveasm.stage`, `waveasm.cluster` on body ops,
// `waveasm.num_stages` on the loop), which the language server shows as
// inlay hints and `waveasm-pipeline-loops` reads. Innermost loops before
// allocation only; a loop that cannot be pipelined gets a remark saying
// which dependence forbids it, and no attribute.
//
//===----------------------------------------------------------------------===//

#include "analysis/LoopStages.h"
#include "pipeline/Passes.h"
#include "pipeline/opt/LoopRewrite.h"

#include "mlir/IR/Builders.h"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMASSIGNLOOPSTAGES
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

struct AssignLoopStagesPass
    : public waveasm::impl::WaveASMAssignLoopStagesBase<AssignLoopStagesPass> {
  using WaveASMAssignLoopStagesBase::WaveASMAssignLoopStagesBase;

  void runOnOperation() override {
    if (numStages < 2) {
      getOperation().emitError("num-stages must be at least 2");
      return signalPassFailure();
    }
    SmallVector<LoopOp> loops;
    getOperation()->walk<WalkOrder::PreOrder>(
        [&](LoopOp l) { loops.push_back(l); });
    for (auto [i, loop] : llvm::enumerate(loops)) {
      if (loopIndex >= 0 && int64_t(i) != loopIndex)
        continue;
      bool nested = loop.getBodyBlock()
                        .walk([](LoopOp) { return WalkResult::interrupt(); })
                        .wasInterrupted();
      if (nested || isRegisterAllocated(loop))
        continue;
      LoopStages stages = computeLoopStages(loop, numStages);
      if (!stages.ok()) {
        InFlightDiagnostic diag = loop.emitRemark("loop not pipelined: ")
                                  << stages.failure;
        if (stages.failureOp && stages.failureOp != loop)
          diag.attachNote(stages.failureOp->getLoc()) << "here";
        continue;
      }
      Builder b(loop);
      for (auto [op, stage, cluster] :
           llvm::zip(stages.ops, stages.stages, stages.clusters)) {
        op->setAttr(kStageAttrName, b.getI32IntegerAttr(stage));
        op->setAttr(kClusterAttrName, b.getI32IntegerAttr(cluster));
      }
      loop->setAttr(kNumStagesAttrName, b.getI32IntegerAttr(numStages));
    }
  }
};

} // namespace
