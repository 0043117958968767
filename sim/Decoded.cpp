//===- Decoded.cpp - a program decoded once for execution -----------------===//

#include "sim/Decoded.h"

#include "analysis/HazardRules.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;

namespace {

/// The kind of the ops the interpreter runs itself; nullopt for the op
/// families (ALU, MFMA, memory), in the order the interpreter tried them.
OpKind kindOf(Operation *op) {
  if (isa<LoopOp>(op))
    return OpKind::Loop;
  if (isa<IfOp>(op))
    return OpKind::If;
  if (isa<S_WAITCNT>(op))
    return OpKind::Wait;
  if (isa<S_WAITCNT_VMCNT>(op))
    return OpKind::WaitVM;
  if (isa<S_WAITCNT_LGKMCNT>(op))
    return OpKind::WaitLGKM;
  if (isa<ConditionOp, YieldOp, ConstantOp, DCEProtectOp, CommentOp, LabelOp,
          S_WAITCNT_EXPCNT, S_NOP, S_SETPRIO, S_SCHED_BARRIER>(op))
    return OpKind::Nothing;
  if (isa<PrecoloredVRegOp>(op))
    return OpKind::PrecoloredV;
  if (isa<PrecoloredSRegOp>(op))
    return OpKind::PrecoloredS;
  if (isa<PrecoloredARegOp>(op))
    return OpKind::PrecoloredA;
  if (isa<PackOp>(op))
    return OpKind::Pack;
  if (isa<ExtractOp>(op))
    return OpKind::Extract;
  if (isa<InsertOp>(op))
    return OpKind::Insert;
  if (isa<S_ENDPGM>(op))
    return OpKind::EndPgm;
  if (isa<S_BARRIER>(op))
    return OpKind::Barrier;
  if (isa<S_MOV_B32_M0>(op))
    return OpKind::MovM0;
  return OpKind::NotSimulated;
}

} // namespace

void waveasm::sim::decodeKind(DecodedOp &d) {
  d.kind = kindOf(d.op);
  if (d.kind != OpKind::NotSimulated)
    return;
  // The families in the interpreter's order; an ALU op it may decline at
  // run time falls back to the next family that claims it.
  DecodedOp rest = d;
  if (decodeMFMA(rest) || decodeMemory(rest))
    d.fallback = rest.kind;
  if (decodeALU(d))
    return;
  d = rest;
}

bool waveasm::sim::isSimulated(const DecodedOp &d) {
  // An SALU mnemonic salu() does not know is whatever the next family
  // makes of it.
  OpKind kind = d.kind == OpKind::ALU && ALUForm(d.form) == ALUForm::SALUUnknown
                    ? d.fallback
                    : d.kind;
  return kind != OpKind::NotSimulated;
}

namespace {
void decodeOp(DecodedOp &d, const TargetModel &model) {
  d.facts = lookupInstFacts(d.op);
  d.clockWidth = getHazardClockWidth(d.op, d.facts);
  if (d.facts.unit == ExecUnit::MFMA)
    d.mfmaReadWaitStates = model.getMFMAReadWaitStates(d.op);
  decodeKind(d);
}
} // namespace

DecodedProgram::DecodedProgram(ProgramOp program)
    : program(program), model(&TargetModel::get(program.getTargetKind())) {
  entry = decodeBlock(program.getBodyBlock());
}

uint32_t DecodedProgram::decodeBlock(Block &block) {
  uint32_t first = kNoOp, last = kNoOp;
  for (Operation &op : block) {
    uint32_t index = ops.size();
    ops.emplace_back();
    ops[index].op = &op;
    decodeOp(ops[index], *model);
    loadsToLDS |= ops[index].kind == OpKind::Memory &&
                  ops[index].form == uint8_t(MemoryForm::LoadToLDS);
    if (last != kNoOp)
      ops[last].next = index;
    else
      first = index;
    last = index;
    // Regions after their op (ops grows: no references across these).
    if (auto loop = dyn_cast<LoopOp>(op)) {
      uint32_t body = decodeBlock(loop.getBodyBlock());
      ops[index].body = body;
    } else if (auto ifOp = dyn_cast<IfOp>(op)) {
      uint32_t then = ifOp.getThenRegion().empty()
                          ? kNoOp
                          : decodeBlock(ifOp.getThenRegion().front());
      uint32_t otherwise = ifOp.getElseRegion().empty()
                               ? kNoOp
                               : decodeBlock(ifOp.getElseRegion().front());
      ops[index].body = then;
      ops[index].elseBody = otherwise;
    }
  }
  return first;
}
