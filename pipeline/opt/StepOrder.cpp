//===- StepOrder.cpp - issue order of a pipelined loop's step -------------===//

#include "pipeline/opt/StepOrder.h"
#include "pipeline/opt/InductionStride.h"
#include "pipeline/opt/LoadsAfterReads.h"
#include "pipeline/opt/OperandFacts.h"
#include "pipeline/opt/RemovedByCleanups.h"
#include "pipeline/opt/StepMerge.h"
#include "pipeline/opt/StepReadsFirst.h"

#include "analysis/IssueRules.h"
#include "analysis/LdsBankConflicts.h"
#include "analysis/LdsRotation.h"
#include "analysis/LoopBounds.h"
#include "analysis/MemoryAlias.h"
#include "analysis/TargetModel.h"
#include "ir/Workgroup.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

#include <map>
#include <numeric>

#include <functional>
#include <limits>

using namespace mlir;
using namespace waveasm;

#define DEBUG_TYPE "waveasm-step-order"

namespace {

/// Implicit registers an op (or an op nested in it) reads and writes;
/// SCC operands and results count as reads and writes of SCC.
struct ImplicitRegs {
  unsigned reads = 0, writes = 0;
};
ImplicitRegs implicitRegs(Operation *op) {
  ImplicitRegs regs;
  op->walk([&](Operation *nested) {
    if (auto info = dyn_cast<InstInfoOpInterface>(nested)) {
      regs.reads |= info.getImplicitUses();
      regs.writes |= info.getImplicitDefs();
    }
    for (Value r : nested->getResults())
      if (isa<SCCType>(r.getType()))
        regs.writes |= ImpSCC;
    for (Value v : nested->getOperands())
      if (isa<SCCType>(v.getType()))
        regs.reads |= ImpSCC;
  });
  return regs;
}

/// The implicit-register data flow of `order` (ops of `stages`): for each
/// register other than SCC (VCC, EXEC, M0; SCC values are SSA and the SCC
/// spill/reload pass repairs their clobbers), which op each reader reads it
/// from (null: from before the step) and which op wrote it last.
std::map<std::pair<Operation *, unsigned>, Operation *>
implicitFlow(ArrayRef<Operation *> order) {
  std::map<std::pair<Operation *, unsigned>, Operation *> flow;
  std::map<unsigned, Operation *> lastWriter;
  for (Operation *op : order) {
    ImplicitRegs regs = implicitRegs(op);
    for (unsigned bit = 1; bit; bit <<= 1) {
      if (bit == ImpSCC)
        continue;
      if (regs.reads & bit)
        flow[{op, bit}] = lastWriter.count(bit) ? lastWriter[bit] : nullptr;
      if (regs.writes & bit)
        lastWriter[bit] = op;
    }
  }
  for (auto [bit, writer] : lastWriter)
    flow[{nullptr, bit}] = writer;
  return flow;
}

} // namespace

bool waveasm::keepsImplicitRegisterFlow(const LoopStages &stages,
                                        ArrayRef<Operation *> order) {
  // As written, a step's ops run oldest iteration (highest stage) first,
  // each iteration in body order.
  SmallVector<unsigned> sequential(stages.ops.size());
  std::iota(sequential.begin(), sequential.end(), 0u);
  llvm::stable_sort(sequential, [&](unsigned a, unsigned b) {
    return stages.stages[a] > stages.stages[b];
  });
  SmallVector<Operation *> written;
  for (unsigned i : sequential)
    written.push_back(stages.ops[i]);
  llvm::SmallPtrSet<Operation *, 32> inStep(stages.ops.begin(),
                                            stages.ops.end());
  SmallVector<Operation *> merged;
  for (Operation *op : order)
    if (inStep.contains(op))
      merged.push_back(op);
  return implicitFlow(written) == implicitFlow(merged);
}

bool waveasm::isOrderingOp(Operation *op) {
  if (isa<S_WAITCNT, S_NOP, S_SETPRIO, S_BARRIER>(op) ||
      op->getName().getStringRef().starts_with("waveasm.s_waitcnt"))
    return true;
  auto info = dyn_cast<InstInfoOpInterface>(op);
  return info && info.isPinned();
}

namespace {

/// Steps between a load and its readers from which a single-wave step
/// issues its LDS accesses ahead of the prefetch (computeStepOrder).
constexpr int kSingleWaveLdsFirst = 4;

/// Steps between a load and its readers from which the MFMAs of a step
/// without LDS cover its prefetch (computeStepOrder).
constexpr int kMfmaInterleaveDistance = 5;

/// Whether `hoisted` may move above `passed` (an earlier op of the same
/// stage that stays). Two writes of SCC may swap when `sccWritesSwap`: the
/// hoisted op's SCC is read through SSA by hoisted ops only (checked by the
/// caller) and no op that stays reads SCC implicitly.
/// Whether `hoisted` may issue before `passed` as far as implicit registers
/// go: neither writes one the other reads or writes (two SCC writes may
/// swap when `sccWritesSwap`).
bool implicitRegsAllowPass(Operation *hoisted, Operation *passed,
                           bool sccWritesSwap) {
  ImplicitRegs a = implicitRegs(hoisted), b = implicitRegs(passed);
  unsigned bothWrite = a.writes & b.writes;
  if (sccWritesSwap)
    bothWrite &= ~unsigned(ImpSCC);
  return !((a.writes & b.reads) | (a.reads & b.writes) | bothWrite);
}

bool mayPass(Operation *hoisted, Operation *passed, bool sccWritesSwap) {
  if (isOrderingOp(passed) || isOrderingOp(hoisted))
    return false;
  unsigned rA = memReads(hoisted), wA = memWrites(hoisted);
  unsigned rB = memReads(passed), wB = memWrites(passed);
  if ((wA & (rB | wB)) | (wB & rA))
    return false;
  return implicitRegsAllowPass(hoisted, passed, sccWritesSwap);
}

/// The body position of the first op reading `op`'s results, through ops
/// that take no issue slot (extracts, packs); max when none.
int firstConsumer(Operation *op, function_ref<int(Operation *)> bodyIndexOf,
                  int depth = 0) {
  int first = std::numeric_limits<int>::max();
  for (Operation *user : op->getUsers()) {
    if (user->getNumRegions() == 0 && getIssueCycles(user) == 0 && depth < 4)
      first = std::min(first, firstConsumer(user, bodyIndexOf, depth + 1));
    else if (int u = bodyIndexOf(user); u >= 0)
      first = std::min(first, u);
  }
  return first;
}

/// Runs of consecutive LDS reads of one stage, reordered by their first
/// consumer: reads never conflict with one another and none of a run reads
/// another's result, so any order of them computes the same. The MFMAs of
/// a step read the fragments in their own order (gemm_loop: a0 b0, a0 b1,
/// a1 b0, a1 b1 from reads written a0 a1 b0 b1), and a read issued late
/// for the first MFMA delays it a step later, when one step is about the
/// LDS latency (gemm_loop with its copy bases folded: 18 issue slots).
void orderReadsByConsumer(SmallVectorImpl<Operation *> &stream,
                          function_ref<int(Operation *)> bodyIndexOf) {
  auto isRead = [](Operation *op) {
    return op->getNumRegions() == 0 && (memReads(op) & MemLDS) &&
           !memWrites(op) && !isOrderingOp(op) && implicitRegs(op).reads == 0 &&
           implicitRegs(op).writes == 0;
  };
  for (size_t begin = 0; begin < stream.size();) {
    size_t end = begin;
    llvm::SmallPtrSet<Operation *, 8> run;
    while (end < stream.size() && isRead(stream[end]) &&
           llvm::none_of(stream[end]->getOperands(), [&](Value v) {
             return run.contains(v.getDefiningOp());
           }))
      run.insert(stream[end++]);
    if (end - begin > 1)
      std::stable_sort(stream.begin() + begin, stream.begin() + end,
                       [&](Operation *a, Operation *b) {
                         return firstConsumer(a, bodyIndexOf) <
                                firstConsumer(b, bodyIndexOf);
                       });
    begin = std::max(end, begin + 1);
  }
}

/// The LDS reads of a direct-to-LDS loop that a barrier one step on must
/// wait for, because a load of the step after it may write their bytes
/// (analysis/LdsRotation.h, the wait pass's barrier rule (b)). The reads a
/// spare buffer frees (LdsDeepening.h) are not waited for; nor are any in
/// a loop without direct-to-LDS loads (its ds_write traffic and readers
/// drain the LDS latency after the last access).
SmallVector<Operation *> readsBarrierWaitsFor(const LoopStages &stages) {
  SmallVector<Operation *> waited;
  SmallVector<int> loads;
  for (auto [i, op] : llvm::enumerate(stages.ops))
    if (isDirectToLds(op))
      loads.push_back(i);
  if (loads.empty())
    return waited;
  LdsRotation rotation(cast<LoopOp>(stages.ops.front()->getParentOp()));
  for (auto [r, read] : llvm::enumerate(stages.ops)) {
    if (!isLdsAccess(read) || (memWrites(read) & MemLDS))
      continue;
    // Read r of iteration i issues in step i + stage(r); a load l of
    // iteration i + d in step i + d + stage(l): in the same step or the
    // next one for d = stage(r) - stage(l) (+ 1).
    if (llvm::any_of(loads, [&](int l) {
          int d = stages.stages[r] - stages.stages[l];
          return (d >= 0 && rotation.mayOverlap(read, stages.ops[l], d)) ||
                 (d + 1 >= 0 &&
                  rotation.mayOverlap(read, stages.ops[l], d + 1));
        }))
      waited.push_back(read);
  }
  return waited;
}

/// Whether a direct-to-LDS loop issues every LDS read before its first
/// direct-to-LDS load (LoadsAfterReads.h), as written, and writes LDS
/// through those loads only.
bool readsBeforeLoads(const LoopStages &stages) {
  bool anyRead = false, anyLoad = false;
  for (Operation *op : stages.ops) {
    if (!isLdsAccess(op))
      continue;
    if (isDirectToLds(op))
      anyLoad = true;
    else if (memWrites(op) & MemLDS)
      return false;
    else {
      if (anyLoad)
        return false;
      anyRead = true;
    }
  }
  return anyRead && anyLoad;
}

/// The bank conflicts (analysis/LdsBankConflicts.h: the cycle model's
/// figures for the loop as written, which its pipelined copies share) of
/// the LDS reads of a direct-to-LDS loop that a barrier one step on must
/// wait for (readsBarrierWaitsFor): they hold the LDS pipe and so lengthen
/// the barrier's drain (StepClock). Rotating4 (4 buffers by hand, its
/// loads write the buffer read a step earlier): five conflicting reads
/// drained 12 slots after the last issued, so the stage-0 SALU meant for
/// the drain went after the barrier, 44.5 -> 38.8 slots per iteration
/// with them. A loop's ds_write traffic and its readers (no direct-to-LDS
/// load) keep a drain of the LDS latency after the last access.
LdsExtraSlots drainingReadConflicts(const LoopStages &stages,
                                    ArrayRef<Operation *> waited,
                                    const TargetModel &target) {
  LdsExtraSlots extra;
  if (waited.empty())
    return extra;
  auto loop = cast<LoopOp>(stages.ops.front()->getParentOp());
  ProgramIndex index(loop->getParentOfType<ProgramOp>());
  LdsBankConflicts banks(index, target);
  for (Operation *read : waited) {
    const LdsAccessInfo *info = banks.lookup(read);
    if (info && info->known && info->extraSlots)
      extra[read] = info->extraSlots;
  }
  return extra;
}

/// The ops of `stages` that the steady state's unroll (modulo variable
/// expansion, PipelineLoops.cpp) and the backend's cleanups remove, which
/// the step's issue clock counts as taking no slot: what the production
/// order's optimizations remove from the loop (RemovedByCleanups.h: the
/// scale bytes' repacking, loop-invariant and strength-reduced address
/// VALU; the preshuffled mxfp4 loop's clock counted ~50 slots a step where
/// its kernel runs ~26), same-class register
/// copies (the rotation of carried values: each unrolled step names its own
/// registers; LoopBounds.h's isScheduleArtifact) and the partial sums of
/// the induction variable other than its own step (iv + 2c, iv + 3c, ...
/// for the loads issued steps ahead: each is the next steps' iv + c, and
/// the backend's add folding and CSE share them). Counted, they filled the
/// MFMA pipe's slots in the clock that the kernel leaves idle (mxfp4
/// direct-to-LDS, 5 stages: six rotation copies and three partial sums
/// between two MFMAs issued back to back in the kernel).
FreeOps foldedByUnroll(const LoopStages &stages, const FreeOps *removed) {
  auto loop = cast<LoopOp>(stages.ops.front()->getParentOp());
  FreeOps free = removed ? *removed
                 : llvm::any_of(stages.ops, isLdsAccess)
                     ? removedByCleanups(loop)
                     : FreeOps();
  const char *whyNot = nullptr;
  std::optional<InductionVariable> iv = getInductionVariable(loop, whyNot);
  Operation *step = nullptr;
  if (iv)
    step = loop.getConditionOp()
               .getIterArgs()[iv->iv.getArgNumber()]
               .getDefiningOp();
  llvm::DenseSet<Value> partialSums;
  if (iv)
    partialSums.insert(iv->iv);
  for (Operation *op : stages.ops) {
    if (isScheduleArtifact(op)) {
      free.insert(op);
      continue;
    }
    auto add = dyn_cast<S_ADD_U32>(op);
    if (!iv || !add)
      continue;
    Value base = getConstantValue(add.getSrc1())   ? add.getSrc0()
                 : getConstantValue(add.getSrc0()) ? add.getSrc1()
                                                   : Value();
    if (!base || !partialSums.contains(base))
      continue;
    partialSums.insert(add.getDst());
    if (op != step)
      free.insert(op);
  }
  return free;
}

/// The reads-first rule (StepReadsFirst.h) on each later stage's stream;
/// whether a read moved.
bool readsAheadOfLoads(const LoopStages &stages,
                       MutableArrayRef<SmallVector<Operation *>> streams) {
  LdsRotation rotation(cast<LoopOp>(stages.ops.front()->getParentOp()));
  auto mayPassInStage = [&](Operation *hoisted, Operation *passed) {
    if (!isDirectToLds(passed) || !isLdsAccess(hoisted) || memWrites(hoisted) ||
        isOrderingOp(hoisted))
      return mayPass(hoisted, passed, false);
    // An LDS read passing a load of the same iteration: apart by the
    // rotation, and no implicit register between them.
    return implicitRegsAllowPass(hoisted, passed, false) &&
           (memReads(hoisted) & ~unsigned(MemLDS)) == 0 &&
           !rotation.mayOverlap(passed, hoisted, 0);
  };
  bool moved = false;
  for (SmallVector<Operation *> &stream : streams)
    moved |= moveReadsAheadOfLoads(stream, mayPassInStage);
  return moved;
}

} // namespace

std::optional<StepOrder> waveasm::parseStepOrder(StringRef text) {
  if (text == "body")
    return StepOrder::Body;
  if (text == "late-first")
    return StepOrder::LateFirst;
  if (text == "reads-first")
    return StepOrder::ReadsFirst;
  return std::nullopt;
}

StringRef waveasm::stepOrderName(StepOrder order) {
  switch (order) {
  case StepOrder::Body:
    return "body";
  case StepOrder::LateFirst:
    return "late-first";
  case StepOrder::ReadsFirst:
    return "reads-first";
  }
  llvm_unreachable("unknown step order");
}

SmallVector<Operation *>
waveasm::computeStepOrder(const LoopStages &stages, StepOrder order,
                          const llvm::DenseSet<Operation *> *removed) {
  SmallVector<Operation *> result;
  if (order == StepOrder::Body) {
    result.assign(stages.ops.begin(), stages.ops.end());
    return result;
  }
  int n = stages.ops.size();
  DenseMap<Operation *, int> index;
  for (auto [i, op] : llvm::enumerate(stages.ops))
    index[op] = i;
  Block *body = n ? stages.ops.front()->getBlock() : nullptr;
  auto bodyIndexOf = [&](Operation *op) {
    while (op && op->getBlock() != body)
      op = op->getParentOp();
    auto it = op ? index.find(op) : index.end();
    return it == index.end() ? -1 : it->second;
  };

  // The prefetch: stage-0 loads and, transitively, their stage-0 producers.
  SmallVector<bool> hoist(n, false);
  SmallVector<int> work;
  for (int i = 0; i < n; ++i)
    if (stages.stages[i] == 0 && isPrefetchLoad(stages.ops[i])) {
      hoist[i] = true;
      work.push_back(i);
    }
  while (!work.empty()) {
    int i = work.pop_back_val();
    stages.ops[i]->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        int p = v.getDefiningOp() ? bodyIndexOf(v.getDefiningOp()) : -1;
        if (p >= 0 && p != i && stages.stages[p] == 0 && !hoist[p]) {
          hoist[p] = true;
          work.push_back(p);
        }
      }
    });
  }
  // Every op passed by a hoisted one must allow it, and an SCC value a
  // hoisted op defines is read by hoisted ops only (the later stages come
  // between the two groups); else no hoisting.
  bool legal = true;
  bool sccWritesSwap = true;
  for (int i = 0; i < n; ++i)
    if (stages.stages[i] == 0 && !hoist[i])
      if (auto info = dyn_cast<InstInfoOpInterface>(stages.ops[i]))
        sccWritesSwap &= !(info.getImplicitUses() & ImpSCC);
  for (int h = 0; h < n && legal; ++h) {
    if (!hoist[h])
      continue;
    for (Value r : stages.ops[h]->getResults())
      if (isa<SCCType>(r.getType()))
        for (Operation *user : r.getUsers())
          if (int u = bodyIndexOf(user); u < 0 || !hoist[u])
            legal = false;
    for (int x = 0; x < h && legal; ++x)
      if (stages.stages[x] == 0 && !hoist[x])
        legal = mayPass(stages.ops[h], stages.ops[x], sccWritesSwap);
  }

  int highest = 0;
  for (int s : stages.stages)
    highest = std::max(highest, s);
  // The later stages, merged by StepMerge.h's rules: each keeps its own
  // order; MFMAs cover the LDS traffic, a barrier waits out the LDS drain,
  // else the stage whose next memory access is nearest goes first.
  SmallVector<SmallVector<Operation *>> streams;
  for (int s = highest; s >= 1; --s) {
    streams.emplace_back();
    for (int i = 0; i < n; ++i)
      if (stages.stages[i] == s)
        streams.back().push_back(stages.ops[i]);
    orderReadsByConsumer(streams.back(), bodyIndexOf);
  }
  // Reads-first differs from late-first only where a later stage issues
  // direct-to-LDS loads.
  bool readsFirst = order == StepOrder::ReadsFirst &&
                    llvm::any_of(stages.ops, isDirectToLds) &&
                    readsAheadOfLoads(stages, streams);
  const TargetModel *target = nullptr;
  if (body)
    if (auto program = body->getParentOp()->getParentOfType<ProgramOp>())
      target = &TargetModel::get(program.getTargetKind());
  FreeOps freeOps = foldedByUnroll(stages, removed);
  // A single-wave workgroup's barrier waits for no LDS access (ir/Workgroup.h).
  bool barrierDrains = body && !isDeclaredSingleWave(body->getParentOp());

  // LDS first: the later stages' LDS accesses before their first barrier
  // (with the ops before them in their stage) go ahead of the prefetch. A
  // barrier waits for every LDS access issued before it (lgkmcnt(0),
  // pipeline/InsertWaitcnt.cpp (b)), ~20 issue slots after the last one
  // (SCHEDULING-FACTS.md "LDS read/write"), so each op issued before the
  // last LDS access lengthens the step by a slot, while the prefetch's
  // loads have whole steps of slack (LDS writes of loaded data excepted,
  // below). Only when every such op may pass every prefetch op (no memory,
  // barrier, wait or implicit register between them: the hoist's test).
  SmallVector<size_t> ldsPrefix(streams.size(), 0);
  bool anyPrefix = false;
  // A global or scalar load's result, read directly or (one iteration
  // later) through the block argument it is yielded to.
  auto loadBehind = [&](Value v) -> Operation * {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != body)
        return nullptr;
      auto cond = cast<ConditionOp>(body->getTerminator());
      v = cond.getIterArgs()[arg.getArgNumber()];
    }
    Operation *def = v.getDefiningOp();
    return def && bodyIndexOf(def) >= 0 && isPrefetchLoad(def) ? def : nullptr;
  };
  // Steps between a load and `op` reading it (the fewest; none: max).
  auto stepsAfterLoad = [&](Operation *op) {
    int steps = std::numeric_limits<int>::max();
    int j = bodyIndexOf(op);
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (Operation *load = loadBehind(v); load && load != op)
          steps = std::min(steps, stages.stages[j] + isa<BlockArgument>(v) -
                                      stages.stages[bodyIndexOf(load)]);
    });
    return steps;
  };
  auto readsLoad = [&](Operation *op) { return stepsAfterLoad(op) < 3; };
  for (auto [k, stream] : llvm::enumerate(streams)) {
    for (size_t i = 0; i < stream.size(); ++i) {
      // A consumer of a global load (an LDS write of its data) read less
      // than three steps after it stays behind the prefetch: at the top of
      // the step it would wait for that load with less of the steps
      // between (gemm_loop, 5 stages: the writes 3 steps after their
      // loads go first, 37.5 -> 35.2 slots per iteration).
      if (isOrderingOp(stream[i]) || readsLoad(stream[i]))
        break;
      if ((memReads(stream[i]) | memWrites(stream[i])) & MemLDS)
        ldsPrefix[k] = i + 1;
    }
    anyPrefix |= ldsPrefix[k] > 0;
  }
  // The prefetch keeps the top of the step when a load is read one step
  // later: there the LDS ops ahead of it would come out of the load's
  // cover (3-stage double buffer: 69.5 -> 75.5 slots per iteration). With
  // two or more steps between every load and its readers they do not.
  int loadDistance = std::numeric_limits<int>::max();
  for (Operation *op : stages.ops)
    loadDistance = std::min(loadDistance, stepsAfterLoad(op));
  bool hoisted = legal && llvm::any_of(hoist, [](bool h) { return h; });
  SmallVector<size_t> coverPrefix;
  // In a single-wave workgroup the barrier drains nothing, but the LDS
  // reads still return ~20 slots after they issue, about a step of these
  // loops: the reads early in the step keep their fragments a whole step
  // ahead of the MFMAs of the next (the triple buffer, auto: 23.6 -> 18.5
  // slots per iteration). Only with four or more steps between the loads
  // and their readers: with three the prefetch keeps the top of the step
  // (gemm_loop, 5 stages: its loads issued 18 slots later there and its
  // ds_writes waited 31 for them).
  bool ldsFirst = (barrierDrains || loadDistance >= kSingleWaveLdsFirst) &&
                  anyPrefix && hoisted && loadDistance >= 2;
  // Whether `op` may issue ahead of every prefetch op (memoized: the
  // cover rule asks for MFMAs again and again). A priority change only
  // steers the arbiter, so the `s_setprio 1` in front of a stage's MFMAs
  // goes along with them (gemm_loop's MFMAs could not cover its LDS
  // traffic otherwise).
  DenseMap<Operation *, bool> passing;
  auto passesPrefetch = [&](Operation *op) {
    auto [it, inserted] = passing.try_emplace(op, true);
    if (inserted && !isa<S_SETPRIO>(op))
      for (int h = 0; h < n && it->second; ++h)
        if (hoist[h])
          it->second = mayPass(op, stages.ops[h], false);
    return it->second;
  };
  if (ldsFirst) {
    for (auto [k, stream] : llvm::enumerate(streams))
      for (size_t i = 0; i < ldsPrefix[k] && ldsFirst; ++i)
        ldsFirst = passesPrefetch(stream[i]);
    // The MFMAs that may go ahead of the prefetch as cover: the prefix of
    // MFMAs (and the extracts and packs leading into them) of each stream
    // without LDS accesses there, each passing every prefetch op.
    coverPrefix.assign(ldsPrefix);
    StepClock clock(target);
    for (auto [k, stream] : llvm::enumerate(streams))
      if (coverPrefix[k] == 0)
        while (coverPrefix[k] < stream.size() &&
               (clock.passes(stream[coverPrefix[k]]) ||
                leadsIntoMfma(stream[coverPrefix[k]]) ||
                freeOps.contains(stream[coverPrefix[k]])) &&
               passesPrefetch(stream[coverPrefix[k]]))
          ++coverPrefix[k];
  }
  // A step with LDS traffic whose MFMA passes outlast every other op's
  // issue slot plus the barrier's drain is bound by the MFMA pipe: there an
  // MFMA may cover the ops before the first LDS access too
  // (gemm_f16_32x32x8, 5 stages: the prefetch and address adds at the top
  // of each step left the pipe idle, 73.5 -> 72.5 slots per iteration).
  // Without LDS the loads lead (splitk in 2 stages: 40.3 -> 54.7 with the
  // MFMAs ahead of them).
  bool hasLds = llvm::any_of(stages.ops, isLdsAccess);
  SmallVector<Operation *> waited;
  if (hasLds && barrierDrains)
    waited = readsBarrierWaitsFor(stages);
  // A direct-to-LDS step whose barrier waits for none of its reads (a spare
  // buffer, LdsDeepening.h) has nothing to drain: the merge issues each
  // MFMA when the pipe is free and its operands are ready, its passes
  // filled by the other stages' ops (StepMerge.h). Mxfp4 direct-to-LDS, 5
  // stages, 6 buffers, its loads first: the MFMAs waited for a drain no
  // barrier has, 29.2 -> 27.0 slots per iteration swizzled (before the
  // merge filled the pipe's slots, no drain gained 0.2 a step and lost
  // more in the ramps). When its reads also come before its loads
  // (LoadsAfterReads.h) the reads lead and the MFMAs cover the loads and
  // SALU after them, each once the step's reads have issued (readyInStep):
  // 37.0 -> 29.8 slots per iteration in that form at 128 K steps.
  bool noDrain = barrierDrains && hasLds && waited.empty() &&
                 llvm::any_of(stages.ops, isDirectToLds);
  bool readsLead = noDrain && readsBeforeLoads(stages);
  bool stepDrains = barrierDrains && !noDrain;
  LdsExtraSlots ldsExtra = target && hasLds && barrierDrains
                               ? drainingReadConflicts(stages, waited, *target)
                               : LdsExtraSlots();
  bool mfmaBound = false, lightMfma = false;
  // Without LDS the MFMAs cover the prefetch in a step bound by the MFMA
  // pipe once every load is read five or more steps after it is issued
  // (kMfmaInterleaveDistance): each MFMA issues when the pipe is free and
  // the loads and their address ops fill the pipe's passes. Split-K, 5
  // stages: its six loads and three SALU ops issued before the four MFMAs,
  // the pipe idle 7 of 23 slots a step, 23.3 -> 21.0 slots per iteration.
  // Closer loads lead (the interleave moves them down to a step's passes
  // later: split-K in 2 stages 40.3 -> 54.7 with the MFMAs ahead).
  bool interleave = false;
  if (target) {
    StepClock clock(target, stepDrains && hasLds);
    int64_t passes = 0, others = 0;
    for (Operation *op : stages.ops) {
      int64_t p = clock.passes(op);
      passes += p;
      others += p || freeOps.contains(op) ? 0 : getIssueCycles(op);
    }
    if (hasLds)
      mfmaBound = passes > others + clock.drain();
    else
      interleave = mfmaBound =
          passes > others && loadDistance >= kMfmaInterleaveDistance;
    // Without a drain to cover (a single-wave workgroup) and with the MFMA
    // pipe busy at most half the step, an MFMA covering the LDS traffic
    // only moves ahead of the reads that feed the next step's MFMAs: they
    // issue after it instead (the triple buffer, 6 stages: 22.0 -> 20.3).
    lightMfma = !stepDrains && 2 * passes <= others;
  }
  int64_t prefetchOps = legal ? llvm::count(hoist, true) : 0;
  // The rest of stage 0 (loop control, the next iterations' bases and
  // offsets) as one more stream, merged last: its leading plain ops (no
  // memory, barrier, wait, implicit register or SCC value read later) fill
  // a later stage's barrier drain instead of delaying the next step's LDS
  // reads after the barrier (mxfp4 direct-to-LDS, 3 stages: five SALU ops
  // a step between the barrier and the reads). The rest after them still
  // ends the step.
  size_t restStream = streams.size();
  streams.emplace_back();
  unsigned laterStageRegs = 0;
  for (int i = 0; i < n; ++i)
    if (stages.stages[i] != 0) {
      ImplicitRegs regs = implicitRegs(stages.ops[i]);
      laterStageRegs |= regs.reads | regs.writes;
    }
  for (int i = 0; i < n; ++i) {
    Operation *op = stages.ops[i];
    if (stages.stages[i] != 0 || (legal && hoist[i]))
      continue;
    // Nor a write of an implicit register a later stage uses: a carry
    // (VCC) written here and read by a later op of the rest would let
    // another stage's VCC pair run between the two. (M0 for the next
    // direct-to-LDS loads, used by stage 0 alone, may go.)
    ImplicitRegs regs = implicitRegs(op);
    bool plain = !isOrderingOp(op) && !(memReads(op) | memWrites(op)) &&
                 op->getNumRegions() == 0 && regs.reads == 0 &&
                 (regs.writes & ~unsigned(ImpSCC) & laterStageRegs) == 0 &&
                 llvm::none_of(op->getResults(), [](Value r) {
                   return isa<SCCType>(r.getType()) && !r.use_empty();
                 });
    if (!plain)
      break;
    streams.back().push_back(op);
  }
  ldsPrefix.push_back(0);
  if (!coverPrefix.empty())
    coverPrefix.push_back(0);
  SmallVector<size_t> ends;
  for (const SmallVector<Operation *> &stream : streams)
    ends.push_back(stream.size());

  // When the MFMAs cover the prefetch, a load issues after the later
  // stages' ops that read its previous copies: its new registers then take
  // the ones those readers free in the same step, so a load's registers
  // live S - 1 steps instead of S - 1 and a part, one set of loads fewer
  // at the peak. Split-K in 6 stages: 180 -> 156 VGPRs, 2 -> 3 waves, 18.0
  // slots per iteration (5 stages at 3 waves: 21.0, its loads 5 steps
  // ahead do not cover their latency). Not elsewhere: each load is read a
  // little less than S - 1 whole steps after it issues, and scale_pack
  // (issue-bound), 8 waves in 5 stages instead of 7, lost more per wave
  // than it gained (588 cycles at 8 waves against 489 at 7).
  bool afterReaders = interleave && legal;
  DenseMap<Operation *, SmallVector<Operation *>> readersOf;
  if (afterReaders)
    for (int i = 0; i < n; ++i)
      if (stages.stages[i] != 0)
        stages.ops[i]->walk([&](Operation *nested) {
          for (Value v : nested->getOperands())
            if (Operation *load = loadBehind(v);
                load && hoist[bodyIndexOf(load)])
              readersOf[load].push_back(stages.ops[i]);
        });
  // Issues the prefetch: each MFMA the cover rule takes when the pipe is
  // free, else the first prefetch op whose operands are issued, which may
  // pass the pending ones before it and, for a load, whose readers have
  // issued; else the stream holding such a reader issues its next op.
  auto issueAfterReaders = [&](StepMerger &merger, ArrayRef<size_t> ends,
                               int64_t left, StepMerger::CoverFilter filter) {
    SmallVector<int> pending;
    for (int i = 0; i < n; ++i)
      if (hoist[i])
        pending.push_back(i);
    auto issued = [&](Operation *op) {
      return merger.getIssueSlots().count(op) != 0;
    };
    auto canIssue = [&](size_t at) {
      Operation *op = stages.ops[pending[at]];
      for (size_t q = 0; q < at; ++q)
        if (!mayPass(op, stages.ops[pending[q]], false))
          return false;
      bool operandsIssued = true;
      op->walk([&](Operation *nested) {
        for (Value v : nested->getOperands())
          if (Operation *def = v.getDefiningOp();
              def && def != op && def->getBlock() == body &&
              llvm::any_of(pending,
                           [&](int p) { return stages.ops[p] == def; }))
            operandsIssued = false;
      });
      auto it = readersOf.find(op);
      return operandsIssued &&
             (it == readersOf.end() || llvm::all_of(it->second, issued));
    };
    while (!pending.empty()) {
      merger.cover(ends, ends, left, filter);
      size_t at = 0;
      while (at < pending.size() && !canIssue(at))
        ++at;
      if (at < pending.size()) {
        merger.issue(stages.ops[pending[at]]);
        pending.erase(pending.begin() + at);
        --left;
        continue;
      }
      // The stream of the first pending load's first reader not issued.
      int stream = -1;
      for (int p : pending) {
        auto it = readersOf.find(stages.ops[p]);
        if (it == readersOf.end())
          continue;
        for (Operation *reader : it->second)
          if (!issued(reader)) {
            stream = highest - stages.stages[bodyIndexOf(reader)];
            break;
          }
        if (stream >= 0)
          break;
      }
      if (stream < 0 || merger.head(stream) >= ends[stream]) {
        merger.issue(stages.ops[pending.front()]);
        pending.erase(pending.begin());
        --left;
        continue;
      }
      SmallVector<size_t> next;
      for (unsigned k = 0; k < ends.size(); ++k)
        next.push_back(merger.head(k) + (int(k) == stream));
      merger.merge(next, next);
    }
  };

  // One step in order, the streams merged (StepMerge.h) with `ready`.
  const StepMerger *building = nullptr;
  auto build = [&](StepMerger::ReadyFn ready) {
    // Nothing to drain without LDS: the cover rule then takes an MFMA
    // whenever the pipe is free (StepMerge.h).
    StepMerger merger(streams, target, ready, stepDrains && !interleave,
                      &ldsExtra, &freeOps);
    building = &merger;
    merger.setCoverBeforeLds(mfmaBound);
    merger.setCover(!lightMfma);
    if (ldsFirst) {
      // Reads-first: the LDS accesses ahead of the prefetch issue without
      // MFMAs between them, so the loads follow the reads at once. Covered,
      // the first MFMA and its scale repacking went between the two, and
      // the preshuffled mxfp4 loop (7 buffers, a spare, 6 stages) held
      // 132 VGPRs, 3 waves, for 167 slots per kernel iteration; so 128,
      // 4 waves, 165.
      if (readsFirst)
        merger.setCover(false);
      merger.merge(ldsPrefix, coverPrefix, prefetchOps);
      merger.setCover(!lightMfma);
    }
    if (legal && afterReaders) {
      issueAfterReaders(merger, ends, prefetchOps, passesPrefetch);
    } else if (legal) {
      int64_t left = prefetchOps;
      for (int i = 0; i < n; ++i)
        if (hoist[i]) {
          merger.cover(ends, ends, left--, passesPrefetch);
          merger.issue(stages.ops[i]);
        }
    }
    merger.merge(ends, ends);
    size_t merged = 0;
    for (int i = 0; i < n; ++i)
      if (stages.stages[i] == 0 && !(legal && hoist[i]) &&
          merged++ >= streams[restStream].size())
        merger.issue(stages.ops[i]);
    return merger;
  };
  // Readiness needs the issue slots of the producers, which run in earlier
  // steps (an earlier stage of the same iteration) at the slots a first
  // merge gives them: a step later is the step's length later. An MFMA
  // reading the fragments a previous step's LDS reads returned may not
  // issue as cover before they arrive (the counted waits would stall it).
  StepMerger first = build(nullptr);
  // A merge that reorders two users of VCC, EXEC or M0 against the loop as
  // written computes something else: the body's order then.
  auto checked = [&](ArrayRef<Operation *> merged) {
    LLVM_DEBUG({
      for (Operation *op : merged)
        llvm::dbgs() << "  st" << stages.stages[bodyIndexOf(op)] << " "
                     << op->getName() << "\n";
      llvm::dbgs() << "--\n";
    });
    if (keepsImplicitRegisterFlow(stages, merged))
      return SmallVector<Operation *>(merged);
    return SmallVector<Operation *>(stages.ops.begin(), stages.ops.end());
  };
  // Without LDS accesses the cover rule never applies: one merge is it
  // (the 300-op bench loop of buffer loads and MFMAs).
  if (!target || !hasLds)
    return checked(first.getOrder());
  const DenseMap<Operation *, int64_t> &slots = first.getIssueSlots();
  int64_t length = first.getClock().now();
  auto cond = cast<ConditionOp>(body->getTerminator());
  // The slot at which `v`, read by an op of `stage`, is ready; through
  // ops that take no slot (extracts, packs) to what they read.
  // Memoized: through packs of block arguments the walk fans out at every
  // level (16-register accumulators: 16^4 calls per operand), and the cover
  // rule asks again before every op.
  DenseMap<std::tuple<void *, int, int>, int64_t> readyMemo;
  std::function<int64_t(Value, int, int)> readyValue;
  auto readyValueOnce = [&](Value v, int stage, int depth) -> int64_t {
    int steps = 0;
    if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == body) {
      v = cond.getIterArgs()[arg.getArgNumber()];
      steps = 1;
    }
    Operation *def = v.getDefiningOp();
    int p = def && def->getBlock() == body ? bodyIndexOf(def) : -1;
    auto slot = p >= 0 ? slots.find(def) : slots.end();
    if (slot == slots.end())
      return int64_t(0);
    steps += stage - stages.stages[p];
    if (def->getNumRegions() == 0 && getIssueCycles(def) == 0) {
      int64_t at = 0;
      if (depth < 4)
        for (Value operand : def->getOperands())
          at = std::max(at, readyValue(operand, stages.stages[p], depth + 1));
      return at - steps * length;
    }
    return slot->second - steps * length + target->getOpLatency(def);
  };
  readyValue = [&](Value v, int stage, int depth) {
    auto key = std::make_tuple(v.getAsOpaquePointer(), stage, depth);
    auto it = readyMemo.find(key);
    if (it != readyMemo.end())
      return it->second;
    int64_t at = readyValueOnce(v, stage, depth);
    readyMemo[key] = at;
    return at;
  };
  auto ready = [&](Operation *op) {
    int64_t at = 0;
    int stage = stages.stages[bodyIndexOf(op)];
    for (OpOperand &use : op->getOpOperands()) {
      // An accumulator chain forwards the previous MFMA's result.
      Operation *def = use.get().getDefiningOp();
      if (def && def->getBlock() == body && target->getMFMAPasses(def) &&
          target->getMFMAPasses(op) && use.getOperandNumber() == 2) {
        auto slot = slots.find(def);
        if (slot != slots.end())
          at = std::max(at,
                        slot->second + target->getMFMAChainLatency(def) -
                            (stage - stages.stages[bodyIndexOf(def)]) * length);
        continue;
      }
      at = std::max(at, readyValue(use.get(), stage, 0));
    }
    return at;
  };
  // In a single-wave step (no drain: an MFMA covers whenever its pipe is
  // free) an MFMA reading fragments the previous step's LDS reads returned
  // covers only once this step has issued those reads (for the next
  // iteration): a whole step then separates each read from its MFMA, about
  // the LDS latency in these loops. Else a covering MFMA ahead of them
  // pushes them back, and with them the same MFMA a step later (gemm_loop,
  // its copy bases folded: a wait stalled 2-3 slots a step).
  std::function<bool(Value, int, int)> waitsForRead = [&](Value v, int stage,
                                                          int depth) {
    int steps = 0;
    if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == body) {
      v = cond.getIterArgs()[arg.getArgNumber()];
      steps = 1;
    }
    Operation *def = v.getDefiningOp();
    int p = def ? bodyIndexOf(def) : -1;
    if (p < 0 || def->getBlock() != body)
      return false;
    if (def->getNumRegions() == 0 && getIssueCycles(def) == 0)
      return depth < 4 && llvm::any_of(def->getOperands(), [&](Value w) {
               return waitsForRead(w, stages.stages[p], depth + 1);
             });
    return isLdsAccess(def) && !(memWrites(def) & MemLDS) &&
           steps + stage - stages.stages[p] == 1 &&
           !building->getIssueSlots().count(def);
  };
  auto readyInStep = [&](Operation *op) -> int64_t {
    int64_t at = ready(op);
    if (stepDrains || !building || !target->getMFMAPasses(op))
      return at;
    // With the reads leading a spare buffer's step, every one of them
    // first: the counted wait before an MFMA waits for all the reads
    // issued before it (lgkmcnt in order), so an MFMA between them would
    // wait for the previous step's last reads (4 slots a step).
    if (readsLead)
      for (Operation *other : stages.ops)
        if (isLdsAccess(other) && !(memWrites(other) & MemLDS) &&
            !building->getIssueSlots().count(other))
          return std::numeric_limits<int64_t>::max() / 2;
    int stage = stages.stages[bodyIndexOf(op)];
    for (Value v : op->getOperands())
      if (waitsForRead(v, stage, 0))
        return std::numeric_limits<int64_t>::max() / 2;
    return at;
  };
  // The first merge's length ignores readiness, so it is the shortest a
  // step can be, and the second merge, reading loads whole steps of that
  // length back, finds them late: its MFMAs wait at the end of the step
  // while the step runs longer than that length. A steady step is as long
  // as the readiness it assumes: the shortest length L whose merge, loads
  // counted L slots a step back, takes no more than L (the second merge's
  // order when none does). Preshuffled mxfp4 loop, 5 stages, swizzled,
  // with the cleaned clock (foldedByUnroll): about 18 slots assumed, its
  // MFMAs behind the whole prefetch; 22 assumed, the MFMAs between the
  // loads, 27.2 slots per iteration (28.5 before both). Only in a step without
  // a drain (a single wave, a spare buffer): where the barrier waits out the
  // LDS traffic its drain, which the first merge counts, sets the length, and
  // an MFMA taken as ready earlier pushes the reads back (the lds-rotating lit
  // input, 5 stages: 51.75 -> 58.5 slots per iteration with it).
  StepMerger second = build(readyInStep);
  int64_t upper = second.getClock().now();
  for (int64_t at = stepDrains ? upper : length + 1; at < upper; ++at) {
    length = at;
    readyMemo.clear();
    StepMerger candidate = build(readyInStep);
    if (candidate.getClock().now() <= at)
      return checked(candidate.getOrder());
  }
  return checked(second.getOrder());
}
