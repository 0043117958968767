//===- LoopStages.cpp - software-pipelining stages of a loop body ---------===//

#include "analysis/LoopStages.h"
#include "analysis/LoopInvariantBases.h"
#include "analysis/MemoryAlias.h"
#include "analysis/PointerRoots.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <climits>

using namespace mlir;
using namespace waveasm;

namespace {

enum class EdgeKind : uint8_t {
  SSA,
  SCC,
  IterArg,
  Implicit,
  Wait,
  Barrier,
  Memory
};

/// A rule between two body ops: stage(to) >= stage(from), both ways when
/// `equal`. The text is built only for a reported edge (`explain`): most
/// loops report none, and formatting every edge would dominate the cost.
struct Edge {
  int from, to;
  bool equal;
  EdgeKind kind;
  /// IterArg: the argument number; Memory: the conflicting spaces;
  /// Implicit: kPreviousIteration where the reader comes first.
  unsigned extra = 0;
};

/// An Implicit edge's `extra`: the reader reads the previous iteration's
/// write.
constexpr unsigned kPreviousIteration = 1;

std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << op->getName().getStringRef() << "'";
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " at " << loc.getLine() << ":" << loc.getColumn();
  return text;
}

unsigned implicitUses(Operation *op) {
  unsigned mask = 0;
  op->walk([&](Operation *nested) {
    if (auto info = dyn_cast<InstInfoOpInterface>(nested))
      mask |= info.getImplicitUses();
  });
  return mask;
}

unsigned implicitDefs(Operation *op) {
  unsigned mask = 0;
  op->walk([&](Operation *nested) {
    if (auto info = dyn_cast<InstInfoOpInterface>(nested))
      mask |= info.getImplicitDefs();
  });
  return mask;
}

/// Steps between a register load and its first reader (LoopStages.h).
constexpr int kRegisterLoadSteps = 2;

/// A global load into registers (not into LDS, not scalar).
bool isRegisterLoad(Operation *op) {
  auto info = dyn_cast<InstInfoOpInterface>(op);
  return info && info.getLatencyClass() == LatencyClass::VMEMLoad &&
         !(memWrites(op) & MemLDS) && op->getNumResults() > 0;
}

/// Whether a reader of a register load would wait for it in the stage
/// after the load: not a memory access (LDS writes of a ping/pong keep
/// their own stage), and none of its results is yielded (a hand-written
/// prefetch: the value reaches its reader an iteration later anyway, and
/// holding the raw load longer costs the registers of its unroll: the
/// mxfp4 preshuffled loop's scale unpacking, 5 -> 4 waves).
bool waitsForRegisterLoad(Operation *op) {
  if (readsMemory(op) || writesMemory(op))
    return false;
  for (Value v : op->getResults())
    for (Operation *user : v.getUsers())
      if (isa<ConditionOp>(user))
        return false;
  return true;
}

bool isMFMA(Operation *op) {
  auto info = dyn_cast<InstInfoOpInterface>(op);
  return info && info.getExecUnit() == ExecUnit::MFMA;
}

/// The dependence rules of one loop body.
struct BodyGraph {
  LoopOp loop;
  SmallVector<Operation *> ops;
  DenseMap<Operation *, int> index;
  SmallVector<Edge> edges;
  /// Body index of the op defining the condition, -1 when outside.
  int condDef = -1;
  /// Per block argument, the body index of the op yielding it (-1: none).
  SmallVector<int> yieldDef;
  std::string failure;
  Operation *failureOp = nullptr;
  /// LDS traffic private to an iteration (ldsCopyShape): writes may run in
  /// an earlier stage than reads, each stage on its own copy.
  bool ldsPrivate = false;
  /// Body indices of the LDS writes and reads (when ldsPrivate).
  SmallVector<int> ldsWrites, ldsReads;

  BodyGraph(LoopOp loop, bool allowLdsCopies);

  /// Copies of the LDS buffers `stages` need (1 when not ldsPrivate).
  int ldsCopies(ArrayRef<int> stages) const {
    if (!ldsPrivate)
      return 1;
    int earliestWrite = INT_MAX, latestRead = 0;
    for (int w : ldsWrites)
      earliestWrite = std::min(earliestWrite, stages[w]);
    for (int r : ldsReads)
      latestRead = std::max(latestRead, stages[r]);
    return std::max(1, latestRead - earliestWrite + 1);
  }

  /// The body op (or the body op enclosing a nested op) `op` belongs to.
  int bodyIndexOf(Operation *op) const {
    Block *body = &const_cast<LoopOp &>(loop).getBodyBlock();
    while (op && op->getBlock() != body)
      op = op->getParentOp();
    if (!op)
      return -1;
    auto it = index.find(op);
    return it == index.end() ? -1 : it->second;
  }
};

BodyGraph::BodyGraph(LoopOp loop, bool allowLdsCopies) : loop(loop) {
  Block &body = loop.getBodyBlock();
  for (Operation &op : body.without_terminator()) {
    index[&op] = ops.size();
    ops.push_back(&op);
  }
  ldsPrivate = allowLdsCopies && ldsCopyShape(loop).empty();
  auto cond = cast<ConditionOp>(body.getTerminator());
  if (Operation *def = cond.getCondition().getDefiningOp())
    condDef = bodyIndexOf(def);
  yieldDef.assign(body.getNumArguments(), -1);
  for (auto [k, v] : llvm::enumerate(cond.getIterArgs()))
    if (Operation *def = v.getDefiningOp())
      yieldDef[k] = bodyIndexOf(def);

  int n = ops.size();
  // SSA and iteration edges, from every use inside each op (nested too).
  for (int j = 0; j < n; ++j) {
    ops[j]->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        if (auto arg = dyn_cast<BlockArgument>(v)) {
          if (arg.getOwner() != &body)
            continue;
          int y = yieldDef[arg.getArgNumber()];
          if (y >= 0)
            edges.push_back(
                {y, j, false, EdgeKind::IterArg, arg.getArgNumber()});
          continue;
        }
        int i = bodyIndexOf(v.getDefiningOp());
        if (i < 0 || i == j)
          continue;
        bool scc = isa<SCCType>(v.getType());
        edges.push_back({i, j, scc, scc ? EdgeKind::SCC : EdgeKind::SSA});
      }
    });
  }

  // Implicit registers: a reader shares the stage of the writer it reads.
  // Per-op facts once: the scans below are quadratic in the worst case.
  SmallVector<unsigned> defs(n), reads(n), writes(n);
  for (int i = 0; i < n; ++i) {
    defs[i] = implicitDefs(ops[i]);
    reads[i] = memReads(ops[i]);
    writes[i] = memWrites(ops[i]);
  }
  for (int j = 0; j < n; ++j) {
    unsigned uses = implicitUses(ops[j]);
    for (unsigned reg = 1; reg <= ImpM0; reg <<= 1) {
      if (!(uses & reg))
        continue;
      int writer = -1;
      for (int i = j - 1; i >= 0 && writer < 0; --i)
        if (defs[i] & reg)
          writer = i;
      if (writer >= 0) {
        edges.push_back({writer, j, true, EdgeKind::Implicit});
        continue;
      }
      // No writer before the reader: it reads what the previous iteration
      // wrote last (or, in the first, what the loop was entered with). All
      // of the body's writers share its stage: then the kernel's previous
      // step ran the last writer for the previous iteration, and no writer
      // runs before the reader's first instance in the prologue. (A select
      // of VCC above the compare that sets it, pipelined in 2 stages, read
      // its own iteration's compare.)
      for (int i = j + 1; i < n; ++i)
        if (defs[i] & reg)
          edges.push_back({i, j, true, EdgeKind::Implicit,
                           /*extra=*/kPreviousIteration});
    }
  }

  // Waits, nops and priority changes stay with the op after them (the wait
  // pass recomputes waits anyway); other pinned ops (labels, branches, raw
  // text) have no stage semantics.
  for (int j = 0; j < n; ++j) {
    Operation *op = ops[j];
    if (isa<S_WAITCNT, S_NOP, S_SETPRIO>(op) ||
        op->getName().getStringRef().starts_with("waveasm.s_waitcnt")) {
      if (j + 1 < n)
        edges.push_back({j, j + 1, true, EdgeKind::Wait});
      continue;
    }
    auto info = dyn_cast<InstInfoOpInterface>(op);
    if (info && info.isPinned() && !isa<S_BARRIER>(op) && failure.empty()) {
      failure = describe(op) + " is pinned; its place in a pipelined loop "
                               "is not defined";
      failureOp = op;
    }
  }

  // Memory and barriers.
  int firstLdsRead = n;
  if (ldsPrivate)
    for (int i = 0; i < n; ++i) {
      if (!isa<S_BARRIER>(ops[i]) && (writes[i] & MemLDS))
        ldsWrites.push_back(i);
      if (!isa<S_BARRIER>(ops[i]) && (reads[i] & MemLDS)) {
        ldsReads.push_back(i);
        firstLdsRead = std::min(firstLdsRead, i);
      }
    }
  for (int i = 0; i < n; ++i) {
    Operation *a = ops[i];
    bool barrierA = isa<S_BARRIER>(a);
    unsigned rA = reads[i], wA = writes[i];
    if (!barrierA && !(rA | wA))
      continue;
    for (int j = i + 1; j < n; ++j) {
      Operation *b = ops[j];
      bool barrierB = isa<S_BARRIER>(b);
      unsigned rB = reads[j], wB = writes[j];
      if (barrierA || barrierB) {
        unsigned other = barrierA ? (rB | wB) : (rA | wA);
        if (ldsPrivate) {
          // A barrier before the first read orders the writes (shares
          // their stage), one after it the reads.
          int barrier = barrierA ? i : j;
          unsigned side = barrier < firstLdsRead ? (barrierA ? wB : wA)
                                                 : (barrierA ? rB : rA);
          if (!(barrierA && barrierB) && (side & MemLDS))
            edges.push_back({i, j, true, EdgeKind::Barrier});
          continue;
        }
        if ((barrierA && barrierB) || (other & MemLDS))
          edges.push_back({i, j, true, EdgeKind::Barrier});
        continue;
      }
      unsigned conflict = (wA & (rB | wB)) | (wB & rA);
      if (!conflict)
        continue;
      if (ldsPrivate && conflict == MemLDS && !(wA & wB & MemLDS)) {
        // A write before a read of the same iteration (the shape puts every
        // write first): the read may run in a later stage, on the copy of
        // its own iteration.
        edges.push_back({i, j, false, EdgeKind::Memory, conflict});
        continue;
      }
      // Two arguments the program declares apart stay apart in every
      // iteration, whatever their addresses advance by.
      if (!(conflict & MemLDS) && inDistinctNoAliasArgs(a, b))
        continue;
      bool mayAlias = true;
      if (!(conflict & MemLDS) && hasLoopInvariantBases(a, loop) &&
          hasLoopInvariantBases(b, loop))
        mayAlias = alias(a, b) != AliasResult::NoAlias;
      if (!mayAlias)
        continue;
      edges.push_back({i, j, true, EdgeKind::Memory, conflict});
    }
  }
}

/// The dependence an edge stands for, in words.
std::string explain(const BodyGraph &graph, const Edge &edge) {
  Operation *from = graph.ops[edge.from], *to = graph.ops[edge.to];
  switch (edge.kind) {
  case EdgeKind::SSA:
  case EdgeKind::SCC:
    return llvm::formatv("{0} uses the {2}result of {1}", describe(to),
                         describe(from),
                         edge.kind == EdgeKind::SCC ? "SCC " : "")
        .str();
  case EdgeKind::IterArg:
    return llvm::formatv("{0} reads iter_arg {1} that {2} yields in the "
                         "previous iteration",
                         describe(to), edge.extra, describe(from))
        .str();
  case EdgeKind::Implicit:
    return llvm::formatv("{0} reads an implicit register {1} writes{2}",
                         describe(to), describe(from),
                         edge.extra == kPreviousIteration
                             ? " in the previous iteration"
                             : "")
        .str();
  case EdgeKind::Wait:
    return llvm::formatv("{0} waits right before {1}", describe(from),
                         describe(to))
        .str();
  case EdgeKind::Barrier:
    return llvm::formatv("{0} and {1}: a barrier orders LDS accesses",
                         describe(from), describe(to))
        .str();
  case EdgeKind::Memory: {
    bool fromWrites = memWrites(from) & edge.extra;
    Operation *writer = fromWrites ? from : to;
    Operation *other = fromWrites ? to : from;
    std::string text =
        llvm::formatv("memory dependence: {0} writes {1} memory that {2} "
                      "may access in another iteration",
                      describe(writer), describeSpaces(edge.extra),
                      describe(other))
            .str();
    if (std::string hint = noAliasHint(writer, other); !hint.empty())
      text += " (" + hint + ")";
    return text;
  }
  }
  return "";
}

/// Raises stages until every edge holds; records in `reason` the edge that
/// last raised each op. Stages only grow and are bounded, so it ends.
void propagate(const BodyGraph &graph, SmallVectorImpl<int> &stages,
               SmallVectorImpl<int> &reason) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto [e, edge] : llvm::enumerate(graph.edges)) {
      if (stages[edge.to] < stages[edge.from]) {
        stages[edge.to] = stages[edge.from];
        reason[edge.to] = e;
        changed = true;
      }
      if (edge.equal && stages[edge.from] < stages[edge.to]) {
        stages[edge.from] = stages[edge.to];
        reason[edge.from] = e;
        changed = true;
      }
    }
  }
}

/// The first edge `stages` break (a later stage before an earlier one, or
/// two stages where the edge asks for one), or null.
const Edge *firstBrokenEdge(const BodyGraph &graph, ArrayRef<int> stages) {
  for (const Edge &edge : graph.edges) {
    int from = stages[edge.from], to = stages[edge.to];
    if (to < from || (edge.equal && to != from))
      return &edge;
  }
  return nullptr;
}

/// Whether every result of `op` is a virtual VGPR (VALU arithmetic: no
/// SCC, no scalar value whose stage the loop control or an M0 write reads).
bool definesOnlyVgprs(Operation *op) {
  return op->getNumResults() > 0 &&
         llvm::all_of(op->getResultTypes(),
                      [](Type type) { return isa<VRegType>(type); });
}

/// Propagation raises a load to the stage of an op it must share one with
/// (a direct-to-LDS load joins its barrier's stage, after the LDS reads),
/// but the pure ops computing its operands were placed before that, as
/// late as the load's anchor allowed: their results then cross stages and
/// the pipelined kernel carries them (the preshuffled mxfp4 loop's A
/// voffsets, computed three steps before their loads: 3 VGPR iter_args,
/// and 9 VALU a kernel iteration the production order could not fold into
/// the load's soffset). Raises every op that is not anchored, touches no
/// memory and defines only VGPRs to its users' earliest stage again, then
/// propagates; keeps `stages` when the result breaks a rule. Scalar ops
/// stay: a carried SGPR costs no VGPR, and moving the loop control's
/// clones would reorder the step (StepOrder.h merges by stage streams).
void sinkToUsers(const BodyGraph &graph, ArrayRef<int> anchor,
                 ArrayRef<SmallVector<int, 4>> users,
                 SmallVectorImpl<int> &stages, SmallVectorImpl<int> &reason) {
  int n = stages.size();
  SmallVector<int> sunk(stages.begin(), stages.end());
  bool changed = false, again = true;
  while (again) {
    again = false;
    for (int i = n - 1; i >= 0; --i) {
      Operation *op = graph.ops[i];
      if (anchor[i] >= 0 || users[i].empty() || !definesOnlyVgprs(op) ||
          readsMemory(op) || writesMemory(op))
        continue;
      int s = INT_MAX;
      for (int user : users[i])
        s = std::min(s, sunk[user]);
      if (s > sunk[i]) {
        sunk[i] = s;
        again = changed = true;
      }
    }
  }
  if (!changed)
    return;
  SmallVector<int> sunkReason(reason.begin(), reason.end());
  propagate(graph, sunk, sunkReason);
  if (firstBrokenEdge(graph, sunk))
    return;
  if (graph.condDef >= 0 && sunk[graph.condDef] != stages[graph.condDef])
    return;
  stages.assign(sunk.begin(), sunk.end());
  reason.assign(sunkReason.begin(), sunkReason.end());
}

/// The first rule `stages` break, or "".
std::string checkRules(const BodyGraph &graph, ArrayRef<int> stages,
                       int numStages, Operation *&where) {
  for (auto [i, s] : llvm::enumerate(stages))
    if (s < 0 || s >= numStages) {
      where = graph.ops[i];
      return llvm::formatv("{0} has stage {1}, outside 0..{2}",
                           describe(graph.ops[i]), s, numStages - 1)
          .str();
    }
  if (const Edge *edge = firstBrokenEdge(graph, stages)) {
    where = graph.ops[edge->to];
    return llvm::formatv("stage {0} vs {1}: {2}", stages[edge->from],
                         stages[edge->to], explain(graph, *edge))
        .str();
  }
  if (graph.condDef >= 0 && stages[graph.condDef] != 0) {
    where = graph.ops[graph.condDef];
    return llvm::formatv("loop control {0} is in stage {1}, not 0",
                         describe(where), stages[graph.condDef])
        .str();
  }
  return "";
}

} // namespace

int LoopStages::indexOf(Operation *op) const {
  auto it = llvm::find(ops, op);
  return it == ops.end() ? -1 : int(it - ops.begin());
}

SmallVector<int> waveasm::computeClusters(ArrayRef<int> stages) {
  SmallVector<int> clusters;
  int cluster = -1;
  for (auto [i, s] : llvm::enumerate(stages)) {
    if (i == 0 || s != stages[i - 1])
      ++cluster;
    clusters.push_back(cluster);
  }
  return clusters;
}

bool waveasm::hasLoopStages(LoopOp loop) {
  for (Operation &op : loop.getBodyBlock())
    if (op.hasAttr(kStageAttrName))
      return true;
  return false;
}

LoopStages waveasm::computeLoopStages(LoopOp loop, int numStages,
                                      bool allowLdsCopies) {
  BodyGraph graph(loop, allowLdsCopies);
  LoopStages result;
  result.ops = graph.ops;
  result.numStages = numStages;
  int n = graph.ops.size();
  if (!graph.failure.empty()) {
    result.failure = graph.failure;
    result.failureOp = graph.failureOp;
    return result;
  }
  int last = numStages - 1;

  // Anchors: loads early, MFMAs late, loop control in stage 0; with three
  // or more stages a load's direct consumers get the stage before the last
  // (a stage of their own, as far from the load as the MFMAs allow: a
  // global load takes ~100 issue slots, SCHEDULING-FACTS.md, more than one
  // step of our GEMM loops).
  SmallVector<int> anchor(n, -1);
  for (int i = 0; i < n; ++i) {
    if (isPrefetchLoad(graph.ops[i]))
      anchor[i] = 0;
    else if (isMFMA(graph.ops[i]))
      anchor[i] = last;
  }
  if (graph.condDef >= 0)
    anchor[graph.condDef] = 0;
  // A register load (a buffer load into VGPRs) is read at least two steps
  // after it: its ~100-slot latency (SCHEDULING-FACTS.md) is more than one
  // step of our GEMM loops (45-70 slots), so with three stages its
  // computing consumers join the MFMAs instead of waiting in the step after
  // the load (attention #0 in 3 stages: 67.0 -> 45.7 per iteration).
  // A loop without MFMAs (a streaming loop: load, compute, store) has no
  // later stage to keep free, so its register loads' consumers take the
  // last one: S stages then read a load S - 1 steps after it, and the
  // stage count is the prefetch distance (attention #0 in 5 stages: the
  // consumers in stage 3 read 3 steps on and waited 62 slots per kernel
  // iteration).
  bool streaming = llvm::none_of(graph.ops, isMFMA);
  int registerLoadStage =
      streaming ? last : std::max(last - 1, kRegisterLoadSteps);
  if (numStages >= 3)
    for (const Edge &edge : graph.edges)
      if (!edge.equal && anchor[edge.to] < 0 &&
          isPrefetchLoad(graph.ops[edge.from]))
        anchor[edge.to] = isRegisterLoad(graph.ops[edge.from]) &&
                                  waitsForRegisterLoad(graph.ops[edge.to])
                              ? registerLoadStage
                              : last - 1;
  // Ping/pong: the LDS writes one stage before the last, so the
  // write -> barrier -> read chain of iteration j overlaps the MFMAs of
  // iteration j - 1.
  for (int w : graph.ldsWrites)
    if (anchor[w] < 0)
      anchor[w] = std::max(0, last - 1);
  // With four or more stages the LDS reads get a stage of their own, one
  // before the MFMAs, and the writes the one before that: the steady state
  // then issues the reads of iteration j + 1 and the writes of j + 2 while
  // the MFMAs of j run on fragments read one step earlier, so neither the
  // LDS latency before the first MFMA (~20 issue slots, SCHEDULING-FACTS.md
  // "LDS read") nor the write -> barrier -> read chain sits on the MFMAs'
  // path; the loads keep last - 2 stages to land before their writes. With
  // three stages the reads stay with the MFMAs: a read in the writes' stage
  // would drain the writes and the reads at two barriers of one step.
  if (numStages >= 4 && graph.ldsPrivate) {
    for (int w : graph.ldsWrites)
      anchor[w] = last - 2;
    for (int r : graph.ldsReads)
      anchor[r] = last - 1;
  }
  // Without ping/pong every LDS access and barrier shares one stage; with
  // three or more stages that stage is the one before the MFMAs when an LDS
  // read feeds an MFMA, for the same reason: the MFMAs of iteration j run
  // on fragments read one step earlier instead of waiting for the reads of
  // their own step (mxfp4 loops: 21 slots before the first MFMA).
  if (numStages >= 3 && !graph.ldsPrivate)
    for (const Edge &edge : graph.edges)
      if (edge.kind == EdgeKind::SSA && isMFMA(graph.ops[edge.to]) &&
          anchor[edge.from] < 0 && !isa<S_BARRIER>(graph.ops[edge.from]) &&
          (memReads(graph.ops[edge.from]) & MemLDS))
        anchor[edge.from] = last - 1;

  // Everything else as late as its users allow (their minimum stage), so
  // address arithmetic follows its load into stage 0.
  SmallVector<int> stages(n, last);
  for (int i = 0; i < n; ++i)
    if (anchor[i] >= 0)
      stages[i] = anchor[i];
  // A barrier, a wait or an implicit-register writer follows the ops it is
  // tied to (a wait before a load, the barrier after ping/pong LDS writes,
  // the s_mov_b32_m0 before a direct-to-LDS load) instead of starting in
  // the last stage and pulling them there.
  SmallVector<SmallVector<int, 4>> users(n);
  for (const Edge &edge : graph.edges) {
    if (!edge.equal) {
      users[edge.from].push_back(edge.to);
    } else if (edge.kind == EdgeKind::Barrier || edge.kind == EdgeKind::Wait ||
               edge.kind == EdgeKind::Implicit) {
      users[edge.from].push_back(edge.to);
      users[edge.to].push_back(edge.from);
    }
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (int i = n - 1; i >= 0; --i) {
      if (anchor[i] >= 0)
        continue;
      int s = last;
      for (int user : users[i])
        s = std::min(s, stages[user]);
      if (s < stages[i]) {
        stages[i] = s;
        changed = true;
      }
    }
  }

  SmallVector<int> reason(n, -1);
  propagate(graph, stages, reason);
  sinkToUsers(graph, anchor, users, stages, reason);

  Operation *where = nullptr;
  result.stages = stages;
  result.failure = checkRules(graph, stages, numStages, where);
  result.failureOp = where;
  if (!result.ok())
    return result;

  // Pipelining pays when a load runs ahead of the last stage; address
  // arithmetic alone in an earlier stage gains nothing.
  int highest = n ? *llvm::max_element(stages) : 0;
  bool loadAhead = false;
  for (int i = 0; i < n; ++i)
    loadAhead |= isPrefetchLoad(graph.ops[i]) && stages[i] < highest;
  if (!loadAhead) {
    // Name what pulled a load late, the usual culprit.
    for (int i = 0; i < n; ++i)
      if (isPrefetchLoad(graph.ops[i]) && reason[i] >= 0) {
        result.failure =
            "no load can run ahead: " + explain(graph, graph.edges[reason[i]]) +
            ", so they share a stage";
        result.failureOp = graph.ops[i];
        return result;
      }
    result.failure = "no load to run ahead of the loop's last stage";
    result.failureOp = loop;
    return result;
  }
  result.clusters = computeClusters(stages);
  result.ldsCopies = graph.ldsCopies(stages);
  return result;
}

LoopStages waveasm::readLoopStages(LoopOp loop, bool allowLdsCopies) {
  BodyGraph graph(loop, allowLdsCopies);
  LoopStages result;
  result.ops = graph.ops;
  if (!graph.failure.empty()) {
    result.failure = graph.failure;
    result.failureOp = graph.failureOp;
    return result;
  }
  int highest = 0;
  for (Operation *op : graph.ops) {
    auto attr = op->getAttrOfType<IntegerAttr>(kStageAttrName);
    if (!attr) {
      result.failure = describe(op) + " has no " + kStageAttrName.str();
      result.failureOp = op;
      return result;
    }
    result.stages.push_back(attr.getInt());
    highest = std::max<int>(highest, attr.getInt());
  }
  result.numStages = highest + 1;
  if (auto attr = loop->getAttrOfType<IntegerAttr>(kNumStagesAttrName))
    result.numStages = attr.getInt();
  Operation *where = nullptr;
  result.failure = checkRules(graph, result.stages, result.numStages, where);
  result.failureOp = where;
  result.clusters = computeClusters(result.stages);
  if (result.ok())
    result.ldsCopies = graph.ldsCopies(result.stages);
  return result;
}

std::string waveasm::ldsCopyShape(LoopOp loop) {
  Block &body = loop.getBodyBlock();
  int firstWrite = -1, lastWrite = -1, firstRead = -1, lastRead = -1;
  SmallVector<int> barriers;
  Operation *lastWriteOp = nullptr, *firstReadOp = nullptr;
  int i = 0;
  for (Operation &op : body.without_terminator()) {
    int at = i++;
    if (isa<S_BARRIER>(op)) {
      barriers.push_back(at);
      continue;
    }
    bool nestedLds = false;
    for (Region &region : op.getRegions())
      region.walk([&](Operation *nested) {
        nestedLds |= bool((memReads(nested) | memWrites(nested)) & MemLDS);
      });
    if (nestedLds)
      return describe(&op) + " accesses LDS inside a region";
    unsigned r = memReads(&op) & MemLDS, w = memWrites(&op) & MemLDS;
    if (!r && !w)
      continue;
    std::optional<MemoryAccess> access = getMemoryAccess(&op);
    if (!access || access->spaces != MemLDS || !access->base || !access->offset)
      return describe(&op) +
             " is not a single-address ds op, so its LDS copy cannot be "
             "rotated";
    if (r && w)
      return describe(&op) + " both reads and writes LDS";
    if (w) {
      if (loop.getBody().isAncestor(access->base.getParentRegion()))
        return describe(&op) + " writes LDS at an address computed in the "
                               "loop";
      if (firstRead >= 0)
        return describe(&op) + " writes LDS after " + describe(firstReadOp) +
               " reads it in the same iteration (data crosses iterations)";
      if (firstWrite < 0)
        firstWrite = at;
      lastWrite = at;
      lastWriteOp = &op;
    } else {
      if (firstRead < 0) {
        firstRead = at;
        firstReadOp = &op;
      }
      lastRead = at;
    }
  }
  if (firstWrite < 0 || firstRead < 0)
    return "the loop does not both write and read LDS";
  auto barrierIn = [&](int lo, int hi) {
    return llvm::any_of(barriers, [&](int b) { return lo < b && b < hi; });
  };
  if (!barrierIn(lastWrite, firstRead))
    return "no s_barrier between " + describe(lastWriteOp) + " and " +
           describe(firstReadOp);
  if (!barrierIn(lastRead, INT_MAX) && !barrierIn(-1, firstWrite))
    return "no s_barrier after the last LDS read or before the first LDS "
           "write (write-after-read across waves)";
  return "";
}

bool waveasm::isPrefetchLoad(Operation *op) {
  auto info = dyn_cast<InstInfoOpInterface>(op);
  if (!info)
    return false;
  LatencyClass lat = info.getLatencyClass();
  return lat == LatencyClass::VMEMLoad || lat == LatencyClass::SMEM;
}
