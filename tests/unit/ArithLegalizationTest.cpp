//===- ArithLegalizationTest.cpp - lowered arith ops compute the same -----===//
//
// waveasm-arith-legalization is checked by execution: for every arith op,
// width, predicate and mix of operand kinds (SGPR, VGPR, AGPR, immediate),
// random and edge-case inputs go through a program holding the one op; the
// program is legalized, then run by a one-lane machine model that executes
// the machine instructions in order with SCC and VCC as real implicit
// registers (so a flag overwritten between its producer and its reader would
// give a wrong answer), and the result must equal the arith op's meaning.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "pipeline/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace waveasm;
using waveasm::test::TestContext;

namespace {

using Words = SmallVector<uint32_t, 2>;

//===----------------------------------------------------------------------===//
// One-lane machine
//===----------------------------------------------------------------------===//

template <typename T> bool is(Operation *op) { return isa<T>(op); }

struct CmpOpInfo {
  bool (*match)(Operation *);
  CmpPredicate pred;
};
const CmpOpInfo kCompares[] = {
    {is<S_CMP_EQ_U32>, CmpPredicate::eq},
    {is<S_CMP_NE_U32>, CmpPredicate::ne},
    {is<S_CMP_LT_I32>, CmpPredicate::slt},
    {is<S_CMP_LE_I32>, CmpPredicate::sle},
    {is<S_CMP_GT_I32>, CmpPredicate::sgt},
    {is<S_CMP_GE_I32>, CmpPredicate::sge},
    {is<S_CMP_LT_U32>, CmpPredicate::ult},
    {is<S_CMP_LE_U32>, CmpPredicate::ule},
    {is<S_CMP_GT_U32>, CmpPredicate::ugt},
    {is<S_CMP_GE_U32>, CmpPredicate::uge},
    {is<V_CMP_EQ_U32>, CmpPredicate::eq},
    {is<V_CMP_NE_U32>, CmpPredicate::ne},
    {is<V_CMP_LT_I32>, CmpPredicate::slt},
    {is<V_CMP_LE_I32>, CmpPredicate::sle},
    {is<V_CMP_GT_I32>, CmpPredicate::sgt},
    {is<V_CMP_GE_I32>, CmpPredicate::sge},
    {is<V_CMP_LT_U32>, CmpPredicate::ult},
    {is<V_CMP_LE_U32>, CmpPredicate::ule},
    {is<V_CMP_GT_U32>, CmpPredicate::ugt},
    {is<V_CMP_GE_U32>, CmpPredicate::uge},
};

/// `a PRED b` on `bits`-bit values.
bool compareBits(CmpPredicate pred, uint64_t a, uint64_t b, int bits) {
  auto sx = [&](uint64_t v) {
    return bits == 32 ? static_cast<int64_t>(static_cast<int32_t>(v))
                      : static_cast<int64_t>(v);
  };
  if (bits == 32) {
    a &= 0xffffffffu;
    b &= 0xffffffffu;
  }
  switch (pred) {
  case CmpPredicate::eq:
    return a == b;
  case CmpPredicate::ne:
    return a != b;
  case CmpPredicate::slt:
    return sx(a) < sx(b);
  case CmpPredicate::sle:
    return sx(a) <= sx(b);
  case CmpPredicate::sgt:
    return sx(a) > sx(b);
  case CmpPredicate::sge:
    return sx(a) >= sx(b);
  case CmpPredicate::ult:
    return a < b;
  case CmpPredicate::ule:
    return a <= b;
  case CmpPredicate::ugt:
    return a > b;
  case CmpPredicate::uge:
    return a >= b;
  }
  return false;
}

class Machine {
public:
  std::map<int64_t, uint32_t> sgprs, vgprs, agprs; // precolored inputs
  std::optional<Words> result;
  std::string error;

  void run(ProgramOp program) {
    for (Operation &op : program.getBody().front()) {
      step(&op);
      if (!error.empty())
        return;
    }
  }

private:
  llvm::DenseMap<Value, Words> regs;
  bool scc = false, vcc = false;

  uint32_t word(Value v, int k = 0) {
    if (auto constant = v.getDefiningOp<ConstantOp>())
      return static_cast<uint32_t>(constant.getValue() >> (32 * k));
    auto it = regs.find(v);
    if (it == regs.end() || k >= static_cast<int>(it->second.size())) {
      error = "read of an undefined value";
      return 0;
    }
    return it->second[k];
  }
  void set(Value v, Words w) { regs[v] = std::move(w); }
  void set1(Operation *op, uint64_t v) {
    set(op->getResult(0), {static_cast<uint32_t>(v)});
  }
  Words inputs(std::map<int64_t, uint32_t> &file, int64_t index, int64_t size) {
    Words w;
    for (int64_t k = 0; k < size; ++k)
      w.push_back(file[index + k]);
    return w;
  }

  void step(Operation *op) {
    auto a = [&]() -> uint64_t { return word(op->getOperand(0)); };
    auto b = [&]() -> uint64_t { return word(op->getOperand(1)); };
    auto c = [&]() -> uint64_t { return word(op->getOperand(2)); };
    if (auto pre = dyn_cast<PrecoloredSRegOp>(op))
      return set(pre.getResult(),
                 inputs(sgprs, pre.getIndex(), getRegSize(pre.getType())));
    if (auto pre = dyn_cast<PrecoloredVRegOp>(op))
      return set(pre.getResult(),
                 inputs(vgprs, pre.getIndex(), getRegSize(pre.getType())));
    if (auto pre = dyn_cast<PrecoloredARegOp>(op))
      return set(pre.getResult(),
                 inputs(agprs, pre.getIndex(), getRegSize(pre.getType())));
    if (isa<ConstantOp, S_ENDPGM>(op))
      return;
    if (auto extract = dyn_cast<ExtractOp>(op)) {
      Words w;
      for (int64_t k = 0; k < getRegSize(extract.getType()); ++k)
        w.push_back(word(extract.getSource(), extract.getIndex() + k));
      return set(extract.getResult(), w);
    }
    if (auto pack = dyn_cast<PackOp>(op)) {
      Words w;
      for (Value element : pack.getElements())
        for (int64_t k = 0; k < getRegSize(element.getType()); ++k)
          w.push_back(word(element, k));
      return set(pack.getResult(), w);
    }
    if (auto protect = dyn_cast<DCEProtectOp>(op)) {
      Value v = protect->getOperand(0);
      Words w;
      for (int64_t k = 0; k < getRegSize(v.getType()); ++k)
        w.push_back(word(v, k));
      result = w;
      return;
    }
    if (isa<S_MOV_B32, V_MOV_B32, V_ACCVGPR_READ_B32, V_READFIRSTLANE_B32>(op))
      return set1(op, a());
    for (const CmpOpInfo &info : kCompares)
      if (info.match(op)) {
        bool flag = compareBits(info.pred, a(), b(), 32);
        (op->getNumResults() ? scc : vcc) = flag;
        if (op->getNumResults())
          set(op->getResult(0), {});
        return;
      }
    uint64_t r;
    if (isa<S_ADD_U32>(op)) {
      r = a() + b();
      scc = r >> 32;
    } else if (isa<S_ADDC_U32>(op)) {
      r = b() + c() + (scc ? 1 : 0); // operand 0 is the SSA carry
      scc = r >> 32;
    } else if (isa<S_MUL_I32, V_MUL_LO_U32>(op)) {
      r = a() * b();
    } else if (isa<S_MUL_HI_U32, V_MUL_HI_U32>(op)) {
      r = (a() * b()) >> 32;
    } else if (isa<S_AND_B32, V_AND_B32>(op)) {
      r = a() & b();
      scc = isa<S_AND_B32>(op) ? (r != 0) : scc;
    } else if (isa<S_OR_B32, V_OR_B32>(op)) {
      r = a() | b();
      scc = isa<S_OR_B32>(op) ? (r != 0) : scc;
    } else if (isa<S_XOR_B32, V_XOR_B32>(op)) {
      r = a() ^ b();
      scc = isa<S_XOR_B32>(op) ? (r != 0) : scc;
    } else if (isa<S_ASHR_I32>(op)) {
      r = static_cast<uint32_t>(static_cast<int32_t>(a()) >> (b() & 31));
      scc = static_cast<uint32_t>(r) != 0;
    } else if (isa<V_ASHRREV_I32>(op)) {
      r = static_cast<uint32_t>(static_cast<int32_t>(b()) >> (a() & 31));
    } else if (isa<S_CSELECT_B32>(op)) {
      r = scc ? b() : c(); // operand 0 is the SSA SCC value
    } else if (isa<V_CNDMASK_B32>(op)) {
      r = vcc ? b() : a();
    } else if (isa<V_ADD_U32>(op)) {
      r = a() + b();
    } else if (isa<V_ADD3_U32>(op)) {
      r = a() + b() + c();
    } else if (isa<V_ADD_CO_U32>(op)) {
      r = a() + b();
      vcc = (r >> 32) != 0;
    } else if (isa<V_ADDC_CO_U32>(op)) {
      r = a() + b() + (vcc ? 1 : 0);
      vcc = (r >> 32) != 0;
    } else {
      error = "unmodelled op " + op->getName().getStringRef().str();
      return;
    }
    set1(op, r);
    for (Value extra : op->getResults().drop_front())
      set(extra, {});
  }
};

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

enum class Kind { SGPR, VGPR, AGPR, Imm };

struct Operand {
  Kind kind;
  int64_t width; // registers
  uint64_t value;
};

std::string regType(Kind kind, int64_t index, int64_t width) {
  const char *name = kind == Kind::SGPR   ? "psreg"
                     : kind == Kind::VGPR ? "pvreg"
                                          : "pareg";
  std::string s = "!waveasm." + std::string(name) + "<" + std::to_string(index);
  if (width > 1)
    s += ", " + std::to_string(width);
  return s + ">";
}

struct Case {
  std::string text;
  Machine machine;
};

/// A program applying `op` (its text between the operands' names and the
/// type list) to `operands`, with result type `result`.
Case makeCase(StringRef opName, StringRef predicate, ArrayRef<Operand> operands,
              StringRef resultType, bool selectOrder = false) {
  Case c;
  std::string body, names, types;
  SmallVector<std::string> typeOf;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    std::string name = "%x" + std::to_string(i);
    std::string type;
    if (operand.kind == Kind::Imm) {
      int64_t v =
          operand.width == 1
              ? static_cast<int64_t>(static_cast<int32_t>(operand.value))
              : static_cast<int64_t>(operand.value);
      type = "!waveasm.imm<" + std::to_string(v) + ">";
      body += "  " + name + " = waveasm.constant " + std::to_string(v) + " : " +
              type + "\n";
    } else {
      int64_t index = 4 + 4 * static_cast<int64_t>(i);
      type = regType(operand.kind, index, operand.width);
      const char *cls = operand.kind == Kind::SGPR   ? "sreg"
                        : operand.kind == Kind::VGPR ? "vreg"
                                                     : "areg";
      body += "  " + name + " = waveasm.precolored." + cls + " " +
              std::to_string(index) +
              (operand.width > 1 ? ", " + std::to_string(operand.width) : "") +
              " : " + type + "\n";
      auto &file = operand.kind == Kind::SGPR   ? c.machine.sgprs
                   : operand.kind == Kind::VGPR ? c.machine.vgprs
                                                : c.machine.agprs;
      for (int64_t k = 0; k < operand.width; ++k)
        file[index + k] = static_cast<uint32_t>(operand.value >> (32 * k));
    }
    names += (i ? ", " : "") + name;
    types += (i ? ", " : "") + type;
    typeOf.push_back(type);
  }
  if (selectOrder) { // text %cond, %true, %false; types (false, true, cond)
    types.clear();
    for (int i : {2, 1, 0})
      types += (types.empty() ? "" : ", ") + typeOf[i];
  }
  body += "  %r = waveasm.arith." + opName.str() + " " +
          (predicate.empty() ? "" : predicate.str() + ", ") + names + " : (" +
          types + ") -> " + resultType.str() + "\n";
  body += "  waveasm.dce_protect %r : " + resultType.str() + "\n";
  body += "  waveasm.s_endpgm";
  c.text = test::program(body);
  return c;
}

/// Legalizes and runs `c`; returns the result words or a failure message.
std::optional<Words> execute(Case &c, std::string &why) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(c.text);
  if (!module) {
    why = "does not parse: " + t.diagnostics;
    return std::nullopt;
  }
  PassManager pm(&t.ctx);
  pm.addNestedPass<ProgramOp>(createWaveASMArithLegalization());
  if (failed(pm.run(*module)) || failed(verify(*module))) {
    why = "legalization failed: " + t.diagnostics;
    return std::nullopt;
  }
  module->walk([&](ProgramOp program) { c.machine.run(program); });
  if (!c.machine.error.empty() || !c.machine.result) {
    why = c.machine.error.empty() ? "no result" : c.machine.error;
    return std::nullopt;
  }
  return c.machine.result;
}

uint64_t mask(int64_t width) { return width == 1 ? 0xffffffffu : ~0ull; }

Words toWords(uint64_t v, int64_t width) {
  Words w;
  for (int64_t k = 0; k < width; ++k)
    w.push_back(static_cast<uint32_t>(v >> (32 * k)));
  return w;
}

std::string resultType(bool vector, int64_t width, bool agpr = false) {
  std::string name = agpr ? "areg" : vector ? "vreg" : "sreg";
  return "!waveasm." + name + (width > 1 ? "<2, 2>" : "");
}

class Values {
public:
  explicit Values(unsigned seed) : rng(seed) {}
  uint64_t next(int64_t width) {
    static const uint32_t edges[] = {
        0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x80000001};
    auto half = [&]() -> uint32_t {
      return rng() % 3 == 0 ? edges[rng() % 8] : static_cast<uint32_t>(rng());
    };
    uint64_t v = half();
    if (width == 2)
      v |= static_cast<uint64_t>(rng() % 4 == 0 ? static_cast<uint32_t>(v)
                                                : half())
           << 32;
    return v;
  }
  std::mt19937 rng;
};

/// The operand kinds tried for an op with `n` operands.
std::vector<std::vector<Kind>> kindMixes(int n) {
  if (n == 1)
    return {{Kind::SGPR}, {Kind::VGPR}, {Kind::AGPR}};
  if (n == 2)
    return {{Kind::SGPR, Kind::SGPR}, {Kind::Imm, Kind::SGPR},
            {Kind::SGPR, Kind::Imm},  {Kind::VGPR, Kind::SGPR},
            {Kind::Imm, Kind::VGPR},  {Kind::VGPR, Kind::VGPR},
            {Kind::AGPR, Kind::VGPR}};
  return {{Kind::SGPR, Kind::SGPR, Kind::SGPR},
          {Kind::SGPR, Kind::Imm, Kind::SGPR},
          {Kind::VGPR, Kind::SGPR, Kind::SGPR},
          {Kind::SGPR, Kind::VGPR, Kind::Imm},
          {Kind::VGPR, Kind::VGPR, Kind::VGPR}};
}

bool anyVector(ArrayRef<Operand> operands) {
  return llvm::any_of(operands, [](const Operand &o) {
    return o.kind == Kind::VGPR || o.kind == Kind::AGPR;
  });
}

constexpr int kTrials = 12;

TEST(ArithLegalization, BinaryOpsCompute) {
  Values values(1);
  unsigned checked = 0;
  for (StringRef name : {"add", "mul", "or", "and"})
    for (int64_t width : {1, 2})
      for (const std::vector<Kind> &mix : kindMixes(2))
        for (int trial = 0; trial < kTrials; ++trial) {
          SmallVector<Operand> ops;
          for (Kind kind : mix)
            ops.push_back({kind, width, values.next(width)});
          uint64_t a = ops[0].value, b = ops[1].value, want;
          if (name == "add")
            want = a + b;
          else if (name == "mul")
            want = a * b;
          else if (name == "or")
            want = a | b;
          else
            want = a & b;
          // Scalar results also go to a VGPR (SALU code, then moves).
          bool vector = anyVector(ops) || trial % 3 == 0;
          Case c = makeCase(name, "", ops, resultType(vector, width));
          std::string why;
          std::optional<Words> got = execute(c, why);
          ASSERT_TRUE(got) << why << "\n" << c.text;
          ASSERT_EQ(*got, toWords(want & mask(width), width)) << c.text;
          ++checked;
        }
  EXPECT_EQ(checked, 4u * 2 * 7 * kTrials);
}

TEST(ArithLegalization, ComparesCompute) {
  Values values(2);
  const std::pair<StringRef, CmpPredicate> preds[] = {
      {"eq", CmpPredicate::eq},   {"ne", CmpPredicate::ne},
      {"slt", CmpPredicate::slt}, {"sle", CmpPredicate::sle},
      {"sgt", CmpPredicate::sgt}, {"sge", CmpPredicate::sge},
      {"ult", CmpPredicate::ult}, {"ule", CmpPredicate::ule},
      {"ugt", CmpPredicate::ugt}, {"uge", CmpPredicate::uge}};
  for (auto [name, pred] : preds)
    for (int64_t width : {1, 2})
      for (const std::vector<Kind> &mix : kindMixes(2))
        for (int trial = 0; trial < kTrials; ++trial) {
          SmallVector<Operand> ops;
          for (Kind kind : mix)
            ops.push_back({kind, width, values.next(width)});
          // Equal operands and equal high halves are the interesting cases.
          if (trial % 4 == 1)
            ops[1].value = ops[0].value;
          if (trial % 4 == 2 && width == 2)
            ops[1].value = (ops[0].value & ~0xffffffffull) |
                           (ops[1].value & 0xffffffffull);
          bool want = compareBits(pred, ops[0].value & mask(width),
                                  ops[1].value & mask(width), 32 * width);
          Case c = makeCase("cmp", name, ops,
                            resultType(anyVector(ops) || trial % 3 == 0, 1));
          std::string why;
          std::optional<Words> got = execute(c, why);
          ASSERT_TRUE(got) << why << "\n" << c.text;
          ASSERT_EQ(*got, Words{want ? 1u : 0u}) << c.text;
        }
}

TEST(ArithLegalization, SelectsCompute) {
  Values values(3);
  for (int64_t width : {1, 2})
    for (const std::vector<Kind> &mix : kindMixes(3))
      for (int trial = 0; trial < kTrials; ++trial) {
        // Operand order as written: condition, true, false.
        SmallVector<Operand> ops = {
            {mix[0], 1, trial % 2 ? values.next(1) | 1 : 0},
            {mix[1], width, values.next(width)},
            {mix[2], width, values.next(width)}};
        uint64_t want =
            (ops[0].value & 0xffffffffu) ? ops[1].value : ops[2].value;
        bool vector = anyVector(ops);
        Case c = makeCase("select", "", ops, resultType(vector, width),
                          /*selectOrder=*/true);
        std::string why;
        std::optional<Words> got = execute(c, why);
        ASSERT_TRUE(got) << why << "\n" << c.text;
        ASSERT_EQ(*got, toWords(want & mask(width), width)) << c.text;
      }
}

TEST(ArithLegalization, ConversionsCompute) {
  Values values(4);
  for (StringRef name : {"sext", "zext", "trunc", "readfirstlane"})
    for (Kind kind : {Kind::SGPR, Kind::VGPR, Kind::AGPR, Kind::Imm})
      for (int trial = 0; trial < kTrials; ++trial) {
        int64_t from =
            name == "trunc" || name == "readfirstlane" ? 1 + trial % 2 : 1;
        int64_t to = name == "trunc"           ? 1
                     : name == "readfirstlane" ? from
                                               : 1 + trial % 2;
        Operand src{kind, from, values.next(from)};
        uint64_t v = src.value & mask(from), want;
        if (name == "sext")
          want = static_cast<uint64_t>(
              static_cast<int64_t>(static_cast<int32_t>(v)));
        else
          want = v; // zext, trunc (masked below), readfirstlane (one lane)
        bool vector = kind == Kind::VGPR || kind == Kind::AGPR;
        std::string type =
            name == "readfirstlane"
                ? resultType(false, to)
                : resultType(vector || trial % 3 == 0, to,
                             /*agpr=*/vector && trial % 4 == 3 && to == 1);
        Case c = makeCase(name, "", {src}, type);
        std::string why;
        std::optional<Words> got = execute(c, why);
        ASSERT_TRUE(got) << why << "\n" << c.text;
        ASSERT_EQ(*got, toWords(want & mask(to), to)) << c.text;
      }
}

// The machine notices a wrong lowering: a flag overwritten between the
// compare and its reader.
TEST(ArithLegalization, MachineCatchesClobberedFlag) {
  Case c;
  c.text = test::program(R"(
  %s = waveasm.precolored.sreg 4 : !waveasm.psreg<4>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %f = waveasm.s_cmp_eq_u32 %s, %c1 : !waveasm.psreg<4>, !waveasm.imm<1> -> !waveasm.scc
  %x:2 = waveasm.s_add_u32 %s, %c1 : !waveasm.psreg<4>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %r = waveasm.s_cselect_b32 %f, %c1, %c0 : !waveasm.scc, !waveasm.imm<1>, !waveasm.imm<0> -> !waveasm.sreg
  waveasm.dce_protect %r : !waveasm.sreg
  waveasm.s_endpgm)");
  c.machine.sgprs[4] = 1; // s4 == 1: the compare is true, the add sets no carry
  std::string why;
  std::optional<Words> got = execute(c, why);
  ASSERT_TRUE(got) << why;
  EXPECT_EQ(*got, Words{0u}); // not the 1 the compare meant
}

} // namespace
