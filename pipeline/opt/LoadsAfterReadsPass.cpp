//===- LoadsAfterReadsPass.cpp - direct-to-LDS loads after the reads ------===//
//
// `waveasm-loads-after-reads`: pipeline/opt/LoadsAfterReads.h on every
// innermost loop (or the one `loop` names), without a measurement: a remark
// says what moved or why nothing did. `waveasm-pipeline-loops` applies the
// same reorder where the pipelined program gets faster.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Passes.h"
#include "pipeline/opt/LoadsAfterReads.h"
#include "pipeline/opt/LoopRewrite.h"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMLOADSAFTERREADS
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

struct LoadsAfterReadsPass
    : public waveasm::impl::WaveASMLoadsAfterReadsBase<LoadsAfterReadsPass> {
  using WaveASMLoadsAfterReadsBase::WaveASMLoadsAfterReadsBase;

  void runOnOperation() override {
    for (LoopOp loop : selectInnermostLoops(getOperation(), loopIndex)) {
      LoadsAfterReads plan = planLoadsAfterReads(loop);
      if (!plan.ok()) {
        loop.emitRemark("direct-to-LDS loads not moved: ") << plan.failure;
        continue;
      }
      applyLoadsAfterReads(plan);
      loop.emitRemark("direct-to-LDS loads issued after the LDS reads: ")
          << plan.moved.size() << " ops moved before the barrier";
    }
  }
};

} // namespace
