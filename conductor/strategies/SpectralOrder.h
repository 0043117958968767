//===- SpectralOrder.h - seed 002's spectral ordering of a block -*- C++
//-*-===//
//
// The spectral strategy: an order of one block's ops that keeps ops touching
// the same data close (analysis/CoAccessGraph.h), which shortens live ranges
// and keeps accesses of one buffer region together.
//  1. Fiedler order: per connected component of the co-access graph, the
//     ops sorted by their entry in the eigenvector of the second smallest
//     eigenvalue of the weighted Laplacian (Eigen's SelfAdjointEigenSolver;
//     the minimizer of sum W_ij (x_i - x_j)^2, the continuous relaxation of
//     C(pi)). Sign fixed so the vector correlates positively with the input
//     positions, ties broken by input position: the same input gives the
//     same order. Components are placed by their mean input position.
//  2. Legalization: a topological order of the DependenceGraph that takes,
//     among the ready ops, the one earliest in the Fiedler order.
//  3. Local refinement: each op slides through its independent neighbours
//     (adjacent swaps keep every dependence edge) to the position that
//     lowers C(pi) most; sweeps repeat until none helps or the budget ends.
//     The input order, refined the same way, is a second candidate (local
//     search alone sometimes beats a poor spectral start); the lower C(pi)
//     wins, the spectral one on a tie.
//  4. Rollback: the input order stays unless C(pi) drops below
//     C(input) * (1 - epsilon).
// The strategy never measures: the Session compiles the round, keeps it only
// if the metrics improve, and checks it by execution.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_SPECTRALORDER_H
#define WAVEASM_CONDUCTOR_STRATEGIES_SPECTRALORDER_H

#include "conductor/strategies/DependenceGraph.h"

#include "analysis/CoAccessGraph.h"

#include <string>
#include <vector>

namespace waveasm::conductor {

struct SpectralOptions {
  /// Relative improvement of C(pi) required to leave the input order.
  double epsilon = 0.05;
  /// Refinement sweeps over every op at most (each costs O(n * window *
  /// degree); a deterministic budget, not a clock).
  unsigned maxRefineSweeps = 32;
  /// Components larger than this keep their input order (the dense
  /// eigensolver is cubic: about 0.5 s at 1000 ops).
  unsigned maxDenseNodes = 1000;
};

/// The unconstrained Fiedler order of the graph's nodes.
std::vector<unsigned> computeFiedlerOrder(const CoAccessGraph &graph,
                                          unsigned maxDenseNodes = 1000);

/// The legal order closest to `preferred`: Kahn's algorithm picking the
/// ready op that comes first in `preferred`.
std::vector<unsigned> legalizeOrder(const DependenceGraph &deps,
                                    llvm::ArrayRef<unsigned> preferred);

/// `order` (legal) after single-op slides that lower C(pi); stays legal.
std::vector<unsigned> refineOrder(const DependenceGraph &deps,
                                  const CoAccessGraph &graph,
                                  std::vector<unsigned> order,
                                  unsigned maxSweeps);

struct SpectralResult {
  std::vector<mlir::Operation *> order; // the block's ops, new order
  double costBefore = 0, costAfter = 0; // C(pi)
  double modularityBefore = 0, modularityAfter = 0; // Q
  bool improved = false;
  std::string variant; // "spectral" or "input-refined"
  std::string reason;  // why the input order stays
};

/// The spectral strategy on `block` (its current order is the input).
SpectralResult scheduleSpectralOrder(mlir::Block &block,
                                     const SpectralOptions &options = {});

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_SPECTRALORDER_H
