//===- DependenceGraph.cpp - ordering constraints of one block ------------===//

#include "conductor/strategies/DependenceGraph.h"

#include "ir/Dialect.h"
#include "ir/InstFacts.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;

namespace waveasm::conductor {

llvm::StringRef stringifyDepKind(DepKind kind) {
  switch (kind) {
  case DepKind::Data:
    return "data";
  case DepKind::Register:
    return "register";
  case DepKind::Memory:
    return "memory";
  case DepKind::Wall:
    return "wall";
  }
  return "?";
}

bool mayAliasBySpace(Operation *a, Operation *b) {
  InstFacts fa = lookupInstFacts(a), fb = lookupInstFacts(b);
  unsigned aAll = fa.memReads | fa.memWrites;
  unsigned bAll = fb.memReads | fb.memWrites;
  return (fa.memWrites & bAll) || (fb.memWrites & aAll);
}

namespace {

/// What a node (an op with everything nested in it) reads and writes.
struct NodeEffects {
  unsigned memReads = 0, memWrites = 0;
  llvm::SmallVector<uint32_t, 4> regReads, regWrites; // resource keys
  bool hasRegions = false;
};

// Resource keys: the four implicit registers, then physical registers by
// class and index.
constexpr uint32_t kSCC = 0, kVCC = 1, kEXEC = 2, kM0 = 3;
constexpr uint32_t kPhysBase = 16;

void addImplicit(unsigned mask, llvm::SmallVectorImpl<uint32_t> &keys) {
  if (mask & ImpSCC)
    keys.push_back(kSCC);
  if (mask & ImpVCC)
    keys.push_back(kVCC);
  if (mask & ImpEXEC)
    keys.push_back(kEXEC);
  if (mask & ImpM0)
    keys.push_back(kM0);
}

/// Register resources a value of `type` occupies (SCC and physical
/// registers; virtual registers are SSA and need no resource).
void addTypeKeys(Type type, llvm::SmallVectorImpl<uint32_t> &keys) {
  if (isa<SCCType>(type)) {
    keys.push_back(kSCC);
    return;
  }
  std::optional<int64_t> index = getPhysicalIndex(type);
  std::optional<RegClass> cls = getRegClass(type);
  if (!index || !cls)
    return;
  int64_t size = getRegSize(type);
  for (int64_t k = 0; k < size; ++k)
    keys.push_back(kPhysBase + static_cast<uint32_t>(*cls) * 4096 +
                   static_cast<uint32_t>(*index + k));
}

void collectEffects(Operation *op, NodeEffects &fx) {
  InstFacts facts = lookupInstFacts(op);
  fx.memReads |= facts.memReads;
  fx.memWrites |= facts.memWrites;
  addImplicit(facts.implicitUses, fx.regReads);
  addImplicit(facts.implicitDefs, fx.regWrites);
  for (Type t : op->getOperandTypes())
    addTypeKeys(t, fx.regReads);
  for (Type t : op->getResultTypes())
    addTypeKeys(t, fx.regWrites);
  for (Region &region : op->getRegions()) {
    fx.hasRegions = true;
    for (Block &block : region) {
      for (BlockArgument arg : block.getArguments())
        addTypeKeys(arg.getType(), fx.regWrites);
      for (Operation &nested : block)
        collectEffects(&nested, fx);
    }
  }
}

/// True if a scheduler must keep `op` where it is.
bool isWallOp(Operation *op) {
  if (isa<LoopOp>(op) || op->hasTrait<mlir::OpTrait::IsTerminator>())
    return true;
  InstFacts facts = lookupInstFacts(op);
  if (isa<IfOp>(op))
    return false;
  return !facts.hasInfo || facts.pinned;
}

struct ResourceState {
  int lastWriter = -1;
  llvm::SmallVector<unsigned, 4> readersSinceWrite;
};

} // namespace

DependenceGraph::DependenceGraph(Block &block, MayAliasFn mayAlias) {
  if (!mayAlias)
    mayAlias = mayAliasBySpace;
  for (Operation &op : block) {
    opIndex[&op] = ops.size();
    ops.push_back(&op);
  }
  unsigned n = ops.size();
  predList.resize(n);
  succList.resize(n);
  wall.assign(n, false);
  freeOp.assign(n, false);

  std::vector<NodeEffects> effects(n);
  for (unsigned i = 0; i < n; ++i) {
    collectEffects(ops[i], effects[i]);
    wall[i] = isWallOp(ops[i]);
    InstFacts facts = lookupInstFacts(ops[i]);
    freeOp[i] = facts.hasInfo && facts.nonEmitting && !wall[i] &&
                ops[i]->getNumRegions() == 0;
  }

  // Data: every operand read by the node (nested reads included) whose
  // definition is an op of this block.
  for (unsigned i = 0; i < n; ++i) {
    ops[i]->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!def)
          continue;
        Operation *anc = block.findAncestorOpInBlock(*def);
        if (!anc)
          continue;
        unsigned d = opIndex.lookup(anc);
        if (d != i)
          addEdge(d, i, DepKind::Data);
      }
    });
  }

  // Registers: RAW, WAR, WAW in the current order.
  llvm::DenseMap<uint32_t, ResourceState> resources;
  for (unsigned i = 0; i < n; ++i) {
    for (uint32_t key : effects[i].regReads) {
      ResourceState &st = resources[key];
      if (st.lastWriter >= 0 && static_cast<unsigned>(st.lastWriter) != i)
        addEdge(st.lastWriter, i, DepKind::Register);
    }
    for (uint32_t key : effects[i].regWrites) {
      ResourceState &st = resources[key];
      if (st.lastWriter >= 0 && static_cast<unsigned>(st.lastWriter) != i)
        addEdge(st.lastWriter, i, DepKind::Register);
      for (unsigned r : st.readersSinceWrite)
        if (r != i)
          addEdge(r, i, DepKind::Register);
    }
    // Reads first: an op that reads and writes a resource is its new writer.
    for (uint32_t key : effects[i].regReads)
      resources[key].readersSinceWrite.push_back(i);
    for (uint32_t key : effects[i].regWrites) {
      ResourceState &st = resources[key];
      st.lastWriter = i;
      st.readersSinceWrite.clear();
    }
  }

  // Memory: pairs of accesses, one a write, that may alias.
  std::vector<unsigned> memOps;
  for (unsigned i = 0; i < n; ++i)
    if (effects[i].memReads | effects[i].memWrites)
      memOps.push_back(i);
  for (size_t x = 0; x < memOps.size(); ++x) {
    unsigned a = memOps[x];
    for (size_t y = x + 1; y < memOps.size(); ++y) {
      unsigned b = memOps[y];
      unsigned aAll = effects[a].memReads | effects[a].memWrites;
      unsigned bAll = effects[b].memReads | effects[b].memWrites;
      if (!((effects[a].memWrites & bAll) || (effects[b].memWrites & aAll)))
        continue;
      // Nodes with regions: by space only (the alias query is per op).
      if (!effects[a].hasRegions && !effects[b].hasRegions &&
          !mayAlias(ops[a], ops[b]))
        continue;
      addEdge(a, b, DepKind::Memory);
    }
  }

  // Walls: everything since the previous wall comes before a wall, the
  // wall before everything up to the next one.
  int prevWall = -1;
  for (unsigned i = 0; i < n; ++i) {
    if (!wall[i])
      continue;
    for (unsigned j = prevWall < 0 ? 0 : prevWall; j < i; ++j)
      addEdge(j, i, DepKind::Wall);
    prevWall = i;
  }
  if (prevWall >= 0)
    for (unsigned j = prevWall + 1; j < n; ++j)
      addEdge(prevWall, j, DepKind::Wall);
  // Between two walls, ops after the first come after it.
  prevWall = -1;
  for (unsigned i = 0; i < n; ++i) {
    if (wall[i]) {
      prevWall = i;
      continue;
    }
    if (prevWall >= 0)
      addEdge(prevWall, i, DepKind::Wall);
  }

  for (unsigned i = 0; i < n; ++i) {
    llvm::sort(predList[i]);
    llvm::sort(succList[i]);
  }
  llvm::sort(edgeList, [](const DepEdge &a, const DepEdge &b) {
    return std::tie(a.from, a.to) < std::tie(b.from, b.to);
  });
}

void DependenceGraph::addEdge(unsigned from, unsigned to, DepKind kind) {
  assert(from < to && "edges follow the current order");
  uint64_t key = (static_cast<uint64_t>(from) << 32) | to;
  if (!edgeKinds.try_emplace(key, kind).second)
    return;
  predList[to].push_back(from);
  succList[from].push_back(to);
  edgeList.push_back({from, to, kind});
}

std::optional<unsigned> DependenceGraph::indexOf(Operation *op) const {
  auto it = opIndex.find(op);
  if (it == opIndex.end())
    return std::nullopt;
  return it->second;
}

std::optional<DepKind> DependenceGraph::edgeKind(unsigned from,
                                                 unsigned to) const {
  auto it = edgeKinds.find((static_cast<uint64_t>(from) << 32) | to);
  if (it == edgeKinds.end())
    return std::nullopt;
  return it->second;
}

bool DependenceGraph::isLegalOrder(llvm::ArrayRef<unsigned> order,
                                   std::string *why) const {
  unsigned n = size();
  if (order.size() != n) {
    if (why)
      *why = "order has " + std::to_string(order.size()) + " ops, block has " +
             std::to_string(n);
    return false;
  }
  std::vector<unsigned> pos(n, ~0u);
  for (unsigned p = 0; p < n; ++p) {
    if (order[p] >= n || pos[order[p]] != ~0u) {
      if (why)
        *why = "order is not a permutation";
      return false;
    }
    pos[order[p]] = p;
  }
  for (const DepEdge &e : edgeList) {
    if (pos[e.from] < pos[e.to])
      continue;
    if (why)
      *why = (llvm::Twine(stringifyDepKind(e.kind)) + " dependence op " +
              llvm::Twine(e.from) + " -> op " + llvm::Twine(e.to) + " broken")
                 .str();
    return false;
  }
  return true;
}

std::pair<int, int> DependenceGraph::legalWindow(unsigned i) const {
  int lo = predList[i].empty() ? -1 : static_cast<int>(predList[i].back());
  int hi = succList[i].empty() ? static_cast<int>(size()) - 1
                               : static_cast<int>(succList[i].front()) - 1;
  return {lo, hi};
}

std::vector<unsigned> anchorFreeOps(const DependenceGraph &graph,
                                    llvm::ArrayRef<unsigned> order) {
  unsigned n = graph.size();
  std::vector<unsigned> pos(n);
  for (unsigned p = 0; p < order.size(); ++p)
    pos[order[p]] = p;
  // Each free op is emitted just before the first (in `order`) of its
  // successors; sort keys are (anchor position, free-op first, position).
  std::vector<std::tuple<unsigned, unsigned, unsigned>> keys;
  for (unsigned p = 0; p < order.size(); ++p) {
    unsigned op = order[p];
    unsigned anchor = p;
    if (graph.isFree(op) && !graph.succs(op).empty()) {
      anchor = ~0u;
      for (unsigned s : graph.succs(op))
        anchor = std::min(anchor, pos[s]);
      keys.push_back({anchor, 0, p});
      continue;
    }
    keys.push_back({anchor, 1, p});
  }
  // Chains of free ops (an extract of a pack) anchor to the same user; the
  // original relative position keeps them in dependence order.
  llvm::sort(keys);
  std::vector<unsigned> result;
  result.reserve(order.size());
  for (auto &[anchor, rank, p] : keys)
    result.push_back(order[p]);
  if (!graph.isLegalOrder(result))
    return std::vector<unsigned>(order.begin(), order.end());
  return result;
}

} // namespace waveasm::conductor
