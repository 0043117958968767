//===- VerifyPassResultTest.cpp - the final verification against MLIR's --===//
//
// pipeline/VerifyPassResult.h verifies each top-level op of a module after
// the passes instead of the whole module (it leaves out the module's symbol
// table). On the pipeline's results it must agree with mlir::verify, and
// IR a pass broke must still fail with the verifier's diagnostic: an
// operand used before its definition, a physical register out of the
// target's range, an op's own invariant, in a later program of the module.
//
//===----------------------------------------------------------------------===//

#include "RandomPrograms.h"
#include "TestUtils.h"

#include "pipeline/Passes.h"
#include "pipeline/VerifyPassResult.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::DeadCodeGenerator;
using waveasm::test::TestContext;

namespace {

/// Both verifications of `module`: whether each succeeded and what it
/// reported.
struct Verdicts {
  bool fast, full;
  std::string fastDiagnostics, fullDiagnostics;
};

Verdicts verifyBoth(TestContext &t, ModuleOp module) {
  Verdicts v;
  t.diagnostics.clear();
  v.fast = succeeded(verifyPassResult(module));
  v.fastDiagnostics = t.diagnostics;
  t.diagnostics.clear();
  v.full = succeeded(mlir::verify(module));
  v.fullDiagnostics = t.diagnostics;
  return v;
}

OwningOpRef<ModuleOp> compiled(TestContext &t, llvm::StringRef text) {
  OwningOpRef<ModuleOp> module = t.parseModule(text);
  if (!module)
    return module;
  t.ctx.disableMultithreading();
  PassManager pm(&t.ctx);
  buildWaveASMPipeline(pm);
  if (failed(pm.run(*module)))
    return nullptr;
  return module;
}

/// Two programs: the second is where the test breaks something.
const char *kTwoPrograms = R"(
waveasm.program @first target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %a = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %a, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
waveasm.program @second target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %a = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %b = waveasm.v_xor_b32 %a, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %b, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
)";

/// The second program's op named `name`.
Operation *findInSecond(ModuleOp module, llvm::StringRef name) {
  auto programs = llvm::to_vector(module.getOps<ProgramOp>());
  Operation *found = nullptr;
  programs.back().walk([&](Operation *op) {
    if (op->getName().getStringRef() == name && !found)
      found = op;
  });
  return found;
}

} // namespace

TEST(VerifyPassResult, AgreesWithMLIRsVerifyOnCompiledRandomPrograms) {
  for (unsigned seed = 1; seed <= 60; ++seed) {
    TestContext t;
    std::string text = DeadCodeGenerator(seed).program();
    OwningOpRef<ModuleOp> module = compiled(t, text);
    ASSERT_TRUE(module) << "seed " << seed << "\n" << t.diagnostics << text;
    Verdicts v = verifyBoth(t, *module);
    EXPECT_TRUE(v.fast) << "seed " << seed << "\n" << v.fastDiagnostics;
    EXPECT_TRUE(v.full) << "seed " << seed << "\n" << v.fullDiagnostics;
  }
}

TEST(VerifyPassResult, AgreesWithMLIRsVerifyOnCompiledExamples) {
  std::vector<std::string> paths = waveasm::test::exampleKernelPaths();
  ASSERT_FALSE(paths.empty());
  unsigned verified = 0;
  for (const std::string &path : paths) {
    std::string text = waveasm::test::readFileText(path);
    ASSERT_FALSE(text.empty()) << path;
    TestContext t;
    OwningOpRef<ModuleOp> module = compiled(t, text);
    if (!module)
      continue; // Counted below: every example compiles.
    Verdicts v = verifyBoth(t, *module);
    EXPECT_EQ(v.fast, v.full) << path << "\n" << v.fullDiagnostics;
    EXPECT_EQ(v.fastDiagnostics, v.fullDiagnostics) << path;
    verified += v.fast;
  }
  EXPECT_EQ(verified, paths.size());
}

TEST(VerifyPassResult, UseBeforeDefinitionInALaterProgramFails) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(kTwoPrograms);
  ASSERT_TRUE(module) << t.diagnostics;
  // As a broken pass might: the xor moves above the add it reads.
  Operation *xorOp = findInSecond(*module, "waveasm.v_xor_b32");
  Operation *addOp = findInSecond(*module, "waveasm.v_add_u32");
  ASSERT_TRUE(xorOp && addOp);
  xorOp->moveBefore(addOp);
  Verdicts v = verifyBoth(t, *module);
  EXPECT_FALSE(v.fast);
  EXPECT_FALSE(v.full);
  EXPECT_NE(v.fastDiagnostics.find("does not dominate this use"),
            std::string::npos)
      << v.fastDiagnostics;
  EXPECT_EQ(v.fastDiagnostics, v.fullDiagnostics);
}

TEST(VerifyPassResult, OutOfRangeRegisterInALaterProgramFails) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(kTwoPrograms);
  ASSERT_TRUE(module) << t.diagnostics;
  // As a broken allocation might: v300 does not exist on gfx942.
  Operation *addOp = findInSecond(*module, "waveasm.v_add_u32");
  ASSERT_TRUE(addOp);
  addOp->getResult(0).setType(
      getPhysicalType(&t.ctx, RegClass::VGPR, /*index=*/300, /*size=*/1));
  Verdicts v = verifyBoth(t, *module);
  EXPECT_FALSE(v.fast);
  EXPECT_FALSE(v.full);
  EXPECT_NE(v.fastDiagnostics.find("out of range"), std::string::npos)
      << v.fastDiagnostics;
  EXPECT_EQ(v.fastDiagnostics, v.fullDiagnostics);
}

TEST(VerifyPassResult, BrokenOpInvariantInALaterProgramFails) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(kTwoPrograms);
  ASSERT_TRUE(module) << t.diagnostics;
  // An SCC result where a vector register must be.
  Operation *xorOp = findInSecond(*module, "waveasm.v_xor_b32");
  ASSERT_TRUE(xorOp);
  xorOp->getResult(0).setType(SCCType::get(&t.ctx));
  Verdicts v = verifyBoth(t, *module);
  EXPECT_FALSE(v.fast);
  EXPECT_FALSE(v.full);
  EXPECT_FALSE(v.fastDiagnostics.empty());
  EXPECT_EQ(v.fastDiagnostics, v.fullDiagnostics);
}

//===----------------------------------------------------------------------===//
// verifyParsedModule: the parser's verification without the symbol walk
//===----------------------------------------------------------------------===//

namespace {

/// `text` parsed without verification, then verified by verifyParsedModule
/// and by mlir::verify: each verdict and what it reported.
Verdicts verifyParsedBoth(llvm::StringRef text) {
  TestContext t;
  ParserConfig config(&t.ctx, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  EXPECT_TRUE(module) << t.diagnostics << text.str();
  Verdicts v{};
  if (!module)
    return v;
  t.diagnostics.clear();
  v.fast = succeeded(verifyParsedModule(*module));
  v.fastDiagnostics = t.diagnostics;
  t.diagnostics.clear();
  v.full = succeeded(mlir::verify(*module));
  v.fullDiagnostics = t.diagnostics;
  return v;
}

} // namespace

TEST(VerifyParsedModule, AgreesWithMLIRsVerifyOnRandomProgramsAndExamples) {
  unsigned checked = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    Verdicts v = verifyParsedBoth(DeadCodeGenerator(seed).program());
    EXPECT_TRUE(v.fast) << "seed " << seed << "\n" << v.fastDiagnostics;
    EXPECT_TRUE(v.full) << "seed " << seed << "\n" << v.fullDiagnostics;
    ++checked;
  }
  for (const std::string &path : waveasm::test::exampleKernelPaths()) {
    Verdicts v = verifyParsedBoth(waveasm::test::readFileText(path));
    EXPECT_EQ(v.fast, v.full) << path << "\n" << v.fullDiagnostics;
    EXPECT_EQ(v.fastDiagnostics, v.fullDiagnostics) << path;
    ++checked;
  }
  EXPECT_GT(checked, 60u);
}

TEST(VerifyParsedModule, ReportsWhatMLIRReportsOnBrokenInput) {
  std::string two = kTwoPrograms;
  auto replaced = [&](llvm::StringRef from, llvm::StringRef to) {
    std::string text = two;
    size_t at = text.rfind(from.str());
    EXPECT_NE(at, std::string::npos) << from.str();
    return text.replace(at, from.size(), to.str());
  };
  struct Case {
    std::string text, expected;
  } cases[] = {
      // Two programs of one name: the symbol table's own check.
      {replaced("@second", "@first"), "redefinition of symbol named 'first'"},
      // An op invariant in the second program: a register out of range.
      {replaced("waveasm.s_endpgm", "%bad = waveasm.precolored.vreg 300 : "
                                    "!waveasm.pvreg<300>\n  waveasm.s_endpgm"),
       "out of range"},
      // A use before its definition in the second program (the parser
      // accepts the forward reference; dominance rejects it).
      {replaced("%a = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>",
                "%a = waveasm.v_add_u32 %b, %tid : !waveasm.vreg"),
       "dominate"},
      // Both programs broken: each reports its error, as mlir::verify
      // reports every failing isolated op.
      {"waveasm.program @a target = #waveasm.target<#waveasm.gfx942> abi = "
       "#waveasm.abi<> {\n  %v = waveasm.precolored.vreg 300 : "
       "!waveasm.pvreg<300>\n  waveasm.s_endpgm\n}\nwaveasm.program @b "
       "target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {\n  "
       "%v = waveasm.precolored.vreg 301 : !waveasm.pvreg<301>\n  "
       "waveasm.s_endpgm\n}\n",
       "v301"},
      // A module attribute without a dialect prefix: the module's own check.
      {"module attributes {foo} {\n" + two + "\n}\n", "foo"},
  };
  for (const Case &c : cases) {
    Verdicts v = verifyParsedBoth(c.text);
    EXPECT_FALSE(v.fast) << c.text;
    EXPECT_FALSE(v.full) << c.text;
    EXPECT_NE(v.fastDiagnostics.find(c.expected), std::string::npos)
        << c.expected << "\n"
        << v.fastDiagnostics;
    EXPECT_EQ(v.fastDiagnostics, v.fullDiagnostics) << c.text;
  }
}
