//===- LICMTest.cpp - the pipeline's LICM against MLIR's ------------------===//
//
// pipeline/ClassCachedLICM.h reads whether an op may be hoisted once per
// WaveASM op class instead of asking every op. It must hoist exactly what
// MLIR's LICM hoists, in the same order: on random programs (pure and
// storing loops, nested, with invariant and variant ops) and on the
// examples at the pipeline's position of LICM (after the passes before it).
//
//===----------------------------------------------------------------------===//

#include "RandomPrograms.h"
#include "TestUtils.h"

#include "pipeline/ClassCachedLICM.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::DeadCodeGenerator;
using waveasm::test::TestContext;

namespace {

enum class Licm { None, ClassCached, Uncached, MLIR };

/// `text` after `prefix` (a pass list on a module) and one LICM.
std::string hoisted(TestContext &t, llvm::StringRef text, Licm which,
                    void (*prefix)(OpPassManager &) = nullptr) {
  return waveasm::test::runPassesAndPrint(t, text, [&](OpPassManager &pm) {
    if (prefix)
      prefix(pm);
    if (which == Licm::ClassCached || which == Licm::Uncached)
      pm.addPass(createClassCachedLICM(which == Licm::ClassCached));
    else if (which == Licm::MLIR)
      pm.addPass(createLoopInvariantCodeMotionPass());
  });
}

} // namespace

TEST(LICM, HoistsInvariantPureOpsOnlyAndKeepsStores) {
  TestContext t;
  std::string text = waveasm::test::program(R"(
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c8 = waveasm.constant 8 : !waveasm.imm<8>
    %s0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %r:2 = waveasm.loop (%i = %s0, %x = %tid) : (!waveasm.sreg, !waveasm.pvreg<0>) -> (!waveasm.sreg, !waveasm.vreg) {
      %inv = waveasm.v_xor_b32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
      %inv2 = waveasm.v_or_b32 %inv, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
      %y = waveasm.v_add_u32 %x, %inv2 : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg
      waveasm.buffer_store_dword %inv, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
      %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %go : !waveasm.scc iter_args(%n#0, %y) : !waveasm.sreg, !waveasm.vreg
    }
    waveasm.s_endpgm)");
  std::string cached = hoisted(t, text, Licm::ClassCached);
  EXPECT_EQ(cached, hoisted(t, text, Licm::MLIR));
  EXPECT_EQ(cached, hoisted(t, text, Licm::Uncached));
  // The invariant xor and its user move before the loop (the user is queued
  // once the xor has moved); the store, the variant add and the counter
  // stay inside.
  size_t loop = cached.find("waveasm.loop");
  ASSERT_NE(loop, std::string::npos) << cached;
  EXPECT_LT(cached.find("v_xor_b32"), loop) << cached;
  EXPECT_LT(cached.find("v_or_b32"), loop) << cached;
  EXPECT_GT(cached.find("v_add_u32"), loop) << cached;
  EXPECT_GT(cached.find("buffer_store_dword"), loop) << cached;
  EXPECT_GT(cached.find("s_add_u32"), loop) << cached;
}

TEST(LICM, IfOpsInALoopAsMLIRsLICM) {
  // Ops with regions take the general path, asked every time: an if is not
  // speculatable, so neither moves (even one reading only invariant
  // values), nor do their users; the invariant xor after them does.
  TestContext t;
  std::string text = waveasm::test::program(R"(
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c8 = waveasm.constant 8 : !waveasm.imm<8>
    %s0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %s1 = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
    %r:2 = waveasm.loop (%i = %s0, %x = %tid) : (!waveasm.sreg, !waveasm.pvreg<0>) -> (!waveasm.sreg, !waveasm.vreg) {
      %a = waveasm.if %s1 : !waveasm.sreg -> !waveasm.vreg {
        %w = waveasm.v_xor_b32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
        %w2 = waveasm.v_or_b32 %w, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
        waveasm.yield %w2 : !waveasm.vreg
      } else {
        %e = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
        waveasm.yield %e : !waveasm.vreg
      }
      %b = waveasm.if %s1 : !waveasm.sreg -> !waveasm.vreg {
        %v = waveasm.v_add_u32 %x, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
        waveasm.yield %v : !waveasm.vreg
      } else {
        %e2 = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
        waveasm.yield %e2 : !waveasm.vreg
      }
      %inv = waveasm.v_xor_b32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
      %ua = waveasm.v_or_b32 %a, %inv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %ub = waveasm.v_or_b32 %b, %ua : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %go : !waveasm.scc iter_args(%n#0, %ub) : !waveasm.sreg, !waveasm.vreg
    }
    waveasm.s_endpgm)");
  std::string cached = hoisted(t, text, Licm::ClassCached);
  ASSERT_NE(cached, "") << t.diagnostics;
  EXPECT_EQ(cached, hoisted(t, text, Licm::MLIR));
  EXPECT_EQ(cached, hoisted(t, text, Licm::Uncached));
  size_t loop = cached.find("waveasm.loop");
  EXPECT_LT(cached.find("v_xor_b32 %0, %0"), loop) << cached;
  EXPECT_GT(cached.find("waveasm.if"), loop) << cached;
}

TEST(LICM, ClassCacheEqualsMLIRsLICMOnRandomPrograms) {
  unsigned changed = 0;
  for (unsigned seed = 1; seed <= 300; ++seed) {
    TestContext t;
    std::string text = DeadCodeGenerator(seed).program();
    OwningOpRef<ModuleOp> input = t.parseModule(text);
    ASSERT_TRUE(input) << "seed " << seed << "\n" << t.diagnostics << text;
    std::string cached = hoisted(t, text, Licm::ClassCached);
    ASSERT_EQ(cached, hoisted(t, text, Licm::MLIR)) << "seed " << seed << "\n"
                                                    << text;
    changed += cached != waveasm::test::print(*input);
  }
  // The programs do have invariant ops to hoist.
  EXPECT_GT(changed, 100u);
}

TEST(LICM, ClassCacheEqualsMLIRsLICMOnExamplesInThePipeline) {
  std::vector<std::string> paths = waveasm::test::exampleKernelPaths();
  ASSERT_FALSE(paths.empty());
  unsigned changed = 0;
  for (const std::string &path : paths) {
    std::string text = waveasm::test::readFileText(path);
    ASSERT_FALSE(text.empty()) << path;
    TestContext t;
    std::string cached =
        hoisted(t, text, Licm::ClassCached, addWaveASMPassesBeforeLICM);
    EXPECT_EQ(cached, hoisted(t, text, Licm::MLIR, addWaveASMPassesBeforeLICM))
        << path;
    EXPECT_EQ(cached.rfind("module", 0), 0u) << path << ": " << cached;
    changed +=
        cached != hoisted(t, text, Licm::None, addWaveASMPassesBeforeLICM);
  }
  EXPECT_GT(changed, 0u);
}
