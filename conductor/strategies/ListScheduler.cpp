//===- ListScheduler.cpp - latency-aware list scheduling ------------------===//

#include "conductor/strategies/ListScheduler.h"

#include "conductor/strategies/LocalSearch.h"
#include "conductor/strategies/SchedulingModel.h"

#include <numeric>
#include <tuple>

using namespace mlir;

namespace waveasm::conductor {

std::vector<unsigned> listScheduleOrder(const DependenceGraph &graph,
                                        const TargetModel &target,
                                        const ListScheduleOptions &options) {
  SchedulingModel model(graph, target);
  unsigned n = graph.size();
  std::vector<unsigned> input(n);
  std::iota(input.begin(), input.end(), 0);
  RegVector cap = model.simulatePressure(input).peak;
  for (int64_t &c : cap)
    c = std::max<int64_t>(0, c - options.capSlack);

  LiveTracker live(model);
  std::vector<unsigned> waitingPreds(n);
  std::vector<int64_t> readyAt(n, 0), issueAt(n, 0);
  std::vector<unsigned> candidates, order;
  order.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    waitingPreds[i] = graph.preds(i).size();
    if (!waitingPreds[i])
      candidates.push_back(i);
  }

  // LDS reads placed whose data users are not all placed yet.
  std::vector<unsigned> unplacedDataUsers(n, 0);
  for (const DepEdge &e : graph.edges())
    if (e.kind == DepKind::Data && model.op(e.from).isLDSRead)
      ++unplacedDataUsers[e.from];
  unsigned pendingLDSReads = 0;

  int64_t clock = 0, mfmaFree = 0;
  while (!candidates.empty()) {
    using Key =
        std::tuple<int, int, int, int64_t, int64_t, int64_t, int, unsigned>;
    std::optional<Key> bestKey;
    size_t bestSlot = 0;
    for (size_t slot = 0; slot < candidates.size(); ++slot) {
      unsigned c = candidates[slot];
      const SchedOp &op = model.op(c);
      int64_t est = clock;
      if (op.issueCycles) {
        est = std::max(est, readyAt[c]);
        if (op.mfmaOccupancy)
          est = std::max(est, mfmaFree);
      }
      int over = 0;
      int64_t peakSum = 0;
      if (options.capPressure) {
        RegVector peak = live.peakIfPlaced(c);
        for (unsigned k = 0; k < kNumTrackedClasses; ++k) {
          over |= peak[k] > cap[k];
          peakSum += peak[k];
        }
      }
      int64_t priority =
          model.height(c) + (op.isGlobalLoad ? options.globalLoadBoost : 0);
      int loadFirst = options.sourceOrderTies ? 0 : (op.isGlobalLoad ? 0 : 1);
      int throttled = options.maxPendingLDSReads && op.isLDSRead &&
                      pendingLDSReads >= options.maxPendingLDSReads;
      int deferred = options.deferDeadResults && op.deadResults;
      Key key{over, deferred,  throttled, over ? peakSum : 0,
              est,  -priority, loadFirst, c};
      if (!bestKey || key < *bestKey) {
        bestKey = key;
        bestSlot = slot;
      }
    }
    unsigned c = candidates[bestSlot];
    candidates.erase(candidates.begin() + bestSlot);
    const SchedOp &op = model.op(c);
    int64_t issue = std::get<4>(*bestKey);
    if (!op.issueCycles)
      issue = std::max(clock, readyAt[c]); // free: ready when its inputs are
    else
      clock = issue + op.issueCycles;
    if (op.mfmaOccupancy)
      mfmaFree = issue + op.mfmaOccupancy;
    issueAt[c] = issue;
    live.place(c);
    order.push_back(c);
    if (op.isLDSRead && unplacedDataUsers[c])
      ++pendingLDSReads;
    for (unsigned p : graph.preds(c))
      if (model.op(p).isLDSRead && graph.edgeKind(p, c) == DepKind::Data &&
          --unplacedDataUsers[p] == 0)
        --pendingLDSReads;
    for (unsigned s : graph.succs(c)) {
      readyAt[s] = std::max(readyAt[s], issue + model.edgeLatency(c, s));
      if (--waitingPreds[s] == 0)
        candidates.push_back(s);
    }
  }
  assert(order.size() == n && "dependence graph has a cycle");

  // Twice: a free op feeding another free op anchors to the second one's
  // new place only on the second round.
  order = anchorFreeOps(graph, order);
  order = anchorFreeOps(graph, order);
  return order;
}

std::vector<ListScheduleOptions> listScheduleVariants() {
  std::vector<ListScheduleOptions> variants;
  auto add = [&](bool cap, int64_t slack, unsigned lds, bool sourceTies) {
    ListScheduleOptions o;
    o.capPressure = cap;
    o.capSlack = slack;
    o.maxPendingLDSReads = lds;
    o.sourceOrderTies = sourceTies;
    o.deferDeadResults = !sourceTies;
    variants.push_back(o);
  };
  for (int64_t slack : {0, 8, 16, 32})
    for (unsigned lds : {0u, 2u, 4u})
      for (bool sourceTies : {false, true})
        if (slack == 0 || lds != 2)
          add(true, slack, lds, sourceTies);
  for (unsigned lds : {0u, 2u, 4u})
    for (bool sourceTies : {false, true})
      add(false, 0, lds, sourceTies);
  return variants;
}

static std::string describe(const ListScheduleOptions &o) {
  return (llvm::Twine(o.capPressure ? "cap-" + std::to_string(o.capSlack)
                                    : std::string("nocap")) +
          (o.sourceOrderTies ? ",source-ties" : ",load-ties") +
          ",load-boost=" + llvm::Twine(o.globalLoadBoost) +
          ",lds-pending=" + llvm::Twine(o.maxPendingLDSReads) +
          (o.deferDeadResults ? ",dead-last" : ""))
      .str();
}

StrategyResult scheduleListLatencyOrder(Block &block, const TargetModel &target,
                                        const CompileOptions &options,
                                        const LocalSearchOptions &refine) {
  StrategyResult result;
  for (Operation &op : block)
    result.order.push_back(&op);
  DependenceGraph graph(block);
  ScheduleEvaluator evaluator(block, options, /*robust=*/true);
  result.before = evaluator.measureInput();
  result.after = result.before;
  if (!result.before)
    return result;

  std::vector<std::vector<unsigned>> tried;
  // The fastest order above the register limit, if faster than every order
  // within it: local search may bring its registers down.
  std::optional<BlockMeasure> fastest;
  std::vector<Operation *> fastestOrder;
  std::string fastestVariant;
  for (const ListScheduleOptions &variant : listScheduleVariants()) {
    std::vector<unsigned> order = listScheduleOrder(graph, target, variant);
    if (llvm::is_contained(tried, order))
      continue;
    tried.push_back(order);
    std::vector<Operation *> ops;
    for (unsigned i : order)
      ops.push_back(graph.getOp(i));
    std::optional<BlockMeasure> m = evaluator.measure(ops);
    result.tried.push_back({describe(variant), m});
    if (!m)
      continue;
    if (!isFeasible(*m, *result.before)) {
      if (!fastest || m->cycles < fastest->cycles) {
        fastest = m;
        fastestOrder = ops;
        fastestVariant = describe(variant);
      }
      continue;
    }
    if (!isFasterWithin(*m, *result.after, *result.before))
      continue;
    result.after = m;
    result.order = std::move(ops);
    result.improved = true;
    result.variant = describe(variant);
  }

  // Measured single moves. When an order above the register limit is
  // faster than every order within it, half the budget first tries to bring
  // it down to the limit; the rest (all of it otherwise) improves the best
  // order within the limit (the input when no variant is).
  std::optional<BlockMeasure> other;
  unsigned otherMoves = 0;
  unsigned start = evaluator.getNumMeasured();
  if (fastest && fastest->cycles < result.after->cycles) {
    LocalSearchOptions half = refine;
    half.budget = refine.budget / 2;
    other = *fastest;
    otherMoves = refineBySingleMoves(graph, evaluator, fastestOrder, *other,
                                     *result.before, half);
  }
  LocalSearchOptions rest = refine;
  unsigned used = evaluator.getNumMeasured() - start;
  rest.budget = used < refine.budget ? refine.budget - used : 0;
  BlockMeasure current = *result.after;
  unsigned moves = refineBySingleMoves(graph, evaluator, result.order, current,
                                       *result.before, rest);
  if (moves) {
    result.after = current;
    result.improved = true;
    result.variant = (result.variant.empty() ? "input" : result.variant) +
                     " + " + std::to_string(moves) + " measured moves";
  }
  if (other && isFasterWithin(*other, *result.after, *result.before)) {
    result.after = other;
    result.order = std::move(fastestOrder);
    result.improved = true;
    result.variant = fastestVariant + " + " + std::to_string(otherMoves) +
                     " measured moves (registers brought down)";
  }
  return result;
}

} // namespace waveasm::conductor
