//===- SpectralOrderTest.cpp - seed 002's spectral strategy ---------------===//
//
// The Fiedler order on graphs with an obvious two-cluster split, the
// legality of every order the strategy returns, determinism (twice -> the
// same text), the epsilon rollback (an order it cannot improve stays), and
// equivalence by execution: every example rescheduled by the strategy
// computes what the input computes (sim::compareOnSeeds).
//
//===----------------------------------------------------------------------===//

#include "StrategiesTestUtils.h"

#include "conductor/MoveSource.h"
#include "conductor/Session.h"
#include "conductor/strategies/SpectralOrder.h"
#include "conductor/strategies/Strategies.h"

#include "analysis/OrderCost.h"
#include "sim/Compare.h"

#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using namespace waveasm::test;

namespace {

/// A loop body with two independent chains a0 -> a1 -> ... and b0 -> ...
/// (each stored at the end) and the loop counter; `interleaved` writes the
/// chains' ops alternately, else one chain after the other.
std::string chainsKernel(bool interleaved, int length = 4) {
  std::string a, b, body;
  auto op = [](char chain, int i, const char *c) {
    std::string prev =
        i == 0 ? "%tid" : ("%" + std::string(1, chain) + std::to_string(i - 1));
    std::string type = i == 0 ? "!waveasm.pvreg<0>" : "!waveasm.vreg";
    return "    %" + std::string(1, chain) + std::to_string(i) +
           " = waveasm.v_add_u32 " + prev + ", " + c + " : " + type +
           ", !waveasm.imm<" + (c[2] == '1' ? "1" : "2") +
           "> -> !waveasm.vreg\n";
  };
  std::string last = std::to_string(length - 1);
  std::string storeA = "    waveasm.buffer_store_dword %a" + last +
                       ", %srd, %tid : !waveasm.vreg, !waveasm.psreg<8, 4>, "
                       "!waveasm.pvreg<0>\n";
  std::string storeB = "    waveasm.buffer_store_dword %b" + last +
                       ", %srd, %tid offset : 256 : !waveasm.vreg, "
                       "!waveasm.psreg<8, 4>, !waveasm.pvreg<0>\n";
  if (interleaved) {
    for (int i = 0; i < length; ++i)
      body += op('a', i, "%c1") + op('b', i, "%c2");
    body += storeA + storeB;
  } else {
    for (int i = 0; i < length; ++i)
      body += op('a', i, "%c1");
    body += storeA;
    for (int i = 0; i < length; ++i)
      body += op('b', i, "%c2");
    body += storeB;
  }
  return program(R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
)" + body + R"(
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
)");
}

std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

void applyOrder(Block &block, llvm::ArrayRef<Operation *> order) {
  for (Operation *op : order)
    op->moveBefore(&block, block.end());
}

/// The strategy's order applied to a fresh parse of `text`; the module's
/// text after it.
std::string scheduleText(llvm::StringRef text,
                         const SpectralOptions &options = {}) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(text);
  if (!module)
    return "parse error: " + t.diagnostics;
  Block *block = defaultBlock(*module);
  applyOrder(*block, scheduleSpectralOrder(*block, options).order);
  return printModule(*module);
}

} // namespace

TEST(SpectralOrder, FiedlerSplitsTwoClusters) {
  // Triangles {0, 2, 4} and {1, 3, 5}, joined by 4 - 1, written
  // interleaved. The Fiedler vector separates them; the bridge ends sit in
  // the middle; the two other ops of a triangle are symmetric (equal
  // entries), so input order decides between them.
  CoAccessGraph graph(6, {{0, 2, 1},
                          {0, 4, 1},
                          {2, 4, 1},
                          {1, 3, 1},
                          {1, 5, 1},
                          {3, 5, 1},
                          {4, 1, 1}});
  std::vector<unsigned> order = computeFiedlerOrder(graph);
  EXPECT_EQ(order, (std::vector<unsigned>{0, 2, 4, 1, 3, 5}));
  EXPECT_LT(computeOrderCost(graph, order),
            computeOrderCost(graph, identityOrder(6)));
  EXPECT_GT(clusterOrder(graph, order).modularity,
            clusterOrder(graph, identityOrder(6)).modularity);
  // Mirrored input positions: the sign follows the input, so the triangle
  // written first still comes first.
  CoAccessGraph mirrored(6, {{5, 3, 1},
                             {5, 1, 1},
                             {3, 1, 1},
                             {4, 2, 1},
                             {4, 0, 1},
                             {2, 0, 1},
                             {1, 4, 1}});
  EXPECT_EQ(computeFiedlerOrder(mirrored),
            (std::vector<unsigned>{0, 2, 4, 1, 3, 5}));
  // Disconnected parts: each ordered alone, placed by mean input position.
  CoAccessGraph parts(5, {{0, 3, 1}, {1, 4, 1}});
  EXPECT_EQ(computeFiedlerOrder(parts), (std::vector<unsigned>{0, 3, 2, 1, 4}));
}

TEST(SpectralOrder, SeparatesInterleavedChainsOfALoop) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(chainsKernel(true));
  ASSERT_TRUE(module) << t.diagnostics;
  Block *block = defaultBlock(*module);
  SpectralResult result = scheduleSpectralOrder(*block);
  ASSERT_TRUE(result.improved) << result.reason;
  // Chains of 4 ops plus their store: 4 edges each, the counter 3.
  EXPECT_DOUBLE_EQ(result.costAfter, 11);
  EXPECT_LT(result.costAfter, result.costBefore * 0.95);
  EXPECT_GT(result.modularityAfter, result.modularityBefore);
  DependenceGraph deps(*block);
  std::vector<unsigned> indices;
  for (Operation *op : result.order)
    indices.push_back(*deps.indexOf(op));
  std::string why;
  EXPECT_TRUE(deps.isLegalOrder(indices, &why)) << why;
  applyOrder(*block, result.order);
  ASSERT_TRUE(succeeded(verify(*module)));
  // The same text as the kernel written chain by chain.
  TestContext t2;
  OwningOpRef<ModuleOp> separated = t2.parseModule(chainsKernel(false));
  ASSERT_TRUE(separated);
  EXPECT_EQ(printModule(*module), printModule(*separated));
}

TEST(SpectralOrder, RollsBackWithoutEpsilonGain) {
  // Chain by chain is optimal: C cannot drop, the input order stays.
  std::string optimal = chainsKernel(false);
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(optimal);
  ASSERT_TRUE(module) << t.diagnostics;
  Block *block = defaultBlock(*module);
  std::vector<Operation *> input;
  for (Operation &op : *block)
    input.push_back(&op);
  SpectralResult result = scheduleSpectralOrder(*block);
  EXPECT_FALSE(result.improved);
  EXPECT_EQ(result.order, input);
  EXPECT_DOUBLE_EQ(result.costAfter, result.costBefore);
  EXPECT_NE(result.reason.find("-> 11.00 is not below C(input) * (1 - 0.05)"),
            std::string::npos)
      << result.reason;
  EXPECT_EQ(scheduleText(optimal), printModule(*module));
  // An improvement below epsilon is rolled back too: epsilon 1 asks for a
  // cost below 0.
  SpectralOptions strict;
  strict.epsilon = 1.0;
  std::string interleaved = chainsKernel(true);
  TestContext t2;
  OwningOpRef<ModuleOp> original = t2.parseModule(interleaved);
  ASSERT_TRUE(original);
  EXPECT_EQ(scheduleText(interleaved, strict), printModule(*original));
  // Through the registry: no commands when nothing improves.
  TaggedRegion region = tagBlock(*block);
  EXPECT_TRUE(scheduleSpectral(region).empty());
  untagBlock(region);
}

TEST(SpectralOrder, DeterministicOnEveryKernel) {
  for (const std::string &path : allKernelPaths()) {
    std::string text = readKernel(path);
    ASSERT_FALSE(text.empty()) << path;
    SpectralOptions any; // epsilon 0: every order the strategy finds
    any.epsilon = 0;
    std::string first = scheduleText(text, any);
    EXPECT_EQ(first.rfind("parse error", 0), std::string::npos) << first;
    EXPECT_EQ(scheduleText(text, any), first) << path;
  }
}

TEST(SpectralOrder, LegalAndNoWorseOnEveryKernel) {
  for (const std::string &path : allKernelPaths()) {
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule(readKernel(path));
    ASSERT_TRUE(module) << path << t.diagnostics;
    Block *block = defaultBlock(*module);
    SpectralOptions any;
    any.epsilon = 0;
    SpectralResult result = scheduleSpectralOrder(*block, any);
    EXPECT_LE(result.costAfter, result.costBefore) << path;
    DependenceGraph deps(*block);
    std::vector<unsigned> indices;
    for (Operation *op : result.order)
      indices.push_back(*deps.indexOf(op));
    std::string why;
    EXPECT_TRUE(deps.isLegalOrder(indices, &why)) << path << ": " << why;
    applyOrder(*block, result.order);
    EXPECT_TRUE(succeeded(verify(*module))) << path << t.diagnostics;
  }
}

TEST(SpectralOrder, EquivalentByExecutionOnTheExamples) {
  // Every example the simulator runs: the spectral order (epsilon 0, so
  // any reorder it finds is applied) computes the same buffers and LDS.
  unsigned checked = 0, reordered = 0;
  for (const std::string &path : allKernelPaths()) {
    TestContext t;
    OwningOpRef<ModuleOp> input = t.parseModule(readKernel(path));
    OwningOpRef<ModuleOp> output = t.parseModule(readKernel(path));
    ASSERT_TRUE(input && output) << path;
    Block *block = defaultBlock(*output);
    SpectralOptions any;
    any.epsilon = 0;
    SpectralResult result = scheduleSpectralOrder(*block, any);
    applyOrder(*block, result.order);
    if (result.improved)
      ++reordered;
    sim::Comparison verdict = sim::compareOnSeeds(
        firstProgram(*input), firstProgram(*output), /*seeds=*/2);
    if (verdict.verdict == sim::Comparison::Verdict::NotChecked)
      continue; // an op the simulator does not execute (named in message)
    ++checked;
    EXPECT_TRUE(verdict.equal()) << path << ": " << verdict.message;
  }
  EXPECT_GE(checked, 4u);
  EXPECT_GE(reordered, 4u);
}

TEST(SpectralOrder, SessionKeepsOnlyCheckedRounds) {
  // The registry's spectral strategy as a Conductor round, checked by
  // execution: kept or reverted by the metrics, never different.
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(chainsKernel(true));
  ASSERT_TRUE(module) << t.diagnostics;
  SessionOptions options;
  options.checkByExecution = true;
  std::string error;
  FailureOr<std::unique_ptr<Session>> session =
      Session::create(*module, nullptr, options, &error);
  ASSERT_TRUE(succeeded(session)) << error;
  llvm::Expected<std::vector<Strategy>> spectral =
      selectBuiltinStrategies("spectral");
  ASSERT_TRUE(!!spectral) << llvm::toString(spectral.takeError());
  StrategyMoveSource source(std::move(*spectral));
  std::vector<RoundReport> rounds;
  runSession(**session, source,
             [&](const RoundReport &report) { rounds.push_back(report); });
  ASSERT_EQ(rounds.size(), 1u);
  EXPECT_FALSE(rounds[0].applied.empty()) << rounds[0].summary();
  EXPECT_EQ(rounds[0].failureReason.find("different results"),
            std::string::npos)
      << rounds[0].failureReason;
  ASSERT_TRUE(rounds[0].metrics.has_value());
  ASSERT_EQ(rounds[0].metrics->loops.size(), 1u);
  // The session computes co-access figures for the baseline and for kept
  // rounds only (a round is judged by cycles and registers): the separated
  // chains' cost when the round is kept, none when it is reverted.
  double baseline = (*session)->baselineMetrics().loops[0].coaccess_cost;
  EXPECT_GT(baseline, 11);
  if (rounds[0].improved) {
    EXPECT_DOUBLE_EQ(rounds[0].metrics->loops[0].coaccess_cost, 11);
    EXPECT_DOUBLE_EQ((*session)->bestMetrics().loops[0].coaccess_cost, 11);
  } else {
    EXPECT_EQ(rounds[0].metrics->loops[0].coaccess_cost, 0);
    EXPECT_DOUBLE_EQ((*session)->bestMetrics().loops[0].coaccess_cost,
                     baseline);
  }
  // Unknown names are refused with the known ones.
  llvm::Expected<std::vector<Strategy>> unknown =
      selectBuiltinStrategies("pressure,spectrall");
  ASSERT_FALSE(!!unknown);
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "unknown strategy 'spectrall' (known: list-latency, pressure, "
            "spectral, pipeline)");
}
