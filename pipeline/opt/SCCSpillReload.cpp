//===- SCCSpillReload.cpp - save SCC values across SCC writers ------------===//
//
// `waveasm-scc-spill-reload` (SPEC.md 19): an `!waveasm.scc` value whose
// reader runs after another SCC writer (SCCClobbers.h: the ops between them,
// a loop body it is re-read after, an `if` that tests an SGPR) is saved
// right after its producer,
//
//   %saved = waveasm.s_cselect_b32 %scc, 1, 0     // SGPR = SCC ? 1 : 0
//
// and re-created right before each such reader, which then reads the copy:
//
//   %again = waveasm.s_cmp_ne_u32 %saved, 0       // SCC = saved != 0
//
// Readers with nothing in between keep the original value. The saved SGPR
// is virtual: the pass runs before register allocation (production order).
//
// A reload is an SCC writer itself and can separate another pair that was
// fine before; the pass therefore repeats until every reader is satisfied
// (a reader that got a reload never needs another, so this ends; a second
// round happens only when pairs interleave). Upstream: reloads in one round
// only, so interleaved pairs stay broken; readers in another block are always
// reloaded, here only when something overwrites SCC on the way.
//
//===----------------------------------------------------------------------===//

#include "pipeline/ForEachOp.h"
#include "pipeline/Passes.h"
#include "pipeline/SCCClobbers.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#include <optional>

#define DEBUG_TYPE "waveasm-scc-spill-reload"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMSCCSPILLRELOAD
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

/// Every SCC use whose value is overwritten before the reader, grouped by
/// the value (in program order), by `clobbers()` of the program as it is
/// (asked only for a reader that does not directly follow its producer).
llvm::MapVector<Value, SmallVector<OpOperand *>>
findClobberedUses(ProgramOp program,
                  llvm::function_ref<const SCCClobbers &()> clobbers) {
  llvm::MapVector<Value, SmallVector<OpOperand *>> found;
  forEachOpPostOrder(program.getBody(), [&](Operation *consumer) {
    for (OpOperand &use : consumer->getOpOperands()) {
      // The type first: it is read inline, the definition out of line.
      Value value = use.get();
      if (!isa<SCCType>(value.getType()))
        continue;
      Operation *producer = value.getDefiningOp();
      if (!producer || readsRightAfter(producer, consumer))
        continue;
      if (clobbers().clobberedBetween(producer, consumer))
        found[value].push_back(&use);
    }
  });
  return found;
}

struct SCCSpillReloadPass
    : public waveasm::impl::WaveASMSCCSpillReloadBase<SCCSpillReloadPass> {
  void runOnOperation() override {
    ProgramOp program = getOperation();
    MLIRContext *ctx = &getContext();
    Type sccType = SCCType::get(ctx);
    Type sgprType = SRegType::get(ctx, 1, 1);
    Type oneType = ImmType::get(ctx, 1), zeroType = ImmType::get(ctx, 0);
    // Per spilled value: the saved SGPR and the zero it is compared with.
    llvm::DenseMap<Value, std::pair<Value, Value>> saved;
    unsigned reloads = 0, rounds = 0;
    while (true) {
      // The first round asks the analysis manager: when nothing is
      // clobbered the pass preserves it and the SCC verifier, which runs
      // next, reuses it. Later rounds see the reloads of the previous one.
      // Either is built only once a reader does not directly follow its
      // producer.
      std::optional<SCCClobbers> fresh;
      const SCCClobbers *built = nullptr;
      auto clobbers = [&]() -> const SCCClobbers & {
        if (!built)
          built = rounds == 0 ? &getAnalysis<SCCClobbers>()
                              : &fresh.emplace(program);
        return *built;
      };
      auto clobbered = findClobberedUses(program, clobbers);
      if (clobbered.empty())
        break;
      ++rounds;
      for (auto &[value, uses] : clobbered) {
        auto [it, fresh] = saved.try_emplace(value);
        if (fresh) {
          OpBuilder b(ctx);
          b.setInsertionPointAfter(value.getDefiningOp());
          Location loc = value.getLoc();
          Value one = ConstantOp::create(b, loc, oneType, 1);
          Value zero = ConstantOp::create(b, loc, zeroType, 0);
          Value spill =
              S_CSELECT_B32::create(b, loc, sgprType, value, one, zero);
          it->second = {spill, zero};
        }
        auto [spill, zero] = it->second;
        for (OpOperand *use : uses) {
          Operation *consumer = use->getOwner();
          OpBuilder b(consumer);
          use->set(S_CMP_NE_U32::create(b, consumer->getLoc(), sccType, spill,
                                        zero));
          ++reloads;
        }
      }
    }
    LLVM_DEBUG({
      if (reloads == 0)
        llvm::dbgs() << DEBUG_TYPE ": @" << program.getSymName()
                     << ": no SCC value is overwritten before a reader; "
                        "nothing to do\n";
      else
        llvm::dbgs() << DEBUG_TYPE ": @" << program.getSymName() << ": saved "
                     << saved.size() << " SCC value(s), " << reloads
                     << " reload(s) in " << rounds << " round(s)\n";
    });
    if (reloads == 0)
      markAllAnalysesPreserved();
  }
};

} // namespace
