//===- StepMergeTest.cpp - the merge of a pipelined step's stages ---------===//
//
// pipeline/opt/StepMerge.h on hand-made streams of a gfx942 program: the
// issue clock (MFMA passes, LDS drain), the cover rule (MFMAs of one stage
// between another stage's LDS reads, as long as more passes are left than
// the drain after the last one), operands not ready keep an MFMA out of
// the cover, and the barrier waits out the drain.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "pipeline/opt/StepMerge.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::test;

namespace {

// Ops 0-5: LDS reads; 6: s_barrier; 7-14: MFMAs (4 passes each on gfx942,
// independent of the reads).
const char *kOps = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %a = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %c = waveasm.precolored.vreg 4, 4 : !waveasm.pvreg<4, 4>
  %r0 = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %r1 = waveasm.ds_read_b64 %tid {offset = 8 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %r2 = waveasm.ds_read_b64 %tid {offset = 16 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %r3 = waveasm.ds_read_b64 %tid {offset = 24 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %r4 = waveasm.ds_read_b64 %tid {offset = 32 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %r5 = waveasm.ds_read_b64 %tid {offset = 40 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  waveasm.s_barrier
  %m0 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %m1 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %m2 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %m3 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %m4 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %m5 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %m6 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %m7 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.s_endpgm
)";

struct Fixture {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  SmallVector<Operation *> ops;
  SmallVector<SmallVector<Operation *>> streams;
  const TargetModel *target = &TargetModel::get(TargetKind::gfx942);

  Fixture() {
    module = t.parseModule(program(kOps));
    if (!module)
      return;
    module->walk([&](Operation *op) {
      if (isa<DS_READ_B64, S_BARRIER>(op) || target->getMFMAPasses(op))
        ops.push_back(op);
    });
    // Stream 0: the reads and the barrier; stream 1: the MFMAs.
    streams.emplace_back(ops.begin(), ops.begin() + 7);
    streams.emplace_back(ops.begin() + 7, ops.end());
  }
  SmallVector<int> positions(ArrayRef<Operation *> order) const {
    SmallVector<int> result;
    for (Operation *op : order)
      result.push_back(llvm::find(ops, op) - ops.begin());
    return result;
  }
};

TEST(StepClock, MfmaPipeAndLdsDrain) {
  Fixture f;
  ASSERT_TRUE(f.module) << f.t.diagnostics;
  ASSERT_EQ(f.ops.size(), 15u);
  StepClock clock(f.target);
  EXPECT_EQ(clock.passes(f.ops[7]), 4);
  EXPECT_EQ(clock.passes(f.ops[0]), 0);
  EXPECT_FALSE(clock.ldsStarted());
  EXPECT_TRUE(clock.drained());
  EXPECT_EQ(clock.issue(f.ops[0]), 0); // a read at 0
  EXPECT_TRUE(clock.ldsStarted());
  EXPECT_FALSE(clock.drained());
  EXPECT_EQ(clock.issue(f.ops[7]), 1); // an MFMA at 1, pipe busy until 5
  EXPECT_FALSE(clock.pipeFree());
  EXPECT_EQ(clock.issue(f.ops[8]), 5); // the next waits for the pipe
  EXPECT_EQ(clock.now(), 6);
  EXPECT_EQ(clock.issue(f.ops[1], /*ready=*/10), 10); // operands at 10
  // The drain is the LDS latency after the last access (20 slots on
  // gfx942): done at 30, counting the MFMA pipe as cover.
  EXPECT_EQ(clock.drain(), f.target->getLatency(LatencyClass::LDSLoad));
  while (clock.now() < 10 + clock.drain() - 1)
    clock.issue(f.ops[6]);
  EXPECT_FALSE(clock.drained());
  clock.issue(f.ops[6]);
  EXPECT_TRUE(clock.drained());

  // A single-wave workgroup's barrier waits for no LDS access: the same
  // MFMA passes, no drain after a read.
  StepClock oneWave(f.target, /*barrierDrains=*/false);
  EXPECT_EQ(oneWave.drain(), 0);
  EXPECT_EQ(oneWave.passes(f.ops[7]), 4);
  oneWave.issue(f.ops[0]);
  EXPECT_TRUE(oneWave.ldsStarted());
  EXPECT_TRUE(oneWave.drained());

  // Without a target model: no passes, nothing to drain.
  StepClock none(nullptr);
  EXPECT_EQ(none.passes(f.ops[7]), 0);
  none.issue(f.ops[0]);
  EXPECT_TRUE(none.drained());
}

// A bank-conflicting read holds the LDS pipe for its extra slots: the
// reads after it start later and the drain ends at the latest completion
// (the cycle model's LDS pipe), not the latency after the last issue.
TEST(StepClock, BankConflictsLengthenTheDrain) {
  Fixture f;
  ASSERT_TRUE(f.module) << f.t.diagnostics;
  int64_t latency = f.target->getLatency(LatencyClass::LDSLoad);
  LdsExtraSlots extra;
  extra[f.ops[0]] = 6; // a 6-slot conflict
  extra[f.ops[1]] = 2;
  StepClock clock(f.target, /*barrierDrains=*/true, &extra);
  EXPECT_EQ(clock.issue(f.ops[0]), 0); // pipe busy 0-6, done at 26
  EXPECT_EQ(clock.issue(f.ops[1]), 1); // issues at 1, starts 7, done 29
  EXPECT_EQ(clock.issue(f.ops[2]), 2); // starts 10, done 30
  EXPECT_EQ(clock.now(), 3);
  while (clock.now() < 10 + latency - 1)
    clock.issue(f.ops[6]);
  EXPECT_FALSE(clock.drained()); // 22 + 20 would have been done
  clock.issue(f.ops[6]);
  EXPECT_TRUE(clock.drained());

  // Without the conflicts: the latency after the last read (at 2).
  StepClock plain(f.target);
  for (int i = 0; i < 3; ++i)
    plain.issue(f.ops[i]);
  while (plain.now() < 2 + latency)
    plain.issue(f.ops[6]);
  EXPECT_TRUE(plain.drained());

  // A single-wave workgroup drains nothing, conflicts or not.
  StepClock oneWave(f.target, /*barrierDrains=*/false, &extra);
  oneWave.issue(f.ops[0]);
  oneWave.issue(f.ops[1]);
  EXPECT_TRUE(oneWave.drained());
}

// Reads at 0, 2-4, 6-7 with MFMAs at 1 and 5 (32 passes, then 24, both
// more than the 20 of the drain); after the reads the barrier waits while
// the MFMAs fill the drain (29 >= 7 + 20 after the seventh), then the last.
TEST(StepMerger, MfmasCoverTheLdsReads) {
  Fixture f;
  ASSERT_TRUE(f.module) << f.t.diagnostics;
  ASSERT_EQ(f.target->getLatency(LatencyClass::LDSLoad), 20);
  StepMerger merger(f.streams, f.target);
  SmallVector<size_t> ends{7, 8};
  merger.merge(ends, ends);
  EXPECT_EQ(
      f.positions(merger.getOrder()),
      (SmallVector<int>{0, 7, 1, 2, 3, 8, 4, 5, 9, 10, 11, 12, 13, 6, 14}));
  EXPECT_EQ(merger.getIssueSlots().lookup(f.ops[8]), 5);
}

// Without a drain (a single-wave workgroup): the MFMAs cover the reads
// whenever the pipe is free, as above, but the barrier no longer waits for
// a drain, so it follows the reads and the MFMAs left come after it.
TEST(StepMerger, NoDrainInASingleWave) {
  Fixture f;
  ASSERT_TRUE(f.module) << f.t.diagnostics;
  StepMerger merger(f.streams, f.target, nullptr, /*barrierDrains=*/false);
  SmallVector<size_t> ends{7, 8};
  merger.merge(ends, ends);
  EXPECT_EQ(
      f.positions(merger.getOrder()),
      (SmallVector<int>{0, 7, 1, 2, 3, 8, 4, 5, 6, 9, 10, 11, 12, 13, 14}));
  // Five MFMAs (20 passes, no more than a drain would be) still go
  // between the reads: there is no drain for them to fill.
  f.streams[1].resize(5);
  StepMerger five(f.streams, f.target, nullptr, /*barrierDrains=*/false);
  five.merge(SmallVector<size_t>{6, 0}, SmallVector<size_t>{6, 5});
  EXPECT_EQ(f.positions(five.getOrder()),
            (SmallVector<int>{0, 7, 1, 2, 3, 8, 4, 5}));
}

// A step bound by the MFMA pipe: the cover rule takes an MFMA before the
// first LDS access too (then the pipe is busy: none more after the read
// issued by hand). Off (the default), none before the first read.
TEST(StepMerger, CoverBeforeLdsWhenMfmaBound) {
  Fixture f;
  ASSERT_TRUE(f.module) << f.t.diagnostics;
  SmallVector<size_t> ends{7, 8};
  StepMerger off(f.streams, f.target);
  off.cover(ends, ends);
  EXPECT_TRUE(off.getOrder().empty());
  StepMerger on(f.streams, f.target);
  on.setCoverBeforeLds(true);
  on.cover(ends, ends);
  EXPECT_EQ(f.positions(on.getOrder()), (SmallVector<int>{7}));
  on.issue(f.ops[0]); // slot 1: the pipe is busy until 4
  on.cover(ends, ends);
  EXPECT_EQ(f.positions(on.getOrder()), (SmallVector<int>{7, 0}));
}

// The same streams with the MFMAs' operands ready only at slot 100 (the
// fragments a previous step's reads return): no cover, the reads first.
TEST(StepMerger, MfmaWaitsForItsOperandsBeforeCovering) {
  Fixture f;
  ASSERT_TRUE(f.module) << f.t.diagnostics;
  auto late = [&](Operation *op) -> int64_t {
    return f.target->getMFMAPasses(op) ? 100 : 0;
  };
  StepMerger merger(f.streams, f.target, late);
  SmallVector<size_t> ends{7, 8};
  merger.merge(ends, ends);
  SmallVector<int> order = f.positions(merger.getOrder());
  SmallVector<int> reads(order.begin(), order.begin() + 6);
  EXPECT_EQ(reads, (SmallVector<int>{0, 1, 2, 3, 4, 5}));
}

// Cover only up to coverEnds, normal picks only up to ends: with the
// reads' stream cut before the barrier and the MFMAs allowed as cover
// only, the merge stops once the reads are out, two MFMAs in.
TEST(StepMerger, CoverEndsBoundTheMfmasTaken) {
  Fixture f;
  ASSERT_TRUE(f.module) << f.t.diagnostics;
  StepMerger merger(f.streams, f.target);
  merger.merge(SmallVector<size_t>{6, 0}, SmallVector<size_t>{6, 8});
  EXPECT_EQ(f.positions(merger.getOrder()),
            (SmallVector<int>{0, 7, 1, 2, 3, 8, 4, 5}));
  EXPECT_EQ(merger.head(1), 2u);
}

// Five MFMAs (20 passes) do not go between the reads: the drain after
// the last one takes them all, and the first starts it (the pipe should
// not idle while the drain runs). With one op known to follow the reads
// anyway (`after`), 21 slots are left to cover and one MFMA goes in among
// the reads.
TEST(StepMerger, OpsAfterTheLdsTrafficCountTowardsCover) {
  Fixture f;
  ASSERT_TRUE(f.module) << f.t.diagnostics;
  f.streams[1].resize(5);
  SmallVector<size_t> ends{6, 0}, coverEnds{6, 5};
  StepMerger none(f.streams, f.target);
  none.merge(ends, coverEnds);
  EXPECT_EQ(f.positions(none.getOrder()),
            (SmallVector<int>{0, 1, 2, 3, 4, 5, 7}));
  StepMerger one(f.streams, f.target);
  one.merge(ends, coverEnds, /*after=*/1);
  EXPECT_EQ(f.positions(one.getOrder()),
            (SmallVector<int>{0, 7, 1, 2, 3, 4, 5, 8}));
}

// What the cover rule takes along in front of an MFMA: an extract (no
// slot), a priority change; not an LDS read, not another MFMA.
TEST(StepMerger, LeadInsOfAnMfma) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %q = waveasm.precolored.vreg 4, 4 : !waveasm.pvreg<4, 4>
  %e = waveasm.extract %q[0] : !waveasm.pvreg<4, 4> -> !waveasm.vreg
  waveasm.s_setprio 1
  %r = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(module) << t.diagnostics;
  SmallVector<Operation *> ops;
  module->walk([&](Operation *op) {
    if (isa<ExtractOp, S_SETPRIO, DS_READ_B64>(op))
      ops.push_back(op);
  });
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_TRUE(leadsIntoMfma(ops[0]));
  EXPECT_TRUE(leadsIntoMfma(ops[1]));
  EXPECT_FALSE(leadsIntoMfma(ops[2]));
  Fixture f;
  ASSERT_TRUE(f.module) << f.t.diagnostics;
  EXPECT_FALSE(leadsIntoMfma(f.ops[7]));
}

// While the MFMA pipe is busy (4 passes a gfx942 16x16x16 MFMA), the
// nearest rule issues another stage's op that need not wait before the
// next MFMA, and the barrier after them: streams of four MFMAs and of
// three SALU ops and a barrier (no memory access in either, so neither is
// nearer) merge as MFMA, SALU, SALU, SALU, MFMA, ... instead of the MFMAs
// back to back. Ops the clock is told take no slot (FreeOps: what the
// unrolled kernel drops) fill none of the pipe's passes: the MFMAs then
// go back to back after them.
TEST(StepMerger, OtherStagesFillTheMfmaPipe) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(program(R"(
  %a = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %c = waveasm.precolored.vreg 4, 4 : !waveasm.pvreg<4, 4>
  %s = waveasm.precolored.sreg 4 : !waveasm.psreg<4>
  %one = waveasm.constant 1 : !waveasm.imm<1>
  %m0 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %m1 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %m2 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %m3 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.vreg<4, 4>
  %d0:2 = waveasm.s_add_u32 %s, %one : !waveasm.psreg<4>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %d1:2 = waveasm.s_add_u32 %d0#0, %one : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %d2:2 = waveasm.s_add_u32 %d1#0, %one : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_barrier
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(module) << t.diagnostics;
  const TargetModel *target = &TargetModel::get(TargetKind::gfx942);
  SmallVector<Operation *> ops;
  module->walk([&](Operation *op) {
    if (isa<S_ADD_U32, S_BARRIER>(op) || target->getMFMAPasses(op))
      ops.push_back(op);
  });
  ASSERT_EQ(ops.size(), 8u);
  // Stream 0: the MFMAs (the later stage); stream 1: the SALU, the barrier.
  SmallVector<SmallVector<Operation *>> streams;
  streams.emplace_back(ops.begin(), ops.begin() + 4);
  streams.emplace_back(ops.begin() + 4, ops.end());
  auto positions = [&](ArrayRef<Operation *> order) {
    SmallVector<int> result;
    for (Operation *op : order)
      result.push_back(llvm::find(ops, op) - ops.begin());
    return result;
  };
  SmallVector<size_t> ends{4, 4};
  StepMerger merger(streams, target);
  merger.merge(ends, ends);
  EXPECT_EQ(positions(merger.getOrder()),
            (SmallVector<int>{0, 4, 5, 6, 1, 2, 3, 7}));
  EXPECT_EQ(merger.getIssueSlots().lookup(ops[1]), 4);
  EXPECT_EQ(merger.getIssueSlots().lookup(ops[3]), 12);

  FreeOps dropped{ops[4], ops[5], ops[6]};
  StepMerger free(streams, target, nullptr, true, nullptr, &dropped);
  free.merge(ends, ends);
  EXPECT_EQ(positions(free.getOrder()),
            (SmallVector<int>{0, 4, 5, 6, 1, 2, 3, 7}));
  // The three SALU take no slot: the second MFMA still waits for the pipe
  // at 4, and nothing is left to fill the passes of the next ones.
  EXPECT_EQ(free.getIssueSlots().lookup(ops[4]), 1);
  EXPECT_EQ(free.getIssueSlots().lookup(ops[6]), 1);
  EXPECT_EQ(free.getClock().now(), 14);
}

} // namespace
