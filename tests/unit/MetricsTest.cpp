//===- MetricsTest.cpp - program metrics, JSON and comparison -------------===//

#include "AnalysisTestUtils.h"

#include "analysis/Metrics.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

ProgramMetrics sample() {
  ProgramMetrics m;
  m.name = "gemm";
  m.peak_vgpr = 64;
  m.peak_sgpr = 20;
  m.peak_agpr = 0;
  m.nops_inserted = 2;
  m.waitcnts_inserted = 5;
  m.total_instructions = 100;
  m.est_cycles = 1000;
  m.lower_bound_cycles = 420;
  m.bound_kind = "critical path";
  m.occupancy = 8;
  LoopMetrics loop;
  loop.est_cycles_per_iter = 34;
  loop.steady_iterations = 3;
  loop.trip_count = 32;
  loop.trip_count_source = "inferred";
  loop.lower_bound_cycles = 32;
  loop.bound_kind = "MFMA";
  loop.resource_bound_cycles = 32;
  loop.busiest_unit = "MFMA";
  loop.recurrence_bound_cycles = 8;
  loop.latency_limited_cycles = 26;
  loop.prefetch_distance = 1;
  loop.max_prefetch_distance = 3;
  loop.critical_path = 40;
  m.loops.push_back(loop);
  return m;
}

std::vector<std::string> keysOf(const llvm::json::Object &object) {
  std::vector<std::string> keys;
  for (const auto &entry : object)
    keys.push_back(entry.first.str());
  llvm::sort(keys);
  return keys;
}

} // namespace

TEST(Metrics, JSONKeyNames) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeMetricsJSON(os, {sample()});
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  const llvm::json::Object *root = parsed->getAsObject();
  ASSERT_TRUE(root);
  EXPECT_EQ(keysOf(*root), std::vector<std::string>{"programs"});
  const llvm::json::Array *programs = root->getArray("programs");
  ASSERT_TRUE(programs && programs->size() == 1);
  const llvm::json::Object *program = (*programs)[0].getAsObject();
  ASSERT_TRUE(program);
  std::vector<std::string> expected = {"bound_kind",
                                       "est_cycles",
                                       "loops",
                                       "lower_bound_cycles",
                                       "name",
                                       "nops_inserted",
                                       "occupancy",
                                       "occupancy_limit",
                                       "peak_agpr",
                                       "peak_sgpr",
                                       "peak_vgpr",
                                       "total_instructions",
                                       "waitcnts_inserted"};
  EXPECT_EQ(keysOf(*program), expected);
  EXPECT_EQ(program->getString("name"), "gemm");
  EXPECT_EQ(program->getInteger("peak_vgpr"), 64);
  EXPECT_EQ(program->getInteger("waitcnts_inserted"), 5);
  const llvm::json::Object *loop =
      (*program->getArray("loops"))[0].getAsObject();
  ASSERT_TRUE(loop);
  std::vector<std::string> loopKeys = {"bound_kind",
                                       "busiest_unit",
                                       "coaccess_clusters",
                                       "coaccess_cost",
                                       "coaccess_modularity",
                                       "critical_path",
                                       "est_cycles_per_iter",
                                       "latency_limited_cycles",
                                       "lower_bound_cycles",
                                       "max_prefetch_distance",
                                       "memory_recurrence_bound_cycles",
                                       "prefetch_distance",
                                       "recurrence_bound_cycles",
                                       "resource_bound_cycles",
                                       "steady_iterations",
                                       "trip_count",
                                       "trip_count_source"};
  EXPECT_EQ(keysOf(*loop), loopKeys);
  EXPECT_EQ(loop->getString("busiest_unit"), "MFMA");
  EXPECT_EQ(loop->getString("bound_kind"), "MFMA");
  EXPECT_EQ(loop->getInteger("est_cycles_per_iter"), 34);
  EXPECT_EQ(loop->getInteger("trip_count"), 32);
  EXPECT_EQ(loop->getString("trip_count_source"), "inferred");
}

TEST(Metrics, JSONRoundTrip) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeMetricsJSON(os, {sample(), ProgramMetrics()}, /*pretty=*/false);
  llvm::Expected<std::vector<ProgramMetrics>> back = parseMetricsJSON(text);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0], sample());
  EXPECT_EQ((*back)[1], ProgramMetrics());
  EXPECT_FALSE(static_cast<bool>(parseMetricsJSON(R"({"programs": [{}]})")));
}

TEST(Metrics, IsBetterDefaultOrder) {
  ProgramMetrics a = sample(), b = sample();
  EXPECT_FALSE(isBetter(a, b)); // equal
  EXPECT_EQ(compareMetrics(a, b, getDefaultMetricOrder()), 0);
  // Fewer VGPRs wins even with more waits, nops and instructions.
  a.peak_vgpr = 60;
  a.waitcnts_inserted = 9;
  a.nops_inserted = 9;
  a.total_instructions = 200;
  EXPECT_TRUE(isBetter(a, b));
  EXPECT_FALSE(isBetter(b, a));
  // Same VGPRs: waits decide before nops.
  a = sample();
  a.waitcnts_inserted = 4;
  a.nops_inserted = 7;
  EXPECT_TRUE(isBetter(a, b));
  // Same waits: nops decide before instructions.
  a = sample();
  a.nops_inserted = 1;
  a.total_instructions = 150;
  EXPECT_TRUE(isBetter(a, b));
  // Then instructions; est_cycles and SGPRs are not in the default order.
  a = sample();
  a.total_instructions = 99;
  a.est_cycles = 5000;
  a.peak_sgpr = 90;
  EXPECT_TRUE(isBetter(a, b));
  a = sample();
  a.est_cycles = 10;
  EXPECT_FALSE(isBetter(a, b));
  EXPECT_FALSE(isBetter(b, a));
}

TEST(Metrics, IsBetterCustomOrder) {
  ProgramMetrics a = sample(), b = sample();
  a.est_cycles = 900;
  a.peak_vgpr = 80;
  // Cycles first: a is better despite more VGPRs.
  std::vector<MetricKey> order = {MetricKey::EstCycles, MetricKey::PeakVGPR};
  EXPECT_TRUE(isBetter(a, b, order));
  EXPECT_FALSE(isBetter(a, b));
  // Occupancy: more is better.
  a = sample();
  a.occupancy = 7;
  EXPECT_TRUE(isBetter(b, a, {MetricKey::Occupancy}));
  // Key names are the JSON names.
  EXPECT_EQ(parseMetricKey("est_cycles"), MetricKey::EstCycles);
  EXPECT_EQ(parseMetricKey("waitcnts_inserted"), MetricKey::WaitcntsInserted);
  EXPECT_FALSE(parseMetricKey("cycles").has_value());
  for (MetricKey key : getDefaultMetricOrder())
    EXPECT_EQ(parseMetricKey(stringifyMetricKey(key)), key);
  ASSERT_EQ(getDefaultMetricOrder().size(), 4u);
  EXPECT_EQ(stringifyMetricKey(getDefaultMetricOrder()[0]), "peak_vgpr");
  EXPECT_EQ(stringifyMetricKey(getDefaultMetricOrder()[1]),
            "waitcnts_inserted");
  EXPECT_EQ(stringifyMetricKey(getDefaultMetricOrder()[2]), "nops_inserted");
  EXPECT_EQ(stringifyMetricKey(getDefaultMetricOrder()[3]),
            "total_instructions");
}

const char *kAllocated = R"(
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.pvreg<20, 4>
  %acc = waveasm.v_accvgpr_read_b32 %p : !waveasm.pareg<2, 2> -> !waveasm.pvreg<1>
  waveasm.buffer_store_dwordx4 %a, %srd, %c0 : !waveasm.pvreg<20, 4>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_endpgm
)";

TEST(Metrics, PhysicalPeaks) {
  // The AGPR operand needs a definition: a precolored AGPR.
  std::string body = std::string("  %p = waveasm.precolored.areg 2, 2 : "
                                 "!waveasm.pareg<2, 2>\n") +
                     kAllocated;
  ParsedAnalysisProgram p(body);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  // VGPRs: v[20:23] -> 24; SGPRs: s[4:7] -> 8; AGPRs: a[2:3] -> 4.
  PeakRegisters peaks = computePhysicalPeaks(p.program);
  EXPECT_EQ(peaks.vgpr, 24);
  EXPECT_EQ(peaks.sgpr, 8);
  EXPECT_EQ(peaks.agpr, 4);
  p.program->setAttr("min_sgprs",
                     IntegerAttr::get(IntegerType::get(&p.t.ctx, 64), 12));
  EXPECT_EQ(computePhysicalPeaks(p.program).sgpr, 12);
}

// computePhysicalPeaks decodes each register type once (a small table of
// the types seen): the peaks must be every defined value's, whatever the
// table forgets. 300 precolored values of 150 types, each type twice and
// far apart (the table has 64 slots), the highest VGPR first and the
// highest SGPR last, after every slot was taken.
TEST(Metrics, PhysicalPeaksOfManyTypes) {
  std::string body;
  auto add = [&](unsigned k, unsigned index, unsigned size, bool sgpr) {
    std::string range = std::to_string(index) + ", " + std::to_string(size);
    body += sgpr ? "  %s" + std::to_string(k) + " = waveasm.precolored.sreg " +
                       range + " : !waveasm.psreg<" + range + ">\n"
                 : "  %v" + std::to_string(k) + " = waveasm.precolored.vreg " +
                       range + " : !waveasm.pvreg<" + range + ">\n";
  };
  unsigned k = 0;
  add(k++, 200, 2, false);
  for (unsigned round = 0; round < 2; ++round)
    for (unsigned i = 0; i < 150; ++i)
      add(k++, i % 2 ? i / 2 : i, 1 + i % 4, i % 2);
  add(k++, 90, 4, true);
  ParsedAnalysisProgram p(body);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  PeakRegisters peaks = computePhysicalPeaks(p.program);
  EXPECT_EQ(peaks.vgpr, 202);
  // The loop's SGPRs end at s76 (s[73:76]); the last one, s[90:93], at 94.
  EXPECT_EQ(peaks.sgpr, 94);
  EXPECT_EQ(peaks.agpr, 0);
}

TEST(Metrics, PhysicalPeakMinimums) {
  ParsedAnalysisProgram p(R"(
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.pvreg<3>
  )");
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  // v3 -> 4, raised to 16 by the always-reserved scratch v15; no SGPR: 2.
  EXPECT_EQ(computePhysicalPeaks(p.program).vgpr, 16);
  EXPECT_EQ(computePhysicalPeaks(p.program, false).vgpr, 4);
  EXPECT_EQ(computePhysicalPeaks(p.program).sgpr, 2);
  EXPECT_EQ(computePhysicalPeaks(p.program).agpr, 0);
}

TEST(Metrics, ComputeProgramMetrics) {
  ParsedAnalysisProgram p(R"(
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c4 = waveasm.constant 4 : !waveasm.imm<4>
    %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
    %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %i_end, %acc_end = waveasm.loop (%i = %i0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>) {
      %m = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
      %i_n, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %i_n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc iter_args(%i_n, %m) : !waveasm.sreg, !waveasm.vreg<4, 4>
    }
  )");
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  PipelineCounts counts;
  counts.peaks = {100, 20, 0};
  counts.nops_inserted = 1;
  counts.waitcnts_inserted = 2;
  counts.total_instructions = countInstructions(p.program);
  ProgramMetrics m = computeProgramMetrics(
      p.program, TargetModel::get(TargetKind::gfx942), counts);
  EXPECT_EQ(m.name, "k");
  // Issued: 3 movs, MFMA, s_add, s_cmp, condition.
  EXPECT_EQ(m.total_instructions, 7);
  EXPECT_EQ(m.peak_vgpr, 100);
  EXPECT_EQ(m.nops_inserted, 1);
  EXPECT_EQ(m.waitcnts_inserted, 2);
  // 100 VGPRs -> 104 (granule 8) -> 4 waves; 20 SGPRs -> 32 -> 800/32 = 25.
  EXPECT_EQ(m.occupancy, 4);
  // Timing as in CycleModelTest's loop-carried chain with 4 trips:
  // 7 + 3 * 4 = 19.
  EXPECT_EQ(m.est_cycles, 19);
  ASSERT_EQ(m.loops.size(), 1u);
  EXPECT_EQ(m.loops[0].est_cycles_per_iter, 4);
  EXPECT_EQ(m.loops[0].lower_bound_cycles, 4);
  EXPECT_EQ(m.loops[0].busiest_unit, "MFMA");
  EXPECT_EQ(m.loops[0].critical_path, 9);
}
