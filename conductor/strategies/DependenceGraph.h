//===- DependenceGraph.h - ordering constraints of one block ----*- C++ -*-===//
//
// Which ops of one schedulable block must stay before which others, so a
// scheduler can compute any order that keeps the program's meaning:
//  - data: an op (or anything nested in an `if`/loop node) reads a value
//    defined by an earlier op of the block (def -> use);
//  - registers: implicit SCC/VCC/EXEC/M0 reads and writes of the
//    InstInfoOpInterface facts, SCC-typed results and operands, and
//    physical registers (precolored or allocated types) are resources with
//    read-after-write, write-after-read and write-after-write edges in the
//    current order (an SCC result nobody reads still clobbers SCC);
//  - memory: two accesses of overlapping memory spaces, at least one a
//    write, keep their order unless the alias query proves them disjoint;
//  - walls: pinned ops (barriers, waits, s_endpgm, terminators, labels,
//    branches, raw text, s_setprio), nested loops and ops without the
//    facts interface keep their position relative to every other op: edges
//    from every op since the previous wall and to every op up to the next.
// An `if` (or nested loop) is one node: its regions' reads, writes and
// effects are the node's.
//
// Ops are numbered by their position in the block when the graph is built;
// orders are permutations of those numbers.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_DEPENDENCEGRAPH_H
#define WAVEASM_CONDUCTOR_STRATEGIES_DEPENDENCEGRAPH_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace waveasm::conductor {

enum class DepKind : uint8_t {
  Data,     // SSA def -> use
  Register, // implicit or physical register (RAW, WAR, WAW)
  Memory,   // possibly aliasing accesses, one a write
  Wall,     // a pinned op and everything on either side of it
};
llvm::StringRef stringifyDepKind(DepKind kind);

struct DepEdge {
  unsigned from; // must come first
  unsigned to;
  DepKind kind;
};

/// Alias query between two memory ops: true if they may touch the same
/// bytes. The default is conservative by memory space.
using MayAliasFn = bool (*)(mlir::Operation *, mlir::Operation *);

class DependenceGraph {
public:
  /// The graph of `block`'s ops in their current order.
  explicit DependenceGraph(mlir::Block &block, MayAliasFn mayAlias = nullptr);

  unsigned size() const { return ops.size(); }
  mlir::Operation *getOp(unsigned i) const { return ops[i]; }
  llvm::ArrayRef<mlir::Operation *> getOps() const { return ops; }
  std::optional<unsigned> indexOf(mlir::Operation *op) const;

  /// Direct predecessors / successors (deduplicated, ascending).
  llvm::ArrayRef<unsigned> preds(unsigned i) const { return predList[i]; }
  llvm::ArrayRef<unsigned> succs(unsigned i) const { return succList[i]; }
  /// Every edge with its first reason, in (from, to) order.
  llvm::ArrayRef<DepEdge> edges() const { return edgeList; }
  /// The kind of the edge from -> to, if there is one.
  std::optional<DepKind> edgeKind(unsigned from, unsigned to) const;

  /// True if op i keeps its place relative to every other op.
  bool isWall(unsigned i) const { return wall[i]; }
  /// True if op i emits no instruction (constants, pack/extract, ...).
  bool isFree(unsigned i) const { return freeOp[i]; }

  /// Checks that `order` is a permutation of 0..size()-1 that keeps every
  /// edge; on failure says which edge it breaks (when `why` is given).
  bool isLegalOrder(llvm::ArrayRef<unsigned> order,
                    std::string *why = nullptr) const;

  /// Where op i can go when only it moves in the current order: right
  /// after any op in [lo, hi] (-1: to the front), i.e. from its last
  /// predecessor up to just before its first successor.
  std::pair<int, int> legalWindow(unsigned i) const;

private:
  void addEdge(unsigned from, unsigned to, DepKind kind);

  std::vector<mlir::Operation *> ops;
  llvm::DenseMap<mlir::Operation *, unsigned> opIndex;
  std::vector<std::vector<unsigned>> predList, succList;
  std::vector<DepEdge> edgeList;
  llvm::DenseMap<uint64_t, DepKind> edgeKinds;
  std::vector<bool> wall, freeOp;
};

/// `order` with every free op (constants, pack/extract, ...) moved right
/// before its first user, where the backend materializes it anyway, when
/// that keeps the order legal (free ops without users stay).
std::vector<unsigned> anchorFreeOps(const DependenceGraph &graph,
                                    llvm::ArrayRef<unsigned> order);

/// Conservative alias query: memory spaces overlap.
bool mayAliasBySpace(mlir::Operation *a, mlir::Operation *b);

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_DEPENDENCEGRAPH_H
