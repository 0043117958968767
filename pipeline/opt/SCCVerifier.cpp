//===- SCCVerifier.cpp - SCC values overwritten before their use ----------===//
//
// `waveasm-scc-verifier` (SPEC.md 19): an op reading an `!waveasm.scc` value
// needs SCC to still hold it, i.e. no other SCC writer may run between the
// producer and the consumer (SPEC.md 11.4). Each violation is an error at
// the consumer:
//
//   SCC hazard: <n> SCC-clobbering op(s) between SCC producer '<op>' and
//   consumer '<op>'
//
// with a note `SCC clobbered here by '<op>'` at each writer and `SCC defined
// here` at the producer. Writers and paths are SCCClobbers' (implicit SCC
// definitions from InstInfoOpInterface, SGPR tests of `if`/`condition`).
//
// Upstream: checks only producer/consumer pairs in the same block. A
// consumer nested in an `if` or a loop reads SCC after the ops before it in
// every enclosing block (and after a whole loop body, from the second
// iteration), so those pairs are checked along that path too; the emitter
// would reject them anyway.
//
//===----------------------------------------------------------------------===//

#include "pipeline/ForEachOp.h"
#include "pipeline/Passes.h"
#include "pipeline/SCCClobbers.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "waveasm-scc-verifier"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMSCCVERIFIER
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

struct SCCVerifierPass
    : public waveasm::impl::WaveASMSCCVerifierBase<SCCVerifierPass> {
  void runOnOperation() override {
    ProgramOp program = getOperation();
    // Usually the spill/reload pass's, when it changed nothing; built only
    // for a pair whose consumer does not directly follow its producer.
    const SCCClobbers *clobbersOrNull = nullptr;
    auto clobbers = [&]() -> const SCCClobbers & {
      if (!clobbersOrNull)
        clobbersOrNull = &getAnalysis<SCCClobbers>();
      return *clobbersOrNull;
    };
    bool failed = false;
    unsigned pairs = 0;
    forEachOpPostOrder(program.getBody(), [&](Operation *consumer) {
      for (Value operand : consumer->getOperands()) {
        if (!isa<SCCType>(operand.getType()))
          continue;
        Operation *producer = operand.getDefiningOp();
        if (!producer)
          continue;
        ++pairs;
        if (readsRightAfter(producer, consumer) ||
            !clobbers().clobberedBetween(producer, consumer))
          continue;
        SmallVector<Operation *> writers =
            clobbers().collectBetween(producer, consumer);
        InFlightDiagnostic diag =
            consumer->emitError()
            << "SCC hazard: " << writers.size()
            << " SCC-clobbering op(s) between SCC producer '"
            << producer->getName() << "' and consumer '" << consumer->getName()
            << "'";
        for (Operation *writer : writers)
          diag.attachNote(writer->getLoc())
              << "SCC clobbered here by '" << writer->getName() << "'";
        diag.attachNote(producer->getLoc()) << "SCC defined here";
        failed = true;
      }
    });
    LLVM_DEBUG(llvm::dbgs()
               << DEBUG_TYPE ": @" << program.getSymName() << ": checked "
               << pairs << " SCC producer/consumer pairs\n");
    if (failed)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
