//===- StrategiesGraphTest.cpp - the strategies' dependence graph ---------===//

#include "StrategiesTestUtils.h"

#include "conductor/strategies/DependenceGraph.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using namespace waveasm::test;

namespace {

// One straight-line block (the program body); op numbers in comments.
const char *kBody = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %a = waveasm.v_add_u32 %tid, %c4 : !waveasm.pvreg<0>, !waveasm.imm<4> -> !waveasm.vreg
  %g = waveasm.buffer_load_dword %srd, %a, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.ds_write_b32 %g, %a : !waveasm.vreg, !waveasm.vreg
  %r = waveasm.ds_read_b32 %a {offset = 64 : i64} : !waveasm.vreg -> !waveasm.vreg
  %r2 = waveasm.ds_read_b32 %a {offset = 128 : i64} : !waveasm.vreg -> !waveasm.vreg
  %s:2 = waveasm.s_add_u32 %srd, %c4 : !waveasm.psreg<8, 4>, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
  %cmp = waveasm.s_cmp_lt_u32 %s#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
  %t:2 = waveasm.s_add_u32 %s#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_barrier
  %y = waveasm.v_add_u32 %r, %r2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %z = waveasm.if %cmp : !waveasm.scc -> !waveasm.vreg {
    %in = waveasm.v_add_u32 %y, %c4 : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
    waveasm.yield %in : !waveasm.vreg
  } else {
    waveasm.yield %y : !waveasm.vreg
  }
  %w = waveasm.v_add_u32 %tid, %c0 : !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_endpgm
)";
// 0 tid, 1 srd, 2 c0, 3 c4, 4 a, 5 g, 6 ds_write, 7 r, 8 r2, 9 s, 10 cmp,
// 11 t, 12 barrier, 13 y, 14 if, 15 w, 16 endpgm

struct StrategiesGraph : ::testing::Test {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<DependenceGraph> graph;
  void SetUp() override {
    module = t.parseModule(program(kBody));
    ASSERT_TRUE(module) << t.diagnostics;
    graph = std::make_unique<DependenceGraph>(
        firstProgram(*module).getBody().front());
    ASSERT_EQ(graph->size(), 17u);
  }
};

} // namespace

TEST_F(StrategiesGraph, DataEdgesFollowSSA) {
  EXPECT_EQ(graph->edgeKind(4, 5), DepKind::Data); // a -> load
  EXPECT_EQ(graph->edgeKind(5, 6), DepKind::Data); // load -> ds_write
  EXPECT_EQ(graph->edgeKind(0, 4), DepKind::Data); // precolored tid -> a
  EXPECT_FALSE(graph->edgeKind(7, 8).has_value()); // two reads: free
}

TEST_F(StrategiesGraph, IfIsOneNodeWithItsNestedUses) {
  // %y is only read inside the if's regions; %cmp is its condition.
  EXPECT_EQ(graph->edgeKind(13, 14), DepKind::Data);
  EXPECT_EQ(graph->edgeKind(10, 14), DepKind::Data);
  EXPECT_FALSE(graph->isWall(14));
  EXPECT_EQ(graph->indexOf(&*graph->getOp(14)->getRegion(0).front().begin()),
            std::nullopt);
}

TEST_F(StrategiesGraph, ImplicitSCCIsOrdered) {
  // s_add writes SCC, s_cmp writes SCC (WAW), the second s_add writes SCC
  // while s_cmp's SCC is still read by the if (WAR on the if would be
  // later; here: the s_add after s_cmp cannot go before it).
  EXPECT_TRUE(graph->edgeKind(9, 10).has_value());
  EXPECT_EQ(graph->edgeKind(10, 11), DepKind::Register);
}

TEST_F(StrategiesGraph, MemoryOrderOnlyBetweenConflictingAccesses) {
  EXPECT_EQ(graph->edgeKind(6, 7), DepKind::Memory); // LDS write -> read
  EXPECT_EQ(graph->edgeKind(6, 8), DepKind::Memory);
  EXPECT_FALSE(graph->edgeKind(5, 7).has_value()); // global vs LDS read
}

TEST_F(StrategiesGraph, WallsKeepEverythingOnTheirSide) {
  EXPECT_TRUE(graph->isWall(12));
  EXPECT_TRUE(graph->isWall(16));
  EXPECT_EQ(graph->edgeKind(7, 12), DepKind::Wall);
  EXPECT_EQ(graph->edgeKind(12, 15), DepKind::Wall);
  EXPECT_EQ(graph->edgeKind(15, 16), DepKind::Wall);
  // Moving %w (15) before the barrier breaks the order.
  std::vector<unsigned> order;
  for (unsigned i = 0; i < 17; ++i)
    order.push_back(i);
  std::swap(order[12], order[15]);
  std::string why;
  EXPECT_FALSE(graph->isLegalOrder(order, &why));
  EXPECT_NE(why.find("wall"), std::string::npos) << why;
}

TEST_F(StrategiesGraph, LegalOrderAndWindows) {
  std::vector<unsigned> order;
  for (unsigned i = 0; i < 17; ++i)
    order.push_back(i);
  EXPECT_TRUE(graph->isLegalOrder(order));
  // r2 (8) may go right after the ds_write (6) or anywhere up to the
  // barrier (12 is its first successor).
  auto [lo, hi] = graph->legalWindow(8);
  EXPECT_EQ(lo, 6);
  EXPECT_EQ(hi, 11);
  std::swap(order[7], order[8]); // two LDS reads: legal
  EXPECT_TRUE(graph->isLegalOrder(order));
  std::swap(order[5], order[6]); // ds_write before the load it stores
  EXPECT_FALSE(graph->isLegalOrder(order));
}

TEST_F(StrategiesGraph, FreeOpsAnchorBeforeTheirFirstUser) {
  EXPECT_TRUE(graph->isFree(2));
  EXPECT_FALSE(graph->isFree(4));
  std::vector<unsigned> order;
  for (unsigned i = 0; i < 17; ++i)
    order.push_back(i);
  std::vector<unsigned> anchored = anchorFreeOps(*graph, order);
  EXPECT_TRUE(graph->isLegalOrder(anchored));
  // %c0 (2) is first used by the load (5): it now sits right before it.
  auto pos = [&](unsigned op) {
    return std::find(anchored.begin(), anchored.end(), op) - anchored.begin();
  };
  EXPECT_EQ(pos(2) + 1, pos(5));
}
