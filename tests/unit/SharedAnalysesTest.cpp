//===- SharedAnalysesTest.cpp - analyses kept across passes ---------------===//
//
// Analyses a pass leaves in the analysis manager for the next one must be
// dropped when the pass changes the program, and must equal a fresh
// analysis when kept. SCC spill/reload leaves its SCCClobbers for the SCC
// verifier when it inserts nothing: a probe pass after it reads the cached
// analysis on every example and on the lit inputs, and compares every
// answer the verifier could ask with a fresh SCCClobbers. Neither pass
// builds it when every SCC reader directly follows its producer (nothing can
// run in between): an instrumentation counts the builds.
//
// The linear scan hands its live model on to VGPR compaction
// (AllocatedLiveModel.h): a probe after the linear scan compares the handed
// model's VGPR intervals with a fresh VGPR model of the allocated program,
// and compaction on the handed model must give the program it gives when it
// builds its own (separate pass managers), on every input and pipelined
// example.
//
//===----------------------------------------------------------------------===//

#include "ConductorTestUtils.h"
#include "MlirInputs.h"
#include "TestUtils.h"

#include "pipeline/AllocatedLiveModel.h"
#include "pipeline/Passes.h"
#include "pipeline/SCCClobbers.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;

namespace {

struct ProbeResult {
  unsigned programs = 0, cached = 0, pairs = 0, mismatches = 0;
};

/// Compares the cached SCCClobbers (if any) with a fresh one on every SCC
/// producer/consumer pair and every op's `writes`.
struct ProbeSCCClobbers
    : public PassWrapper<ProbeSCCClobbers, OperationPass<ProgramOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ProbeSCCClobbers)
  ProbeSCCClobbers(ProbeResult &result, bool compare)
      : result(result), compare(compare) {}
  ProbeResult &result;
  /// Off where the kept analysis may be stale: asking a stale one about
  /// ops it never numbered is undefined, the count alone tells.
  bool compare;

  void runOnOperation() override {
    ++result.programs;
    markAllAnalysesPreserved();
    auto cached = getCachedAnalysis<SCCClobbers>();
    if (!cached)
      return;
    ++result.cached;
    if (!compare)
      return;
    const SCCClobbers &kept = cached->get();
    SCCClobbers fresh(getOperation());
    getOperation().getBody().walk([&](Operation *consumer) {
      result.mismatches += kept.writes(consumer) != fresh.writes(consumer);
      for (Value operand : consumer->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (!producer || !isa<SCCType>(operand.getType()))
          continue;
        ++result.pairs;
        result.mismatches += kept.clobberedBetween(producer, consumer) !=
                             fresh.clobberedBetween(producer, consumer);
      }
    });
  }
};

ProbeResult probeAfterSpillReload(ModuleOp module, bool compare) {
  ProbeResult result;
  PassManager pm(module->getContext());
  OpPassManager &nested = pm.nest<ProgramOp>();
  nested.addPass(createWaveASMSCCSpillReload());
  nested.addPass(std::make_unique<ProbeSCCClobbers>(result, compare));
  EXPECT_TRUE(succeeded(pm.run(module)));
  return result;
}

constexpr const char *kNeedsReload = R"(
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %scc = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  %a:2 = waveasm.s_add_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %r = waveasm.s_cselect_b32 %scc, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
  waveasm.dce_protect %r : !waveasm.sreg
  waveasm.s_endpgm)";

/// An SCC reader with an op between it and its producer: the one shape
/// for which the passes build SCCClobbers.
constexpr const char *kReaderAfterAnotherOp = R"(
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %scc = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  %m = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  %r = waveasm.s_cselect_b32 %scc, %m, %c1 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg
  waveasm.dce_protect %r : !waveasm.sreg
  waveasm.s_endpgm)";

TEST(SharedSCCClobbers, DroppedWhenSpillReloadChangesTheProgram) {
  test::TestContext t;
  auto module = t.parseModule(test::program(kNeedsReload));
  ASSERT_TRUE(module) << t.diagnostics;
  ProbeResult result = probeAfterSpillReload(*module, /*compare=*/false);
  EXPECT_EQ(result.programs, 1u);
  EXPECT_EQ(result.cached, 0u); // a reload was inserted: stale
}

TEST(SharedSCCClobbers, KeptAndEqualToAFreshOneWhenNothingChanged) {
  test::TestContext t;
  auto module = t.parseModule(test::program(kReaderAfterAnotherOp));
  ASSERT_TRUE(module) << t.diagnostics;
  ProbeResult result = probeAfterSpillReload(*module, /*compare=*/true);
  EXPECT_EQ(result.cached, 1u);
  EXPECT_EQ(result.pairs, 1u);
  EXPECT_EQ(result.mismatches, 0u);
}

/// Counts the SCCClobbers the passes of a pass manager build.
struct CountSCCClobbersBuilds : public PassInstrumentation {
  explicit CountSCCClobbersBuilds(unsigned &builds) : builds(builds) {}
  void runBeforeAnalysis(StringRef, TypeID id, Operation *) override {
    builds += id == TypeID::get<SCCClobbers>();
  }
  unsigned &builds;
};

/// Runs SCC spill/reload and the SCC verifier; the SCCClobbers they built.
unsigned sccClobbersBuilds(ModuleOp module) {
  unsigned builds = 0;
  PassManager pm(module->getContext());
  pm.addInstrumentation(std::make_unique<CountSCCClobbersBuilds>(builds));
  OpPassManager &nested = pm.nest<ProgramOp>();
  nested.addPass(createWaveASMSCCSpillReload());
  nested.addPass(createWaveASMSCCVerifier());
  EXPECT_TRUE(succeeded(pm.run(module)));
  return builds;
}

TEST(SharedSCCClobbers, NotBuiltWhenEveryReaderFollowsItsProducer) {
  test::TestContext t;
  auto module = t.parseModule(test::program(R"(
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %scc = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  %r = waveasm.s_cselect_b32 %scc, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
  %a:2 = waveasm.s_add_u32 %r, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %q = waveasm.s_cselect_b32 %a#1, %r, %c1 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg
  waveasm.dce_protect %q : !waveasm.sreg
  waveasm.s_endpgm)"));
  ASSERT_TRUE(module) << t.diagnostics;
  EXPECT_EQ(sccClobbersBuilds(*module), 0u);
}

TEST(SharedSCCClobbers, BuiltOnceForAReaderAfterOtherOps) {
  test::TestContext t;
  // The verifier reuses spill/reload's (nothing was reloaded).
  auto module = t.parseModule(test::program(kReaderAfterAnotherOp));
  ASSERT_TRUE(module) << t.diagnostics;
  EXPECT_EQ(sccClobbersBuilds(*module), 1u);
}

TEST(SharedSCCClobbers, EqualToAFreshOneOnEveryExampleAndLitInput) {
  std::vector<std::string> paths = test::exampleKernelPaths();
  std::string examples = test::examplesDir();
  for (const std::string &dir : {examples + "/../tests/lit/pipeline",
                                 examples + "/../tests/lit/pipeline/Inputs",
                                 examples + "/../tests/lit/analysis"}) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::sys::path::extension(it->path()) == ".mlir")
        paths.push_back(it->path());
  }
  ProbeResult total;
  unsigned modules = 0;
  for (const std::string &path : paths) {
    test::TestContext t;
    // Lit inputs hold many programs per file, some invalid on purpose
    // (split-input files are parsed whole and refused: skipped).
    auto module = t.parseModule(test::readFile(path));
    if (!module || failed(verify(*module)))
      continue;
    ++modules;
    PassManager pm(module->getContext());
    OpPassManager &nested = pm.nest<ProgramOp>();
    nested.addPass(createWaveASMSCCSpillReload());
    ProbeResult result;
    nested.addPass(std::make_unique<ProbeSCCClobbers>(result, true));
    if (failed(pm.run(*module)))
      continue;
    EXPECT_EQ(result.mismatches, 0u) << path;
    total.programs += result.programs;
    total.cached += result.cached;
    total.pairs += result.pairs;
  }
  EXPECT_GT(modules, 10u);
  // Kept only where some reader does not directly follow its producer.
  EXPECT_GT(total.cached, 4u);
  EXPECT_GT(total.pairs, 0u);
}

//===----------------------------------------------------------------------===//
// The allocator's live model, handed on to VGPR compaction
//===----------------------------------------------------------------------===//

struct ModelProbeResult {
  unsigned programs = 0, handed = 0, values = 0, mismatches = 0;
};

/// Compares the live model the linear scan left (if any) with a fresh
/// VGPR-only model of the allocated program: the same VGPR values with the
/// same intervals, sizes and op numbers, and the same ops.
struct ProbeAllocatedLiveModel
    : public PassWrapper<ProbeAllocatedLiveModel, OperationPass<ProgramOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ProbeAllocatedLiveModel)
  explicit ProbeAllocatedLiveModel(ModelProbeResult &result) : result(result) {}
  ModelProbeResult &result;

  void runOnOperation() override {
    markAllAnalysesPreserved();
    ProgramOp program = getOperation();
    if (program.getBody().empty())
      return;
    ++result.programs;
    auto cached = getCachedAnalysis<AllocatedLiveModel>();
    if (!cached || !cached->get().model)
      return;
    ++result.handed;
    regalloc::LiveModel handed = *cached->get().model; // a copy: kept
    handed.adoptTrackedPhysical();
    regalloc::LiveModel fresh(program);
    fresh.includePhysical = true;
    fresh.onlyClass = RegClass::VGPR;
    fresh.buildIntervals();
    result.mismatches += handed.ops != fresh.ops;
    unsigned handedVGPRs = 0;
    for (const regalloc::LiveValue &info : handed.values)
      handedVGPRs += info.regClass == RegClass::VGPR;
    result.mismatches += handedVGPRs != fresh.values.size();
    for (const regalloc::LiveValue &want : fresh.values) {
      ++result.values;
      int32_t id = handed.idOf(want.value);
      if (id < 0) {
        ++result.mismatches;
        continue;
      }
      const regalloc::LiveValue &got = handed.values[id];
      result.mismatches += got.regClass != want.regClass ||
                           got.size != want.size || got.defOp != want.defOp ||
                           got.live.start != want.live.start ||
                           got.live.end != want.live.end;
    }
  }
};

/// `module` printed after the linear scan and VGPR compaction, run in one
/// pass manager (`together`: compaction takes the allocator's model) or in
/// two (compaction builds its own); empty when allocation fails.
std::string allocateAndCompact(ModuleOp module, bool together) {
  auto run = [&](auto addPasses) {
    PassManager pm(module->getContext());
    addPasses(pm.nest<ProgramOp>());
    return succeeded(pm.run(module));
  };
  bool ok;
  if (together) {
    ok = run([](OpPassManager &pm) {
      pm.addPass(createWaveASMLinearScan());
      pm.addPass(createWaveASMVGPRCompaction());
    });
  } else {
    ok =
        run([](OpPassManager &pm) { pm.addPass(createWaveASMLinearScan()); }) &&
        run([](OpPassManager &pm) {
          pm.addPass(createWaveASMVGPRCompaction());
        });
  }
  if (!ok)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

TEST(AllocatedLiveModel, HandedIntervalsEqualAFreshVGPRModel) {
  ModelProbeResult total;
  test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        ModelProbeResult result;
        PassManager pm(module->getContext());
        OpPassManager &nested = pm.nest<ProgramOp>();
        nested.addPass(createWaveASMLinearScan());
        nested.addPass(std::make_unique<ProbeAllocatedLiveModel>(result));
        if (failed(pm.run(module)))
          return;
        EXPECT_EQ(result.mismatches, 0u) << name;
        total.programs += result.programs;
        total.handed += result.handed;
        total.values += result.values;
      });
  EXPECT_GT(total.programs, 50u);
  // Every allocation that adds no insert move hands its model on (many
  // lit programs are allocated already: nothing to allocate, no model).
  EXPECT_GT(total.handed, 200u);
  EXPECT_GT(total.values, 1000u);
}

TEST(AllocatedLiveModel, CompactionOnTheHandedModelEqualsItsOwnBuild) {
  uint64_t takenBefore = getTakenAllocatedLiveModels();
  unsigned compared = 0;
  test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        // Two parses of one text: the same IR with the same use-list orders
        // (which rematerialization reads; a clone would not keep them).
        std::string text;
        llvm::raw_string_ostream os(text);
        module->print(os);
        OwningOpRef<ModuleOp> first =
            parseSourceString<ModuleOp>(text, module->getContext());
        OwningOpRef<ModuleOp> second =
            parseSourceString<ModuleOp>(text, module->getContext());
        ASSERT_TRUE(first && second) << name;
        std::string handed = allocateAndCompact(*first, /*together=*/true);
        std::string built = allocateAndCompact(*second, /*together=*/false);
        EXPECT_EQ(handed, built) << name;
        compared += !handed.empty();
      });
  EXPECT_GT(compared, 50u);
  // Compaction took the model over instead of building it (none is taken
  // across pass managers).
  EXPECT_GT(getTakenAllocatedLiveModels() - takenBefore, compared * 9 / 10);
}

TEST(AllocatedLiveModel, DroppedByAPassThatDoesNotPreserveIt) {
  test::TestContext t;
  auto module = t.parseModule(test::program(R"(
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %v = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg
  %w = waveasm.v_add_u32 %v, %v : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %w : !waveasm.vreg
  waveasm.s_endpgm)"));
  ASSERT_TRUE(module) << t.diagnostics;
  ModelProbeResult result;
  PassManager pm(module->getContext());
  OpPassManager &nested = pm.nest<ProgramOp>();
  nested.addPass(createWaveASMLinearScan());
  nested.addPass(createWaveASMHazardMitigation());
  nested.addPass(std::make_unique<ProbeAllocatedLiveModel>(result));
  ASSERT_TRUE(succeeded(pm.run(*module)));
  EXPECT_EQ(result.programs, 1u);
  EXPECT_EQ(result.handed, 0u);
}

} // namespace
