//===- StrategiesMovesTest.cpp - move synthesis and single moves ----------===//

#include "StrategiesTestUtils.h"

#include "conductor/Moves.h"
#include "conductor/strategies/ListScheduler.h"
#include "conductor/strategies/MoveSynthesis.h"
#include "conductor/strategies/Strategies.h"

#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using namespace waveasm::test;

namespace {

std::vector<Operation *> blockOrder(Block &block) {
  std::vector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  return ops;
}

OwningOpRef<ModuleOp> parseKernel(TestContext &t, const std::string &path) {
  OwningOpRef<ModuleOp> module = t.parseModule(readKernel(path));
  EXPECT_TRUE(module) << path << t.diagnostics;
  return module;
}

} // namespace

TEST(StrategiesMoves, ChainsAndPrefixReproduceAnyPermutation) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      parseKernel(t, examplePath("gemm_f16_double_buffer.mlir"));
  std::vector<Operation *> ops = blockOrder(*defaultBlock(*module));
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Operation *> target = ops;
    std::shuffle(target.begin(), target.end(), rng);
    if (trial == 0)
      target = ops; // identity: no moves
    if (trial == 1)
      target.assign(ops.rbegin(), ops.rend());
    for (bool chains : {true, false}) {
      std::vector<OpMove> moves =
          chains ? movesByChains(ops, target) : movesByPrefix(ops, target);
      std::vector<Operation *> order = ops;
      for (const OpMove &move : moves)
        ASSERT_TRUE(applyMoveToOrder(order, move));
      EXPECT_EQ(order, target) << "trial " << trial << " chains " << chains;
      if (trial == 0)
        EXPECT_TRUE(moves.empty());
      if (trial == 1 && chains)
        EXPECT_EQ(moves.size(), ops.size() - 1);
    }
  }
}

TEST(StrategiesMoves, ChainsUseOneMovePerDisplacedOp) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      parseKernel(t, examplePath("gemm_f16_double_buffer.mlir"));
  std::vector<Operation *> ops = blockOrder(*defaultBlock(*module));
  // Move the op at 3 to the end: one move, whatever else stays.
  std::vector<Operation *> target = ops;
  Operation *moved = target[3];
  target.erase(target.begin() + 3);
  target.push_back(moved);
  std::vector<OpMove> moves = movesByChains(ops, target);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].op, moved);
  EXPECT_TRUE(moves[0].after);
  EXPECT_EQ(moves[0].anchor, ops.back());
}

TEST(StrategiesMoves, PinnedOpsAreNeverMoved) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      parseKernel(t, examplePath("gemm_f16_double_buffer.mlir"));
  Block *block = defaultBlock(*module);
  DependenceGraph graph(*block);
  std::vector<Operation *> ops = blockOrder(*block);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    // Shuffle only the non-wall ops, keeping walls in place.
    std::vector<unsigned> free;
    for (unsigned i = 0; i < ops.size(); ++i)
      if (!graph.isWall(i))
        free.push_back(i);
    std::vector<unsigned> shuffled = free;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    std::vector<Operation *> target = ops;
    for (unsigned k = 0; k < free.size(); ++k)
      target[free[k]] = ops[shuffled[k]];
    std::vector<OpMove> moves = movesByChains(ops, target, [&](Operation *op) {
      return graph.isWall(*graph.indexOf(op));
    });
    std::vector<Operation *> order = ops;
    for (const OpMove &move : moves) {
      EXPECT_FALSE(graph.isWall(*graph.indexOf(move.op)));
      applyMoveToOrder(order, move);
    }
    EXPECT_EQ(order, target);
  }
}

TEST(StrategiesMoves, StrategyCommandsPassTheConductorValidatorStepByStep) {
  // The latency strategy's commands on every example, applied one by one
  // through the Conductor's validator: none is refused, and the block ends
  // in the strategy's order.
  for (const std::string &path : allKernelPaths()) {
    TestContext t;
    OwningOpRef<ModuleOp> module = parseKernel(t, path);
    ProgramOp program = firstProgram(*module);
    Block *block = defaultBlock(*module);
    TaggedRegion region = tagBlock(*block);
    const TargetModel &target = TargetModel::get(program.getTargetKind());
    StrategyResult result = scheduleListLatencyOrder(*block, target);
    std::vector<MoveCommand> commands = movesToReach(region, result.order);
    if (!result.improved)
      EXPECT_TRUE(commands.empty()) << path;
    std::vector<MoveWarning> warnings;
    for (const MoveCommand &command : commands) {
      std::optional<MoveFailure> failure = applyMove(region, command, warnings);
      ASSERT_FALSE(failure.has_value())
          << path << ": " << command.text() << ": " << failure->detail;
    }
    EXPECT_EQ(blockOrder(*block), result.order) << path;
    EXPECT_TRUE(succeeded(verify(*module))) << path;
  }
}

TEST(StrategiesMoves, ContractEntryPointsReturnReplayableCommands) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      parseKernel(t, mcaVariantPath("v4_clustered_late.mlir"));
  ProgramOp program = firstProgram(*module);
  Block *block = defaultBlock(*module);
  TaggedRegion region = tagBlock(*block);
  const TargetModel &target = TargetModel::get(program.getTargetKind());
  std::vector<MoveCommand> commands = scheduleListLatency(region, target);
  ASSERT_FALSE(commands.empty());
  // Deterministic, including the tag text.
  std::vector<MoveCommand> again = scheduleListLatency(region, target);
  EXPECT_EQ(commands, again);
  FailureOr<CompileResult> before = compileAndMeasure(*module);
  ASSERT_TRUE(succeeded(before));
  std::vector<MoveWarning> warnings;
  for (const MoveCommand &command : commands)
    ASSERT_FALSE(applyMove(region, command, warnings).has_value())
        << command.text();
  FailureOr<CompileResult> after = compileAndMeasure(*module);
  ASSERT_TRUE(succeeded(after));
  EXPECT_LT(after->programs[0].metrics.loops[0].est_cycles_per_iter,
            before->programs[0].metrics.loops[0].est_cycles_per_iter);
  EXPECT_LE(after->programs[0].metrics.peak_vgpr,
            before->programs[0].metrics.peak_vgpr);
}

TEST(StrategiesMoves, SingleMoveSuggestionsAreLegalSortedAndMeasured) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      parseKernel(t, mcaVariantPath("v4_clustered_late.mlir"));
  Block *block = defaultBlock(*module);
  TaggedRegion region = tagBlock(*block);
  // The first global load of the loop: issued late in this variant.
  Operation *load = nullptr;
  for (Operation &op : *block)
    if (!load && op.getName().getStringRef() == "waveasm.buffer_load_dwordx4")
      load = &op;
  ASSERT_TRUE(load);
  std::vector<MoveSuggestion> suggestions =
      rankSingleMoveSuggestions(region, load);
  ASSERT_FALSE(suggestions.empty());
  EXPECT_LE(suggestions.size(), 3u);
  for (size_t i = 0; i < suggestions.size(); ++i) {
    const MoveSuggestion &s = suggestions[i];
    EXPECT_TRUE(s.cyclesDelta < 0 || (s.cyclesDelta == 0 && s.vgprDelta < 0))
        << s.title();
    if (i) {
      EXPECT_LE(suggestions[i - 1].cyclesDelta, s.cyclesDelta);
      // Distinct effects only.
      EXPECT_FALSE(suggestions[i - 1].cyclesDelta == s.cyclesDelta &&
                   suggestions[i - 1].vgprDelta == s.vgprDelta);
    }
    EXPECT_EQ(s.command.a, getTag(load)->str());
    EXPECT_FALSE(validateMove(region, s.command).has_value()) << s.title();
  }
  // The title is the code action's.
  const MoveSuggestion &best = suggestions.front();
  EXPECT_EQ(best.title().rfind("Move " + best.command.a, 0), 0u)
      << best.title();
  EXPECT_NE(best.title().find(" issue slots, VGPR "), std::string::npos);
  // Applying the best move really gives the reported numbers.
  FailureOr<CompileResult> before = compileAndMeasure(*module);
  std::vector<MoveWarning> warnings;
  ASSERT_FALSE(applyMove(region, best.command, warnings).has_value());
  FailureOr<CompileResult> after = compileAndMeasure(*module);
  ASSERT_TRUE(succeeded(before) && succeeded(after));
  int64_t measured = after->programs[0].metrics.loops[0].est_cycles_per_iter -
                     before->programs[0].metrics.loops[0].est_cycles_per_iter;
  EXPECT_EQ(measured, best.cyclesDelta);
  EXPECT_EQ(after->programs[0].metrics.peak_vgpr -
                before->programs[0].metrics.peak_vgpr,
            best.vgprDelta);
}

TEST(StrategiesMoves, NoSuggestionsForPinnedOps) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      parseKernel(t, mcaVariantPath("v4_clustered_late.mlir"));
  Block *block = defaultBlock(*module);
  TaggedRegion region = tagBlock(*block);
  EXPECT_TRUE(suggestSingleMoves(region, block->getTerminator()).empty());
  for (Operation &op : *block)
    if (op.getName().getStringRef() == "waveasm.s_barrier")
      EXPECT_TRUE(suggestSingleMoves(region, &op).empty());
}
