//===- ConductorMovesTest.cpp - validation, warnings, alias, anchoring ----===//

#include "ConductorTestUtils.h"

#include "analysis/MemoryAlias.h"
#include "conductor/Moves.h"
#include "conductor/Tags.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using waveasm::test::program;
using waveasm::test::TestContext;

namespace {

// Writes for the WAW and alias tests; tags in the loop body:
//   I0 ds_write_b32 %x [off]      I1 ds_write_b32 %y [off]
//   I2 ds_write_b32 %y [off + 4]  I3 buffer_store %x [srd, off]
//   I4 buffer_store %y [srd, off] offset:4
//   I5 buffer_store %y [srd2, off]
//   I6 %a2 = v_add_u32 %off, 4    I7 %r = ds_read_b32 [%a2]   (= off + 4)
//   I8 %r2 = ds_read_b32 [off] offset 8
//   I9 %kn = s_add  I10 s_cmp  I11 condition
const char *kWriteLoop = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd2 = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %off = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg
  %y = waveasm.v_mov_b32 %c4 : !waveasm.imm<4> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    waveasm.ds_write_b32 %x, %off : !waveasm.vreg, !waveasm.vreg
    waveasm.ds_write_b32 %y, %off : !waveasm.vreg, !waveasm.vreg
    waveasm.ds_write_b32 %y, %off {offset = 4 : i64} : !waveasm.vreg, !waveasm.vreg
    waveasm.buffer_store_dword %x, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    waveasm.buffer_store_dword %y, %srd, %off offset : 4 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    waveasm.buffer_store_dword %y, %srd2, %off : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
    %a2 = waveasm.v_add_u32 %off, %c4 : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
    %r = waveasm.ds_read_b32 %a2 : !waveasm.vreg -> !waveasm.vreg
    %r2 = waveasm.ds_read_b32 %off {offset = 8 : i64} : !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
)";

struct Fixture {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  TaggedRegion region;

  explicit Fixture(llvm::StringRef body) {
    module = t.parseModule(program(body));
    EXPECT_TRUE(module) << t.diagnostics;
    if (module)
      region =
          tagBlock(*findDefaultBlock(*module->getOps<ProgramOp>().begin()));
  }
  Operation *op(llvm::StringRef tag) { return findTag(region, tag); }
  std::vector<Operation *> order() { return snapshotOrder(*region.block); }
  /// Applies one command; returns its failure text ("" on success).
  std::string apply(const MoveCommand &command,
                    std::vector<MoveWarning> *warnings = nullptr) {
    std::vector<MoveWarning> local;
    std::optional<MoveFailure> failure =
        applyMove(region, command, warnings ? *warnings : local);
    if (!failure)
      return "";
    return failure->describe(failure->kind == MoveFailure::Dominance
                                 ? printValueName(failure->value)
                                 : "");
  }
  std::vector<std::string> warningsOf(const MoveCommand &command) {
    std::vector<MoveWarning> warnings;
    std::string failure = apply(command, &warnings);
    EXPECT_EQ(failure, "") << command.text();
    std::vector<std::string> texts;
    for (const MoveWarning &warning : warnings)
      texts.push_back(warning.text());
    return texts;
  }
};

} // namespace

TEST(ConductorMoves, AppliesTheThreeMoves) {
  Fixture f(waveasm::test::kConductorLoop);
  std::vector<Operation *> ops = f.region.ops;
  EXPECT_EQ(f.apply(MoveCommand::moveAfter("I1", "I3")), "");
  EXPECT_EQ(f.order()[3], ops[1]);
  EXPECT_EQ(f.apply(MoveCommand::moveBefore("I1", "I0")), "");
  EXPECT_EQ(f.order()[0], ops[1]);
  EXPECT_EQ(f.apply(MoveCommand::swap("I3", "I4")), "");
  EXPECT_EQ(f.order()[3], ops[4]);
  EXPECT_EQ(f.order()[4], ops[3]);
  // Non-adjacent swap (across the barrier) in both directions.
  EXPECT_EQ(f.apply(MoveCommand::swap("I9", "I7")), "");
  EXPECT_EQ(f.order()[7], ops[9]);
  EXPECT_EQ(f.order()[9], ops[7]);
  EXPECT_EQ(f.apply(MoveCommand::swap("I9", "I7")), "");
  EXPECT_EQ(f.order()[7], ops[7]);
  EXPECT_EQ(f.order()[9], ops[9]);
  EXPECT_TRUE(succeeded(verify(*f.module)));
}

TEST(ConductorMoves, DominanceFailures) {
  Fixture f(waveasm::test::kConductorLoop);
  std::vector<Operation *> before = f.order();
  // I5 uses I3's result: moving the user above its def.
  EXPECT_EQ(f.apply(MoveCommand::moveBefore("I5", "I3")),
            "would break dominance of %12 (defined by I3, used by I5)");
  // Moving the def below its user.
  EXPECT_EQ(f.apply(MoveCommand::moveAfter("I3", "I5")),
            "would break dominance of %12 (defined by I3, used by I5)");
  // A swap breaking the use of I6's result by I7.
  EXPECT_EQ(f.apply(MoveCommand::swap("I6", "I9")),
            "would break dominance of %15 (defined by I6, used by I7)");
  // The condition uses I7's result: I7 may not go after it (pinned anyway)
  // nor can I10 leave its position below I9.
  EXPECT_EQ(f.apply(MoveCommand::moveBefore("I10", "I9")),
            "would break dominance of %dst (defined by I9, used by I10)");
  EXPECT_EQ(f.order(), before);
}

TEST(ConductorMoves, PinnedTerminatorAndUnknownTags) {
  Fixture f(waveasm::test::kConductorLoop);
  std::vector<Operation *> before = f.order();
  EXPECT_EQ(f.apply(MoveCommand::moveAfter("I8", "I2")),
            "I8 (waveasm.s_barrier) is pinned and cannot move");
  EXPECT_EQ(f.apply(MoveCommand::swap("I2", "I8")),
            "I8 (waveasm.s_barrier) is pinned and cannot move");
  EXPECT_EQ(f.apply(MoveCommand::moveBefore("I11", "I0")),
            "I11 (waveasm.condition) is pinned and cannot move");
  EXPECT_EQ(f.apply(MoveCommand::moveAfter("I2", "I11")),
            "cannot move after the block terminator I11");
  EXPECT_EQ(f.apply(MoveCommand::moveAfter("I40", "I1")),
            "unknown tag I40 (this region has I0..I11)");
  EXPECT_EQ(f.apply(MoveCommand::swap("I2", "I2")),
            "I2 and I2 are the same op");
  // A pinned op is a fine anchor.
  EXPECT_EQ(f.apply(MoveCommand::moveBefore("I2", "I8")), "");
  EXPECT_EQ(f.order()[7], f.op("I2"));
  restoreOrder(*f.region.block, before);
  EXPECT_EQ(f.order(), before);
}

TEST(ConductorMoves, RegionBoundaries) {
  Fixture f(waveasm::test::kConductorLoop);
  // Schedule the program body: the loop is one op, its body is not.
  ProgramOp p = *f.module->getOps<ProgramOp>().begin();
  TaggedRegion outer = tagBlock(p.getBody().front());
  auto loopIt =
      llvm::find_if(outer.ops, [](Operation *op) { return isa<LoopOp>(op); });
  ASSERT_NE(loopIt, outer.ops.end());
  std::string loopTag = formatTag(loopIt - outer.ops.begin());
  // %off (I6) is used inside the loop body: the loop counts as its user.
  std::vector<MoveWarning> warnings;
  std::optional<MoveFailure> failure =
      applyMove(outer, MoveCommand::moveAfter("I6", loopTag), warnings);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->describe(printValueName(failure->value)),
            "would break dominance of %6 (defined by I6, used by " + loopTag +
                ")");
  // The loop moves as a unit, but not above the defs of its inits.
  failure = applyMove(outer, MoveCommand::moveBefore(loopTag, "I6"), warnings);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->kind, MoveFailure::Dominance);
  // A tag naming an op of another block is refused as a region crossing.
  TaggedRegion mixed = outer;
  Operation *inner = &cast<LoopOp>(*loopIt).getBody().front().front();
  mixed.ops.push_back(inner);
  failure = applyMove(
      mixed, MoveCommand::moveAfter(formatTag(mixed.ops.size() - 1), "I6"),
      warnings);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->kind, MoveFailure::RegionBoundary);
}

TEST(ConductorMoves, WarnsOnReadWriteReorderUnlessDisjoint) {
  Fixture f(waveasm::test::kConductorLoop);
  // I4 reads exactly the bytes I2 writes.
  EXPECT_EQ(f.warningsOf(MoveCommand::moveBefore("I4", "I2")),
            std::vector<std::string>{
                "warn: move I4 before I2 \u2014 moved LDS read (I4) before "
                "LDS write (I2), same address"});
  Fixture h(waveasm::test::kConductorLoop);
  EXPECT_EQ(h.warningsOf(MoveCommand::moveAfter("I2", "I4")),
            (std::vector<std::string>{
                "warn: move I2 after I4 \u2014 moved LDS write (I2) after LDS "
                "read (I3), disjoint bytes in each lane (other lanes of the "
                "wave may share them)",
                "warn: move I2 after I4 \u2014 moved LDS write (I2) after "
                "LDS read (I4), same address"}));
  // I3 reads [off+4, off+8), I2 writes [off, off+4): disjoint in each lane,
  // but the base is per lane and another lane's I3 may read I2's bytes: the
  // lanes of a wave exchange data through memory in program order.
  Fixture g(waveasm::test::kConductorLoop);
  EXPECT_EQ(g.warningsOf(MoveCommand::moveBefore("I3", "I2")),
            std::vector<std::string>{
                "warn: move I3 before I2 \u2014 moved LDS read (I3) before LDS "
                "write (I2), disjoint bytes in each lane (other lanes of the "
                "wave may share them)"});
  // Loads never conflict with loads.
  EXPECT_TRUE(g.warningsOf(MoveCommand::swap("I0", "I1")).empty());
}

TEST(ConductorMoves, WriteAfterWriteIsCritical) {
  Fixture f(kWriteLoop);
  EXPECT_EQ(f.warningsOf(MoveCommand::swap("I0", "I1")),
            (std::vector<std::string>{
                "critical: swap I0 I1 \u2014 moved LDS write (I0) after LDS "
                "write (I1), same address"}));
  // Disjoint offsets from the same base: no warning for a buffer, only
  // information for LDS (another lane may own those bytes).
  EXPECT_EQ(f.warningsOf(MoveCommand::moveBefore("I2", "I0")),
            std::vector<std::string>{
                "critical: move I2 before I0 \u2014 moved LDS write (I2) "
                "before LDS write (I0), disjoint bytes in each lane (other "
                "lanes of the wave may share them)"});
  EXPECT_EQ(f.warningsOf(MoveCommand::moveBefore("I4", "I3")),
            (std::vector<std::string>{
                "critical: move I4 before I3 \u2014 moved global write (I4) "
                "before global write (I3), disjoint bytes in each lane (other "
                "lanes of the wave may share them)"}));
  // A different SRD may point at the same buffer (I4 is above I3 now).
  EXPECT_EQ(f.warningsOf(MoveCommand::moveBefore("I5", "I3")),
            (std::vector<std::string>{
                "critical: move I5 before I3 \u2014 moved global write (I5) "
                "before global write (I3), may alias"}));
  Fixture g(kWriteLoop);
  EXPECT_EQ(g.warningsOf(MoveCommand::moveBefore("I5", "I3")),
            (std::vector<std::string>{
                "critical: move I5 before I3 \u2014 moved global write (I5) "
                "before global write (I3), may alias",
                "critical: move I5 before I3 \u2014 moved global write (I5) "
                "before global write (I4), may alias"}));
}

TEST(ConductorMoves, BarrierAndAddressWarnings) {
  Fixture f(waveasm::test::kConductorLoop);
  std::vector<std::string> warnings =
      f.warningsOf(MoveCommand::moveAfter("I2", "I8"));
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_TRUE(llvm::StringRef(warnings[0])
                  .starts_with("warn: move I2 after I8 \u2014 moved LDS write "
                               "(I2) after LDS read (I3)"));
  EXPECT_EQ(warnings[1], "warn: move I2 after I8 \u2014 moved LDS write (I2) "
                         "after LDS read (I4), same address");
  EXPECT_EQ(warnings[2], "warn: move I2 after I8 \u2014 moved I2 after barrier "
                         "I8 (a memory access changes sides)");
  // Scalar arithmetic across the barrier is only information.
  EXPECT_EQ(f.warningsOf(MoveCommand::moveBefore("I9", "I8")),
            std::vector<std::string>{
                "info: move I9 before I8 \u2014 moved I9 before barrier I8"});

  Fixture g(kWriteLoop);
  // The address of I7 computed far above it.
  EXPECT_EQ(g.warningsOf(MoveCommand::moveBefore("I6", "I0")),
            std::vector<std::string>{
                "info: move I6 before I0 \u2014 address computation moved "
                "away from consumer I7"});
}

TEST(ConductorMoves, ConstantLDSAddressesAreProvablyDisjoint) {
  // The same bytes for every lane: disjoint ranges need no warning at all.
  Fixture f(R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %x = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    waveasm.ds_write_b32 %x, %c0 : !waveasm.vreg, !waveasm.imm<0>
    %r = waveasm.ds_read_b32 %c64 : !waveasm.imm<64> -> !waveasm.vreg
    %w = waveasm.ds_read_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
)");
  EXPECT_EQ(alias(f.op("I0"), f.op("I1")), AliasResult::NoAlias);
  EXPECT_EQ(alias(f.op("I0"), f.op("I2")), AliasResult::MustAlias);
  EXPECT_TRUE(f.warningsOf(MoveCommand::moveBefore("I1", "I0")).empty());
  EXPECT_EQ(f.warningsOf(MoveCommand::moveBefore("I2", "I0")),
            std::vector<std::string>{
                "warn: move I2 before I0 \u2014 moved LDS read (I2) before LDS "
                "write (I0), same address"});
}

TEST(ConductorMoves, AliasAnalysis) {
  Fixture f(kWriteLoop);
  EXPECT_EQ(alias(f.op("I0"), f.op("I1")), AliasResult::MustAlias);
  // Disjoint offsets of one per-lane base: apart in each lane, not in the
  // wave (lane i's off + 4 is another lane's off when lanes are 4 apart).
  EXPECT_EQ(alias(f.op("I0"), f.op("I2")), AliasResult::MayAlias);
  // off + 4 through v_add_u32 is the same bytes as off with offset 4.
  EXPECT_EQ(alias(f.op("I7"), f.op("I2")), AliasResult::MustAlias);
  EXPECT_EQ(alias(f.op("I7"), f.op("I0")), AliasResult::MayAlias);
  EXPECT_EQ(alias(f.op("I8"), f.op("I2")), AliasResult::MayAlias);
  // Buffers: same SRD and offsets; disjoint per lane; another SRD.
  EXPECT_EQ(alias(f.op("I3"), f.op("I4")), AliasResult::MayAlias);
  EXPECT_EQ(alias(f.op("I3"), f.op("I5")), AliasResult::MayAlias);
  // Different memory spaces never alias.
  EXPECT_EQ(alias(f.op("I0"), f.op("I3")), AliasResult::NoAlias);
  EXPECT_TRUE(writesMemory(f.op("I0")));
  EXPECT_FALSE(readsMemory(f.op("I0")));
  EXPECT_TRUE(readsMemory(f.op("I7")));
  EXPECT_FALSE(writesMemory(f.op("I6")));
  // The loop op (a unit) writes what its body writes.
  Operation *loop = f.region.block->getParentOp();
  EXPECT_TRUE(writesMemory(loop));
  EXPECT_EQ(alias(loop, f.op("I1")), AliasResult::MustAlias);
}

TEST(ConductorMoves, AnchorsPseudoOpsBeforeTheirFirstUser) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c7 = waveasm.constant 7 : !waveasm.imm<7>
    %a = waveasm.v_add_u32 %tid, %c7 : !waveasm.pvreg<0>, !waveasm.imm<7> -> !waveasm.vreg
    %b = waveasm.v_add_u32 %tid, %c7 : !waveasm.pvreg<0>, !waveasm.imm<7> -> !waveasm.vreg
    %p = waveasm.pack %a, %b : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
    %e = waveasm.extract %p[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
    %s = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
    %u = waveasm.v_add_u32 %e, %s : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c7 : !waveasm.sreg, !waveasm.imm<7> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(module) << t.diagnostics;
  TaggedRegion region =
      tagBlock(*findDefaultBlock(*module->getOps<ProgramOp>().begin()));
  std::vector<MoveCommand> record;
  EXPECT_EQ(anchorPseudoOps(*region.block, &record), 3u);
  std::vector<std::string> tags;
  for (Operation *op : snapshotOrder(*region.block))
    tags.push_back(getTag(op)->str());
  // c7 (I1) already precedes its first user a (I2); c1 (I0) goes before s
  // (I6); extract (I5) and then pack (I4) just before their first users.
  EXPECT_EQ(tags, (std::vector<std::string>{"I1", "I2", "I3", "I0", "I6", "I4",
                                            "I5", "I7", "I8", "I9", "I10"}));
  std::vector<std::string> texts;
  for (const MoveCommand &command : record)
    texts.push_back(command.text());
  EXPECT_EQ(texts,
            (std::vector<std::string>{"move I5 before I7", "move I4 before I5",
                                      "move I0 before I6"}));
  EXPECT_TRUE(succeeded(verify(*module)));
  // Anchoring again changes nothing.
  EXPECT_EQ(anchorPseudoOps(*region.block), 0u);
}
