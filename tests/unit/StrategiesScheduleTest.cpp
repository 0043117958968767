//===- StrategiesScheduleTest.cpp - the built-in schedulers ---------------===//
//
// The latency and pressure strategies on every example kernel: legal
// (checked independently of the dependence graph: the rescheduled module
// verifies, so every def dominates its uses; memory accesses that may
// conflict and pinned ops keep their order), deterministic, and better by
// measurement where the tests say so.
//
//===----------------------------------------------------------------------===//

#include "StrategiesTestUtils.h"

#include "conductor/strategies/DependenceGraph.h"
#include "conductor/strategies/ListScheduler.h"
#include "conductor/strategies/LocalSearch.h"
#include "conductor/strategies/PressureScheduler.h"

#include "analysis/Liveness.h"
#include "ir/InstFacts.h"

#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using namespace waveasm::test;

namespace {

/// Memory spaces read / written by an op and everything nested in it.
std::pair<unsigned, unsigned> memEffects(Operation *op) {
  unsigned reads = 0, writes = 0;
  op->walk([&](Operation *nested) {
    InstFacts facts = lookupInstFacts(nested);
    reads |= facts.memReads;
    writes |= facts.memWrites;
  });
  return {reads, writes};
}

bool isPinnedOp(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  return facts.pinned || isa<LoopOp>(op) ||
         op->hasTrait<mlir::OpTrait::IsTerminator>();
}

/// Independent legality check of `order` against the block's input order:
/// pinned ops keep their position, conflicting memory accesses their
/// relative order. (SSA dominance: the caller verifies the module.)
void expectOrderKeepsMemoryAndWalls(llvm::ArrayRef<Operation *> input,
                                    llvm::ArrayRef<Operation *> order,
                                    const std::string &what) {
  ASSERT_EQ(input.size(), order.size()) << what;
  llvm::DenseMap<Operation *, unsigned> newPos;
  for (unsigned p = 0; p < order.size(); ++p)
    newPos[order[p]] = p;
  for (unsigned i = 0; i < input.size(); ++i) {
    if (isPinnedOp(input[i]))
      EXPECT_EQ(newPos[input[i]], i) << what << ": pinned op moved";
    auto [ri, wi] = memEffects(input[i]);
    for (unsigned j = i + 1; j < input.size(); ++j) {
      auto [rj, wj] = memEffects(input[j]);
      bool conflict = (wi & (rj | wj)) || (wj & (ri | wi));
      if (conflict)
        EXPECT_LT(newPos[input[i]], newPos[input[j]])
            << what << ": conflicting memory accesses swapped";
    }
  }
}

std::vector<Operation *> blockOrder(Block &block) {
  std::vector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  return ops;
}

void applyOrder(Block &block, llvm::ArrayRef<Operation *> order) {
  for (Operation *op : order)
    op->moveBefore(&block, block.end());
}

using Strategy = StrategyResult (*)(Block &, const TargetModel &,
                                    const CompileOptions &);

void checkStrategyOnAllKernels(Strategy strategy, llvm::StringRef name) {
  for (const std::string &path : allKernelPaths()) {
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule(readKernel(path));
    ASSERT_TRUE(module) << path << t.diagnostics;
    ProgramOp program = firstProgram(*module);
    Block *block = defaultBlock(*module);
    ASSERT_TRUE(block);
    const TargetModel &target = TargetModel::get(program.getTargetKind());
    std::vector<Operation *> input = blockOrder(*block);

    StrategyResult result = strategy(*block, target, {});
    std::string what = (name + " on " + path).str();
    ASSERT_TRUE(result.before) << what;
    ASSERT_TRUE(result.after) << what;
    // The input is untouched by the strategy itself.
    EXPECT_EQ(blockOrder(*block), input) << what;
    expectOrderKeepsMemoryAndWalls(input, result.order, what);
    // Never more VGPRs or AGPRs; never slower... unless fewer VGPRs.
    EXPECT_LE(result.after->peakVGPR, result.before->peakVGPR) << what;
    EXPECT_LE(result.after->peakAGPR, result.before->peakAGPR) << what;
    if (!result.improved)
      EXPECT_EQ(result.order, input) << what;

    // Deterministic.
    StrategyResult again = strategy(*block, target, {});
    EXPECT_EQ(again.order, result.order) << what;

    // The rescheduled program verifies (dominance) and measures as claimed.
    applyOrder(*block, result.order);
    EXPECT_TRUE(succeeded(verify(*module))) << what << t.diagnostics;
    // (The evaluator leaves the co-access figures and the program's bound
    // out: it judges cycles.)
    CompileOptions asEvaluated;
    asEvaluated.judgeByCyclesOnly();
    FailureOr<CompileResult> compiled = compileAndMeasure(*module, asEvaluated);
    ASSERT_TRUE(succeeded(compiled)) << what;
    EXPECT_EQ(compiled->programs[0].metrics, result.after->program) << what;
  }
}

} // namespace

TEST(StrategiesSchedule, LatencyStrategyIsLegalOnEveryExample) {
  checkStrategyOnAllKernels(
      [](Block &block, const TargetModel &target, const CompileOptions &o) {
        return scheduleListLatencyOrder(block, target, o);
      },
      "latency");
}

TEST(StrategiesSchedule, PressureStrategyIsLegalOnEveryExample) {
  checkStrategyOnAllKernels(
      [](Block &block, const TargetModel &target, const CompileOptions &o) {
        return schedulePressureOrder(block, target, o);
      },
      "pressure");
}

TEST(StrategiesSchedule, EveryListVariantIsALegalOrder) {
  for (const std::string &path : allKernelPaths()) {
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule(readKernel(path));
    ASSERT_TRUE(module) << path;
    Block *block = defaultBlock(*module);
    const TargetModel &target =
        TargetModel::get(firstProgram(*module).getTargetKind());
    DependenceGraph graph(*block);
    for (const ListScheduleOptions &variant : listScheduleVariants()) {
      std::vector<unsigned> order = listScheduleOrder(graph, target, variant);
      std::string why;
      EXPECT_TRUE(graph.isLegalOrder(order, &why)) << path << ": " << why;
    }
    std::string why;
    EXPECT_TRUE(graph.isLegalOrder(pressureScheduleOrder(graph, target), &why))
        << path << ": " << why;
  }
}

TEST(StrategiesSchedule, LatencyStrategyHidesLatencyOfAGemmLoop) {
  // The GEMM K loop with its global loads issued last and LDS reads
  // clustered: the strategy issues the loads first and interleaves.
  TestContext t;
  OwningOpRef<ModuleOp> module =
      t.parseModule(readKernel(mcaVariantPath("v4_clustered_late.mlir")));
  ASSERT_TRUE(module) << t.diagnostics;
  Block *block = defaultBlock(*module);
  const TargetModel &target =
      TargetModel::get(firstProgram(*module).getTargetKind());
  StrategyResult result = scheduleListLatencyOrder(*block, target);
  ASSERT_TRUE(result.improved);
  // At least 15% fewer cycles per iteration, no more VGPRs.
  EXPECT_LE(result.after->cycles * 100, result.before->cycles * 85)
      << result.before->cycles << " -> " << result.after->cycles;
  EXPECT_LE(result.after->peakVGPR, result.before->peakVGPR);
  // The first global load now comes before the first MFMA.
  auto first = [&](llvm::StringRef prefix) {
    for (unsigned p = 0; p < result.order.size(); ++p)
      if (result.order[p]->getName().getStringRef().starts_with(prefix))
        return p;
    return ~0u;
  };
  EXPECT_LT(first("waveasm.buffer_load"), first("waveasm.v_mfma"));
}

// The double-buffered GEMM's iteration is bound by its global load -> LDS
// -> barrier chain (steady state within 10% of its critical path), so
// reordering one iteration cannot gain cycles: the strategy keeps them and
// frees VGPRs instead. The split-K loop has cycles to gain.
TEST(StrategiesSchedule, LatencyStrategyImprovesTheGemmExamples) {
  TestContext t;
  for (const char *example :
       {"gemm_f16_double_buffer.mlir", "gemm_bf16_splitk_agpr.mlir"}) {
    OwningOpRef<ModuleOp> module =
        t.parseModule(readKernel(examplePath(example)));
    ASSERT_TRUE(module) << t.diagnostics;
    Block *block = defaultBlock(*module);
    StrategyResult result = scheduleListLatencyOrder(
        *block, TargetModel::get(firstProgram(*module).getTargetKind()));
    ASSERT_TRUE(result.improved) << example;
    EXPECT_LE(result.after->cycles, result.before->cycles) << example;
    EXPECT_LT(result.after->peakVGPR, result.before->peakVGPR) << example;
    if (llvm::StringRef(example).contains("splitk"))
      EXPECT_LT(result.after->cycles, result.before->cycles);
  }
}

namespace {

/// A straight-line block that computes 32 values up front and sums them
/// afterwards: the input order keeps all 32 live at once.
std::string wideSumProgram() {
  std::string body = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
)";
  // Distinct addends: the full pipeline's peephole would fold `tid + 0`
  // and its CSE would merge equal sums.
  for (int i = 0; i < 32; ++i) {
    std::string k = std::to_string(i + 1);
    body += "  %k" + k + " = waveasm.constant " + k + " : !waveasm.imm<" + k +
            ">\n";
    body += "  %v" + std::to_string(i) + " = waveasm.v_add_u32 %tid, %k" + k +
            " : !waveasm.pvreg<0>, !waveasm.imm<" + k + "> -> !waveasm.vreg\n";
  }
  body += "  %s0 = waveasm.v_add_u32 %v0, %v1 : !waveasm.vreg, !waveasm.vreg "
          "-> !waveasm.vreg\n";
  for (int i = 2; i < 32; ++i)
    body += "  %s" + std::to_string(i - 1) + " = waveasm.v_add_u32 %s" +
            std::to_string(i - 2) + ", %v" + std::to_string(i) +
            " : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg\n";
  body += "  waveasm.buffer_store_dword %s30, %srd, %tid : !waveasm.vreg, "
          "!waveasm.psreg<8, 4>, !waveasm.pvreg<0>\n  waveasm.s_endpgm\n";
  return program(body);
}

} // namespace

TEST(StrategiesSchedule, PressureStrategyLowersPeakVGPRsOfAWideSum) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(wideSumProgram());
  ASSERT_TRUE(module) << t.diagnostics;
  ProgramOp program = firstProgram(*module);
  Block &block = program.getBody().front();
  StrategyResult result =
      schedulePressureOrder(block, TargetModel::get(program.getTargetKind()));
  ASSERT_TRUE(result.improved) << result.before->peakVGPR;
  EXPECT_GE(result.before->peakVGPR, 32);
  EXPECT_LT(result.after->peakVGPR, result.before->peakVGPR);
  // Liveness of the rescheduled program agrees: at most a handful live.
  applyOrder(block, result.order);
  ASSERT_TRUE(succeeded(verify(*module)));
  ProgramIndex index(program);
  Liveness liveness(index);
  EXPECT_LE(liveness.getPeak(RegClass::VGPR).regs, 4);
}

TEST(StrategiesSchedule, LatencyStrategyNeverRaisesVGPRsOfAWideSum) {
  // The wide sum gains nothing from latency scheduling (1-cycle VALU);
  // whatever it returns must not hold more values live.
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(wideSumProgram());
  ASSERT_TRUE(module) << t.diagnostics;
  ProgramOp program = firstProgram(*module);
  StrategyResult result = scheduleListLatencyOrder(
      program.getBody().front(), TargetModel::get(program.getTargetKind()));
  EXPECT_LE(result.after->peakVGPR, result.before->peakVGPR);
}

TEST(StrategiesSchedule, LocalSearchImprovesWithinItsBudgetAndStaysLegal) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      t.parseModule(readKernel(mcaVariantPath("v4_clustered_late.mlir")));
  ASSERT_TRUE(module) << t.diagnostics;
  Block *block = defaultBlock(*module);
  DependenceGraph graph(*block);
  ScheduleEvaluator evaluator(*block, {}, /*robust=*/true);
  std::optional<BlockMeasure> input = evaluator.measureInput();
  ASSERT_TRUE(input);

  // No budget: nothing changes.
  std::vector<Operation *> order = blockOrder(*block);
  BlockMeasure current = *input;
  EXPECT_EQ(refineBySingleMoves(graph, evaluator, order, current, *input,
                                {/*budget=*/0, 12}),
            0u);
  EXPECT_EQ(order, blockOrder(*block));

  unsigned before = evaluator.getNumMeasured();
  unsigned moves = refineBySingleMoves(graph, evaluator, order, current, *input,
                                       {/*budget=*/60, 12});
  EXPECT_LE(evaluator.getNumMeasured() - before, 60u * 2);
  ASSERT_GT(moves, 0u);
  EXPECT_LT(current.cycles, input->cycles);
  EXPECT_LE(current.peakVGPR, input->peakVGPR);
  std::vector<unsigned> indices;
  for (Operation *op : order)
    indices.push_back(*graph.indexOf(op));
  std::string why;
  EXPECT_TRUE(graph.isLegalOrder(indices, &why)) << why;
  // The reported measure is the order's.
  std::optional<BlockMeasure> again = evaluator.measure(order);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->cycles, current.cycles);
}

TEST(StrategiesSchedule, PressureStrategyTradesCyclesOnlyForAWave) {
  // Fewer VGPRs within the same occupancy bracket are not worth cycles: the
  // pressure strategy is then no slower than the input.
  for (const std::string &path : allKernelPaths()) {
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule(readKernel(path));
    ASSERT_TRUE(module) << path;
    const TargetModel &target =
        TargetModel::get(firstProgram(*module).getTargetKind());
    StrategyResult result =
        schedulePressureOrder(*defaultBlock(*module), target);
    ASSERT_TRUE(result.before && result.after) << path;
    auto waves = [&](int64_t vgprs) {
      for (auto [maxVGPRs, w] : target.vgprOccupancy)
        if (maxVGPRs >= vgprs)
          return w;
      return int64_t(0);
    };
    if (waves(result.after->peakVGPR) <= waves(result.before->peakVGPR))
      EXPECT_LE(result.after->cycles, result.before->cycles) << path;
  }
}

TEST(StrategiesSchedule, PressureStrategyRescuesAnOverflowingAllocation) {
  // The wide sum needs 32+ VGPRs in input order; with 24 available the
  // allocator (which cannot spill) fails. The evaluator reports that as no
  // measure, without leaking the failure's diagnostics; the pressure
  // strategy finds an order that compiles.
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(wideSumProgram());
  ASSERT_TRUE(module) << t.diagnostics;
  ProgramOp program = firstProgram(*module);
  Block &block = program.getBody().front();
  CompileOptions tight;
  tight.pipeline.maxVGPRs = 24;
  ScheduleEvaluator evaluator(block, tight);
  EXPECT_FALSE(evaluator.measureInput().has_value());
  EXPECT_EQ(t.diagnostics, "");

  StrategyResult result = schedulePressureOrder(
      block, TargetModel::get(program.getTargetKind()), tight);
  EXPECT_FALSE(result.before.has_value());
  ASSERT_TRUE(result.improved);
  ASSERT_TRUE(result.after.has_value());
  EXPECT_LE(result.after->peakVGPR, 24);
  applyOrder(block, result.order);
  EXPECT_TRUE(succeeded(compileAndMeasure(*module, tight)));
  EXPECT_EQ(t.diagnostics, "");
}
