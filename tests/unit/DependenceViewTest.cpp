//===- DependenceViewTest.cpp - waveasm/dependenceGraph on small loops ----===//
//
// Every edge, weight, carried edge and the critical path of two small
// loops, worked out by hand from the gfx942 model (analysis/TargetModel.cpp:
// VALU and SALU 1 slot, a buffer load 100, v_mfma_f32_16x16x16_f16 4 passes
// with no SrcC chain penalty); the layout and the picture on an example.

#include "ServerTestUtils.h"
#include "TestPaths.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <tuple>

using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::test;

namespace {

// n0 load, n1 add (feeds the store and is carried as %acc), n2 store, n3
// counter (carried as %i), n4 compare, n5 the terminator.
const char *kLoadAddStore =
    R"(  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %v0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %i_end, %v_end = waveasm.loop (%i = %i0, %acc = %v0)
      : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %y = waveasm.v_add_u32 %x, %acc : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dword %y, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
    %i1:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i1#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i1#0, %y) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.s_endpgm
)";

// Two MFMAs chained through the accumulator, the second's result carried
// back to the first: n0 mfma, n1 mfma, n2 counter, n3 compare, n4 the
// terminator.
const char *kMfmaChain = R"(  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %a = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %b = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %z = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %i_end, %r = waveasm.loop (%i = %i0, %acc = %z)
      : (!waveasm.sreg, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>) {
    %p = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %q = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %p : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %i1:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i1#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i1#0, %q) : !waveasm.sreg, !waveasm.vreg<4, 4>
  }
  waveasm.s_endpgm
)";

using EdgeKey = std::tuple<unsigned, unsigned, std::string, int64_t, bool>;

/// (from, to, kind, latency, carried) of every edge, plus the implied ones.
std::vector<EdgeKey>
edgesOf(const DependenceView &view,
        std::vector<std::pair<unsigned, unsigned>> *implied = nullptr) {
  std::vector<EdgeKey> out;
  for (const DependenceEdge &e : view.edges) {
    out.emplace_back(e.from, e.to, getDependenceKindName(e.kind).str(),
                     e.latency, e.carried);
    if (implied && e.implied)
      implied->push_back({e.from, e.to});
  }
  return out;
}

std::string readExample(llvm::StringRef name) {
  auto buffer = llvm::MemoryBuffer::getFile(
      (llvm::Twine(waveasm::test::examplesDir()) + "/" + name).str());
  EXPECT_TRUE(buffer) << name.str();
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

} // namespace

TEST(DependenceView, LoadAddStoreEdgesWeightsAndCriticalPath) {
  ServerDoc d(serverProgram(kLoadAddStore), /*compile=*/false);
  std::optional<DependenceView> view =
      computeDependenceView(*d.parsed, d.settings, std::nullopt);
  ASSERT_TRUE(view);
  ASSERT_EQ(view->nodes.size(), 6u);
  EXPECT_EQ(view->nodes[0].mnemonic, "buffer_load_dword");
  EXPECT_EQ(view->nodes[0].latency, 100);
  EXPECT_EQ(view->nodes[5].mnemonic, "condition");
  EXPECT_EQ(view->target, "gfx942");

  std::vector<std::pair<unsigned, unsigned>> implied;
  std::vector<EdgeKey> expected = {
      {0, 1, "data", 100, false},  // %x, the load's latency
      {0, 2, "memory", 1, false},  // a global load before a global store
      {0, 5, "barrier", 1, false}, // everything stays before the branch
      {1, 2, "data", 1, false},    // %y
      {1, 5, "data", 1, false},    // %y is yielded
      {2, 5, "barrier", 1, false}, //
      {3, 4, "data", 1, false},    // %i1
      {3, 5, "data", 1, false},    // %i1 is yielded
      {4, 5, "data", 1, false},    // %more
      // Carried, in iter_args order: %i1 -> %i, read by the counter;
      // %y -> %acc, read by the add.
      {3, 3, "data", 1, true},
      {1, 1, "data", 1, true},
  };
  EXPECT_EQ(edgesOf(*view, &implied), expected);
  // The store follows the load through the add anyway; the branch follows
  // the load through the add.
  std::vector<std::pair<unsigned, unsigned>> expectedImplied = {{0, 2}, {0, 5}};
  EXPECT_EQ(implied, expectedImplied);

  // load (100) -> add (1) -> store, which completes 100 slots after it
  // issues (a sink counts its own latency, as the schedulers' heights do).
  EXPECT_EQ(view->criticalPath, (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(view->criticalLength, 201);
  EXPECT_EQ(view->nodes[2].height, 100);
  EXPECT_TRUE(view->nodes[0].critical);
  EXPECT_FALSE(view->nodes[3].critical);
  EXPECT_FALSE(view->nodes[5].critical);
  for (const DependenceEdge &e : view->edges)
    EXPECT_EQ(e.critical, !e.carried && ((e.from == 0 && e.to == 1) ||
                                         (e.from == 1 && e.to == 2)))
        << e.from << "->" << e.to;

  // Layers: load and counter first; the branch last.
  EXPECT_EQ(view->nodes[0].layer, 0u);
  EXPECT_EQ(view->nodes[3].layer, 0u);
  EXPECT_EQ(view->nodes[1].layer, 1u);
  EXPECT_EQ(view->nodes[2].layer, 2u);
  EXPECT_EQ(view->nodes[5].layer, 3u);
  EXPECT_EQ(view->numLayers, 4u);
  for (const DependenceEdge &e : view->edges)
    if (!e.carried)
      EXPECT_LT(view->nodes[e.from].y, view->nodes[e.to].y);
}

TEST(DependenceView, MfmaChainCarriesTheAccumulator) {
  ServerDoc d(serverProgram(kMfmaChain), /*compile=*/false);
  std::optional<DependenceView> view =
      computeDependenceView(*d.parsed, d.settings, std::nullopt);
  ASSERT_TRUE(view);
  ASSERT_EQ(view->nodes.size(), 5u);
  std::vector<EdgeKey> expected = {
      {0, 1, "data", 4, false}, // SrcC chain: the producer's 4 passes
      {0, 4, "barrier", 1, false}, {1, 4, "data", 9, false},
      {2, 3, "data", 1, false},    {2, 4, "data", 1, false},
      {3, 4, "data", 1, false},    {2, 2, "data", 1, true},
      {1, 0, "data", 4, true}, // %q -> %acc: the next iteration's chain
  };
  EXPECT_EQ(edgesOf(*view), expected);
  // An MFMA result read other than as SrcC (here by the terminator, which
  // yields it) waits 8 wait states (4-pass XDL): latency 9. So: the chain
  // to the second MFMA 4, its result to the branch 9, the branch 1.
  EXPECT_EQ(view->nodes[1].latency, 9);
  EXPECT_EQ(view->criticalPath, (std::vector<unsigned>{0, 1, 4}));
  EXPECT_EQ(view->criticalLength, 4 + 9 + 1);
}

TEST(DependenceView, PositionPicksTheLoopAndBadInputHasNone) {
  std::string text = readExample("gemm_f16_double_buffer.mlir");
  ServerDoc d(text, /*compile=*/false);
  // Inside the loop body, and outside every loop (the first loop).
  size_t at = text.find("%a00 = waveasm.ds_read_b64");
  ASSERT_NE(at, std::string::npos);
  lsp::Position inside = d.parsed->getPosition(
      llvm::SMLoc::getFromPointer(d.parsed->getText().data() + at));
  std::optional<DependenceView> loop =
      computeDependenceView(*d.parsed, d.settings, inside);
  std::optional<DependenceView> first =
      computeDependenceView(*d.parsed, d.settings, lsp::Position{0, 0});
  ASSERT_TRUE(loop && first);
  EXPECT_EQ(loop->title, first->title);
  EXPECT_NE(loop->title.find("loop at line 105"), std::string::npos)
      << loop->title;
  // The MFMAs chain through the accumulators across iterations.
  size_t carried = 0;
  for (const DependenceEdge &e : loop->edges)
    if (e.carried && loop->nodes[e.to].mnemonic.rfind("v_mfma", 0) == 0)
      ++carried;
  EXPECT_EQ(carried, 4u);
  // The picture: a box per op (each with the op's position), no script.
  std::string svg = renderDependenceSvg(*loop);
  size_t boxes = 0;
  for (size_t p = svg.find("data-op="); p != std::string::npos;
       p = svg.find("data-op=", p + 1))
    ++boxes;
  EXPECT_EQ(boxes, loop->nodes.size());
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("url("), std::string::npos);

  ServerDoc noLoop(serverProgram("  waveasm.s_endpgm\n"), false);
  EXPECT_FALSE(
      computeDependenceView(*noLoop.parsed, noLoop.settings, std::nullopt));
  ServerDoc broken(serverProgram("  %x = waveasm.v_add_u32 %nope, %nope : "
                                 "!waveasm.vreg, !waveasm.vreg -> "
                                 "!waveasm.vreg\n  waveasm.s_endpgm\n"),
                   false);
  EXPECT_FALSE(
      computeDependenceView(*broken.parsed, broken.settings, std::nullopt));
  EXPECT_TRUE(
      computeAllDependenceViews(*broken.parsed, broken.settings).empty());
}
