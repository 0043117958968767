//===- MoveSynthesis.h - a short list of moves reaching an order -*- C++
//-*-===//
//
// Turns a target order of one block's ops into single-op moves ("move X
// after Y", "move X before Y") that the Conductor's validator applies one by
// one. Two constructions:
//  - chains: the ops of a longest subsequence already in target order stay
//    (walls are forced into it: they cannot move); every other op, in target
//    order, moves right after its target predecessor (or before the current
//    first op). n - LIS moves, the fewest single-op moves can do;
//  - prefix: walking the target order, each op not yet at its place moves
//    right before the op that is. Every intermediate order is then a legal
//    prefix of the target followed by the rest in input order, so no move is
//    ever rejected for dominance.
// `synthesizeMoves` returns the chains when every intermediate order keeps
// the dependence graph (checked by simulation), else the prefix moves.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_MOVESYNTHESIS_H
#define WAVEASM_CONDUCTOR_STRATEGIES_MOVESYNTHESIS_H

#include "conductor/strategies/DependenceGraph.h"

#include <string>
#include <vector>

namespace waveasm::conductor {

/// One single-op move on the ops of a block.
struct OpMove {
  mlir::Operation *op;
  mlir::Operation *anchor;
  bool after; // move `op` after `anchor`, else before it
  bool operator==(const OpMove &o) const {
    return op == o.op && anchor == o.anchor && after == o.after;
  }
};

/// Applies `move` to `order` (a list of distinct ops). False if either op
/// is missing or they are the same op.
bool applyMoveToOrder(std::vector<mlir::Operation *> &order,
                      const OpMove &move);

/// Moves taking `current` to `target` (same ops); `pinned` ops are never
/// moved (they must keep their position among the others). Chains.
std::vector<OpMove>
movesByChains(llvm::ArrayRef<mlir::Operation *> current,
              llvm::ArrayRef<mlir::Operation *> target,
              llvm::function_ref<bool(mlir::Operation *)> pinned = nullptr);
/// Prefix construction.
std::vector<OpMove> movesByPrefix(llvm::ArrayRef<mlir::Operation *> current,
                                  llvm::ArrayRef<mlir::Operation *> target);

/// The moves from the block's current order (the graph's) to `target`, a
/// legal order: chains if every step keeps the graph, else prefix.
std::vector<OpMove> synthesizeMoves(const DependenceGraph &graph,
                                    llvm::ArrayRef<mlir::Operation *> target);

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_MOVESYNTHESIS_H
