//===- AssemblyEmitterTest.cpp - line map, counts and speed of the emitter ===//

#include "TestUtils.h"

#include "pipeline/AssemblyEmitter.h"

#include "llvm/ADT/StringExtras.h"

#include <chrono>
#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::TestContext;

namespace {

const char *kProgram = R"(
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c1000 = waveasm.constant 1000 : !waveasm.imm<1000>
  %a = waveasm.v_mul_lo_u32 %v0, %c1000 : !waveasm.pvreg<0>, !waveasm.imm<1000> -> !waveasm.pvreg<20>
  %r = waveasm.loop (%i = %s8) : (!waveasm.psreg<8>) -> !waveasm.psreg<8> {
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.psreg<8>, !waveasm.imm<1> -> !waveasm.psreg<8>, !waveasm.scc
    %c = waveasm.s_cmp_lt_u32 %n#0, %c1000 : !waveasm.psreg<8>, !waveasm.imm<1000> -> !waveasm.scc
    waveasm.condition %c : !waveasm.scc iter_args(%n#0) : !waveasm.psreg<8>
  }
  %acc = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pareg<0, 2>
  waveasm.comment "done"
  waveasm.s_endpgm
}
)";

/// The op that produced `line` (whose text is `expected`).
Operation *opOfLine(ArrayRef<StringRef> lines, const AsmLineMap &map,
                    StringRef expected) {
  for (auto [i, line] : llvm::enumerate(lines))
    if (line == expected)
      return map.lineOps[i];
  ADD_FAILURE() << "no line '" << expected.str() << "'";
  return nullptr;
}

StringRef nameOf(Operation *op) {
  return op ? op->getName().getStringRef() : StringRef("<null>");
}

TEST(AssemblyEmitter, LineMapAndInfo) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(kProgram);
  ASSERT_TRUE(module);
  auto program = *module->getOps<ProgramOp>().begin();
  std::string text;
  llvm::raw_string_ostream os(text);
  AsmLineMap map;
  EmittedProgramInfo info;
  ASSERT_TRUE(succeeded(emitProgramAssembly(program, os, &map, &info)))
      << t.diagnostics;
  SmallVector<StringRef> lines;
  StringRef(text).split(lines, '\n');
  ASSERT_EQ(lines.back(), ""); // the text ends with a newline
  lines.pop_back();
  ASSERT_EQ(map.lineOps.size(), lines.size());

  EXPECT_EQ(nameOf(opOfLine(lines, map, "  v_mov_b32 v15, 1000")),
            "waveasm.v_mul_lo_u32");
  EXPECT_EQ(nameOf(opOfLine(lines, map, "  v_mul_lo_u32 v20, v0, v15")),
            "waveasm.v_mul_lo_u32");
  EXPECT_EQ(nameOf(opOfLine(lines, map, "L_loop_0:")), "waveasm.loop");
  EXPECT_EQ(nameOf(opOfLine(lines, map, "  s_add_u32 s8, s8, 1")),
            "waveasm.s_add_u32");
  EXPECT_EQ(nameOf(opOfLine(lines, map, "  s_cbranch_scc1 L_loop_0")),
            "waveasm.condition");
  EXPECT_EQ(nameOf(opOfLine(lines, map, "  v_accvgpr_write_b32 a1, 1")),
            "waveasm.v_mov_b32");
  EXPECT_EQ(nameOf(opOfLine(lines, map, "  ; done")), "waveasm.comment");
  EXPECT_EQ(opOfLine(lines, map, ".amdhsa_kernel k"), nullptr);
  EXPECT_EQ(opOfLine(lines, map, "k:"), nullptr);

  EXPECT_EQ(info.kernelName, "k");
  EXPECT_EQ(info.vgprCount, 21);
  EXPECT_EQ(info.agprCount, 2);
  EXPECT_EQ(info.sgprCount, 9);
  // v_mov v15, v_mul, s_add, s_cmp, s_cbranch, 2 x accvgpr_write, s_endpgm.
  EXPECT_EQ(info.instructionCount, 8);
}

TEST(AssemblyEmitter, ModuleLineMapContinues) {
  TestContext t;
  std::string twoPrograms = std::string(kProgram) + R"(
waveasm.program @k2 target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  waveasm.s_endpgm
}
)";
  OwningOpRef<ModuleOp> module = t.parseModule(twoPrograms);
  ASSERT_TRUE(module);
  std::string text;
  llvm::raw_string_ostream os(text);
  AsmLineMap map;
  map.lineOps.resize(3, nullptr); // lines written before by the caller
  ASSERT_TRUE(succeeded(emitModuleAssembly(*module, os, &map)))
      << t.diagnostics;
  SmallVector<StringRef> lines;
  StringRef(text).split(lines, '\n');
  lines.pop_back();
  ASSERT_EQ(map.lineOps.size(), 3 + lines.size());
  size_t endpgms = 0;
  for (auto [i, line] : llvm::enumerate(lines))
    if (line == "  s_endpgm") {
      EXPECT_EQ(nameOf(map.lineOps[3 + i]), "waveasm.s_endpgm");
      ++endpgms;
    }
  EXPECT_EQ(endpgms, 2u);
  EXPECT_EQ(StringRef(text).count(".amdgcn_target"), 1u);
  EXPECT_EQ(StringRef(text).count(".amdgpu_metadata\n"), 1u);
}

TEST(AssemblyEmitter, NothingWrittenOnFailure) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(R"(
waveasm.program @bad target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %s = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  waveasm.s_endpgm
}
)");
  ASSERT_TRUE(module);
  std::string text;
  llvm::raw_string_ostream os(text);
  AsmLineMap map;
  EXPECT_TRUE(failed(emitModuleAssembly(*module, os, &map)));
  EXPECT_TRUE(text.empty());
  EXPECT_TRUE(map.lineOps.empty());
  EXPECT_NE(t.diagnostics.find("result #0 is not allocated"),
            std::string::npos);
}

/// 20,000 instructions (VALU with literals, SALU, loads, LDS, MFMA) emitted
/// in well under a frame; the bound is loose for slow CI machines.
TEST(AssemblyEmitter, TwentyThousandInstructions) {
  std::string body = R"(
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %ab = waveasm.precolored.vreg 16, 2 : !waveasm.pvreg<16, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
)";
  for (int i = 0; i < 4000; ++i) {
    std::string lit = std::to_string(1000 + i % 7);
    body += "  %a" + std::to_string(i) + " = waveasm.v_mul_lo_u32 %v0, %c" +
            lit + " : !waveasm.pvreg<0>, !waveasm.imm<" + lit +
            "> -> !waveasm.pvreg<20>\n";
    body += "  %b" + std::to_string(i) +
            ":2 = waveasm.s_add_u32 %s8, %c1 : !waveasm.psreg<8>, "
            "!waveasm.imm<1> -> !waveasm.psreg<9>, !waveasm.scc\n";
    body += "  %l" + std::to_string(i) +
            " = waveasm.buffer_load_dwordx4 %srd, %v0, %s8 offset : 16 : "
            "!waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.psreg<8> -> "
            "!waveasm.pvreg<24, 4>\n";
    body += "  %m" + std::to_string(i) +
            " = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : "
            "!waveasm.pvreg<16, 2>, !waveasm.pvreg<16, 2>, !waveasm.imm<0> "
            "-> !waveasm.pareg<0, 4>\n";
  }
  for (int k = 0; k < 7; ++k)
    body += "  %c" + std::to_string(1000 + k) + " = waveasm.constant " +
            std::to_string(1000 + k) + " : !waveasm.imm<" +
            std::to_string(1000 + k) + ">\n";
  // Constants must dominate their uses: put them first.
  size_t firstUse = body.find("  %a0 =");
  size_t constStart = body.find("  %c1000 =");
  std::string constants = body.substr(constStart);
  body = body.substr(0, firstUse) + constants +
         body.substr(firstUse, constStart - firstUse);
  body += "  waveasm.s_endpgm\n";

  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(waveasm::test::program(body));
  ASSERT_TRUE(module) << t.diagnostics;
  auto program = *module->getOps<ProgramOp>().begin();
  std::string text;
  text.reserve(1 << 20);
  llvm::raw_string_ostream os(text);
  AsmLineMap map;
  EmittedProgramInfo info;
  auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(succeeded(emitProgramAssembly(program, os, &map, &info)))
      << t.diagnostics;
  auto elapsed = std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - start)
                     .count();
  // 4000 x (v_mov_b32 v15 + v_mul_lo + s_add + load + mfma) + s_endpgm.
  EXPECT_EQ(info.instructionCount, 4000 * 5 + 1);
  RecordProperty("emit_ms", std::to_string(elapsed));
  std::printf("emitted %lld instructions in %.2f ms\n",
              static_cast<long long>(info.instructionCount), elapsed);
  EXPECT_LT(elapsed, 500.0);
}

} // namespace
