//===- SimulatorCoverageTest.cpp - the op list and bad input --------------===//
//
// The list of ops simulated and not (sim/OpCoverage.h, `waveasm-sim
// --list-ops`) against execution: every op of the emit-all-ops files runs
// alone, and stops as "not simulated", by name, exactly when the list says
// so. Bad input: an access outside every buffer is a fault naming the op
// and the lane, a buffer access is range-checked per dword, and a second
// program that cannot run makes the compare "not checked", never "equal".
//
//===----------------------------------------------------------------------===//

#include "ConductorTestUtils.h"
#include "SimTestUtils.h"
#include "TestUtils.h"

#include "sim/Compare.h"
#include "sim/OpCoverage.h"

#include <gtest/gtest.h>

#include <map>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;
using waveasm::test::firstProgram;
using waveasm::test::kSimHeader;
using waveasm::test::program;
using waveasm::test::TestContext;
using waveasm::test::wordAt;

namespace {

/// The ops every one-op program keeps: the registers and constants the
/// file's ops read.
bool isPrelude(Operation &op) {
  return isa<PrecoloredVRegOp, PrecoloredSRegOp, PrecoloredARegOp, ConstantOp,
             DCEProtectOp>(op);
}

/// Runs each op of `file` (one instance of every op with an assembly form)
/// alone after the prelude and checks that it stops as not simulated, by
/// name, exactly when the list says so. Returns the ops checked.
unsigned expectListMatchesExecution(const std::string &file) {
  TestContext t;
  auto module = t.parseModule(test::readFile(file));
  EXPECT_TRUE(module) << t.diagnostics;
  if (!module)
    return 0;
  std::map<std::string, bool> listed;
  for (const OpCoverage &op : listOpCoverage(t.ctx))
    listed[op.name] = op.simulated;
  SimOptions options;
  options.timing = false;
  options.waves = 1;
  unsigned checked = 0;
  unsigned count = firstProgram(*module).getBodyBlock().getOperations().size();
  for (unsigned index = 0; index < count; ++index) {
    OwningOpRef<ModuleOp> one = cast<ModuleOp>((*module)->clone());
    Block &body = firstProgram(*one).getBodyBlock();
    Operation *kept = &*std::next(body.begin(), index);
    if (isPrelude(*kept))
      continue;
    // Users before their definitions; an op the kept one reads stays.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
      if (&op != kept && !isPrelude(op) && op.use_empty())
        op.erase();
    std::string name = kept->getName().stripDialect().str();
    auto entry = listed.find(name);
    EXPECT_NE(entry, listed.end()) << name;
    if (entry == listed.end())
      continue;
    SimResult result = simulate(firstProgram(*one), options);
    bool stoppedAsNotSimulated =
        result.error && result.error->kind == SimError::Kind::NotSimulated;
    EXPECT_EQ(!stoppedAsNotSimulated, entry->second)
        << name << ": listed as "
        << (entry->second ? "simulated" : "not simulated") << ", ran "
        << (result.error ? result.error->str() : "to its end");
    if (stoppedAsNotSimulated)
      EXPECT_NE(result.error->where.find("'waveasm." + name + "'"),
                std::string::npos)
          << result.error->str();
    ++checked;
  }
  return checked;
}

TEST(SimulatorCoverage, TheListIsWhatExecutionDoes) {
  std::string dir =
      std::string(waveasm::test::examplesDir()) + "/../tests/lit/pipeline";
  EXPECT_GE(expectListMatchesExecution(dir + "/emit-all-ops-gfx942.mlir"),
            300u);
  EXPECT_GE(expectListMatchesExecution(dir + "/emit-all-ops-gfx950.mlir"),
            300u);
}

TEST(SimulatorCoverage, EveryOpOfTheDialectIsListedOnce) {
  TestContext t;
  std::vector<OpCoverage> list = listOpCoverage(t.ctx);
  // SPEC.md section 8: 359 ops.
  EXPECT_EQ(list.size(), 359u);
  std::map<std::string, OpCoverage> byName;
  for (const OpCoverage &op : list)
    EXPECT_TRUE(byName.emplace(op.name, op).second) << op.name;
  // A few of each kind, by hand.
  EXPECT_TRUE(byName["v_add_u32"].simulated);
  EXPECT_EQ(byName["v_add_u32"].family, "VALU");
  EXPECT_TRUE(byName["v_mfma_f32_32x32x8_f16"].simulated);
  EXPECT_EQ(byName["v_mfma_f32_32x32x8_f16"].family, "MFMA");
  EXPECT_FALSE(byName["v_mfma_f32_16x16x4_f16"].simulated); // multi-block
  EXPECT_FALSE(byName["v_mfma_f64_16x16x4_f64"].simulated);
  EXPECT_FALSE(byName["v_fma_f16"].simulated);
  EXPECT_TRUE(byName["s_add_u32"].simulated);
  EXPECT_TRUE(byName["ds_read2_b32"].simulated);
  EXPECT_EQ(byName["ds_read2_b32"].family, "LDS");
  EXPECT_TRUE(byName["loop"].simulated);
  EXPECT_TRUE(byName["program"].simulated);
}

TEST(SimulatorBadInput, AnAccessOutsideEveryBufferNamesTheOpAndLane) {
  // A global pointer 16 MiB before the end of buffer 5's window (the last
  // of six), lane l 4 MiB * l bytes on: lane 4 is the first past it.
  TestContext t;
  std::string source = program(std::string(kSimHeader) + R"(
  %base = waveasm.constant 30047993856 : !waveasm.imm<30047993856>
  %ptr = waveasm.s_mov_b64 %base : !waveasm.imm<30047993856> -> !waveasm.sreg<2, 2>
  %c22 = waveasm.constant 22 : !waveasm.imm<22>
  %far = waveasm.v_lshlrev_b32 %c22, %tid : !waveasm.imm<22>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.global_load_dword %ptr, %far, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %out, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)");
  auto module = t.parseModule(source);
  ASSERT_TRUE(module) << t.diagnostics;
  SimResult result = simulate(firstProgram(*module));
  ASSERT_TRUE(result.error);
  EXPECT_EQ(result.error->kind, SimError::Kind::Fault);
  EXPECT_EQ(result.error->lane, 4);
  // The op's line and column in the program text, the op, the address
  // and the lane.
  llvm::StringRef text(source);
  size_t at = text.find("waveasm.global_load_dword");
  unsigned line = text.take_front(at).count('\n') + 1;
  unsigned column = at - text.take_front(at).rfind('\n');
  EXPECT_NE(result.error->str().find(
                ":" + std::to_string(line) + ":" + std::to_string(column) +
                ": 'waveasm.global_load_dword': fault: reads 4 bytes at "
                "0x700000000, outside every simulated buffer (lane 4)"),
            std::string::npos)
      << result.error->str();
  // A compare with a program that faults is not checked, never equal.
  auto fine =
      t.parseModule(program(std::string(kSimHeader) + "  waveasm.s_endpgm\n"));
  ASSERT_TRUE(fine) << t.diagnostics;
  Comparison c = compareOnSeeds(firstProgram(*fine), firstProgram(*module), 2);
  EXPECT_EQ(c.verdict, Comparison::Verdict::NotChecked) << c.message;
  EXPECT_NE(c.message.find("second program: "), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("(lane 4)"), std::string::npos) << c.message;
}

TEST(SimulatorBadInput, BufferRangeChecksPerDword) {
  // A dwordx2 store straddling the descriptor's end (1 MiB of records):
  // its first dword is stored, the second dropped; a load there reads the
  // first back and 0 for the second, as on hardware.
  TestContext t;
  auto module = t.parseModule(program(std::string(kSimHeader) + R"(
  %end = waveasm.constant 1048572 : !waveasm.imm<1048572>
  %at = waveasm.v_mov_b32 %end : !waveasm.imm<1048572> -> !waveasm.vreg
  %x = waveasm.v_add_u32 %tid, %c7 : !waveasm.pvreg<0>, !waveasm.imm<7> -> !waveasm.vreg
  %pair = waveasm.pack %x, %x : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  waveasm.buffer_store_dwordx2 %pair, %out, %at : !waveasm.vreg<2, 2>, !waveasm.psreg<4, 4>, !waveasm.vreg
  %back = waveasm.buffer_load_dwordx2 %out, %at, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %b0 = waveasm.extract %back[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %b1 = waveasm.extract %back[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  waveasm.buffer_store_dword %b0, %out, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %b1, %out, %off offset : 256 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(module) << t.diagnostics;
  SimResult result = simulate(firstProgram(*module));
  ASSERT_TRUE(result.ok()) << result.error->str();
  // Every lane stored to the same place: the last lane's value is left.
  EXPECT_EQ(wordAt(result, 0, 1048572), 63u + 7u);
  std::vector<uint8_t> past = initialBytes(1, bufferAddress(0) + 1048576, 4);
  uint32_t untouched;
  std::memcpy(&untouched, past.data(), 4);
  EXPECT_EQ(wordAt(result, 0, 1048576), untouched);
  for (unsigned lane : {0u, 63u}) {
    EXPECT_EQ(wordAt(result, 0, 4 * lane), 70u);
    EXPECT_EQ(wordAt(result, 0, 256 + 4 * lane), 0u);
  }
}

} // namespace
