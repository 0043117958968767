//===- PatternDriverTest.cpp - the driver's filter of unmatchable ops -----===//
//
// pipeline/opt/PatternDriver.h never queues an op that no pattern can match
// (no pattern rooted on its name, and the match-any patterns' filter rules
// it out). The peephole with that filter must rewrite exactly as it does
// when every op is tried: on random straight-line and loop programs of the
// ops its rules look at (constant moves, shifts, adds, ors, multiplies,
// MFMAs on zero accumulators) mixed with ops no rule looks at, and on every
// input of the repository at the peephole's position in the pipeline.
//
//===----------------------------------------------------------------------===//

#include "MlirInputs.h"
#include "TestUtils.h"

#include "pipeline/opt/PatternDriver.h"
#include "pipeline/opt/PeepholePatterns.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace waveasm;
using waveasm::test::TestContext;

namespace {

/// Random programs of the peephole's shapes.
class PeepholeProgramGenerator {
public:
  explicit PeepholeProgramGenerator(unsigned seed) : rng(seed) {}

  std::string program() {
    out.clear();
    vregs = {"%tid"};
    counter = 0;
    line("%tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>");
    line("%srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>");
    line("%ma = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>");
    line("%mb = waveasm.precolored.vreg 4, 2 : !waveasm.vreg<2, 2>");
    for (int64_t c : kConstants)
      line("%c" + name(c) + " = waveasm.constant " + std::to_string(c) +
           " : !waveasm.imm<" + std::to_string(c) + ">");
    straightLine(20 + rng() % 40);
    if (rng() % 2) {
      // A loop whose body reads values from before it.
      line("%s0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg");
      line("%r:2 = waveasm.loop (%i = %s0, %acc = %tid) : (!waveasm.sreg, "
           "!waveasm.pvreg<0>) -> (!waveasm.sreg, !waveasm.vreg) {");
      vregs.push_back("%acc");
      straightLine(10 + rng() % 20);
      line("%last = waveasm.v_add_u32 %acc, " + vregs.back() +
           " : !waveasm.pvreg<0>, " + operandType(vregs.back()) +
           " -> !waveasm.vreg");
      line("%n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, "
           "!waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc");
      line("%go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, "
           "!waveasm.imm<8> -> !waveasm.scc");
      line("waveasm.condition %go : !waveasm.scc iter_args(%n#0, %last) : "
           "!waveasm.sreg, !waveasm.vreg");
      line("}");
      vregs.resize(1); // the loop's values are out of scope
    }
    line("waveasm.s_endpgm");
    return waveasm::test::program(out);
  }

private:
  static constexpr int64_t kConstants[] = {0, 1, 2, 3, 4, 8, 16, 31, 1000};
  std::mt19937 rng;
  std::string out;
  std::vector<std::string> vregs;
  unsigned counter = 0;

  static std::string name(int64_t c) { return std::to_string(c); }
  void line(const std::string &text) { out += "  " + text + "\n"; }
  int64_t constant() { return kConstants[rng() % std::size(kConstants)]; }
  std::string fresh() { return "%v" + std::to_string(counter++); }
  /// An operand: a vreg of the scope or, now and then, a constant.
  std::pair<std::string, std::string> operand(bool constantsToo) {
    if (constantsToo && rng() % 4 == 0) {
      int64_t c = constant();
      return {"%c" + name(c), "!waveasm.imm<" + name(c) + ">"};
    }
    const std::string &v = vregs[rng() % vregs.size()];
    return {v, operandType(v)};
  }
  static std::string operandType(const std::string &v) {
    bool precolored = v == "%tid" || v == "%acc"; // %acc: a loop argument
    return precolored ? "!waveasm.pvreg<0>" : "!waveasm.vreg";
  }

  void straightLine(unsigned ops) {
    static const char *binaries[] = {
        "v_add_u32", "v_add_u32",     "v_sub_u32",     "v_and_b32",
        "v_or_b32",  "v_lshlrev_b32", "v_lshrrev_b32", "v_mul_lo_u32",
        "v_xor_b32", "v_max_u32"};
    for (unsigned k = 0; k < ops; ++k) {
      unsigned kind = rng() % 10;
      std::string v = fresh();
      if (kind < 2) {
        int64_t c = constant();
        line(v + " = waveasm.v_mov_b32 %c" + name(c) + " : !waveasm.imm<" +
             name(c) + "> -> !waveasm.vreg");
      } else if (kind < 8) {
        const char *op = binaries[rng() % std::size(binaries)];
        auto [a, ta] = operand(true);
        auto [b, tb] = operand(false);
        if (rng() % 2)
          std::swap(a, b), std::swap(ta, tb);
        line(v + " = waveasm." + op + " " + a + ", " + b + " : " + ta + ", " +
             tb + " -> !waveasm.vreg");
      } else if (kind == 8) {
        // An MFMA on a fresh zero (or a shared one, or a kept one).
        std::string z = fresh();
        line(z + " = waveasm.v_mov_b32 %c0" +
             std::string(rng() % 4 == 0 ? " {no_cse}" : "") +
             " : !waveasm.imm<0> -> !waveasm.vreg<4, 4>");
        line(v + " = waveasm.v_mfma_f32_16x16x16_f16 %ma, %mb, " + z +
             " : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, "
             "!waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>");
        line("waveasm.dce_protect " + v + " : !waveasm.vreg<4, 4>");
        if (rng() % 3 == 0)
          line("waveasm.dce_protect " + z + " : !waveasm.vreg<4, 4>");
        continue;
      } else {
        // Ops no rule looks at: a store and a scalar move.
        auto [a, ta] = operand(false);
        line("waveasm.buffer_store_dword " + a + ", %srd, %tid : " + ta +
             ", !waveasm.psreg<4, 4>, !waveasm.pvreg<0>");
        line(v + " = waveasm.s_mov_b32 %c4 : !waveasm.imm<4> -> "
                 "!waveasm.sreg");
        continue;
      }
      vregs.push_back(v);
      if (rng() % 3 == 0)
        line("waveasm.buffer_store_dword " + v + ", %srd, %tid : " +
             "!waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>");
    }
  }
};

/// `module` after the peephole's patterns, with or without the filter.
std::string peephole(MLIRContext &ctx, ModuleOp module, bool filtered) {
  RewritePatternSet patterns(&ctx);
  populatePeepholeArithmeticPatterns(patterns);
  populateLDSSoffsetPatterns(patterns);
  FrozenRewritePatternSet frozen(std::move(patterns));
  // (A null function pointer would make a non-null function_ref.)
  function_ref<bool(Operation *)> anyOpMayMatch;
  if (filtered)
    anyOpMayMatch = peepholeAnyOpMayMatch;
  for (Operation &op : module.getBody()->getOperations())
    applyPatternsWithWorklist(&op, frozen, "test", anyOpMayMatch);
  return waveasm::test::print(module);
}

/// Compares both on a copy of `module` each; true if the patterns changed
/// it.
bool checkBothEqual(MLIRContext &ctx, ModuleOp module,
                    const std::string &what) {
  std::string before = waveasm::test::print(module);
  OwningOpRef<ModuleOp> a = module.clone(), b = module.clone();
  std::string filtered = peephole(ctx, *a, true);
  std::string everyOp = peephole(ctx, *b, false);
  EXPECT_EQ(filtered, everyOp) << what;
  return everyOp != before;
}

TEST(PatternDriver, FilteredPeepholeEqualsEveryOpOnRandomPrograms) {
  unsigned changed = 0, mfma = 0;
  for (unsigned seed = 1; seed <= 300; ++seed) {
    TestContext t;
    std::string text = PeepholeProgramGenerator(seed).program();
    OwningOpRef<ModuleOp> module = t.parseModule(text);
    ASSERT_TRUE(module) << "seed " << seed << "\n" << t.diagnostics << text;
    changed += checkBothEqual(t.ctx, *module,
                              "seed " + std::to_string(seed) + "\n" + text);
    OwningOpRef<ModuleOp> copy = module->clone();
    std::string after = peephole(t.ctx, *copy, true);
    // The MFMA rule (the match-any pattern the filter asks about) fired:
    // an accumulator became the immediate 0.
    mfma += llvm::StringRef(after).contains(
        "!waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>");
    if (HasFailure())
      return;
  }
  // The programs do give the rules work, the MFMA rule included.
  EXPECT_GT(changed, 250u);
  EXPECT_GT(mfma, 50u);
}

TEST(PatternDriver, FilteredPeepholeEqualsEveryOpOnEveryInput) {
  unsigned changed = 0, inputs = 0;
  waveasm::test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        // The peephole's position in the pipeline: after arith
        // legalization and scoped CSE.
        MLIRContext *ctx = module.getContext();
        OwningOpRef<ModuleOp> copy = module.clone();
        PassManager pm = PassManager::on<ModuleOp>(ctx);
        OpPassManager &programPM = pm.nest<ProgramOp>();
        programPM.addPass(createWaveASMArithLegalization());
        programPM.addPass(createWaveASMScopedCSE());
        if (failed(pm.run(*copy)))
          return;
        ++inputs;
        changed += checkBothEqual(*ctx, *copy, name);
      });
  EXPECT_GT(inputs, 100u);
  EXPECT_GT(changed, 20u);
}

} // namespace
