//===- LoopAddressPromotion.cpp - rotating LDS addresses as iter_args -----===//
//
// `waveasm-loop-address-promotion` (SPEC.md 18.7). Multi-buffered LDS base
// pointers rotate through SGPR iter_args: with sigma(i) = j when iter_arg i
// is block argument j (both SGPRs), a cycle G of sigma of length N > 1 is a
// "rotation group", and block argument G[p] holds init[G[(p + t) mod N]] in
// iteration t. A `v_add_u32` of the body that feeds a `ds_read*`, with one
// operand defined outside the loop (`inv`) and the other a block argument
// G[p] of a rotation group, is therefore the t-th of N values known before
// the loop. It is promoted: N adds `v_add_u32(inv, init[G[(p + k) mod N]])`,
// k = 0..N-1, are placed before the loop and carried as N new VGPR
// iter_args whose yields rotate by one (arg k yields arg k+1 mod N); the add
// in the body is replaced by new block argument 0 and erased. Adds with the
// same two operands share one set of iter_args. Inner loops first.
//
// The body then does no VALU LDS-address arithmetic, at the cost of N live
// VGPRs per promoted add (upstream's production driver recompiles without
// this pass when the kernel then needs more than 256 VGPRs).
// An add that does not qualify is left alone; `--debug-only=<flag name>`
// says why.
//
//===----------------------------------------------------------------------===//

#include "ir/ThisThreadDiagnostics.h"
#include "pipeline/AllocatedLiveModel.h"
#include "pipeline/CloneInOrder.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/Passes.h"
#include "pipeline/TrialAllocation.h"
#include "pipeline/opt/LoopRewrite.h"
#include "pipeline/opt/VectorPressureBound.h"

#include "analysis/Liveness.h"
#include "analysis/Metrics.h"
#include "analysis/ProgramIndex.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "waveasm-loop-address-promotion"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMLOOPADDRESSPROMOTION
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

bool isLDSRead(Operation *op) {
  return isa<DS_READ_B32, DS_READ_B64, DS_READ_B128, DS_READ2_B32, DS_READ2_B64,
             DS_READ_U8, DS_READ_I8, DS_READ_U16, DS_READ_I16>(op);
}

bool isSGPRArg(Value v) { return getRegClass(v.getType()) == RegClass::SGPR; }

/// The rotation groups of a loop's SGPR block arguments.
struct Rotations {
  /// Cycles of sigma of length > 1, each in sigma order.
  SmallVector<SmallVector<unsigned>> groups;
  /// Per block argument: (group, position in it), or group -1.
  SmallVector<std::pair<int, unsigned>> groupOf;
  /// sigma, -1 where iter_arg i is not an SGPR block argument.
  SmallVector<int> sigma;
};

Rotations findRotations(LoopOp loop) {
  Block &body = loop.getBodyBlock();
  ConditionOp cond = loop.getConditionOp();
  unsigned n = body.getNumArguments();
  Rotations r;
  r.sigma.assign(n, -1);
  r.groupOf.assign(n, {-1, 0});
  for (unsigned i = 0; i < n; ++i) {
    auto arg = dyn_cast<BlockArgument>(cond.getIterArgs()[i]);
    if (arg && arg.getOwner() == &body && isSGPRArg(body.getArgument(i)) &&
        isSGPRArg(arg))
      r.sigma[i] = arg.getArgNumber();
  }
  // Cycles of a functional graph: follow each unvisited path; meeting a
  // node of the current path closes a cycle.
  enum : uint8_t { Unvisited, OnPath, Done };
  SmallVector<uint8_t> state(n, Unvisited);
  for (unsigned start = 0; start < n; ++start) {
    SmallVector<unsigned> path;
    int i = start;
    while (i >= 0 && state[i] == Unvisited) {
      state[i] = OnPath;
      path.push_back(i);
      i = r.sigma[i];
    }
    if (i >= 0 && state[i] == OnPath) {
      auto first = llvm::find(path, unsigned(i));
      SmallVector<unsigned> cycle(first, path.end());
      if (cycle.size() > 1) {
        for (auto [p, member] : llvm::enumerate(cycle))
          r.groupOf[member] = {int(r.groups.size()), unsigned(p)};
        r.groups.push_back(std::move(cycle));
      }
    }
    for (unsigned member : path)
      state[member] = Done;
  }
  return r;
}

/// A promotable add, by its operands: (invariant operand, block argument).
struct Promotion {
  Value invariant;
  BlockArgument rotating;
  bool argFirst; // the block argument is src0
  Type type;
  SmallVector<V_ADD_U32> adds;
};

void logAdd(V_ADD_U32 add, StringRef why) {
  LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE << ": v_add_u32 at " << add.getLoc()
                          << " not promoted: " << why << "\n");
}

llvm::MapVector<std::pair<Value, Value>, Promotion>
findPromotions(LoopOp loop, const Rotations &r) {
  llvm::MapVector<std::pair<Value, Value>, Promotion> promotions;
  Block &body = loop.getBodyBlock();
  for (auto add : body.getOps<V_ADD_U32>()) {
    if (llvm::none_of(add->getUsers(), isLDSRead))
      continue;
    auto argOf = [&](Value v) {
      auto arg = dyn_cast<BlockArgument>(v);
      return arg && arg.getOwner() == &body && isSGPRArg(arg) ? arg
                                                              : BlockArgument();
    };
    BlockArgument arg = argOf(add.getSrc0());
    bool argFirst = bool(arg);
    if (!arg)
      arg = argOf(add.getSrc1());
    if (!arg)
      continue; // no SGPR block argument: not an LDS base of this loop
    Value other = argFirst ? add.getSrc1() : add.getSrc0();
    if (!isDefinedOutside(other, loop)) {
      logAdd(add, "the other operand is computed in the loop");
      continue;
    }
    unsigned j = arg.getArgNumber();
    if (r.groupOf[j].first < 0) {
      logAdd(add, r.sigma[j] == int(j)
                      ? "its block argument is in a rotation group of size "
                        "1 (yielded unchanged)"
                      : "its block argument is not in a rotation group");
      continue;
    }
    Promotion &p = promotions[{other, arg}];
    if (p.adds.empty()) {
      p.invariant = other;
      p.rotating = arg;
      p.argFirst = argFirst;
      p.type = add.getType();
    } else if (p.type != add.getType()) {
      logAdd(add, "an add of the same operands has another result type");
      continue;
    }
    p.adds.push_back(add);
  }
  return promotions;
}

/// Rewrites `loop`; the ops it creates are appended to `created`, in order.
void rewriteLoop(LoopOp loop, const Rotations &r,
                 llvm::MapVector<std::pair<Value, Value>, Promotion> &promos,
                 SmallVectorImpl<Operation *> &created) {
  Block &body = loop.getBodyBlock();
  ConditionOp cond = loop.getConditionOp();
  Location loc = loop.getLoc();
  OpBuilder pre(loop);
  SmallVector<Value> inits(loop.getInitArgs());
  SmallVector<Value> iterArgs(cond.getIterArgs());
  for (auto &[key, promo] : promos) {
    auto [g, p] = r.groupOf[promo.rotating.getArgNumber()];
    ArrayRef<unsigned> group = r.groups[g];
    unsigned n = group.size();
    SmallVector<BlockArgument> args;
    for (unsigned k = 0; k < n; ++k) {
      Value base = loop.getInitArgs()[group[(p + k) % n]];
      Value lhs = promo.argFirst ? base : promo.invariant;
      Value rhs = promo.argFirst ? promo.invariant : base;
      auto init = V_ADD_U32::create(pre, loc, promo.type, lhs, rhs);
      created.push_back(init);
      inits.push_back(init);
      args.push_back(body.addArgument(promo.type, loc));
    }
    for (unsigned k = 0; k < n; ++k)
      iterArgs.push_back(args[(k + 1) % n]);
    for (V_ADD_U32 add : promo.adds) {
      add.getResult().replaceAllUsesWith(args.front());
      eraseOp(add);
    }
  }
  cond.getIterArgsMutable().assign(iterArgs);
  created.push_back(replaceLoopKeepingResults(loop, inits));
}

/// Promotes every qualifying add of `program`, inner loops first; the
/// number of loops rewritten. The ops it creates are appended to `created`
/// in order (the same on a program and its copy).
unsigned promoteProgram(ProgramOp program,
                        SmallVectorImpl<Operation *> &created) {
  unsigned rewritten = 0;
  for (LoopOp loop : collectLoopsInnerFirst(program)) {
    if (!loop.getConditionOp())
      continue;
    if (isRegisterAllocated(loop)) {
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE << ": loop at " << loop.getLoc()
                              << " not rewritten: it is register-allocated\n");
      continue;
    }
    Rotations rotations = findRotations(loop);
    auto promotions = findPromotions(loop, rotations);
    if (promotions.empty())
      continue;
    LLVM_DEBUG(llvm::dbgs()
               << DEBUG_TYPE << ": loop at " << loop.getLoc() << ": "
               << promotions.size() << " address(es) promoted\n");
    rewriteLoop(loop, rotations, promotions, created);
    ++rewritten;
  }
  return rewritten;
}

/// An upper bound of the VGPRs promoteProgram would add to `program`,
/// found without rewriting it: each promoted address becomes one loop-
/// carried VGPR per slot of its rotation group (at most 4 buffers).
unsigned boundAddedVGPRs(ProgramOp program) {
  unsigned added = 0;
  for (LoopOp loop : collectLoopsInnerFirst(program)) {
    if (!loop.getConditionOp() || isRegisterAllocated(loop))
      continue;
    Rotations rotations = findRotations(loop);
    added += 4 * findPromotions(loop, rotations).size();
  }
  return added;
}

/// Programs up to this many ops ask the pressure bound first.
constexpr unsigned kOpsForBound = 2048;

/// Whether `program` has more than `limit` ops, counted up to the first
/// past it (a walk of a large program to the end would cost more).
bool hasMoreOpsThan(ProgramOp program, unsigned limit) {
  unsigned count = 0;
  auto visit = [&](auto &self, Block &block) -> bool {
    for (Operation &op : block) {
      if (++count > limit)
        return true;
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          if (self(self, nested))
            return true;
    }
    return false;
  };
  return !program.getBody().empty() && visit(visit, program.getBody().front());
}

/// The trial's linear-scan options: VGPRs and AGPRs up to 512, so that a
/// count above the limit is known (not a failure); the rest the defaults.
WaveASMLinearScanOptions trialAllocationOptions() {
  WaveASMLinearScanOptions allocation;
  allocation.maxVGPRs = allocation.maxAGPRs = 512;
  return allocation;
}

/// What the trial found: the VGPRs the copy needs after allocation (and
/// compaction when allocation alone exceeds the limit), or nullopt when it
/// does not allocate.
struct TrialResult {
  std::optional<int64_t> vgprs;
  bool compacted = false;
  /// The copy's registers after the last run (the program's only one).
  PeakRegisters peaks;
  /// The linear scan's live model of the copy, if it handed one on.
  std::unique_ptr<regalloc::LiveModel> allocatedModel;
};

/// Moves the live model the linear scan handed on (AllocatedLiveModel.h)
/// out of the trial's pass manager, whose analyses end with its run.
struct KeepAllocatedLiveModel
    : public PassWrapper<KeepAllocatedLiveModel, OperationPass<ProgramOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KeepAllocatedLiveModel)
  explicit KeepAllocatedLiveModel(std::unique_ptr<regalloc::LiveModel> &slot)
      : slot(slot) {}
  std::unique_ptr<regalloc::LiveModel> &slot;

  void runOnOperation() override {
    markAllAnalysesPreserved();
    if (auto cached = getCachedAnalysis<AllocatedLiveModel>())
      slot = std::move(cached->get().model);
  }
};

/// Allocates `module`'s one program (the emitter's `.vgpr_count` decides
/// against `limit`). Diagnostics of the trial are swallowed: it is no
/// compile of the user's.
TrialResult allocateTrial(ModuleOp module, int64_t limit) {
  MLIRContext *ctx = module.getContext();
  ThisThreadDiagnosticHandler quiet(ctx);
  TrialResult result;
  auto run = [&](std::unique_ptr<Pass> pass,
                 bool keepModel = false) -> std::optional<int64_t> {
    PassManager pm(ctx, ModuleOp::getOperationName());
    pm.enableVerifier(false);
    OpPassManager &nested = pm.nest<ProgramOp>();
    nested.addPass(std::move(pass));
    if (keepModel)
      nested.addPass(
          std::make_unique<KeepAllocatedLiveModel>(result.allocatedModel));
    if (failed(pm.run(module)))
      return std::nullopt;
    int64_t vgprs = 0;
    // Programs do not nest: the module's top level, not a walk of its ops.
    for (ProgramOp program : module.getOps<ProgramOp>()) {
      result.peaks = computePhysicalPeaks(program);
      vgprs = std::max(vgprs, result.peaks.vgpr);
    }
    return vgprs;
  };
  result.vgprs = run(createWaveASMLinearScan(trialAllocationOptions()),
                     /*keepModel=*/true);
  if (!result.vgprs || *result.vgprs <= limit)
    return result;
  result.compacted = true;
  result.vgprs = run(createWaveASMVGPRCompaction());
  return result;
}

struct LoopAddressPromotionPass
    : public waveasm::impl::WaveASMLoopAddressPromotionBase<
          LoopAddressPromotionPass> {
  using WaveASMLoopAddressPromotionBase::WaveASMLoopAddressPromotionBase;

  void runOnOperation() override {
    ProgramOp program = getOperation();
    SmallVector<Operation *> created;
    if (vgprLimit > 0) {
      // Upstream's production driver compiles the kernel and, when its
      // .vgpr_count exceeds 256, compiles it again without this pass. The
      // trial costs as much as the real allocation: when the live VGPRs
      // plus what promotion adds stay far from the limit (allocation adds
      // alignment holes and copies, never half the peak again), promote
      // at once; otherwise a copy of the program is promoted, allocated
      // and compacted, and the program itself promoted only if it fits.
      unsigned added = boundAddedVGPRs(program);
      if (added == 0)
        return;
      auto farBelowLimit = [&](int64_t peak) {
        return peak + peak / 2 + 16 <= vgprLimit;
      };
      // The test is monotone in the peak: where a bound of the live VGPRs
      // passes it, their exact count does too (VectorPressureBound.h, half
      // of Liveness's cost), which is counted only otherwise. Past
      // kOpsForBound ops the bound is not asked: there it seldom answers
      // (every generated program of 5k instructions or more has a peak near
      // the limit and goes to the trial) and would cost on top of Liveness.
      int64_t peak = 0;
      bool bounded = false;
      if (!hasMoreOpsThan(program, kOpsForBound)) {
        peak = boundVectorRegisterPeak(program) + added;
        bounded = farBelowLimit(peak);
      }
      if (!bounded) {
        ProgramIndex index(program);
        Liveness liveness(index);
        peak = liveness.getPeak(RegClass::VGPR).regs +
               liveness.getPeak(RegClass::AGPR).regs + added;
      }
      if (farBelowLimit(peak)) {
        LLVM_DEBUG(llvm::dbgs()
                   << DEBUG_TYPE << ": program @" << program.getSymName()
                   << ": at most " << peak
                   << " VGPRs live once promoted, far below vgpr-limit "
                   << vgprLimit << " (no trial allocation)\n");
        promoteProgram(program, created);
        return;
      }
      runTrial(program, peak);
      return;
    }
    promoteProgram(program, created);
  }

  /// Promotes a copy of `program` and allocates it; promotes `program` if
  /// the copy fits, and keeps the copy's allocation for the linear scan
  /// (TrialAllocation.h) when allocation alone made it fit.
  void runTrial(ProgramOp program, int64_t peak) {
    TrialAllocation &trial = getAnalysis<TrialAllocation>();
    trial = TrialAllocation(program);
    trial.module = ModuleOp::create(program.getLoc());
    IRMapping mapping;
    trial.copy = cast<ProgramOp>(cloneInOrder(program, mapping));
    trial.module->getBody()->push_back(trial.copy);
    // The copy's erasures (promotion, allocation) are deferred while the
    // map below names the copy's ops.
    trial.erased =
        std::make_unique<DeferredEraseScope>(trial.module->getOperation());
    SmallVector<Operation *> createdInCopy;
    if (promoteProgram(trial.copy, createdInCopy) == 0)
      return;
    TrialResult result = allocateTrial(*trial.module, vgprLimit);
    if (!result.vgprs || *result.vgprs > vgprLimit) {
      LLVM_DEBUG(llvm::dbgs()
                 << DEBUG_TYPE << ": program @" << program.getSymName()
                 << " left unpromoted: promoted, it "
                 << (result.vgprs
                         ? "needs " + std::to_string(*result.vgprs) + " VGPRs"
                         : std::string("does not allocate"))
                 << " (vgpr-limit " << vgprLimit << ")\n");
      return;
    }
    LLVM_DEBUG(llvm::dbgs()
               << DEBUG_TYPE << ": program @" << program.getSymName()
               << ": promoted, it needs " << *result.vgprs << " VGPRs (" << peak
               << " live at most; vgpr-limit " << vgprLimit << ")\n");
    SmallVector<Operation *> created;
    promoteProgram(program, created);
    if (result.compacted || created.size() != createdInCopy.size())
      return;
    // Promotion created the same ops in the same order on both; every
    // other op of the program is one the clone mapped (an op created by
    // promotion may sit at the address of one it erased: created first).
    llvm::DenseMap<Operation *, Operation *> createdCopy;
    for (auto [mine, theirs] : llvm::zip(created, createdInCopy))
      createdCopy[mine] = theirs;
    bool complete = true;
    program.getBody().walk([&](Operation *op) {
      Operation *copy = createdCopy.lookup(op);
      if (!copy)
        copy = mapping.lookupOrNull(op);
      if (!copy)
        complete = false;
      trial.copyOf.emplace_back(op, copy);
    });
    if (!complete) {
      trial.copyOf.clear();
      return;
    }
    WaveASMLinearScanOptions options = trialAllocationOptions();
    trial.maxVGPRs = options.maxVGPRs;
    trial.maxSGPRs = options.maxSGPRs;
    trial.maxAGPRs = options.maxAGPRs;
    trial.bidirectionalThreshold = options.bidirectionalThreshold;
    trial.peaks = result.peaks; // of the copy, as allocated (not compacted)
    trial.allocatedModel = std::move(result.allocatedModel);
    markAnalysesPreserved<TrialAllocation>();
  }
};

} // namespace
