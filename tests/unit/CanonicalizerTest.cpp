//===- CanonicalizerTest.cpp - the pipeline's canonicalize, fast and slow -===//
//
// pipeline/OneSweepCanonicalizer.h erases trivially dead ops itself when the
// IR is WaveASM only, instead of running the greedy driver. Both must give
// the same IR: on random programs full of dead chains (inside and across
// loops) and dead constants, and on the examples at the pipeline's position
// of canonicalize (after the passes before it).
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "pipeline/OneSweepCanonicalizer.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace waveasm;
using waveasm::test::TestContext;

namespace {

/// Random programs: VALU chains whose results are stored, used later or
/// left dead; constants used or not; loops (pure or storing, nested) whose
/// results are used or not, with dead ops inside that use outer values.
class DeadCodeGenerator {
public:
  explicit DeadCodeGenerator(unsigned seed) : rng(seed) {}

  std::string program() {
    out = "waveasm.program @dce target = #waveasm.target<#waveasm.gfx942> "
          "abi = #waveasm.abi<> {\n";
    scopes.assign(1, {});
    line("%tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>");
    line("%srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>");
    line("%c0 = waveasm.constant 0 : !waveasm.imm<0>");
    line("%c1 = waveasm.constant 1 : !waveasm.imm<1>");
    line("%c8 = waveasm.constant 8 : !waveasm.imm<8>");
    line("%s0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg");
    scopes.back().push_back({"%tid", "!waveasm.pvreg<0>"});
    block(0, 10 + rng() % 30);
    line("waveasm.s_endpgm");
    out += "}\n";
    return out;
  }

private:
  struct Val {
    std::string name, type;
  };
  std::mt19937 rng;
  std::string out;
  int indent = 1, counter = 0;
  std::vector<std::vector<Val>> scopes;

  bool chance(unsigned percent) { return rng() % 100 < percent; }
  void line(const std::string &s) {
    out += std::string(2 * indent, ' ') + s + "\n";
  }
  std::string fresh(const char *prefix) {
    return prefix + std::to_string(counter++);
  }
  const Val &pick() {
    std::vector<const Val *> all;
    for (auto &scope : scopes)
      for (const Val &v : scope)
        all.push_back(&v);
    size_t n = all.size();
    return *all[chance(60) ? n - 1 - rng() % std::min<size_t>(n, 3)
                           : rng() % n];
  }
  std::string valu() {
    static const char *const ops[] = {"v_add_u32", "v_xor_b32", "v_and_b32",
                                      "v_or_b32"};
    Val a = pick(), b = pick();
    std::string n = fresh("%v");
    line(n + " = waveasm." + ops[rng() % 4] + " " + a.name + ", " + b.name +
         " : " + a.type + ", " + b.type + " -> !waveasm.vreg");
    scopes.back().push_back({n, "!waveasm.vreg"});
    return n;
  }
  void store() {
    Val v = pick(), a = pick();
    line("waveasm.buffer_store_dword " + v.name + ", %srd, " + a.name + " : " +
         v.type + ", !waveasm.psreg<4, 4>, " + a.type);
  }
  void constant() {
    unsigned k = rng() % 64;
    std::string c = fresh("%k");
    std::string ty = "!waveasm.imm<" + std::to_string(k) + ">";
    line(c + " = waveasm.constant " + std::to_string(k) + " : " + ty);
    if (chance(50)) {
      Val a = pick();
      std::string n = fresh("%v");
      line(n + " = waveasm.v_add_u32 " + a.name + ", " + c + " : " + a.type +
           ", " + ty + " -> !waveasm.vreg");
      scopes.back().push_back({n, "!waveasm.vreg"});
    }
  }
  void loop(int depth) {
    std::string res = fresh("%l"), iv = fresh("%i"), acc = fresh("%a");
    Val init = pick();
    line(res + ":2 = waveasm.loop (" + iv + " = %s0, " + acc + " = " +
         init.name + ") : (!waveasm.sreg, " + init.type +
         ") -> (!waveasm.sreg, !waveasm.vreg) {");
    ++indent;
    scopes.push_back({{acc, init.type}});
    bool pure = chance(50);
    int n = 1 + rng() % 6;
    for (int i = 0; i < n; ++i) {
      if (!pure && chance(25))
        store();
      else if (depth < 1 && chance(10))
        loop(depth + 1);
      else
        valu();
    }
    // The yielded value must have the block argument's type.
    std::string next = acc;
    if (init.type == "!waveasm.vreg")
      next = valu();
    std::string step = fresh("%n"), go = fresh("%g");
    line(step + ":2 = waveasm.s_add_u32 " + iv +
         ", %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, "
         "!waveasm.scc");
    line(go + " = waveasm.s_cmp_lt_u32 " + step +
         "#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc");
    line("waveasm.condition " + go + " : !waveasm.scc iter_args(" + step +
         "#0, " + next + ") : !waveasm.sreg, " + init.type);
    scopes.pop_back();
    --indent;
    line("}");
    if (init.type == "!waveasm.vreg" && chance(60))
      scopes.back().push_back({res + "#1", "!waveasm.vreg"});
  }
  void block(int depth, int n) {
    for (int i = 0; i < n; ++i) {
      unsigned r = rng() % 100;
      if (r < 45)
        valu();
      else if (r < 60)
        constant();
      else if (r < 75)
        store();
      else if (r < 85 && depth < 2)
        loop(depth);
      else
        for (int k = 0; k < 3; ++k)
          valu();
    }
  }
};

/// `module` after `prefix` (a pass list) and the canonicalizer, fast path
/// on or off.
std::string canonicalized(TestContext &t, llvm::StringRef text,
                          bool deadOpFastPath,
                          void (*prefix)(OpPassManager &) = nullptr) {
  OwningOpRef<ModuleOp> module = t.parseModule(text);
  if (!module)
    return "parse error: " + t.diagnostics;
  PassManager pm(&t.ctx);
  if (prefix)
    prefix(pm);
  pm.addPass(createOneSweepCanonicalizer(deadOpFastPath));
  if (failed(pm.run(*module)))
    return "pass failure: " + t.diagnostics;
  return waveasm::test::print(*module);
}

} // namespace

TEST(Canonicalizer, ErasesDeadChainsAndDeadConstants) {
  TestContext t;
  std::string text = waveasm::test::program(R"(
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c8 = waveasm.constant 8 : !waveasm.imm<8>
    %c9 = waveasm.constant 9 : !waveasm.imm<9>
    %s0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %a = waveasm.v_add_u32 %tid, %c9 : !waveasm.pvreg<0>, !waveasm.imm<9> -> !waveasm.vreg
    %b = waveasm.v_xor_b32 %a, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kept = waveasm.v_or_b32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
    %r:2 = waveasm.loop (%i = %s0, %x = %kept) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
      %y = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %dead = waveasm.v_and_b32 %y, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %go : !waveasm.scc iter_args(%n#0, %y) : !waveasm.sreg, !waveasm.vreg
    }
    waveasm.buffer_store_dword %kept, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
    waveasm.s_endpgm)");
  std::string fast = canonicalized(t, text, true);
  std::string slow = canonicalized(t, text, false);
  EXPECT_EQ(fast, slow);
  // %dead in the loop (the last user of %b), then %b, %a and %c9 outside
  // it: a chain whose users come first. The loop itself stays (an op with
  // regions and no memory-effect interface is not trivially dead).
  EXPECT_EQ(fast.find("v_and_b32"), std::string::npos) << fast;
  EXPECT_EQ(fast.find("v_xor_b32"), std::string::npos) << fast;
  EXPECT_EQ(fast.find("constant 9"), std::string::npos) << fast;
  EXPECT_NE(fast.find("waveasm.loop"), std::string::npos) << fast;
  EXPECT_NE(fast.find("v_or_b32"), std::string::npos) << fast;
  EXPECT_NE(fast.find("buffer_store_dword"), std::string::npos) << fast;
}

TEST(Canonicalizer, FastPathEqualsGreedyDriverOnRandomPrograms) {
  unsigned changed = 0;
  for (unsigned seed = 1; seed <= 300; ++seed) {
    TestContext t;
    std::string text = DeadCodeGenerator(seed).program();
    OwningOpRef<ModuleOp> input = t.parseModule(text);
    ASSERT_TRUE(input) << "seed " << seed << "\n" << t.diagnostics << text;
    std::string fast = canonicalized(t, text, true);
    std::string slow = canonicalized(t, text, false);
    ASSERT_EQ(fast, slow) << "seed " << seed << "\n" << text;
    changed += fast != waveasm::test::print(*input);
  }
  // The programs do have dead code to erase.
  EXPECT_GT(changed, 250u);
}

TEST(Canonicalizer, FastPathEqualsGreedyDriverOnExamplesInThePipeline) {
  std::vector<std::string> paths = waveasm::test::exampleKernelPaths();
  ASSERT_FALSE(paths.empty());
  for (const std::string &path : paths) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(static_cast<bool>(buffer)) << path;
    TestContext t;
    std::string fast = canonicalized(t, (*buffer)->getBuffer(), true,
                                     addWaveASMPassesBeforeCanonicalize);
    std::string slow = canonicalized(t, (*buffer)->getBuffer(), false,
                                     addWaveASMPassesBeforeCanonicalize);
    EXPECT_EQ(fast, slow) << path;
    EXPECT_EQ(fast.rfind("module", 0), 0u) << path << ": " << fast;
  }
}
