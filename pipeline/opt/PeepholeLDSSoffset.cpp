//===- PeepholeLDSSoffset.cpp - LDS-load scalar shifts to soffset ---------===//
//
// SPEC.md 18.4 (BufferLoadLDSSoffset). A direct-to-LDS load
// (`buffer_load_dword[x4]_lds`) whose soffset is 0 and whose voffset adds a
// scalar shift `v_lshlrev_b32(C, sgpr)` (typically of the loop IV) to a
// per-lane offset computes the shift on the VALU every iteration. The shift
// moves to the soffset as `s_lshl_b32 sgpr, C`; what remains of the voffset
// no longer depends on the IV, so LICM hoists it:
//   case 1: voffset = v_add_u32(row, SHIFT)
//           -> voffset = row
//   case 2: voffset = v_add_u32(row, v_add_u32(thread, SHIFT))
//           -> voffset = v_add_u32(thread, row)
//   case 3: voffset = v_add_u32(row, v_lshl_add_u32(v, c2, SHIFT)) (what the
//           lshl+add fusion leaves, seed 001)
//           -> voffset = v_add_u32(v_lshl_add_u32(v, c2, 0), row)
// Operand order does not matter anywhere. The address voffset + soffset is
// the same sum (both 32-bit, wrapping alike); like upstream, the buffer range
// check then sees only the voffset part.
//
// The new s_lshl_b32 writes SCC. It goes right before the load, and only
// where no SCC value is live (upstream does not check; an s_cmp feeding the
// loop condition may sit before the load).
//
//===----------------------------------------------------------------------===//

#include "pipeline/opt/OperandFacts.h"
#include "pipeline/opt/PeepholePatterns.h"

#include "ir/Dialect.h"
#include "ir/InstFacts.h"

#include "llvm/ADT/DenseSet.h"

#include <memory>

using namespace mlir;
using namespace waveasm;

namespace {

/// Where an SCC value is live, per block, computed on first ask. Inserting an
/// SCC writer where SCC is dead does not change the answer for other points,
/// so the sets stay valid while the patterns run.
class SCCLiveness {
public:
  bool isLiveBefore(Operation *op) {
    Block *block = op->getBlock();
    auto it = liveBefore.find(block);
    if (it == liveBefore.end())
      it = liveBefore.try_emplace(block, compute(*block)).first;
    return it->second.contains(op);
  }

private:
  static llvm::DenseSet<Operation *> compute(Block &block) {
    std::vector<Operation *> ops;
    llvm::DenseMap<Operation *, unsigned> position;
    for (Operation &op : block) {
      position[&op] = ops.size();
      ops.push_back(&op);
    }
    // live[j] > 0: some SCC value defined before ops[j] is read at or after
    // it (by an SSA use, or implicitly by a branch or raw text).
    std::vector<int> delta(ops.size() + 1, 0);
    auto markLive = [&](unsigned def, unsigned lastUse) {
      if (lastUse > def) {
        ++delta[def + 1];
        --delta[lastUse + 1];
      }
    };
    std::optional<unsigned> lastDef;
    for (auto [i, op] : llvm::enumerate(ops)) {
      InstFacts facts = lookupInstFacts(op);
      bool readsSCCImplicitly =
          isa<RawOp>(op) ||
          ((facts.implicitUses & ImpSCC) &&
           llvm::none_of(op->getOperandTypes(),
                         [](Type type) { return isa<SCCType>(type); }));
      if (readsSCCImplicitly && lastDef)
        markLive(*lastDef, i);
      for (Value result : op->getResults()) {
        if (!isa<SCCType>(result.getType()))
          continue;
        unsigned last = i;
        for (Operation *user : result.getUsers())
          if (Operation *ancestor = block.findAncestorOpInBlock(*user))
            last = std::max(last, position.lookup(ancestor));
        markLive(i, last);
      }
      if ((facts.implicitDefs & ImpSCC) || isa<RawOp>(op))
        lastDef = i;
    }
    llvm::DenseSet<Operation *> live;
    int count = 0;
    for (auto [j, op] : llvm::enumerate(ops)) {
      count += delta[j];
      if (count > 0)
        live.insert(op);
    }
    return live;
  }

  llvm::DenseMap<Block *, llvm::DenseSet<Operation *>> liveBefore;
};

/// A scalar shift's parts.
struct ScalarShift {
  Value sgpr;
  Value amountValue;
  int64_t amount;
};

std::optional<ScalarShift> matchScalarShift(Value value) {
  auto shift = value.getDefiningOp<V_LSHLREV_B32>();
  if (!shift || !value.hasOneUse())
    return std::nullopt;
  std::optional<int64_t> amount = getConstant32(shift.getSrc0());
  Value sgpr = shift.getSrc1();
  if (!amount || *amount < 0 || *amount > 31 || !isSGPR(sgpr) ||
      getRegSize(sgpr.getType()) != 1)
    return std::nullopt;
  return ScalarShift{sgpr, shift.getSrc0(), *amount};
}

/// What a case rewrites the voffset to.
struct Plan {
  ScalarShift shift;
  Value row;
  Value thread;         // case 2
  V_LSHL_ADD_U32 fused; // case 3
};

/// Finds case 1, 2 or 3 in `add` (the voffset); `why` says why a shape that
/// has a scalar shift cannot be rewritten.
std::optional<Plan> planRewrite(V_ADD_U32 add, const char *&why) {
  for (unsigned i : {0u, 1u}) {
    Value row = add->getOperand(i), other = add->getOperand(1 - i);
    if (std::optional<ScalarShift> shift = matchScalarShift(other)) {
      // An immediate voffset would be emitted in the instruction offset,
      // which also moves the LDS destination.
      if (!isVGPR(row)) {
        why = "case 1: the remaining voffset would not be a VGPR";
        continue;
      }
      return Plan{*shift, row, {}, {}};
    }
    if (auto inner = other.getDefiningOp<V_ADD_U32>()) {
      for (unsigned j : {0u, 1u}) {
        std::optional<ScalarShift> shift =
            matchScalarShift(inner->getOperand(1 - j));
        if (!shift)
          continue;
        Value thread = inner->getOperand(j);
        if (countConstantBusReads({thread, row}) > 1) {
          why = "case 2: v_add_u32(thread, row) would read two SGPRs/literals";
          continue;
        }
        return Plan{*shift, row, thread, {}};
      }
    }
    if (auto fused = other.getDefiningOp<V_LSHL_ADD_U32>()) {
      std::optional<ScalarShift> shift = matchScalarShift(fused.getSrc2());
      if (!shift)
        continue;
      if (countConstantBusReads({fused.getSrc0(), fused.getSrc1()}) > 1) {
        why = "case 3: the rebuilt voffset would read two SGPRs/literals";
        continue;
      }
      return Plan{*shift, row, {}, fused};
    }
  }
  return std::nullopt;
}

template <typename LoadOp> struct LDSSoffset : public OpRewritePattern<LoadOp> {
  LDSSoffset(MLIRContext *context, std::shared_ptr<SCCLiveness> scc)
      : OpRewritePattern<LoadOp>(context), scc(std::move(scc)) {
    this->setDebugName("BufferLoadLDSSoffset");
  }

  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    if (getConstantValue(op.getSoffset()) != 0)
      return failure();
    auto add = op.getVoffset().template getDefiningOp<V_ADD_U32>();
    if (!add)
      return failure();
    const char *why = nullptr;
    std::optional<Plan> plan = planRewrite(add, why);
    if (!plan)
      return why ? rewriter.notifyMatchFailure(op, why) : failure();
    if (hasPhysicalResults(add))
      return rewriter.notifyMatchFailure(op, "the voffset is allocated");
    if (scc->isLiveBefore(op))
      return rewriter.notifyMatchFailure(
          op, "SCC is live at the load; s_lshl_b32 would clobber it");

    MLIRContext *context = rewriter.getContext();
    Location loc = op.getLoc();
    Type vgpr = add.getType();
    Value amount = getImmediate(rewriter, loc, plan->shift.amount,
                                plan->shift.amountValue);
    auto soffset =
        S_LSHL_B32::create(rewriter, loc, SRegType::get(context, 1, 1),
                           SCCType::get(context), plan->shift.sgpr, amount);
    Value voffset = plan->row;
    if (plan->thread) {
      voffset = V_ADD_U32::create(rewriter, loc, vgpr, plan->thread, plan->row);
    } else if (plan->fused) {
      Value shifted = V_LSHL_ADD_U32::create(
          rewriter, loc, vgpr, plan->fused.getSrc0(), plan->fused.getSrc1(),
          getImmediate(rewriter, loc, 0));
      voffset = V_ADD_U32::create(rewriter, loc, vgpr, shifted, plan->row);
    }
    rewriter.modifyOpInPlace(op, [&] {
      op.getVoffsetMutable().assign(voffset);
      op.getSoffsetMutable().assign(soffset.getDst());
    });
    return success();
  }

  std::shared_ptr<SCCLiveness> scc;
};

/// The direct-to-LDS load reading `use` as its voffset, with soffset 0.
bool isZeroSoffsetLDSVoffset(OpOperand &use) {
  Operation *user = use.getOwner();
  if (!isa<BUFFER_LOAD_DWORD_LDS, BUFFER_LOAD_DWORDX4_LDS>(user))
    return false;
  // Both loads take (voffset, srd, soffset).
  return use.getOperandNumber() == 0 &&
         getConstantValue(user->getOperand(2)) == 0;
}

} // namespace

bool waveasm::isScalarShift(Value value) {
  return matchScalarShift(value).has_value();
}

bool waveasm::feedsLDSLoadVoffset(Value value, bool throughOneAdd) {
  for (OpOperand &use : value.getUses()) {
    if (isZeroSoffsetLDSVoffset(use))
      return true;
    if (throughOneAdd && isa<V_ADD_U32>(use.getOwner()))
      for (OpOperand &next : use.getOwner()->getResult(0).getUses())
        if (isZeroSoffsetLDSVoffset(next))
          return true;
  }
  return false;
}

void waveasm::populateLDSSoffsetPatterns(RewritePatternSet &patterns) {
  auto scc = std::make_shared<SCCLiveness>();
  patterns.add<LDSSoffset<BUFFER_LOAD_DWORD_LDS>,
               LDSSoffset<BUFFER_LOAD_DWORDX4_LDS>>(patterns.getContext(), scc);
}
