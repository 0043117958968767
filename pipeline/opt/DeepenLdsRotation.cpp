//===- DeepenLdsRotation.cpp - LDS buffers rotated by hand made more ------===//
//
// `waveasm-deepen-lds-rotation`: pipeline/opt/LdsDeepening.h on every
// innermost loop (or the one `loop` names) before allocation, without a
// measurement: a remark says what was done or why not, and a loop that is
// refused is left as it was. `waveasm-pipeline-loops` applies the same
// rewrite where the compiled program gets faster (`lds-buffers`).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Passes.h"
#include "pipeline/opt/LdsDeepening.h"
#include "pipeline/opt/LoopRewrite.h"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMDEEPENLDSROTATION
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

struct DeepenLdsRotationPass
    : public waveasm::impl::WaveASMDeepenLdsRotationBase<
          DeepenLdsRotationPass> {
  using WaveASMDeepenLdsRotationBase::WaveASMDeepenLdsRotationBase;

  void runOnOperation() override {
    if (buffers != 0 && (buffers < 3 || buffers > kMaxLdsBuffers)) {
      getOperation().emitError("waveasm-deepen-lds-rotation: buffers must "
                               "be 0 or 3 to ")
          << kMaxLdsBuffers << ", not " << int(buffers);
      return signalPassFailure();
    }
    if (spare < 0 || spare > 1 || (spare && buffers < 4)) {
      getOperation().emitError("waveasm-deepen-lds-rotation: spare must be "
                               "0, or 1 with 4 or more buffers, not ")
          << int(spare);
      return signalPassFailure();
    }
    for (LoopOp loop : selectInnermostLoops(getOperation(), loopIndex)) {
      LdsDeepening plan = planLdsDeepening(loop, buffers, spare);
      if (!plan.ok()) {
        loop.emitRemark("LDS rotation not deepened: ") << plan.failure;
        continue;
      }
      Location loc = loop.getLoc();
      applyLdsDeepening(plan);
      emitRemark(loc) << "LDS rotation deepened to " << plan.buffers
                      << " buffers, loads "
                      << plan.distance + plan.aheadIterations()
                      << " steps ahead; lds_size " << plan.ldsBefore << " -> "
                      << plan.ldsAfter;
    }
  }
};

} // namespace
