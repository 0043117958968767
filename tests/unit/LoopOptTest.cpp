//===- LoopOptTest.cpp - loop optimizations keep every memory access
//-------===//
//
// The loop optimizations (scale-pack elimination, buffer-load strength
// reduction, loop address promotion) are checked by execution: a program is
// run concretely over a few lanes before and after the passes, and the
// traces of memory accesses (per lane: buffer-load addresses
// voffset + soffset + offset with their descriptor, direct-to-LDS loads
// with M0, LDS read/write addresses, stores with their data) must be
// identical. Loads return a hash of their address, so a wrong address also
// changes every value computed from it; ops the interpreter has no
// arithmetic for (MFMAs, conversions) return a hash of their operands.
//
// Inputs: every example kernel, and random loops whose voffsets are affine
// chains of the induction variable (strength reduction) or whose LDS bases
// rotate through random permutations (address promotion).
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "pipeline/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace waveasm;
using waveasm::test::TestContext;

namespace {

constexpr unsigned kLanes = 4;
constexpr int64_t kMaxIterations = 64;

/// A value: `words` registers of `kLanes` lanes (SGPRs: all lanes equal).
struct Vals {
  unsigned words = 1;
  std::vector<uint32_t> v; // [word * kLanes + lane]
  uint32_t at(unsigned word, unsigned lane) const {
    return v[word * kLanes + lane];
  }
};

uint32_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return uint32_t(h ^ (h >> 29));
}

struct Event {
  std::string what;
  std::vector<uint32_t> data;
  bool operator==(const Event &o) const {
    return what == o.what && data == o.data;
  }
};

class Interpreter {
public:
  std::vector<Event> trace;
  std::string error;

  void run(ProgramOp program) { runBlock(program.getBodyBlock()); }

private:
  llvm::DenseMap<Value, Vals> vals;
  uint32_t m0 = 0;

  static Vals splat(unsigned words, uint32_t x) {
    Vals r;
    r.words = words;
    r.v.assign(words * kLanes, x);
    return r;
  }

  const Vals &get(Value v) {
    auto it = vals.find(v);
    if (it != vals.end())
      return it->second;
    if (auto imm = dyn_cast<ImmType>(v.getType()))
      return vals[v] = splat(1, uint32_t(imm.getValue()));
    if (error.empty())
      error = "value without contents";
    return vals[v] = splat(getRegSize(v.getType()), 0);
  }
  uint32_t lane(Value v, unsigned l, unsigned word = 0) {
    return get(v).at(word, l);
  }
  void set(Value v, Vals x) { vals[v] = std::move(x); }
  void setLanes(Value v, llvm::function_ref<uint32_t(unsigned)> f) {
    Vals r;
    r.words = 1;
    for (unsigned l = 0; l < kLanes; ++l)
      r.v.push_back(f(l));
    set(v, std::move(r));
  }

  void record(Operation *op, std::vector<uint32_t> data) {
    trace.push_back({op->getName().getStringRef().str(), std::move(data)});
  }

  /// Loads return a hash of (descriptor, address, word).
  void loadResult(Operation *op, ArrayRef<uint32_t> srd,
                  ArrayRef<uint32_t> addr) {
    if (op->getNumResults() == 0)
      return;
    Value result = op->getResult(0);
    Vals r;
    r.words = getRegSize(result.getType());
    r.v.resize(r.words * kLanes);
    for (unsigned w = 0; w < r.words; ++w)
      for (unsigned l = 0; l < kLanes; ++l) {
        uint64_t h = 7;
        for (uint32_t s : srd)
          h = mix(h, s);
        r.v[w * kLanes + l] = mix(mix(h, addr[l] + 4 * w), w);
      }
    set(result, std::move(r));
  }

  int64_t attrOr(Operation *op, StringRef name, int64_t dflt) {
    auto attr = op->getAttrOfType<IntegerAttr>(name);
    return attr ? attr.getInt() : dflt;
  }

  bool memory(Operation *op) {
    auto words = [&](Value v) {
      const Vals &x = get(v);
      return std::vector<uint32_t>(x.v.begin(), x.v.end());
    };
    bool toLDS = isa<BUFFER_LOAD_DWORD_LDS, BUFFER_LOAD_DWORDX4_LDS>(op);
    if (toLDS ||
        (op->getName().getStringRef().starts_with("waveasm.buffer_load") &&
         op->getNumOperands() == 3)) {
      unsigned voff = toLDS ? 0 : 1, srdIdx = toLDS ? 1 : 0;
      std::vector<uint32_t> srd;
      for (unsigned w = 0; w < 4; ++w)
        srd.push_back(lane(op->getOperand(srdIdx), 0, w));
      std::vector<uint32_t> addr(kLanes);
      for (unsigned l = 0; l < kLanes; ++l)
        addr[l] = lane(op->getOperand(voff), l) + lane(op->getOperand(2), l) +
                  uint32_t(attrOr(op, "instOffset", 0));
      std::vector<uint32_t> data = srd;
      data.insert(data.end(), addr.begin(), addr.end());
      if (toLDS)
        data.push_back(m0);
      record(op, data);
      loadResult(op, srd, addr);
      return true;
    }
    if (op->getName().getStringRef().starts_with("waveasm.buffer_store")) {
      std::vector<uint32_t> data = words(op->getOperand(1));
      for (unsigned l = 0; l < kLanes; ++l)
        data.push_back(lane(op->getOperand(2), l) +
                       uint32_t(attrOr(op, "instOffset", 0)));
      std::vector<uint32_t> stored = words(op->getOperand(0));
      data.insert(data.end(), stored.begin(), stored.end());
      record(op, data);
      return true;
    }
    if (op->getName().getStringRef().starts_with("waveasm.ds_read")) {
      std::vector<uint32_t> addr(kLanes);
      for (unsigned l = 0; l < kLanes; ++l)
        addr[l] =
            lane(op->getOperand(0), l) + uint32_t(attrOr(op, "offset", 0));
      record(op, addr);
      loadResult(op, {0xd5}, addr);
      return true;
    }
    if (op->getName().getStringRef().starts_with("waveasm.ds_write")) {
      std::vector<uint32_t> data;
      for (unsigned l = 0; l < kLanes; ++l)
        data.push_back(lane(op->getOperand(1), l) +
                       uint32_t(attrOr(op, "offset", 0)));
      std::vector<uint32_t> stored = words(op->getOperand(0));
      data.insert(data.end(), stored.begin(), stored.end());
      record(op, data);
      return true;
    }
    return false;
  }

  /// Ops with known 32-bit arithmetic; false for the others.
  bool arithmetic(Operation *op) {
    auto lanes = [&](auto f) { setLanes(op->getResult(0), f); };
    auto a = [&](unsigned l) { return lane(op->getOperand(0), l); };
    auto b = [&](unsigned l) { return lane(op->getOperand(1), l); };
    auto c = [&](unsigned l) { return lane(op->getOperand(2), l); };
    auto setSCC = [&](llvm::function_ref<bool(unsigned)> f) {
      if (op->getNumResults() > 1)
        setLanes(op->getResult(1), [&](unsigned l) { return f(l) ? 1u : 0u; });
    };
    if (isa<V_ADD_U32, V_ADD_I32>(op))
      lanes([&](unsigned l) { return a(l) + b(l); });
    else if (isa<V_SUB_U32, V_SUB_I32>(op))
      lanes([&](unsigned l) { return a(l) - b(l); });
    else if (isa<V_MUL_LO_U32, V_MUL_LO_I32, S_MUL_I32>(op))
      lanes([&](unsigned l) { return a(l) * b(l); });
    else if (isa<V_LSHLREV_B32>(op))
      lanes([&](unsigned l) { return b(l) << (a(l) & 31); });
    else if (isa<V_LSHRREV_B32>(op))
      lanes([&](unsigned l) { return b(l) >> (a(l) & 31); });
    else if (isa<V_LSHL_ADD_U32>(op))
      lanes([&](unsigned l) { return (a(l) << (b(l) & 31)) + c(l); });
    else if (isa<V_LSHL_OR_B32>(op))
      lanes([&](unsigned l) { return (a(l) << (b(l) & 31)) | c(l); });
    else if (isa<V_AND_B32>(op))
      lanes([&](unsigned l) { return a(l) & b(l); });
    else if (isa<V_OR_B32>(op))
      lanes([&](unsigned l) { return a(l) | b(l); });
    else if (isa<V_XOR_B32>(op))
      lanes([&](unsigned l) { return a(l) ^ b(l); });
    else if (isa<V_BFE_U32>(op))
      lanes([&](unsigned l) {
        uint32_t width = c(l) & 31;
        return (a(l) >> (b(l) & 31)) & ((1u << width) - 1);
      });
    else if (isa<V_READFIRSTLANE_B32>(op))
      lanes([&](unsigned) { return a(0); });
    else if (isa<S_ADD_U32>(op)) {
      lanes([&](unsigned l) { return a(l) + b(l); });
      setSCC([&](unsigned l) { return uint64_t(a(l)) + b(l) > 0xffffffffu; });
    } else if (isa<S_SUB_U32>(op)) {
      lanes([&](unsigned l) { return a(l) - b(l); });
      setSCC([&](unsigned l) { return b(l) > a(l); });
    } else if (isa<S_LSHL_B32, S_AND_B32, S_OR_B32, S_XOR_B32, S_LSHR_B32>(
                   op)) {
      auto f = [&](unsigned l) -> uint32_t {
        if (isa<S_LSHL_B32>(op))
          return a(l) << (b(l) & 31);
        if (isa<S_LSHR_B32>(op))
          return a(l) >> (b(l) & 31);
        if (isa<S_AND_B32>(op))
          return a(l) & b(l);
        if (isa<S_OR_B32>(op))
          return a(l) | b(l);
        return a(l) ^ b(l);
      };
      lanes(f);
      setSCC([&](unsigned l) { return f(l) != 0; });
    } else if (isa<S_CMP_LT_U32, S_CMP_LE_U32, S_CMP_GT_U32, S_CMP_GE_U32,
                   S_CMP_EQ_U32, S_CMP_NE_U32, S_CMP_LT_I32, S_CMP_LE_I32,
                   S_CMP_GT_I32, S_CMP_GE_I32, S_CMP_EQ_I32, S_CMP_NE_I32>(
                   op)) {
      bool isSigned = isa<S_CMP_LT_I32, S_CMP_LE_I32, S_CMP_GT_I32,
                          S_CMP_GE_I32, S_CMP_EQ_I32, S_CMP_NE_I32>(op);
      lanes([&](unsigned l) -> uint32_t {
        int64_t x = isSigned ? int64_t(int32_t(a(l))) : int64_t(a(l));
        int64_t y = isSigned ? int64_t(int32_t(b(l))) : int64_t(b(l));
        if (isa<S_CMP_LT_U32, S_CMP_LT_I32>(op))
          return x < y;
        if (isa<S_CMP_LE_U32, S_CMP_LE_I32>(op))
          return x <= y;
        if (isa<S_CMP_GT_U32, S_CMP_GT_I32>(op))
          return x > y;
        if (isa<S_CMP_GE_U32, S_CMP_GE_I32>(op))
          return x >= y;
        if (isa<S_CMP_EQ_U32, S_CMP_EQ_I32>(op))
          return x == y;
        return x != y;
      });
    } else if (isa<S_CSELECT_B32>(op))
      lanes([&](unsigned l) { return a(l) ? b(l) : c(l); });
    else if (isa<S_MOV_B32, V_MOV_B32>(op)) {
      Vals src = get(op->getOperand(0));
      unsigned words = getRegSize(op->getResult(0).getType());
      if (src.words != words) // v_mov_b32 of an immediate into a tuple
        src = splat(words, src.at(0, 0));
      set(op->getResult(0), src);
    } else
      return false;
    return true;
  }

  void runOp(Operation *op) {
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      set(constant, splat(1, uint32_t(constant.getValue())));
    } else if (auto pre = dyn_cast<PrecoloredVRegOp>(op)) {
      setLanes(pre, [&](unsigned l) {
        return pre.getIndex() == 0 ? l : mix(pre.getIndex(), l);
      });
    } else if (isa<PrecoloredSRegOp>(op)) {
      Value r = op->getResult(0);
      Vals x = splat(getRegSize(r.getType()), 0);
      int64_t index = cast<PrecoloredSRegOp>(op).getIndex();
      for (unsigned w = 0; w < x.words; ++w)
        for (unsigned l = 0; l < kLanes; ++l)
          x.v[w * kLanes + l] = uint32_t(16 * (index + w));
      set(r, x);
    } else if (auto mov = dyn_cast<S_MOV_B32_M0>(op)) {
      m0 = lane(mov->getOperand(0), 0);
    } else if (auto loop = dyn_cast<LoopOp>(op)) {
      runLoop(loop);
    } else if (auto extract = dyn_cast<ExtractOp>(op)) {
      const Vals &src = get(extract->getOperand(0));
      unsigned words = getRegSize(extract.getType());
      Vals r = splat(words, 0);
      for (unsigned w = 0; w < words; ++w)
        for (unsigned l = 0; l < kLanes; ++l)
          r.v[w * kLanes + l] = src.at(extract.getIndex() + w, l);
      set(extract, r);
    } else if (isa<PackOp>(op)) {
      Vals r;
      r.words = 0;
      for (Value v : op->getOperands()) {
        const Vals &x = get(v);
        r.v.insert(r.v.end(), x.v.begin(), x.v.end());
        r.words += x.words;
      }
      set(op->getResult(0), r);
    } else if (memory(op) || (op->getNumResults() && arithmetic(op))) {
    } else {
      // Anything else: a hash of the op and its operands per result word.
      uint64_t h = mix(1, llvm::hash_value(op->getName().getStringRef()));
      for (Value v : op->getOperands())
        for (uint32_t x : get(v).v)
          h = mix(h, x);
      for (Value r : op->getResults()) {
        Vals x = splat(getRegSize(r.getType()), 0);
        for (auto [i, w] : llvm::enumerate(x.v))
          w = mix(h, i + 17 * cast<OpResult>(r).getResultNumber());
        set(r, x);
      }
    }
  }

  void runBlock(Block &block) {
    for (Operation &op : block) {
      if (!error.empty())
        return;
      runOp(&op);
    }
  }

  void runLoop(LoopOp loop) {
    Block &body = loop.getBodyBlock();
    SmallVector<Vals> carried;
    for (Value init : loop.getInitArgs())
      carried.push_back(get(init));
    // Loops whose bound the interpreter cannot know (kernel arguments,
    // hashed values) stop after kMaxIterations, before and after alike.
    for (int64_t it = 0; it < kMaxIterations; ++it) {
      for (auto [arg, x] : llvm::zip(body.getArguments(), carried))
        set(arg, x);
      runBlock(body);
      ConditionOp cond = loop.getConditionOp();
      carried.clear();
      for (Value v : cond.getIterArgs())
        carried.push_back(get(v));
      if (!lane(cond.getCondition(), 0))
        break;
    }
    for (auto [result, x] : llvm::zip(loop.getResults(), carried))
      set(result, x);
  }
};

std::vector<Event> traceOf(ModuleOp module, std::string &error) {
  std::vector<Event> trace;
  for (ProgramOp program : module.getOps<ProgramOp>()) {
    Interpreter interp;
    interp.run(program);
    if (!interp.error.empty())
      error = interp.error;
    trace.insert(trace.end(), interp.trace.begin(), interp.trace.end());
  }
  return trace;
}

std::string describe(const Event &e) {
  std::string s = e.what + ":";
  for (uint32_t x : e.data)
    s += " " + std::to_string(x);
  return s;
}

/// Runs `pipeline` (waveasm-opt flags without dashes, comma separated) on
/// `text` and compares the traces; `changed` tells whether the IR changed.
void checkSameTrace(StringRef text, StringRef pipeline, const std::string &what,
                    bool *changed = nullptr) {
  TestContext t;
  OwningOpRef<ModuleOp> before = t.parseModule(text);
  ASSERT_TRUE(before) << what << "\n" << t.diagnostics;
  OwningOpRef<ModuleOp> after = t.parseModule(text);
  PassManager pm = PassManager::on<ModuleOp>(&t.ctx);
  ASSERT_TRUE(succeeded(parsePassPipeline(pipeline, pm))) << pipeline.str();
  ASSERT_TRUE(succeeded(pm.run(*after))) << what << "\n" << t.diagnostics;
  ASSERT_TRUE(succeeded(verify(*after))) << what << "\n" << t.diagnostics;
  if (changed) {
    std::string a, b;
    llvm::raw_string_ostream as(a), bs(b);
    before->print(as);
    after->print(bs);
    *changed = a != b;
  }
  std::string errBefore, errAfter;
  std::vector<Event> t0 = traceOf(*before, errBefore);
  std::vector<Event> t1 = traceOf(*after, errAfter);
  ASSERT_EQ(errBefore, "") << what;
  ASSERT_EQ(errAfter, "") << what;
  ASSERT_EQ(t0.size(), t1.size()) << what << " after " << pipeline.str();
  for (size_t i = 0; i < t0.size(); ++i)
    ASSERT_EQ(t0[i], t1[i])
        << what << " after " << pipeline.str() << ": access " << i
        << "\n  before " << describe(t0[i]) << "\n  after  " << describe(t1[i]);
}

/// Pipelines on the module (the PassManager is anchored on it).
const char *const kPipelines[] = {
    "waveasm.program(waveasm-scale-pack-elimination)",
    "waveasm.program(waveasm-buffer-load-strength-reduction)",
    "waveasm.program(waveasm-loop-address-promotion)",
    "waveasm.program(waveasm-scale-pack-elimination),"
    "loop-invariant-code-motion,"
    "waveasm.program(waveasm-buffer-load-strength-reduction),canonicalize,"
    "waveasm.program(waveasm-loop-address-promotion)",
};

struct Registered {
  Registered() {
    registerWaveASMPipeline();
    registerCanonicalizerPass();
    registerLoopInvariantCodeMotionPass();
  }
};

void registerOnce() { static Registered r; }

} // namespace

TEST(LoopOpt, InterpreterSeesAWrongAddress) {
  // The check can fail: a voffset off by 4 changes the trace.
  registerOnce();
  std::string base = waveasm::test::program(R"(
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %off = waveasm.constant @OFF@ : !waveasm.imm<@OFF@>
    %v = waveasm.v_add_u32 %tid, %off : !waveasm.pvreg<0>, !waveasm.imm<@OFF@> -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.s_endpgm)");
  auto with = [&](StringRef x) {
    std::string s = base;
    for (size_t p; (p = s.find("@OFF@")) != std::string::npos;)
      s.replace(p, 5, x.str());
    return s;
  };
  TestContext t;
  OwningOpRef<ModuleOp> a = t.parseModule(with("0"));
  OwningOpRef<ModuleOp> b = t.parseModule(with("4"));
  ASSERT_TRUE(a && b) << t.diagnostics;
  std::string e;
  EXPECT_FALSE(traceOf(*a, e) == traceOf(*b, e));
  EXPECT_EQ(traceOf(*a, e).size(), 1u);
}

TEST(LoopOpt, ExamplesKeepTheirMemoryAccesses) {
  registerOnce();
  std::vector<std::string> paths = waveasm::test::exampleKernelPaths();
  unsigned changed = 0;
  for (const std::string &path : paths) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(static_cast<bool>(buffer)) << path;
    for (const char *pipeline : kPipelines) {
      bool c = false;
      checkSameTrace((*buffer)->getBuffer(), pipeline, path, &c);
      changed += c;
    }
  }
  EXPECT_GE(paths.size(), 8u);
  // Each pass rewrites mxfp4_preshuffle_gemm_loop (3 + the sequence), the
  // others gemm_f16_triple_buffer_ntiles and gemm_f16_double_buffer.
  EXPECT_GE(changed, 8u);
}

namespace {

/// A random loop whose loads' voffsets are random affine chains of the
/// induction variable (and invariants), over three descriptors and two
/// soffsets; some chains are shared, some duplicated, some constants too
/// large for `offset`.
std::string randomStrengthReductionProgram(std::mt19937 &rng) {
  auto pick = [&](unsigned n) { return unsigned(rng() % n); };
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "%tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>\n";
  for (unsigned d = 0; d < 3; ++d)
    os << "%srd" << d << " = waveasm.precolored.sreg " << 4 + 4 * d
       << ", 4 : !waveasm.psreg<" << 4 + 4 * d << ", 4>\n";
  os << "%sb = waveasm.precolored.sreg 16 : !waveasm.psreg<16>\n";
  for (int c : {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 64, 100, 256, 4000, 8192})
    os << "%c" << c << " = waveasm.constant " << c << " : !waveasm.imm<" << c
       << ">\n";
  os << "%inv = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, "
        "!waveasm.pvreg<0> -> !waveasm.vreg\n";
  os << "%low = waveasm.v_and_b32 %tid, %c3 : !waveasm.pvreg<0>, "
        "!waveasm.imm<3> -> !waveasm.vreg\n";
  unsigned start = pick(3), step = 1 + pick(2);
  os << "%k0 = waveasm.s_mov_b32 %c" << start << " : !waveasm.imm<" << start
     << "> -> !waveasm.sreg\n";
  os << "%r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {\n";
  os << "  %kn:2 = waveasm.s_add_u32 %k, %c" << step
     << " : !waveasm.sreg, !waveasm.imm<" << step
     << "> -> !waveasm.sreg, !waveasm.scc\n";
  // Values: name and whether it is a VGPR.
  std::vector<std::pair<std::string, bool>> values = {
      {"%k", false}, {"%kn#0", false}, {"%inv", true}, {"%tid", true}};
  auto type = [](bool vgpr, StringRef name) -> std::string {
    if (name == "%tid")
      return "!waveasm.pvreg<0>";
    return vgpr ? "!waveasm.vreg" : "!waveasm.sreg";
  };
  const int shifts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12};
  unsigned n = 0;
  auto fresh = [&]() { return "%v" + std::to_string(n++); };
  auto anyValue = [&]() { return values[pick(values.size())]; };
  for (unsigned i = 0, ops = 8 + pick(20); i < ops; ++i) {
    auto [x, xv] = anyValue();
    auto [y, yv] = anyValue();
    std::string r = fresh();
    int sh = shifts[pick(4)];
    switch (pick(7)) {
    case 0:
      os << "  " << r << " = waveasm.v_add_u32 " << x << ", " << y << " : "
         << type(xv, x) << ", " << type(yv, y) << " -> !waveasm.vreg\n";
      break;
    case 1:
      os << "  " << r << " = waveasm.v_lshlrev_b32 %c" << sh << ", " << x
         << " : !waveasm.imm<" << sh << ">, " << type(xv, x)
         << " -> !waveasm.vreg\n";
      break;
    case 2:
      os << "  " << r << " = waveasm.v_lshl_add_u32 " << x << ", %c" << sh
         << ", " << y << " : " << type(xv, x) << ", !waveasm.imm<" << sh
         << ">, " << type(yv, y) << " -> !waveasm.vreg\n";
      break;
    case 3: {
      int factor = shifts[pick(10)];
      os << "  " << r << " = waveasm.v_mul_lo_u32 " << x << ", %c" << factor
         << " : " << type(xv, x) << ", !waveasm.imm<" << factor
         << "> -> !waveasm.vreg\n";
      break;
    }
    case 4:
      // (x << 2) | low with low < 4: the non-overlapping or the pass
      // assumes.
      os << "  " << r << " = waveasm.v_lshl_or_b32 " << x
         << ", %c2, %low : " << type(xv, x)
         << ", !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg\n";
      break;
    case 5: {
      // Constants that fit `offset`, and one that does not with another.
      int add = pick(2) ? 64 : (pick(2) ? 4000 : 100);
      os << "  " << r << " = waveasm.v_add_u32 " << x << ", %c" << add << " : "
         << type(xv, x) << ", !waveasm.imm<" << add << "> -> !waveasm.vreg\n";
      break;
    }
    case 6:
      os << "  " << r << " = waveasm.v_add_u32 " << x
         << ", %sb : " << type(xv, x)
         << ", !waveasm.psreg<16> -> !waveasm.vreg\n";
      break;
    }
    values.push_back({r, true});
  }
  for (unsigned i = 0, loads = 2 + pick(6); i < loads; ++i) {
    unsigned d = pick(3);
    // One of the last six computed values (VGPRs).
    auto [v, vv] = values[values.size() - 1 -
                          pick(std::min<size_t>(values.size() - 4, 6))];
    bool sgprOff = pick(4) == 0;
    os << "  %l" << i << " = waveasm.buffer_load_dword %srd" << d << ", " << v
       << ", " << (sgprOff ? "%sb" : "%c0") << " : !waveasm.psreg<" << 4 + 4 * d
       << ", 4>, " << type(vv, v) << ", "
       << (sgprOff ? "!waveasm.psreg<16>" : "!waveasm.imm<0>")
       << " -> !waveasm.vreg\n";
  }
  os << "  %go = waveasm.s_cmp_lt_u32 %kn#0, %c12 : !waveasm.sreg, "
        "!waveasm.imm<12> -> !waveasm.scc\n";
  os << "  waveasm.condition %go : !waveasm.scc iter_args(%kn#0) : "
        "!waveasm.sreg\n}\nwaveasm.s_endpgm";
  return waveasm::test::program(os.str());
}

} // namespace

/// Programs of `generate` for 300 seeds keep their traces under
/// `pipeline`; returns how many the pipeline changed.
static unsigned checkRandomPrograms(std::string (*generate)(std::mt19937 &),
                                    StringRef pipeline) {
  unsigned changedCount = 0;
  for (unsigned seed = 0; seed < 300; ++seed) {
    std::mt19937 rng(seed);
    std::string text = generate(rng);
    bool changed = false;
    checkSameTrace(text, pipeline, "seed " + std::to_string(seed), &changed);
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << text;
      return changedCount;
    }
    changedCount += changed;
  }
  return changedCount;
}

TEST(LoopOpt, RandomStrengthReductionKeepsAddresses) {
  registerOnce();
  // Most random programs have induction-dependent loads.
  EXPECT_GT(checkRandomPrograms(randomStrengthReductionProgram, kPipelines[1]),
            150u);
}

namespace {

/// A random loop with SGPR LDS bases permuted on the back edge (cycles of
/// every size from 1 to 4, some bases read and written in other
/// positions), LDS reads at `base + invariant`, some through adds of the
/// same operands, some with the block argument second.
std::string randomRotationProgram(std::mt19937 &rng) {
  auto pick = [&](unsigned n) { return unsigned(rng() % n); };
  unsigned n = 2 + pick(6);
  std::vector<unsigned> perm(n);
  for (unsigned i = 0; i < n; ++i)
    perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "%tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>\n";
  os << "%c0 = waveasm.constant 0 : !waveasm.imm<0>\n";
  os << "%c1 = waveasm.constant 1 : !waveasm.imm<1>\n";
  os << "%c9 = waveasm.constant 9 : !waveasm.imm<9>\n";
  for (unsigned j = 0; j < 3; ++j)
    os << "%inv" << j << " = waveasm.v_lshlrev_b32 %c" << (j ? 1 : 0)
       << ", %tid : !waveasm.imm<" << (j ? 1 : 0)
       << ">, !waveasm.pvreg<0> -> !waveasm.vreg\n";
  for (unsigned i = 0; i < n; ++i)
    os << "%cb" << i << " = waveasm.constant " << 1024 * i << " : !waveasm.imm<"
       << 1024 * i << ">\n%b" << i << " = waveasm.s_mov_b32 %cb" << i
       << " : !waveasm.imm<" << 1024 * i << "> -> !waveasm.sreg\n";
  os << "%k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg\n";
  os << "%r:" << n + 1 << " = waveasm.loop (%k = %k0";
  for (unsigned i = 0; i < n; ++i)
    os << ", %a" << i << " = %b" << i;
  std::string types = "!waveasm.sreg";
  for (unsigned i = 0; i < n; ++i)
    types += ", !waveasm.sreg";
  os << ") : (" << types << ") -> (" << types << ") {\n";
  for (unsigned i = 0, reads = 1 + pick(6); i < reads; ++i) {
    unsigned a = pick(n), j = pick(3);
    bool argFirst = pick(2);
    os << "  %p" << i << " = waveasm.v_add_u32 "
       << (argFirst ? "%a" + std::to_string(a) : "%inv" + std::to_string(j))
       << ", "
       << (argFirst ? "%inv" + std::to_string(j) : "%a" + std::to_string(a))
       << " : "
       << (argFirst ? "!waveasm.sreg, !waveasm.vreg"
                    : "!waveasm.vreg, !waveasm.sreg")
       << " -> !waveasm.vreg\n";
    os << "  %x" << i << " = waveasm.ds_read_b32 %p" << i
       << " : !waveasm.vreg -> !waveasm.vreg\n";
  }
  os << "  %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, "
        "!waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc\n";
  os << "  %go = waveasm.s_cmp_lt_u32 %kn#0, %c9 : !waveasm.sreg, "
        "!waveasm.imm<9> -> !waveasm.scc\n";
  os << "  waveasm.condition %go : !waveasm.scc iter_args(%kn#0";
  for (unsigned i = 0; i < n; ++i)
    os << ", %a" << perm[i];
  os << ") : " << types << "\n}\nwaveasm.s_endpgm";
  return waveasm::test::program(os.str());
}

} // namespace

TEST(LoopOpt, RandomRotationsKeepLDSAddresses) {
  registerOnce();
  EXPECT_GT(checkRandomPrograms(randomRotationProgram, kPipelines[2]), 150u);
}
