//===- LdsDeepening.cpp - an LDS rotation made deeper ---------------------===//

#include "pipeline/opt/LdsDeepening.h"

#include "analysis/ExitCompare.h"
#include "analysis/LdsBuffers.h"
#include "analysis/LdsRotation.h"
#include "analysis/LoopStages.h"
#include "analysis/MemoryAlias.h"
#include "analysis/TripCount.h"
#include "ir/TargetInfo.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/opt/LoadsAfterReads.h"
#include "pipeline/opt/LoopRewrite.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// New buffers start at multiples of this (the LDS planner's alignment,
/// so a buffer keeps its bank phase).
constexpr int64_t kBufferAlignment = 128;

std::optional<int64_t> constantOf(ProgramOp program, Value value) {
  std::optional<LdsAddressRange> range = getLdsAddressRange(program, value);
  if (range && range->bases.size() == 1 && range->lo == range->hi)
    return range->bases.front() + range->lo;
  return std::nullopt;
}

unsigned implicitRegs(Operation *op) {
  auto facts = dyn_cast<InstInfoOpInterface>(op);
  return facts ? facts.getImplicitUses() | facts.getImplicitDefs() : 0;
}

std::string nameOf(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

Operation *bodyDef(Block &body, Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->getBlock() == &body ? def : nullptr;
}

/// Adds to `slice` the body ops `roots` are computed from (not looking
/// through `stop`) and to `args` the body's block arguments they read.
/// Every such op is cloned freely (N - 2 iterations ahead, in the
/// prologue): "" or the op that cannot be.
std::string collectPure(Block &body, ArrayRef<Value> roots, Value stop,
                        llvm::DenseSet<Operation *> &slice,
                        llvm::SetVector<unsigned> &args) {
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (value == stop)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == &body)
        args.insert(arg.getArgNumber());
      continue;
    }
    Operation *op = bodyDef(body, value);
    if (!op || !slice.insert(op).second)
      continue;
    auto facts = dyn_cast<InstInfoOpInterface>(op);
    if (!facts || facts.isPinned() || op->getNumRegions() || readsMemory(op) ||
        writesMemory(op) || (implicitRegs(op) & (ImpVCC | ImpEXEC | ImpM0)))
      return nameOf(op) + " computes an operand of the loads or the loop "
                          "control and cannot be issued ahead";
    work.append(op->operand_begin(), op->operand_end());
  }
  return "";
}

/// Why `start`'s value may reach, through pure ops of the body, anything
/// but `allowed` users or the condition's iter_arg `yieldSlot` (directly
/// or through one s_mov_b32 copy), or "".
std::string checkReach(Value start, ConditionOp cond, int yieldSlot,
                       llvm::function_ref<bool(Operation *, Value)> allowed,
                       llvm::StringRef what) {
  auto isYield = [&](OpOperand &use) {
    return use.getOwner() == cond.getOperation() &&
           int(use.getOperandNumber()) == yieldSlot + 1;
  };
  SmallVector<Value> work{start};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (value == start && isYield(use))
        continue;
      if (value == start && isa<S_MOV_B32>(user) &&
          llvm::all_of(user->getResult(0).getUses(), isYield))
        continue;
      if (user == cond.getOperation())
        return ("the " + what + " is yielded or tested by the loop").str();
      if (allowed(user, value))
        continue;
      if (user->getNumRegions() || readsMemory(user) || writesMemory(user) ||
          user->getBlock() != cond->getBlock())
        return (nameOf(user) + " uses the " + what).str();
      work.append(user->result_begin(), user->result_end());
    }
  }
  return "";
}

/// `buffers` 0: the input's rotation plus `extra` buffers.
LdsDeepening planOne(LoopOp loop, int buffers, int spare, int extra) {
  LdsDeepening plan;
  plan.loop = loop;
  plan.buffers = buffers;
  plan.spare = spare;
  auto fail = [&](std::string why) {
    plan.failure = std::move(why);
    return plan;
  };
  if ((buffers && (buffers < 3 || buffers > kMaxLdsBuffers)) || spare < 0 ||
      spare > 1 || (buffers && buffers - 2 - spare < 1))
    return fail(llvm::formatv("{0} buffers with {1} spare: the loads would "
                              "not run ahead (3 to {2} buffers, at most one "
                              "spare, at least 4 with one)",
                              buffers, spare, kMaxLdsBuffers));
  auto program = dyn_cast_or_null<ProgramOp>(loop->getParentOp());
  if (!program)
    return fail("the loop is nested in another region");
  Block &body = loop.getBodyBlock();
  auto cond = dyn_cast<ConditionOp>(body.getTerminator());
  if (!cond || cond.getIterArgs().size() != body.getNumArguments())
    return fail("the loop has no condition with its iter_args");
  if (isRegisterAllocated(loop))
    return fail("the loop is register-allocated");
  if (hasLoopStages(loop))
    return fail("the loop has stage annotations");
  for (Operation &op : body)
    if (op.getNumRegions())
      return fail("the loop body has nested regions");

  // The loop's LDS traffic: direct-to-LDS loads (written through M0) and
  // reads; M0 written in the body before anything reads it.
  const TargetInfo &target = getTargetInfo(program.getTargetKind());
  SmallVector<Operation *> dma, reads;
  bool m0Written = false;
  for (Operation &op : body.without_terminator()) {
    bool lds = (memReads(&op) | memWrites(&op)) & MemLDS;
    std::optional<LdsAccessAddress> access =
        lds ? getLdsAccessAddress(&op, target.defaultWaveSize) : std::nullopt;
    if (access && access->directToLds) {
      if (!m0Written)
        return fail("M0 is read in the loop before it is written");
      dma.push_back(&op);
      plan.loads.insert(&op);
      continue;
    }
    if (isa<S_MOV_B32_M0>(op)) {
      m0Written = true;
      plan.loads.insert(&op);
      continue;
    }
    if (implicitRegs(&op) & ImpM0)
      return fail(nameOf(&op) + " reads or writes M0");
    // The loads move N-2 iterations earlier: past the body's global stores
    // (a tile stored and loaded back later would be read stale) and its
    // EXEC writes (the prologue's copies would run with another mask).
    if (memWrites(&op) & MemGlobal)
      return fail(nameOf(&op) +
                  " writes global memory, which the loads issued earlier "
                  "would pass");
    if (auto facts = dyn_cast<InstInfoOpInterface>(&op);
        facts && (facts.getImplicitDefs() & ImpEXEC))
      return fail(nameOf(&op) + " writes EXEC");
    if (!lds)
      continue;
    if (memWrites(&op) & MemLDS)
      return fail(nameOf(&op) + " writes LDS: only direct-to-LDS loads may");
    if (!access)
      return fail("the LDS address of " + nameOf(&op) + " is not one value");
    reads.push_back(&op);
  }
  if (dma.empty())
    return fail("the loop has no direct-to-LDS load");
  // A count the IR does not fix is guarded (the original loop when it is
  // below N - 1); a `trip_count` attribute is only a hint.
  TripCount trips = getTripCount(loop);
  plan.guarded = trips.source != TripCountSource::Inferred;
  plan.trips = trips.count;

  // No LDS access or M0 read after the loop: it would see other buffers.
  bool after = false;
  Operation *late = nullptr;
  program->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == loop.getOperation()) {
      after = true;
      return WalkResult::skip();
    }
    if (after && (((memReads(op) | memWrites(op)) & MemLDS) ||
                  (implicitRegs(op) & ImpM0))) {
      late = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (late)
    return fail(nameOf(late) + " after the loop accesses LDS or M0");

  // The rotation: a read base whose yield is the write base, which is a
  // block argument yielding the read base back (swapped) or the read base
  // xor a constant (toggled), or a longer cycle of block arguments each
  // yielding the next (rotated by hand: reads through one, loads through
  // another `distance` arguments on); the one addressing every read and
  // load.
  ValueRange yields = cond.getIterArgs(), inits = loop.getInitArgs();
  auto yieldedArg = [&](unsigned k) -> int {
    Value value = yields[k];
    if (auto mov = value.getDefiningOp<S_MOV_B32>();
        mov && mov->getBlock() == &body)
      value = mov.getSrc();
    auto arg = dyn_cast<BlockArgument>(value);
    return arg && arg.getOwner() == &body ? int(arg.getArgNumber()) : -1;
  };
  LdsRotation rotation(loop);
  int64_t lo = 0, hi = 0;
  bool found = false;
  // The footprint of the reads through `readBase` and the loads through
  // `writeBase` above their bases: [lo, hi), or nullopt.
  auto footprints =
      [&](Value readBase,
          Value writeBase) -> std::optional<std::pair<int64_t, int64_t>> {
    int64_t l = INT64_MAX, h = 0;
    for (auto [ops, base] :
         {std::pair(&reads, readBase), std::pair(&dma, writeBase)})
      for (Operation *op : *ops) {
        auto bytes = rotation.bytesAbove(op, base);
        if (!bytes || bytes->first < 0)
          return std::nullopt;
        l = std::min(l, bytes->first);
        h = std::max(h, bytes->second);
      }
    return std::pair(l, h);
  };
  for (unsigned k = 0; k < body.getNumArguments() && !found; ++k) {
    Value readBase = body.getArgument(k);
    std::optional<int64_t> readInit = constantOf(program, inits[k]);
    if (!readInit || *readInit < 0)
      continue;
    // A cycle of arguments from k, each yielding the next, with constant
    // inits (a swap is the cycle of two).
    SmallVector<unsigned> cycle{k};
    SmallVector<int64_t> cycleInits{*readInit};
    for (int j = yieldedArg(k); j >= 0 && unsigned(j) != k; j = yieldedArg(j)) {
      std::optional<int64_t> init = constantOf(program, inits[j]);
      if (!init || *init < 0 || llvm::is_contained(cycle, unsigned(j)) ||
          cycle.size() >= size_t(kMaxLdsBuffers)) {
        cycle.clear();
        break;
      }
      cycle.push_back(j);
      cycleInits.push_back(*init);
      if (yieldedArg(j) == int(k))
        break;
    }
    if (cycle.size() >= 2 && yieldedArg(cycle.back()) == int(k)) {
      // The loads through one of the other arguments.
      for (unsigned d = 1; d < cycle.size() && !found; ++d) {
        auto bytes = footprints(readBase, body.getArgument(cycle[d]));
        if (!bytes)
          continue;
        found = true;
        plan.readArg = k;
        plan.writeArg = cycle[d];
        plan.writeBase = body.getArgument(cycle[d]);
        plan.cycle = cycle;
        plan.rotation = cycle.size();
        plan.distance = d;
        plan.bases = cycleInits;
        std::tie(lo, hi) = *bytes;
      }
      continue;
    }
    auto x = bodyDef(body, yields[k]);
    if (!x || !isa<S_XOR_B32>(x) || yields[k] != x->getResult(0))
      continue;
    Value other = x->getOperand(0) == readBase   ? x->getOperand(1)
                  : x->getOperand(1) == readBase ? x->getOperand(0)
                                                 : Value();
    std::optional<int64_t> c =
        other ? constantOf(program, other) : std::nullopt;
    if (!c || (*readInit ^ *c) < 0)
      continue;
    auto bytes = footprints(readBase, x->getResult(0));
    if (!bytes)
      continue;
    found = true;
    plan.readArg = k;
    plan.writeArg = -1;
    plan.toggle = x;
    plan.writeBase = x->getResult(0);
    plan.cycle = {k};
    plan.bases = {*readInit, *readInit ^ *c};
    std::tie(lo, hi) = *bytes;
  }
  if (!found)
    return fail("no LDS rotation: the LDS reads and direct-to-LDS loads are "
                "not addressed from constant bases swapped or rotated "
                "through iter_args or toggled with s_xor_b32, plus values "
                "from before the loop");
  for (size_t i = 0; i < plan.bases.size(); ++i)
    for (size_t j = i + 1; j < plan.bases.size(); ++j)
      if (plan.bases[i] + lo < plan.bases[j] + hi &&
          plan.bases[j] + lo < plan.bases[i] + hi)
        return fail(llvm::formatv("the rotation's buffers at {0} and {1} "
                                  "overlap",
                                  plan.bases[i], plan.bases[j]));
  if (!buffers)
    plan.buffers = buffers = plan.rotation + extra;
  plan.loadsAfterReads = buffers >= 4;
  if (buffers <= plan.rotation || buffers > kMaxLdsBuffers ||
      plan.aheadIterations() < 1)
    return fail(llvm::formatv("{0} buffers with {1} spare: the loads would "
                              "not run further ahead than the loop's {2} "
                              "buffers, {3} steps ahead, do (at most {4})",
                              buffers, spare, plan.rotation, plan.distance,
                              kMaxLdsBuffers));
  // Deepened, a step's loads rewrite the buffer read 1 + spare steps
  // earlier; the input rewrites it rotation - distance steps after its
  // reads, and its barriers are placed for that gap. A smaller gap can put
  // the loads before the barrier that orders them after the last reads (a
  // write-after-read race between waves), so it is refused.
  if (1 + spare < plan.rotation - plan.distance)
    return fail(llvm::formatv(
        "{0} buffers with {1} spare: the loads would rewrite a buffer {2} "
        "step(s) after its reads, where the loop's {3} buffers, {4} steps "
        "ahead, leave {5} (its barriers may not order the nearer rewrite)",
        buffers, spare, 1 + spare, plan.rotation, plan.distance,
        plan.rotation - plan.distance));
  int ahead = plan.aheadIterations();
  if (!plan.guarded && trips.count < ahead + 1) {
    plan.fewerMayFit = true;
    return fail(llvm::formatv("trip count {0} is below the {1} iterations "
                              "of {2} buffers",
                              trips.count, ahead + 1, buffers));
  }
  unsigned numArgs = body.getNumArguments();
  for (unsigned k : plan.cycle)
    if (!loop.getResult(k).use_empty())
      return fail("a buffer base is used after the loop");

  // What is issued ahead: the loads' operands and the condition, from
  // loop-control arguments whose updates are pure and closed.
  SmallVector<Value> roots;
  for (Operation &op : body.without_terminator())
    if (plan.loads.contains(&op))
      roots.append(op.operand_begin(), op.operand_end());
  llvm::SetVector<unsigned> args;
  Value stop = plan.toggle ? plan.writeBase : Value();
  if (std::string why = collectPure(body, roots, stop, plan.ahead, args);
      !why.empty())
    return fail(why);
  if (std::string why = collectPure(body, {cond.getCondition()}, Value(),
                                    plan.condition, args);
      !why.empty())
    return fail(why);
  plan.ahead.insert(plan.condition.begin(), plan.condition.end());
  llvm::DenseSet<Operation *> update;
  for (size_t i = 0; i < args.size(); ++i) {
    unsigned k = args[i];
    if (int(k) == plan.writeArg)
      continue;
    if (llvm::is_contained(plan.cycle, k))
      return fail("the loads or the condition read another buffer's base "
                  "than the one they write");
    if (std::string why = collectPure(body, {yields[k]}, Value(), update, args);
        !why.empty())
      return fail(why);
  }
  plan.control.assign(numArgs, false);
  for (unsigned k : args)
    if (int(k) != plan.writeArg)
      plan.control[k] = true;
  // The argument whose yield is cycle[i] (the slot a base may be yielded
  // into): cycle[i - 1]; for a toggle the read base's own slot.
  auto yieldSlotOf = [&](size_t i) {
    return plan.toggle ? int(plan.readArg)
                       : int(plan.cycle[(i + plan.cycle.size() - 1) %
                                        plan.cycle.size()]);
  };
  for (Operation &op : body.without_terminator())
    if (update.contains(&op))
      plan.update.push_back(&op);

  // The bases reach only LDS addresses (reads, loads): their values change.
  auto readAddress = [&](Operation *user, Value value) {
    if (!llvm::is_contained(reads, user))
      return false;
    auto access = getLdsAccessAddress(user, target.defaultWaveSize);
    return access && access->address == value;
  };
  if (std::string why = checkReach(
          body.getArgument(plan.readArg), cond,
          plan.toggle ? -1 : yieldSlotOf(0),
          [&](Operation *user, Value value) {
            return user == plan.toggle || readAddress(user, value);
          },
          "read buffer's base");
      !why.empty())
    return fail(why);
  // The write base only through M0 (the loads' LDS address).
  if (std::string why = checkReach(
          plan.writeBase, cond, yieldSlotOf(plan.distance),
          [&](Operation *user, Value) { return isa<S_MOV_B32_M0>(user); },
          "write buffer's base");
      !why.empty())
    return fail(why);
  // The other rotating bases only forwarded to the next.
  for (size_t i = 1; i < plan.cycle.size(); ++i)
    if (int(i) != plan.distance)
      if (std::string why = checkReach(
              body.getArgument(plan.cycle[i]), cond, yieldSlotOf(i),
              [](Operation *, Value) { return false; }, "rotated base");
          !why.empty())
        return fail(why);

  // The new buffers above everything the program uses.
  int64_t span = llvm::alignTo(hi, kBufferAlignment);
  int64_t top = program.getLdsSize().value_or(0);
  for (int64_t base : plan.bases)
    top = std::max(top, base + hi);
  top = llvm::alignTo(top, kBufferAlignment);
  int added = buffers - plan.rotation;
  for (int b = 0; b < added; ++b)
    plan.bases.push_back(top + b * span);
  plan.ldsBefore = program.getLdsSize().value_or(0);
  plan.ldsAfter = top + added * span;
  if (plan.ldsAfter > target.maxLDSBytes) {
    plan.outOfMemory = plan.fewerMayFit = true;
    return fail(llvm::formatv(
        "{0} LDS buffers: {1} more of {2} bytes above {3} need {4} bytes, "
        "{5} over the {6} bytes of {7}",
        buffers, added, span, top, plan.ldsAfter,
        plan.ldsAfter - target.maxLDSBytes, target.maxLDSBytes, target.name));
  }
  return plan;
}

/// Whether `op`, unused, can go: no effect but its results.
bool isDeadWhenUnused(Operation *op) {
  auto facts = dyn_cast<InstInfoOpInterface>(op);
  return facts && !facts.isPinned() && !op->getNumRegions() &&
         !writesMemory(op) &&
         !(implicitRegs(op) & (ImpVCC | ImpEXEC | ImpM0)) &&
         !isa<LoopOp, IfOp, ConditionOp>(op);
}

/// Where the deepened body issues its loads: before the first barrier after
/// the last LDS read (nullptr: in body order), by LoadsAfterReads.h's rules.
/// In the deepened loop the loads write buffer N-1 and the reads read
/// buffer 0, two different buffers (the plan checked them apart), so the
/// reads may go first; the loads still follow the previous iteration's
/// barrier (which orders that iteration's reads of the same buffer before
/// them) and still have N-2 barriers before the reads of their tile. What
/// it buys: the barrier waits for the reads to drain (lgkmcnt(0), ~20
/// slots after the last), and with the reads at the top of the step the
/// loads, their M0 writes and the rest issue in that drain instead of
/// ahead of it.
Operation *sinkPoint(const LdsDeepening &plan) {
  return findLoadsSinkPoint(
      LoopOp(plan.loop).getBodyBlock(),
      [&](Operation *op) {
        return plan.loads.contains(op) || plan.ahead.contains(op);
      },
      [](Operation *, Operation *) { return false; });
}

} // namespace

bool waveasm::canIssueLoadsAfterReads(const LdsDeepening &plan) {
  return plan.ok() && sinkPoint(plan);
}

LdsDeepening waveasm::planLdsDeepening(LoopOp loop, int buffers, int spare) {
  if (buffers)
    return planOne(loop, buffers, spare, 0);
  LdsDeepening two = planOne(loop, 0, 0, 2);
  if (!two.fewerMayFit)
    return two;
  return planOne(loop, 0, 0, 1);
}

LoopOp waveasm::applyLdsDeepening(const LdsDeepening &plan) {
  LoopOp loop = plan.loop;
  Block &body = loop.getBodyBlock();
  auto cond = cast<ConditionOp>(body.getTerminator());
  auto program = cast<ProgramOp>(loop->getParentOp());
  MLIRContext *ctx = loop.getContext();
  Location loc = loop.getLoc();
  int n = plan.buffers;
  // Iterations the loads move ahead (n - 1 - distance without a spare
  // buffer).
  int ahead = plan.aheadIterations();
  int distance = plan.distance;
  unsigned numArgs = body.getNumArguments();
  ValueRange yields = cond.getIterArgs(), inits = loop.getInitArgs();
  Type baseType = body.getArgument(plan.readArg).getType();
  SmallVector<Operation *> created;
  OpBuilder b(loop);
  auto baseConstant = [&](OpBuilder &at, int64_t value) -> Value {
    Value imm = ConstantOp::create(at, loc, ImmType::get(ctx, value), value);
    return S_MOV_B32::create(at, loc, baseType, imm);
  };
  // Ops needed for the iteration's own work (not only for the loads).
  llvm::DenseSet<Operation *> normal;
  for (Operation &op : body.without_terminator()) {
    if (plan.loads.contains(&op) || &op == plan.toggle)
      continue;
    if (!plan.ahead.contains(&op)) {
      normal.insert(&op);
      continue;
    }
    for (Operation *user : op.getUsers())
      if (!plan.ahead.contains(user) && !plan.loads.contains(user))
        normal.insert(&op);
  }
  auto clone = [&](OpBuilder &at, Operation &op, IRMapping &mapping) {
    created.push_back(at.clone(op, mapping));
  };
  // The control iter_args one iteration later: `values` by argument.
  auto advance = [&](OpBuilder &at, SmallVector<Value> &values) {
    IRMapping mapping;
    for (unsigned k = 0; k < numArgs; ++k)
      if (plan.control[k])
        mapping.map(body.getArgument(k), values[k]);
    for (Operation *op : plan.update)
      clone(at, *op, mapping);
    for (unsigned k = 0; k < numArgs; ++k)
      if (plan.control[k])
        values[k] = mapping.lookupOrDefault(yields[k]);
  };
  auto aheadMapping = [&](ArrayRef<Value> control, Value writeBase) {
    IRMapping mapping;
    for (unsigned k = 0; k < numArgs; ++k)
      if (plan.control[k])
        mapping.map(body.getArgument(k), control[k]);
    mapping.map(plan.writeBase, writeBase);
    return mapping;
  };

  // A count the IR does not fix: the original's conditions after its
  // iterations 0 .. ahead-1 must all hold (ahead + 1 iterations at least),
  // else the original loop runs.
  IfOp guard;
  if (plan.guarded) {
    LoopGuardBuilder all(b, loc);
    SmallVector<Value> state(inits.begin(), inits.end());
    for (int j = 0; j < ahead; ++j) {
      IRMapping mapping;
      for (unsigned k = 0; k < numArgs; ++k)
        if (plan.control[k])
          mapping.map(body.getArgument(k), state[k]);
      for (Operation &op : body.without_terminator())
        if (plan.condition.contains(&op))
          clone(b, op, mapping);
      all.fold(b, mapping.lookupOrDefault(cond.getCondition()));
      advance(b, state);
    }
    guard = IfOp::create(b, loc, loop.getResultTypes(), all.test(b));
    b.setInsertionPointToEnd(b.createBlock(&guard.getThenRegion()));
  }

  // Prologue: the loads of the original iterations 0 .. ahead-1 (steps
  // distance .. distance+ahead-1) into buffers distance .. distance+ahead-1
  // (the original's iteration 0 loaded into buffer `distance` at the same
  // point: right before the loop).
  SmallVector<Value> control(inits.begin(), inits.end());
  for (int s = 0; s < ahead; ++s) {
    if (s > 0)
      advance(b, control);
    IRMapping mapping =
        aheadMapping(control, baseConstant(b, plan.bases[distance + s]));
    for (Operation &op : body.without_terminator())
      if (plan.loads.contains(&op) || plan.ahead.contains(&op))
        clone(b, op, mapping);
  }

  // The loop: kept iter_args, then the n bases.
  SmallVector<unsigned> kept;
  for (unsigned k = 0; k < numArgs; ++k)
    if (!llvm::is_contained(plan.cycle, k) && int(k) != plan.writeArg)
      kept.push_back(k);
  SmallVector<Value> newInits;
  SmallVector<Type> types;
  for (unsigned k : kept) {
    newInits.push_back(inits[k]);
    types.push_back(body.getArgument(k).getType());
  }
  for (int j = 0; j < n; ++j) {
    newInits.push_back(baseConstant(b, plan.bases[j]));
    types.push_back(baseType);
  }
  auto newLoop = LoopOp::create(b, loc, types, newInits);
  for (NamedAttribute attr : loop->getAttrs())
    newLoop->setAttr(attr.getName(), attr.getValue());
  Block *nb = new Block();
  newLoop.getBody().push_back(nb);
  for (Type type : types)
    nb->addArgument(type, loc);
  OpBuilder kb = OpBuilder::atBlockEnd(nb);
  IRMapping cur;
  for (auto [i, k] : llvm::enumerate(kept))
    cur.map(body.getArgument(k), nb->getArgument(i));
  // The buffer of step t + distance + ahead: the last one, or the one
  // before it with a spare buffer (whose reads, a step earlier, the barrier
  // between need not wait for).
  Value last = nb->getArgument(kept.size() + distance + ahead);
  // Rotation argument i holds the buffer of step t + i, as new argument i
  // does (only the read base has users left but dead copies; see below).
  for (auto [i, k] : llvm::enumerate(plan.cycle))
    cur.map(body.getArgument(k), nb->getArgument(kept.size() + i));
  // The write base's only other users are dead here (a copy yielded into
  // the read slot, which `next` below replaces; pure ops nothing reads):
  // their clones must still not point into the erased loop.
  cur.map(plan.writeBase, last);
  SmallVector<Value> aheadControl(numArgs);
  for (unsigned k = 0; k < numArgs; ++k)
    if (plan.control[k])
      aheadControl[k] = cur.lookup(body.getArgument(k));
  for (int i = 0; i < ahead; ++i)
    advance(kb, aheadControl);
  IRMapping am = aheadMapping(aheadControl, last);
  // The loads (with their M0 writes and operands) go after the iteration's
  // reads, right before the barrier that follows them (`sinkTo`), when the
  // plan asks for it (loadsAfterReads) and allows it (sinkPoint); else in
  // body order.
  Operation *sinkTo = plan.loadsAfterReads ? sinkPoint(plan) : nullptr;
  SmallVector<Operation *> deferred;
  for (Operation &op : body.without_terminator()) {
    if (&op == sinkTo)
      for (Operation *load : std::exchange(deferred, {}))
        clone(kb, *load, am);
    if (plan.loads.contains(&op) || plan.ahead.contains(&op)) {
      if (sinkTo && op.isBeforeInBlock(sinkTo))
        deferred.push_back(&op);
      else
        clone(kb, op, am);
    }
    if (normal.contains(&op))
      clone(kb, op, cur);
  }
  // The condition: the counted compare with its bound `ahead` steps nearer
  // when that keeps the trip count inferable, else the original's
  // condition `ahead` iterations ahead and the count as an attribute. The
  // compare as the trip count analysis reads it (analysis/TripCount.h): an
  // induction variable of the loop control against a constant bound.
  int64_t newTrips = plan.trips - ahead;
  Value newCond;
  std::optional<ExitCompare> exit = getExitCompare(loop);
  Operation *cmp = exit ? exit->compare : nullptr;
  std::optional<int64_t> bound, step;
  if (cmp && normal.contains(cmp) && exit->lhs.varies() &&
      plan.control[exit->lhs.arg] && exit->rhs.arg < 0) {
    bound = int64_t(int32_t(exit->rhs.offset));
    step = int64_t(int32_t(exit->lhs.step));
  }
  // Only the condition may read the compare: its bound changes below, and
  // another reader (a select on the last step, say) would see it too.
  if (step && llvm::any_of(cmp->getUsers(), [&](Operation *user) {
        return user != cond.getOperation();
      }))
    step.reset();
  if (step) {
    Operation *moved = cur.lookup(cmp->getResult(0)).getDefiningOp();
    int64_t value = *bound - ahead * *step;
    moved->setOperand(
        1, ConstantOp::create(kb, loc, ImmType::get(ctx, value), value));
    // The constant before its user.
    moved->getOperand(1).getDefiningOp()->moveBefore(moved);
    newCond = moved->getResult(0);
  }
  SmallVector<Value> next;
  for (unsigned k : kept)
    next.push_back(cur.lookupOrDefault(yields[k]));
  for (int j = 1; j <= n; ++j)
    next.push_back(nb->getArgument(kept.size() + j % n));
  auto newCondOp = ConditionOp::create(
      kb, cond.getLoc(), newCond ? newCond : am.lookup(cond.getCondition()),
      next);
  TripCount inferred = getTripCount(newLoop);
  if (plan.guarded) {
    // Behind the guard: the hint less the iterations moved out, if any.
    newCondOp->setOperand(0, am.lookup(cond.getCondition()));
    newLoop->removeAttr(kTripCountAttrName);
    if (loop->hasAttr(kTripCountAttrName))
      newLoop->setAttr(kTripCountAttrName,
                       kb.getI64IntegerAttr(std::max<int64_t>(1, newTrips)));
  } else if (inferred.source != TripCountSource::Inferred ||
             inferred.count != newTrips) {
    newCondOp->setOperand(0, am.lookup(cond.getCondition()));
    newLoop->setAttr(kTripCountAttrName, kb.getI64IntegerAttr(newTrips));
  }

  // Epilogue: the last `ahead` iterations, reading buffers 0 .. ahead-1 of
  // the loop's final rotation, without the loads.
  b.setInsertionPointAfter(newLoop);
  SmallVector<Value> state(numArgs);
  for (auto [i, k] : llvm::enumerate(kept))
    state[k] = newLoop.getResult(i);
  for (int e = 0; e < ahead; ++e) {
    IRMapping mapping;
    for (unsigned k : kept)
      mapping.map(body.getArgument(k), state[k]);
    for (auto [i, k] : llvm::enumerate(plan.cycle))
      mapping.map(body.getArgument(k),
                  newLoop.getResult(kept.size() + (e + i) % n));
    mapping.map(plan.writeBase, newLoop.getResult(kept.size() + e));
    for (Operation &op : body.without_terminator())
      if (normal.contains(&op))
        clone(b, op, mapping);
    for (unsigned k : kept)
      state[k] = mapping.lookupOrDefault(yields[k]);
  }
  if (guard) {
    // The bases' results have no uses: the loop's final bases stand in.
    SmallVector<Value> results;
    for (unsigned k = 0; k < numArgs; ++k)
      results.push_back(llvm::is_contained(plan.cycle, k)
                            ? newLoop.getResult(kept.size())
                            : state[k]);
    YieldOp::create(b, loc, results);
    OpBuilder elseB =
        OpBuilder::atBlockEnd(b.createBlock(&guard.getElseRegion()));
    Operation *original = elseB.clone(*loop);
    YieldOp::create(elseB, loc, original->getResults());
    for (unsigned k = 0; k < numArgs; ++k)
      loop.getResult(k).replaceAllUsesWith(guard.getResult(k));
  } else {
    for (unsigned k : kept)
      loop.getResult(k).replaceAllUsesWith(state[k]);
  }
  noteReplacement(loop, newLoop);
  eraseOp(loop);
  program.setLdsSize(plan.ldsAfter);

  // What only fed the loads or the other condition goes (only ops made
  // here: the rest of the program is not this rewrite's business).
  for (Operation &op : *nb)
    created.push_back(&op);
  llvm::DenseSet<Operation *> ours(created.begin(), created.end());
  llvm::SetVector<Operation *> work(created.begin(), created.end());
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!op->use_empty() || !isDeadWhenUnused(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && ours.contains(def))
        work.insert(def);
    ours.erase(op);
    eraseOp(op);
  }
  return newLoop;
}
