//===- CoAccessTest.cpp - the co-access graph, C(pi) and Q ----------------===//
//
// Hand-computed figures: the graph of a small loop body (shared values and
// accesses of the same bytes and line), C(pi) and the modularity of given
// and of the best contiguous clusterings.
//
//===----------------------------------------------------------------------===//

#include "StrategiesTestUtils.h"

#include "analysis/Metrics.h"
#include "analysis/OrderCost.h"
#include "pipeline/CompileAndMeasure.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::test;

namespace {

// Body ops: 0 x, 1 y, 2 z (loads at 0, 64, 512), 3 s, 4 t, 5 store at 0,
// 6 kn, 7 more, 8 condition.
const char *kLoop = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 64 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %z = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 512 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %s = waveasm.v_add_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %t = waveasm.v_add_u32 %s, %z : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dword %t, %srd, %tid : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.pvreg<0>
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
)";

/// Two triangles {0,1,2} and {3,4,5} joined by the edge 2-3, weights 1.
CoAccessGraph twoTriangles() {
  return CoAccessGraph(6, {{0, 1, 1},
                           {0, 2, 1},
                           {1, 2, 1},
                           {3, 4, 1},
                           {3, 5, 1},
                           {4, 5, 1},
                           {2, 3, 1}});
}

} // namespace

TEST(CoAccess, GraphOfALoopBody) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kLoop));
  ASSERT_TRUE(module) << t.diagnostics;
  CoAccessGraph graph = buildCoAccessGraph(*defaultBlock(*module));
  ASSERT_EQ(graph.size(), 9u);
  // Values: x, y, z, s, t (def -> use, 1); kn#0 read by the compare and
  // the condition (a 3-clique of 1/2); more (1). Memory: x and the store
  // the same bytes (1), x-y and y-store one line (1/2), z alone.
  std::vector<std::tuple<unsigned, unsigned, double>> expected = {
      {0, 1, 0.5}, {0, 3, 1}, {0, 5, 1},   {1, 3, 1},   {1, 5, 0.5}, {2, 4, 1},
      {3, 4, 1},   {4, 5, 1}, {6, 7, 0.5}, {6, 8, 0.5}, {7, 8, 1.5}};
  std::vector<std::tuple<unsigned, unsigned, double>> actual;
  for (const CoAccessEdge &e : graph.getEdges())
    actual.push_back({e.a, e.b, e.weight});
  EXPECT_EQ(actual, expected);
  EXPECT_DOUBLE_EQ(graph.totalWeight(), 9.5);
  EXPECT_DOUBLE_EQ(graph.degree(0), 2.5);
  // C = .5*1 + 1*3 + 1*5 + 1*2 + .5*4 + 1*2 + 1 + 1 + .5*1 + .5*2 + 1.5*1.
  EXPECT_DOUBLE_EQ(computeOrderCost(graph, identityOrder(9)), 19.5);
}

TEST(CoAccess, CostOfAnOrder) {
  CoAccessGraph graph(4, {{0, 1, 2}, {1, 2, 1}, {3, 0, 0.5}, {1, 0, 0}});
  EXPECT_EQ(graph.getEdges().size(), 3u); // the 0 weight is dropped
  // Identity: 2*1 + 1*1 + 0.5*3; [3, 0, 1, 2]: 2*1 + 1*1 + 0.5*1.
  EXPECT_DOUBLE_EQ(computeOrderCost(graph, {0, 1, 2, 3}), 4.5);
  EXPECT_DOUBLE_EQ(computeOrderCost(graph, {3, 0, 1, 2}), 3.5);
  // Reversal keeps every distance.
  EXPECT_DOUBLE_EQ(computeOrderCost(graph, {2, 1, 0, 3}),
                   2 * 1 + 1 * 1 + 0.5 * 1);
  // Duplicate edges merge.
  CoAccessGraph doubled(2, {{0, 1, 1}, {1, 0, 2}});
  ASSERT_EQ(doubled.getEdges().size(), 1u);
  EXPECT_DOUBLE_EQ(doubled.getEdges()[0].weight, 3);
}

TEST(CoAccess, ModularityOfAClustering) {
  CoAccessGraph graph = twoTriangles();
  // m = 7; each triangle: inside 3, degrees 2 + 2 + 3 = 7:
  // Q = 2 * (3/7 - (7/14)^2) = 5/14.
  EXPECT_NEAR(computeModularity(graph, {0, 0, 0, 1, 1, 1}), 5.0 / 14, 1e-12);
  // One cluster: 7/7 - 1 = 0; singletons: -(4+4+9+9+4+4)/196.
  EXPECT_NEAR(computeModularity(graph, {0, 0, 0, 0, 0, 0}), 0, 1e-12);
  EXPECT_NEAR(computeModularity(graph, {0, 1, 2, 3, 4, 5}), -34.0 / 196, 1e-12);
  EXPECT_EQ(computeModularity(CoAccessGraph(3, {}), {0, 1, 2}), 0);
}

TEST(CoAccess, BestContiguousClustersOfAnOrder) {
  CoAccessGraph graph = twoTriangles();
  OrderClusters blocks = clusterOrder(graph, identityOrder(6));
  EXPECT_NEAR(blocks.modularity, 5.0 / 14, 1e-12);
  EXPECT_EQ(blocks.starts, (std::vector<unsigned>{0, 3}));
  // Interleaving the triangles destroys the block structure: C up, Q down.
  std::vector<unsigned> interleaved = {0, 3, 1, 4, 2, 5};
  OrderClusters mixed = clusterOrder(graph, interleaved);
  EXPECT_LT(mixed.modularity, blocks.modularity);
  EXPECT_GT(computeOrderCost(graph, interleaved),
            computeOrderCost(graph, identityOrder(6)));
  // The DP's answer is the best over every contiguous cut: check by brute
  // force over the 2^5 cut sets.
  double best = -1;
  for (unsigned mask = 0; mask < 32; ++mask) {
    std::vector<unsigned> clusterOf(6);
    unsigned c = 0;
    for (unsigned p = 0; p < 6; ++p) {
      if (p > 0 && (mask >> (p - 1) & 1))
        ++c;
      clusterOf[interleaved[p]] = c;
    }
    best = std::max(best, computeModularity(graph, clusterOf));
  }
  EXPECT_NEAR(mixed.modularity, best, 1e-12);
  // No edges: one cluster, Q = 0.
  OrderClusters none = clusterOrder(CoAccessGraph(3, {}), identityOrder(3));
  EXPECT_EQ(none.starts, (std::vector<unsigned>{0}));
  EXPECT_EQ(none.modularity, 0);
}

TEST(CoAccess, LoopMetricsCarryTheFigures) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kLoop));
  ASSERT_TRUE(module) << t.diagnostics;
  FailureOr<CompileResult> compiled = compileAndMeasure(*module);
  ASSERT_TRUE(succeeded(compiled)) << t.diagnostics;
  const ProgramMetrics &m = compiled->programs[0].metrics;
  ASSERT_EQ(m.loops.size(), 1u);
  EXPECT_DOUBLE_EQ(m.loops[0].coaccess_cost, 19.5);
  CoAccessSummary summary = summarizeCoAccess(*defaultBlock(*module));
  EXPECT_DOUBLE_EQ(m.loops[0].coaccess_modularity, summary.modularity);
  EXPECT_EQ(m.loops[0].coaccess_clusters, summary.clusters);
  EXPECT_GT(summary.modularity, 0);
  // The JSON round trip keeps them.
  std::string text;
  llvm::raw_string_ostream os(text);
  writeMetricsJSON(os, {m});
  EXPECT_NE(text.find("\"coaccess_cost\": 19.5"), std::string::npos) << text;
  llvm::Expected<std::vector<ProgramMetrics>> parsed = parseMetricsJSON(text);
  ASSERT_TRUE(!!parsed) << llvm::toString(parsed.takeError());
  EXPECT_EQ((*parsed)[0], m);
  // Off: zeros.
  CompileOptions off;
  off.coAccessMetrics = false;
  FailureOr<CompileResult> plain = compileAndMeasure(*module, off);
  ASSERT_TRUE(succeeded(plain));
  EXPECT_EQ(plain->programs[0].metrics.loops[0].coaccess_cost, 0);
}

namespace {

/// The graph's construction by its definition: a map from (a, b) to the
/// running sum of the weights in input order, neighbour lists sorted.
struct ReferenceGraph {
  std::map<std::pair<unsigned, unsigned>, double> merged;
  std::vector<std::vector<std::pair<unsigned, double>>> adjacency;
  std::vector<double> degrees;
  double total = 0;
  ReferenceGraph(unsigned size, llvm::ArrayRef<CoAccessEdge> input)
      : adjacency(size), degrees(size, 0.0) {
    for (const CoAccessEdge &e : input)
      if (e.a != e.b && e.weight > 0 && e.a < size && e.b < size)
        merged[{std::min(e.a, e.b), std::max(e.a, e.b)}] += e.weight;
    for (auto &[key, weight] : merged) {
      adjacency[key.first].push_back({key.second, weight});
      adjacency[key.second].push_back({key.first, weight});
      degrees[key.first] += weight;
      degrees[key.second] += weight;
      total += weight;
    }
    for (auto &list : adjacency)
      llvm::sort(list);
  }
};

/// The best contiguous clustering by its definition's dynamic program: per
/// segment, a binary search for the edges of its first position that end
/// inside it.
OrderClusters referenceClusterOrder(const CoAccessGraph &graph,
                                    llvm::ArrayRef<unsigned> order) {
  unsigned n = order.size();
  OrderClusters result;
  if (n == 0)
    return result;
  double m = graph.totalWeight();
  if (!(m > 0)) {
    result.starts = {0};
    return result;
  }
  std::vector<unsigned> pos(n);
  for (unsigned p = 0; p < n; ++p)
    pos[order[p]] = p;
  std::vector<std::vector<unsigned>> later(n);
  std::vector<std::vector<double>> laterSum(n);
  std::vector<double> degreePrefix(n + 1, 0);
  for (unsigned p = 0; p < n; ++p) {
    std::vector<std::pair<unsigned, double>> fwd;
    for (auto [x, w] : graph.neighbors(order[p]))
      if (pos[x] > p)
        fwd.push_back({pos[x], w});
    llvm::sort(fwd);
    laterSum[p].push_back(0);
    for (auto [q, w] : fwd) {
      later[p].push_back(q);
      laterSum[p].push_back(laterSum[p].back() + w);
    }
    degreePrefix[p + 1] = degreePrefix[p] + graph.degree(order[p]);
  }
  std::vector<double> best(n + 1, 0);
  std::vector<unsigned> cut(n + 1, 0);
  for (unsigned j = 1; j <= n; ++j) {
    double inner = 0;
    best[j] = -INFINITY;
    unsigned lowest = j > 512 ? j - 512 : 0;
    for (unsigned i = j; i-- > lowest;) {
      const std::vector<unsigned> &targets = later[i];
      size_t k =
          std::lower_bound(targets.begin(), targets.end(), j) - targets.begin();
      inner += laterSum[i][k];
      double d = (degreePrefix[j] - degreePrefix[i]) / (2 * m);
      double q = best[i] + inner / m - d * d;
      if (q > best[j] + 1e-12) {
        best[j] = q;
        cut[j] = i;
      }
    }
  }
  result.modularity = best[n];
  for (unsigned j = n; j > 0; j = cut[j])
    result.starts.push_back(cut[j]);
  std::reverse(result.starts.begin(), result.starts.end());
  return result;
}

} // namespace

// The graph (edges merged by a sort instead of a map, neighbour lists in
// one array) and the clustering (a counter per position instead of a
// binary search per segment) are the definitions' to the last bit, on
// random graphs (duplicate, reversed and dropped edges, cliques of shared
// values' weights) and random orders, beyond the 512-op cluster limit too.
TEST(CoAccess, GraphAndClustersEqualTheirDefinitionsOnRandomGraphs) {
  std::mt19937 random(3);
  for (int trial = 0; trial < 120; ++trial) {
    unsigned n = trial % 10 == 0 ? 600 + random() % 200 : 1 + random() % 120;
    std::vector<CoAccessEdge> input;
    unsigned numEdges = random() % (4 * n + 1);
    for (unsigned e = 0; e < numEdges; ++e) {
      unsigned a = random() % n, b = random() % (n + 1); // b == n: dropped
      if (random() % 4 == 0 && !input.empty())
        std::tie(a, b) = std::make_pair(input.back().b, input.back().a);
      double w = random() % 8 == 0 ? 0.0 : 1.0 / double(1 + random() % 7);
      input.push_back({a, b, w});
    }
    CoAccessGraph graph(n, input);
    ReferenceGraph want(n, input);
    std::string what = "trial " + std::to_string(trial);
    ASSERT_EQ(graph.size(), n) << what;
    ASSERT_EQ(graph.getEdges().size(), want.merged.size()) << what;
    size_t k = 0;
    for (auto &[key, weight] : want.merged) {
      const CoAccessEdge &e = graph.getEdges()[k++];
      ASSERT_EQ(e.a, key.first) << what;
      ASSERT_EQ(e.b, key.second) << what;
      ASSERT_EQ(e.weight, weight) << what; // bit for bit
    }
    ASSERT_EQ(graph.totalWeight(), want.total) << what;
    for (unsigned i = 0; i < n; ++i) {
      ASSERT_EQ(graph.degree(i), want.degrees[i]) << what << " node " << i;
      ASSERT_EQ(graph.neighbors(i).vec(), want.adjacency[i])
          << what << " node " << i;
    }
    std::vector<unsigned> order = identityOrder(n);
    if (trial % 2)
      std::shuffle(order.begin(), order.end(), random);
    OrderClusters got = clusterOrder(graph, order);
    OrderClusters ref = referenceClusterOrder(graph, order);
    ASSERT_EQ(got.modularity, ref.modularity) << what; // bit for bit
    ASSERT_EQ(got.starts, ref.starts) << what;
  }
}
