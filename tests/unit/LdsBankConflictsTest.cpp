//===- LdsBankConflictsTest.cpp - LDS bank conflicts ----------------------===//
//
// The bank cost against hand-computed counts and, on random accesses,
// against its definition and unchanged by a shift of whole dwords (what
// lets the analysis cost a wave-shifted wave once); the address evaluation
// on small kernels (affine, masked, per-wave SGPR terms, loop-carried
// addresses, unknowns with their reason), the cycle model's extra slots,
// and the analysis against execution: every ds op of every example, as
// written and after the full pipeline, run by the simulator with its LDS
// trace, must have the conflict the analysis computed wherever it gives
// one; and every access's cost against its definition computed from the
// lanes with no shortcut, on random kernels whose accesses share address
// values at offsets of every residue and on every example.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"
#include "ConductorTestUtils.h"
#include "TestUtils.h"

#include "analysis/CycleModel.h"
#include "analysis/LdsBankConflicts.h"
#include "analysis/LdsPadding.h"
#include "pipeline/CompileAndMeasure.h"
#include "sim/LDSTrace.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace mlir;
using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

std::vector<uint32_t> strided(unsigned lanes, uint32_t stride,
                              uint32_t base = 0) {
  std::vector<uint32_t> a(lanes);
  for (unsigned l = 0; l < lanes; ++l)
    a[l] = base + l * stride;
  return a;
}

TEST(LdsBankCost, HandComputedCounts) {
  const uint64_t all = ~uint64_t(0);
  // b32, 4-byte stride on 64 banks: one bank per lane, the 2-clock minimum.
  LdsBankCost c = computeLdsBankCost(strided(64, 4), all, 4, 64, 2);
  EXPECT_EQ(c.degree, 1u);
  EXPECT_EQ(c.phases, 1u);
  EXPECT_EQ(c.clocks, 2);
  EXPECT_EQ(c.extraClocks(), 0);
  // b32, 128-byte stride: dword 32 * lane, banks 0 and 32 with 32 dwords
  // each: 32-way, 32 clocks, 30 more than 2; 8 issue slots.
  c = computeLdsBankCost(strided(64, 128), all, 4, 64, 2);
  EXPECT_EQ(c.degree, 32u);
  EXPECT_EQ(c.clocks, 32);
  EXPECT_EQ(c.extraClocks(), 30);
  EXPECT_EQ(ldsExtraSlots(c.extraClocks()), 8);
  // 256-byte stride: every lane on bank 0, the facts' 64 clocks.
  c = computeLdsBankCost(strided(64, 256), all, 4, 64, 2);
  EXPECT_EQ(c.degree, 64u);
  EXPECT_EQ(c.clocks, 64);
  // Broadcast: all lanes on one dword is no conflict.
  c = computeLdsBankCost(strided(64, 0, 4096), all, 4, 64, 2);
  EXPECT_EQ(c.degree, 1u);
  EXPECT_EQ(c.extraClocks(), 0);
  // b128 with a 16-byte stride: 4 phases of 16 lanes x 4 dwords, each the
  // 64 consecutive dwords of all banks; 4 clocks, no conflict.
  c = computeLdsBankCost(strided(64, 16), all, 16, 64, 2);
  EXPECT_EQ(c.degree, 1u);
  EXPECT_EQ(c.phases, 4u);
  EXPECT_EQ(c.clocks, 4);
  EXPECT_EQ(c.extraClocks(), 0);
  // b128 with a 32-byte stride: a phase's 16 lanes cover dwords 0..127 by
  // halves: every bank twice, 2-way in each of the 4 phases.
  c = computeLdsBankCost(strided(64, 32), all, 16, 64, 2);
  EXPECT_EQ(c.degree, 2u);
  EXPECT_EQ(c.clocks, 8);
  EXPECT_EQ(c.extraClocks(), 4);
  // b64, 8-byte stride: 2 phases of 32 lanes, conflict-free.
  c = computeLdsBankCost(strided(64, 8), all, 8, 64, 2);
  EXPECT_EQ(c.degree, 1u);
  EXPECT_EQ(c.phases, 2u);
  // 32 banks (gfx1250), wave32, 128-byte stride: all on bank 0.
  c = computeLdsBankCost(strided(32, 128), all, 4, 32, 2);
  EXPECT_EQ(c.degree, 32u);
  EXPECT_EQ(c.extraClocks(), 30);
  // Inactive lanes do not count: only lanes 0 and 1 at 256 B apart.
  c = computeLdsBankCost(strided(64, 256), 0x3, 4, 64, 2);
  EXPECT_EQ(c.degree, 2u);
  EXPECT_EQ(c.extraClocks(), 0); // 2 clocks: within the minimum
}

/// The bank cost by definition, the slow way: per phase, a set of distinct
/// dwords per bank.
LdsBankCost referenceBankCost(llvm::ArrayRef<uint32_t> addresses,
                              uint64_t activeMask, unsigned bytesPerLane,
                              unsigned banks, int64_t minClocks) {
  LdsBankCost cost;
  unsigned dwordsPerLane = std::max(1u, bytesPerLane / 4);
  unsigned lanesPerPhase = std::max(1u, banks / dwordsPerLane);
  int64_t sum = 0;
  for (unsigned first = 0; first < addresses.size(); first += lanesPerPhase) {
    std::map<unsigned, std::set<uint32_t>> perBank;
    for (unsigned lane = first;
         lane < std::min<size_t>(addresses.size(), first + lanesPerPhase);
         ++lane)
      if (lane >= 64 || (activeMask >> lane & 1))
        for (unsigned d = 0; d < dwordsPerLane; ++d)
          perBank[(addresses[lane] / 4 + d) % banks].insert(
              addresses[lane] / 4 + d);
    if (perBank.empty())
      continue;
    unsigned worst = 0;
    for (const auto &[bank, dwords] : perBank)
      worst = std::max<unsigned>(worst, dwords.size());
    ++cost.phases;
    cost.degree = std::max(cost.degree, worst);
    sum += worst;
  }
  cost.clocks = std::max(minClocks, sum);
  cost.idealClocks = std::max<int64_t>(minClocks, cost.phases);
  return cost;
}

/// A random access of trial `trial`: addresses drawn from small ranges (so
/// lanes share dwords and banks) or strided, masks with gaps, every width,
/// both bank counts.
struct RandomAccess {
  unsigned banks, bytes;
  std::vector<uint32_t> addresses;
  uint64_t mask;
};
RandomAccess randomAccess(std::mt19937_64 &random, int trial, unsigned lanes) {
  RandomAccess r;
  r.banks = trial % 5 == 0 ? 32 : 64;
  r.bytes = 1u << (random() % 5); // 1..16
  uint32_t span = 4u << (random() % 12);
  r.addresses.resize(lanes);
  for (unsigned l = 0; l < lanes; ++l)
    r.addresses[l] = trial % 4 == 0 ? l * (4u << (random() % 8))
                                    : static_cast<uint32_t>(random() % span);
  r.mask = trial % 7 == 0 ? random() : ~uint64_t(0);
  return r;
}

/// computeLdsBankCost of one access equals referenceBankCost's.
void expectTheDefinitionsCost(const std::vector<uint32_t> &a, uint64_t mask,
                              unsigned bytes, unsigned banks, int trial) {
  LdsBankCost got = computeLdsBankCost(a, mask, bytes, banks, 2);
  LdsBankCost want = referenceBankCost(a, mask, bytes, banks, 2);
  ASSERT_EQ(got.degree, want.degree) << "trial " << trial;
  ASSERT_EQ(got.phases, want.phases) << "trial " << trial;
  ASSERT_EQ(got.clocks, want.clocks) << "trial " << trial;
  ASSERT_EQ(got.idealClocks, want.idealClocks) << "trial " << trial;
}

TEST(LdsBankCost, MatchesTheDefinitionOnRandomAccesses) {
  std::mt19937_64 random(11);
  for (int trial = 0; trial < 2000; ++trial) {
    RandomAccess r = randomAccess(random, trial, trial % 3 == 0 ? 32 : 64);
    const std::vector<uint32_t> &a = r.addresses;
    uint64_t mask = r.mask;
    unsigned bytes = r.bytes, banks = r.banks;
    ASSERT_NO_FATAL_FAILURE(
        expectTheDefinitionsCost(a, mask, bytes, banks, trial));
  }
}

TEST(LdsBankCost, MatchesTheDefinitionForAnyBankCountAndAddress) {
  // The cost keeps a phase's distinct dwords in a small hash set: any bank
  // count (powers of two or not, fewer banks than a lane's dwords),
  // addresses over the whole 32-bit range, repeated dwords, and dwords that
  // fall into the same slots (multiples of a large power of two) must all
  // give the definition's answer.
  std::mt19937_64 random(31);
  const unsigned bankChoices[] = {1, 2, 3, 16, 32, 48, 64, 100};
  for (int trial = 0; trial < 4000; ++trial) {
    unsigned banks = bankChoices[random() % std::size(bankChoices)];
    unsigned bytes = 1u << (random() % 5);
    unsigned lanes = 1 + random() % 64;
    std::vector<uint32_t> a(lanes);
    for (unsigned l = 0; l < lanes; ++l) {
      switch (trial % 4) {
      case 0: // anywhere
        a[l] = uint32_t(random());
        break;
      case 1: // few distinct dwords, many repeats
        a[l] = uint32_t(random() % 64) * 4 + 0x80000000u;
        break;
      case 2: // same low bits: colliding hash slots
        a[l] = uint32_t(random() % 512) << 20;
        break;
      default: // strided near the top of the range
        a[l] = ~uint32_t(0) - 4096 + l * 60;
        break;
      }
    }
    uint64_t mask = trial % 3 == 0 ? random() : ~uint64_t(0);
    ASSERT_NO_FATAL_FAILURE(
        expectTheDefinitionsCost(a, mask, bytes, banks, trial));
  }
}

TEST(LdsBankCost, SameForAddressesShiftedByWholeDwords) {
  // The analysis costs a wave whose addresses are the first wave's plus a
  // multiple of 4 bytes as the first wave: that shift must not change the
  // cost. A shift by part of a dword can (it splits b64/b128 lanes over
  // other dwords), which the negative control shows.
  std::mt19937_64 random(23);
  bool partShiftChanged = false;
  for (int trial = 0; trial < 2000; ++trial) {
    RandomAccess r = randomAccess(random, trial, 64);
    const std::vector<uint32_t> &a = r.addresses;
    uint64_t mask = r.mask;
    unsigned bytes = r.bytes, banks = r.banks;
    std::vector<uint32_t> shifted(64), part(64);
    uint32_t shift = 4 * static_cast<uint32_t>(random() % 100000);
    for (unsigned l = 0; l < 64; ++l) {
      shifted[l] = a[l] + shift;
      part[l] = a[l] + 2;
    }
    LdsBankCost want = computeLdsBankCost(a, mask, bytes, banks, 2);
    LdsBankCost got = computeLdsBankCost(shifted, mask, bytes, banks, 2);
    ASSERT_EQ(got.degree, want.degree) << "trial " << trial;
    ASSERT_EQ(got.phases, want.phases) << "trial " << trial;
    ASSERT_EQ(got.clocks, want.clocks) << "trial " << trial;
    partShiftChanged |=
        computeLdsBankCost(part, mask, bytes, banks, 2).clocks != want.clocks;
  }
  EXPECT_TRUE(partShiftChanged);
}

std::string kernel(llvm::StringRef body, llvm::StringRef target = "gfx942",
                   llvm::StringRef wg = "[64, 1, 1]") {
  return ("waveasm.program @k target = #waveasm.target<#waveasm." + target +
          ", 5> abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 2> "
          "attributes {workgroup_size = " +
          wg + "} {\n" + R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %wg = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c15 = waveasm.constant 15 : !waveasm.imm<15>
)" + body +
          "\n}\n")
      .str();
}

struct Analysed {
  std::unique_ptr<ParsedAnalysisProgram> p;
  std::unique_ptr<ProgramIndex> index;
  std::unique_ptr<LdsBankConflicts> banks;
  const LdsAccessInfo *at(llvm::StringRef name) {
    Operation *op = p->op(name);
    return op ? banks->lookup(op) : nullptr;
  }
};

Analysed analyse(const std::string &text) {
  Analysed a;
  a.p = ParsedAnalysisProgram::fromFile(text);
  EXPECT_TRUE(a.p->program) << a.p->t.diagnostics;
  if (!a.p->program)
    return a;
  a.index = std::make_unique<ProgramIndex>(a.p->program);
  a.banks = std::make_unique<LdsBankConflicts>(
      *a.index, TargetModel::get(a.p->program.getTargetKind()));
  return a;
}

TEST(LdsBankConflicts, LaneAffineAddresses) {
  Analysed a = analyse(kernel(R"(
  %s4 = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %r0 = waveasm.ds_read_b32 %s4 : !waveasm.vreg -> !waveasm.vreg loc("S4")
  %s128 = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %r1 = waveasm.ds_read_b32 %s128 {offset = 64 : i64} : !waveasm.vreg -> !waveasm.vreg loc("S128")
  %s16 = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %r2 = waveasm.ds_read_b128 %s16 : !waveasm.vreg -> !waveasm.vreg<4, 4> loc("B128")
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r3 = waveasm.ds_read_b32 %z {offset = 512 : i64} : !waveasm.vreg -> !waveasm.vreg loc("BCAST")
  %sw = waveasm.v_add_u32 %wg, %s128 : !waveasm.psreg<2>, !waveasm.vreg -> !waveasm.vreg
  waveasm.ds_write_b32 %r0, %sw : !waveasm.vreg, !waveasm.vreg loc("SGPR")
)"));
  const LdsAccessInfo *s4 = a.at("S4");
  ASSERT_TRUE(s4 && s4->known);
  EXPECT_EQ(s4->cost.degree, 1u);
  EXPECT_EQ(s4->extraSlots, 0);
  EXPECT_EQ(s4->laneStride, 4);
  const LdsAccessInfo *s128 = a.at("S128");
  ASSERT_TRUE(s128 && s128->known);
  EXPECT_EQ(s128->cost.degree, 32u);
  EXPECT_EQ(s128->cost.extraClocks(), 30);
  EXPECT_EQ(s128->extraSlots, 8);
  EXPECT_EQ(s128->lane0Address, 64);
  EXPECT_EQ(describeLdsPattern(*s128), "lane × 128 B + 64 B");
  const LdsAccessInfo *b128 = a.at("B128");
  ASSERT_TRUE(b128 && b128->known);
  EXPECT_EQ(b128->bytesPerLane, 16u);
  EXPECT_EQ(b128->cost.degree, 1u);
  EXPECT_EQ(b128->cost.phases, 4u);
  const LdsAccessInfo *bcast = a.at("BCAST");
  ASSERT_TRUE(bcast && bcast->known);
  EXPECT_EQ(bcast->cost.degree, 1u);
  EXPECT_EQ(bcast->laneStride, 0);
  // A workgroup id added: a per-wave constant, the same conflict.
  const LdsAccessInfo *sgpr = a.at("SGPR");
  ASSERT_TRUE(sgpr && sgpr->known);
  EXPECT_TRUE(sgpr->perWaveUnknown);
  EXPECT_EQ(sgpr->cost.degree, 32u);
  EXPECT_NE(describeLdsPattern(*sgpr).find("SGPR term"), std::string::npos);
}

TEST(LdsBankConflicts, MaskedRowsAndThePaddingThatFixesThem) {
  // (tid & 15) * 256: 16 rows of 256 bytes, all on bank 0, lanes 16 apart
  // share a dword: 16-way. A 260-byte row stride spreads them.
  Analysed a = analyse(kernel(R"(
  %row = waveasm.v_and_b32 %tid, %c15 : !waveasm.pvreg<0>, !waveasm.imm<15> -> !waveasm.vreg
  %off = waveasm.v_lshlrev_b32 %c8, %row : !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg loc("SHL")
  %r = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg loc("R")
)"));
  const LdsAccessInfo *r = a.at("R");
  ASSERT_TRUE(r && r->known);
  EXPECT_EQ(r->cost.degree, 16u);
  EXPECT_FALSE(r->laneStride);
  std::optional<LdsPaddingHint> hint = a.banks->suggestPadding(*r);
  ASSERT_TRUE(hint);
  EXPECT_EQ(hint->op, a.p->op("SHL"));
  EXPECT_EQ(hint->fromBytes, 256);
  EXPECT_EQ(hint->toBytes, 260);
  EXPECT_EQ(hint->degree, 1u);
  // The analysis itself is untouched by the trial.
  EXPECT_EQ(a.at("R")->cost.degree, 16u);
}

TEST(LdsBankConflicts, ConflictsArePerWave) {
  // Waves 0-3 of 256 threads: tid >> 6 is the wave; wave w reads at
  // w * 256: one dword per wave, a broadcast. Lumped together the four
  // waves would be 4-way on bank 0; the conflict is per wave.
  Analysed a = analyse(kernel(R"(
  %c6 = waveasm.constant 6 : !waveasm.imm<6>
  %w = waveasm.v_lshrrev_b32 %c6, %tid : !waveasm.imm<6>, !waveasm.pvreg<0> -> !waveasm.vreg
  %wb = waveasm.v_lshlrev_b32 %c8, %w : !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
  %r0 = waveasm.ds_read_b32 %wb : !waveasm.vreg -> !waveasm.vreg loc("W")
)",
                              "gfx942", "[256, 1, 1]"));
  const LdsAccessInfo *w = a.at("W");
  ASSERT_TRUE(w && w->known);
  EXPECT_EQ(a.banks->getNumThreads(), 256u);
  EXPECT_EQ(w->cost.degree, 1u);
}

TEST(LdsBankConflicts, EveryWaveIsCosted) {
  // Wave 0 reads lane x 4 B (no conflict), wave 1 lane x 128 B (32-way):
  // not a shift of wave 0's addresses, so it is costed on its own and its
  // conflict is the op's. The second read is wave-shifted (w x 4096 B plus
  // lane x 128 B): every wave has wave 0's 32-way conflict.
  Analysed a = analyse(kernel(R"(
  %c6 = waveasm.constant 6 : !waveasm.imm<6>
  %c12 = waveasm.constant 12 : !waveasm.imm<12>
  %c124 = waveasm.constant 124 : !waveasm.imm<124>
  %k124 = waveasm.v_mov_b32 %c124 : !waveasm.imm<124> -> !waveasm.vreg
  %w = waveasm.v_lshrrev_b32 %c6, %tid : !waveasm.imm<6>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.v_mul_lo_u32 %w, %k124 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %st = waveasm.v_add_u32 %x, %c4 : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
  %addr = waveasm.v_mul_lo_u32 %st, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
  %r0 = waveasm.ds_read_b32 %addr : !waveasm.vreg -> !waveasm.vreg loc("LATER")
  %wb = waveasm.v_lshlrev_b32 %c12, %w : !waveasm.imm<12>, !waveasm.vreg -> !waveasm.vreg
  %s128 = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %sum = waveasm.v_add_u32 %wb, %s128 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r1 = waveasm.ds_read_b32 %sum : !waveasm.vreg -> !waveasm.vreg loc("SHIFTED")
)",
                              "gfx942", "[128, 1, 1]"));
  const LdsAccessInfo *later = a.at("LATER");
  ASSERT_TRUE(later && later->known);
  EXPECT_EQ(later->laneStride, 4); // wave 0's pattern
  EXPECT_EQ(later->cost.degree, 32u);
  const LdsAccessInfo *shifted = a.at("SHIFTED");
  ASSERT_TRUE(shifted && shifted->known);
  EXPECT_EQ(shifted->cost.degree, 32u);
}

TEST(LdsBankConflicts, ThirtyTwoBanksOnGfx1250) {
  Analysed a = analyse(kernel(R"(
  %s128 = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %r = waveasm.ds_read_b32 %s128 : !waveasm.vreg -> !waveasm.vreg loc("R")
)",
                              "gfx1250", "[32, 1, 1]"));
  const LdsAccessInfo *r = a.at("R");
  ASSERT_TRUE(r && r->known);
  EXPECT_EQ(a.banks->getWaveSize(), 32u);
  EXPECT_EQ(r->cost.degree, 32u);
}

TEST(LdsBankConflicts, UnknownAddressesSayWhy) {
  Analysed a = analyse(kernel(R"(
  %s4 = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %l = waveasm.ds_read_b32 %s4 : !waveasm.vreg -> !waveasm.vreg
  %r = waveasm.ds_read_b32 %l : !waveasm.vreg -> !waveasm.vreg loc("LOADED")
  %sw = waveasm.v_add_u32 %wg, %s4 : !waveasm.psreg<2>, !waveasm.vreg -> !waveasm.vreg
  %m = waveasm.v_and_b32 %sw, %c15 : !waveasm.vreg, !waveasm.imm<15> -> !waveasm.vreg
  %r2 = waveasm.ds_read_b32 %m : !waveasm.vreg -> !waveasm.vreg loc("MASKED")
  %v5 = waveasm.precolored.vreg 5 : !waveasm.pvreg<5>
  %r3 = waveasm.ds_read_b32 %v5 : !waveasm.pvreg<5> -> !waveasm.vreg loc("OTHER")
)"));
  for (auto [name, why] : {std::pair{"LOADED", "ds_read_b32"},
                           {"MASKED", "unknown SGPR term"},
                           {"OTHER", "not the ABI's thread id"}}) {
    const LdsAccessInfo *info = a.at(name);
    ASSERT_TRUE(info) << name;
    EXPECT_FALSE(info->known) << name;
    EXPECT_NE(info->whyUnknown.find(why), std::string::npos)
        << name << ": " << info->whyUnknown;
    EXPECT_EQ(info->extraSlots, 0) << name;
  }
}

TEST(LdsBankConflicts, TwoAddressOpsCostBothElements) {
  // ds_read2_b64 (pipeline/opt/PairLdsReads.h): its two elements at
  // offset0/offset1 x 8 bytes cost one after the other, as two ds_read_b64.
  Analysed a = analyse(kernel(R"(
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %s8 = waveasm.v_lshlrev_b32 %c3, %tid : !waveasm.imm<3>, !waveasm.pvreg<0> -> !waveasm.vreg
  %p0 = waveasm.ds_read2_b64 %s8 {offset0 = 0 : i64, offset1 = 64 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4> loc("FREE")
  %s128 = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %r1 = waveasm.ds_read_b64 %s128 : !waveasm.vreg -> !waveasm.vreg<2, 2> loc("ONE")
  %p1 = waveasm.ds_read2_b64 %s128 {offset0 = 0 : i64, offset1 = 4 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4> loc("BOTH")
  %p2 = waveasm.ds_read2_b32 %s8 {offset = 4 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2> loc("BYTES")
)"));
  const LdsAccessInfo *free = a.at("FREE");
  ASSERT_TRUE(free && free->known) << (free ? free->whyUnknown : "");
  EXPECT_EQ(free->bytesPerLane, 8u);
  EXPECT_EQ(free->cost.degree, 1u);
  EXPECT_EQ(free->cost.phases, 4u);
  EXPECT_EQ(free->extraSlots, 0);
  const LdsAccessInfo *one = a.at("ONE"), *both = a.at("BOTH");
  ASSERT_TRUE(one && one->known && both && both->known);
  EXPECT_GT(one->cost.extraClocks(), 0);
  EXPECT_EQ(both->cost.extraClocks(), 2 * one->cost.extraClocks());
  EXPECT_EQ(both->cost.degree, one->cost.degree);
  // The byte-offset form: the element at `offset` and the one after it
  // (lane x 8 + 4 and + 8: two dwords a lane, no conflict).
  const LdsAccessInfo *bytes = a.at("BYTES");
  ASSERT_TRUE(bytes && bytes->known);
  EXPECT_EQ(bytes->bytesPerLane, 4u);
  EXPECT_EQ(bytes->lane0Address, 4);
}

TEST(LdsBankConflicts, LoopCarriedAddressStepsByAConstant) {
  // A VGPR address advanced by 4 bytes per iteration keeps its lanes'
  // pattern; one multiplied by the lane each iteration does not.
  Analysed a = analyse(kernel(R"(
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %s128 = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %ke, %ae, %be = waveasm.loop (%k = %k0, %a = %s128, %b = %s128)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) {
    %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg loc("STEP")
    %y = waveasm.ds_read_b32 %b : !waveasm.vreg -> !waveasm.vreg loc("SCALE")
    %an = waveasm.v_add_u32 %a, %c4 : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
    %bn = waveasm.v_mul_lo_u32 %b, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %cc = waveasm.s_cmp_lt_u32 %kn#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %cc : !waveasm.scc iter_args(%kn#0, %an, %bn) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg
  }
)"));
  const LdsAccessInfo *step = a.at("STEP");
  ASSERT_TRUE(step && step->known) << (step ? step->whyUnknown : "");
  EXPECT_EQ(step->cost.degree, 32u);
  EXPECT_TRUE(step->perWaveUnknown);
  const LdsAccessInfo *scale = a.at("SCALE");
  ASSERT_TRUE(scale);
  EXPECT_FALSE(scale->known);
  EXPECT_NE(scale->whyUnknown.find("the loop's yield"), std::string::npos)
      << scale->whyUnknown;
}

TEST(LdsBankConflicts, TheCycleModelPaysTheExtraSlots) {
  auto cyclesOf = [](llvm::StringRef shift, llvm::StringRef type) {
    Analysed a = analyse(
        kernel(("%a = waveasm.v_lshlrev_b32 " + shift + ", %tid : " + type +
                R"(, !waveasm.pvreg<0> -> !waveasm.vreg
  %r = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg loc("R")
  %u = waveasm.v_add_u32 %r, %r : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg loc("U")
)")
                   .str()));
    const TargetModel &target = TargetModel::get(TargetKind::gfx942);
    CycleModel model(*a.index, target);
    const OpTiming *r = model.getTiming(a.p->op("R"));
    const OpTiming *u = model.getTiming(a.p->op("U"));
    return std::pair{r->latency, u->issueCycle - r->issueCycle};
  };
  // %c2 (4-byte stride): latency 20; %c7 (128 bytes): 20 + 8 slots.
  auto [lat4, gap4] = cyclesOf("%c2", "!waveasm.imm<2>");
  auto [lat128, gap128] = cyclesOf("%c7", "!waveasm.imm<7>");
  EXPECT_EQ(lat4, 20);
  EXPECT_EQ(lat128, 28);
  EXPECT_EQ(gap128 - gap4, 8);
}

TEST(LdsBankConflicts, AConflictHoldsTheLdsPipeForTheNextAccess) {
  Analysed a = analyse(kernel(R"(
  %s128 = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %s4 = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %r0 = waveasm.ds_read_b32 %s128 : !waveasm.vreg -> !waveasm.vreg loc("R0")
  %r1 = waveasm.ds_read_b32 %s4 : !waveasm.vreg -> !waveasm.vreg loc("R1")
  %u = waveasm.v_add_u32 %r1, %r1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg loc("U")
)"));
  CycleModel model(*a.index, TargetModel::get(TargetKind::gfx942));
  const OpTiming *r0 = model.getTiming(a.p->op("R0"));
  const OpTiming *u = model.getTiming(a.p->op("U"));
  // R1 starts in the pipe after R0's 1 + 8 slots, then takes 20.
  EXPECT_EQ(u->issueCycle, r0->issueCycle + 9 + 20);
}

//===----------------------------------------------------------------------===//
// Ground truth by execution
//===----------------------------------------------------------------------===//

struct CrossCheck {
  unsigned checked = 0, unknown = 0, conflicting = 0, notExecuted = 0;
};

/// Runs `program` with the LDS trace and compares each known ds op's
/// worst executed conflict with the analysis.
void crossCheck(ProgramOp program, const std::string &what, CrossCheck &total) {
  const TargetModel &target = TargetModel::get(program.getTargetKind());
  ProgramIndex index(program);
  LdsBankConflicts banks(index, target);
  std::map<Operation *, LdsBankCost> worst;
  std::map<Operation *, unsigned> runs;
  sim::SimOptions options;
  sim::LDSAccessHook hook = [&](const sim::LDSAccess &access) {
    const LdsAccessInfo *info = banks.lookup(access.op);
    if (!info)
      return;
    LdsBankCost cost = computeLdsBankCost(
        access.addresses, access.activeMask, info->bytesPerLane,
        banks.getModel().banks, banks.getModel().minClocks);
    auto [it, inserted] = worst.try_emplace(access.op, cost);
    if (!inserted && cost.extraClocks() > it->second.extraClocks())
      it->second = cost;
    // Every wave of a lane-affine access sees the same conflict, up to
    // the worst wave the analysis reports.
    if (info->known) {
      EXPECT_LE(cost.extraClocks(), info->cost.extraClocks()) << what;
      ++runs[access.op];
    }
  };
  sim::SimResult result = sim::simulateTracingLDS(program, options, hook);
  for (const LdsAccessInfo &info : banks.getAccesses()) {
    if (!info.known) {
      ++total.unknown;
      continue;
    }
    auto it = worst.find(info.op);
    if (it == worst.end()) {
      // Past the point where a run stopped (an op not simulated).
      ++total.notExecuted;
      continue;
    }
    ++total.checked;
    total.conflicting += info.cost.degree > 1;
    std::string where;
    llvm::raw_string_ostream os(where);
    os << what << ": " << *info.op;
    EXPECT_EQ(it->second.degree, info.cost.degree) << where;
    EXPECT_EQ(it->second.clocks, info.cost.clocks) << where;
    EXPECT_EQ(it->second.extraClocks(), info.cost.extraClocks()) << where;
  }
  (void)result;
}

/// The examples and the shared examples (some invalid on purpose).
std::vector<std::string> exampleAndSharedExamplePaths() {
  std::vector<std::string> paths = test::exampleKernelPaths();
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator
           it(waveasm::test::sharedExamplesDir(), ec),
       end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".mlir")
      paths.push_back(it->path());
  return paths;
}

TEST(LdsBankConflicts, EqualsTheExecutedConflictOnEveryExample) {
  std::vector<std::string> paths = exampleAndSharedExamplePaths();
  CrossCheck total;
  for (const std::string &path : paths) {
    test::TestContext t;
    auto module = t.parseModule(test::readFile(path));
    if (!module)
      continue; // the shared examples include invalid ones on purpose
    for (ProgramOp program : module->getOps<ProgramOp>())
      crossCheck(program, path + " (as written)", total);
    if (OwningOpRef<ModuleOp> after = test::compiledByPipeline(*module))
      for (ProgramOp program : after->getOps<ProgramOp>())
        crossCheck(program, path + " (compiled)", total);
  }
  std::printf("ds ops checked by execution: %u (%u conflicting), unknown: "
              "%u, not executed: %u\n",
              total.checked, total.conflicting, total.unknown,
              total.notExecuted);
  EXPECT_GT(total.checked, 20u);
}

//===----------------------------------------------------------------------===//
// Costs shared by address form
//===----------------------------------------------------------------------===//

/// Each access's analysis against its definition computed here from
/// scratch: the address lanes of every thread (LdsThreadEvaluator), each
/// wave costed by computeLdsBankCost with no shortcut (the analysis shares
/// a cost between waves shifted by whole dwords and between accesses
/// through one address whose offsets differ by whole dwords), the worst
/// wave kept. Accesses whose form (address value, width, pairing, offset
/// modulo 4) an earlier one had are counted in `repeats`.
void expectTheDefinitionsCosts(ProgramOp program, const std::string &what,
                               unsigned &repeats) {
  const TargetModel &target = TargetModel::get(program.getTargetKind());
  ProgramIndex index(program);
  LdsBankConflicts banks(index, target);
  LdsThreadEvaluator evaluator(program, target);
  LdsBankModel model = getLdsBankModel(target);
  unsigned waveSize = evaluator.getWaveSize();
  std::set<std::tuple<const void *, unsigned, bool, uint32_t>> forms;
  for (const LdsAccessInfo &info : banks.getAccesses()) {
    std::string where;
    llvm::raw_string_ostream os(where);
    os << what << ": " << *info.op;
    llvm::StringRef name = info.op->getName().stripDialect();
    bool pair = name.starts_with("ds_read2") || name.starts_with("ds_write2");
    Value addr = info.op->getOperand(name.starts_with("ds_write") ? 1 : 0);
    bool perWave = false;
    std::string why;
    std::optional<std::vector<uint32_t>> lanes =
        evaluator.evaluate(addr, perWave, why);
    ASSERT_EQ(info.known, lanes.has_value()) << where;
    if (!lanes)
      continue;
    EXPECT_EQ(info.perWaveUnknown, perWave) << where;
    auto attr = [&](llvm::StringRef n) -> int64_t {
      auto a = info.op->getAttrOfType<IntegerAttr>(n);
      return a ? a.getInt() : 0;
    };
    std::vector<uint32_t> offsets;
    unsigned element = info.bytesPerLane;
    if (pair && (info.op->hasAttr("offset0") || info.op->hasAttr("offset1")))
      offsets = {uint32_t(attr("offset0") * element),
                 uint32_t(attr("offset1") * element)};
    else if (pair)
      offsets = {uint32_t(attr("offset")), uint32_t(attr("offset") + element)};
    else
      offsets = {uint32_t(attr("offset"))};
    LdsBankCost worst;
    unsigned numThreads = lanes->size();
    for (unsigned first = 0; first < numThreads; first += waveSize) {
      unsigned count = std::min(waveSize, numThreads - first);
      uint64_t mask = count >= 64 ? ~uint64_t(0) : (uint64_t(1) << count) - 1;
      LdsBankCost cost;
      for (auto [k, offset] : llvm::enumerate(offsets)) {
        std::vector<uint32_t> wave(count);
        for (unsigned l = 0; l < count; ++l)
          wave[l] = (*lanes)[first + l] + offset;
        LdsBankCost part = computeLdsBankCost(wave, mask, info.bytesPerLane,
                                              model.banks, model.minClocks);
        if (k == 0) {
          cost = part;
          continue;
        }
        cost.addPairedElement(part);
      }
      if (first == 0 || cost.extraClocks() > worst.extraClocks())
        worst = cost;
    }
    EXPECT_EQ(info.cost.degree, worst.degree) << where;
    EXPECT_EQ(info.cost.phases, worst.phases) << where;
    EXPECT_EQ(info.cost.clocks, worst.clocks) << where;
    EXPECT_EQ(info.cost.idealClocks, worst.idealClocks) << where;
    EXPECT_EQ(info.extraSlots, ldsExtraSlots(worst.extraClocks())) << where;
    EXPECT_EQ(info.lane0Address, int64_t(uint32_t((*lanes)[0] + offsets[0])))
        << where;
    for (auto [l, got] : llvm::enumerate(info.firstLanes))
      EXPECT_EQ(got, (*lanes)[l] + offsets[0]) << where << " lane " << l;
    repeats += !forms
                    .insert({addr.getAsOpaquePointer(), info.bytesPerLane, pair,
                             offsets[0] & 3})
                    .second;
  }
}

/// A kernel of a few lane-dependent addresses (shifts, masks, adds of
/// constants, one near the top of the 32-bit range so that an offset wraps
/// it) and many ds ops of every width through them at random offsets
/// (bytes, dwords, pairs with element offsets).
std::string randomSharedAddressKernel(std::mt19937_64 &random) {
  auto pick = [&](uint64_t n) { return random() % n; };
  static const char *sizes[] = {"[64, 1, 1]", "[128, 1, 1]", "[256, 1, 1]",
                                "[16, 8, 1]"};
  std::string body;
  llvm::raw_string_ostream os(body);
  int numAddrs = 2 + pick(3);
  for (int i = 0; i < numAddrs; ++i) {
    unsigned shift = pick(8);
    os << "  %k" << i << " = waveasm.constant " << shift << " : !waveasm.imm<"
       << shift << ">\n";
    os << "  %s" << i << " = waveasm.v_lshlrev_b32 %k" << i
       << ", %tid : !waveasm.imm<" << shift
       << ">, !waveasm.pvreg<0> -> !waveasm.vreg\n";
    int64_t base =
        pick(4) == 0 ? int64_t(0xFFFFFF00u) + pick(200) : int64_t(pick(4096));
    os << "  %bc" << i << " = waveasm.constant " << base << " : !waveasm.imm<"
       << base << ">\n";
    os << "  %b" << i << " = waveasm.v_mov_b32 %bc" << i << " : !waveasm.imm<"
       << base << "> -> !waveasm.vreg\n";
    if (pick(3) == 0) {
      os << "  %m" << i << " = waveasm.v_and_b32 %c15, %s" << i
         << " : !waveasm.imm<15>, !waveasm.vreg -> !waveasm.vreg\n";
      os << "  %a" << i << " = waveasm.v_add_u32 %m" << i << ", %b" << i
         << " : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg\n";
    } else if (pick(2) == 0) {
      // A stride that is not a power of two (2^s + 1 or 4 bytes): lanes
      // straddle dwords, so an offset's residue modulo 4 matters.
      unsigned low = pick(2) * 2;
      os << "  %l" << i << " = waveasm.v_lshl_add_u32 %tid, %c" << low << ", %b"
         << i << " : !waveasm.pvreg<0>, !waveasm.imm<" << low
         << ">, !waveasm.vreg -> !waveasm.vreg\n";
      os << "  %a" << i << " = waveasm.v_add_u32 %s" << i << ", %l" << i
         << " : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg\n";
    } else {
      os << "  %a" << i << " = waveasm.v_add_u32 %s" << i << ", %b" << i
         << " : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg\n";
    }
  }
  static const char *reads[] = {"ds_read_b32", "ds_read_b64", "ds_read_b128",
                                "ds_read_u8",  "ds_read_u16", "ds_read2_b32",
                                "ds_read2_b64"};
  static const char *results[] = {"!waveasm.vreg",       "!waveasm.vreg<2, 2>",
                                  "!waveasm.vreg<4, 4>", "!waveasm.vreg",
                                  "!waveasm.vreg",       "!waveasm.vreg<2, 2>",
                                  "!waveasm.vreg<4, 4>"};
  int numOps = 8 + pick(16);
  for (int j = 0; j < numOps; ++j) {
    unsigned kind = pick(7);
    int addr = pick(numAddrs);
    os << "  %r" << j << " = waveasm." << reads[kind] << " %a" << addr;
    if (kind >= 5) {
      os << " {offset0 = " << pick(8) << " : i64, offset1 = " << pick(8)
         << " : i64}";
    } else {
      // Offsets of every residue modulo 4, small and near the 16-bit top.
      int64_t offset =
          pick(2) ? 4 * pick(64) + pick(4) * pick(2) : 65535 - pick(300);
      if (kind <= 2)
        offset &= ~int64_t(3);
      os << " {offset = " << offset << " : i64}";
    }
    os << " : !waveasm.vreg -> " << results[kind] << "\n";
  }
  return kernel(body, "gfx942", sizes[pick(4)]);
}

TEST(LdsBankConflicts, SharedCostsEqualTheDefinition) {
  std::mt19937_64 random(20261127);
  unsigned repeats = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::string text = randomSharedAddressKernel(random);
    auto p = ParsedAnalysisProgram::fromFile(text);
    ASSERT_TRUE(p->program) << p->t.diagnostics << "\n" << text;
    expectTheDefinitionsCosts(
        p->program, "random kernel " + std::to_string(trial) + ":\n" + text,
        repeats);
    if (HasFailure())
      return;
  }
  // Every example and shared example, as written and compiled.
  std::vector<std::string> paths = exampleAndSharedExamplePaths();
  for (const std::string &path : paths) {
    test::TestContext t;
    auto module = t.parseModule(test::readFile(path));
    if (!module)
      continue;
    for (ProgramOp program : module->getOps<ProgramOp>())
      expectTheDefinitionsCosts(program, path, repeats);
    if (OwningOpRef<ModuleOp> after = test::compiledByPipeline(*module))
      for (ProgramOp program : after->getOps<ProgramOp>())
        expectTheDefinitionsCosts(program, path + " (compiled)", repeats);
  }
  std::printf("accesses that shared a cost: %u\n", repeats);
  EXPECT_GT(repeats, 500u);
}

TEST(LdsBankConflicts, TheCrossCheckCatchesAWrongModel) {
  // The check is able to fail: executed with 32 banks, the stride-128
  // access of a 64-bank analysis is 64-way, not 32-way.
  Analysed a = analyse(kernel(R"(
  %s128 = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %r = waveasm.ds_read_b32 %s128 : !waveasm.vreg -> !waveasm.vreg loc("R")
)"));
  LdsBankCost executed;
  sim::SimOptions options;
  sim::LDSAccessHook hook = [&](const sim::LDSAccess &access) {
    executed =
        computeLdsBankCost(access.addresses, access.activeMask, 4, 32, 2);
  };
  ASSERT_TRUE(sim::simulateTracingLDS(a.p->program, options, hook).ok());
  EXPECT_EQ(executed.degree, 32u); // two phases of 32 lanes, 32-way each
  EXPECT_EQ(executed.clocks, 64);
  EXPECT_NE(executed.clocks, a.at("R")->cost.clocks);
}

} // namespace

namespace {

TEST(LdsBankConflictsCost, GeneratedProgram) {
  // bench/gen_waveasm.py -n 20000 -o FILE; WAVEASM_BANK_COST_FILE=FILE.
  const char *path = getenv("WAVEASM_BANK_COST_FILE");
  if (!path)
    GTEST_SKIP() << "set WAVEASM_BANK_COST_FILE to a generated kernel";
  auto p = ParsedAnalysisProgram::fromFile(test::readFile(path));
  ASSERT_TRUE(p->program) << p->t.diagnostics;
  ProgramIndex index(p->program);
  const TargetModel &target = TargetModel::get(p->program.getTargetKind());
  auto start = std::chrono::steady_clock::now();
  unsigned repeats = 5, known = 0, conflicting = 0;
  for (unsigned r = 0; r < repeats; ++r) {
    LdsBankConflicts banks(index, target);
    known = conflicting = 0;
    for (const LdsAccessInfo &access : banks.getAccesses()) {
      known += access.known;
      conflicting += access.known && access.cost.extraClocks() > 0;
    }
  }
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count() /
              repeats;
  std::printf("%u ops, %zu ds ops (%u known, %u conflicting): %.2f ms per "
              "analysis\n",
              index.getNumOps(),
              LdsBankConflicts(index, target).getAccesses().size(), known,
              conflicting, ms);
}

} // namespace
