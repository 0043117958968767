//===- Moves.cpp - validate and apply move commands -----------------------===//

#include "conductor/Moves.h"

#include "analysis/MemoryAlias.h"

#include "mlir/IR/AsmState.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;

llvm::StringRef conductor::stringifySeverity(Severity severity) {
  switch (severity) {
  case Severity::Info:
    return "info";
  case Severity::Warn:
    return "warn";
  case Severity::Critical:
    return "critical";
  }
  return "info";
}

std::string MoveWarning::text() const {
  return (stringifySeverity(severity) + ": " + command + " \u2014 " + message)
      .str();
}

std::string MoveFailure::describe(llvm::StringRef valueName) const {
  if (kind != Dominance)
    return detail;
  return ("would break dominance of " + valueName + " (defined by " + defTag +
          ", used by " + userTag + ")")
      .str();
}

static std::string tagOf(Operation *op) {
  if (std::optional<llvm::StringRef> tag = getTag(op))
    return tag->str();
  return op->getName().getStringRef().str();
}

static bool isPinned(Operation *op) {
  if (op->hasTrait<mlir::OpTrait::IsTerminator>())
    return true;
  auto info = dyn_cast<InstInfoOpInterface>(op);
  return info && info.isPinned();
}

namespace {

/// The block order before and after one command, as positions.
struct Simulation {
  std::vector<Operation *> before, after;
  llvm::DenseMap<Operation *, unsigned> oldPos, newPos;
};

Simulation simulate(Block &block, const MoveCommand &command, Operation *x,
                    Operation *y) {
  Simulation sim;
  sim.before = snapshotOrder(block);
  sim.after.reserve(sim.before.size());
  for (Operation *op : sim.before) {
    if (command.kind == MoveCommand::Swap) {
      sim.after.push_back(op == x ? y : op == y ? x : op);
      continue;
    }
    if (op == x)
      continue;
    if (op == y && command.kind == MoveCommand::MoveBefore)
      sim.after.push_back(x);
    sim.after.push_back(op);
    if (op == y && command.kind == MoveCommand::MoveAfter)
      sim.after.push_back(x);
  }
  for (auto [i, op] : llvm::enumerate(sim.before))
    sim.oldPos[op] = i;
  for (auto [i, op] : llvm::enumerate(sim.after))
    sim.newPos[op] = i;
  return sim;
}

/// Dominance of `op` at its new position: its operands (and those of its
/// nested ops defined outside it) before it, the users of its results after.
std::optional<MoveFailure> checkDominance(Block *block, Operation *op,
                                          const Simulation &sim) {
  unsigned at = sim.newPos.lookup(op);
  std::optional<MoveFailure> failure;
  op->walk([&](Operation *nested) {
    if (failure)
      return WalkResult::interrupt();
    for (Value operand : nested->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def)
        continue; // block arguments dominate their blocks
      Operation *defInBlock = block->findAncestorOpInBlock(*def);
      if (!defInBlock || defInBlock == op)
        continue;
      if (sim.newPos.lookup(defInBlock) > at) {
        failure = MoveFailure{MoveFailure::Dominance, "", operand,
                              tagOf(defInBlock), tagOf(op)};
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (failure)
    return failure;
  for (Value result : op->getResults()) {
    for (Operation *user : result.getUsers()) {
      Operation *userInBlock = block->findAncestorOpInBlock(*user);
      if (!userInBlock || userInBlock == op)
        continue;
      if (sim.newPos.lookup(userInBlock) < at)
        return MoveFailure{MoveFailure::Dominance, "", result, tagOf(op),
                           tagOf(userInBlock)};
    }
  }
  return std::nullopt;
}

std::optional<MoveFailure> resolve(const TaggedRegion &region,
                                   const MoveCommand &command, Operation *&x,
                                   Operation *&y) {
  x = findTag(region, command.a);
  y = findTag(region, command.b);
  for (auto [op, tag] : {std::pair{x, command.a}, std::pair{y, command.b}})
    if (!op)
      return MoveFailure{MoveFailure::UnknownTag,
                         "unknown tag " + tag + " (this region has I0..I" +
                             std::to_string(region.ops.size() - 1) + ")"};
  if (x == y)
    return MoveFailure{MoveFailure::SameOp,
                       command.a + " and " + command.b + " are the same op"};
  for (Operation *op : {x, y})
    if (op->getBlock() != region.block)
      return MoveFailure{MoveFailure::RegionBoundary,
                         tagOf(op) + " is not in the scheduled " +
                             describeRegion(region).str() +
                             " (moves cannot cross region boundaries)"};
  return std::nullopt;
}

} // namespace

/// Validation; fills `sim` (the orders before and after) when it gets that
/// far.
static std::optional<MoveFailure> validate(const TaggedRegion &region,
                                           const MoveCommand &command,
                                           Operation *&x, Operation *&y,
                                           Simulation &sim) {
  if (command.kind == MoveCommand::Stage ||
      command.kind == MoveCommand::PadLds || command.kind == MoveCommand::Done)
    return MoveFailure{
        MoveFailure::UnknownTag,
        "'" + command.text() +
            "' is not a move (the Session applies stages and padding)"};
  if (auto failure = resolve(region, command, x, y))
    return failure;
  auto pinned = [](Operation *op) {
    return MoveFailure{MoveFailure::Pinned,
                       tagOf(op) + " (" + op->getName().getStringRef().str() +
                           ") is pinned and cannot move"};
  };
  if (isPinned(x))
    return pinned(x);
  if (command.kind == MoveCommand::Swap && isPinned(y))
    return pinned(y);
  if (command.kind == MoveCommand::MoveAfter &&
      y->hasTrait<mlir::OpTrait::IsTerminator>())
    return MoveFailure{MoveFailure::AfterTerminator,
                       "cannot move after the block terminator " + tagOf(y)};
  sim = simulate(*region.block, command, x, y);
  if (auto failure = checkDominance(region.block, x, sim))
    return failure;
  if (command.kind == MoveCommand::Swap)
    return checkDominance(region.block, y, sim);
  return std::nullopt;
}

std::optional<MoveFailure> conductor::validateMove(const TaggedRegion &region,
                                                   const MoveCommand &command) {
  Operation *x, *y;
  Simulation sim;
  return validate(region, command, x, y, sim);
}

//===----------------------------------------------------------------------===//
// Warnings
//===----------------------------------------------------------------------===//

/// Operand `index` of memory op `op` is an address (not store data).
static bool isAddressOperand(Operation *op, unsigned index) {
  if (!readsMemory(op) && !writesMemory(op))
    return false;
  bool isStore = op->getNumResults() == 0 && writesMemory(op);
  return !(isStore && index == 0);
}

static std::string implicitNames(unsigned mask) {
  std::string names;
  for (auto [bit, name] : {std::pair{ImpVCC, "VCC"}, std::pair{ImpEXEC, "EXEC"},
                           std::pair{ImpM0, "M0"}})
    if (mask & bit)
      names += (names.empty() ? "" : "/") + std::string(name);
  return names;
}

/// Implicit registers (not SCC: it is SSA here and the emitter checks its
/// liveness) read or written, over nested ops.
static void implicitRegs(Operation *op, unsigned &uses, unsigned &defs) {
  uses = defs = 0;
  op->walk([&](Operation *nested) {
    if (auto info = dyn_cast<InstInfoOpInterface>(nested)) {
      uses |= info.getImplicitUses() & ~ImpSCC;
      defs |= info.getImplicitDefs() & ~ImpSCC;
    }
  });
}

/// Warnings for moved op `m` now on the other side of `c`.
static void warnPair(Operation *m, Operation *c, bool nowAfter,
                     const std::string &command,
                     std::vector<MoveWarning> &warnings) {
  llvm::StringRef relation = nowAfter ? "after" : "before";
  std::string mTag = tagOf(m), cTag = tagOf(c);
  unsigned mr = memReads(m), mw = memWrites(m), cr = memReads(c),
           cw = memWrites(c);
  auto aliasNote = [&](AliasResult result) -> std::string {
    if (result == AliasResult::MustAlias)
      return ", same address";
    std::optional<MemoryAccess> x = getMemoryAccess(m), y = getMemoryAccess(c);
    if (!x || !y || x->base != y->base || x->srd != y->srd || !x->base)
      return ", may alias";
    // Apart in each lane, but the base is per lane: another lane's bytes
    // (alias() says so, MemoryAlias.h).
    if (disjointInEachLane(*x, *y))
      return ", disjoint bytes in each lane (other lanes of the wave may "
             "share them)";
    return ", same base address";
  };
  auto describePair = [&](bool mIsWrite, unsigned mSpaces, bool cIsWrite,
                          unsigned cSpaces) {
    return ("moved " + describeSpaces(mSpaces) +
            (mIsWrite ? " write (" : " read (") + mTag + ") " + relation + " " +
            describeSpaces(cSpaces) + (cIsWrite ? " write (" : " read (") +
            cTag + ")")
        .str();
  };
  if ((mw && cw) || (mr && cw) || (mw && cr)) {
    bool waw = mw && cw;
    bool mIsWrite = waw || !(mr && cw);
    unsigned mSpaces = mIsWrite ? mw : mr;
    unsigned cSpaces = (waw || !mIsWrite) ? cw : cr;
    std::string what =
        describePair(mIsWrite, mSpaces, !mIsWrite || waw, cSpaces);
    AliasResult result = alias(m, c);
    if (result != AliasResult::NoAlias)
      warnings.push_back({waw ? Severity::Critical : Severity::Warn, command,
                          what + aliasNote(result)});
  }
  if (isa<S_BARRIER>(c)) {
    bool memory = mr || mw;
    warnings.push_back(
        {memory ? Severity::Warn : Severity::Info, command,
         "moved " + mTag + " " + relation.str() + " barrier " + cTag +
             (memory ? " (a memory access changes sides)" : "")});
  }
  unsigned mu, md, cu, cd;
  implicitRegs(m, mu, md);
  implicitRegs(c, cu, cd);
  if (unsigned clash = (md & cu) | (mu & cd))
    warnings.push_back({Severity::Critical, command,
                        "moved " + mTag + " " + relation.str() + " " + cTag +
                            ": both use " + implicitNames(clash) +
                            " (implicit register, written by one of them)"});
}

static void warnAddress(Operation *m, const Simulation &sim,
                        const std::string &command, Block *block,
                        std::vector<MoveWarning> &warnings) {
  // The nearest memory op that takes one of m's results as an address.
  Operation *consumer = nullptr;
  for (OpOperand &use : m->getUses()) {
    Operation *user = use.getOwner();
    if (user->getBlock() != block ||
        !isAddressOperand(user, use.getOperandNumber()))
      continue;
    if (!consumer || sim.newPos.lookup(user) < sim.newPos.lookup(consumer))
      consumer = user;
  }
  if (!consumer)
    return;
  int64_t oldDist = int64_t(sim.oldPos.lookup(consumer)) - sim.oldPos.lookup(m);
  int64_t newDist = int64_t(sim.newPos.lookup(consumer)) - sim.newPos.lookup(m);
  if (newDist > oldDist)
    warnings.push_back(
        {Severity::Info, command,
         "address computation moved away from consumer " + tagOf(consumer)});
}

std::optional<MoveFailure>
conductor::applyMove(const TaggedRegion &region, const MoveCommand &command,
                     std::vector<MoveWarning> &warnings) {
  Operation *x, *y;
  Simulation sim;
  if (auto failure = validate(region, command, x, y, sim))
    return failure;
  std::string text = command.text();
  // Every op whose order relative to a moved op flipped.
  auto warnFlips = [&](Operation *m, Operation *skip) {
    unsigned mOld = sim.oldPos.lookup(m), mNew = sim.newPos.lookup(m);
    for (Operation *c : sim.before) {
      if (c == m || c == skip)
        continue;
      bool wasAfter = sim.oldPos.lookup(c) < mOld;
      bool nowAfter = sim.newPos.lookup(c) < mNew;
      if (wasAfter != nowAfter)
        warnPair(m, c, nowAfter, text, warnings);
    }
    warnAddress(m, sim, text, region.block, warnings);
  };
  warnFlips(x, nullptr);
  if (command.kind == MoveCommand::Swap)
    warnFlips(y, x);

  switch (command.kind) {
  case MoveCommand::MoveAfter:
    x->moveAfter(y);
    break;
  case MoveCommand::MoveBefore:
    x->moveBefore(y);
    break;
  case MoveCommand::Swap: {
    Operation *next = x->getNextNode();
    if (next == y) {
      x->moveAfter(y);
    } else {
      x->moveBefore(y);
      y->moveBefore(next);
    }
    break;
  }
  case MoveCommand::Stage:
  case MoveCommand::PadLds:
  case MoveCommand::Done:
    break;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Snapshots, anchoring, names
//===----------------------------------------------------------------------===//

std::vector<Operation *> conductor::snapshotOrder(Block &block) {
  std::vector<Operation *> order;
  for (Operation &op : block)
    order.push_back(&op);
  return order;
}

void conductor::restoreOrder(Block &block, llvm::ArrayRef<Operation *> order) {
  Block::iterator it = block.begin();
  for (Operation *op : order) {
    if (&*it == op) {
      ++it;
      continue;
    }
    op->moveBefore(&*it);
  }
}

unsigned conductor::anchorPseudoOps(Block &block,
                                    std::vector<MoveCommand> *record) {
  std::vector<Operation *> pseudo;
  for (Operation &op : block)
    if (isa<ConstantOp, PackOp, ExtractOp, InsertOp>(op))
      pseudo.push_back(&op);
  unsigned moved = 0;
  // Bottom-up, so a pseudo op feeding another lands before it once that one
  // has found its place.
  for (Operation *op : llvm::reverse(pseudo)) {
    Operation *earliest = nullptr;
    for (Operation *user : op->getUsers()) {
      Operation *inBlock = block.findAncestorOpInBlock(*user);
      if (inBlock && (!earliest || inBlock->isBeforeInBlock(earliest)))
        earliest = inBlock;
    }
    if (!earliest || earliest == op->getNextNode() ||
        !op->isBeforeInBlock(earliest))
      continue;
    if (record)
      record->push_back(MoveCommand::moveBefore(tagOf(op), tagOf(earliest)));
    op->moveBefore(earliest);
    ++moved;
  }
  return moved;
}

std::string conductor::printValueName(Value value) {
  Operation *scope = value.getParentRegion()->getParentOp();
  if (auto program = dyn_cast<ProgramOp>(scope))
    scope = program;
  else if (auto parent = scope->getParentOfType<ProgramOp>())
    scope = parent;
  AsmState state(scope);
  std::string name;
  llvm::raw_string_ostream os(name);
  value.printAsOperand(os, state);
  return name;
}
