//===- AnalysisExamplesTest.cpp - analyses on real kernels and at scale ---===//
//
// Invariants that must hold on every kernel in examples/, and the cost of
// Liveness + CycleModel on generated programs (the language server runs them
// on every edit).
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "analysis/Annotations.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <ctime>
#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

void checkInvariants(ProgramOp program, const std::string &what) {
  ProgramAnnotations a(program);
  const ProgramIndex &index = a.getIndex();
  const Liveness &l = a.getLiveness();
  std::array<int32_t, 3> maxima = {0, 0, 0};
  for (unsigned p = 0; p < index.getNumOps(); ++p) {
    RegCounts fromValues;
    for (const LiveValue &v : l.getLiveValuesAt(p))
      fromValues[v.regClass] += v.size;
    EXPECT_EQ(fromValues, l.getPressure(p)) << what << " op " << p;
    for (unsigned c = 0; c < 3; ++c) {
      EXPECT_LE(l.getLiveAfter(p).regs[c], l.getPressure(p).regs[c]);
      maxima[c] = std::max(maxima[c], l.getPressure(p).regs[c]);
    }
    const InstAnnotation *ann = a.lookup(index.getOp(p));
    ASSERT_TRUE(ann);
    EXPECT_LE(ann->issueCycle + ann->issueCycles, a.getTotalCycles());
    EXPECT_GE(ann->stall, 0);
    if (ann->inLoop)
      EXPECT_GE(ann->steadyStall, 0);
  }
  for (unsigned c = 0; c < 3; ++c)
    EXPECT_EQ(a.getPeak(static_cast<RegClass>(c)).regs, maxima[c]) << what;
  for (const LoopTiming &loop : a.getLoops()) {
    EXPECT_GT(loop.steadyStateCycles, 0) << what;
    // The issue slots of one iteration are a lower bound of its length.
    EXPECT_GE(loop.steadyStateCycles, loop.issueCycles) << what;
    // The bound leaves out what another schedule would not need, and the
    // model's steady state never beats it.
    int64_t everyOp = loop.issueCycles;
    for (int64_t cycles : loop.unitCycles)
      everyOp = std::max(everyOp, cycles);
    EXPECT_LE(loop.resourceBoundCycles, everyOp) << what;
    EXPECT_EQ(loop.lowerBoundCycles,
              std::max({loop.resourceBoundCycles, loop.recurrenceBoundCycles,
                        loop.memoryRecurrenceBoundCycles}))
        << what;
    EXPECT_GE(loop.steadyStateCycles, loop.lowerBoundCycles) << what;
  }
  EXPECT_GT(a.getOccupancy(), 0) << what;
}

} // namespace

TEST(AnalysisExamples, InvariantsOnEveryExample) {
  unsigned files = 0;
  for (const std::string &path : waveasm::test::exampleKernelPaths()) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(static_cast<bool>(buffer)) << path;
    auto p = ParsedAnalysisProgram::fromFile((*buffer)->getBuffer());
    if (!p->module)
      continue; // deliberately invalid examples
    ++files;
    for (ProgramOp program : p->module->getOps<ProgramOp>())
      checkInvariants(program, path);
  }
  EXPECT_GT(files, 0u);
}

TEST(AnalysisExamples, GemmLoopShape) {
  // The shape of the shared gemm_loop.mlir: prefetch through iter_args,
  // clustered LDS reads feeding MFMAs, no waits written.
  ParsedAnalysisProgram p(R"(
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %kmax = waveasm.constant 32 : !waveasm.imm<32>
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %first = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %k_end, %cur_end, %acc_end = waveasm.loop (%k = %k0, %cur = %first, %acc = %z)
        : (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) {
      waveasm.ds_write_b128 %cur, %tid : !waveasm.vreg<4, 4>, !waveasm.pvreg<0> loc("write")
      waveasm.s_barrier
      %next = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
      %a = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
      %m = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4> loc("mfma")
      %k_n, %scc = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %k_n, %kmax : !waveasm.sreg, !waveasm.imm<32> -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc iter_args(%k_n, %next, %m) : !waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>
    }
    waveasm.s_endpgm
  )");
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  ProgramAnnotations a(p.program);
  checkInvariants(p.program, "gemm shape");
  ASSERT_EQ(a.getLoops().size(), 1u);
  EXPECT_EQ(a.getLoops()[0].tripCount.count, 32);
  // No waits: the ds_write of the prefetched tile and the MFMA's LDS
  // operand are uncovered.
  bool write = false, mfma = false;
  for (const UncoveredDependency &dep : a.getUncoveredDependencies()) {
    write |= dep.user == p.op("write");
    mfma |= dep.user == p.op("mfma");
  }
  EXPECT_TRUE(write);
  EXPECT_TRUE(mfma);
  // The steady state waits for the prefetch at the ds_write.
  EXPECT_GT(a.lookup(p.op("write"))->steadyStall, 0);
  EXPECT_EQ(a.lookup(p.op("write"))->steadyStallReason,
            StallReason::UncoveredLoad);
  // Carried tiles count once: cur/next/result and acc/m/result are blocks
  // of 4 (8 VGPRs), the LDS fragment 2, tid 1 -> at most 11 VGPRs.
  EXPECT_LE(a.getPeak(RegClass::VGPR).regs, 11);
}

//===----------------------------------------------------------------------===//
// Cost
//===----------------------------------------------------------------------===//

namespace {

/// A GEMM-like body of about `ops` instructions: per block two LDS reads,
/// two VALU ops, a wait and an MFMA chained on the previous one.
std::string generateBody(unsigned ops, bool inLoop) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
)";
  std::string acc = "%z";
  if (inLoop) {
    os << "  %ie, %acce = waveasm.loop (%i = %i0, %acc = %z) : "
          "(!waveasm.sreg, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, "
          "!waveasm.vreg<4, 4>) {\n";
    acc = "%acc";
  }
  for (unsigned b = 0; b < ops / 6; ++b) {
    os << "  %a" << b
       << " = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, "
          "2>\n";
    os << "  %b" << b
       << " = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, "
          "2>\n";
    os << "  %v" << b
       << " = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> "
          "-> !waveasm.vreg\n";
    os << "  %w" << b << " = waveasm.v_add_u32 %v" << b
       << ", %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg\n";
    os << "  waveasm.s_waitcnt lgkmcnt(0)\n";
    os << "  %m" << b << " = waveasm.v_mfma_f32_16x16x16_f16 %a" << b << ", %b"
       << b << ", " << acc
       << " : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> "
          "!waveasm.vreg<4, 4>\n";
    acc = "%m" + std::to_string(b);
  }
  if (inLoop) {
    os << "  %in, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, "
          "!waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc\n";
    os << "  %more = waveasm.s_cmp_lt_u32 %in, %c8 : !waveasm.sreg, "
          "!waveasm.imm<8> -> !waveasm.scc\n";
    os << "  waveasm.condition %more : !waveasm.scc iter_args(%in, " << acc
       << ") : !waveasm.sreg, !waveasm.vreg<4, 4>\n  }\n";
  }
  os << "  waveasm.s_endpgm\n";
  return s;
}

/// CPU time of this thread in microseconds: the machine is shared, so wall
/// time would measure the neighbours.
double threadMicros() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/// Microseconds per ProgramIndex + Liveness + CycleModel run.
double measure(ProgramOp program, unsigned repeats) {
  const TargetModel &target = TargetModel::get(TargetKind::gfx942);
  if (getenv("WAVEASM_COST_BREAKDOWN")) {
    double t0 = threadMicros();
    ProgramIndex index(program);
    double t1 = threadMicros();
    Liveness liveness(index);
    double t2 = threadMicros();
    std::vector<OpFacts> facts = computeOpFacts(index, target);
    double t3 = threadMicros();
    CycleModel cycles(index, target);
    double t4 = threadMicros();
    std::printf("index %.1f liveness %.1f facts %.1f cycles (with facts) "
                "%.1f us\n",
                t1 - t0, t2 - t1, t3 - t2, t4 - t3);
  }
  double start = threadMicros();
  int64_t sink = 0;
  for (unsigned r = 0; r < repeats; ++r) {
    ProgramIndex index(program);
    Liveness liveness(index);
    CycleModel cycles(index, target);
    sink += cycles.getTotalCycles() + liveness.getPeak(RegClass::VGPR).regs;
  }
  EXPECT_GT(sink, 0);
  return (threadMicros() - start) / repeats;
}

} // namespace

TEST(AnalysisCost, LoopBody300) {
  ParsedAnalysisProgram p(generateBody(300, /*inLoop=*/true));
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  measure(p.program, 20); // warm up
  double us = measure(p.program, 200);
  std::printf("[ cost     ] 300-op loop body: %.1f us per Liveness + "
              "CycleModel\n",
              us);
  // The budget is 200 us; the bound leaves room for a loaded machine.
  EXPECT_LT(us, 2000.0);
}

TEST(AnalysisCost, Program20k) {
  for (bool inLoop : {false, true}) {
    ParsedAnalysisProgram p(generateBody(20000, inLoop));
    ASSERT_TRUE(p.module) << p.t.diagnostics;
    double us = measure(p.program, 5);
    std::printf("[ cost     ] 20k ops%s: %.2f ms per Liveness + CycleModel\n",
                inLoop ? " in a loop" : "", us / 1000);
    EXPECT_LT(us, 100000.0);
  }
}

TEST(AnalysisExamples, DumpForDebugging) {
  const char *path = getenv("WAVEASM_DUMP");
  if (!path)
    GTEST_SKIP() << "set WAVEASM_DUMP=<file.mlir> to print its annotations";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(static_cast<bool>(buffer));
  auto p = ParsedAnalysisProgram::fromFile((*buffer)->getBuffer());
  ASSERT_TRUE(p->module) << p->t.diagnostics;
  for (ProgramOp program : p->module->getOps<ProgramOp>())
    ProgramAnnotations(program).print(llvm::outs());
}
