//===- InterfacesTest.cpp - instruction facts and region branches ---------===//

#include "TestUtils.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>
#include <set>

using namespace mlir;
using namespace waveasm;
using waveasm::test::program;
using waveasm::test::TestContext;

namespace {

/// Parses `body` inside a program and returns the first op named `name`.
struct ParsedProgram {
  TestContext t;
  OwningOpRef<ModuleOp> module;

  explicit ParsedProgram(llvm::StringRef body) {
    module = t.parseModule(program(body));
  }
  Operation *find(llvm::StringRef name) {
    Operation *found = nullptr;
    module->walk([&](Operation *op) {
      if (!found && op->getName().getStringRef() == name)
        found = op;
    });
    return found;
  }
  InstInfoOpInterface info(llvm::StringRef name) {
    Operation *op = find(name);
    return op ? dyn_cast<InstInfoOpInterface>(op) : InstInfoOpInterface();
  }
};

const char *kBody = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %a = waveasm.v_add_u32 %tid, %c4 : !waveasm.pvreg<0>, !waveasm.imm<4> -> !waveasm.vreg
  %e = waveasm.v_exp_f32 %a : !waveasm.vreg -> !waveasm.vreg
  %x = waveasm.buffer_load_dwordx4 %srd, %a, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %x, %a : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.s_barrier
  %f = waveasm.ds_read_b64 %a : !waveasm.vreg -> !waveasm.vreg<2, 2>
  %m = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %x : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %s0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %sum, %carry = waveasm.s_add_u32 %s0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_mov_b32_m0 %s0 : !waveasm.sreg
  waveasm.buffer_load_dword_lds %a, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.v_cmp_lt_u32 %a, %c4 : !waveasm.vreg, !waveasm.imm<4>
  %k = waveasm.s_load_dwordx2 %srd, %c0 : !waveasm.psreg<4, 4>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  %r = waveasm.loop (%i = %s0) : (!waveasm.sreg) -> !waveasm.sreg {
    %n, %nc = waveasm.s_add_u32 %i, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %n, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n) : !waveasm.sreg
  }
  waveasm.s_endpgm
)";

} // namespace

TEST(Interfaces, EveryOpCarriesInstInfo) {
  TestContext t;
  auto *dialect = t.ctx.getLoadedDialect<WaveASMDialect>();
  ASSERT_TRUE(dialect);
  unsigned count = 0;
  for (RegisteredOperationName name : t.ctx.getRegisteredOperations()) {
    if (&name.getDialect() != dialect)
      continue;
    ++count;
    EXPECT_TRUE(name.hasInterface<InstInfoOpInterface>())
        << name.getStringRef().str();
  }
  // SPEC.md section 8: 359 ops.
  EXPECT_EQ(count, 359u);
}

// Every op of the upstream op table is registered, and nothing else (skips
// where ../shared is absent, as in a user's clone).
TEST(Interfaces, OpSetMatchesUpstreamTable) {
  auto table = llvm::MemoryBuffer::getFile(
      std::string(waveasm::test::sharedExamplesDir()) + "/../ops.tsv");
  if (!table)
    GTEST_SKIP() << "../shared/waveasm/ops.tsv not present";
  std::set<std::string> expected;
  SmallVector<StringRef> lines;
  (*table)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : llvm::drop_begin(lines)) // header row
    expected.insert(line.split('\t').first.str());
  TestContext t;
  auto *dialect = t.ctx.getLoadedDialect<WaveASMDialect>();
  std::set<std::string> registered;
  for (RegisteredOperationName name : t.ctx.getRegisteredOperations())
    if (&name.getDialect() == dialect)
      registered.insert(name.getStringRef().str());
  EXPECT_EQ(registered, expected);
}

TEST(Interfaces, UnitsAndLatencyClasses) {
  ParsedProgram p(kBody);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  EXPECT_EQ(p.info("waveasm.v_add_u32").getExecUnit(), ExecUnit::VALU);
  EXPECT_EQ(p.info("waveasm.v_add_u32").getLatencyClass(), LatencyClass::VALU);
  EXPECT_EQ(p.info("waveasm.v_exp_f32").getLatencyClass(), LatencyClass::Trans);
  EXPECT_EQ(p.info("waveasm.v_mfma_f32_16x16x16_f16").getExecUnit(),
            ExecUnit::MFMA);
  EXPECT_EQ(p.info("waveasm.s_add_u32").getExecUnit(), ExecUnit::SALU);
  EXPECT_EQ(p.info("waveasm.s_load_dwordx2").getExecUnit(), ExecUnit::SMEM);
  EXPECT_EQ(p.info("waveasm.ds_read_b64").getExecUnit(), ExecUnit::LDS);
  EXPECT_EQ(p.info("waveasm.buffer_load_dwordx4").getExecUnit(),
            ExecUnit::VMEM);
  EXPECT_EQ(p.info("waveasm.s_barrier").getExecUnit(), ExecUnit::Sync);
  EXPECT_EQ(p.info("waveasm.constant").getExecUnit(), ExecUnit::None);
}

TEST(Interfaces, MemoryEffectsAndCounters) {
  ParsedProgram p(kBody);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  InstInfoOpInterface load = p.info("waveasm.buffer_load_dwordx4");
  EXPECT_EQ(load.getMemReads(), unsigned(MemGlobal));
  EXPECT_EQ(load.getMemWrites(), unsigned(MemNone));
  EXPECT_EQ(load.getWaitCounter(), WaitCounter::VMCnt);
  EXPECT_EQ(load.getDataDwords(), 4u);
  InstInfoOpInterface write = p.info("waveasm.ds_write_b128");
  EXPECT_EQ(write.getMemWrites(), unsigned(MemLDS));
  EXPECT_EQ(write.getWaitCounter(), WaitCounter::LGKMCnt);
  InstInfoOpInterface toLds = p.info("waveasm.buffer_load_dword_lds");
  EXPECT_EQ(toLds.getMemReads(), unsigned(MemGlobal));
  EXPECT_EQ(toLds.getMemWrites(), unsigned(MemLDS));
  EXPECT_TRUE(toLds.getImplicitUses() & ImpM0);
  EXPECT_EQ(p.info("waveasm.s_load_dwordx2").getMemReads(),
            unsigned(MemScalar));
  EXPECT_EQ(p.info("waveasm.v_add_u32").getMemReads(), unsigned(MemNone));
}

TEST(Interfaces, ImplicitRegistersTiesAndPinning) {
  ParsedProgram p(kBody);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  EXPECT_EQ(p.info("waveasm.v_mfma_f32_16x16x16_f16").getTiedOperandIndex(), 2);
  EXPECT_EQ(p.info("waveasm.v_add_u32").getTiedOperandIndex(), -1);
  EXPECT_TRUE(p.info("waveasm.s_add_u32").getImplicitDefs() & ImpSCC);
  EXPECT_TRUE(p.info("waveasm.v_cmp_lt_u32").getImplicitDefs() & ImpVCC);
  EXPECT_TRUE(p.info("waveasm.s_mov_b32_m0").getImplicitDefs() & ImpM0);
  EXPECT_TRUE(p.info("waveasm.s_barrier").isPinned());
  EXPECT_TRUE(p.info("waveasm.s_endpgm").isPinned());
  EXPECT_TRUE(p.info("waveasm.condition").isPinned());
  EXPECT_FALSE(p.info("waveasm.v_add_u32").isPinned());
  EXPECT_TRUE(p.info("waveasm.constant").isNonEmitting());
  EXPECT_FALSE(p.info("waveasm.v_add_u32").isNonEmitting());
  EXPECT_EQ(p.info("waveasm.s_load_dwordx2").getDstConstraint(),
            RegClassConstraint::SGPR);
  EXPECT_EQ(p.info("waveasm.v_mfma_f32_16x16x16_f16").getDstConstraint(),
            RegClassConstraint::Vector);
  // Traits the generic passes rely on.
  EXPECT_TRUE(isPure(p.find("waveasm.v_add_u32")));
  EXPECT_FALSE(isPure(p.find("waveasm.s_add_u32")));
  EXPECT_FALSE(isPure(p.find("waveasm.buffer_load_dwordx4")));
}

TEST(Interfaces, LoopRegionBranches) {
  ParsedProgram p(kBody);
  ASSERT_TRUE(p.module) << p.t.diagnostics;
  auto loop = cast<LoopOp>(p.find("waveasm.loop"));
  SmallVector<RegionSuccessor> fromParent, fromBody;
  loop.getSuccessorRegions(RegionBranchPoint::parent(), fromParent);
  ASSERT_EQ(fromParent.size(), 1u);
  EXPECT_EQ(fromParent[0].getSuccessor(), &loop.getBody());
  loop.getSuccessorRegions(loop.getBody(), fromBody);
  ASSERT_EQ(fromBody.size(), 2u);
  EXPECT_TRUE(fromBody[1].isParent());
  EXPECT_EQ(loop.getEntrySuccessorOperands(fromParent[0]).size(), 1u);
  auto loopLike = cast<LoopLikeOpInterface>(loop.getOperation());
  EXPECT_EQ(loopLike.getLoopRegions().size(), 1u);
}
