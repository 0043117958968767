//===- PadLdsLayout.cpp - pad the LDS row stride --------------------------===//
//
// `waveasm-pad-lds-layout` and its rewrite (PadLdsLayout.h). The planning,
// and why the rewrite is exact, is analysis/LdsPadding.h.
//
//===----------------------------------------------------------------------===//

#include "pipeline/opt/PadLdsLayout.h"
#include "pipeline/opt/SwizzleDmaLds.h"

#include "analysis/LoopStages.h"
#include "analysis/TargetModel.h"
#include "ir/RegisterTypes.h"
#include "pipeline/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMPADLDSLAYOUT
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

/// New ops inside a staged loop body (the Conductor pads a staged loop
/// before pipelining it) take the stage and cluster of the op they follow,
/// stage 0 at the body's start: every body op needs one.
void inheritStage(Operation *op, Value anchor) {
  auto loop = dyn_cast_or_null<LoopOp>(op->getParentOp());
  if (!loop || !hasLoopStages(loop))
    return;
  Builder b(op->getContext());
  Operation *def = anchor.getDefiningOp();
  for (llvm::StringRef name : {kStageAttrName, kClusterAttrName}) {
    IntegerAttr attr;
    if (def && def->getBlock() == op->getBlock())
      attr = def->getAttrOfType<IntegerAttr>(name);
    op->setAttr(name, attr ? attr : b.getI32IntegerAttr(0));
  }
}

class Rewriter {
public:
  Rewriter(ProgramOp program, LdsPadding padding)
      : ctx(program.getContext()), padding(padding),
        shift(int64_t(llvm::Log2_64(uint64_t(padding.stride)))),
        constants(OpBuilder::atBlockBegin(&program.getBody().front())) {}

  Value lanes(Value l) {
    Value &mapped = lanesMemo[l];
    if (!mapped) {
      OpBuilder b(ctx);
      b.setInsertionPointAfterValue(l);
      Location loc = l.getLoc();
      Type vgpr = VRegType::get(ctx, 1, 1);
      auto row = V_LSHRREV_B32::create(b, loc, vgpr, imm(shift), l);
      auto mad = V_MAD_U32_U24::create(b, loc, vgpr, row, imm(padding.pad), l);
      inheritStage(row, l);
      inheritStage(mad, l);
      mapped = mad;
    }
    return mapped;
  }

  /// The SGPR bases every site adds (to know which uses are LDS bases).
  llvm::DenseSet<Value> siteAddresses;

  Value uniform(Value u) {
    if (remapRotation(u))
      return u;
    Value &mapped = uniformMemo[u];
    if (!mapped) {
      OpBuilder b(ctx);
      b.setInsertionPointAfterValue(u);
      Location loc = u.getLoc();
      Type sgpr = SRegType::get(ctx, 1, 1), scc = SCCType::get(ctx);
      auto row = S_LSHR_B32::create(b, loc, sgpr, scc, u, imm(shift));
      auto grown =
          S_MUL_I32::create(b, loc, sgpr, row.getDst(), imm(padding.pad));
      auto sum = S_ADD_U32::create(b, loc, sgpr, scc, u, grown);
      for (Operation *op :
           {row.getOperation(), grown.getOperation(), sum.getOperation()})
        inheritStage(op, u);
      mapped = sum.getDst();
    }
    return mapped;
  }

  Value address(const LdsPaddingSite &site) {
    if (!site.uniform)
      return lanes(site.lanes);
    Value &mapped = addressMemo[site.address];
    if (!mapped) {
      Value u = uniform(site.uniform), l = lanes(site.lanes);
      // After the original add, which both terms' definitions precede.
      OpBuilder b(ctx);
      b.setInsertionPointAfterValue(site.address);
      auto add = V_ADD_U32::create(b, site.address.getLoc(),
                                   VRegType::get(ctx, 1, 1), u, l);
      inheritStage(add, site.address);
      mapped = add;
    }
    return mapped;
  }

private:
  /// A base rotating through a loop's iter_args from constant inits (the
  /// hand-written ping/pong `(%rd, %wr) -> (%wr, %rd)`), read only as the
  /// SGPR term of sites' addresses: its inits are mapped instead (new
  /// s_mov_b32 constants), so the loop computes nothing more. True when
  /// done (or done before for this rotation).
  bool remapRotation(Value u) {
    auto arg = dyn_cast<BlockArgument>(u);
    auto loop =
        arg ? dyn_cast<LoopOp>(arg.getOwner()->getParentOp()) : LoopOp();
    if (!loop)
      return false;
    if (remapped.contains(u))
      return true;
    auto condition = loop.getConditionOp();
    Block &body = loop.getBodyBlock();
    // The rotation: follow each argument to the argument its yield holds.
    llvm::SmallVector<unsigned> group;
    unsigned k = arg.getArgNumber();
    while (!llvm::is_contained(group, k)) {
      if (!condition || k >= condition.getIterArgs().size() ||
          k >= loop.getInitArgs().size())
        return false;
      group.push_back(k);
      auto next = dyn_cast<BlockArgument>(condition.getIterArgs()[k]);
      if (!next || next.getOwner() != &body)
        return false;
      k = next.getArgNumber();
    }
    if (k != group.front())
      return false; // a chain into a cycle, not a rotation
    for (unsigned member : group) {
      Value value = body.getArgument(member);
      for (OpOperand &use : value.getUses()) {
        // Yielded only into the group's own slots: a base yielded into
        // another iter_arg would carry the padded value to addresses that
        // are padded again.
        if (use.getOwner() == condition.getOperation()) {
          unsigned operand = use.getOperandNumber();
          if (operand == 0 || !llvm::is_contained(group, operand - 1))
            return false;
          continue;
        }
        if (!(isa<V_ADD_U32>(use.getOwner()) &&
              siteAddresses.contains(use.getOwner()->getResult(0))))
          return false;
      }
      if (member < loop->getNumResults() &&
          !loop->getResult(member).use_empty())
        return false;
      auto init = loop.getInitArgs()[member].getDefiningOp<S_MOV_B32>();
      if (!init || !init->hasOneUse() ||
          !init.getSrc().getDefiningOp<ConstantOp>())
        return false;
    }
    for (unsigned member : group) {
      auto init = loop.getInitArgs()[member].getDefiningOp<S_MOV_B32>();
      int64_t value = init.getSrc().getDefiningOp<ConstantOp>().getValue();
      init.getSrcMutable().assign(imm(padding.map(value)));
      remapped.insert(body.getArgument(member));
    }
    return true;
  }

  /// Constants at the program's start, outside every loop.
  Value imm(int64_t v) {
    Value &c = immMemo[v];
    if (!c)
      c = ConstantOp::create(constants, constants.getUnknownLoc(),
                             ImmType::get(ctx, v), v);
    return c;
  }

  MLIRContext *ctx;
  LdsPadding padding;
  int64_t shift;
  OpBuilder constants;
  llvm::DenseMap<int64_t, Value> immMemo;
  llvm::DenseMap<Value, Value> lanesMemo, uniformMemo, addressMemo;
  llvm::DenseSet<Value> remapped;
};

} // namespace

void waveasm::applyLdsPadding(ProgramOp program, const LdsPaddingPlan &plan) {
  const LdsPaddingChoice &choice = *plan.choice;
  Rewriter rewriter(program, choice.padding);
  // Every new address first, then the operands: a site's address may be
  // another site's lane term only through ops the rewrite adds.
  for (const LdsPaddingSite &site : plan.sites)
    if (site.uniform)
      rewriter.siteAddresses.insert(site.address);
  std::vector<Value> addresses;
  for (const LdsPaddingSite &site : plan.sites)
    addresses.push_back(rewriter.address(site));
  Builder b(program.getContext());
  for (auto [site, address] : llvm::zip(plan.sites, addresses)) {
    site.op->setOperand(site.addressOperand, address);
    int64_t offset = choice.padding.map(site.offset);
    if (offset != site.offset) {
      Type type = b.getI64Type();
      if (auto old = site.op->getAttrOfType<IntegerAttr>("offset"))
        type = old.getType();
      site.op->setAttr("offset", b.getIntegerAttr(type, offset));
    }
  }
  // The adds the new ones replace, when nothing else reads them.
  llvm::SmallPtrSet<Operation *, 8> replaced;
  for (const LdsPaddingSite &site : plan.sites)
    if (Operation *def = site.uniform ? site.address.getDefiningOp() : nullptr)
      replaced.insert(def);
  for (Operation *def : replaced)
    if (def->use_empty() && isa<V_ADD_U32>(def))
      def->erase();
  if (uint64_t(choice.ldsBytesAfter) > program.getLdsSize().value_or(0))
    program.setLdsSize(uint64_t(choice.ldsBytesAfter));
}

std::string waveasm::describeLdsPadding(const LdsPaddingChoice &choice,
                                        int64_t ldsBytesBefore) {
  return llvm::formatv("rows of {0} B padded by {1} B: bank-conflict slots "
                       "{2} -> {3}, LDS {4} -> {5} bytes",
                       choice.padding.stride, choice.padding.pad,
                       choice.slotsBefore, choice.slotsAfter, ldsBytesBefore,
                       choice.ldsBytesAfter);
}

LdsPaddingPlan
waveasm::planLdsLayoutRewrite(ProgramOp program,
                              std::optional<LdsPadding> requested) {
  const TargetModel &target = TargetModel::get(program.getTargetKind());
  LdsPaddingPlan plan = planLdsPadding(program, target, requested);
  if (!plan.ok())
    return plan;
  // Allocated IR has no free registers for the new terms.
  for (const LdsPaddingSite &site : plan.sites)
    if (isPhysicalReg(site.address.getType()) &&
        !site.address.getDefiningOp<PrecoloredVRegOp>()) {
      plan.choice.reset();
      plan.refusal = "the program is register-allocated";
      plan.refusedAt = site.op;
      break;
    }
  return plan;
}

bool waveasm::padLdsLayout(ProgramOp program,
                           std::optional<LdsPadding> requested,
                           std::string &why, LdsPaddingChoice *applied) {
  LdsPaddingPlan plan = planLdsLayoutRewrite(program, requested);
  if (!plan.ok()) {
    why = plan.refusal;
    return false;
  }
  applyLdsPadding(program, plan);
  if (applied)
    *applied = *plan.choice;
  return true;
}

namespace {

struct PadLdsLayoutPass
    : public waveasm::impl::WaveASMPadLdsLayoutBase<PadLdsLayoutPass> {
  using WaveASMPadLdsLayoutBase::WaveASMPadLdsLayoutBase;

  void runOnOperation() override {
    ProgramOp program = getOperation();
    std::optional<LdsPadding> requested;
    if (stride || pad) {
      if (stride <= 0 || pad <= 0) {
        program.emitError("waveasm-pad-lds-layout: give both stride and pad "
                          "(or neither)");
        return signalPassFailure();
      }
      requested = LdsPadding{stride, pad};
    }
    int64_t before = int64_t(program.getLdsSize().value_or(0));
    std::string why;
    LdsPaddingChoice choice;
    if (!padLdsLayout(program, requested, why, &choice)) {
      // Rows a direct-to-LDS load writes cannot be padded (the DMA writes
      // M0 + lane * width); their bytes can be swizzled (SwizzleDmaLds.h).
      std::string swizzle;
      if (!requested && swizzleDmaLdsIfFewerConflicts(program, swizzle)) {
        program.emitRemark("LDS layout swizzled: ") << swizzle;
        return;
      }
      program.emitRemark("LDS layout not padded: ")
          << why << (swizzle.empty() ? "" : "; not swizzled: ") << swizzle;
      return;
    }
    program.emitRemark("LDS layout padded: ")
        << describeLdsPadding(choice, before);
  }
};

} // namespace
