//===- SwizzleDmaLds.cpp - an XOR swizzle for LDS rows written by DMA -----===//
//
// See SwizzleDmaLds.h. `waveasm-swizzle-dma-lds` is the pass.
//
//===----------------------------------------------------------------------===//

#include "pipeline/opt/SwizzleDmaLds.h"
#include "analysis/LdsBankConflicts.h"
#include "analysis/LdsBuffers.h"
#include "analysis/ProgramIndex.h"
#include "analysis/TargetModel.h"
#include "ir/InstFacts.h"
#include "ir/TargetInfo.h"
#include "ir/Workgroup.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/Passes.h"
#include "pipeline/opt/OperandFacts.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMSWIZZLEDMALDS
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

/// The swizzle moves bits 8-9 of an address into bits 4-5: it keeps every
/// 1 KiB block (bits 10 and up) and every 16-byte unit (bits 0-3).
constexpr int64_t kBlock = 1024;
constexpr unsigned kBlockBits = 10;

/// Pure VALU ops with one result, no implicit register and no memory: what
/// a permuted voffset may be recomputed through.
bool isPureValu(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  return facts.hasInfo && facts.unit == ExecUnit::VALU &&
         op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         facts.memReads == MemNone && facts.memWrites == MemNone &&
         facts.implicitUses == ImpNone && facts.implicitDefs == ImpNone;
}

/// Integer arithmetic whose result depends on the lane only through its
/// operands: recomputed on a permuted thread id, it follows the
/// permutation. A pure VALU op outside this list may read the lane some
/// other way (v_mbcnt_* counts lanes from constant operands; cross-lane
/// moves), so cloning it unchanged would keep the old lane order.
bool isLaneLocalArithmetic(Operation *op) {
  return isa<V_ADD_U32, V_SUB_U32, V_SUBREV_U32, V_LSHLREV_B32, V_LSHRREV_B32,
             V_ASHRREV_I32, V_AND_B32, V_OR_B32, V_XOR_B32, V_BFE_U32,
             V_LSHL_ADD_U32, V_LSHL_OR_B32, V_ADD3_U32, V_MUL_LO_U32,
             V_MUL_HI_U32, V_MAD_U32_U24, V_MOV_B32>(op);
}

/// Why `v` (a voffset) cannot be recomputed on a permuted thread id, or "".
std::string laneSliceProblem(Value v, Value tid,
                             llvm::DenseMap<Value, bool> &seen) {
  if (v == tid || isSGPR(v) || getConstantValue(v) || seen.count(v))
    return "";
  seen[v] = true;
  Operation *op = v.getDefiningOp();
  if (!op || !isPureValu(op) || !isLaneLocalArithmetic(op))
    return "its voffset depends on the lane through more than the thread "
           "id and lane-local integer arithmetic";
  for (Value operand : op->getOperands())
    if (std::string why = laneSliceProblem(operand, tid, seen); !why.empty())
      return why;
  return "";
}

class Rewriter {
public:
  explicit Rewriter(const DmaSwizzlePlan &plan)
      : ctx(plan.tid.getContext()), tid(plan.tid) {}

  /// tid ^ (tid >> 4 & 3), right after the thread id's definition.
  Value permutedTid() {
    if (!tidPerm) {
      OpBuilder b(ctx);
      b.setInsertionPointAfterValue(tid);
      Location loc = tid.getLoc();
      auto hi = V_BFE_U32::create(b, loc, vgpr(), tid, imm(b, 4), imm(b, 2));
      tidPerm = V_XOR_B32::create(b, loc, vgpr(), tid, hi);
    }
    return tidPerm;
  }

  /// `v` recomputed on the permuted thread id (its VALU slice cloned right
  /// after each original op).
  Value permuted(Value v) {
    if (v == tid)
      return permutedTid();
    if (isSGPR(v) || getConstantValue(v))
      return v;
    if (Value mapped = permutedMemo.lookup(v))
      return mapped;
    // The operands first: their recursion inserts into the memo, so no
    // reference into it may be held across it.
    Operation *op = v.getDefiningOp();
    IRMapping map;
    for (Value operand : op->getOperands())
      map.map(operand, permuted(operand));
    OpBuilder b(ctx);
    b.setInsertionPointAfter(op);
    Value mapped = b.clone(*op, map)->getResult(0);
    permutedMemo[v] = mapped;
    return mapped;
  }

  /// S(v) = v ^ ((v >> 4) & 0x30), right after `v`'s definition.
  Value swizzled(Value v) {
    Value &mapped = swizzledMemo[v];
    if (!mapped) {
      OpBuilder b(ctx);
      b.setInsertionPointAfterValue(v);
      Location loc = v.getLoc();
      auto down = V_LSHRREV_B32::create(b, loc, vgpr(), imm(b, 4), v);
      auto bits = V_AND_B32::create(b, loc, vgpr(), down, imm(b, 0x30));
      mapped = V_XOR_B32::create(b, loc, vgpr(), v, bits);
    }
    return mapped;
  }

  /// The address a ds access reads instead: `u + S(l)` for an add of a
  /// 1 KiB-aligned uniform `u` and a lane term `l`, else S(address).
  Value address(Value a) {
    Value &mapped = addressMemo[a];
    if (mapped)
      return mapped;
    if (auto add = a.getDefiningOp<V_ADD_U32>()) {
      for (unsigned u = 0; u < 2; ++u) {
        Value uniform = add->getOperand(u), lane = add->getOperand(1 - u);
        if (!isSGPR(uniform) || knownLowZeroBits(uniform) < kBlockBits)
          continue;
        OpBuilder b(ctx);
        b.setInsertionPointAfter(add);
        Value l = swizzled(lane);
        mapped = V_ADD_U32::create(b, add.getLoc(), vgpr(),
                                   u == 0 ? uniform : l, u == 0 ? l : uniform);
        return mapped;
      }
    }
    return mapped = swizzled(a);
  }

private:
  MLIRContext *ctx;
  Value tid, tidPerm;
  llvm::DenseMap<Value, Value> permutedMemo, swizzledMemo, addressMemo;

  Type vgpr() { return VRegType::get(ctx, 1, 1); }
  Value imm(OpBuilder &b, int64_t c) {
    return getImmediate(b, b.getUnknownLoc(), c);
  }
};

} // namespace

namespace {

/// Why `op` (an LDS access at `at`) cannot be swizzled, or "" (then it is
/// a 16-byte DMA load to permute, a ds access to readdress, or a narrow DMA
/// load at a 1 KiB boundary, where S is the identity).
std::string swizzleProblem(std::optional<LdsAccessAddress> at,
                           int64_t waveSize) {
  if (!at)
    return "an LDS access whose address is not one value";
  if (at->offset % kBlock != 0)
    return "an LDS offset that is not a multiple of 1024";
  unsigned aligned = knownLowZeroBits(at->address);
  if (at->directToLds) {
    int64_t width = at->extent / waveSize;
    if (aligned < kBlockBits)
      return "a direct-to-LDS base (M0) not known to be a multiple of 1024";
    if (width != 16 && width > 4)
      return "a direct-to-LDS load of another width than 1, 2, 4 or 16 B";
    return "";
  }
  if (at->extent > 16 ||
      (int64_t(1) << std::min(aligned, 31u)) < std::max<int64_t>(at->extent, 1))
    return "an LDS access not known to be aligned to its width";
  return "";
}

/// The 1 KiB blocks `access` may touch (over every lane, wave, iteration).
llvm::SmallVector<int64_t> blocksOf(const LdsAccess &access) {
  llvm::SmallVector<int64_t> blocks;
  for (auto [begin, end] : access.ranges)
    for (int64_t b = begin / kBlock; b * kBlock < end; ++b)
      blocks.push_back(b);
  return blocks;
}

} // namespace

DmaSwizzlePlan waveasm::planDmaSwizzle(ProgramOp program) {
  DmaSwizzlePlan plan;
  plan.program = program;
  auto fail = [&](std::string why) {
    plan.failure = std::move(why);
    plan.dmaLoads.clear();
    plan.dsAccesses.clear();
    plan.kept.clear();
    return plan;
  };
  const int64_t waveSize =
      getTargetInfo(program.getTargetKind()).defaultWaveSize;
  if (waveSize != 64)
    return fail("the target's wave is not 64 lanes");
  if (auto size = getDeclaredWorkgroupSize(program);
      size && (*size)[0] % waveSize != 0)
    return fail("the workgroup's x size is not a multiple of 64");
  ABIAttr abi = program.getAbi();
  int64_t tidReg = abi ? abi.getTid() : -1;
  std::string why;
  // Every LDS access with why it cannot be swizzled ("" if it can).
  /// Each LDS access, its address and why the swizzle cannot carry it
  /// ("" where it can).
  struct Access {
    Operation *op;
    std::optional<LdsAccessAddress> at;
    std::string problem;
  };
  std::vector<Access> accesses;
  program.walk([&](Operation *op) {
    if (!why.empty())
      return;
    if (auto pre = dyn_cast<PrecoloredVRegOp>(op)) {
      if (pre.getIndex() == tidReg && pre.getSize() == 1) {
        if (plan.tid)
          why = "the thread id is defined twice";
        plan.tid = pre;
      }
      return;
    }
    InstFacts facts = lookupInstFacts(op);
    if (facts.implicitDefs & ImpEXEC) {
      why = "EXEC is written";
      return;
    }
    if ((facts.memReads | facts.memWrites) & MemLDS) {
      std::optional<LdsAccessAddress> at = getLdsAccessAddress(op, waveSize);
      std::string problem = swizzleProblem(at, waveSize);
      accesses.push_back({op, std::move(at), std::move(problem)});
    }
  });
  if (!why.empty())
    return fail(why);

  // An access that cannot be swizzled keeps the 1 KiB blocks it touches as
  // written (S keeps every block in place, so blocks are swizzled or not
  // independently); every access into those blocks is then left as
  // written, and one reaching both kinds refuses the whole swizzle. The
  // blocks come from LdsBuffers.h's bounds, which must cover every access.
  llvm::DenseMap<Operation *, const LdsAccess *> bounds;
  LdsBufferInfo info;
  llvm::DenseSet<int64_t> keptBlocks;
  for (auto &[op, at, problem] : accesses) {
    if (problem.empty())
      continue;
    if (plan.keptWhy.empty()) {
      plan.keptWhy = problem;
      info = collectLdsBuffers(program);
      if (!info.complete())
        return fail(problem);
      for (const LdsAccess &access : info.accesses)
        bounds[access.op] = &access;
    }
    const LdsAccess *access = bounds.lookup(op);
    if (!access || access->ranges.empty())
      return fail(problem);
    for (int64_t block : blocksOf(*access))
      keptBlocks.insert(block);
  }
  for (auto &[op, at, problem] : accesses) {
    bool inKept = !problem.empty(), inSwizzled = false;
    if (!keptBlocks.empty()) {
      const LdsAccess *access = bounds.lookup(op);
      if (!access || access->ranges.empty())
        return fail(plan.keptWhy);
      for (int64_t block : blocksOf(*access))
        (keptBlocks.contains(block) ? inKept : inSwizzled) = true;
    }
    if (inKept && inSwizzled)
      return fail("an LDS access reaches both rows to swizzle and bytes "
                  "left as written (" +
                  plan.keptWhy + ")");
    if (inKept) {
      plan.kept.push_back(op);
      continue;
    }
    if (!at->directToLds)
      plan.dsAccesses.push_back(op);
    else if (at->extent / waveSize == 16)
      plan.dmaLoads.push_back(op);
  }
  if (plan.dmaLoads.empty())
    return fail(plan.kept.empty()
                    ? std::string("no 16-byte direct-to-LDS load")
                    : "no 16-byte direct-to-LDS load outside the bytes left "
                      "as written (" +
                          plan.keptWhy + ")");
  if (!plan.tid)
    return fail("no thread-id VGPR");
  llvm::DenseMap<Value, bool> seen;
  for (Operation *load : plan.dmaLoads)
    if (std::string w = laneSliceProblem(load->getOperand(0), plan.tid, seen);
        !w.empty())
      return fail(w);
  return plan;
}

void waveasm::applyDmaSwizzle(const DmaSwizzlePlan &plan) {
  Rewriter rewriter(plan);
  std::vector<Value> replaced;
  for (Operation *load : plan.dmaLoads) {
    replaced.push_back(load->getOperand(0));
    load->setOperand(0, rewriter.permuted(load->getOperand(0)));
  }
  for (Operation *access : plan.dsAccesses) {
    // The address is the last operand (ds_read: vaddr; ds_write: data, vaddr).
    unsigned i = access->getNumOperands() - 1;
    replaced.push_back(access->getOperand(i));
    access->setOperand(i, rewriter.address(access->getOperand(i)));
  }
  // The originals of what was recomputed, once nothing reads them (ops,
  // not values, on the worklist: a value is gone with its op).
  std::vector<Operation *> worklist;
  for (Value v : replaced)
    if (Operation *def = v.getDefiningOp())
      worklist.push_back(def);
  llvm::SmallPtrSet<Operation *, 16> erased;
  while (!worklist.empty()) {
    Operation *op = worklist.back();
    worklist.pop_back();
    if (erased.contains(op) || !op->use_empty() || !isPureValu(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
    erased.insert(op);
    eraseOp(op);
  }
}

/// "N LDS accesses left as written (why)".
static std::string keptRemark(const DmaSwizzlePlan &plan) {
  return llvm::formatv("{0} LDS accesses left as written ({1})",
                       plan.kept.size(), plan.keptWhy);
}

int64_t waveasm::ldsBankConflictSlots(ProgramOp program) {
  ProgramIndex index(program);
  LdsBankConflicts conflicts(index, TargetModel::get(program.getTargetKind()));
  int64_t slots = 0;
  for (const LdsAccessInfo &access : conflicts.getAccesses())
    slots += access.extraSlots;
  return slots;
}

bool waveasm::swizzleDmaLdsIfFewerConflicts(ProgramOp program,
                                            std::string &what) {
  DmaSwizzlePlan plan = planDmaSwizzle(program);
  if (!plan.ok()) {
    what = plan.failure;
    return false;
  }
  int64_t before = ldsBankConflictSlots(program);
  // Measured on a copy beside the program, so a swizzle that does not help
  // leaves the program as it was.
  OpBuilder b(program);
  auto copy = cast<ProgramOp>(b.clone(*program));
  applyDmaSwizzle(planDmaSwizzle(copy));
  int64_t after = ldsBankConflictSlots(copy);
  copy.erase();
  if (after >= before) {
    what = llvm::formatv("the swizzle leaves {0} bank-conflict slots ({1} "
                         "before)",
                         after, before);
    return false;
  }
  applyDmaSwizzle(plan);
  what =
      llvm::formatv("rows written by direct-to-LDS loads swizzled (bits "
                    "8-9 into 4-5; {0} loads permuted, {1} ds accesses "
                    "readdressed{2}): bank-conflict slots {3} -> {4}",
                    plan.dmaLoads.size(), plan.dsAccesses.size(),
                    plan.kept.empty() ? std::string() : ", " + keptRemark(plan),
                    before, after);
  return true;
}

namespace {

struct SwizzleDmaLdsPass
    : public waveasm::impl::WaveASMSwizzleDmaLdsBase<SwizzleDmaLdsPass> {
  using WaveASMSwizzleDmaLdsBase::WaveASMSwizzleDmaLdsBase;

  void runOnOperation() override {
    // Unmeasured: what the pass is asked, it does (tests, the Conductor).
    DmaSwizzlePlan plan = planDmaSwizzle(getOperation());
    if (!plan.ok()) {
      getOperation().emitRemark("LDS not swizzled: ") << plan.failure;
      return;
    }
    int64_t before = ldsBankConflictSlots(getOperation());
    applyDmaSwizzle(plan);
    getOperation().emitRemark("LDS swizzled (bits 8-9 into 4-5): ")
        << plan.dmaLoads.size() << " direct-to-LDS loads permuted, "
        << plan.dsAccesses.size() << " ds accesses readdressed, "
        << (plan.kept.empty() ? std::string() : keptRemark(plan) + ", ")
        << "bank-conflict slots " << before << " -> "
        << ldsBankConflictSlots(getOperation());
  }
};

} // namespace
