//===- CycleSimulatorTest.cpp - repeated steady iterations ----------------===//
//
// The steady-state search stops at an iteration that starts in the state
// the previous one started in, shifted (CycleSimulator.h): these tests check
// that it does stop there, and that every figure of the model (timeline,
// steady timings, loop timings, uncovered dependencies) is the one the
// search reaches when it simulates every iteration.
//
//===----------------------------------------------------------------------===//

#include "CycleModelTestUtils.h"
#include "MlirInputs.h"
#include "RandomLoopText.h"

#include "analysis/CycleSimulator.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace waveasm;
using waveasm::test::kModelPrelude;
using waveasm::test::Modeled;
using namespace waveasm::test::loop_text;

namespace {

/// Everything CycleModel reports, copied.
struct Figures {
  std::vector<OpTiming> timeline, steady;
  std::vector<LoopTiming> loops;
  std::vector<UncoveredDependency> uncovered;
  int64_t totalCycles = 0;

  Figures(const ProgramIndex &index, const CycleModel &model)
      : loops(model.getLoops()), uncovered(model.getUncoveredDependencies()),
        totalCycles(model.getTotalCycles()) {
    for (unsigned idx = 0; idx < index.getNumOps(); ++idx) {
      timeline.push_back(model.getTiming(idx));
      const OpTiming *s = model.getSteadyTiming(idx);
      steady.push_back(s ? *s : OpTiming());
    }
  }
};

bool sameTiming(const OpTiming &a, const OpTiming &b) {
  return a.issueCycle == b.issueCycle && a.stall == b.stall &&
         a.latency == b.latency && a.issueCycles == b.issueCycles &&
         a.reason == b.reason && a.issued == b.issued;
}

/// The first difference between `a` and `b`, empty when they agree.
std::string firstDifference(const Figures &a, const Figures &b) {
  if (a.totalCycles != b.totalCycles)
    return "total cycles " + std::to_string(a.totalCycles) + " vs " +
           std::to_string(b.totalCycles);
  for (size_t i = 0; i < a.timeline.size(); ++i) {
    if (!sameTiming(a.timeline[i], b.timeline[i]))
      return "timeline of op " + std::to_string(i);
    if (!sameTiming(a.steady[i], b.steady[i]))
      return "steady timing of op " + std::to_string(i);
  }
  if (a.loops.size() != b.loops.size())
    return "loop count";
  for (size_t i = 0; i < a.loops.size(); ++i) {
    const LoopTiming &x = a.loops[i], &y = b.loops[i];
    if (x.firstIterationCycles != y.firstIterationCycles ||
        x.steadyStateCycles != y.steadyStateCycles ||
        x.steadyIterations != y.steadyIterations ||
        x.prefetchDistance != y.prefetchDistance ||
        x.lowerBoundCycles != y.lowerBoundCycles ||
        x.boundKind != y.boundKind || x.criticalPath != y.criticalPath)
      return "loop " + std::to_string(i) + ": steady " +
             std::to_string(x.steadyStateCycles) + " vs " +
             std::to_string(y.steadyStateCycles) + ", iterations " +
             std::to_string(x.steadyIterations) + " vs " +
             std::to_string(y.steadyIterations);
  }
  if (a.uncovered.size() != b.uncovered.size())
    return "uncovered count " + std::to_string(a.uncovered.size()) + " vs " +
           std::to_string(b.uncovered.size());
  for (size_t i = 0; i < a.uncovered.size(); ++i) {
    const UncoveredDependency &x = a.uncovered[i], &y = b.uncovered[i];
    if (x.user != y.user || x.load != y.load || x.value != y.value ||
        x.stallCycles != y.stallCycles)
      return "uncovered dependency " + std::to_string(i);
  }
  return "";
}

struct SkipCounts {
  unsigned programs = 0, loops = 0, skipped = 0, loopsSkipped = 0;
  unsigned passesSaved = 0;
};

/// A freshly built model's figures (skipping repeated iterations), the
/// model simulated again iteration by iteration, then again as built (so it
/// ends as it was): both runs' stats and the first figure in which the
/// built and the simulated differ ("" when none).
struct Reruns {
  Figures built;
  CycleSimulator::Stats fast, full;
  std::string difference;
};
Reruns rerunBoth(const ProgramIndex &index, CycleModel &model) {
  Figures built(index, model);
  CycleSimulator::Options every;
  every.skipRepeatedIterations = false;
  CycleSimulator::Stats full = CycleSimulator::rerun(model, every);
  std::string difference = firstDifference(built, Figures(index, model));
  CycleSimulator::Stats fast =
      CycleSimulator::rerun(model, CycleSimulator::Options());
  return {std::move(built), fast, full, std::move(difference)};
}

/// Every program of `module`: the model as built (skipping repeated
/// iterations) against the model simulated again iteration by iteration.
void compareSkipping(ModuleOp module, const std::string &what,
                     SkipCounts &counts) {
  for (auto program : module.getOps<ProgramOp>()) {
    ProgramIndex index(program);
    CycleModel model(index, TargetModel::get(program.getTargetKind()));
    auto [built, fast, full, difference] = rerunBoth(index, model);
    EXPECT_EQ(difference, "") << what;
    EXPECT_EQ(full.skippedIterations, 0u) << what;
    // Each skipped iteration is a body pass less (of the loop and of the
    // loops inside it).
    EXPECT_LE(fast.bodyPasses + fast.skippedIterations, full.bodyPasses)
        << what;
    ++counts.programs;
    counts.loops += built.loops.size();
    counts.skipped += fast.skippedIterations;
    counts.passesSaved += full.bodyPasses - fast.bodyPasses;
  }
}

std::string withPrelude(llvm::StringRef body) {
  return (llvm::Twine(kModelPrelude) + R"(
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %p0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
)" + body)
      .str();
}

/// A random loop over a pool of values: LDS and buffer loads and stores,
/// VALU adds and a transcendental, MFMA accumulator chains, barriers,
/// counted waits, an inner loop (carrying a value from outside through
/// itself, the one value a shift does not move) and an if; iter_args that
/// take a body value, themselves or a value from outside; 1 to 4 waves.
std::string randomLoop(unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](unsigned n) { return unsigned(rng() % n); };
  unsigned numV = 1 + pick(5), numAcc = pick(3);
  LoopArgs loopArgs(numV, numAcc);
  const std::vector<std::string> &argsV = loopArgs.v, &argsAcc = loopArgs.acc;
  std::vector<std::string> v = argsV, acc = argsAcc;
  std::string body;
  auto anyV = [&] { return v[pick(v.size())]; };
  auto anyAcc = [&] { return acc[pick(acc.size())]; };
  unsigned tmp = 0;
  auto fresh = [&] { return "%t" + std::to_string(tmp++); };
  for (unsigned n = 3 + pick(25); n > 0; --n) {
    unsigned kind = pick(acc.empty() ? 11 : 14);
    std::string t = fresh();
    switch (kind) {
    case 0:
      body += dsReadB32(t, anyV());
      v.push_back(t);
      break;
    case 1:
      body += dsWriteB32(anyV(), anyV());
      break;
    case 2:
      body += bufferLoad(t, anyV());
      v.push_back(t);
      break;
    case 3:
      body += bufferStore(anyV(), anyV());
      break;
    case 4:
      body += vAdd(t, anyV(), anyV());
      v.push_back(t);
      break;
    case 5:
      body += "    " + t + " = waveasm.v_exp_f32 " + anyV() +
              " : !waveasm.vreg -> !waveasm.vreg\n";
      v.push_back(t);
      break;
    case 6:
      body += barrier();
      break;
    case 7:
      body += "    waveasm.s_waitcnt vmcnt(" + std::to_string(pick(3)) + ")\n";
      break;
    case 8:
      body +=
          "    waveasm.s_waitcnt lgkmcnt(" + std::to_string(pick(3)) + ")\n";
      break;
    case 9: {
      // An inner loop of 3 trips: an add chain, and an iter_arg from
      // outside the outer loop carried through unchanged.
      std::string in = anyV();
      body += "    " + t + ":3 = waveasm.loop (%j = %i0, %w = " + in +
              ", %o = %p0) : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) "
              "-> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) {\n" +
              "      " + t +
              "w = waveasm.v_add_u32 %w, %c1 : !waveasm.vreg, "
              "!waveasm.imm<1> -> !waveasm.vreg\n" +
              "      " + t + "j, " + t +
              "s = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> "
              "-> !waveasm.sreg, !waveasm.scc\n" +
              "      " + t + "m = waveasm.s_cmp_lt_u32 " + t +
              "j, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc\n" +
              "      waveasm.condition " + t + "m : !waveasm.scc iter_args(" +
              t + "j, " + t +
              "w, %o) : !waveasm.sreg, !waveasm.vreg, "
              "!waveasm.vreg\n" +
              "    } {trip_count = 3 : i64}\n";
      v.push_back(t + "#1");
      v.push_back(t + "#2");
      break;
    }
    case 10: {
      std::string then = anyV(), other = anyV();
      body += "    " + t +
              "c = waveasm.s_cmp_lt_u32 %i, %c4 : !waveasm.sreg, "
              "!waveasm.imm<4> -> !waveasm.scc\n" +
              "    " + t + " = waveasm.if " + t +
              "c : !waveasm.scc -> !waveasm.vreg {\n" + "      " + t +
              "t = waveasm.v_add_u32 " + then +
              ", %c1 : !waveasm.vreg, "
              "!waveasm.imm<1> -> !waveasm.vreg\n" +
              "      waveasm.yield " + t + "t : !waveasm.vreg\n" +
              "    } else {\n      waveasm.yield " + other +
              " : !waveasm.vreg\n    }\n";
      v.push_back(t);
      break;
    }
    case 11:
    case 12:
      body += mfma(t, anyAcc());
      acc.push_back(t);
      break;
    case 13:
      body += dsReadB128(t, anyV());
      acc.push_back(t);
      break;
    }
  }
  // Each iter_arg takes a body value, mostly; sometimes itself or a value
  // from outside.
  auto next = [&](const std::string &self, const std::string &outside,
                  auto any) -> std::string {
    unsigned k = pick(8);
    return k == 0 ? self : k == 1 ? outside : any();
  };
  std::string yields;
  for (unsigned j = 0; j < numV; ++j)
    yields += ", " + next(argsV[j], "%p0", anyV);
  for (unsigned j = 0; j < numAcc; ++j)
    yields += ", " + next(argsAcc[j], "%z", anyAcc);
  std::string loop = countedLoop(loopArgs, body, yields);
  unsigned waves = 1 + pick(4);
  return programOfWaves(waves, withPrelude(loop));
}

} // namespace

// An accumulator chain and a load of the next iteration's address: the
// second steady iteration starts as the first did, shifted by its 100
// cycles (the load), so it is not simulated; the figures are those of the
// search over every iteration (3 iterations, the minimum, at 100 cycles).
TEST(CycleSimulator, RepeatedIterationIsNotSimulatedAgain) {
  Modeled m(withPrelude(R"(
  %i_end, %p_end = waveasm.loop (%i = %i0, %p = %p0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %q = waveasm.buffer_load_dword %srd, %p, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.s_waitcnt vmcnt(0)
    %i_n, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %q) : !waveasm.sreg, !waveasm.vreg
  } {trip_count = 10 : i64}
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  auto [built, fast, full, difference] = rerunBoth(*m.index, *m.model);
  // Cold iteration, one steady iteration, the program's first iteration.
  EXPECT_EQ(fast.bodyPasses, 3u);
  EXPECT_EQ(fast.skippedIterations, 1u);
  EXPECT_EQ(full.bodyPasses, 4u);
  EXPECT_EQ(difference, "");
  EXPECT_EQ(m.loop().steadyIterations, 3);
}

// A load waited for with vmcnt(1), its data carried two iterations: the
// iterations alternate between waiting for the load (99 cycles) and not (6),
// so no iteration starts as the one before it did. Every iteration up to
// the cap is simulated and the figure is the mean of the last four, as
// without the check.
TEST(CycleSimulator, AlternatingIterationsAreAllSimulated) {
  Modeled m(withPrelude(R"(
  %i_end, %x_end, %y_end = waveasm.loop (%i = %i0, %x = %p0, %y = %p0) : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) {
    %u = waveasm.v_add_u32 %x, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %q = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.s_waitcnt vmcnt(1)
    %i_n, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %y, %q) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg
  } {trip_count = 10 : i64}
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  auto [built, fast, full, difference] = rerunBoth(*m.index, *m.model);
  EXPECT_EQ(fast.skippedIterations, 0u);
  EXPECT_EQ(difference, "");
  EXPECT_EQ(fast.bodyPasses, full.bodyPasses);
  // Prefetch distance 2: at least 4 iterations, then 6 more at most.
  EXPECT_EQ(m.loop().prefetchDistance, 2);
  EXPECT_EQ(m.loop().steadyIterations, 10);
  EXPECT_EQ(m.loop().steadyStateCycles, 53); // (99 + 6 + 99 + 6) / 4
}

// Skipping changes no figure: on random loops (loads, stores, waits,
// MFMA chains, an inner loop, an if, iter_args that stay or come from
// outside) and on every input and pipelined example, the model equals the
// one simulated iteration by iteration; and it does skip on most of them.
TEST(CycleSimulator, SkippingRepeatedIterationsChangesNoFigure) {
  SkipCounts random;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    waveasm::test::TestContext t;
    std::string text = randomLoop(seed);
    OwningOpRef<ModuleOp> module = t.parseModule(text);
    ASSERT_TRUE(module && succeeded(verify(*module))) << t.diagnostics << "\n"
                                                      << text;
    compareSkipping(*module, "seed " + std::to_string(seed) + "\n" + text,
                    random);
  }
  EXPECT_GT(random.skipped, 200u);
  SkipCounts inputs;
  waveasm::test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        compareSkipping(module, name, inputs);
      });
  EXPECT_GT(inputs.loops, 200u);
  EXPECT_GT(inputs.skipped, 100u);
  std::cout << "random: " << random.skipped << " iterations skipped, "
            << random.passesSaved
            << " body passes saved; inputs: " << inputs.loops << " loops, "
            << inputs.skipped << " iterations skipped, " << inputs.passesSaved
            << " body passes saved\n";
}
