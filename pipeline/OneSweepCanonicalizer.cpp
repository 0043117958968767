//===- OneSweepCanonicalizer.cpp - canonicalize in one sweep --------------===//
//
// Upstream's pipeline runs `canonicalize`. The WaveASM dialect registers no
// canonicalization pattern, no folder (neither ODS `hasFolder` nor a folding
// trait nor a dialect fold interface) and no ConstantLike op, so on WaveASM
// IR the greedy driver can only erase trivially dead ops, and its worklist
// reaches that fixpoint in the first sweep (erasing an op queues the
// definitions of its operands): the default's confirming second sweep, and
// region simplification (region DCE, which finds nothing more in
// single-block structured regions where no block argument is a successor
// operand), are left out. Beyond that, the greedy driver still offers every
// op to the constant check, its fold hook and the pattern applicator, which
// was four fifths of the pass; when the IR is WaveASM only and the pattern
// set has nothing for its ops, one reverse post-order sweep that erases
// trivially dead ops gives the same IR (users come before their
// definitions in that order, so a chain dies in one sweep; a sweep that
// erased something is confirmed by another). Anything else (another
// dialect's ops, patterns for WaveASM ops) runs the greedy driver as the
// canonicalizer does. tests/unit/CanonicalizerTest.cpp compares both on
// random programs and on the examples at the pipeline's position.
//
//===----------------------------------------------------------------------===//

#include "pipeline/OneSweepCanonicalizer.h"

#include "ir/Dialect.h"
#include "ir/OpClassTable.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// The dead-op sweeps, with the facts they ask of every op read once per
/// op class (a trait or interface query is a search through a type-erased
/// callback, and most ops are asked twice), kept per thread by TypeID as
/// lookupInstFacts keeps its facts (per run, each run asked again for every
/// class it met).
class DeadOpEraser {
public:
  /// Whether the greedy driver could do more than erase dead ops in
  /// `root`'s regions: an op of another dialect (its patterns or folders)
  /// or a constant (uniqued and hoisted).
  bool needsGreedyDriver(Operation *root) {
    for (Region &region : root->getRegions())
      if (needsGreedyDriver(region))
        return true;
    return false;
  }

  /// Erases trivially dead ops until none is left.
  void run(Operation *root) {
    for (Region &region : root->getRegions())
      while (eraseOnce(region)) {
      }
  }

private:
  enum : uint8_t {
    /// A WaveASM op that is not ConstantLike.
    Plain = 1,
    /// wouldOpBeTriviallyDead (asked only of ops without regions).
    DeadIfUnused = 2,
  };

  /// An unregistered op is not Plain (the greedy driver runs), and none is
  /// dead: its effects are unknown.
  static uint8_t classFacts(Operation *op) {
    if (!op->isRegistered())
      return 0;
    static thread_local OpClassTable<uint8_t, 512> table;
    return table.get(op, [](Operation *op) {
      uint8_t facts = 0;
      if (isa<WaveASMDialect>(op->getDialect()) &&
          !op->hasTrait<::mlir::OpTrait::ConstantLike>())
        facts |= Plain;
      // The WaveASM ops' memory effects come from their ODS traits, the
      // same for every op of a class; an op with regions is asked each
      // time (its nested ops decide).
      if (op->getNumRegions() == 0 && wouldOpBeTriviallyDead(op))
        facts |= DeadIfUnused;
      return facts;
    });
  }

  bool needsGreedyDriver(Region &region) {
    for (Block &block : region)
      for (Operation &op : block) {
        if (!(classFacts(&op) & Plain))
          return true;
        for (Region &nested : op.getRegions())
          if (needsGreedyDriver(nested))
            return true;
      }
    return false;
  }

  bool isTriviallyDead(Operation *op) {
    if (!op->use_empty())
      return false;
    if (op->getNumRegions())
      return wouldOpBeTriviallyDead(op);
    return classFacts(op) & DeadIfUnused;
  }

  /// Erases the trivially dead ops of `region`, last op first, nested
  /// regions before their op. Returns whether anything was erased.
  bool eraseOnce(Region &region) {
    bool erased = false;
    for (Block &block : llvm::reverse(region)) {
      Operation *op = block.empty() ? nullptr : &block.back();
      while (op) {
        Operation *prev = op->getPrevNode();
        for (Region &nested : op->getRegions())
          erased |= eraseOnce(nested);
        if (isTriviallyDead(op)) {
          op->erase();
          erased = true;
        }
        op = prev;
      }
    }
    return erased;
  }
};

class OneSweepCanonicalizer
    : public PassWrapper<OneSweepCanonicalizer, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OneSweepCanonicalizer)

  explicit OneSweepCanonicalizer(bool deadOpFastPath)
      : deadOpFastPath(deadOpFastPath) {
    config.setMaxIterations(1);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  }

  // The canonicalizer's names: --mlir-print-ir-after=canonicalize, the
  // pipeline snapshots and timing reports name it as before.
  StringRef getArgument() const override { return "canonicalize"; }
  StringRef getName() const override { return "Canonicalizer"; }
  StringRef getDescription() const override {
    return "Canonicalize operations (one sweep, no region simplification)";
  }

  LogicalResult initialize(MLIRContext *context) override {
    // As the canonicalizer collects them.
    RewritePatternSet owningPatterns(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owningPatterns);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owningPatterns, context);
    patterns =
        std::make_shared<FrozenRewritePatternSet>(std::move(owningPatterns));
    waveasm = context->getLoadedDialect<WaveASMDialect>();
    patternsForWaveASM =
        !patterns->getMatchAnyOpNativePatterns().empty() ||
        patterns->getPDLByteCode() ||
        llvm::any_of(patterns->getOpSpecificNativePatterns(), [&](auto &it) {
          return it.first.getDialect() == waveasm;
        });
    return success();
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    if (deadOpFastPath && waveasm && !patternsForWaveASM) {
      DeadOpEraser eraser;
      if (!eraser.needsGreedyDriver(root)) {
        eraser.run(root);
        return;
      }
    }
    (void)applyPatternsGreedily(root, *patterns, config);
  }

private:
  bool deadOpFastPath;
  GreedyRewriteConfig config;
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
  Dialect *waveasm = nullptr;
  bool patternsForWaveASM = true;
};

} // namespace

std::unique_ptr<Pass>
waveasm::createOneSweepCanonicalizer(bool deadOpFastPath) {
  return std::make_unique<OneSweepCanonicalizer>(deadOpFastPath);
}
