//===- LdsBankCostMemoTest.cpp - bank costs remembered across analyses ----===//
//
// The per-thread memo of ds access bank costs (analysis/LdsBankCostMemo.h):
// a second analysis of a program takes its costs from the memo and gets
// what the first computed; a program mutated between two analyses on the
// same thread (another stride, offset, width, workgroup or target: each a
// change of what the cost reads) gets its own cost, the one a cold memo
// gives; and on random accesses the memo answers what the computation
// answers, for addresses that differ by whole dwords (hits) and by less
// (misses).
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "analysis/LdsAnalysisMemo.h"
#include "analysis/LdsBankConflicts.h"
#include "analysis/LdsBankCostMemo.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

/// A kernel with one ds_read_b32 named "R" at `tid << shift` + `offset`
/// bytes, of `width` (b32, b64 or b128).
std::string kernel(int shift, int offset, llvm::StringRef width = "b32",
                   llvm::StringRef target = "gfx942",
                   llvm::StringRef wg = "[256, 1, 1]") {
  std::string result = width == "b32"   ? "!waveasm.vreg"
                       : width == "b64" ? "!waveasm.vreg<2, 2>"
                                        : "!waveasm.vreg<4, 4>";
  return ("waveasm.program @k target = #waveasm.target<#waveasm." + target +
          ", 5> abi = #waveasm.abi<tid = 0, kernarg = 0> "
          "attributes {workgroup_size = " +
          wg + "} {\n" +
          "  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>\n"
          "  %c = waveasm.constant " +
          std::to_string(shift) + " : !waveasm.imm<" + std::to_string(shift) +
          ">\n"
          "  %a = waveasm.v_lshlrev_b32 %c, %tid : !waveasm.imm<" +
          std::to_string(shift) +
          ">, !waveasm.pvreg<0> -> !waveasm.vreg\n"
          "  %r = waveasm.ds_read_" +
          width + " %a {offset = " + std::to_string(offset) +
          " : i64} : !waveasm.vreg -> " + result + " loc(\"R\")\n}\n")
      .str();
}

/// The cost of "R" in `text`, analysed on this thread (with its memo as it
/// is; the memo of whole analyses, LdsAnalysisMemo.h, emptied, or a program
/// analysed before would not look its costs up).
LdsBankCost costOf(const std::string &text) {
  getThreadLdsAnalysisMemo().clear();
  auto p = ParsedAnalysisProgram::fromFile(text);
  EXPECT_TRUE(p->program) << p->t.diagnostics;
  if (!p->program)
    return {};
  ProgramIndex index(p->program);
  LdsBankConflicts banks(index, TargetModel::get(p->program.getTargetKind()));
  const LdsAccessInfo *info = banks.lookup(p->op("R"));
  EXPECT_TRUE(info && info->known);
  return info ? info->cost : LdsBankCost();
}

/// The same with the memo emptied first: what the computation gives.
LdsBankCost coldCostOf(const std::string &text) {
  getThreadLdsBankCostMemo().clear();
  return costOf(text);
}

void expectSameCost(const LdsBankCost &got, const LdsBankCost &want,
                    const std::string &what) {
  EXPECT_EQ(got.degree, want.degree) << what;
  EXPECT_EQ(got.phases, want.phases) << what;
  EXPECT_EQ(got.clocks, want.clocks) << what;
  EXPECT_EQ(got.idealClocks, want.idealClocks) << what;
}

TEST(LdsBankCostMemo, ASecondAnalysisTakesTheCostFromTheMemo) {
  std::string text = kernel(7, 64);
  LdsBankCost cold = coldCostOf(text);
  EXPECT_EQ(cold.degree, 32u); // 128-byte stride: 32-way on 64 banks
  LdsBankCostMemo &memo = getThreadLdsBankCostMemo();
  uint64_t hits = memo.getHits(), misses = memo.getMisses();
  expectSameCost(costOf(text), cold, "the same program again");
  EXPECT_EQ(memo.getHits(), hits + 1);
  EXPECT_EQ(memo.getMisses(), misses);
}

TEST(LdsBankCostMemo, AMutatedProgramIsNeverAnsweredFromAStaleEntry) {
  // Each variant changes one thing the cost reads; analysed right after the
  // base (whose cost is in the memo), it must get what a cold memo gives,
  // and the variants differ from the base, so a stale answer would show.
  std::string base = kernel(2, 0);
  struct Variant {
    const char *what;
    std::string text;
  } variants[] = {
      {"stride 4 -> 128 bytes", kernel(7, 0)},
      {"offset 0 -> 2 bytes (not whole dwords)", kernel(2, 2, "b64")},
      {"width b32 -> b128", kernel(2, 0, "b128")},
      {"stride 16, b32 -> b128", kernel(4, 0, "b128")},
      {"64 banks -> 32 (gfx1250)", kernel(6, 0, "b32", "gfx1250")},
      {"one wave -> four", kernel(8, 0, "b32", "gfx942", "[64, 1, 1]")},
  };
  for (const Variant &v : variants) {
    LdsBankCost want = coldCostOf(v.text);
    LdsBankCost baseCost = coldCostOf(base);
    costOf(base); // the base's cost is in the memo now
    LdsBankCost got = costOf(v.text);
    expectSameCost(got, want, v.what);
    // The variant is a real change of the cost (or of its key's inputs).
    EXPECT_TRUE(want.degree != baseCost.degree ||
                want.clocks != baseCost.clocks ||
                want.phases != baseCost.phases)
        << v.what;
  }
}

TEST(LdsBankCostMemo, AnswersWhatTheComputationAnswers) {
  // Random waves of addresses, each looked up as drawn, moved by whole
  // dwords (a hit) and moved by 1-3 bytes (another key): the memo's answer
  // is the cost computed directly every time.
  std::mt19937_64 random(5);
  LdsBankCostMemo memo;
  for (int trial = 0; trial < 3000; ++trial) {
    unsigned banks = trial % 3 == 0 ? 32 : 64;
    unsigned bytes = 1u << (random() % 5);
    unsigned lanes = 64;
    std::vector<uint32_t> a(lanes);
    uint32_t span = 4u << (random() % 10);
    for (unsigned l = 0; l < lanes; ++l)
      a[l] = trial % 2 ? uint32_t(random() % span)
                       : l * (uint32_t(random() % 4 + 1) << (trial % 8));
    uint64_t mask = ~uint64_t(0);
    uint64_t params[] = {bytes, banks};
    auto direct = [&](llvm::ArrayRef<uint32_t> x) {
      return computeLdsBankCost(x, mask, bytes, banks, 2);
    };
    for (uint32_t shift :
         {0u, 4u * uint32_t(random() % 1000), uint32_t(random() % 3 + 1)}) {
      std::vector<uint32_t> moved(a);
      for (uint32_t &x : moved)
        x += shift;
      LdsBankCost got = memo.get(moved, params, [&] { return direct(moved); });
      std::string what =
          "trial " + std::to_string(trial) + " shift " + std::to_string(shift);
      ASSERT_NO_FATAL_FAILURE(expectSameCost(got, direct(moved), what));
    }
  }
  EXPECT_GT(memo.getHits(), 0u);
  EXPECT_LE(memo.size(), LdsBankCostMemo::kMaxEntries);
}

TEST(LdsBankCostMemo, ForgetsEverythingWhenFull) {
  LdsBankCostMemo memo;
  uint64_t params[] = {4};
  std::vector<uint32_t> a(4);
  for (uint32_t i = 0; i <= LdsBankCostMemo::kMaxEntries; ++i) {
    a = {0, 4, 8, 12 + 4 * i};
    memo.get(a, params, [] { return LdsBankCost(); });
  }
  EXPECT_EQ(memo.size(), 1u);
  EXPECT_EQ(memo.getMisses(), LdsBankCostMemo::kMaxEntries + 1);
}

} // namespace
