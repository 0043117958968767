//===- MoveSynthesis.cpp - a short list of moves reaching an order --------===//

#include "conductor/strategies/MoveSynthesis.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>

using namespace mlir;

namespace waveasm::conductor {

bool applyMoveToOrder(std::vector<Operation *> &order, const OpMove &move) {
  if (move.op == move.anchor)
    return false;
  auto it = llvm::find(order, move.op);
  if (it == order.end() || !llvm::is_contained(order, move.anchor))
    return false;
  order.erase(it);
  auto anchor = llvm::find(order, move.anchor);
  order.insert(move.after ? std::next(anchor) : anchor, move.op);
  return true;
}

std::vector<OpMove>
movesByChains(llvm::ArrayRef<Operation *> current,
              llvm::ArrayRef<Operation *> target,
              llvm::function_ref<bool(Operation *)> pinned) {
  unsigned n = target.size();
  llvm::DenseMap<Operation *, unsigned> curPos;
  for (unsigned i = 0; i < current.size(); ++i)
    curPos[current[i]] = i;
  // Heaviest increasing subsequence of current positions along `target`;
  // pinned ops weigh more than all others together, so it keeps them all
  // whenever an order that keeps them is possible.
  std::vector<int64_t> best(n), prev(n, -1);
  std::vector<unsigned> seq(n);
  for (unsigned i = 0; i < n; ++i)
    seq[i] = curPos.lookup(target[i]);
  auto weight = [&](unsigned i) -> int64_t {
    return pinned && pinned(target[i]) ? n + 1 : 1;
  };
  for (unsigned i = 0; i < n; ++i) {
    best[i] = weight(i);
    for (unsigned j = 0; j < i; ++j)
      if (seq[j] < seq[i] && best[j] + weight(i) > best[i]) {
        best[i] = best[j] + weight(i);
        prev[i] = j;
      }
  }
  std::vector<bool> stays(n, false);
  if (n) {
    int64_t end = std::max_element(best.begin(), best.end()) - best.begin();
    for (int64_t i = end; i >= 0; i = prev[i])
      stays[i] = true;
  }

  std::vector<OpMove> moves;
  std::vector<Operation *> order(current.begin(), current.end());
  for (unsigned i = 0; i < n; ++i) {
    if (stays[i])
      continue;
    OpMove move = i ? OpMove{target[i], target[i - 1], true}
                    : OpMove{target[i], order.front(), false};
    if (move.op == move.anchor) // already first
      continue;
    applyMoveToOrder(order, move);
    moves.push_back(move);
  }
  return moves;
}

std::vector<OpMove> movesByPrefix(llvm::ArrayRef<Operation *> current,
                                  llvm::ArrayRef<Operation *> target) {
  std::vector<OpMove> moves;
  std::vector<Operation *> order(current.begin(), current.end());
  for (unsigned i = 0; i < target.size() && i < order.size(); ++i) {
    if (order[i] == target[i])
      continue;
    OpMove move{target[i], order[i], false};
    applyMoveToOrder(order, move);
    moves.push_back(move);
  }
  return moves;
}

/// True if every order along `moves` from the graph's order keeps its edges.
static bool everyStepLegal(const DependenceGraph &graph,
                           llvm::ArrayRef<OpMove> moves) {
  std::vector<Operation *> order(graph.getOps().begin(), graph.getOps().end());
  std::vector<unsigned> pos(graph.size());
  for (const OpMove &move : moves) {
    applyMoveToOrder(order, move);
    for (unsigned p = 0; p < order.size(); ++p)
      pos[*graph.indexOf(order[p])] = p;
    unsigned i = *graph.indexOf(move.op);
    for (unsigned pred : graph.preds(i))
      if (pos[pred] > pos[i])
        return false;
    for (unsigned succ : graph.succs(i))
      if (pos[succ] < pos[i])
        return false;
  }
  return true;
}

std::vector<OpMove> synthesizeMoves(const DependenceGraph &graph,
                                    llvm::ArrayRef<Operation *> target) {
  auto pinned = [&](Operation *op) {
    std::optional<unsigned> i = graph.indexOf(op);
    return i && graph.isWall(*i);
  };
  std::vector<OpMove> chains = movesByChains(graph.getOps(), target, pinned);
  if (everyStepLegal(graph, chains))
    return chains;
  return movesByPrefix(graph.getOps(), target);
}

} // namespace waveasm::conductor
