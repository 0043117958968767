//===- LdsAnalysisMemoTest.cpp - bank-conflict analyses remembered --------===//
//
// The per-thread memo of whole LdsBankConflicts analyses
// (analysis/LdsAnalysisMemo.h): another program with the same ds ops and
// address chains (parsed again, or its independent ops in another order,
// as the Conductor's rounds compile it) takes the analysis from the memo
// and gets every field the evaluation gives, its own ops included, and its
// padding hints; a program changed in anything the analysis reads (a
// constant, an op kind, the thread-id register, the workgroup, the target,
// an offset, a width, a loop's step) is analysed, and gets what a cold memo
// gives; and on every example, as written and compiled, a warm memo
// answers what the evaluation answers.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"
#include "ConductorTestUtils.h"

#include "analysis/LdsAnalysisMemo.h"
#include "analysis/LdsBankConflicts.h"

#include <gtest/gtest.h>

#include <functional>

using namespace mlir;
using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

/// A kernel of `wg` threads on `target` whose loop reads LDS at a chain of
/// `tid << shift` (through `op`) stepped by `step` bytes per iteration,
/// with `readA`/`readB` two independent reads (in the order given).
struct KernelText {
  std::string target = "gfx942";
  std::string wg = "[256, 1, 1]";
  std::string tidReg = "0";
  std::string shift = "7";
  std::string op = "v_lshlrev_b32";
  std::string offset = "16";
  std::string width = "b32";
  std::string step = "v_add_u32 %a, %c4";
  bool swapReads = false;

  std::string str() const {
    std::string result =
        width == "b32" ? "!waveasm.vreg" : "!waveasm.vreg<2, 2>";
    std::string readA =
        "    %x = waveasm.ds_read_" + width + " %a {offset = " + offset +
        " : i64} : !waveasm.vreg -> " + result + " loc(\"A\")\n";
    std::string readB = "    %y = waveasm.ds_read_b32 %s {offset = 4 : i64} "
                        ": !waveasm.vreg -> !waveasm.vreg loc(\"B\")\n";
    return "waveasm.program @k target = #waveasm.target<#waveasm." + target +
           ", 5> abi = #waveasm.abi<tid = " + tidReg +
           ", kernarg = 0> attributes {workgroup_size = " + wg + "} {\n" +
           "  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>\n"
           "  %c0 = waveasm.constant 0 : !waveasm.imm<0>\n"
           "  %c1 = waveasm.constant 1 : !waveasm.imm<1>\n"
           "  %c4 = waveasm.constant 4 : !waveasm.imm<4>\n"
           "  %cs = waveasm.constant " +
           shift + " : !waveasm.imm<" + shift +
           ">\n"
           "  %s = waveasm." +
           op + " %cs, %tid : !waveasm.imm<" + shift +
           ">, !waveasm.pvreg<0> -> !waveasm.vreg\n"
           "  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg\n"
           "  %ke, %ae = waveasm.loop (%k = %k0, %a = %s) : (!waveasm.sreg, "
           "!waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {\n" +
           (swapReads ? readB + readA : readA + readB) + "    %an = waveasm." +
           step +
           " : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg\n"
           "    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, "
           "!waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc\n"
           "    %cc = waveasm.s_cmp_lt_u32 %kn#0, %c4 : !waveasm.sreg, "
           "!waveasm.imm<4> -> !waveasm.scc\n"
           "    waveasm.condition %cc : !waveasm.scc iter_args(%kn#0, %an) : "
           "!waveasm.sreg, !waveasm.vreg\n"
           "  }\n"
           "  waveasm.s_endpgm\n"
           "}\n";
  }
};

struct Analysed {
  std::unique_ptr<ParsedAnalysisProgram> p;
  std::unique_ptr<ProgramIndex> index;
  std::unique_ptr<LdsBankConflicts> banks;
};

Analysed analyse(const std::string &text) {
  Analysed a;
  a.p = ParsedAnalysisProgram::fromFile(text);
  EXPECT_TRUE(a.p->program) << a.p->t.diagnostics << "\n" << text;
  if (!a.p->program)
    return a;
  a.index = std::make_unique<ProgramIndex>(a.p->program);
  a.banks = std::make_unique<LdsBankConflicts>(
      *a.index, TargetModel::get(a.p->program.getTargetKind()));
  return a;
}

Analysed analyseCold(const std::string &text) {
  getThreadLdsAnalysisMemo().clear();
  return analyse(text);
}

/// Every field of `got` equals `want`'s, and each access is of `got`'s
/// own program (its op, found by lookup).
void expectSameAnalysis(const LdsBankConflicts &got,
                        const LdsBankConflicts &want, const std::string &what) {
  ASSERT_EQ(got.getAccesses().size(), want.getAccesses().size()) << what;
  for (auto [g, w] : llvm::zip(got.getAccesses(), want.getAccesses())) {
    std::string at = what + " at " + g.op->getName().getStringRef().str();
    EXPECT_EQ(g.op->getName().getStringRef(), w.op->getName().getStringRef())
        << at;
    EXPECT_EQ(got.lookup(g.op), &g) << at;
    EXPECT_EQ(g.known, w.known) << at;
    EXPECT_EQ(g.whyUnknown, w.whyUnknown) << at;
    EXPECT_EQ(g.bytesPerLane, w.bytesPerLane) << at;
    EXPECT_EQ(g.cost.degree, w.cost.degree) << at;
    EXPECT_EQ(g.cost.phases, w.cost.phases) << at;
    EXPECT_EQ(g.cost.clocks, w.cost.clocks) << at;
    EXPECT_EQ(g.cost.idealClocks, w.cost.idealClocks) << at;
    EXPECT_EQ(g.extraSlots, w.extraSlots) << at;
    EXPECT_EQ(g.lane0Address, w.lane0Address) << at;
    EXPECT_EQ(g.laneStride, w.laneStride) << at;
    EXPECT_EQ(g.perWaveUnknown, w.perWaveUnknown) << at;
    EXPECT_EQ(g.firstLanes, w.firstLanes) << at;
    std::optional<LdsPaddingHint> gp = got.suggestPadding(g),
                                  wp = want.suggestPadding(w);
    ASSERT_EQ(gp.has_value(), wp.has_value()) << at;
    if (gp) {
      EXPECT_EQ(gp->fromBytes, wp->fromBytes) << at;
      EXPECT_EQ(gp->toBytes, wp->toBytes) << at;
      EXPECT_EQ(gp->degree, wp->degree) << at;
      EXPECT_EQ(gp->op->getName().getStringRef(),
                wp->op->getName().getStringRef())
          << at;
      EXPECT_EQ(gp->op->getParentOfType<ProgramOp>(),
                g.op->getParentOfType<ProgramOp>())
          << at;
    }
  }
}

TEST(LdsAnalysisMemo, TheSameChainsInAnotherProgramTakeTheAnalysis) {
  KernelText base;
  Analysed cold = analyseCold(base.str());
  ASSERT_TRUE(cold.banks);
  ASSERT_EQ(cold.banks->getAccesses().size(), 2u);
  // The 128-byte stride conflicts: the memo has something to get right.
  EXPECT_GT(cold.banks->getAccesses()[0].cost.degree, 1u);
  LdsAnalysisMemo &memo = getThreadLdsAnalysisMemo();
  for (bool swap : {false, true}) {
    KernelText again = base;
    again.swapReads = swap; // independent reads: a Conductor round's order
    uint64_t hits = memo.getHits();
    Analysed warm = analyse(again.str());
    ASSERT_TRUE(warm.banks);
    EXPECT_EQ(memo.getHits(), hits + (swap ? 0 : 1))
        << "the reads in another order are other ds ops in the key";
    if (swap)
      continue;
    expectSameAnalysis(*warm.banks, *cold.banks, "parsed again");
  }
}

TEST(LdsAnalysisMemo, AReorderedProgramWithTheSameDsOrderHits) {
  // Ops moved that are not ds accesses (the chain's constant after the
  // counter's init) leave the key as it was.
  KernelText base;
  std::string text = base.str();
  Analysed cold = analyseCold(text);
  std::string moved = text;
  std::string line =
      "  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg\n";
  size_t at = moved.find(line);
  ASSERT_NE(at, std::string::npos);
  moved.erase(at, line.size());
  moved.insert(moved.find("  %c4 = "), line);
  ASSERT_NE(moved, text);
  LdsAnalysisMemo &memo = getThreadLdsAnalysisMemo();
  uint64_t hits = memo.getHits();
  Analysed warm = analyse(moved);
  EXPECT_EQ(memo.getHits(), hits + 1);
  expectSameAnalysis(*warm.banks, *cold.banks, "reordered");
}

TEST(LdsAnalysisMemo, AChangedProgramIsNeverAnsweredFromAStaleEntry) {
  // Each variant changes one thing the analysis reads; analysed right after
  // its base (whose analysis is in the memo) it must get what a cold memo
  // gives, and it differs from the base, so a stale answer would show.
  KernelText plain; // a 4-byte stride: no conflict
  plain.shift = "2";
  KernelText oneBank; // every lane on bank 0, 48 threads: 48-way
  oneBank.shift = "8";
  oneBank.wg = "[48, 1, 1]";
  struct Variant {
    const char *what;
    const KernelText &base;
    std::function<void(KernelText &)> change;
  } variants[] = {
      {"shift 2 -> 8", plain, [](KernelText &k) { k.shift = "8"; }},
      {"shift -> multiply", plain,
       [](KernelText &k) { k.op = "v_mul_lo_u32"; }},
      {"thread id in v0 -> v1", plain, [](KernelText &k) { k.tidReg = "1"; }},
      {"workgroup 256x1 -> 16x16", plain,
       [](KernelText &k) { k.wg = "[16, 16, 1]"; }},
      {"48 threads -> 32", oneBank, [](KernelText &k) { k.wg = "[32, 1, 1]"; }},
      {"gfx942 -> gfx1250 (waves of 32 on 32 banks)", oneBank,
       [](KernelText &k) { k.target = "gfx1250"; }},
      {"offset 16 -> 18", plain, [](KernelText &k) { k.offset = "18"; }},
      {"b32 -> b64", plain, [](KernelText &k) { k.width = "b64"; }},
      {"a step that moves the lanes apart", plain,
       [](KernelText &k) { k.step = "v_mul_lo_u32 %a, %c4"; }},
  };
  auto fingerprint = [](const LdsBankConflicts &banks) {
    std::string s;
    for (const LdsAccessInfo &a : banks.getAccesses())
      s += std::to_string(a.known) + a.whyUnknown + "/" +
           std::to_string(a.bytesPerLane) + "/" +
           std::to_string(a.cost.degree) + "/" + std::to_string(a.cost.clocks) +
           "/" + std::to_string(a.cost.idealClocks) + "/" +
           std::to_string(a.lane0Address) + "/" +
           std::to_string(a.laneStride.value_or(-1)) + ";";
    return s;
  };
  for (const Variant &v : variants) {
    KernelText changed = v.base;
    v.change(changed);
    Analysed want = analyseCold(changed.str());
    ASSERT_TRUE(want.banks) << v.what;
    Analysed base = analyseCold(v.base.str()); // in the memo now
    Analysed got = analyse(changed.str());
    expectSameAnalysis(*got.banks, *want.banks, v.what);
    EXPECT_NE(fingerprint(*want.banks), fingerprint(*base.banks)) << v.what;
  }
}

TEST(LdsAnalysisMemo, KeepsTheLastAnalysesOnly) {
  LdsAnalysisMemo &memo = getThreadLdsAnalysisMemo();
  memo.clear();
  for (unsigned i = 0; i <= LdsAnalysisMemo::kMaxEntries; ++i) {
    KernelText k;
    k.offset = std::to_string(4 * i);
    analyse(k.str());
  }
  EXPECT_EQ(memo.size(), LdsAnalysisMemo::kMaxEntries);
  // The first was replaced, the second is still there.
  uint64_t hits = memo.getHits();
  KernelText second;
  second.offset = "4";
  analyse(second.str());
  EXPECT_EQ(memo.getHits(), hits + 1);
  KernelText first;
  first.offset = "0";
  analyse(first.str());
  EXPECT_EQ(memo.getHits(), hits + 1);
}

TEST(LdsAnalysisMemo, AnswersWhatTheEvaluationAnswersOnEveryExample) {
  std::vector<std::string> paths = test::exampleKernelPaths();
  ASSERT_FALSE(paths.empty());
  unsigned compared = 0;
  for (const std::string &path : paths) {
    test::TestContext t;
    auto module = t.parseModule(test::readFile(path));
    if (!module)
      continue;
    OwningOpRef<ModuleOp> compiled = test::compiledByPipeline(*module);
    for (ModuleOp m : {*module, compiled ? *compiled : ModuleOp()}) {
      if (!m)
        continue;
      for (ProgramOp program : m.getOps<ProgramOp>()) {
        ProgramIndex index(program);
        const TargetModel &target = TargetModel::get(program.getTargetKind());
        getThreadLdsAnalysisMemo().clear();
        LdsBankConflicts cold(index, target);
        LdsBankConflicts warm(index, target);
        expectSameAnalysis(warm, cold, path);
        compared += !cold.getAccesses().empty();
      }
    }
  }
  EXPECT_GT(compared, 10u);
}

} // namespace
