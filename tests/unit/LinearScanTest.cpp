//===- LinearScanTest.cpp - linear-scan allocation, checked by simulation -===//
//
// An allocation is checked independently of the allocator's own liveness:
// the allocated program is executed symbolically over physical registers
// (each register holds a token naming the SSA value word it contains), with
// the emitter's semantics for structured control flow (SPEC.md 17.5: init ->
// block-argument copies at loop entry, parallel iter_arg -> block-argument
// copies on the back edge, yield -> result copies at if joins). Every read
// must find the value the IR says it reads. Copies (v_mov_b32, s_mov_b32,
// v_accvgpr_read_b32 of a register) are transparent: their result holds the
// source's tokens. Loops iterate to a fixed point. A precolored value is
// the initial contents of its registers (every precolored op naming a
// register names the same contents), present from the program's start; its
// op checks that they are still there, so a register written in place
// (an insert, an MFMA result in its accumulator's registers) while another
// precolored value, or the same op on a later loop iteration, still expects
// the ABI contents is an error.
//
// Random programs (loops, swaps, duplicated inits, values live across loops,
// ifs, MFMA chains, AGPR accumulators, pack/extract/insert, inserts into
// precolored VGPR and SGPR tuples, MFMAs on precolored accumulators, some of
// them sharing registers with other precolored values) are allocated
// and checked for many seeds. The same checker runs on the output of VGPR
// compaction (--waveasm-vgpr-compaction), which re-places the allocated
// VGPR ranges: it must never make two simultaneously live values share a
// register, and never raise the VGPR peak.
//
//===----------------------------------------------------------------------===//

#include "AllocationPrograms.h"
#include "TestUtils.h"

#include "analysis/Metrics.h"
#include "pipeline/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

using namespace mlir;
using namespace waveasm;
using waveasm::test::TestContext;
using waveasm::test::allocation::Generator;

namespace {

//===----------------------------------------------------------------------===//
// Checker
//===----------------------------------------------------------------------===//

struct Token {
  const void *value = nullptr; // null: unknown contents
  int64_t word = 0;
  bool operator==(const Token &o) const {
    return value == o.value && word == o.word;
  }
  bool operator!=(const Token &o) const { return !(*this == o); }
};

using State = std::map<std::pair<int, int64_t>, Token>;

/// Token owners for the registers' contents at the program's start.
const char kInitialContents[3] = {};

class Checker {
public:
  std::vector<std::string> errors;
  unsigned mismatches = 0; // loop/if types that differ across a tie

  void run(ProgramOp program) {
    State state;
    // The ABI fills the precolored registers before the first instruction.
    program.getBody().walk([&](Operation *op) {
      if (isPrecolored(op))
        write(state, op, op->getResult(0), tokensOf(op->getResult(0)));
    });
    exec(program.getBody().front(), state);
  }

  static bool isPrecolored(Operation *op) {
    return isa<PrecoloredVRegOp, PrecoloredSRegOp, PrecoloredARegOp>(op);
  }

private:
  llvm::DenseMap<Value, SmallVector<Token>> memo;

  std::string name(Value v) {
    std::string s;
    llvm::raw_string_ostream os(s);
    v.printAsOperand(os, OpPrintingFlags());
    return s;
  }
  void error(Operation *op, const Twine &msg) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << op->getName() << " at " << op->getLoc() << ": " << msg;
    errors.push_back(s);
  }

  SmallVector<Token> fresh(Value v) {
    SmallVector<Token> t;
    for (int64_t j = 0; j < getRegSize(v.getType()); ++j)
      t.push_back({v.getAsOpaquePointer(), j});
    return t;
  }

  SmallVector<Token> tokensOf(Value v) {
    auto it = memo.find(v);
    if (it != memo.end())
      return it->second;
    SmallVector<Token> t;
    Operation *def = v.getDefiningOp();
    int64_t size = getRegSize(v.getType());
    if (auto extract = dyn_cast_or_null<ExtractOp>(def)) {
      SmallVector<Token> src = tokensOf(extract.getSource());
      for (int64_t j = 0; j < size; ++j)
        t.push_back(src[extract.getIndex() + j]);
    } else if (auto insert = dyn_cast_or_null<InsertOp>(def)) {
      t = tokensOf(insert.getVector());
      t[insert.getIndex()] = tokensOf(insert.getValue())[0];
    } else if (auto pack = dyn_cast_or_null<PackOp>(def)) {
      for (Value e : pack.getElements())
        llvm::append_range(t, tokensOf(e));
    } else if (def && isPrecolored(def)) {
      // The initial contents of the registers, whichever op names them.
      int cls;
      int64_t index;
      if (regsOf(def, v, cls, index))
        for (int64_t j = 0; j < size; ++j)
          t.push_back({&kInitialContents[cls], index + j});
    } else if (def && isa<V_MOV_B32, S_MOV_B32, V_ACCVGPR_READ_B32>(def) &&
               isRegister(def->getOperand(0).getType())) {
      SmallVector<Token> src = tokensOf(def->getOperand(0));
      if (static_cast<int64_t>(src.size()) == size)
        t = src;
      else if (src.size() == 1)
        t.assign(size, src[0]);
      else
        t = fresh(v);
    } else {
      t = fresh(v);
    }
    memo[v] = t;
    return t;
  }

  bool regsOf(Operation *op, Value v, int &cls, int64_t &index) {
    std::optional<int64_t> idx = getPhysicalIndex(v.getType());
    if (!idx) {
      error(op, "value " + name(v) + " is not physical");
      return false;
    }
    cls = static_cast<int>(*getRegClass(v.getType()));
    index = *idx;
    return true;
  }

  void read(State &state, Operation *op, Value v) {
    if (!isRegister(v.getType()))
      return;
    int cls;
    int64_t index;
    if (!regsOf(op, v, cls, index))
      return;
    SmallVector<Token> want = tokensOf(v);
    for (int64_t j = 0; j < static_cast<int64_t>(want.size()); ++j) {
      auto it = state.find({cls, index + j});
      if (it == state.end() || it->second != want[j]) {
        error(op, "reads " + name(v) + " word " + std::to_string(j) +
                      " from register " + std::to_string(index + j) +
                      " (class " + std::to_string(cls) +
                      ") which does not hold it");
        return;
      }
    }
  }

  void write(State &state, Operation *op, Value v,
             const SmallVector<Token> &tokens) {
    int cls;
    int64_t index;
    if (!regsOf(op, v, cls, index))
      return;
    for (int64_t j = 0; j < static_cast<int64_t>(tokens.size()); ++j)
      state[{cls, index + j}] = tokens[j];
  }

  static State merge(const State &a, const State &b) {
    State out;
    for (auto &[key, token] : a) {
      auto it = b.find(key);
      if (it != b.end() && it->second == token)
        out[key] = token;
    }
    return out;
  }

  void checkMFMA(Operation *op) {
    auto info = dyn_cast<InstInfoOpInterface>(op);
    if (!info || info.getExecUnit() != ExecUnit::MFMA)
      return;
    Type dst = op->getResult(0).getType();
    std::optional<int64_t> d = getPhysicalIndex(dst);
    if (!d)
      return;
    for (OpOperand &operand : op->getOpOperands()) {
      if (static_cast<int>(operand.getOperandNumber()) ==
          info.getTiedOperandIndex())
        continue;
      Type t = operand.get().getType();
      std::optional<int64_t> s = getPhysicalIndex(t);
      if (!s || getRegClass(t) != getRegClass(dst))
        continue;
      if (*s < *d + getRegSize(dst) && *d < *s + getRegSize(t))
        error(op, "MFMA destination overlaps a non-accumulator operand");
    }
  }

  // The insert's registers hold its result: the source's words with the
  // slot replaced (the insert's own operand read is not an instruction).
  void checkInsert(State &state, InsertOp insert) {
    int cls;
    int64_t index;
    if (!regsOf(insert, insert.getResult(), cls, index))
      return;
    SmallVector<Token> want = tokensOf(insert.getResult());
    for (int64_t j = 0; j < static_cast<int64_t>(want.size()); ++j) {
      auto it = state.find({cls, index + j});
      if (it == state.end() || it->second != want[j])
        error(insert, "register " + std::to_string(index + j) +
                          " does not hold word " + std::to_string(j) +
                          " of the insert's result");
    }
    if (getPhysicalIndex(insert.getVector().getType()) != index)
      error(insert, "result and source registers differ");
  }

  void exec(Block &block, State &state) {
    for (Operation &op : block) {
      if (auto loop = dyn_cast<LoopOp>(op)) {
        execLoop(loop, state);
        continue;
      }
      if (auto ifOp = dyn_cast<IfOp>(op)) {
        execIf(ifOp, state);
        continue;
      }
      if (auto insert = dyn_cast<InsertOp>(op)) {
        // Non-emitting: the inserted word was moved into its slot before.
        read(state, &op, insert.getValue());
        checkInsert(state, insert);
        continue;
      }
      if (isPrecolored(&op)) {
        // Names the ABI contents, which must still be there when used.
        if (!op.getResult(0).use_empty())
          read(state, &op, op.getResult(0));
        continue;
      }
      for (Value operand : op.getOperands())
        read(state, &op, operand);
      checkMFMA(&op);
      if (isa<ExtractOp, PackOp, InsertOp>(op))
        continue; // aliases: no register is written
      for (Value result : op.getResults())
        if (isRegister(result.getType()))
          write(state, &op, result, tokensOf(result));
    }
  }

  void execLoop(LoopOp loop, State &state) {
    Block &body = loop.getBody().front();
    ConditionOp condition = loop.getConditionOp();
    for (Value init : loop.getInitArgs())
      read(state, loop, init);
    for (auto [init, arg, result, iter] :
         llvm::zip(loop.getInitArgs(), body.getArguments(), loop.getResults(),
                   condition.getIterArgs())) {
      if (init.getType() != arg.getType() || iter.getType() != arg.getType())
        ++mismatches;
      if (result.getType() != arg.getType())
        error(loop, "result type differs from its block argument");
    }
    if (auto regs =
            condition->getAttrOfType<DenseI64ArrayAttr>("_iterArgPhysRegs")) {
      for (auto [reg, iter] :
           llvm::zip(regs.asArrayRef(), condition.getIterArgs()))
        if (getPhysicalIndex(iter.getType()) != reg)
          error(condition, "_iterArgPhysRegs disagrees with the iter_args");
    } else {
      error(condition, "missing _iterArgPhysRegs");
    }
    // Entry: the emitter copies inits into the block arguments' registers.
    State header = state;
    for (BlockArgument arg : body.getArguments())
      write(header, loop, arg, tokensOf(arg));
    State end;
    for (int iteration = 0; iteration < 8; ++iteration) {
      State s = header;
      exec(body, s);
      // Back edge: iter_args are copied into the block arguments (in
      // parallel); what arrives there is the next iteration's argument.
      for (BlockArgument arg : body.getArguments())
        write(s, condition, arg, tokensOf(arg));
      end = s;
      State merged = merge(header, s);
      if (merged == header)
        break;
      header = merged;
    }
    for (auto [arg, result] : llvm::zip(body.getArguments(), loop.getResults()))
      write(end, loop, result, tokensOf(result));
    state = end;
  }

  void execIf(IfOp ifOp, State &state) {
    read(state, ifOp, ifOp.getCondition());
    auto branch = [&](Region &region) {
      State s = state;
      if (!region.empty()) {
        exec(region.front(), s);
        YieldOp yield = ifOp.getYield(region);
        for (auto [value, result] :
             llvm::zip(yield.getValues(), ifOp.getResults()))
          if (value.getType() != result.getType())
            ++mismatches;
      }
      for (Value result : ifOp.getResults())
        write(s, ifOp, result, tokensOf(result));
      return s;
    };
    State thenState = branch(ifOp.getThenRegion());
    State elseState = branch(ifOp.getElseRegion());
    state = merge(thenState, elseState);
  }
};

struct Allocated {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  bool passOk = false;
};

/// Parses `text`, runs the pass and verifies; returns the module.
std::unique_ptr<Allocated> allocate(llvm::StringRef text,
                                    WaveASMLinearScanOptions options = {}) {
  auto out = std::make_unique<Allocated>();
  out->module = out->t.parseModule(text);
  if (!out->module)
    return out;
  PassManager pm(&out->t.ctx);
  pm.addNestedPass<ProgramOp>(createWaveASMLinearScan(options));
  out->passOk = succeeded(pm.run(*out->module));
  return out;
}

std::vector<std::string> check(ModuleOp module, unsigned *mismatches) {
  Checker checker;
  module.walk([&](ProgramOp program) { checker.run(program); });
  if (mismatches)
    *mismatches = checker.mismatches;
  return checker.errors;
}

std::string join(const std::vector<std::string> &errors) {
  std::string s;
  for (const std::string &e : errors)
    s += e + "\n";
  return s;
}

/// Highest VGPR in use + 1 (SPEC.md 17.4, without the v15 floor).
int64_t vgprPeak(ModuleOp module) {
  int64_t peak = 0;
  module.walk([&](ProgramOp program) {
    peak = std::max(peak, computePhysicalPeaks(program, false).vgpr);
  });
  return peak;
}

struct Compacted {
  int64_t before = 0, after = 0;
  bool passOk = false;
  bool verifies = false;
  std::vector<std::string> errors;
  unsigned mismatches = 0;
};

/// Runs VGPR compaction on an allocated module and checks the result with
/// the simulation.
Compacted compactAndCheck(MLIRContext &ctx, ModuleOp module) {
  Compacted out;
  out.before = vgprPeak(module);
  PassManager pm(&ctx);
  pm.addNestedPass<ProgramOp>(createWaveASMVGPRCompaction());
  out.passOk = succeeded(pm.run(module));
  out.verifies = succeeded(verify(module));
  out.after = vgprPeak(module);
  out.errors = check(module, &out.mismatches);
  return out;
}

TEST(LinearScan, Examples) {
  const char *text = R"(
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %j0 = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  %r:3 = waveasm.loop (%i = %i0, %a = %i0, %b = %j0) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) {
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n#0, %b, %a) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_mov_b32_m0 %r#1 : !waveasm.sreg
  waveasm.s_mov_b32_m0 %i0 : !waveasm.sreg
  waveasm.s_endpgm
}
)";
  auto a = allocate(text);
  ASSERT_TRUE(a->module) << a->t.diagnostics;
  ASSERT_TRUE(a->passOk) << a->t.diagnostics;
  ASSERT_TRUE(succeeded(verify(*a->module)));
  unsigned mismatches = 0;
  std::vector<std::string> errors = check(*a->module, &mismatches);
  EXPECT_TRUE(errors.empty()) << join(errors);
  EXPECT_EQ(mismatches, 0u);
}

// Every valid example kernel (the project's and, when present, the SPEC's)
// allocates to a program the simulation accepts, with no type mismatches.
TEST(LinearScan, ExampleKernelsAllocateCorrectly) {
  unsigned checked = 0;
  for (const char *dir :
       {waveasm::test::examplesDir(), waveasm::test::sharedExamplesDir()}) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec)) {
      StringRef path = it->path();
      StringRef file = llvm::sys::path::filename(path);
      if (!file.ends_with(".mlir") || file.starts_with("invalid"))
        continue;
      auto buffer = llvm::MemoryBuffer::getFile(path);
      ASSERT_TRUE(bool(buffer)) << path.str();
      auto a = allocate((*buffer)->getBuffer());
      ASSERT_TRUE(a->module) << path.str() << "\n" << a->t.diagnostics;
      ASSERT_TRUE(a->passOk) << path.str() << "\n" << a->t.diagnostics;
      ASSERT_TRUE(succeeded(verify(*a->module))) << path.str();
      unsigned mismatches = 0;
      std::vector<std::string> errors = check(*a->module, &mismatches);
      EXPECT_TRUE(errors.empty()) << path.str() << "\n" << join(errors);
      EXPECT_EQ(mismatches, 0u) << path.str();
      Compacted c = compactAndCheck(a->t.ctx, *a->module);
      ASSERT_TRUE(c.passOk && c.verifies) << path.str() << "\n"
                                          << a->t.diagnostics;
      EXPECT_TRUE(c.errors.empty()) << path.str() << " after compaction\n"
                                    << join(c.errors);
      EXPECT_EQ(c.mismatches, 0u) << path.str();
      EXPECT_LE(c.after, c.before) << path.str();
      ++checked;
    }
  }
  EXPECT_GE(checked, 1u);
}

// The checker itself must notice a wrong allocation.
TEST(LinearScan, CheckerCatchesClobber) {
  const char *text = R"(
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %a = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.pvreg<1>
  %b = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.pvreg<1>
  %c = waveasm.v_add_u32 %a, %b : !waveasm.pvreg<1>, !waveasm.pvreg<1> -> !waveasm.pvreg<2>
  waveasm.s_endpgm
}
)";
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(text);
  ASSERT_TRUE(module);
  EXPECT_FALSE(check(*module, nullptr).empty());
}

// ... and a write into precolored registers that another precolored value
// (or the same op, on the next loop iteration) still names.
TEST(LinearScan, CheckerCatchesPrecoloredClobber) {
  const char *shared = R"(
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %q = waveasm.precolored.vreg 4, 4 : !waveasm.pvreg<4, 4>
  %m = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.pvreg<5>
  waveasm.dce_protect %m : !waveasm.pvreg<5>
  %q2 = waveasm.insert %tid into %q[1] : !waveasm.pvreg<0>, !waveasm.pvreg<4, 4> -> !waveasm.pvreg<4, 4>
  waveasm.buffer_store_dwordx4 %q2, %srd, %tid : !waveasm.pvreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  %v5 = waveasm.precolored.vreg 5 : !waveasm.pvreg<5>
  waveasm.buffer_store_dword %v5, %srd, %tid : !waveasm.pvreg<5>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
)";
  const char *loop = R"(
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.psreg<8>
  %r = waveasm.loop (%i = %i0) : (!waveasm.psreg<8>) -> (!waveasm.psreg<8>) {
    %acc = waveasm.precolored.areg 0, 4 : !waveasm.pareg<0, 4>
    %a = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.pvreg<2, 2>
    %d = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pareg<0, 4> -> !waveasm.pareg<0, 4>
    %v = waveasm.v_accvgpr_read_b32 %d : !waveasm.pareg<0, 4> -> !waveasm.pvreg<4, 4>
    waveasm.buffer_store_dwordx4 %v, %srd, %tid : !waveasm.pvreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
    %go = waveasm.s_cmp_lt_u32 %i, %c8 : !waveasm.psreg<8>, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%i) : !waveasm.psreg<8> {_iterArgPhysRegs = array<i64: 8>}
  }
  waveasm.s_endpgm
}
)";
  for (const char *text : {shared, loop}) {
    TestContext t;
    OwningOpRef<ModuleOp> module = t.parseModule(text);
    ASSERT_TRUE(module) << t.diagnostics;
    std::vector<std::string> errors = check(*module, nullptr);
    ASSERT_FALSE(errors.empty()) << text;
    EXPECT_NE(errors.front().find("precolored"), std::string::npos)
        << join(errors);
  }
}

/// How an allocated program used its precolored tuples.
struct PrecoloredUse {
  unsigned insertsInPlace = 0, insertsOnCopies = 0;
  unsigned mfmasInPlace = 0, mfmasElsewhere = 0;
};

/// Inserts into precolored tuples and MFMAs on precolored accumulators of
/// `text` (the input), and how many of them `module` (allocated) keeps in
/// the precolored registers.
PrecoloredUse countPrecoloredUse(ModuleOp input, ModuleOp module) {
  auto precolored = [](Value v) {
    Operation *def = v.getDefiningOp();
    return def &&
           isa<PrecoloredVRegOp, PrecoloredSRegOp, PrecoloredARegOp>(def);
  };
  PrecoloredUse use;
  unsigned inserts = 0, mfmas = 0;
  input.walk([&](Operation *op) {
    if (auto insert = dyn_cast<InsertOp>(op))
      inserts += precolored(insert.getVector());
    else if (isa<V_MFMA_F32_16X16X16_F16>(op))
      mfmas += precolored(op->getOperand(2));
  });
  module.walk([&](Operation *op) {
    if (auto insert = dyn_cast<InsertOp>(op))
      use.insertsInPlace += precolored(insert.getVector());
    else if (isa<V_MFMA_F32_16X16X16_F16>(op))
      use.mfmasInPlace +=
          precolored(op->getOperand(2)) &&
          op->getResult(0).getType() == op->getOperand(2).getType();
  });
  use.insertsOnCopies = inserts - use.insertsInPlace;
  use.mfmasElsewhere = mfmas - use.mfmasInPlace;
  return use;
}

TEST(LinearScan, RandomProgramsAllocateCorrectly) {
  unsigned allocated = 0, totalMismatches = 0, lowered = 0;
  PrecoloredUse precoloredUse;
  unsigned seeds = 400;
  if (const char *n = getenv("LINEARSCAN_FUZZ_SEEDS"))
    seeds = std::max(1, atoi(n));
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    std::string text = Generator(seed).program();
    if (const char *dump = getenv("LINEARSCAN_FUZZ_DUMP"))
      if (std::to_string(seed) == dump) {
        std::error_code ec;
        llvm::raw_fd_ostream f("/tmp/linearscan_fuzz.mlir", ec);
        f << text;
      }
    auto a = allocate(text);
    ASSERT_TRUE(a->module) << "seed " << seed << ": does not parse\n"
                           << a->t.diagnostics << text;
    ASSERT_TRUE(succeeded(verify(*a->module)));
    if (!a->passOk) {
      // Only register pressure may stop the allocator.
      ASSERT_NE(a->t.diagnostics.find("Failed to allocate"), std::string::npos)
          << "seed " << seed << "\n"
          << a->t.diagnostics << text;
      continue;
    }
    ++allocated;
    unsigned mismatches = 0;
    std::vector<std::string> errors = check(*a->module, &mismatches);
    ASSERT_TRUE(errors.empty()) << "seed " << seed << "\n"
                                << join(errors) << text;
    {
      OwningOpRef<ModuleOp> input = a->t.parseModule(text);
      PrecoloredUse use = countPrecoloredUse(*input, *a->module);
      precoloredUse.insertsInPlace += use.insertsInPlace;
      precoloredUse.insertsOnCopies += use.insertsOnCopies;
      precoloredUse.mfmasInPlace += use.mfmasInPlace;
      precoloredUse.mfmasElsewhere += use.mfmasElsewhere;
    }
    totalMismatches += mismatches;
    if (mismatches && getenv("LINEARSCAN_FUZZ_VERBOSE"))
      llvm::errs() << "seed " << seed << ": " << mismatches
                   << " type mismatches\n";
    // A second run changes nothing.
    std::string once;
    llvm::raw_string_ostream os1(once);
    a->module->print(os1);
    PassManager pm(&a->t.ctx);
    pm.addNestedPass<ProgramOp>(createWaveASMLinearScan());
    ASSERT_TRUE(succeeded(pm.run(*a->module)));
    std::string twice;
    llvm::raw_string_ostream os2(twice);
    a->module->print(os2);
    ASSERT_EQ(once, twice) << "seed " << seed;
    // Compaction keeps every value where its readers find it.
    Compacted c = compactAndCheck(a->t.ctx, *a->module);
    ASSERT_TRUE(c.passOk && c.verifies) << "seed " << seed;
    ASSERT_TRUE(c.errors.empty()) << "seed " << seed << " after compaction\n"
                                  << join(c.errors) << text;
    ASSERT_LE(c.after, c.before) << "seed " << seed;
    totalMismatches += c.mismatches;
    lowered += c.after < c.before;
  }
  EXPECT_GT(allocated, seeds * 7 / 8);
  EXPECT_EQ(totalMismatches, 0u);
  // Both ways of using a precolored tuple were exercised: in place, and
  // (tuple still needed, registers shared, op in a loop) elsewhere.
  EXPECT_GT(precoloredUse.insertsInPlace, seeds / 20);
  EXPECT_GT(precoloredUse.insertsOnCopies, seeds / 20);
  EXPECT_GT(precoloredUse.mfmasInPlace, seeds / 20);
  EXPECT_GT(precoloredUse.mfmasElsewhere, seeds / 20);
  if (getenv("LINEARSCAN_FUZZ_VERBOSE"))
    llvm::errs() << "precolored inserts in place / on copies: "
                 << precoloredUse.insertsInPlace << " / "
                 << precoloredUse.insertsOnCopies
                 << "; MFMAs in the accumulator / elsewhere: "
                 << precoloredUse.mfmasInPlace << " / "
                 << precoloredUse.mfmasElsewhere << "\n";
  // The random programs' precolored v100..v103 and v200 pin the peak;
  // compaction still has to keep them, so it lowers nothing there (the
  // pressure test below has room to gain).
  (void)lowered;
}

/// Moves every VGPR value at v16 and above up by `shift` registers (and the
/// `_iterArgPhysRegs` that name them): a correct allocation with a hole
/// that compaction has to close. Precolored and scratch registers are below
/// v16 in the programs this is used on.
void spreadVGPRs(ModuleOp module, int64_t shift) {
  MLIRContext *ctx = module.getContext();
  auto moved = [&](Type type) -> Type {
    std::optional<int64_t> index = getPhysicalIndex(type);
    if (getRegClass(type) != RegClass::VGPR || !index || *index < 16)
      return type;
    return getPhysicalType(ctx, RegClass::VGPR, *index + shift,
                           getRegSize(type));
  };
  module.walk([&](Operation *op) {
    for (Value result : op->getResults())
      result.setType(moved(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(moved(arg.getType()));
  });
  // Once everything moved (an iter_arg may be a block argument).
  module.walk([&](ConditionOp cond) {
    SmallVector<int64_t> regs;
    for (Value value : cond.getIterArgs())
      regs.push_back(getPhysicalIndex(value.getType()).value_or(-1));
    cond->setAttr("_iterArgPhysRegs", DenseI64ArrayAttr::get(ctx, regs));
  });
}

/// What compactSpreadPrograms saw: programs with a hole to close (peak above
/// the shift + 16), how many of them compaction lowered, the VGPRs gained,
/// and the occupancy mask widths (64-bit words of the input's peak).
struct SpreadStats {
  unsigned spread = 0, compacted = 0;
  int64_t gained = 0;
  std::set<int64_t> widths;
};

/// Random programs whose precolored registers are low, allocated, then
/// spread apart by `shift` registers (those that would pass v255 skipped),
/// compacted; every result is checked by simulation.
void compactSpreadPrograms(int64_t shift, unsigned seeds, SpreadStats &stats) {
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    std::string text = Generator(seed, /*vgprBase=*/4).program();
    StringRef from = "precolored.vreg 200 ", to = "precolored.vreg 3 ";
    size_t at = text.find(from.str());
    ASSERT_NE(at, std::string::npos);
    text.replace(at, from.size(), to.str());
    auto a = allocate(text);
    ASSERT_TRUE(a->module) << "seed " << seed;
    if (!a->passOk)
      continue;
    spreadVGPRs(*a->module, shift);
    if (vgprPeak(*a->module) > 256)
      continue;
    ASSERT_TRUE(succeeded(verify(*a->module))) << "seed " << seed;
    std::vector<std::string> errors = check(*a->module, nullptr);
    ASSERT_TRUE(errors.empty()) << "seed " << seed << " (spread)\n"
                                << join(errors) << text;
    Compacted c = compactAndCheck(a->t.ctx, *a->module);
    ASSERT_TRUE(c.passOk && c.verifies) << "seed " << seed;
    ASSERT_TRUE(c.errors.empty())
        << "seed " << seed << " shift " << shift << " after compaction\n"
        << join(c.errors) << text;
    stats.widths.insert((c.before + 63) / 64);
    // A spread program has a `shift`-register hole to close.
    if (c.before > shift + 16) {
      EXPECT_LT(c.after, c.before) << "seed " << seed << " shift " << shift;
      stats.compacted += c.after < c.before;
      ++stats.spread;
      stats.gained += c.before - c.after;
    }
  }
}

unsigned fuzzSeeds(unsigned byDefault) {
  if (const char *n = getenv("LINEARSCAN_FUZZ_SEEDS"))
    return std::max(1, atoi(n));
  return byDefault;
}

// Compaction where it has something to do: programs spread apart by 32
// registers.
TEST(LinearScan, RandomProgramsCompactCorrectly) {
  unsigned seeds = fuzzSeeds(300);
  SpreadStats stats;
  compactSpreadPrograms(32, seeds, stats);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_GT(stats.spread, seeds / 2);
  EXPECT_EQ(stats.compacted, stats.spread);
  if (getenv("LINEARSCAN_FUZZ_VERBOSE"))
    llvm::errs() << "compaction: " << stats.compacted << " of " << stats.spread
                 << " spread programs lowered, " << stats.gained
                 << " VGPRs in all\n";
}

// Compaction's occupancy masks are one to four 64-bit words up to v255, each
// width its own compiled form: the same programs spread so far apart that
// their peaks need two, three and four words (a conflict the occupancy tree
// missed would put two live values in one register).
TEST(LinearScan, RandomProgramsCompactCorrectlyAtEveryMaskWidth) {
  unsigned seeds = fuzzSeeds(100);
  std::set<int64_t> widths;
  for (int64_t shift : {70, 120, 190}) {
    SpreadStats stats;
    compactSpreadPrograms(shift, seeds, stats);
    ASSERT_FALSE(HasFatalFailure());
    EXPECT_GT(stats.spread, seeds / 2) << "shift " << shift;
    EXPECT_EQ(stats.compacted, stats.spread) << "shift " << shift;
    widths.insert(stats.widths.begin(), stats.widths.end());
  }
  EXPECT_TRUE(widths.count(2) && widths.count(3) && widths.count(4));
}

// Few registers: tight reuse, and the overflow path on the programs that
// do not fit (it must diagnose, never crash or emit a wrong allocation).
TEST(LinearScan, RandomProgramsUnderPressure) {
  WaveASMLinearScanOptions options;
  options.maxVGPRs = 64;
  options.maxSGPRs = 24;
  options.maxAGPRs = 16;
  unsigned allocated = 0, failed = 0;
  unsigned seeds = 200;
  if (const char *n = getenv("LINEARSCAN_FUZZ_SEEDS"))
    seeds = std::max(1, atoi(n));
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    std::string text = Generator(seed).program();
    auto a = allocate(text, options);
    ASSERT_TRUE(a->module) << "seed " << seed;
    if (!a->passOk) {
      ASSERT_NE(a->t.diagnostics.find("Failed to allocate"), std::string::npos)
          << "seed " << seed << "\n"
          << a->t.diagnostics;
      ++failed;
      continue;
    }
    ASSERT_TRUE(succeeded(verify(*a->module)));
    std::vector<std::string> errors = check(*a->module, nullptr);
    ASSERT_TRUE(errors.empty()) << "seed " << seed << "\n"
                                << join(errors) << text;
    ++allocated;
    Compacted c = compactAndCheck(a->t.ctx, *a->module);
    ASSERT_TRUE(c.passOk && c.verifies) << "seed " << seed;
    ASSERT_TRUE(c.errors.empty()) << "seed " << seed << " after compaction\n"
                                  << join(c.errors) << text;
    ASSERT_LE(c.after, c.before) << "seed " << seed;
  }
  EXPECT_GT(allocated, seeds / 10);
  EXPECT_GT(failed, seeds / 10);
}

TEST(LinearScan, RandomProgramsAtTheirFewestVGPRs) {
  // At the fewest VGPRs a program allocates in, the scan lends tie groups'
  // gaps (a loop-carried value's between its last read and the next
  // value's definition, LifetimeHoles.h) wherever the envelopes alone do
  // not fit: every such allocation must still compute what the program
  // does, before and after compaction.
  unsigned seeds = 120;
  if (const char *n = getenv("LINEARSCAN_FUZZ_SEEDS"))
    seeds = std::max(1, atoi(n));
  unsigned checked = 0;
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    std::string text = Generator(seed).program();
    WaveASMLinearScanOptions options;
    options.maxVGPRs = 256;
    if (!allocate(text, options)->passOk)
      continue;
    int64_t low = 16, high = 256; // allocates in `high`
    while (low < high) {
      options.maxVGPRs = (low + high) / 2;
      if (allocate(text, options)->passOk)
        high = options.maxVGPRs;
      else
        low = options.maxVGPRs + 1;
    }
    options.maxVGPRs = high;
    auto a = allocate(text, options);
    ASSERT_TRUE(a->passOk) << "seed " << seed;
    ASSERT_TRUE(succeeded(verify(*a->module)));
    std::vector<std::string> errors = check(*a->module, nullptr);
    ASSERT_TRUE(errors.empty())
        << "seed " << seed << " at " << high << " VGPRs\n"
        << join(errors) << text;
    Compacted c = compactAndCheck(a->t.ctx, *a->module);
    ASSERT_TRUE(c.passOk && c.verifies) << "seed " << seed;
    ASSERT_TRUE(c.errors.empty()) << "seed " << seed << " after compaction\n"
                                  << join(c.errors) << text;
    ++checked;
  }
  EXPECT_GT(checked, seeds / 2);
}

} // namespace
