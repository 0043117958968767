//===- RedundantLoadElim.cpp - waveasm-redundant-load-elim ----------------===//
//
// Seed 004: each load analysis/RedundantLoads.h finds is replaced by the
// earlier identical load (uses redirected, the repeat erased). The
// analysis is the one the language server's `redundantLoad` lint reports.
//
//===----------------------------------------------------------------------===//

#include "pipeline/DeferredErase.h"
#include "pipeline/Passes.h"

#include "analysis/RedundantLoads.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "waveasm-redundant-load-elim"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMREDUNDANTLOADELIM
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

struct RedundantLoadElimPass
    : public waveasm::impl::WaveASMRedundantLoadElimBase<
          RedundantLoadElimPass> {
  void runOnOperation() override {
    std::vector<RedundantLoad> found = findRedundantLoads(getOperation());
    for (const RedundantLoad &r : found) {
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << r.load->getLoc()
                              << " reuses " << r.earlier->getLoc() << "\n");
      r.load->replaceAllUsesWith(r.earlier->getResults());
      eraseOp(r.load);
    }
    if (found.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace
