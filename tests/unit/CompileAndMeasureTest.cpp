//===- CompileAndMeasureTest.cpp - the pipeline on a clone ----------------===//

#include "TestUtils.h"

#include "pipeline/AllocatedLiveModel.h"
#include "pipeline/CompileAndMeasure.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/TrialAllocation.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::program;
using waveasm::test::TestContext;

namespace {

// A load, its use, a transcendental op feeding a VALU op: the pipeline must
// insert one wait (vmcnt before the add) and one nop (trans -> VALU).
const char *kBody = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %off = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %e = waveasm.v_exp_f32 %x : !waveasm.vreg -> !waveasm.vreg
  %y = waveasm.v_add_u32 %e, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)";

std::string printed(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

Operation *findOp(ModuleOp module, StringRef name) {
  Operation *found = nullptr;
  module.walk([&](Operation *op) {
    if (!found && op->getName().getStringRef() == name)
      found = op;
  });
  return found;
}

} // namespace

TEST(CompileAndMeasure, LeavesInputUntouched) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kBody));
  ASSERT_TRUE(module) << t.diagnostics;
  std::string before = printed(*module);
  FailureOr<CompileResult> result = compileAndMeasure(*module);
  ASSERT_TRUE(succeeded(result)) << t.diagnostics;
  EXPECT_EQ(printed(*module), before);
}

TEST(CompileAndMeasure, CountsWhatThePipelineInserted) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kBody));
  ASSERT_TRUE(module) << t.diagnostics;
  FailureOr<CompileResult> result = compileAndMeasure(*module);
  ASSERT_TRUE(succeeded(result)) << t.diagnostics;
  ASSERT_EQ(result->programs.size(), 1u);
  const ProgramMetrics &m = result->programs[0].metrics;
  EXPECT_EQ(m.name, "k");
  EXPECT_GE(m.waitcnts_inserted, 1);
  EXPECT_GE(m.nops_inserted, 1);
  // 6 instructions written (lshl, load, exp, add, store, endpgm) plus what
  // was inserted.
  EXPECT_EQ(m.total_instructions, 6 + m.waitcnts_inserted + m.nops_inserted);
  EXPECT_GT(m.est_cycles, 100); // the load's latency is on the path
  EXPECT_GE(m.peak_vgpr, 1);
  EXPECT_GE(m.occupancy, 1);
}

TEST(CompileAndMeasure, MapsInputOpsToAssemblyLines) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kBody));
  ASSERT_TRUE(module) << t.diagnostics;
  FailureOr<CompileResult> result = compileAndMeasure(*module);
  ASSERT_TRUE(succeeded(result)) << t.diagnostics;
  const CompiledProgram &compiled = result->programs[0];
  SmallVector<StringRef> lines;
  // Every line ends with a newline; the map has one entry per line.
  StringRef(compiled.assembly).rtrim('\n').split(lines, '\n');
  ASSERT_EQ(compiled.lineOps.size(), lines.size());
  for (StringRef name : {"waveasm.v_exp_f32", "waveasm.buffer_load_dword",
                         "waveasm.v_add_u32"}) {
    Operation *op = findOp(*module, name);
    ASSERT_TRUE(op);
    auto it = compiled.opLines.find(op);
    ASSERT_NE(it, compiled.opLines.end()) << name.str();
    ASSERT_FALSE(it->second.empty());
    StringRef mnemonic = name.drop_front(strlen("waveasm."));
    EXPECT_TRUE(lines[it->second.front()].contains(mnemonic))
        << lines[it->second.front()].str();
    EXPECT_EQ(compiled.lineOps[it->second.front()], op);
  }
}

TEST(CompileAndMeasure, AppliesTargetOverrides) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kBody));
  ASSERT_TRUE(module) << t.diagnostics;
  CompileOptions slow;
  slow.targetOverrides = {"latency.vmem_load=400"};
  FailureOr<CompileResult> base = compileAndMeasure(*module);
  FailureOr<CompileResult> slower = compileAndMeasure(*module, slow);
  ASSERT_TRUE(succeeded(base) && succeeded(slower)) << t.diagnostics;
  EXPECT_GE(slower->programs[0].metrics.est_cycles,
            base->programs[0].metrics.est_cycles + 250);

  CompileOptions bad;
  bad.targetOverrides = {"latency.bogus=1"};
  EXPECT_TRUE(failed(compileAndMeasure(*module, bad)));
  EXPECT_NE(t.diagnostics.find("unknown target override"), std::string::npos);
}

// One Compiler, many calls (the Conductor's loop): every call must give
// what a fresh compileAndMeasure gives, whatever was compiled before, and a
// failing call must not poison the next one.
TEST(CompileAndMeasure, CompilerIsReusable) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kBody));
  // The same program with the load's use moved away: other waits.
  OwningOpRef<ModuleOp> other = t.parseModule(program(R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(module && other) << t.diagnostics;
  CompileOptions options;
  options.emitAssembly = true;
  FailureOr<CompileResult> expected = compileAndMeasure(*module, options);
  FailureOr<CompileResult> expectedOther = compileAndMeasure(*other, options);
  ASSERT_TRUE(succeeded(expected) && succeeded(expectedOther)) << t.diagnostics;

  auto same = [](const CompiledProgram &a, const CompiledProgram &b) {
    EXPECT_EQ(a.assembly, b.assembly);
    EXPECT_EQ(a.metrics.est_cycles, b.metrics.est_cycles);
    EXPECT_EQ(a.metrics.waitcnts_inserted, b.metrics.waitcnts_inserted);
    EXPECT_EQ(a.metrics.nops_inserted, b.metrics.nops_inserted);
    EXPECT_EQ(a.metrics.total_instructions, b.metrics.total_instructions);
    EXPECT_EQ(a.metrics.peak_vgpr, b.metrics.peak_vgpr);
    EXPECT_EQ(a.lineOps, b.lineOps);
  };
  Compiler compiler(&t.ctx, options);
  for (int round = 0; round < 3; ++round) {
    FailureOr<CompileResult> a = compiler.compile(*module);
    FailureOr<CompileResult> b = compiler.compile(*other);
    ASSERT_TRUE(succeeded(a) && succeeded(b)) << t.diagnostics;
    same(a->programs[0], expected->programs[0]);
    same(b->programs[0], expectedOther->programs[0]);
  }
  EXPECT_NE(expected->programs[0].assembly,
            expectedOther->programs[0].assembly);

  CompileOptions bad;
  bad.targetOverrides = {"latency.bogus=1"};
  Compiler failing(&t.ctx, bad);
  EXPECT_TRUE(failed(failing.compile(*module)));
  EXPECT_TRUE(failed(failing.compile(*module)));
  FailureOr<CompileResult> again = compiler.compile(*module);
  ASSERT_TRUE(succeeded(again));
  same(again->programs[0], expected->programs[0]);
}

TEST(DeferredErase, AScopeCoversTheOpsOfItsOwnModuleOnly) {
  // adoptTrialAllocation skips working out the op map's replacements when
  // no scope covers the program (noteReplacement would drop them): the
  // answer must be exact for every op of a module with a scope, and for
  // none of another module or after the scope ends.
  TestContext t;
  OwningOpRef<ModuleOp> a = t.parseModule(program(kBody));
  OwningOpRef<ModuleOp> b = t.parseModule(program(kBody));
  ASSERT_TRUE(a && b) << t.diagnostics;
  auto every = [](ModuleOp module, bool expected) {
    unsigned ops = 0;
    module->walk([&](Operation *op) {
      EXPECT_EQ(hasDeferredEraseScope(op), expected)
          << op->getName().getStringRef().str();
      ++ops;
    });
    EXPECT_GT(ops, 5u);
  };
  every(*a, false);
  {
    DeferredEraseScope scope(a->getOperation());
    every(*a, true);
    every(*b, false);
    // An op taken out of the module is no longer covered.
    Operation *end = findOp(*a, "waveasm.s_endpgm");
    ASSERT_TRUE(end);
    end->remove();
    EXPECT_FALSE(hasDeferredEraseScope(end));
    end->destroy();
  }
  every(*a, false);
}

TEST(CompileAndMeasure, TakesLoopAddressPromotionsTrialAllocation) {
  // With a promotion limit of 64 VGPRs, loop address promotion allocates a
  // promoted copy of the kernels it promotes (its fall-back check) and the
  // linear scan takes that allocation instead of allocating again. The
  // assembly and the input op <-> line map must be those of a compile whose
  // scan allocates again: one SGPR fewer makes the trial's options differ,
  // so it is not taken there.
  uint64_t adopted = 0;
  unsigned compared = 0;
  for (const std::string &path : waveasm::test::exampleKernelPaths()) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(buffer) << path;
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule((*buffer)->getBuffer());
    ASSERT_TRUE(module) << path << t.diagnostics;
    CompileOptions taken;
    taken.pipeline.addressPromotionVGPRLimit = 64;
    CompileOptions again = taken;
    again.pipeline.maxSGPRs = taken.pipeline.maxSGPRs - 1;

    uint64_t before = getAdoptedTrialAllocations();
    uint64_t modelsBefore = getTakenAllocatedLiveModels();
    FailureOr<CompileResult> a = compileAndMeasure(*module, taken);
    uint64_t between = getAdoptedTrialAllocations();
    uint64_t modelsBetween = getTakenAllocatedLiveModels();
    FailureOr<CompileResult> b = compileAndMeasure(*module, again);
    EXPECT_EQ(getAdoptedTrialAllocations(), between) << path;
    adopted += between - before;
    if (failed(a) || failed(b))
      continue; // one SGPR fewer may not allocate; nothing to compare
    // VGPR compaction takes the trial's live model where the scan takes
    // the trial's allocation, as it takes the scan's own where it
    // allocates again (AllocatedLiveModel.h).
    EXPECT_EQ(modelsBetween - modelsBefore,
              getTakenAllocatedLiveModels() - modelsBetween)
        << path;
    ASSERT_EQ(a->programs.size(), b->programs.size()) << path;
    for (auto [x, y] : llvm::zip(a->programs, b->programs)) {
      EXPECT_EQ(x.assembly, y.assembly) << path;
      EXPECT_EQ(x.lineOps, y.lineOps) << path;
      EXPECT_EQ(x.opLines.size(), y.opLines.size()) << path;
      for (auto &[op, lines] : x.opLines) {
        auto it = y.opLines.find(op);
        ASSERT_NE(it, y.opLines.end()) << path;
        EXPECT_EQ(lines, it->second) << path;
      }
      ++compared;
    }
  }
  // The promoting examples took the trial's allocation.
  EXPECT_GE(adopted, 2u);
  EXPECT_GE(compared, 2u);
}
