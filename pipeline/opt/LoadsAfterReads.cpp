//===- LoadsAfterReads.cpp - direct-to-LDS loads issued after the reads ---===//

#include "pipeline/opt/LoadsAfterReads.h"

#include "analysis/LdsRotation.h"
#include "analysis/LoopStages.h"
#include "analysis/MemoryAlias.h"
#include "pipeline/opt/LoopRewrite.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace waveasm;

bool waveasm::isDirectToLds(Operation *op) {
  return (memWrites(op) & MemLDS) && (memReads(op) & MemGlobal);
}

namespace {

std::string nameOf(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

bool accessesLds(Operation *op) {
  return (memReads(op) | memWrites(op)) & MemLDS;
}

bool readsScc(Operation *op) {
  auto facts = dyn_cast<InstInfoOpInterface>(op);
  return (facts && (facts.getImplicitUses() & ImpSCC)) ||
         llvm::any_of(op->getOperandTypes(),
                      [](Type type) { return isa<SCCType>(type); });
}

/// Why `op`, passed by the moved loads, M0 writes and SALU ops, forbids
/// the move ("" when it does not).
std::string passedFailure(Operation *op) {
  auto facts = dyn_cast<InstInfoOpInterface>(op);
  if (!facts || facts.isPinned() || op->getNumRegions())
    return nameOf(op) + " is between the loads and the barrier after the "
                        "reads and may not be passed";
  if (readsScc(op))
    return nameOf(op) + " reads SCC, which the moved SALU ops write";
  if ((facts.getImplicitUses() | facts.getImplicitDefs()) & (ImpM0 | ImpEXEC))
    return nameOf(op) + " touches M0 or EXEC, which the loads read";
  if (memWrites(op) & MemGlobal)
    return nameOf(op) + " writes global memory, which the loads read";
  return "";
}

} // namespace

Operation *waveasm::findLoadsSinkPoint(
    Block &body, llvm::function_ref<bool(Operation *)> moved,
    llvm::function_ref<bool(Operation *, Operation *)> ldsMayOverlap,
    std::string *why) {
  auto fail = [&](std::string reason) -> Operation * {
    if (why)
      *why = std::move(reason);
    return nullptr;
  };
  Operation *lastLds = nullptr, *first = nullptr;
  for (Operation &op : body.without_terminator()) {
    if (moved(&op)) {
      if (!first)
        first = &op;
      continue;
    }
    if (accessesLds(&op))
      lastLds = &op;
  }
  if (!first)
    return fail("the loop has no direct-to-LDS load");
  if (!lastLds || lastLds->isBeforeInBlock(first))
    return fail("no LDS access follows the loads");
  Operation *sinkTo = lastLds->getNextNode();
  while (sinkTo && !isa<S_BARRIER>(sinkTo))
    sinkTo = sinkTo->getNextNode();
  if (!sinkTo)
    return fail("no s_barrier follows the last LDS access");
  SmallVector<Operation *> movedLds;
  for (Operation *op = first; op != sinkTo; op = op->getNextNode()) {
    if (moved(op)) {
      if (accessesLds(op))
        movedLds.push_back(op);
      continue;
    }
    if (std::string reason = passedFailure(op); !reason.empty())
      return fail(reason);
    if (!accessesLds(op))
      continue;
    for (Operation *load : movedLds)
      if (ldsMayOverlap(load, op))
        return fail(nameOf(op) + " may access the LDS bytes " + nameOf(load) +
                    " writes");
  }
  return sinkTo;
}

LoadsAfterReads waveasm::planLoadsAfterReads(LoopOp loop) {
  LoadsAfterReads plan;
  plan.loop = loop;
  auto fail = [&](std::string why) {
    plan.failure = std::move(why);
    return plan;
  };
  if (isRegisterAllocated(loop))
    return fail("the loop is register-allocated");
  if (hasLoopStages(loop))
    return fail("the loop has stage annotations");
  Block &body = loop.getBodyBlock();
  for (Operation &op : body)
    if (op.getNumRegions())
      return fail("the loop body has nested regions");
  // The loads, the M0 writes, and (last op first, so users come before
  // their operands) the pure ops whose every result only moved ops read.
  llvm::DenseSet<Operation *> moved;
  bool loads = false;
  for (Operation &op : body.without_terminator()) {
    loads |= isDirectToLds(&op);
    if (isDirectToLds(&op) || isa<S_MOV_B32_M0>(op))
      moved.insert(&op);
  }
  // Checked first: most loops have none, and the rotation costs a walk.
  if (!loads)
    return fail("the loop has no direct-to-LDS load");
  for (Operation &op : llvm::reverse(body.without_terminator())) {
    if (moved.contains(&op) || op.getNumResults() == 0)
      continue;
    auto facts = dyn_cast<InstInfoOpInterface>(&op);
    if (!facts || facts.isPinned() || readsMemory(&op) || writesMemory(&op) ||
        ((facts.getImplicitUses() | facts.getImplicitDefs()) &
         (ImpVCC | ImpEXEC | ImpM0)))
      continue;
    // Read, and only by moved ops (an unread op computes no operand).
    if (!op.use_empty() && llvm::all_of(op.getUsers(), [&](Operation *user) {
          return moved.contains(user);
        }))
      moved.insert(&op);
  }
  LdsRotation rotation(loop);
  std::string why;
  plan.before = findLoadsSinkPoint(
      body, [&](Operation *op) { return moved.contains(op); },
      [&](Operation *load, Operation *passed) {
        return rotation.mayOverlap(load, passed, 0);
      },
      &why);
  if (!plan.before)
    return fail(why);
  for (Operation &op : body.without_terminator())
    if (moved.contains(&op) && op.isBeforeInBlock(plan.before))
      plan.moved.push_back(&op);
  return plan;
}

void waveasm::applyLoadsAfterReads(const LoadsAfterReads &plan) {
  for (Operation *op : plan.moved)
    op->moveBefore(plan.before);
}
