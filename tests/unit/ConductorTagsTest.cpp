//===- ConductorTagsTest.cpp - stable tags and the tagged prompt text -----===//

#include "ConductorTestUtils.h"

#include "analysis/TargetModel.h"
#include "conductor/Moves.h"
#include "conductor/Tags.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using waveasm::test::program;
using waveasm::test::TestContext;

namespace {

ProgramOp firstProgram(ModuleOp module) {
  return *module.getOps<ProgramOp>().begin();
}

// A loop whose body holds an if (tagged as a unit) and a nested loop-free
// program prologue.
const char *kIfLoop = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %a = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
    %cond = waveasm.s_cmp_lt_u32 %k, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    %r = waveasm.if %cond : !waveasm.scc -> !waveasm.vreg {
      %b = waveasm.v_add_u32 %a, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
      waveasm.yield %b : !waveasm.vreg
    } else {
      waveasm.yield %a : !waveasm.vreg
    }
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
)";

} // namespace

TEST(ConductorTags, TagsEveryOpAndKeepsTheOriginalLocation) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      t.parseModule(program(waveasm::test::kConductorLoop));
  ASSERT_TRUE(module) << t.diagnostics;
  Block *block = findDefaultBlock(firstProgram(*module));
  ASSERT_TRUE(isa<LoopOp>(block->getParentOp()));
  TaggedRegion region = tagBlock(*block);
  ASSERT_EQ(region.ops.size(), 12u);
  for (auto [i, op] : llvm::enumerate(region.ops)) {
    ASSERT_TRUE(getTag(op));
    EXPECT_EQ(*getTag(op), formatTag(i));
    auto name = cast<NameLoc>(op->getLoc());
    // The parsed file location survives as the child.
    auto file = dyn_cast<FileLineColLoc>(name.getChildLoc());
    ASSERT_TRUE(file);
    // The loop body's first op is on line 13 of the program text (the
    // program header is line 1, the loop line 12).
    EXPECT_EQ(file.getLine(), 13u + i);
  }
  EXPECT_EQ(findTag(region, "I3"), region.ops[3]);
  EXPECT_EQ(findTag(region, "i3"), region.ops[3]);
  EXPECT_EQ(findTag(region, "I12"), nullptr);
  EXPECT_EQ(findTag(region, "I03"), nullptr);
  EXPECT_EQ(findTag(region, "X3"), nullptr);

  // Tagging again keeps a single level of tags over the file location.
  TaggedRegion again = tagBlock(*block);
  auto name = cast<NameLoc>(again.ops[0]->getLoc());
  EXPECT_TRUE(isa<FileLineColLoc>(name.getChildLoc()));
  untagBlock(again);
  EXPECT_TRUE(isa<FileLineColLoc>(again.ops[0]->getLoc()));
  EXPECT_FALSE(getTag(again.ops[0]));
}

TEST(ConductorTags, TagsFollowTheOpNotThePosition) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      t.parseModule(program(waveasm::test::kConductorLoop));
  ASSERT_TRUE(module) << t.diagnostics;
  TaggedRegion region = tagBlock(*findDefaultBlock(firstProgram(*module)));
  std::vector<MoveWarning> warnings;
  ASSERT_FALSE(
      applyMove(region, MoveCommand::moveBefore("I3", "I0"), warnings));
  EXPECT_EQ(&region.block->front(), region.ops[3]);
  EXPECT_EQ(*getTag(&region.block->front()), "I3");
  EXPECT_EQ(findTag(region, "I3"), region.ops[3]);
  std::string text = printTaggedRegion(region);
  EXPECT_LT(text.find("loc(\"I3\")"), text.find("loc(\"I0\")"));
}

TEST(ConductorTags, IfIsOneUnitAndNestedOpsAreNotTagged) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(kIfLoop));
  ASSERT_TRUE(module) << t.diagnostics;
  TaggedRegion region = tagBlock(*findDefaultBlock(firstProgram(*module)));
  ASSERT_EQ(region.ops.size(), 6u);
  EXPECT_TRUE(isa<IfOp>(region.ops[2]));
  region.ops[2]->walk([&](Operation *nested) {
    if (nested != region.ops[2])
      EXPECT_FALSE(getTag(nested)) << nested->getName().getStringRef().str();
  });
  std::string text = printTaggedRegion(region);
  EXPECT_NE(text.find("loc(\"I2\")"), std::string::npos);
  EXPECT_EQ(text.find("loc(\"I6\")"), std::string::npos);
}

TEST(ConductorTags, DefaultRegionIsInnermostLoopElseProgramBody) {
  TestContext t;
  OwningOpRef<ModuleOp> straight = t.parseModule(program(R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %v = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(straight) << t.diagnostics;
  ProgramOp p = firstProgram(*straight);
  EXPECT_EQ(findDefaultBlock(p), &p.getBody().front());
  TaggedRegion region = tagBlock(*findDefaultBlock(p));
  EXPECT_EQ(describeRegion(region), "program body");

  OwningOpRef<ModuleOp> nested = t.parseModule(program(R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %iend = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %j0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %jend = waveasm.loop (%j = %j0) : (!waveasm.sreg) -> (!waveasm.sreg) {
      %jn:2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %jm = waveasm.s_cmp_lt_u32 %jn#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
      waveasm.condition %jm : !waveasm.scc iter_args(%jn#0) : !waveasm.sreg
    }
    %in:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %im = waveasm.s_cmp_lt_u32 %in#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %im : !waveasm.scc iter_args(%in#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(nested) << t.diagnostics;
  Block *inner = findDefaultBlock(firstProgram(*nested));
  // The innermost loop: its body holds the s_add on %j.
  EXPECT_EQ(inner->getOperations().size(), 3u);
  auto outer = inner->getParentOp()->getParentOfType<LoopOp>();
  ASSERT_TRUE(outer);
  EXPECT_EQ(getScheduledBlock(outer), &outer.getBody().front());
  EXPECT_EQ(getScheduledBlock(&inner->front()), nullptr);
}

TEST(ConductorTags, PromptTextHasOnlyTagLocationsAndTheDesignHeader) {
  TestContext t;
  OwningOpRef<ModuleOp> module =
      t.parseModule(program(waveasm::test::kConductorLoop));
  ASSERT_TRUE(module) << t.diagnostics;
  ProgramOp p = firstProgram(*module);
  TaggedRegion region = tagBlock(*findDefaultBlock(p));
  std::string text = printTaggedRegion(region);
  for (unsigned i = 0; i < region.ops.size(); ++i)
    EXPECT_NE(text.find("loc(\"" + formatTag(i) + "\")"), std::string::npos);
  // No file locations, no other loc(...) than tags: one per tagged op.
  size_t count = 0;
  for (size_t at = text.find("loc("); at != std::string::npos;
       at = text.find("loc(", at + 1))
    ++count;
  EXPECT_EQ(count, region.ops.size());
  EXPECT_TRUE(llvm::StringRef(text).starts_with("%9:2 = waveasm.loop ("));
  EXPECT_NE(text.find("  %10 = waveasm.buffer_load_dword %1, %6, %2 : "
                      "!waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> "
                      "!waveasm.vreg loc(\"I0\")\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(formatTargetHeader(p, TargetModel::get(TargetKind::gfx942)),
            "TARGET: gfx942 (wave64, 512 vgpr, 106 sgpr, 256 agpr)\n"
            "LATENCY (issue slots): vmem=100, lds=20, mfma_16x16=4 (result "
            "after 9), mfma_32x32=8 (result after 13)\n");
}
