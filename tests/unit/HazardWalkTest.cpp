//===- HazardWalkTest.cpp - the hazard walk's loop shortcuts --------------===//
//
// The hazard pass walks a loop body until the state at its head is stable.
// Its walk (HazardLoopWalk::Resume) resumes a previous walk of the body
// where the states agree and takes a walk that resumed as the fixed point;
// the definition (HazardLoopWalk::Full) walks every body whole and compares
// the head with its join with the back edge's state. They must put the same
// nops: on random allocated loops whose hazards cross the back edge (bodies
// shorter and longer than the largest wait, ifs and inner loops in them),
// and on every input and pipelined example.
//
//===----------------------------------------------------------------------===//

#include "MlirInputs.h"
#include "TestUtils.h"

#include "analysis/TargetModel.h"
#include "pipeline/HazardMitigation.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

using namespace mlir;
using namespace waveasm;

namespace {

/// Random allocated code: every op reads the precolored value of the
/// registers it names (%v<i>, %s<i>, the pairs %p<i>, the accumulators and
/// store data %q<i>), so hazards go by register, whatever SSA value wrote
/// it, as after allocation. A few registers each, so producers and readers
/// meet often, across the back edge too.
class RandomHazardCode {
public:
  explicit RandomHazardCode(unsigned seed) : rng(seed) {}

  std::string program() {
    std::string text = "waveasm.program @p target = "
                       "#waveasm.target<#waveasm.gfx942> abi = "
                       "#waveasm.abi<> {\n";
    for (unsigned i = 0; i < kVgprs; ++i)
      text += "  %v" + std::to_string(i) + " = waveasm.precolored.vreg " +
              std::to_string(i) + " : !waveasm.pvreg<" + std::to_string(i) +
              ">\n";
    for (unsigned i = 0; i < kSgprs; ++i)
      text += "  %s" + std::to_string(i) + " = waveasm.precolored.sreg " +
              std::to_string(kSgprBase + i) + " : !waveasm.psreg<" +
              std::to_string(kSgprBase + i) + ">\n";
    for (unsigned i = 0; i < 2; ++i)
      text += "  %p" + std::to_string(i) + " = waveasm.precolored.vreg " +
              std::to_string(pair(i)) + ", 2 : !waveasm.pvreg<" +
              std::to_string(pair(i)) + ", 2>\n";
    for (unsigned i = 0; i < 2; ++i)
      text += "  %q" + std::to_string(i) + " = waveasm.precolored.vreg " +
              std::to_string(quad(i)) + ", 4 : !waveasm.pvreg<" +
              std::to_string(quad(i)) + ", 4>\n";
    for (unsigned i = 0; i < 2; ++i)
      text += "  %o" + std::to_string(i) + " = waveasm.precolored.vreg " +
              std::to_string(octet(i)) + ", 16 : !waveasm.pvreg<" +
              std::to_string(octet(i)) + ", 16>\n";
    for (unsigned r = quad(0); r < octet(2); ++r)
      text += "  %r" + std::to_string(r) + " = waveasm.precolored.vreg " +
              std::to_string(r) + " : !waveasm.pvreg<" + std::to_string(r) +
              ">\n";
    text += "  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>\n"
            "  %c0 = waveasm.constant 0 : !waveasm.imm<0>\n";
    text += ops(pick(0, 3), 1);
    unsigned loops = pick(1, 2);
    for (unsigned l = 0; l < loops; ++l) {
      text += loop(1);
      text += ops(pick(0, 3), 1);
    }
    return text + "  waveasm.s_endpgm\n}\n";
  }

private:
  static constexpr unsigned kVgprs = 4, kSgprs = 2, kSgprBase = 20;
  static unsigned pair(unsigned i) { return 8 + 2 * i; }
  static unsigned quad(unsigned i) { return 12 + 4 * i; }
  /// 16-register accumulators, of the MFMAs with the longest waits.
  static unsigned octet(unsigned i) { return 20 + 16 * i; }

  unsigned pick(unsigned lo, unsigned hi) {
    return std::uniform_int_distribution<unsigned>(lo, hi)(rng);
  }
  std::string indent(unsigned depth) { return std::string(2 * depth, ' '); }
  std::string fresh() { return "%t" + std::to_string(next++); }
  std::string v() { return std::to_string(pick(0, kVgprs - 1)); }
  std::string s() { return std::to_string(pick(0, kSgprs - 1)); }

  /// One instruction of a hazard rule's producer or reader (`kind`: which;
  /// by default a random one).
  std::string op(unsigned depth, int kind = -1) {
    std::string in = indent(depth), t = fresh();
    switch (kind >= 0 ? kind : pick(0, 12)) {
    case 0: { // transcendental VALU: read by any other VALU soon after
      std::string a = v(), r = v();
      return in + t + " = waveasm.v_exp_f32 %v" + a + " : !waveasm.pvreg<" + a +
             "> -> !waveasm.pvreg<" + r + ">\n";
    }
    case 1:
    case 2: { // VALU
      std::string a = v(), b = v(), r = v();
      return in + t + " = waveasm.v_add_u32 %v" + a + ", %v" + b +
             " : !waveasm.pvreg<" + a + ">, !waveasm.pvreg<" + b +
             "> -> !waveasm.pvreg<" + r + ">\n";
    }
    case 3: { // VALU writes an SGPR; v_readfirstlane reads a VALU result
      std::string a = v(), r = s();
      return in + t + " = waveasm.v_readfirstlane_b32 %v" + a +
             " : !waveasm.pvreg<" + a + "> -> !waveasm.psreg<" +
             std::to_string(kSgprBase + std::stoi(r)) + ">\n";
    }
    case 4: { // VALU reads an SGPR
      std::string a = s(), b = v(), r = v();
      return in + t + " = waveasm.v_add_u32 %s" + a + ", %v" + b +
             " : !waveasm.psreg<" + std::to_string(kSgprBase + std::stoi(a)) +
             ">, !waveasm.pvreg<" + b + "> -> !waveasm.pvreg<" + r + ">\n";
    }
    case 5: { // VMEM reads an SGPR (soffset) and a VGPR
      std::string a = v(), o = s(), r = v();
      return in + t + " = waveasm.buffer_load_dword %srd, %v" + a + ", %s" + o +
             " : !waveasm.psreg<4, 4>, !waveasm.pvreg<" + a +
             ">, !waveasm.psreg<" + std::to_string(kSgprBase + std::stoi(o)) +
             "> -> !waveasm.pvreg<" + r + ">\n";
    }
    case 6: { // a 4-dword store: its data must not be overwritten at once
      std::string d = std::to_string(pick(0, 1)), a = v();
      return in + "waveasm.buffer_store_dwordx4 %q" + d + ", %srd, %v" + a +
             " : !waveasm.pvreg<" + std::to_string(quad(std::stoi(d))) +
             ", 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<" + a + ">\n";
    }
    case 7: { // MFMA: its result read, overwritten or chained
      unsigned c = pick(0, 1), r = pick(0, 1);
      std::string a = std::to_string(pick(0, 1));
      return in + t + " = waveasm.v_mfma_f32_16x16x16_f16 %p" + a + ", %p" + a +
             ", %q" + std::to_string(c) + " : !waveasm.pvreg<" +
             std::to_string(pair(std::stoi(a))) + ", 2>, !waveasm.pvreg<" +
             std::to_string(pair(std::stoi(a))) + ", 2>, !waveasm.pvreg<" +
             std::to_string(quad(c)) + ", 4> -> !waveasm.pvreg<" +
             std::to_string(quad(r)) + ", 4>\n";
    }
    case 8: { // VALU writes an MFMA operand or accumulator register
      unsigned q = pick(0, 1);
      std::string a = v();
      return in + t + " = waveasm.v_add_u32 %v" + a + ", %v" + a +
             " : !waveasm.pvreg<" + a + ">, !waveasm.pvreg<" + a +
             "> -> !waveasm.pvreg<" + std::to_string(quad(q) + pick(0, 3)) +
             ">\n";
    }
    case 9: { // VALU reads an accumulator register
      std::string a = std::to_string(pick(quad(0), octet(2) - 1)), b = v(),
                  r = v();
      return in + t + " = waveasm.v_add_u32 %r" + a + ", %v" + b +
             " : !waveasm.pvreg<" + a + ">, !waveasm.pvreg<" + b +
             "> -> !waveasm.pvreg<" + r + ">\n";
    }
    case 10: { // 32x32 f32 MFMA: 16 passes, 18 wait states
      unsigned c = pick(0, 1), r = pick(0, 1);
      std::string a = v(), b = v();
      return in + t + " = waveasm.v_mfma_f32_32x32x2_f32 %v" + a + ", %v" + b +
             ", %o" + std::to_string(c) + " : !waveasm.pvreg<" + a +
             ">, !waveasm.pvreg<" + b + ">, !waveasm.pvreg<" +
             std::to_string(octet(c)) + ", 16> -> !waveasm.pvreg<" +
             std::to_string(octet(r)) + ", 16>\n";
    }
    default:
      return in + "waveasm.s_nop " + std::to_string(pick(0, 3)) + "\n";
    }
  }

  std::string ops(unsigned count, unsigned depth) {
    std::string text;
    for (unsigned i = 0; i < count; ++i)
      text += op(depth);
    return text;
  }

  /// A producer whose record lasts (transcendental, VALU writing an SGPR,
  /// 4-dword store, MFMA) or a reader of one (VALU, VMEM, MFMA).
  std::string producer(unsigned depth) {
    static const int kinds[] = {0, 3, 6, 7, 10};
    return op(depth, kinds[pick(0, 4)]);
  }
  std::string reader(unsigned depth) {
    static const int kinds[] = {1, 3, 4, 5, 7, 8, 9, 10};
    return op(depth, kinds[pick(0, 7)]);
  }

  /// A body of up to twice the largest wait, sometimes with an if or an
  /// inner loop in it, that often starts with readers and ends with
  /// producers: hazards across the back edge.
  std::string body(unsigned depth) {
    std::string text;
    for (unsigned i = pick(0, 3); i > 0; --i)
      text += reader(depth);
    text += ops(pick(0, 18), depth);
    if (depth < 3 && pick(0, 3) == 0) {
      std::string in = indent(depth), cc = fresh(), r = fresh(), k = v();
      text += in + cc + " = waveasm.s_cmp_eq_u32 %s0, %c0 : !waveasm.psreg<" +
              std::to_string(kSgprBase) +
              ">, !waveasm.imm<0> -> !waveasm.scc\n";
      text += in + r + " = waveasm.if " + cc + " : !waveasm.scc -> " +
              "!waveasm.pvreg<" + k + "> {\n";
      text += ops(pick(0, 4), depth + 1);
      text += in + "  waveasm.yield %v" + k + " : !waveasm.pvreg<" + k + ">\n" +
              in + "} else {\n";
      text += ops(pick(0, 4), depth + 1);
      text += in + "  waveasm.yield %v" + k + " : !waveasm.pvreg<" + k + ">\n" +
              in + "}\n";
    }
    if (depth < 3 && pick(0, 4) == 0)
      text += loop(depth);
    text += ops(pick(0, 22), depth);
    for (unsigned i = pick(0, 3); i > 0; --i)
      text += producer(depth);
    return text;
  }

  /// A body in which the wait at the top for a 32x32 MFMA of the previous
  /// iteration moves the later ops in time against a 32x32 MFMA issued
  /// before it, whose result is read a window later: the second walk's
  /// records of that MFMA are older there than the first walk's, so the
  /// walks differ past the window (a resumption that compared less than
  /// the whole canonical state would take the first walk's nops).
  std::string shapedBody(unsigned depth) {
    std::string text = ops(pick(2, 8), depth);
    text += op(depth, 10);
    text += ops(pick(0, 3), depth);
    for (unsigned i = pick(1, 3); i > 0; --i)
      text += op(depth, 9);
    for (unsigned i = pick(8, 18); i > 0; --i)
      text += op(depth, 1);
    for (unsigned i = pick(1, 3); i > 0; --i)
      text += op(depth, 9);
    text += ops(pick(0, 6), depth);
    return text + op(depth, 10);
  }

  /// A loop carrying one VGPR in place (the register the body last wrote).
  std::string loop(unsigned depth) {
    std::string in = indent(depth), r = fresh(), x = fresh(), a = v(), y = a;
    std::string type = "!waveasm.pvreg<" + a + ">";
    std::string text = in + r + " = waveasm.loop (" + x + " = %v" + a +
                       ") : (" + type + ") -> " + type + " {\n";
    text += pick(0, 1) ? body(depth + 1) : shapedBody(depth + 1);
    text += in + "  waveasm.condition %s0 : !waveasm.psreg<" +
            std::to_string(kSgprBase) + "> iter_args(%v" + y +
            ") : !waveasm.pvreg<" + y + ">\n" + in + "}\n";
    return text;
  }

  std::mt19937 rng;
  unsigned next = 0;
};

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

/// The module's text after the hazard walk `walk` on a copy of it.
std::string mitigated(ModuleOp module, HazardLoopWalk walk) {
  OwningOpRef<ModuleOp> copy = module.clone();
  for (ProgramOp program : copy->getOps<ProgramOp>())
    mitigateHazards(program, TargetModel::get(program.getTargetKind()), walk);
  return print(*copy);
}

TEST(HazardWalk, ResumedWalksEqualFullWalksOnRandomLoops) {
  unsigned withNops = 0;
  for (unsigned seed = 1; seed <= 1000; ++seed) {
    std::string text = RandomHazardCode(seed).program();
    test::TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule(text);
    ASSERT_TRUE(module) << "seed " << seed << "\n" << text << t.diagnostics;
    std::string resumed = mitigated(*module, HazardLoopWalk::Resume);
    std::string full = mitigated(*module, HazardLoopWalk::Full);
    ASSERT_EQ(resumed, full) << "seed " << seed << "\n" << text;
    withNops += llvm::StringRef(full).contains("s_nop");
  }
  // The programs put nops (of their own and the hazards'), many of them
  // around back edges.
  EXPECT_GT(withNops, 500u);
}

TEST(HazardWalk, ResumedWalksEqualFullWalksOnEveryInput) {
  unsigned checked = 0;
  test::forEachInputAndPipelinedExample(
      [&](ModuleOp module, const std::string &name) {
        EXPECT_EQ(mitigated(module, HazardLoopWalk::Resume),
                  mitigated(module, HazardLoopWalk::Full))
            << name;
        ++checked;
      });
  EXPECT_GT(checked, 100u);
}

} // namespace
