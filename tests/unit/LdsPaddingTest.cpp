//===- LdsPaddingTest.cpp - padded LDS rows ------------------------------===//
//
// analysis/LdsPadding.h's choice on hand-computed problems (the pad picker,
// the stride and pad with the fewest conflict slots, rows an access would
// cross, the target's capacity), and pipeline/opt/PadLdsLayout.h's rewrite
// on the double-buffered GEMM example checked by execution: the padded
// program leaves the same buffers as the original (timing-aware simulator),
// its bank conflicts are gone when the analysis runs again, and the same
// rewrite with one reader left in the old layout is caught.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"
#include "TestUtils.h"

#include "analysis/LdsPadding.h"
#include "analysis/ProgramIndex.h"
#include "pipeline/opt/PadLdsLayout.h"
#include "sim/CompareBuffers.h"

#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

LdsPaddingAccess column(unsigned lanes, uint32_t rowBytes, unsigned width) {
  LdsPaddingAccess access;
  access.bytesPerLane = width;
  for (unsigned l = 0; l < lanes; ++l)
    access.threads.push_back(l * rowBytes);
  return access;
}

LdsPaddingProblem problemOf(std::vector<LdsPaddingAccess> accesses,
                            int64_t ldsBytes, int64_t capacity = 65536) {
  LdsPaddingProblem problem;
  problem.accesses = std::move(accesses);
  problem.ldsBytes = ldsBytes;
  problem.capacity = capacity;
  return problem;
}

TEST(LdsPadding, PickPadTakesTheSmallestPadWithTheLowestCost) {
  // Costs by pad: 4 -> 5, 8 -> 2, 12 -> 2, 16 -> 3: the smallest pad with
  // the lowest cost is 8.
  std::map<int64_t, int64_t> costs = {{4, 5}, {8, 2}, {12, 2}, {16, 3}};
  auto cost = [&](int64_t pad) -> std::optional<int64_t> {
    return costs.at(pad);
  };
  auto pick = pickLdsPad(4, 16, /*costNow=*/6, /*floor=*/0, cost);
  ASSERT_TRUE(pick);
  EXPECT_EQ(pick->first, 8);
  EXPECT_EQ(pick->second, 2);
  // Nothing below the current cost: no pad.
  EXPECT_FALSE(pickLdsPad(4, 16, /*costNow=*/2, 0, cost));
  // The floor stops the search: 4 already reaches it.
  std::vector<int64_t> tried;
  auto counting = [&](int64_t pad) -> std::optional<int64_t> {
    tried.push_back(pad);
    return 0;
  };
  pick = pickLdsPad(4, 16, 6, 0, counting);
  EXPECT_EQ(pick->first, 4);
  EXPECT_EQ(tried, std::vector<int64_t>{4});
  // nullopt stops trying larger pads; a max below one step still tries it.
  tried.clear();
  auto stopAt8 = [&](int64_t pad) -> std::optional<int64_t> {
    tried.push_back(pad);
    if (pad >= 8)
      return std::nullopt;
    return 5;
  };
  EXPECT_FALSE(pickLdsPad(4, 16, 5, 0, stopAt8));
  EXPECT_EQ(tried, (std::vector<int64_t>{4, 8}));
  tried.clear();
  pickLdsPad(16, 4, 5, 0, stopAt8);
  EXPECT_EQ(tried, std::vector<int64_t>{16});
}

TEST(LdsPadding, ChoosesTheConflictFreeStrideWithTheFewestBytes) {
  // 64 lanes read b32 down a column of 128-byte rows: dword 32 * lane,
  // banks 0 and 32 with 32 dwords each: 32-way, +30 clocks, 8 slots.
  LdsPaddingProblem problem = problemOf({column(64, 128, 4)}, 8192);
  EXPECT_EQ(ldsConflictSlots(problem), 8);
  // Rows of 128 B + 4: dword 33 * lane, 33 odd: 64 distinct banks.
  EXPECT_EQ(ldsConflictSlots(problem, LdsPadding{128, 4}), 0);
  // Rows of 256 B + 4: lane 2k at dword 64k + k (bank k), lane 2k + 1 at
  // 64k + 32 + k (bank 32 + k): no conflict either.
  EXPECT_EQ(ldsConflictSlots(problem, LdsPadding{256, 4}), 0);
  // Rows of 512 B + 4: lane 4k + j at bank 32j + k: lanes j = 0 and 2 share
  // a bank, 2-way, which costs nothing (an access takes 2 clocks anyway),
  // and the LDS grows least: 8192 -> 8252 (8316 with 256, 8444 with 128).
  EXPECT_EQ(ldsConflictSlots(problem, LdsPadding{512, 4}), 0);
  // Rows of 1024 B: lanes 8k + j, four j per bank: 4-way, 1 slot.
  EXPECT_EQ(ldsConflictSlots(problem, LdsPadding{1024, 4}), 1);
  std::string why;
  std::optional<LdsPaddingChoice> choice = chooseLdsPadding(problem, why);
  ASSERT_TRUE(choice) << why;
  EXPECT_EQ(choice->padding.stride, 512);
  EXPECT_EQ(choice->padding.pad, 4);
  EXPECT_EQ(choice->slotsBefore, 8);
  EXPECT_EQ(choice->slotsAfter, 0);
  EXPECT_EQ(choice->ldsBytesAfter, 8252);
  EXPECT_EQ(paddedLdsBytes(8192, {256, 4}), 8316);
  EXPECT_EQ(paddedLdsBytes(8192, {128, 4}), 8444);
}

TEST(LdsPadding, WeighsAccessesAndKeepsAlignment) {
  // A b64 column read (8 slots' worth, weighted 16: in a loop) and a b128
  // write: every pad must be a multiple of 16 bytes.
  LdsPaddingAccess read = column(64, 256, 8);
  read.weight = 16;
  LdsPaddingAccess write = column(64, 16, 16);
  LdsPaddingProblem problem = problemOf({read, write}, 16384);
  std::string why;
  std::optional<LdsPaddingChoice> choice = chooseLdsPadding(problem, why);
  ASSERT_TRUE(choice) << why;
  EXPECT_EQ(choice->padding.pad % 16, 0);
  EXPECT_LT(choice->slotsAfter, choice->slotsBefore);
  EXPECT_EQ(choice->slotsAfter, ldsConflictSlots(problem, choice->padding));
  EXPECT_NE(checkLdsRows(problem, {256, 8}), "");
}

TEST(LdsPadding, RefusesRowsAnAccessCrossesAndTheBytesOverCapacity) {
  // b128 at lane * 16 + 8: its bytes cross every 16- and 32-byte row.
  LdsPaddingAccess straddling = column(64, 16, 16);
  straddling.offset = 8;
  LdsPaddingProblem problem = problemOf({straddling}, 2048);
  EXPECT_NE(checkLdsRows(problem, {32, 16}).find("cross a row"),
            std::string::npos);
  // A wave-uniform base that is only 64-byte aligned cannot be padded with
  // 128-byte rows.
  LdsPaddingAccess based = column(64, 128, 4);
  based.uniformAlignment = 64;
  EXPECT_NE(checkLdsRows(problemOf({based}, 8192), {128, 4}).find("SGPR"),
            std::string::npos);
  // No conflict: nothing to gain.
  std::string why;
  EXPECT_FALSE(chooseLdsPadding(problemOf({column(64, 4, 4)}, 256), why));
  EXPECT_NE(why.find("no LDS access has a bank conflict"), std::string::npos);
  // The only paddings that help need more LDS than the target has.
  LdsPaddingProblem full = problemOf({column(64, 128, 4)}, 65536, 65536);
  EXPECT_FALSE(chooseLdsPadding(full, why));
  // 65535 + 127 * 4 + 1 = 66044 with rows of 512 B: 508 over.
  EXPECT_NE(why.find("rows of 512 bytes padded by 4 would lower the conflict "
                     "slots 8 -> 0 but need 66044 bytes of LDS, 508 bytes "
                     "over the target's 65536"),
            std::string::npos)
      << why;
  EXPECT_FALSE(checkLdsPadding(full, {256, 4}, why));
  // 65535 + 255 * 4 + 1 = 66556: 1020 over.
  EXPECT_NE(why.find("66556 bytes of LDS, 1020 bytes over"), std::string::npos)
      << why;
}

std::unique_ptr<ParsedAnalysisProgram> loadExample(llvm::StringRef name) {
  auto buffer = llvm::MemoryBuffer::getFile(
      (llvm::Twine(waveasm::test::examplesDir()) + "/" + name).str());
  if (!buffer)
    return nullptr;
  return ParsedAnalysisProgram::fromFile((*buffer)->getBuffer());
}

int64_t conflictSlotsOf(ProgramOp program) {
  ProgramIndex index(program);
  LdsBankConflicts banks(index, TargetModel::get(program.getTargetKind()));
  int64_t slots = 0;
  for (const LdsAccessInfo &access : banks.getAccesses()) {
    EXPECT_TRUE(access.known) << access.whyUnknown;
    slots += access.extraSlots;
  }
  return slots;
}

TEST(LdsPadding, DoubleBufferPaddedIsEquivalentAndConflictFree) {
  auto original = loadExample("gemm_f16_double_buffer.mlir");
  ASSERT_TRUE(original && original->program);
  auto padded = loadExample("gemm_f16_double_buffer.mlir");
  ASSERT_TRUE(padded && padded->program);
  ProgramOp program = padded->program;
  EXPECT_GT(conflictSlotsOf(program), 0);

  LdsPaddingPlan plan =
      planLdsPadding(program, TargetModel::get(program.getTargetKind()));
  ASSERT_TRUE(plan.ok()) << plan.refusal;
  // 2 prologue writes + 8 reads + 2 writes in the loop.
  EXPECT_EQ(plan.sites.size(), 12u);
  EXPECT_EQ(plan.choice->slotsAfter, 0);
  // The offset of every site as written, for the mutation below.
  std::vector<std::pair<Operation *, int64_t>> old;
  for (const LdsPaddingSite &site : plan.sites)
    old.push_back({site.op, site.offset});
  applyLdsPadding(program, plan);
  ASSERT_TRUE(succeeded(mlir::verify(program)));
  EXPECT_EQ(conflictSlotsOf(program), 0);
  EXPECT_EQ(program.getLdsSize().value_or(0),
            uint64_t(plan.choice->ldsBytesAfter));

  sim::SimOptions options; // timing-aware by default
  ASSERT_TRUE(options.timing);
  sim::Comparison same =
      sim::compareBuffersOnSeeds(original->program, program, 2, options);
  EXPECT_EQ(same.verdict, sim::Comparison::Verdict::Equal) << same.message;

  // Mutation: one fragment read of the loop whose offset the padding moved
  // (1024 -> 1088) put back: it reads the old layout's bytes.
  Operation *reader = nullptr;
  int64_t oldOffset = 0;
  for (auto [op, offset] : old)
    if (op->getName().getStringRef().contains("ds_read") &&
        op->getParentOfType<LoopOp>() &&
        plan.choice->padding.map(offset) != offset) {
      reader = op;
      oldOffset = offset;
      break;
    }
  ASSERT_TRUE(reader);
  Attribute paddedOffset = reader->getAttr("offset");
  reader->setAttr("offset",
                  Builder(reader->getContext()).getI64IntegerAttr(oldOffset));
  sim::Comparison mutated =
      sim::compareBuffersOnSeeds(original->program, program, 4, options);
  EXPECT_EQ(mutated.verdict, sim::Comparison::Verdict::Different)
      << mutated.message;
  reader->setAttr("offset", paddedOffset);
}

TEST(LdsPadding, RefusesAnAddressThatIsNotAFunctionOfTheThreadId) {
  // The second read's address is the first read's data: nothing is
  // changed, and the refusal names the op.
  auto p = ParsedAnalysisProgram::fromFile(R"(
waveasm.program @k target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0> attributes {lds_size = 8192 : i64} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %a = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
  %y = waveasm.ds_read_b32 %x : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}
)");
  ASSERT_TRUE(p && p->program);
  std::string before = test::print(p->program);
  std::string why;
  EXPECT_FALSE(padLdsLayout(p->program, std::nullopt, why));
  EXPECT_NE(why.find("not a known function of the thread id (the address "
                     "comes from ds_read_b32)"),
            std::string::npos)
      << why;
  EXPECT_EQ(test::print(p->program), before);
  LdsPaddingPlan plan =
      planLdsPadding(p->program, TargetModel::get(p->program.getTargetKind()));
  EXPECT_FALSE(plan.ok());
  EXPECT_TRUE(
      plan.refusedAt &&
      plan.refusedAt->getName().getStringRef() == "waveasm.ds_read_b32" &&
      plan.refusedAt->getOperand(0).getDefiningOp() &&
      plan.refusedAt->getOperand(0).getDefiningOp()->getName().getStringRef() ==
          "waveasm.ds_read_b32");
}

} // namespace
