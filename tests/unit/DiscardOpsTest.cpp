//===- DiscardOpsTest.cpp - discarded ops leaked instead of erased --------===//
//
// pipeline/DeferredErase.h's discardOps moves a discarded body out of the IR
// without freeing it when the process says so (waveasm-opt): the linear
// scan's adoption of promotion's trial allocation discards the program's
// replaced body that way. The pipeline must give the same IR either way, on
// every example whose promotion runs the trial (a VGPR limit of 64 makes it
// run), and the trial must have been adopted.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "pipeline/DeferredErase.h"
#include "pipeline/Passes.h"
#include "pipeline/PipelineConfig.h"
#include "pipeline/TrialAllocation.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::TestContext;

namespace {

/// The production pipeline's IR of `text` with a promotion limit of 64.
std::string compiled(const std::string &text, bool leak) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(text);
  if (!module)
    return "parse error: " + t.diagnostics;
  WaveASMPipelineConfig config;
  config.addressPromotionVGPRLimit = 64;
  PassManager pm = PassManager::on<ModuleOp>(&t.ctx);
  buildWaveASMPipeline(pm, config);
  setLeakDiscardedOps(leak);
  LogicalResult result = pm.run(*module);
  setLeakDiscardedOps(false);
  if (failed(result))
    return "pass failure: " + t.diagnostics;
  if (failed(verify(*module)))
    return "invalid: " + t.diagnostics;
  return waveasm::test::print(*module);
}

TEST(DiscardOps, LeakedBodiesGiveTheSameIRAsErasedOnes) {
  uint64_t adopted = 0;
  unsigned compiledOk = 0;
  for (const std::string &path : waveasm::test::exampleKernelPaths()) {
    std::string text = waveasm::test::readFileText(path);
    ASSERT_FALSE(text.empty()) << path;
    std::string erased = compiled(text, false);
    uint64_t before = getAdoptedTrialAllocations();
    std::string leaked = compiled(text, true);
    adopted += getAdoptedTrialAllocations() - before;
    EXPECT_EQ(leaked, erased) << path;
    compiledOk += erased.rfind("module", 0) == 0;
  }
  // The leaking runs did adopt trial allocations (discarding bodies).
  EXPECT_GE(adopted, 2u);
  EXPECT_GE(compiledOk, 5u);
}

TEST(DiscardOps, LeavesTheBlockEmptyAndTheModuleValid) {
  for (bool leak : {false, true}) {
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule(waveasm::test::program(R"(
      %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
      %a = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
      %b = waveasm.v_add_u32 %a, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
      waveasm.s_endpgm)"));
    ASSERT_TRUE(module) << t.diagnostics;
    auto program = cast<ProgramOp>(module->getBody()->front());
    Block &body = program.getBody().front();
    setLeakDiscardedOps(leak);
    discardOps(body);
    setLeakDiscardedOps(false);
    EXPECT_TRUE(body.empty()) << leak;
    OpBuilder b = OpBuilder::atBlockEnd(&body);
    S_ENDPGM::create(b, program.getLoc());
    EXPECT_TRUE(succeeded(verify(*module))) << leak << t.diagnostics;
  }
}

} // namespace
