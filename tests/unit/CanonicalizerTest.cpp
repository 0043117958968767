//===- CanonicalizerTest.cpp - the pipeline's canonicalize, fast and slow -===//
//
// pipeline/OneSweepCanonicalizer.h erases trivially dead ops itself when the
// IR is WaveASM only, instead of running the greedy driver. Both must give
// the same IR: on random programs full of dead chains (inside and across
// loops) and dead constants, and on the examples at the pipeline's position
// of canonicalize (after the passes before it).
//
//===----------------------------------------------------------------------===//

#include "RandomPrograms.h"
#include "TestUtils.h"

#include "pipeline/OneSweepCanonicalizer.h"

#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::DeadCodeGenerator;
using waveasm::test::TestContext;

namespace {

/// `module` after `prefix` (a pass list) and the canonicalizer, fast path
/// on or off.
std::string canonicalized(TestContext &t, llvm::StringRef text,
                          bool deadOpFastPath,
                          void (*prefix)(OpPassManager &) = nullptr) {
  return waveasm::test::runPassesAndPrint(t, text, [&](OpPassManager &pm) {
    if (prefix)
      prefix(pm);
    pm.addPass(createOneSweepCanonicalizer(deadOpFastPath));
  });
}

} // namespace

TEST(Canonicalizer, ErasesDeadChainsAndDeadConstants) {
  TestContext t;
  std::string text = waveasm::test::program(R"(
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c8 = waveasm.constant 8 : !waveasm.imm<8>
    %c9 = waveasm.constant 9 : !waveasm.imm<9>
    %s0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %a = waveasm.v_add_u32 %tid, %c9 : !waveasm.pvreg<0>, !waveasm.imm<9> -> !waveasm.vreg
    %b = waveasm.v_xor_b32 %a, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kept = waveasm.v_or_b32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
    %r:2 = waveasm.loop (%i = %s0, %x = %kept) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
      %y = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %dead = waveasm.v_and_b32 %y, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %go : !waveasm.scc iter_args(%n#0, %y) : !waveasm.sreg, !waveasm.vreg
    }
    waveasm.buffer_store_dword %kept, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
    waveasm.s_endpgm)");
  std::string fast = canonicalized(t, text, true);
  std::string slow = canonicalized(t, text, false);
  EXPECT_EQ(fast, slow);
  // %dead in the loop (the last user of %b), then %b, %a and %c9 outside
  // it: a chain whose users come first. The loop itself stays (an op with
  // regions and no memory-effect interface is not trivially dead).
  EXPECT_EQ(fast.find("v_and_b32"), std::string::npos) << fast;
  EXPECT_EQ(fast.find("v_xor_b32"), std::string::npos) << fast;
  EXPECT_EQ(fast.find("constant 9"), std::string::npos) << fast;
  EXPECT_NE(fast.find("waveasm.loop"), std::string::npos) << fast;
  EXPECT_NE(fast.find("v_or_b32"), std::string::npos) << fast;
  EXPECT_NE(fast.find("buffer_store_dword"), std::string::npos) << fast;
}

TEST(Canonicalizer, FastPathEqualsGreedyDriverOnRandomPrograms) {
  unsigned changed = 0;
  for (unsigned seed = 1; seed <= 300; ++seed) {
    TestContext t;
    std::string text = DeadCodeGenerator(seed).program();
    OwningOpRef<ModuleOp> input = t.parseModule(text);
    ASSERT_TRUE(input) << "seed " << seed << "\n" << t.diagnostics << text;
    std::string fast = canonicalized(t, text, true);
    std::string slow = canonicalized(t, text, false);
    ASSERT_EQ(fast, slow) << "seed " << seed << "\n" << text;
    changed += fast != waveasm::test::print(*input);
  }
  // The programs do have dead code to erase.
  EXPECT_GT(changed, 250u);
}

TEST(Canonicalizer, FastPathEqualsGreedyDriverOnExamplesInThePipeline) {
  std::vector<std::string> paths = waveasm::test::exampleKernelPaths();
  ASSERT_FALSE(paths.empty());
  for (const std::string &path : paths) {
    std::string text = waveasm::test::readFileText(path);
    ASSERT_FALSE(text.empty()) << path;
    TestContext t;
    std::string fast =
        canonicalized(t, text, true, addWaveASMPassesBeforeCanonicalize);
    std::string slow =
        canonicalized(t, text, false, addWaveASMPassesBeforeCanonicalize);
    EXPECT_EQ(fast, slow) << path;
    EXPECT_EQ(fast.rfind("module", 0), 0u) << path << ": " << fast;
  }
}
