//===- AsmInstructionPrinter.cpp - one machine op -> assembly lines -------===//
//
// Every instruction op of the dialect either prints valid GFX9 (gfx942 /
// gfx950) assembly -- checked against llvm-mc -- or reports why it cannot.
// Operand legalization follows the hardware rules rather than upstream's
// shortcuts:
//   * inline constants are the integers -16..64; other immediates are 32-bit
//     literals, allowed only in src0 of a VOP1/VOP2/VOPC (e32) encoding and
//     in SALU ops (one distinct literal per instruction);
//   * a VALU instruction reads at most one SGPR or literal (the constant
//     bus); an implicit VCC read (v_cndmask_b32, v_addc/v_subb) counts;
//   * an operand that does not fit is staged with v_mov_b32 into v15 (which
//     the register allocator reserves) and, for a second one, into the
//     instruction's own destination when no other source reads it.
//     Upstream: stages a second literal in v16, which nothing reserves.
//
//===----------------------------------------------------------------------===//

#include "pipeline/AsmEmitterImpl.h"

#include "ir/InstFacts.h"
#include "ir/OpSignatures.h"
#include "ir/TargetAvailability.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::asmemit;

namespace {

StringRef mnemonicOf(Operation *op) { return op->getName().stripDialect(); }

int64_t intAttrOr(Operation *op, StringRef name, int64_t fallback) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return fallback;
}

/// A 64-bit integer operand takes a 32-bit literal; values where zero and
/// sign extension agree are unambiguous.
bool encodableIn64BitSlot(int64_t value) {
  return isInlineConstant(value) || (value >= 0 && value <= INT32_MAX);
}

//===----------------------------------------------------------------------===//
// VALU operand legalization
//===----------------------------------------------------------------------===//

struct VSrc {
  AsmOperand op;
  int64_t width = 1;
};

struct VOPForm {
  bool e32 = false;       // has a VOP1/VOP2/VOPC encoding
  bool readsVCC = false;  // implicit VCC read, on the constant bus
  bool noLiteral = false; // 16-bit sources: stage literals instead
  std::string swapped;    // mnemonic with src0/src1 exchanged, "" if none
};

bool fitsE32(ArrayRef<VSrc> srcs, const VOPForm &form) {
  if (!form.e32 || srcs.empty())
    return false;
  for (const VSrc &s : srcs)
    if (s.op.neg)
      return false;
  for (const VSrc &s : srcs.drop_front())
    if (!s.op.isVGPR())
      return false;
  const VSrc &s0 = srcs.front();
  if (s0.op.isLiteral() && (form.noLiteral || s0.width > 1))
    return false;
  int bus = (form.readsVCC ? 1 : 0) + (s0.op.isSGPR() || s0.op.isLiteral());
  return bus <= 1;
}

bool fitsE64(ArrayRef<VSrc> srcs, const VOPForm &form) {
  SmallVector<PhysReg, 3> sgprs;
  for (const VSrc &s : srcs) {
    if (s.op.isLiteral())
      return false;
    if (s.op.isSGPR() && !llvm::is_contained(sgprs, s.op.reg))
      sgprs.push_back(s.op.reg);
  }
  return (form.readsVCC ? 1 : 0) + sgprs.size() <= 1;
}

/// Prints `mnemonic head..., srcs..., tail...`, staging sources that no
/// encoding accepts. `dstTemp` is the destination's first register when it
/// may hold a staged value.
LogicalResult emitVOP(ProgramEmitter &e, Operation *op, StringRef mnemonic,
                      const VOPForm &form, ArrayRef<AsmOperand> head,
                      ArrayRef<VSrc> srcsIn, ArrayRef<AsmOperand> tail,
                      std::optional<PhysReg> dstTemp) {
  SmallVector<VSrc, 3> srcs(srcsIn.begin(), srcsIn.end());
  for (auto [i, s] : llvm::enumerate(srcs)) {
    if (s.op.isAGPR())
      return op->emitOpError("source #")
             << i << " of " << mnemonic << " cannot be an AGPR";
    if (!s.op.isImm())
      continue;
    if (s.width > 1 && !isInlineConstant(s.op.imm))
      return op->emitOpError("immediate ")
             << s.op.imm << " is not an inline constant (-16..64); the "
             << "64-bit source #" << i << " of " << mnemonic
             << " cannot take a literal";
    if (!fitsIn32Bits(s.op.imm))
      return op->emitOpError("immediate ")
             << s.op.imm << " does not fit in 32 bits";
  }
  auto fits = [&](ArrayRef<VSrc> c) {
    return fitsE32(c, form) || fitsE64(c, form);
  };

  SmallVector<unsigned, 3> stageable;
  for (auto [i, s] : llvm::enumerate(srcs))
    if (s.width == 1 && !s.op.neg && (s.op.isSGPR() || s.op.isLiteral()))
      stageable.push_back(i);
  SmallVector<PhysReg, 2> temps;
  if (e.scratchAvailable())
    temps.push_back(e.scratch());
  if (dstTemp && dstTemp->cls == RegClass::VGPR &&
      !dstTemp->overlaps(e.scratch()))
    temps.push_back(*dstTemp);

  unsigned n = stageable.size();
  unsigned maxStaged = std::min<unsigned>(n, temps.size());
  for (unsigned k = 0; k <= maxStaged; ++k) {
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
      if (static_cast<unsigned>(llvm::popcount(mask)) != k)
        continue;
      SmallVector<VSrc, 3> cand = srcs;
      SmallVector<std::pair<PhysReg, AsmOperand>, 2> staged;
      SmallVector<bool, 3> isStaged(srcs.size(), false);
      unsigned t = 0;
      for (unsigned j = 0; j < n; ++j) {
        if (!(mask & (1u << j)))
          continue;
        PhysReg temp = temps[t++];
        staged.push_back({temp, srcs[stageable[j]].op});
        cand[stageable[j]].op = AsmOperand::ofReg(temp);
        isStaged[stageable[j]] = true;
      }
      // The destination can hold a staged value only if no other source
      // reads it.
      bool ok = true;
      for (auto &entry : staged) {
        if (!dstTemp || entry.first != *dstTemp)
          continue;
        for (auto [i, s] : llvm::enumerate(cand))
          if (!isStaged[i] && s.op.isReg() && s.op.reg.overlaps(entry.first))
            ok = false;
      }
      if (!ok)
        continue;
      std::string mn = mnemonic.str();
      if (!fits(cand)) {
        if (form.swapped.empty() || cand.size() != 2)
          continue;
        std::swap(cand[0], cand[1]);
        if (!fits(cand))
          continue;
        mn = form.swapped;
      }
      for (auto &[temp, value] : staged) {
        if (value.isImm() && temp == e.scratch()) {
          if (failed(e.stageLiteralInScratch(op, value.imm)))
            return failure();
          continue;
        }
        if (failed(e.emit(op, AsmInst("v_mov_b32").add(temp).add(value))))
          return failure();
      }
      AsmInst inst(mn);
      for (const AsmOperand &h : head)
        inst.add(h);
      for (const VSrc &s : cand)
        inst.add(s.op);
      for (const AsmOperand &tl : tail)
        inst.add(tl);
      return e.emit(op, inst);
    }
  }
  if (!stageable.empty() && !e.scratchAvailable())
    return e.requireScratch(op);
  InFlightDiagnostic diag = op->emitOpError("cannot encode the operands of ")
                            << mnemonic << " on " << e.target.name
                            << ": a VALU instruction reads at most one SGPR "
                               "or literal, and 64-bit sources cannot be "
                               "staged";
  return diag;
}

/// Source and destination widths (registers) of VALU ops.
struct VALUWidths {
  int64_t dst = 1;
  int64_t src[3] = {1, 1, 1};
};

VALUWidths valuWidths(StringRef name) {
  VALUWidths w;
  bool all64 = llvm::StringSwitch<bool>(name)
                   .Cases({"v_add_f64", "v_mul_f64", "v_min_f64", "v_max_f64",
                           "v_fma_f64", "v_sub_f64"},
                          true)
                   .Cases({"v_rcp_f64", "v_rsq_f64", "v_sqrt_f64"}, true)
                   .Cases({"v_mov_b64", "v_not_b64", "v_and_b64", "v_or_b64",
                           "v_xor_b64"},
                          true)
                   .Default(false);
  if (all64) {
    w.dst = 2;
    w.src[0] = w.src[1] = w.src[2] = 2;
  } else if (name == "v_lshlrev_b64" || name == "v_lshrrev_b64" ||
             name == "v_ashrrev_i64") {
    w.dst = 2;
    w.src[1] = 2;
  } else if (name == "v_ldexp_f64") {
    w.dst = 2;
    w.src[0] = 2;
  } else if (name == "v_cvt_f32_f64") {
    w.src[0] = 2;
  } else if (name == "v_cvt_f64_f32") {
    w.dst = 2;
  } else if (name.starts_with("v_cmp_") &&
             (name.ends_with("_i64") || name.ends_with("_u64"))) {
    w.src[0] = w.src[1] = 2;
  }
  return w;
}

VOPForm vopForm(StringRef name, unsigned numSrcs) {
  VOPForm form;
  bool commutativeE32 = llvm::StringSwitch<bool>(name)
                            .Cases({"v_add_u32", "v_add_f32", "v_mul_f32",
                                    "v_add_f16", "v_mul_f16"},
                                   true)
                            .Cases({"v_min_f32", "v_max_f32", "v_min_i32",
                                    "v_max_i32", "v_min_u32", "v_max_u32"},
                                   true)
                            .Cases({"v_and_b32", "v_or_b32", "v_xor_b32"}, true)
                            .Default(false);
  StringRef reversed = llvm::StringSwitch<StringRef>(name)
                           .Case("v_sub_u32", "v_subrev_u32")
                           .Case("v_subrev_u32", "v_sub_u32")
                           .Case("v_sub_f32", "v_subrev_f32")
                           .Case("v_subrev_f32", "v_sub_f32")
                           .Case("v_sub_f16", "v_subrev_f16")
                           .Default("");
  bool otherE32 =
      llvm::StringSwitch<bool>(name)
          .Cases({"v_lshlrev_b32", "v_lshrrev_b32", "v_ashrrev_i32"}, true)
          .Default(false);
  form.e32 = numSrcs == 1 || commutativeE32 || !reversed.empty() || otherE32;
  if (commutativeE32)
    form.swapped = name.str();
  else if (!reversed.empty())
    form.swapped = reversed.str();
  form.noLiteral =
      llvm::StringSwitch<bool>(name)
          .Cases({"v_add_f16", "v_sub_f16", "v_mul_f16", "v_fma_f16"}, true)
          .Cases({"v_cvt_f32_f16", "v_cvt_f32_bf16"}, true)
          .Default(false);
  return form;
}

/// v_cmp_lt_i32 -> v_cmp_gt_i32 (operands exchanged).
std::string reversedCompare(StringRef name) {
  // v_cmp_<pred>_<type>
  StringRef rest = name.drop_front(strlen("v_cmp_"));
  auto [pred, type] = rest.split('_');
  StringRef swapped = llvm::StringSwitch<StringRef>(pred)
                          .Case("lt", "gt")
                          .Case("gt", "lt")
                          .Case("le", "ge")
                          .Case("ge", "le")
                          .Default(pred);
  return ("v_cmp_" + swapped + "_" + type).str();
}

/// Collects the sources of a VALU op with their widths.
LogicalResult collectSources(ProgramEmitter &e, Operation *op,
                             const VALUWidths &w, unsigned count,
                             SmallVectorImpl<VSrc> &srcs) {
  for (unsigned i = 0; i < count; ++i) {
    VSrc s{e.operand(op, i), w.src[i]};
    if (failed(e.fitWidth(op, s.op, s.width, "operand #" + Twine(i))))
      return failure();
    srcs.push_back(s);
  }
  return success();
}

FailureOr<AsmOperand> vectorDst(ProgramEmitter &e, Operation *op,
                                int64_t width) {
  AsmOperand dst = AsmOperand::ofReg(e.resultReg(op, 0));
  if (failed(e.fitWidth(op, dst, width, "result")))
    return failure();
  return dst;
}

AsmOperand vcc() { return AsmOperand::ofText("vcc"); }

LogicalResult emitGenericVOP(ProgramEmitter &e, Operation *op, StringRef name) {
  VALUWidths w = valuWidths(name);
  FailureOr<AsmOperand> dst = vectorDst(e, op, w.dst);
  SmallVector<VSrc, 3> srcs;
  if (failed(dst) ||
      failed(collectSources(e, op, w, op->getNumOperands(), srcs)))
    return failure();
  VOPForm form = vopForm(name, srcs.size());
  return emitVOP(e, op, name, form, {*dst}, srcs, {}, dst->reg.sub(0));
}

/// v_{not,and,or,xor}_b64 do not exist: two 32-bit halves.
LogicalResult emitSplit64(ProgramEmitter &e, Operation *op, StringRef name) {
  std::string half = (name.drop_back(2) + "32").str(); // v_and_b64 -> b32
  VALUWidths w = valuWidths(name);
  FailureOr<AsmOperand> dst = vectorDst(e, op, 2);
  SmallVector<VSrc, 3> srcs;
  if (failed(dst) ||
      failed(collectSources(e, op, w, op->getNumOperands(), srcs)))
    return failure();
  // Writing the low half first must not destroy a high source half.
  bool lowClobbers = false, highClobbers = false;
  for (const VSrc &s : srcs) {
    if (!s.op.isReg())
      continue;
    lowClobbers |= dst->reg.sub(0).overlaps(s.op.reg.sub(1));
    highClobbers |= dst->reg.sub(1).overlaps(s.op.reg.sub(0));
  }
  if (lowClobbers && highClobbers)
    return op->emitOpError("destination and source register pairs overlap "
                           "crosswise; the 32-bit halves cannot be ordered");
  VOPForm form = vopForm(half, srcs.size());
  static const int64_t lowFirst[] = {0, 1}, highFirst[] = {1, 0};
  for (int64_t h : lowClobbers ? highFirst : lowFirst) {
    SmallVector<VSrc, 2> halves;
    for (const VSrc &s : srcs) {
      VSrc part{s.op, 1};
      if (s.op.isReg())
        part.op.reg = s.op.reg.sub(h);
      else
        part.op.imm =
            static_cast<int32_t>(static_cast<uint64_t>(s.op.imm) >> (32 * h));
      halves.push_back(part);
    }
    PhysReg d = dst->reg.sub(h);
    if (failed(
            emitVOP(e, op, half, form, {AsmOperand::ofReg(d)}, halves, {}, d)))
      return failure();
  }
  return success();
}

LogicalResult emitVMov(ProgramEmitter &e, V_MOV_B32 op) {
  PhysReg dst = e.resultReg(op, 0);
  AsmOperand src = e.operand(op, 0);
  if (src.isReg() && src.reg.size != dst.size) {
    if (dst.size != 1 && src.reg.size != 1)
      return op.emitOpError("copies ")
             << src.reg.size << " registers into " << dst.size;
    src.reg.size = 1; // broadcast, or the low register of a wider source
  }
  if (src.isImm() && !fitsIn32Bits(src.imm))
    return op.emitOpError("immediate ")
           << src.imm << " does not fit in 32 bits";
  // Upstream: a multi-register v_mov_b32 repeats the source per register and
  // never orders overlapping copies; an AGPR destination becomes
  // v_accvgpr_write_b32.
  SmallVector<CopyMove, 16> moves;
  for (int64_t i = 0; i < dst.size; ++i) {
    AsmOperand s = src;
    if (src.isReg() && src.reg.size == dst.size)
      s.reg = src.reg.sub(i);
    moves.push_back({dst.sub(i), s});
  }
  return e.emitParallelCopy(op, moves);
}

LogicalResult emitVMov64(ProgramEmitter &e, V_MOV_B64 op) {
  FailureOr<AsmOperand> dst = vectorDst(e, op, 2);
  if (failed(dst))
    return failure();
  AsmOperand src = e.operand(op, 0);
  if (src.isImm() && !isInlineConstant(src.imm)) {
    // A 64-bit literal does not exist: move the halves.
    SmallVector<CopyMove, 2> moves;
    for (int64_t h = 0; h < 2; ++h)
      moves.push_back(
          {dst->reg.sub(h), AsmOperand::ofImm(static_cast<int32_t>(
                                static_cast<uint64_t>(src.imm) >> (32 * h)))});
    return e.emitParallelCopy(op, moves);
  }
  if (failed(e.fitWidth(op, src, 2, "operand #0")))
    return failure();
  return e.emit(op, AsmInst("v_mov_b64").add(*dst).add(src));
}

LogicalResult emitVALU(ProgramEmitter &e, Operation *op, StringRef name) {
  bool gfx950 = e.targetKind == TargetKind::gfx950;
  if (auto mov = dyn_cast<V_MOV_B32>(op))
    return emitVMov(e, mov);
  if (auto mov = dyn_cast<V_MOV_B64>(op))
    return emitVMov64(e, mov);

  if (name.starts_with("v_cmp_")) {
    VALUWidths w = valuWidths(name);
    SmallVector<VSrc, 2> srcs;
    if (failed(collectSources(e, op, w, 2, srcs)))
      return failure();
    VOPForm form;
    form.e32 = true;
    form.swapped = reversedCompare(name);
    // There is no v_cmp_ne_f32: `!=` (true when unordered, the negation of
    // eq) is v_cmp_neq_f32; v_cmp_lg_f32 would be false for NaN.
    // Upstream: prints v_cmp_ne_f32 (rejected by the assembler) and uses
    // `_e64` for the 64-bit compares; the assembler picks the encoding.
    StringRef mn = name == "v_cmp_ne_f32" ? StringRef("v_cmp_neq_f32") : name;
    return emitVOP(e, op, mn, form, {vcc()}, srcs, {}, std::nullopt);
  }

  if (isa<V_ADD_CO_U32, V_SUB_CO_U32, V_ADDC_CO_U32, V_SUBB_CO_U32,
          V_CNDMASK_B32>(op)) {
    // The carry result models VCC; the hardware writes VCC whatever register
    // the allocator gave that value.
    FailureOr<AsmOperand> dst = vectorDst(e, op, 1);
    SmallVector<VSrc, 2> srcs;
    if (failed(dst) || failed(collectSources(e, op, VALUWidths(), 2, srcs)))
      return failure();
    VOPForm form;
    form.e32 = true;
    form.readsVCC = isa<V_ADDC_CO_U32, V_SUBB_CO_U32, V_CNDMASK_B32>(op);
    form.swapped = llvm::StringSwitch<std::string>(name)
                       .Case("v_add_co_u32", "v_add_co_u32")
                       .Case("v_addc_co_u32", "v_addc_co_u32")
                       .Case("v_sub_co_u32", "v_subrev_co_u32")
                       .Case("v_subb_co_u32", "v_subbrev_co_u32")
                       .Default("");
    SmallVector<AsmOperand, 2> head = {*dst};
    if (!isa<V_CNDMASK_B32>(op))
      head.push_back(vcc());
    SmallVector<AsmOperand, 1> tail;
    if (form.readsVCC)
      tail.push_back(vcc());
    // v_cndmask_b32's third operand only orders it after the compare.
    return emitVOP(e, op, name, form, head, srcs, tail, dst->reg);
  }

  if (auto read = dyn_cast<V_READFIRSTLANE_B32>(op)) {
    AsmOperand dst = AsmOperand::ofReg(e.resultReg(op, 0));
    AsmOperand src = e.operand(op, 0);
    if (failed(e.fitWidth(op, dst, 1, "result")) ||
        failed(e.fitWidth(op, src, 1, "operand #0")))
      return failure();
    return e.emit(op, AsmInst("v_readfirstlane_b32").add(dst).add(src));
  }
  if (isa<V_READLANE_B32>(op)) {
    AsmOperand dst = AsmOperand::ofReg(e.resultReg(op, 0));
    AsmOperand src = e.operand(op, 0), lane = e.operand(op, 1);
    if (failed(e.fitWidth(op, dst, 1, "result")) ||
        failed(e.fitWidth(op, src, 1, "operand #0")) ||
        failed(e.fitWidth(op, lane, 1, "lane")))
      return failure();
    if (lane.isLiteral())
      return op->emitOpError("lane select ")
             << lane.imm << " must be an SGPR or an inline constant (0..63)";
    return e.emit(op, AsmInst("v_readlane_b32").add(dst).add(src).add(lane));
  }
  if (isa<V_WRITELANE_B32>(op)) {
    PhysReg dst = e.resultReg(op, 0);
    AsmOperand src = e.operand(op, 0), lane = e.operand(op, 1);
    AsmOperand previous = e.operand(op, 2);
    AsmOperand dstOp = AsmOperand::ofReg(dst);
    if (failed(e.fitWidth(op, dstOp, 1, "result")) ||
        failed(e.fitWidth(op, src, 1, "operand #0")) ||
        failed(e.fitWidth(op, lane, 1, "lane")) ||
        failed(e.fitWidth(op, previous, 1, "operand #2")))
      return failure();
    if (src.isLiteral() || lane.isLiteral())
      return op->emitOpError("source and lane select of v_writelane_b32 must "
                             "be SGPRs or inline constants");
    if (src.isSGPR() && lane.isSGPR() && src.reg != lane.reg)
      return op->emitOpError("v_writelane_b32 reads two different SGPRs; "
                             "the constant bus allows one");
    // The instruction updates one lane of its destination in place; the
    // other lanes come from the previous value.
    if (previous.reg != dstOp.reg &&
        failed(e.emit(op, AsmInst("v_mov_b32").add(dstOp).add(previous))))
      return failure();
    return e.emit(op, AsmInst("v_writelane_b32").add(dstOp).add(src).add(lane));
  }
  if (isa<V_ACCVGPR_READ_B32>(op)) {
    AsmOperand dst = AsmOperand::ofReg(e.resultReg(op, 0));
    AsmOperand src = e.operand(op, 0);
    if (failed(e.fitWidth(op, dst, 1, "result")) ||
        failed(e.fitWidth(op, src, 1, "operand #0")))
      return failure();
    return e.emit(op, AsmInst("v_accvgpr_read_b32").add(dst).add(src));
  }
  if (isa<V_ACCVGPR_WRITE_B32>(op)) {
    // Upstream: prints the IR operand order `vSRC, aDST`; the destination
    // AGPR comes first in assembly.
    AsmOperand src = e.operand(op, 0), dst = e.operand(op, 1);
    if (failed(e.fitWidth(op, src, 1, "operand #0")) ||
        failed(e.fitWidth(op, dst, 1, "operand #1")))
      return failure();
    return e.emit(op, AsmInst("v_accvgpr_write_b32").add(dst).add(src));
  }

  // Ops without a GFX9 instruction of that name.
  if (isa<V_NOT_B64, V_AND_B64, V_OR_B64, V_XOR_B64>(op))
    return emitSplit64(e, op, name);
  if (isa<V_SUB_F64>(op)) {
    FailureOr<AsmOperand> dst = vectorDst(e, op, 2);
    SmallVector<VSrc, 2> srcs;
    if (failed(dst) || failed(collectSources(e, op, valuWidths(name), 2, srcs)))
      return failure();
    srcs[1].op.neg = true; // a - b = a + (-b)
    return emitVOP(e, op, "v_add_f64", VOPForm(), {*dst}, srcs, {},
                   std::nullopt);
  }
  if (isa<V_ABS_F32>(op)) {
    FailureOr<AsmOperand> dst = vectorDst(e, op, 1);
    AsmOperand src = e.operand(op, 0);
    if (failed(dst) || failed(e.fitWidth(op, src, 1, "operand #0")))
      return failure();
    if (src.isImm())
      return e.emit(op, AsmInst("v_mov_b32")
                            .add(*dst)
                            .add(AsmOperand::ofImm(src.imm & 0x7fffffff)));
    SmallVector<VSrc, 2> srcs = {{AsmOperand::ofImm(0x7fffffff), 1}, {src, 1}};
    return emitVOP(e, op, "v_and_b32", vopForm("v_and_b32", 2), {*dst}, srcs,
                   {}, dst->reg);
  }
  if (isa<V_ABS_I32>(op)) {
    FailureOr<AsmOperand> dst = vectorDst(e, op, 1);
    AsmOperand src = e.operand(op, 0);
    if (failed(dst) || failed(e.fitWidth(op, src, 1, "operand #0")))
      return failure();
    if (src.isImm()) {
      int32_t v = static_cast<int32_t>(src.imm);
      uint32_t magnitude =
          v < 0 ? 0u - static_cast<uint32_t>(v) : static_cast<uint32_t>(v);
      return e.emit(
          op, AsmInst("v_mov_b32")
                  .add(*dst)
                  .add(AsmOperand::ofImm(static_cast<int32_t>(magnitude))));
    }
    // |x| = max(x, 0 - x); the negation goes into the destination unless it
    // is the source, else into v15.
    PhysReg temp = dst->reg;
    if (temp.overlaps(src.reg)) {
      if (failed(e.requireScratch(op)))
        return failure();
      temp = e.scratch();
    }
    if (failed(e.emit(
            op,
            AsmInst("v_sub_u32").add(temp).add(AsmOperand::ofImm(0)).add(src))))
      return failure();
    return e.emit(op, AsmInst("v_max_i32").add(*dst).add(src).add(temp));
  }
  if (isa<V_CVT_BF16_F32>(op)) {
    // gfx950 only (TargetAvailability.h; checked by emitInstruction).
    FailureOr<AsmOperand> dst = vectorDst(e, op, 1);
    SmallVector<VSrc, 2> srcs;
    if (failed(dst) || failed(collectSources(e, op, VALUWidths(), 1, srcs)))
      return failure();
    srcs.push_back({AsmOperand::ofImm(0), 1});
    return emitVOP(e, op, "v_cvt_pk_bf16_f32", VOPForm(), {*dst}, srcs, {},
                   dst->reg);
  }
  if (isa<V_CVT_F32_BF16>(op) && !gfx950) {
    // bf16 is the high half of an f32: shift it into place.
    FailureOr<AsmOperand> dst = vectorDst(e, op, 1);
    SmallVector<VSrc, 2> srcs = {{AsmOperand::ofImm(16), 1}};
    if (failed(dst) || failed(collectSources(e, op, VALUWidths(), 1, srcs)))
      return failure();
    VOPForm form;
    form.e32 = true;
    return emitVOP(e, op, "v_lshlrev_b32", form, {*dst}, srcs, {}, dst->reg);
  }
  return emitGenericVOP(e, op, name);
}

//===----------------------------------------------------------------------===//
// MFMA
//===----------------------------------------------------------------------===//

struct MFMAInfo {
  StringRef asmName;
  int64_t accRegs = 4;
  int64_t abRegs = 2; // 0: set by cbsz/blgp (scaled)
};

/// The mnemonic, and the widths the op's ODS record gives (OpSignatures).
std::optional<MFMAInfo> getMFMAInfo(StringRef name) {
  const OpSignature *sig = lookupOpSignature(name);
  if (!sig || !sig->mfmaWidth)
    return std::nullopt;
  // Where the assembler's name differs: the multi-block shapes spell out
  // their block count; CDNA3 removed the i8 MFMAs named "" here
  // (emitInstruction rejects them).
  StringRef asmName =
      llvm::StringSwitch<StringRef>(name)
          .Case("v_mfma_f32_16x16x4_f16", "v_mfma_f32_16x16x4_4b_f16")
          .Case("v_mfma_f32_32x32x4_f16", "v_mfma_f32_32x32x4_2b_f16")
          .Case("v_mfma_f32_4x4x4_f16", "v_mfma_f32_4x4x4_16b_f16")
          .Case("v_mfma_f32_16x16x4_bf16", "v_mfma_f32_16x16x4_4b_bf16")
          .Case("v_mfma_f32_32x32x4_bf16", "v_mfma_f32_32x32x4_2b_bf16")
          .Case("v_mfma_f32_4x4x4_bf16", "v_mfma_f32_4x4x4_16b_bf16")
          .Case("v_mfma_i32_16x16x16_i8", "")
          .Case("v_mfma_i32_32x32x8_i8", "")
          .Case("v_mfma_i32_16x16x4_i8", "v_mfma_i32_16x16x4_4b_i8")
          .Case("v_mfma_i32_32x32x4_i8", "v_mfma_i32_32x32x4_2b_i8")
          .Case("v_mfma_i32_4x4x4_i8", "v_mfma_i32_4x4x4_16b_i8")
          .Case("v_mfma_f32_4x4x1_f32", "v_mfma_f32_4x4x1_16b_f32")
          .Case("v_mfma_f64_4x4x4_f64", "v_mfma_f64_4x4x4_4b_f64")
          .Default(sig->mnemonic); // `name`'s text, in static storage
  return MFMAInfo{asmName, sig->mfmaWidth, sig->operands()[0].width};
}

/// getMFMAInfo of `op`'s class, worked out once per class and thread (a
/// search of the signature table and a string switch per MFMA were a sixth
/// of its emission). Keyed by the class's TypeID, the same in every
/// context; the info names only static strings.
std::optional<MFMAInfo> getMFMAInfo(Operation *op) {
  std::optional<RegisteredOperationName> registered = op->getRegisteredInfo();
  if (!registered)
    return getMFMAInfo(mnemonicOf(op));
  thread_local llvm::DenseMap<TypeID, std::optional<MFMAInfo>> cache;
  auto [it, inserted] = cache.try_emplace(registered->getTypeID());
  if (inserted)
    it->second = getMFMAInfo(mnemonicOf(op));
  return it->second;
}

/// Registers of an f8f6f4 operand for its cbsz/blgp format code.
int64_t f8f6f4Regs(int64_t format) {
  return format <= 1 ? 8 : format <= 3 ? 6 : 4;
}

LogicalResult emitMFMA(ProgramEmitter &e, Operation *op, StringRef name) {
  std::optional<MFMAInfo> info = getMFMAInfo(op);
  if (!info)
    return op->emitOpError("has no known MFMA encoding");
  bool scaled = op->getNumOperands() == 5;

  AsmOperand dst = AsmOperand::ofReg(e.resultReg(op, 0));
  if (failed(e.fitWidth(op, dst, info->accRegs, "result")))
    return failure();
  if (dst.isSGPR())
    return op->emitOpError("MFMA result must be VGPRs or AGPRs");

  int64_t cbsz = 0, blgp = 0, opSelA = 0, opSelB = 0;
  int64_t aRegs = info->abRegs, bRegs = info->abRegs;
  if (scaled) {
    // Upstream defaults (SPEC.md 3.5): FP4 for both.
    cbsz = intAttrOr(op, "cbsz", 4);
    blgp = intAttrOr(op, "blgp", 4);
    opSelA = intAttrOr(op, "op_sel_a", 0);
    opSelB = intAttrOr(op, "op_sel_b", 0);
    if (cbsz < 0 || cbsz > 4 || blgp < 0 || blgp > 4)
      return op->emitOpError("cbsz and blgp select the f8f6f4 formats 0-4");
    if (opSelA < 0 || opSelA > 3 || opSelB < 0 || opSelB > 3)
      return op->emitOpError("op_sel_a and op_sel_b select a scale byte 0-3");
    aRegs = f8f6f4Regs(cbsz);
    bRegs = f8f6f4Regs(blgp);
  }

  // A, B (and the scales): VGPRs; one 32-bit SGPR or immediate can be
  // staged through v15.
  SmallVector<AsmOperand, 4> srcs;
  int64_t widths[] = {aRegs, bRegs, 1, 1};
  unsigned operandIdx[] = {0, 1, 3, 4};
  bool scratchTaken = false;
  for (unsigned k = 0; k < (scaled ? 4u : 2u); ++k) {
    AsmOperand s = e.operand(op, operandIdx[k]);
    if (failed(
            e.fitWidth(op, s, widths[k], "operand #" + Twine(operandIdx[k]))))
      return failure();
    if (s.isVGPR() || s.isAGPR()) {
      srcs.push_back(s);
      continue;
    }
    if (widths[k] != 1 || scratchTaken)
      return op->emitOpError("operand #")
             << operandIdx[k] << " of " << name << " must be in VGPRs";
    if (s.isImm()) {
      if (failed(e.stageLiteralInScratch(op, s.imm)))
        return failure();
    } else {
      if (failed(e.requireScratch(op)) ||
          failed(e.emit(op, AsmInst("v_mov_b32").add(e.scratch()).add(s))))
        return failure();
    }
    scratchTaken = true;
    srcs.push_back(AsmOperand::ofReg(e.scratch()));
  }

  AsmOperand acc = e.operand(op, 2);
  if (acc.isImm()) {
    if (!isInlineConstant(acc.imm))
      return op->emitOpError("accumulator immediate ")
             << acc.imm << " is not an inline constant (-16..64)";
  } else {
    if (acc.reg.size == 1 && info->accRegs != 1)
      return op->emitOpError("a 1-register accumulator (upstream's broadcast "
                             "placeholder) has no assembly form; use an "
                             "immediate 0 or a full accumulator");
    if (failed(e.fitWidth(op, acc, info->accRegs, "accumulator")))
      return failure();
    if (acc.reg.cls != dst.reg.cls) {
      // The hardware reads C from the destination's register file (the
      // acc_cd bit covers both): copy the accumulator over first.
      for (const AsmOperand &s : srcs)
        if (s.reg.overlaps(dst.reg))
          return op->emitOpError("accumulator is in another register file "
                                 "than the result, and the result overlaps "
                                 "a source");
      SmallVector<CopyMove, 16> moves;
      if (failed(e.addRangeCopy(op, moves, dst.reg, acc.reg)) ||
          failed(e.emitParallelCopy(op, moves)))
        return failure();
      acc = dst;
    }
  }

  AsmInst inst(info->asmName);
  inst.add(dst).add(srcs[0]).add(srcs[1]).add(acc);
  if (scaled) {
    inst.add(srcs[2]).add(srcs[3]);
    llvm::raw_svector_ostream suffix(inst.suffix);
    // op_sel bit 0 and op_sel_hi bit 1 of each scale select its byte.
    if ((opSelA & 1) || (opSelB & 1))
      suffix << " op_sel:[" << (opSelA & 1) << ',' << (opSelB & 1) << ",0]";
    suffix << " op_sel_hi:[" << (opSelA >> 1) << ',' << (opSelB >> 1)
           << ",0] cbsz:" << cbsz << " blgp:" << blgp;
  }
  return e.emit(op, inst);
}

//===----------------------------------------------------------------------===//
// SALU
//===----------------------------------------------------------------------===//

struct SALUWidths {
  int64_t dst = 1;
  int64_t src[2] = {1, 1};
};

SALUWidths saluWidths(StringRef name) {
  SALUWidths w;
  if (!name.ends_with("64"))
    return w;
  if (name.starts_with("s_bcnt") || name.starts_with("s_ff") ||
      name.starts_with("s_flbit")) {
    w.src[0] = 2; // s_bcnt1_i32_b64: 32-bit result
  } else if (name == "s_bfm_b64") {
    w.dst = 2;
  } else if (name.starts_with("s_lshl") || name.starts_with("s_lshr") ||
             name.starts_with("s_ashr") || name.starts_with("s_bfe")) {
    w.dst = 2;
    w.src[0] = 2;
  } else {
    w.dst = 2;
    w.src[0] = w.src[1] = 2;
  }
  return w;
}

LogicalResult emitSALU(ProgramEmitter &e, Operation *op, StringRef name) {
  if (isa<S_MOV_B32_M0>(op)) {
    AsmOperand src = e.operand(op, 0);
    if (failed(e.fitWidth(op, src, 1, "operand #0")))
      return failure();
    if (src.isImm() && !fitsIn32Bits(src.imm))
      return op->emitOpError("immediate ")
             << src.imm << " does not fit in 32 bits";
    return e.emit(op,
                  AsmInst("s_mov_b32").add(AsmOperand::ofText("m0")).add(src));
  }
  if (isa<S_AND_SAVEEXEC_B64>(op)) {
    AsmOperand dst = AsmOperand::ofReg(e.resultReg(op, 0));
    if (failed(e.fitWidth(op, dst, 2, "result")))
      return failure();
    e.invalidateScratch(); // lanes staged under the old EXEC differ
    return e.emit(op, AsmInst("s_and_saveexec_b64").add(dst).add(vcc()));
  }
  if (isa<S_MOV_B64_EXEC>(op)) {
    AsmOperand src = e.operand(op, 0);
    if (failed(e.fitWidth(op, src, 2, "operand #0")))
      return failure();
    e.invalidateScratch();
    return e.emit(
        op, AsmInst("s_mov_b64").add(AsmOperand::ofText("exec")).add(src));
  }

  SALUWidths w = saluWidths(name);
  std::string asmName = name.str();
  // Upstream: renames only the 32-bit compares.
  if (name.starts_with("s_cmp_ne_"))
    asmName = ("s_cmp_lg_" + name.drop_front(strlen("s_cmp_ne_"))).str();

  std::optional<AsmOperand> dst;
  for (OpResult result : op->getResults())
    if (!isa<SCCType>(result.getType())) {
      dst = e.resolve(result);
      if (failed(e.fitWidth(op, *dst, w.dst, "result")))
        return failure();
      break;
    }
  SmallVector<AsmOperand, 2> srcs;
  for (auto [i, value] : llvm::enumerate(op->getOperands())) {
    if (isa<SCCType>(value.getType())) {
      if (failed(e.checkSCCLive(op, value)))
        return failure();
      continue;
    }
    AsmOperand s = e.resolve(value);
    int64_t width = w.src[std::min<size_t>(srcs.size(), 1)];
    if (failed(e.fitWidth(op, s, width, "operand #" + Twine(i))))
      return failure();
    if (s.isImm()) {
      bool ok = width == 1 ? fitsIn32Bits(s.imm) : encodableIn64BitSlot(s.imm);
      if (!ok && name == "s_mov_b64" && dst) {
        // No 64-bit literal: move the halves.
        for (int64_t h = 0; h < 2; ++h)
          if (failed(e.emit(
                  op, AsmInst("s_mov_b32")
                          .add(dst->reg.sub(h))
                          .add(AsmOperand::ofImm(static_cast<int32_t>(
                              static_cast<uint64_t>(s.imm) >> (32 * h)))))))
            return failure();
        return success();
      }
      if (!ok)
        return op->emitOpError("immediate ")
               << s.imm << " cannot be encoded as a "
               << (width == 1 ? "32" : "64") << "-bit operand";
    }
    srcs.push_back(s);
  }

  // One distinct literal per SALU instruction: a second one goes through the
  // destination (only s_cselect_b32 can have two immediates).
  SmallVector<int64_t, 2> literals;
  for (const AsmOperand &s : srcs)
    if (s.isLiteral() && !llvm::is_contained(literals, s.imm))
      literals.push_back(s.imm);
  if (literals.size() > 1) {
    if (!dst || dst->reg.size != 1)
      return op->emitOpError("has two different literals and no 32-bit "
                             "destination to stage one in");
    for (const AsmOperand &s : srcs)
      if (s.isReg() && s.reg.overlaps(dst->reg))
        return op->emitOpError("has two different literals and its "
                               "destination is also a source");
    if (failed(e.emit(op, AsmInst("s_mov_b32")
                              .add(*dst)
                              .add(AsmOperand::ofImm(literals[0])))))
      return failure();
    for (AsmOperand &s : srcs)
      if (s.isImm() && s.imm == literals[0])
        s = *dst;
  }
  AsmInst inst(asmName);
  if (dst)
    inst.add(*dst);
  for (const AsmOperand &s : srcs)
    inst.add(s);
  return e.emit(op, inst);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// The destination range of a load: its results, which must be consecutive.
FailureOr<AsmOperand> loadDst(ProgramEmitter &e, Operation *op, int64_t width) {
  if (op->getNumResults() == 0)
    return op->emitOpError("load has no result");
  PhysReg range = e.resultReg(op, 0);
  for (unsigned i = 1; i < op->getNumResults(); ++i) {
    PhysReg next = e.resultReg(op, i);
    if (next.cls != range.cls || next.index != range.index + range.size)
      return op->emitOpError("results must be consecutive registers");
    range.size += next.size;
  }
  AsmOperand dst = AsmOperand::ofReg(range);
  if (failed(e.fitWidth(op, dst, width, "result")))
    return failure();
  return dst;
}

unsigned dataDwords(Operation *op) {
  // The facts cached per op class (InstFacts.h), not an interface cast.
  InstFacts facts = lookupInstFacts(op);
  return facts.hasInfo ? facts.dataDwords : 1;
}

/// A 32-bit VGPR address made of an optional VGPR, an optional SGPR and a
/// constant, with the constant left in the instruction's offset field when it
/// fits [minOffset, maxOffset]. Anything else is summed into v15.
struct VAddr {
  std::optional<AsmOperand> vgpr; // none: no VGPR address ("off")
  int64_t offset = 0;
};

FailureOr<VAddr> buildVAddr(ProgramEmitter &e, Operation *op,
                            std::optional<AsmOperand> vgpr,
                            std::optional<AsmOperand> sgpr, int64_t constant,
                            int64_t minOffset, int64_t maxOffset,
                            bool allowNoVGPR) {
  bool inRange = constant >= minOffset && constant <= maxOffset;
  if (!sgpr && vgpr && inRange)
    return VAddr{vgpr, constant};
  if (!sgpr && !vgpr && allowNoVGPR && inRange)
    return VAddr{std::nullopt, constant};
  if (!fitsIn32Bits(constant))
    return op->emitOpError("address offset ")
           << constant << " does not fit in 32 bits";
  if (failed(e.requireScratch(op)))
    return failure();
  AsmOperand v15 = AsmOperand::ofReg(e.scratch());
  AsmOperand c = AsmOperand::ofImm(constant);
  if (!sgpr && !vgpr) {
    if (failed(e.stageLiteralInScratch(op, constant)))
      return failure();
    return VAddr{v15, 0};
  }
  if (sgpr && vgpr) {
    if (failed(e.emit(op, AsmInst("v_add_u32").add(v15).add(*sgpr).add(*vgpr))))
      return failure();
  } else if (sgpr) {
    if (failed(e.emit(op, AsmInst("v_mov_b32").add(v15).add(*sgpr))))
      return failure();
  }
  if (sgpr && inRange)
    return VAddr{v15, constant};
  // v15 (or the VGPR) + constant.
  AsmOperand base = sgpr ? v15 : *vgpr;
  if (failed(e.emit(op, AsmInst("v_add_u32").add(v15).add(c).add(base))))
    return failure();
  return VAddr{v15, 0};
}

/// Splits a VMEM address operand into VGPR / SGPR / constant parts.
LogicalResult addressPart(ProgramEmitter &e, Operation *op, unsigned index,
                          std::optional<AsmOperand> &vgpr,
                          std::optional<AsmOperand> &sgpr, int64_t &constant) {
  AsmOperand a = e.operand(op, index);
  if (failed(e.fitWidth(op, a, 1, "operand #" + Twine(index))))
    return failure();
  if (a.isImm())
    constant += a.imm;
  else if (a.isVGPR())
    vgpr = a;
  else if (a.isSGPR())
    sgpr = a;
  else
    return op->emitOpError("operand #") << index << " cannot be an AGPR";
  return success();
}

void printOffset(raw_ostream &os, int64_t offset) {
  if (offset != 0)
    os << " offset:" << offset;
}

/// buffer_* loads, stores, atomics and direct-to-LDS loads. An immediate
/// voffset uses the `off` form, a non-inline soffset is folded into the
/// offset field, and anything beyond 12 bits goes through v15.
/// Upstream: prints buffer_load_sbyte/sshort in IR operand order (not
/// assemblable) and an immediate voffset as a register.
LogicalResult emitBuffer(ProgramEmitter &e, Operation *op, StringRef name) {
  bool toLDS = name.ends_with("_lds");
  bool isLoad = name.starts_with("buffer_load_");
  unsigned srdIdx = toLDS ? 1 : isLoad ? 0 : 1;
  unsigned voffIdx = toLDS ? 0 : isLoad ? 1 : 2;
  AsmOperand srd = e.operand(op, srdIdx);
  if (failed(e.fitWidth(op, srd, 4, "resource descriptor")))
    return failure();

  int64_t constant = intAttrOr(op, "instOffset", 0);
  std::optional<AsmOperand> vgpr, sgpr;
  if (failed(addressPart(e, op, voffIdx, vgpr, sgpr, constant)))
    return failure();
  if (sgpr)
    return op->emitOpError("voffset must be a VGPR or an immediate");
  AsmOperand soffset = AsmOperand::ofImm(0);
  if (isLoad) {
    AsmOperand s = e.operand(op, 2);
    if (failed(e.fitWidth(op, s, 1, "soffset")))
      return failure();
    if (s.isSGPR() || (s.isImm() && isInlineConstant(s.imm)))
      soffset = s;
    else if (s.isImm())
      constant += s.imm; // no literal soffset: fold it into the offset
    else
      return op->emitOpError("soffset must be an SGPR or an immediate");
  }
  FailureOr<VAddr> addr =
      buildVAddr(e, op, vgpr, std::nullopt, constant, 0, 4095, true);
  if (failed(addr))
    return failure();

  AsmInst inst(toLDS ? name.drop_back(strlen("_lds")) : name);
  if (!toLDS) {
    if (isLoad) {
      FailureOr<AsmOperand> dst = loadDst(e, op, dataDwords(op));
      if (failed(dst))
        return failure();
      inst.add(*dst);
    } else {
      AsmOperand data = e.operand(op, 0);
      if (failed(e.fitWidth(op, data, dataDwords(op), "data")))
        return failure();
      inst.add(data);
    }
  }
  inst.add(addr->vgpr ? *addr->vgpr : AsmOperand::ofText("off"));
  inst.add(srd).add(soffset);
  llvm::raw_svector_ostream suffix(inst.suffix);
  if (addr->vgpr)
    suffix << " offen";
  printOffset(suffix, addr->offset);
  if (toLDS)
    suffix << " lds";
  return e.emit(op, inst);
}

/// global_* and flat_* loads and stores. The IR gives an SGPR base, a VGPR
/// offset, a scalar offset and a constant. That is the SADDR form of a
/// FLAT-encoded instruction, which exists only for the global segment, so
/// flat_* ops print as their global_* counterparts (identical for global
/// memory; the wait-count pass counts them on both counters anyway).
/// Upstream: prints the IR operands in order (not assemblable), drops
/// instOffset on global ops and prints byte/short forms wrongly.
LogicalResult emitGlobal(ProgramEmitter &e, Operation *op, StringRef name) {
  bool isLoad = name.contains("_load_");
  std::string asmName = name.str();
  if (name.starts_with("flat_"))
    asmName = ("global_" + name.drop_front(strlen("flat_"))).str();
  unsigned saddrIdx = isLoad ? 0 : 1;
  AsmOperand saddr = e.operand(op, saddrIdx);
  if (failed(e.fitWidth(op, saddr, 2, "address base")))
    return failure();
  int64_t constant = intAttrOr(op, "instOffset", 0);
  std::optional<AsmOperand> vgpr, sgpr;
  if (failed(addressPart(e, op, isLoad ? 1 : 2, vgpr, sgpr, constant)))
    return failure();
  if (isLoad && failed(addressPart(e, op, 2, vgpr, sgpr, constant)))
    return failure();
  FailureOr<VAddr> addr =
      buildVAddr(e, op, vgpr, sgpr, constant, -4096, 4095, false);
  if (failed(addr))
    return failure();
  AsmInst inst(asmName);
  if (isLoad) {
    FailureOr<AsmOperand> dst = loadDst(e, op, dataDwords(op));
    if (failed(dst))
      return failure();
    inst.add(*dst).add(*addr->vgpr).add(saddr);
  } else {
    AsmOperand data = e.operand(op, 0);
    if (failed(e.fitWidth(op, data, dataDwords(op), "data")))
      return failure();
    inst.add(*addr->vgpr).add(data).add(saddr);
  }
  llvm::raw_svector_ostream suffix(inst.suffix);
  printOffset(suffix, addr->offset);
  return e.emit(op, inst);
}

LogicalResult emitSMEM(ProgramEmitter &e, Operation *op, StringRef name) {
  FailureOr<AsmOperand> dst = loadDst(e, op, dataDwords(op));
  AsmOperand base = e.operand(op, 0), offset = e.operand(op, 1);
  if (failed(dst) || failed(e.fitWidth(op, base, 2, "address base")) ||
      failed(e.fitWidth(op, offset, 1, "offset")))
    return failure();
  if (offset.isImm() && (offset.imm < -(1 << 20) || offset.imm >= (1 << 20)))
    return op->emitOpError("offset ")
           << offset.imm << " does not fit the 21-bit signed SMEM offset";
  return e.emit(op, AsmInst(name).add(*dst).add(base).add(offset));
}

/// ds_read*/ds_write*: 16-bit unsigned offset; ds_read2/ds_write2 take two
/// 8-bit element offsets. Upstream: drops the offset of ds_read_i8/i16 and
/// prints ds_read2/ds_write2 in IR order without offsets.
LogicalResult emitLDS(ProgramEmitter &e, Operation *op, StringRef name) {
  bool isRead = name.starts_with("ds_read");
  bool isPair = name.starts_with("ds_read2") || name.starts_with("ds_write2");
  unsigned addrIdx = isRead ? 0 : 1;
  int64_t offset = intAttrOr(op, "offset", 0);
  std::optional<AsmOperand> vgpr, sgpr;
  int64_t constant = 0;
  if (failed(addressPart(e, op, addrIdx, vgpr, sgpr, constant)))
    return failure();

  int64_t elementBytes = name.ends_with("b64") ? 8 : 4;
  int64_t offset0 = 0, offset1 = 1;
  FailureOr<VAddr> addr = failure();
  if (isPair) {
    auto o0 = op->getAttrOfType<IntegerAttr>("offset0");
    auto o1 = op->getAttrOfType<IntegerAttr>("offset1");
    if (o0 || o1) {
      // Explicit element offsets, as in assembly.
      offset0 = o0 ? o0.getInt() : 0;
      offset1 = o1 ? o1.getInt() : 0;
      if (offset0 < 0 || offset0 > 255 || offset1 < 0 || offset1 > 255)
        return op->emitOpError("offset0/offset1 must be in 0..255 elements");
    } else {
      // One byte offset: the two elements are consecutive (like ds_read_b64
      // without its alignment requirement).
      offset0 = offset / elementBytes;
      offset1 = offset0 + 1;
      if (offset % elementBytes != 0 || offset < 0 || offset1 > 255) {
        constant += offset;
        offset0 = 0;
        offset1 = 1;
      }
      offset = 0;
    }
    addr = buildVAddr(e, op, vgpr, sgpr, constant, 0, 0, false);
  } else {
    addr = buildVAddr(e, op, vgpr, sgpr, constant + offset, 0, 65535, false);
  }
  if (failed(addr))
    return failure();

  AsmInst inst(name);
  int64_t dwords = dataDwords(op);
  if (isRead) {
    FailureOr<AsmOperand> dst = loadDst(e, op, dwords);
    if (failed(dst))
      return failure();
    inst.add(*dst).add(*addr->vgpr);
  } else {
    AsmOperand data = e.operand(op, 0);
    if (failed(e.fitWidth(op, data, dwords, "data")))
      return failure();
    inst.add(*addr->vgpr);
    if (isPair) {
      int64_t half = dwords / 2;
      AsmOperand lo = data, hi = data;
      lo.reg = data.reg.sub(0, half);
      hi.reg = data.reg.sub(half, half);
      inst.add(lo).add(hi);
    } else {
      inst.add(data);
    }
  }
  llvm::raw_svector_ostream suffix(inst.suffix);
  if (isPair)
    suffix << " offset0:" << offset0 << " offset1:" << offset1;
  else
    printOffset(suffix, addr->offset);
  return e.emit(op, inst);
}

//===----------------------------------------------------------------------===//
// Synchronization and control
//===----------------------------------------------------------------------===//

LogicalResult checkCount(ProgramEmitter &e, Operation *op, StringRef counter,
                         int64_t value, int64_t max) {
  if (value >= 0 && value <= max)
    return success();
  return op->emitOpError() << counter << "(" << value << ") is outside 0.."
                           << max << " on " << e.target.name;
}

LogicalResult emitSync(ProgramEmitter &e, Operation *op, StringRef name) {
  if (isa<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT, S_WAITCNT_EXPCNT>(
          op)) {
    std::optional<int64_t> vm, lgkm, exp;
    if (isa<S_WAITCNT>(op)) {
      if (auto a = op->getAttrOfType<IntegerAttr>("vmcnt"))
        vm = a.getInt();
      if (auto a = op->getAttrOfType<IntegerAttr>("lgkmcnt"))
        lgkm = a.getInt();
      if (auto a = op->getAttrOfType<IntegerAttr>("expcnt"))
        exp = a.getInt();
      if (!vm && !lgkm && !exp)
        vm = lgkm = exp = 0; // wait for everything
    } else {
      int64_t count = intAttrOr(op, "count", 0);
      // Upstream: drops the count of s_waitcnt_expcnt.
      if (isa<S_WAITCNT_VMCNT>(op))
        vm = count;
      else if (isa<S_WAITCNT_LGKMCNT>(op))
        lgkm = count;
      else
        exp = count;
    }
    if ((vm && failed(checkCount(e, op, "vmcnt", *vm, e.target.maxVmcnt))) ||
        (exp &&
         failed(checkCount(e, op, "expcnt", *exp, e.target.maxExpcnt))) ||
        (lgkm &&
         failed(checkCount(e, op, "lgkmcnt", *lgkm, e.target.maxLgkmcnt))))
      return failure();
    // Fields are space separated; llvm-mc accepts that as well as `&`.
    AsmInst inst("s_waitcnt");
    llvm::raw_svector_ostream s(inst.suffix);
    if (vm)
      s << " vmcnt(" << *vm << ")";
    if (exp)
      s << " expcnt(" << *exp << ")";
    if (lgkm)
      s << " lgkmcnt(" << *lgkm << ")";
    return e.emit(op, inst);
  }
  if (isa<S_NOP>(op)) {
    // s_nop N waits N+1 states and N has 4 bits: longer waits are split.
    int64_t count = intAttrOr(op, "count", 0);
    if (count < 0)
      return op->emitOpError("s_nop count must not be negative");
    int64_t states = count + 1;
    while (states > 0) {
      int64_t chunk = std::min<int64_t>(states, 16);
      if (failed(
              e.emit(op, AsmInst("s_nop").add(AsmOperand::ofImm(chunk - 1)))))
        return failure();
      states -= chunk;
    }
    return success();
  }
  if (isa<S_SETPRIO>(op)) {
    int64_t prio = intAttrOr(op, "count", 0);
    if (prio < 0 || prio > 3)
      return op->emitOpError("s_setprio takes a priority 0..3, got ") << prio;
    return e.emit(op, AsmInst("s_setprio").add(AsmOperand::ofImm(prio)));
  }
  if (isa<S_SCHED_BARRIER>(op)) {
    // A compiler scheduling fence, not a machine instruction (LLVM prints it
    // as a comment too). Upstream: prints `s_sched_barrier`, which llvm-mc
    // rejects, and drops the mask.
    uint32_t mask = static_cast<uint32_t>(intAttrOr(op, "count", 0));
    e.text.line(op) << "  ; sched_barrier mask(" << llvm::format_hex(mask, 10)
                    << ")\n";
    return success();
  }
  if (isa<S_BARRIER, S_ENDPGM>(op))
    return e.emit(op, AsmInst(name));
  if (isa<S_BRANCH, S_CBRANCH_SCC0, S_CBRANCH_SCC1, S_CBRANCH_VCCZ,
          S_CBRANCH_VCCNZ, S_CBRANCH_EXECZ, S_CBRANCH_EXECNZ>(op)) {
    // Upstream: drops the label of the vcc/exec branches.
    auto target = op->getAttrOfType<FlatSymbolRefAttr>("target");
    const std::string *label =
        target ? e.lookupLabel(target.getValue()) : nullptr;
    if (!label)
      return op->emitOpError("branch target @")
             << (target ? target.getValue() : StringRef("?"))
             << " is not a label of this program";
    return e.emit(op, AsmInst(name).add(AsmOperand::ofText(*label)));
  }
  return op->emitOpError("has no assembly form");
}

} // namespace

LogicalResult waveasm::asmemit::emitInstruction(ProgramEmitter &e,
                                                Operation *op) {
  StringRef name = mnemonicOf(op);
  // The interface's facts cached per op class (InstFacts.h): an interface
  // cast per op was a twentieth of the emission.
  InstFacts info = lookupInstFacts(op);
  if (!info.hasInfo)
    return op->emitOpError("has no assembly form");
  // Ops the target lacks, with the replacement the ISA documents: one table
  // shared with the language server's quick fixes and completion.
  std::string unavailable = getUnavailableMessage(name, e.targetKind);
  if (!unavailable.empty())
    return op->emitOpError(unavailable);
  switch (info.unit) {
  case ExecUnit::VALU:
    return emitVALU(e, op, name);
  case ExecUnit::MFMA:
    return emitMFMA(e, op, name);
  case ExecUnit::SALU:
    return emitSALU(e, op, name);
  case ExecUnit::SMEM:
    return emitSMEM(e, op, name);
  case ExecUnit::VMEM:
    if (name.starts_with("buffer_"))
      return emitBuffer(e, op, name);
    return emitGlobal(e, op, name);
  case ExecUnit::LDS:
    return emitLDS(e, op, name);
  case ExecUnit::Sync:
  case ExecUnit::Branch:
    return emitSync(e, op, name);
  case ExecUnit::None:
    break;
  }
  return op->emitOpError("has no assembly form");
}
