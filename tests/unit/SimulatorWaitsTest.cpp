//===- SimulatorWaitsTest.cpp - when loads land in the simulator ----------===//
//
// Timing mode on allocated IR written by hand: a load's registers are
// written only when an s_waitcnt covers it (strictWaits, the default:
// hardware guarantees no latency) or when its counter is full (the wave
// cannot issue more, so the oldest is done); with strictWaits=false also
// once its latency has passed.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtils.h"
#include "TestUtils.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;
using waveasm::test::firstProgram;
using waveasm::test::program;
using waveasm::test::TestContext;
using waveasm::test::wordAt;

namespace {

/// s[4:7] is buffer 0's descriptor; v1 = 4 * lane.
const char *kHeader = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.pvreg<1>
)";

/// `count` VALU ops that touch neither the load's register nor the offset.
std::string filler(unsigned count) {
  std::string text;
  for (unsigned i = 0; i < count; ++i)
    text += "  %f" + std::to_string(i) +
            " = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.pvreg<3>\n";
  return text;
}

/// Loads buffer 0's word at 4 * lane + 1024 into v2.
const char *kLoad =
    "  %x = waveasm.buffer_load_dword %out, %off, %c0 offset : 1024 : "
    "!waveasm.psreg<4, 4>, !waveasm.pvreg<1>, !waveasm.imm<0> -> "
    "!waveasm.pvreg<2>\n";

/// Stores `value` (v2) at buffer 0's 4 * lane.
std::string storeV2(const std::string &value) {
  return "  waveasm.buffer_store_dword " + value +
         ", %out, %off : !waveasm.pvreg<2>, !waveasm.psreg<4, 4>, "
         "!waveasm.pvreg<1>\n  waveasm.s_endpgm\n";
}

SimOptions withLatency() {
  SimOptions options;
  options.strictWaits = false;
  return options;
}

TEST(SimulatorWaits, ALoadLandsAtAWaitNotAfterItsLatency) {
  // 150 ops after the load (its latency is 100) and no wait: only a run
  // that trusts latency accepts the read.
  TestContext t;
  auto module = t.parseModule(
      program(std::string(kHeader) + kLoad + filler(150) + storeV2("%x")));
  ASSERT_TRUE(module) << t.diagnostics;
  SimResult strict = simulate(firstProgram(*module));
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.error->kind, SimError::Kind::Race) << strict.error->str();
  EXPECT_NE(strict.error->str().find("no s_waitcnt covers it"),
            std::string::npos)
      << strict.error->str();
  SimResult latency = simulate(firstProgram(*module), withLatency());
  ASSERT_TRUE(latency.ok()) << latency.error->str();
  for (unsigned lane = 0; lane < 64; lane += 21)
    EXPECT_EQ(wordAt(latency, 0, 4 * lane),
              wordAt(latency, 0, 1024 + 4 * lane));
}

TEST(SimulatorWaits, AWriteBeforeTheWaitIsOverwrittenWhenTheLoadLands) {
  // v2 = 5 while the load into v2 is in flight (no wait between them):
  // hardware may write the load's data after the move, as the simulator
  // does when the wait comes; trusting latency, the load was back long
  // before and the move wins.
  TestContext t;
  auto module = t.parseModule(program(
      std::string(kHeader) + kLoad + filler(150) +
      "  %five = waveasm.v_mov_b32 %c5 : !waveasm.imm<5> -> !waveasm.pvreg<2>\n"
      "  waveasm.s_waitcnt vmcnt(0)\n" +
      storeV2("%five")));
  ASSERT_TRUE(module) << t.diagnostics;
  SimResult strict = simulate(firstProgram(*module));
  ASSERT_TRUE(strict.ok()) << strict.error->str();
  SimResult latency = simulate(firstProgram(*module), withLatency());
  ASSERT_TRUE(latency.ok()) << latency.error->str();
  for (unsigned lane = 0; lane < 64; lane += 21) {
    EXPECT_EQ(wordAt(latency, 0, 4 * lane), 5u) << lane;
    EXPECT_EQ(wordAt(strict, 0, 4 * lane), wordAt(strict, 0, 1024 + 4 * lane))
        << lane;
    EXPECT_NE(wordAt(strict, 0, 4 * lane), 5u) << lane;
  }
}

TEST(SimulatorWaits, AFullCounterRetiresItsOldestLoad) {
  // gfx942's vmcnt counts up to 63: after 64 loads the first is done (the
  // wave stalled until it was), the second is not.
  const TargetInfo &target = getTargetInfo(TargetKind::gfx942);
  ASSERT_EQ(target.maxVmcnt, 63);
  auto text = [&](unsigned read) {
    std::string body = kHeader;
    for (unsigned i = 0; i <= unsigned(target.maxVmcnt); ++i)
      body += "  %l" + std::to_string(i) +
              " = waveasm.buffer_load_dword %out, %off, %c0 offset : " +
              std::to_string(1024 + 16 * i) +
              " : !waveasm.psreg<4, 4>, !waveasm.pvreg<1>, !waveasm.imm<0> "
              "-> !waveasm.pvreg<" +
              std::to_string(2 + i) + ">\n";
    body += "  waveasm.buffer_store_dword %l" + std::to_string(read) +
            ", %out, %off : !waveasm.pvreg<" + std::to_string(2 + read) +
            ">, !waveasm.psreg<4, 4>, !waveasm.pvreg<1>\n  waveasm.s_endpgm\n";
    return program(body);
  };
  TestContext t;
  auto first = t.parseModule(text(0));
  auto second = t.parseModule(text(1));
  ASSERT_TRUE(first && second) << t.diagnostics;
  SimResult done = simulate(firstProgram(*first));
  ASSERT_TRUE(done.ok()) << done.error->str();
  EXPECT_EQ(wordAt(done, 0, 0), wordAt(done, 0, 1024));
  SimResult race = simulate(firstProgram(*second));
  ASSERT_FALSE(race.ok());
  EXPECT_EQ(race.error->kind, SimError::Kind::Race) << race.error->str();
}

} // namespace
