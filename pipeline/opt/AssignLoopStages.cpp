//===- AssignLoopStages.cpp - stage annotations of loop bodies ------------===//
//
// `waveasm-assign-loop-stages`: writes analysis/LoopStages.h's assignment
// as attributes (`waveasm.stage`, `waveasm.cluster` on body ops,
// `waveasm.num_stages` on the loop), which the language server shows as
// inlay hints and `waveasm-pipeline-loops` reads. Innermost loops before
// allocation only; a loop that cannot be pipelined gets a remark saying
// which dependence forbids it, and no attribute. Stages that need LDS
// copies (ping/pong) are written only when the copies fit the target (else
// the LDS traffic keeps one stage); iter_args rotated by hand get the
// explicit copy the pipeliner needs (pipeline/opt/RotatedIterArgs.h), kept
// only when the loop is annotated.
//
//===----------------------------------------------------------------------===//

#include "analysis/LoopStages.h"
#include "pipeline/Passes.h"
#include "pipeline/opt/LdsCopies.h"
#include "pipeline/opt/LoopRewrite.h"
#include "pipeline/opt/RotatedIterArgs.h"

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
    for (LoopOp loop : selectInnermostLoops(getOperation(), loopIndex)) {
      RotationCopies rotations = RotationCopies::materialize(loop);
      if (!rotations.ok()) {
        loop.emitRemark("loop not pipelined: ") << rotations.failure;
        continue;
      }
      LoopStages stages = computeLoopStages(loop, numStages);
      if (stages.ok() && stages.ldsCopies > 1 &&
          !planLdsCopies(loop, stages.ldsCopies).ok())
        stages = computeLoopStages(loop, numStages, /*allowLdsCopies=*/false);
      if (!stages.ok()) {
        rotations.undo();
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
