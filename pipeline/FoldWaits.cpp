//===- FoldWaits.cpp - one wait where a pipelined step had several --------===//

#include "pipeline/FoldWaits.h"
#include "pipeline/CountedWaits.h"
#include "pipeline/ForEachOp.h"

#include "analysis/IssueRules.h"
#include "analysis/LdsBankConflicts.h"
#include "analysis/ProgramIndex.h"
#include "analysis/TargetModel.h"
#include "ir/InstFacts.h"

#include <array>
#include <limits>
#include <memory>
#include <optional>

using namespace mlir;
using namespace waveasm;

namespace {

enum Counter : unsigned { VM = 0, LGKM = 1 };
constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
using Counts = std::array<int64_t, 2>;

/// The vmcnt and lgkmcnt thresholds of a wait op (kNone: not waited on);
/// nullopt for other ops and for waits this rule leaves alone (an expcnt,
/// or a bare s_waitcnt that waits for everything).
std::optional<Counts> foldableCounts(Operation *op) {
  if (auto wait = dyn_cast<S_WAITCNT>(op)) {
    if (wait.getExpcnt() || (!wait.getVmcnt() && !wait.getLgkmcnt()))
      return std::nullopt;
    return Counts{wait.getVmcnt() ? int64_t(*wait.getVmcnt()) : kNone,
                  wait.getLgkmcnt() ? int64_t(*wait.getLgkmcnt()) : kNone};
  }
  if (auto wait = dyn_cast<S_WAITCNT_VMCNT>(op))
    return Counts{int64_t(wait.getCount()), kNone};
  if (auto wait = dyn_cast<S_WAITCNT_LGKMCNT>(op))
    return Counts{kNone, int64_t(wait.getCount())};
  return std::nullopt;
}

bool isWait(Operation *op) {
  return isa<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT>(op);
}

/// Sets the thresholds of a wait op of the same counters as `counts`.
void setCounts(Operation *op, const Counts &counts) {
  auto attr = [&](int64_t n) {
    return n == kNone
               ? IntegerAttr()
               : IntegerAttr::get(IntegerType::get(op->getContext(), 32), n);
  };
  if (auto wait = dyn_cast<S_WAITCNT>(op)) {
    wait.setVmcntAttr(attr(counts[VM]));
    wait.setLgkmcntAttr(attr(counts[LGKM]));
  } else if (auto wait = dyn_cast<S_WAITCNT_VMCNT>(op)) {
    wait.setCount(static_cast<uint32_t>(counts[VM]));
  } else {
    cast<S_WAITCNT_LGKMCNT>(op).setCount(static_cast<uint32_t>(counts[LGKM]));
  }
}

/// The bank-conflict slots of a program's ds ops, which the cycle model
/// adds to their latency (CycleModel.cpp's addLdsBankConflicts), analysed
/// on first use: a program whose counted-wait loops have no ds op never
/// pays for the analysis. (Their hold on the LDS pipe is left out: with
/// the lower-bound issue distances it made the estimate refuse folds the
/// cycle model measures as free, gemm_f16_32x32x8_global in 3 stages
/// 1236 -> 1241.)
class LdsConflictSlots {
public:
  LdsConflictSlots(ProgramOp program, const TargetModel &model)
      : program(program), model(model) {}

  int64_t extraSlots(Operation *op) {
    if (!banks) {
      index = std::make_unique<ProgramIndex>(program);
      banks = std::make_unique<LdsBankConflicts>(*index, model);
    }
    const LdsAccessInfo *access = banks->lookup(op);
    return access && access->known ? access->extraSlots : 0;
  }

private:
  ProgramOp program;
  const TargetModel &model;
  std::unique_ptr<ProgramIndex> index;
  std::unique_ptr<LdsBankConflicts> banks;
};

/// What one op of the body is to the rule.
struct OpInfo {
  Operation *op;
  unsigned counters = 0; // bit c: the op counts on counter c
  int64_t slots = 0;     // issue slots
  int64_t latency = 0;
  int64_t passes = 0; // MFMA pipe
  bool stops = false; // no fold across it
};

OpInfo describe(Operation *op, const TargetModel &model,
                LdsConflictSlots &conflicts) {
  OpInfo info{op};
  InstFacts facts = lookupInstFacts(op);
  info.stops = op->getNumRegions() > 0 || isa<RawOp, LabelOp>(op) ||
               (facts.hasInfo && facts.unit == ExecUnit::Branch);
  switch (facts.hasInfo ? facts.waitCounter : WaitCounter::None) {
  case WaitCounter::VMCnt:
    info.counters = 1u << VM;
    break;
  case WaitCounter::LGKMCnt:
    info.counters = 1u << LGKM;
    break;
  case WaitCounter::VMAndLGKM:
    info.counters = (1u << VM) | (1u << LGKM);
    break;
  default:
    break;
  }
  info.slots = getIssueCycles(op);
  info.latency = info.counters ? model.getOpLatency(op) : 0;
  info.passes = model.getMFMAPasses(op);
  // A bank conflict returns a ds op's data later (the cycle model's
  // rule): judged by the plain LDS latency, the preshuffled mxfp4 kernel's
  // waits before an MFMA folded into the barrier before it, where the
  // conflicting read had not landed (4 slots stalled at one barrier).
  if (facts.hasInfo && facts.unit == ExecUnit::LDS)
    info.latency += conflicts.extraSlots(op);
  return info;
}

/// The issue slot of each op of the body from its start: one per issue
/// slot an op takes, an MFMA no earlier than the previous one's passes
/// end (the MFMA pipe); the body's length last. Waits for operands and
/// counters are left out, so distances are lower bounds. So are the waits
/// from `open` on, which the rule has not judged yet: a later fold may
/// remove any of them, and counting their slots made the body look longer
/// than the kernel it leaves (split-K in 7 stages: folds judged free made
/// the kernel's first wait vmcnt(33), which stalled 9 slots a kernel
/// iteration once the waits after it had folded too).
SmallVector<int64_t> issueSlots(ArrayRef<OpInfo> body, size_t open) {
  SmallVector<int64_t> at;
  int64_t clock = 0, pipeFree = 0;
  for (auto [i, info] : llvm::enumerate(body)) {
    int64_t slot = info.passes ? std::max(clock, pipeFree) : clock;
    at.push_back(slot);
    pipeFree = info.passes ? slot + info.passes : pipeFree;
    bool mayFold = i >= open && isWait(info.op);
    clock = slot + (mayFold ? 0 : info.slots);
  }
  at.push_back(clock);
  return at;
}

/// The slots a wait at `at` would stall for the (k+1)-th newest op counting
/// on `c` before it: its latency less the issue slots since it issued,
/// counted backwards through the body and, across the back edge, the
/// previous iterations (two at most; older ones are taken as landed).
/// Unknown (nullopt) when the walk meets an op with regions first: an
/// inner loop (a rotated outer loop's kernel) issues ops on the counter
/// that this walk cannot count, so the ticket is nearer than it looks (the
/// nested GEMM's epilogue waited 44 slots for a kernel load the walk took
/// for the previous tile's head). `slot` is issueSlots(body, open) for
/// the wait being judged.
std::optional<int64_t> stallFor(ArrayRef<OpInfo> body, ArrayRef<int64_t> slot,
                                size_t at, unsigned c, int64_t k) {
  if (k == kNone)
    return 0;
  int64_t length = slot.back(), seen = 0;
  size_t n = body.size();
  for (size_t step = 1; step <= 3 * n; ++step) {
    size_t i = (at + 3 * n - step) % n;
    if (body[i].op->getNumRegions())
      return std::nullopt;
    if (!(body[i].counters & (1u << c)) || seen++ != k)
      continue;
    int64_t iterations = int64_t((step - 1 + n - at) / n);
    int64_t distance = slot[at] + iterations * length - slot[i];
    return std::max<int64_t>(0, body[i].latency - distance);
  }
  return 0;
}

/// Folds the waits of one counted-wait loop body.
unsigned foldBody(Block &block, const TargetModel &model,
                  LdsConflictSlots &conflicts) {
  SmallVector<OpInfo> body;
  for (Operation &op : block.without_terminator())
    body.push_back(describe(&op, model, conflicts));
  unsigned folded = 0;
  int anchor = -1; // index of the wait a later one may fold into
  Counts anchorCounts{kNone, kNone};
  for (size_t j = 0; j < body.size(); ++j) {
    Operation *op = body[j].op;
    if (body[j].stops) {
      anchor = -1;
      continue;
    }
    if (!isWait(op))
      continue;
    std::optional<Counts> counts = foldableCounts(op);
    if (!counts) {
      anchor = -1;
      continue;
    }
    bool foldable = anchor >= 0;
    Counts atAnchor = *counts, merged = anchorCounts;
    for (unsigned c = VM; c <= LGKM && foldable; ++c) {
      if ((*counts)[c] == kNone)
        continue;
      int64_t between = 0;
      for (size_t x = anchor + 1; x < j; ++x)
        between += (body[x].counters >> c) & 1;
      atAnchor[c] = (*counts)[c] - between;
      foldable = atAnchor[c] >= 0;
      merged[c] = std::min(merged[c], atAnchor[c]);
    }
    if (foldable) {
      // The wait saves its issue slot; the anchor waits at most this much
      // longer for the tickets it now covers too. VMEM ops land in issue
      // order at their latency, so only the part past the ticket the anchor
      // waited for already counts; LDS ops queue on the LDS pipe (bank
      // conflicts hold it for several slots each), so the newest ticket
      // must have landed by its latency alone.
      // An unknown stall for the new ticket refuses the fold; an unknown
      // one for the ticket already waited for counts as none (the cost is
      // then an upper bound).
      int64_t cost = 0;
      SmallVector<int64_t> slot = issueSlots(body, j);
      for (unsigned c = VM; c <= LGKM && foldable; ++c) {
        if (merged[c] >= anchorCounts[c])
          continue;
        std::optional<int64_t> stall =
            stallFor(body, slot, anchor, c, merged[c]);
        if (!stall) {
          foldable = false;
          break;
        }
        int64_t already =
            c == VM
                ? stallFor(body, slot, anchor, c, anchorCounts[c]).value_or(0)
                : 0;
        cost = std::max(cost, *stall - already);
      }
      foldable = foldable && cost <= 1;
    }
    if (!foldable) {
      anchor = j;
      anchorCounts = *counts;
      continue;
    }
    setCounts(op, atAnchor);
    op->moveAfter(body[anchor].op);
    anchorCounts = merged;
    body.erase(body.begin() + j);
    --j;
    ++folded;
  }
  return folded;
}

} // namespace

unsigned waveasm::foldCountedWaits(ProgramOp program,
                                   const TargetModel &model) {
  LdsConflictSlots conflicts(program, model);
  unsigned folded = 0;
  // Innermost loops first, as Operation::walk, without its call per op.
  forEachOpPostOrder(program.getBody(), [&](Operation *op) {
    if (auto loop = dyn_cast<LoopOp>(op);
        loop && loop->hasAttr(kCountedWaitsAttrName))
      folded += foldBody(loop.getBodyBlock(), model, conflicts);
  });
  return folded;
}
