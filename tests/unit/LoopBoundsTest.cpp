//===- LoopBoundsTest.cpp - resource, recurrence and latency bounds -------===//
//
// analysis/LoopBounds.h through the cycle model, on hand-computed loops
// (gfx942, issue slots): VMEM 100, VALU 1, SALU 1,
// v_mfma_f32_16x16x16_f16 4 passes (SrcC chain 4), result latency 9.
// Which bound binds (resource or recurrence), what the resource bound
// leaves out (waits, nops, same-class moves), the recurrence of a cycle
// spanning two iterations, the prefetch distance, the steady state of a
// loop whose loads are read two iterations later, and the latency limit.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"
#include "CycleModelTestUtils.h"
#include "MlirInputs.h"
#include "RandomLoopText.h"
#include "TestUtils.h"

#include "analysis/CycleModel.h"
#include "analysis/LoopBounds.h"
#include "analysis/OpFacts.h"
#include "analysis/ProgramIndex.h"
#include "analysis/TargetModel.h"
#include "ir/RegisterTypes.h"

#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace waveasm;
using waveasm::test::kModelPrelude;
using waveasm::test::Modeled;
using namespace waveasm::test::loop_text;

namespace {

std::string withPrelude(llvm::StringRef body) {
  return (llvm::Twine(kModelPrelude) + R"(
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %p0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
)" + body)
      .str();
}

// The loop counter's s_add, s_cmp and condition end every body below.
constexpr llvm::StringLiteral kCount = R"(
    %i_n, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
)";

} // namespace

// Pointer chasing: the next address is the loaded value. Issue slots per
// iteration: load, s_add, s_cmp, condition = 4 (the wait left out), but
// the loop-carried chain p -> load -> p takes the load's 100.
TEST(LoopBounds, PointerChaseIsRecurrenceBound) {
  Modeled m(withPrelude((llvm::Twine(R"(
  %i_end, %p_end = waveasm.loop (%i = %i0, %p = %p0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %q = waveasm.buffer_load_dword %srd, %p, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.s_waitcnt vmcnt(0)
)") + kCount + R"(
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %q) : !waveasm.sreg, !waveasm.vreg
  } {trip_count = 10 : i64}
)")
                            .str()));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  const LoopTiming &loop = m.loop();
  EXPECT_EQ(loop.resourceBoundCycles, 4);
  EXPECT_EQ(loop.busiestUnit, "issue");
  EXPECT_EQ(loop.issueCycles, 5); // as compiled: the wait counts
  EXPECT_EQ(loop.recurrenceBoundCycles, 100);
  EXPECT_EQ(loop.recurrenceIterArg, 1);
  EXPECT_EQ(loop.recurrenceDistance, 1);
  EXPECT_EQ(loop.lowerBoundCycles, 100);
  EXPECT_EQ(loop.boundKind, "recurrence");
  EXPECT_EQ(describeBoundKind(loop), "recurrence via iter_arg 1");
  // Each iteration: load, wait for its 100, s_add, s_cmp, condition: 104,
  // within 4% of the bound.
  EXPECT_EQ(loop.steadyStateCycles, 104);
  // The loaded value is the next address, read by the load itself in the
  // next iteration: a distance of one.
  EXPECT_EQ(loop.prefetchDistance, 1);
}

// The same chain through two iter_args: a <- load(b), b <- a. The cycle
// b -> a -> b spans two iterations and holds one load: 100 / 2.
TEST(LoopBounds, RecurrenceOverTwoIterationsIsHalved) {
  Modeled m(withPrelude((llvm::Twine(R"(
  %i_end, %a_end, %b_end = waveasm.loop (%i = %i0, %a = %p0, %b = %p0) : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) {
    %q = waveasm.buffer_load_dword %srd, %b, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.s_waitcnt vmcnt(0)
)") + kCount + R"(
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %q, %a) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg
  } {trip_count = 10 : i64}
)")
                            .str()));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  const LoopTiming &loop = m.loop();
  EXPECT_EQ(loop.recurrenceBoundCycles, 50);
  EXPECT_EQ(loop.recurrenceDistance, 2);
  EXPECT_TRUE(loop.recurrenceIterArg == 1 || loop.recurrenceIterArg == 2)
      << loop.recurrenceIterArg;
  EXPECT_EQ(loop.lowerBoundCycles, 50);
  EXPECT_EQ(loop.boundKind, "recurrence");
  EXPECT_TRUE(
      llvm::StringRef(describeBoundKind(loop)).ends_with(", 2 iterations"))
      << describeBoundKind(loop);
}

// An accumulator read by a VALU op: acc -> MFMA (result latency 9) ->
// v_add (1) -> acc: 10 per iteration, above the MFMA pipe (4) and the 5
// issue slots.
TEST(LoopBounds, MFMAResultThroughVALUIsRecurrenceBound) {
  Modeled m(withPrelude((llvm::Twine(R"(
  %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %i_end, %acc_end = waveasm.loop (%i = %i0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>) {
    %m = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n = waveasm.v_add_u32 %m, %c1 : !waveasm.vreg<4, 4>, !waveasm.imm<1> -> !waveasm.vreg<4, 4>
)") + kCount + R"(
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %n) : !waveasm.sreg, !waveasm.vreg<4, 4>
  } {trip_count = 10 : i64}
)")
                            .str()));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  const LoopTiming &loop = m.loop();
  EXPECT_EQ(loop.resourceBoundCycles, 5);
  EXPECT_EQ(loop.recurrenceBoundCycles, 10);
  EXPECT_EQ(loop.recurrenceIterArg, 1);
  EXPECT_EQ(loop.lowerBoundCycles, 10);
  EXPECT_EQ(loop.boundKind, "recurrence");
  EXPECT_GE(loop.steadyStateCycles, loop.lowerBoundCycles);
}

// Six independent VALU ops plus what a compiled loop carries that another
// schedule would not need: a VGPR->VGPR copy, s_nop 3 (4 slots) and a
// wait. As compiled 6 + 1 + 4 + 1 + 3 = 15 issue slots; the bound counts
// the 6 VALU ops and the 3 counter ops: 9, issue-bound. The copy is free
// on the recurrence (x -> copy -> x weighs 0); the counter's is 1.
TEST(LoopBounds, ResourceBoundLeavesOutWaitsNopsAndCopies) {
  std::string body;
  for (int k = 0; k < 6; ++k)
    body += "    %v" + std::to_string(k) +
            " = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, "
            "!waveasm.imm<1> -> !waveasm.vreg\n";
  Modeled m(withPrelude((llvm::Twine(R"(
  %i_end, %x_end = waveasm.loop (%i = %i0, %x = %p0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
)") + body + R"(
    %copy = waveasm.v_mov_b32 %x : !waveasm.vreg -> !waveasm.vreg
    waveasm.s_nop 3
    waveasm.s_waitcnt vmcnt(0)
)" + kCount + R"(
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %copy) : !waveasm.sreg, !waveasm.vreg
  } {trip_count = 10 : i64}
)")
                            .str()));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  const LoopTiming &loop = m.loop();
  EXPECT_EQ(loop.issueCycles, 15);
  EXPECT_EQ(loop.unitCycles[static_cast<unsigned>(ExecUnit::VALU)], 7);
  EXPECT_EQ(loop.resourceBoundCycles, 9);
  EXPECT_EQ(loop.busiestUnit, "issue");
  EXPECT_EQ(loop.recurrenceBoundCycles, 1);
  EXPECT_EQ(loop.recurrenceIterArg, 0);
  EXPECT_EQ(loop.lowerBoundCycles, 9);
  EXPECT_EQ(loop.boundKind, "issue");
  EXPECT_EQ(describeBoundKind(loop), "issue");
  // Nothing waits: the iteration is its 15 slots.
  EXPECT_EQ(loop.steadyStateCycles, 15);
  EXPECT_EQ(loop.prefetchDistance, 0);
}

// A load read two iterations after it is issued (next -> y -> x), with no
// wait (the reader stalls for the data all the same). In isolation the
// values from outside are ready at 0, so iteration 2 waits on nothing: a
// two-iteration model said 5. Hand timeline: iteration 1 use @0, load @1
// (data 101), s_add, s_cmp, condition: ends 5. Iteration 2: use @5 (x from
// outside), load @6 (data 106): ends 10 (5). Iteration 3 reads iteration
// 1's load: use @101, load @102 (data 202): ends 106 (96). Iteration 4
// reads 106: ends 111 (5); then 96, 5, ... for ever: two loads in flight
// per 101 slots. The durations never settle, so the model takes the mean
// of the last four after max(3, d + 2) + 6 = 10 iterations: (5 + 96) / 2,
// rounded up, 51.
TEST(LoopBounds, SteadyStateWaitsForLoadsTwoIterationsAhead) {
  Modeled m(withPrelude((llvm::Twine(R"(
  %i_end, %x_end, %y_end = waveasm.loop (%i = %i0, %x = %p0, %y = %p0) : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) {
    %use = waveasm.v_add_u32 %x, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %next = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
)") + kCount + R"(
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %y, %next) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg
  } {trip_count = 100 : i64}
)")
                            .str()));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  const LoopTiming &loop = m.loop();
  EXPECT_EQ(loop.prefetchDistance, 2);
  EXPECT_EQ(loop.firstIterationCycles, 5);
  EXPECT_EQ(loop.steadyIterations, 10);
  EXPECT_EQ(loop.steadyStateCycles, 51);

  // The latency limit: one VGPR loaded per iteration, the slowest load 100.
  // With no register to spare, the distance as written (2): three copies in
  // flight, ceil(101 / 3) = 34. With 3 spare VGPRs, 3 more: ceil(101 / 6)
  // = 17.
  LatencyLimit none = computeLatencyLimit(*m.index, m.model->getOpFacts(),
                                          loop.index, /*freeVgprEntries=*/0);
  EXPECT_EQ(none.loadLatency, 100);
  EXPECT_EQ(none.loadVgprs, 1);
  EXPECT_EQ(none.maxDistance, 2);
  EXPECT_EQ(none.cycles, 34);
  LatencyLimit three =
      computeLatencyLimit(*m.index, m.model->getOpFacts(), loop.index, 3);
  EXPECT_EQ(three.maxDistance, 5);
  EXPECT_EQ(three.cycles, 17);
}

// A loop without a VMEM load has no latency limit.
TEST(LoopBounds, NoLatencyLimitWithoutLoads) {
  Modeled m(withPrelude((llvm::Twine(R"(
  %i_end = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> (!waveasm.sreg) {
)") + kCount + R"(
    waveasm.condition %more : !waveasm.scc iter_args(%i_n) : !waveasm.sreg
  } {trip_count = 10 : i64}
)")
                            .str()));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  LatencyLimit limit =
      computeLatencyLimit(*m.index, m.model->getOpFacts(), m.loop().index, 100);
  EXPECT_EQ(limit.cycles, 0);
  EXPECT_EQ(limit.maxDistance, 0);
  EXPECT_EQ(m.loop().prefetchDistance, 0);
  EXPECT_EQ(m.loop().recurrenceBoundCycles, 1);
  EXPECT_EQ(m.loop().lowerBoundCycles, 3);
}

namespace {

struct RecurrenceCounts {
  unsigned loops = 0, bound = 0, maxArgs = 0, memoryBound = 0;
  /// The last loop's binding distance; loops whose cycle spans more than
  /// one iteration.
  int32_t lastDistance = 0;
  unsigned multiIteration = 0;
};

/// Every loop of every program of `module`: the sparse recurrence walk
/// equals the walk over every op.
void compareRecurrence(ModuleOp module, const std::string &what,
                       RecurrenceCounts &counts) {
  for (auto program : module.getOps<ProgramOp>()) {
    ProgramIndex index(program);
    const TargetModel &target = TargetModel::get(program.getTargetKind());
    std::vector<OpFacts> facts = computeOpFacts(index, target);
    for (unsigned idx = 0; idx < index.getNumOps(); ++idx) {
      auto loop = dyn_cast<LoopOp>(index.getOp(idx));
      if (!loop)
        continue;
      RecurrenceBound fast = computeRecurrenceBound(index, facts, idx);
      RecurrenceBound full =
          computeRecurrenceBoundByFullWalk(index, facts, idx);
      EXPECT_EQ(fast.cycles, full.cycles) << what << ", loop at " << idx;
      EXPECT_EQ(fast.iterArg, full.iterArg) << what << ", loop at " << idx;
      EXPECT_EQ(fast.distance, full.distance) << what << ", loop at " << idx;
      // The cycle model's call, both bounds over one flattened body, equals
      // each computed alone.
      LoopRecurrenceBounds both =
          computeLoopRecurrenceBounds(index, facts, idx);
      MemoryRecurrenceBound memory =
          computeMemoryRecurrenceBound(index, facts, idx);
      EXPECT_EQ(both.registers.cycles, fast.cycles) << what << " at " << idx;
      EXPECT_EQ(both.registers.iterArg, fast.iterArg) << what << " at " << idx;
      EXPECT_EQ(both.registers.distance, fast.distance)
          << what << " at " << idx;
      EXPECT_EQ(both.memory.cycles, memory.cycles) << what << " at " << idx;
      EXPECT_EQ(both.memory.load, memory.load) << what << " at " << idx;
      EXPECT_EQ(both.memory.store, memory.store) << what << " at " << idx;
      // The memory bound skips the loads that cannot beat the best so far:
      // the same bound and ops as a walk from every load.
      MemoryRecurrenceBound everyLoad =
          computeMemoryRecurrenceBoundByEveryLoad(index, facts, idx);
      EXPECT_EQ(memory.cycles, everyLoad.cycles) << what << " at " << idx;
      EXPECT_EQ(memory.load, everyLoad.load) << what << " at " << idx;
      EXPECT_EQ(memory.store, everyLoad.store) << what << " at " << idx;
      counts.memoryBound += memory.cycles > 0;
      ++counts.loops;
      counts.bound += full.cycles > 0;
      counts.lastDistance = full.distance;
      counts.maxArgs =
          std::max(counts.maxArgs, loop.getBodyBlock().getNumArguments());
    }
  }
}

/// A random loop of `k` VGPR iter_args (2 to 40): each next value is a
/// chain of 0-4 ops (v_add_u32 of 1 or of another value, or a 100-slot
/// buffer load) from a random argument, so the binding cycle may span
/// several iterations and the cycle search over the arguments decides.
std::string randomRecurrenceLoop(unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](unsigned n) { return unsigned(rng() % n); };
  unsigned k = 2 + pick(39);
  std::string args = "%i = %i0", types = "!waveasm.sreg", body, yields,
              yieldTypes;
  for (unsigned j = 0; j < k; ++j) {
    args += ", %a" + std::to_string(j) + " = %p0";
    types += ", !waveasm.vreg";
  }
  unsigned tmp = 0;
  for (unsigned j = 0; j < k; ++j) {
    std::string value = "%a" + std::to_string(pick(k));
    for (unsigned len = pick(5); len > 0; --len) {
      std::string t = "%t" + std::to_string(tmp++);
      unsigned kind = pick(4);
      if (kind == 0)
        body += "    " + t + " = waveasm.buffer_load_dword %srd, " + value +
                ", %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, "
                "!waveasm.imm<0> -> !waveasm.vreg\n";
      else if (kind == 1)
        body += "    " + t + " = waveasm.v_add_u32 " + value + ", %a" +
                std::to_string(pick(k)) +
                " : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg\n";
      else
        body += "    " + t + " = waveasm.v_add_u32 " + value +
                ", %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg\n";
      value = t;
    }
    yields += ", " + value;
    yieldTypes += ", !waveasm.vreg";
  }
  return withPrelude(
      (llvm::Twine("  %r:") + std::to_string(k + 1) + " = waveasm.loop (" +
       args + ") : (" + types + ") -> (" + types + ") {\n" + body + kCount +
       "    waveasm.condition %more : !waveasm.scc iter_args(%i_n" + yields +
       ") : !waveasm.sreg" + yieldTypes + "\n  } {trip_count = 10 : i64}\n" +
       "  waveasm.s_endpgm")
          .str());
}
/// A random loop of LDS and buffer loads and stores, VALU adds, MFMA
/// accumulator chains and barriers over a pool of values (iter_args and
/// what the body made so far), in a workgroup of 1 to 4 waves: loads reach
/// stores through paths of every latency, so the memory recurrence bound
/// binds on many of them and the loads it skips are checked against the
/// walk from every load.
std::string randomMemoryLoop(unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](unsigned n) { return unsigned(rng() % n); };
  unsigned numV = 1 + pick(6), numAcc = pick(3);
  LoopArgs loopArgs(numV, numAcc);
  std::vector<std::string> v = loopArgs.v, acc = loopArgs.acc;
  std::string body;
  auto anyV = [&] { return v[pick(v.size())]; };
  auto anyAcc = [&] { return acc[pick(acc.size())]; };
  unsigned tmp = 0;
  auto fresh = [&] { return "%t" + std::to_string(tmp++); };
  for (unsigned n = 4 + pick(30); n > 0; --n) {
    unsigned kind = pick(acc.empty() ? 7 : 11);
    std::string t;
    switch (kind) {
    case 0:
      t = fresh();
      body += dsReadB32(t, anyV());
      v.push_back(t);
      break;
    case 1:
      body += dsWriteB32(anyV(), anyV());
      break;
    case 2:
      t = fresh();
      body += bufferLoad(t, anyV());
      v.push_back(t);
      break;
    case 3:
      body += bufferStore(anyV(), anyV());
      break;
    case 4:
    case 5:
      t = fresh();
      body += vAdd(t, anyV(), anyV());
      v.push_back(t);
      break;
    case 6:
      body += barrier();
      break;
    case 7:
      t = fresh();
      body += mfma(t, anyAcc());
      acc.push_back(t);
      break;
    case 8:
      t = fresh();
      body += "    " + t + " = waveasm.v_add_u32 " + anyAcc() +
              ", %c1 : !waveasm.vreg<4, 4>, !waveasm.imm<1> -> "
              "!waveasm.vreg<4, 4>\n";
      acc.push_back(t);
      break;
    case 9:
      body += "    waveasm.ds_write_b128 " + anyAcc() + ", " + anyV() +
              " : !waveasm.vreg<4, 4>, !waveasm.vreg\n";
      break;
    case 10:
      t = fresh();
      body += dsReadB128(t, anyV());
      acc.push_back(t);
      break;
    }
  }
  std::string yields;
  for (unsigned j = 0; j < numV; ++j)
    yields += ", " + anyV();
  for (unsigned j = 0; j < numAcc; ++j)
    yields += ", " + anyAcc();
  std::string loop = R"(
  %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
)" + countedLoop(loopArgs, body, yields);
  unsigned waves = 1 + pick(4);
  return programOfWaves(waves, withPrelude(loop));
}
} // namespace

// The memory recurrence bound walks only from the loads a bound on every
// cycle through them lets beat the best so far: the same bound and ops as
// the walk from every load (compareRecurrence), on random loops of loads,
// stores, adds, MFMA chains and barriers in workgroups of 1 to 4 waves.
TEST(LoopBounds, MemoryBoundSkipsOnlyLoadsThatCannotWin) {
  RecurrenceCounts counts;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    waveasm::test::TestContext t;
    std::string text = randomMemoryLoop(seed);
    OwningOpRef<ModuleOp> module = t.parseModule(text);
    ASSERT_TRUE(module && succeeded(verify(*module))) << t.diagnostics << "\n"
                                                      << text;
    compareRecurrence(*module, "seed " + std::to_string(seed), counts);
  }
  EXPECT_EQ(counts.loops, 400u);
  EXPECT_GT(counts.memoryBound, 200u);
}

// The recurrence bound walks from each iter_arg only the ops a path reaches
// (a pipelined kernel carries hundreds of iter_args): the same bound,
// binding argument and distance as the walk over the whole body on every
// loop of the examples, the shared examples and the lit inputs, and of the
// examples pipelined (kernels of many rotated iter_args). The cycle model's
// computeLoopRecurrenceBounds (one flattened body for both bounds) gives
// each bound as computed alone.
TEST(LoopBounds, SparseRecurrenceWalkEqualsTheFullWalk) {
  RecurrenceCounts counts;
  for (unsigned seed = 1; seed <= 300; ++seed) {
    waveasm::test::TestContext t;
    std::string text = waveasm::test::program(randomRecurrenceLoop(seed));
    OwningOpRef<ModuleOp> module = t.parseModule(text);
    ASSERT_TRUE(module && succeeded(verify(*module))) << t.diagnostics << "\n"
                                                      << text;
    compareRecurrence(*module, "seed " + std::to_string(seed), counts);
    counts.multiIteration += counts.lastDistance > 1;
  }
  EXPECT_GT(counts.multiIteration, 30u);
  waveasm::test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        compareRecurrence(module, name, counts);
      });
  EXPECT_GT(counts.loops, 200u);
  EXPECT_GT(counts.bound, 100u);
  EXPECT_GT(counts.maxArgs, 40u);
  EXPECT_GT(counts.memoryBound, 10u);
}

namespace {
/// isScheduleArtifact as LoopBounds.h defines it, asked of the op itself
/// (the function reads the class's part from a per-thread table).
bool isArtifactByDefinition(Operation *op) {
  if (isa<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT, S_WAITCNT_EXPCNT,
          S_NOP>(op))
    return true;
  if (!isa<V_MOV_B32, V_MOV_B64, S_MOV_B32, S_MOV_B64>(op) ||
      op->getNumOperands() != 1 || op->getNumResults() != 1)
    return false;
  std::optional<RegClass> from = getRegClass(op->getOperand(0).getType());
  return from && from == getRegClass(op->getResult(0).getType());
}
} // namespace

// Waits, nops and same-class moves are artifacts; a move of an immediate
// or an SGPR->VGPR broadcast of the same class makes a value. The answer
// per class is remembered, the move's own operand decides: every op of
// every input and pipelined example as the definition says.
TEST(LoopBounds, ScheduleArtifactsAreWaitsNopsAndSameClassMoves) {
  waveasm::test::ParsedAnalysisProgram p(R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg loc("imm")
  %s2 = waveasm.s_mov_b32 %s : !waveasm.sreg -> !waveasm.sreg loc("copy")
  %v = waveasm.v_mov_b32 %s2 : !waveasm.sreg -> !waveasm.vreg loc("broadcast")
  %v2 = waveasm.v_mov_b32 %v : !waveasm.vreg -> !waveasm.vreg loc("vcopy")
  %a = waveasm.v_add_u32 %v2, %v : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg loc("add")
  waveasm.s_nop 2 loc("nop")
  waveasm.s_waitcnt_lgkmcnt 0 loc("wait")
  waveasm.s_endpgm
  )");
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  EXPECT_FALSE(isScheduleArtifact(p.op("imm")));
  EXPECT_TRUE(isScheduleArtifact(p.op("copy")));
  EXPECT_FALSE(isScheduleArtifact(p.op("broadcast")));
  EXPECT_TRUE(isScheduleArtifact(p.op("vcopy")));
  EXPECT_FALSE(isScheduleArtifact(p.op("add")));
  EXPECT_TRUE(isScheduleArtifact(p.op("nop")));
  EXPECT_TRUE(isScheduleArtifact(p.op("wait")));
  unsigned ops = 0, artifacts = 0;
  waveasm::test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        module->walk([&](Operation *op) {
          bool expected = isArtifactByDefinition(op);
          EXPECT_EQ(isScheduleArtifact(op), expected)
              << name << ": " << op->getName().getStringRef().str();
          ++ops;
          artifacts += expected;
        });
      });
  EXPECT_GT(ops, 10000u);
  EXPECT_GT(artifacts, 500u);
}

// The cycle model's one walk for both usages of a loop (computeLoopUsages)
// gives what computeLoopUsage gives for each, on every loop (nested loops
// and ifs among them) of every input and pipelined example.
TEST(LoopBounds, BothUsagesFromOneWalkAreEachUsage) {
  unsigned loops = 0, withArtifacts = 0;
  waveasm::test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        for (auto program : module.getOps<ProgramOp>()) {
          ProgramIndex index(program);
          std::vector<OpFacts> facts =
              computeOpFacts(index, TargetModel::get(program.getTargetKind()));
          auto trips = [&](unsigned loopIdx) {
            return getTripCount(cast<LoopOp>(index.getOp(loopIdx))).count;
          };
          for (unsigned loopIdx : index.getLoops()) {
            LoopUsages both = computeLoopUsages(index, facts, loopIdx, trips);
            UnitUsage every = computeLoopUsage(index, facts, loopIdx, trips);
            UnitUsage needed = computeLoopUsage(index, facts, loopIdx, trips,
                                                /*mustExecuteOnly=*/true);
            EXPECT_EQ(both.every.unitCycles, every.unitCycles) << name;
            EXPECT_EQ(both.every.issueCycles, every.issueCycles) << name;
            EXPECT_EQ(both.mustExecute.unitCycles, needed.unitCycles) << name;
            EXPECT_EQ(both.mustExecute.issueCycles, needed.issueCycles) << name;
            ++loops;
            withArtifacts += every.issueCycles != needed.issueCycles;
          }
        }
      });
  EXPECT_GT(loops, 200u);
  EXPECT_GT(withArtifacts, 10u);
}

// An if in the body whose then region holds a nop: per unit the cheaper
// region counts, of every op and of the ops a schedule must execute each
// (then: add and s_nop 3, 5 issue slots, 1 without the nop; else: two
// adds, 2). The must-execute figure takes the then region's 1, not the 2
// the cheaper region of every op would give.
TEST(LoopBounds, BothUsagesTakeTheCheaperRegionEach) {
  Modeled m(withPrelude((llvm::Twine(R"(
  %i_end, %x_end = waveasm.loop (%i = %i0, %x = %p0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %c = waveasm.s_cmp_lt_u32 %i, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    %r = waveasm.if %c : !waveasm.scc -> !waveasm.vreg {
      %t = waveasm.v_add_u32 %x, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
      waveasm.s_nop 3
      waveasm.yield %t : !waveasm.vreg
    } else {
      %e0 = waveasm.v_add_u32 %x, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
      %e1 = waveasm.v_add_u32 %e0, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
      waveasm.yield %e1 : !waveasm.vreg
    }
)") + kCount + R"(
    waveasm.condition %more : !waveasm.scc iter_args(%i_n, %r) : !waveasm.sreg, !waveasm.vreg
  } {trip_count = 10 : i64}
)")
                            .str()));
  ASSERT_TRUE(m.model) << m.p.t.diagnostics;
  const ProgramIndex &index = *m.index;
  unsigned loopIdx = index.getLoops().front();
  auto trips = [](unsigned) -> int64_t { return 10; };
  std::vector<OpFacts> facts = computeOpFacts(index, m.model->getTarget());
  LoopUsages both = computeLoopUsages(index, facts, loopIdx, trips);
  UnitUsage every = computeLoopUsage(index, facts, loopIdx, trips);
  UnitUsage needed = computeLoopUsage(index, facts, loopIdx, trips,
                                      /*mustExecuteOnly=*/true);
  // s_cmp, the if's branch, s_add, s_cmp, the condition's branch: 5 more.
  EXPECT_EQ(every.issueCycles, 5 + 2);
  EXPECT_EQ(needed.issueCycles, 5 + 1);
  EXPECT_EQ(both.every.issueCycles, every.issueCycles);
  EXPECT_EQ(both.mustExecute.issueCycles, needed.issueCycles);
  EXPECT_EQ(both.every.unitCycles, every.unitCycles);
  EXPECT_EQ(both.mustExecute.unitCycles, needed.unitCycles);
  EXPECT_EQ(m.loop().resourceBoundCycles, needed.getLowerBound());
  EXPECT_EQ(m.loop().issueCycles, every.issueCycles);
}
