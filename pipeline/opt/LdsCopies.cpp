//===- LdsCopies.cpp - rotating LDS copies for a pipelined loop -----------===//

#include "pipeline/opt/LdsCopies.h"
#include "analysis/LdsBuffers.h"
#include "analysis/MemoryAlias.h"
#include "ir/TargetInfo.h"
#include "pipeline/opt/LoopRewrite.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// Copies start on a 128-byte boundary (32 banks x 4 bytes): each lane's
/// bank in a copy is its bank in the original, so copies add no bank
/// conflicts (the LDS planner's alignment for the same reason).
constexpr int64_t kCopyAlignment = 128;

std::string where(Operation *op) {
  std::string text = "'" + op->getName().getStringRef().str() + "'";
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    text += llvm::formatv(" at {0}:{1}", loc.getLine(), loc.getColumn());
  return text;
}

bool accessesLds(Operation *op) {
  return !isa<S_BARRIER>(op) && ((memReads(op) | memWrites(op)) & MemLDS);
}

} // namespace

LdsCopyPlan waveasm::planLdsCopies(LoopOp loop, int copies) {
  LdsCopyPlan plan;
  plan.copies = copies;
  auto program = loop->getParentOfType<ProgramOp>();
  LdsBufferInfo info = collectLdsBuffers(program);
  if (!info.complete()) {
    plan.failure = "the LDS address of " + where(info.unknownAccess) +
                   " cannot be bounded, so no copy can be placed";
    return plan;
  }
  int64_t programEnd = 0, loopEnd = 0;
  std::string names;
  for (const LdsBuffer &buffer : info.buffers) {
    programEnd = std::max(programEnd, buffer.end);
    Operation *inside = nullptr, *outside = nullptr;
    for (unsigned a : buffer.accesses) {
      Operation *op = info.accesses[a].op;
      (loop->isAncestor(op) ? inside : outside) = op;
    }
    if (!inside)
      continue;
    if (outside) {
      plan.failure = llvm::formatv("LDS bytes [{0}, {1}) are also accessed "
                                   "outside the loop by {2}",
                                   buffer.begin, buffer.end, where(outside));
      return plan;
    }
    loopEnd = std::max(loopEnd, buffer.end);
    names += llvm::formatv("{0}[{1}, {2})", names.empty() ? "" : ", ",
                           buffer.begin, buffer.end);
  }
  plan.stride = llvm::alignTo(programEnd, kCopyAlignment);
  int64_t needed = (copies - 1) * plan.stride + loopEnd;
  int64_t declared = program.getLdsSize().value_or(0);
  plan.ldsBytes = std::max<int64_t>(declared, needed);
  const TargetInfo &target = getTargetInfo(program.getTargetKind());
  if (needed > target.maxLDSBytes) {
    plan.outOfMemory = true;
    plan.failure = llvm::formatv(
        "{0} LDS copies of {1} (every {2} bytes) need {3} bytes, {4} bytes "
        "over the {5} bytes of {6}",
        copies, names, plan.stride, needed, needed - target.maxLDSBytes,
        target.maxLDSBytes, target.name);
  }
  return plan;
}

LoopOp waveasm::applyLdsCopies(LoopOp loop, const LdsCopyPlan &plan,
                               SmallVectorImpl<Operation *> &newOps) {
  MLIRContext *ctx = loop.getContext();
  Location loc = loop.getLoc();
  Block &body = loop.getBodyBlock();
  Type sgpr = SRegType::get(ctx, 1, 1), vgpr = VRegType::get(ctx, 1, 1);
  Type scc = SCCType::get(ctx);
  auto imm = [&](OpBuilder &b, int64_t v) -> Value {
    return ConstantOp::create(b, loc, ImmType::get(ctx, v), v);
  };

  OpBuilder before(loop);
  Value zero = imm(before, 0), stride = imm(before, plan.stride);
  Value total =
      plan.copies > 2 ? imm(before, plan.copies * plan.stride) : Value();
  Value init = S_MOV_B32::create(before, loc, sgpr, zero);
  BlockArgument base = body.addArgument(sgpr, loc);

  // The next iteration's base, first in the body: nothing before it has an
  // SCC value live (SCC is never an iter_arg).
  OpBuilder start = OpBuilder::atBlockBegin(&body);
  Value next;
  if (plan.copies == 2) {
    auto flip = S_XOR_B32::create(start, loc, sgpr, scc, base, stride);
    newOps.push_back(flip);
    next = flip.getDst();
  } else {
    auto add = S_ADD_U32::create(start, loc, sgpr, scc, base, stride);
    auto wrap = S_CMP_GE_U32::create(start, loc, scc, add.getDst(), total);
    auto sel =
        S_CSELECT_B32::create(start, loc, sgpr, wrap, zero, add.getDst());
    newOps.append({add, wrap, sel});
    next = sel;
  }
  auto cond = cast<ConditionOp>(body.getTerminator());
  cond.getIterArgsMutable().append(next);

  // Every LDS address of the body moves to its iteration's copy.
  DenseMap<Value, Value> rebased;
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    if (!accessesLds(&op))
      continue;
    unsigned last = op.getNumOperands() - 1;
    Value address = op.getOperand(last);
    Value &moved = rebased[address];
    if (!moved) {
      OpBuilder b(&op);
      auto add = V_ADD_U32::create(b, loc, vgpr, base, address);
      newOps.push_back(add);
      moved = add;
    }
    op.setOperand(last, moved);
  }

  SmallVector<Value> inits(loop.getInitArgs());
  inits.push_back(init);
  auto program = loop->getParentOfType<ProgramOp>();
  LoopOp replaced = replaceLoopKeepingResults(loop, inits);
  if (program.getLdsSize().value_or(0) < uint64_t(plan.ldsBytes))
    program.setLdsSize(plan.ldsBytes);
  return replaced;
}
