//===- LoopOptimizationsTest.cpp - what the optimizations did, shown ------===//
//
// The optimization trace of compile-and-measure, and where the server shows
// it: the loop's code lens and hover, the `optimization` lint and the
// "Apply loop optimizations" code action. On seed 001's kernel
// (examples/mxfp4_preshuffle_gemm_loop.mlir), whose loop loses its scale
// repacking and its buffer-load address arithmetic.
//
//===----------------------------------------------------------------------===//

#include "ServerTestUtils.h"
#include "StrategiesTestUtils.h"

#include "pipeline/CompileAndMeasure.h"

#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::test;

namespace {

std::string seedKernel() {
  return readKernel(examplePath("mxfp4_preshuffle_gemm_loop.mlir"));
}

const LoopPassEffect *passEffect(const LoopOptimizationEffect &effect,
                                 llvm::StringRef pass) {
  for (const LoopPassEffect &e : effect.passes)
    if (e.pass == pass)
      return &e;
  return nullptr;
}

TEST(OptimizationTrace, RecordsWhatEachPassDidToTheLoop) {
  MLIRContext ctx;
  ctx.loadDialect<WaveASMDialect>();
  std::string text = seedKernel();
  ASSERT_FALSE(text.empty());
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  ASSERT_TRUE(module);
  CompileOptions options;
  options.traceOptimizations = true;
  options.keepCompiledModule = true;
  FailureOr<CompileResult> result = compileAndMeasure(*module, options);
  ASSERT_TRUE(succeeded(result));
  ASSERT_EQ(result->programs.size(), 1u);
  const std::vector<LoopOptimizationEffect> &effects =
      result->programs[0].loopEffects;
  ASSERT_EQ(effects.size(), 1u);
  const LoopOptimizationEffect &loop = effects[0];
  // The effect names the loop of the compiled module.
  ASSERT_TRUE(loop.loop);
  EXPECT_EQ(loop.loop->getParentOfType<ModuleOp>(), *result->compiled);
  // Seed 001's table: 14 VALU of scale repacking, 12 of buffer-load
  // addresses leave the loop.
  const LoopPassEffect *scale =
      passEffect(loop, "waveasm-scale-pack-elimination");
  ASSERT_TRUE(scale);
  EXPECT_EQ(scale->delta.valu, -14);
  const LoopPassEffect *strength =
      passEffect(loop, "waveasm-buffer-load-strength-reduction");
  ASSERT_TRUE(strength);
  // 12 address VALU ops in all: the peephole fuses shift+add pairs first
  // (lshl+add fusion), strength reduction removes what is left.
  EXPECT_LE(strength->delta.valu, -8);
  EXPECT_GT(strength->delta.salu, 0); // the soffset bumps
  EXPECT_LT(loop.after.total(), loop.before.total());
  EXPECT_LT(loop.after.valu, loop.before.valu);
  EXPECT_GT(loop.liveVGPRsBefore, 0);
  // Passes that changed nothing are not listed; the sum of the deltas is
  // the change of the totals.
  int64_t sum = 0;
  for (const LoopPassEffect &e : loop.passes) {
    EXPECT_TRUE(e.delta.valu || e.delta.salu || e.delta.other) << e.pass;
    sum += e.delta.total();
  }
  EXPECT_EQ(sum, loop.after.total() - loop.before.total());

  // Without the option nothing is recorded; the backend pipeline changes
  // nothing to record.
  CompileOptions plain;
  FailureOr<CompileResult> untraced = compileAndMeasure(*module, plain);
  ASSERT_TRUE(succeeded(untraced));
  EXPECT_TRUE(untraced->programs[0].loopEffects.empty());
}

TEST(LoopOptimizations, LensHoverAndLint) {
  ServerDoc d(seedKernel());
  ASSERT_TRUE(d.compiled->succeeded());
  lsp::Position loopPos = d.pos("waveasm.loop", 3);

  std::vector<lsp::CodeLens> lenses =
      computeCodeLenses(*d.parsed, d.compiled.get());
  std::string lens;
  for (const lsp::CodeLens &l : lenses)
    if (l.command &&
        llvm::StringRef(l.command->title).starts_with("optimizations:"))
      lens = l.command->title;
  EXPECT_NE(lens.find("scale packs -14 VALU"), std::string::npos) << lens;
  EXPECT_NE(lens.find("strength reduction -"), std::string::npos) << lens;
  EXPECT_NE(lens.find("live VGPR"), std::string::npos) << lens;

  std::optional<lsp::Hover> hover =
      computeHover(*d.parsed, d.compiled.get(), loopPos);
  ASSERT_TRUE(hover);
  EXPECT_NE(hover->contents.value.find("**Optimizations**"), std::string::npos)
      << hover->contents.value;
  EXPECT_NE(
      hover->contents.value.find("`waveasm-scale-pack-elimination`: -14 VALU"),
      std::string::npos)
      << hover->contents.value;

  std::vector<lsp::Diagnostic> lints =
      computeLints(*d.parsed, *d.compiled, d.settings);
  auto lint = llvm::find_if(lints, [](const lsp::Diagnostic &diag) {
    return diag.code == "optimization";
  });
  ASSERT_NE(lint, lints.end());
  EXPECT_EQ(lint->severity, lsp::DiagnosticSeverity::Information);
  EXPECT_EQ(lint->range.start.line, loopPos.line);
  EXPECT_NE(lint->message.find("the compiler removes"), std::string::npos)
      << lint->message;
  // The severity setting switches it off.
  d.settings.severityOf(server::LintCode::Optimization) =
      server::LintSeverity::Off;
  EXPECT_TRUE(llvm::none_of(
      computeLints(*d.parsed, *d.compiled, d.settings),
      [](const lsp::Diagnostic &diag) { return diag.code == "optimization"; }));

  // With the backend pipeline there is nothing to show.
  server::ServerSettings backend;
  backend.optimizePipeline = false;
  ServerDoc plain(seedKernel(), true, backend);
  for (const lsp::CodeLens &l :
       computeCodeLenses(*plain.parsed, plain.compiled.get()))
    EXPECT_FALSE(
        l.command &&
        llvm::StringRef(l.command->title).starts_with("optimizations:"));
}

TEST(LoopOptimizations, ApplyReplacesTheProgramWithVerifiedOptimizedIR) {
  ServerDoc d(seedKernel());
  ASSERT_TRUE(d.compiled->succeeded());
  std::optional<lsp::CodeAction> action = computeApplyOptimizationsAction(
      *d.parsed, d.compiled.get(), d.pos("waveasm.loop", 3));
  ASSERT_TRUE(action);
  EXPECT_TRUE(llvm::StringRef(action->title)
                  .starts_with("Apply loop optimizations: est_cycles "))
      << action->title;
  ASSERT_TRUE(action->edit);
  std::vector<lsp::TextEdit> edits;
  for (const auto &[uri, list] : action->edit->changes)
    edits.insert(edits.end(), list.begin(), list.end());
  ASSERT_EQ(edits.size(), 1u);
  std::string optimized = applyEdits(d.text, edits);
  // The result verifies, is still virtual (no allocation) and its loop
  // body has lost the repacking.
  ServerDoc after(optimized);
  ASSERT_TRUE(after.parsed->isVerified());
  ASSERT_TRUE(after.compiled->succeeded());
  EXPECT_EQ(optimized.find("!waveasm.pvreg<1"), std::string::npos);
  size_t loopAt = optimized.find("waveasm.loop");
  ASSERT_NE(loopAt, std::string::npos);
  EXPECT_EQ(
      llvm::StringRef(optimized).substr(loopAt).count("waveasm.v_lshl_or_b32"),
      0u);
  // Re-optimizing the optimized IR changes (almost) nothing more: its
  // figures equal what the editor showed for the written IR.
  EXPECT_EQ(after.compiled->getPrograms()[0].result.metrics.peak_vgpr,
            d.compiled->getPrograms()[0].result.metrics.peak_vgpr);

  // Outside a program, or on a program whose loops nothing changes: none.
  ServerDoc simple(serverProgram(kLoadUse));
  EXPECT_FALSE(computeApplyOptimizationsAction(
      *simple.parsed, simple.compiled.get(), simple.pos("waveasm.v_add_u32")));
}

} // namespace
