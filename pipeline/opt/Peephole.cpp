//===- Peephole.cpp - waveasm-peephole ------------------------------------===//
//
// `waveasm-peephole` (SPEC.md 18.2, 18.4, 18.5): the instruction-combining
// patterns of PeepholeArithmetic.cpp and the direct-to-LDS soffset rewrite
// of PeepholeLDSSoffset.cpp, applied together until none matches (so the
// lshl+add fusion and the soffset rewrite see each other's results, as with
// upstream's greedy driver). `-debug-only=waveasm-peephole` logs every
// applied rule and every near miss with its reason.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Passes.h"
#include "pipeline/opt/PatternDriver.h"
#include "pipeline/opt/PeepholePatterns.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "waveasm-peephole"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMPEEPHOLE
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

struct PeepholePass : public waveasm::impl::WaveASMPeepholeBase<PeepholePass> {
  void runOnOperation() override {
    // Built per run: the soffset rewrite caches SCC liveness of this
    // program's blocks.
    RewritePatternSet patterns(&getContext());
    populatePeepholeArithmeticPatterns(patterns);
    populateLDSSoffsetPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    if (!applyPatternsWithWorklist(getOperation(), frozen, DEBUG_TYPE,
                                   peepholeAnyOpMayMatch))
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] no rule applies to @"
                              << getOperation().getSymName() << "\n");
  }
};

} // namespace
