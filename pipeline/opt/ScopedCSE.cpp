//===- ScopedCSE.cpp - waveasm-scoped-cse ---------------------------------===//
//
// `waveasm-scoped-cse` (SPEC.md 19): walks each block in order with a scope
// per nested region; an eligible op equal to one earlier in the same or an
// enclosing scope is replaced by it. Equal: same op name, operands (in
// either order for two-operand commutative ops), attributes and properties,
// and result types.
//
// Eligible, as upstream: ops with results and without regions, `no_cse` or
// a precolored register, that are neither memory ops nor control, special
// register or SCC-reading ops, and are constants, arithmetic or otherwise
// free of memory effects. Where upstream's marker traits would change the
// computed values, this pass is stricter:
//   * ops reading VCC, SCC, EXEC or M0 implicitly (v_cndmask_b32, carry-in
//     ops) are not merged: the implicit register may differ between the two;
//   * ops writing VCC (v_add_co_u32, ...) are not merged: a carry-in op may
//     read that VCC with no SSA edge;
//   * SCC writers (s_and_b32, s_add_u32, ...) are merged only when the
//     duplicate's SCC result is unused and nothing in the program reads SCC
//     without an SSA operand (s_cbranch_scc*, an `if` on an SGPR, raw text);
//   * VALU results depend on EXEC: two VALU ops match only if no EXEC write
//     (s_and_saveexec_b64, s_mov_b64_exec, raw text) may run between them;
//   * allocated ops (physical results) are left alone.
// Upstream: merges on the marker traits alone.
//
//===----------------------------------------------------------------------===//

#include "pipeline/DeferredErase.h"
#include "pipeline/Passes.h"
#include "pipeline/opt/OperandFacts.h"

#include "ir/InstFacts.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopedHashTable.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/RecyclingAllocator.h"

#define DEBUG_TYPE "waveasm-scoped-cse"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMSCOPEDCSE
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

/// An op, the EXEC epoch it computes under (0 when EXEC does not matter)
/// and its hash, computed once (the table hashes on lookup, insertion and
/// growth).
struct CSEKey {
  Operation *op;
  unsigned epoch;
  unsigned hash;
};

bool isSortedCommutative(Operation *op) {
  return op->getNumOperands() == 2 &&
         op->hasTrait<mlir::OpTrait::IsCommutative>();
}

struct CSEKeyInfo {
  static CSEKey getEmptyKey() {
    return {llvm::DenseMapInfo<Operation *>::getEmptyKey(), 0, 0};
  }
  static CSEKey getTombstoneKey() {
    return {llvm::DenseMapInfo<Operation *>::getTombstoneKey(), 0, 0};
  }
  static unsigned getHashValue(const CSEKey &key) { return key.hash; }
  /// What isEqual compares, hashed: the name, the attribute dictionary,
  /// the properties, the result types and (in order unless commutative) the
  /// operands. OperationEquivalence::computeHash with IgnoreLocations hashes
  /// the same, but looks the commutative trait up once more (a linear search
  /// of the op's traits) and folds the result types through a variadic
  /// hash_combine: 70% of this pass. Equal ops still hash equal.
  static llvm::hash_code hashOp(Operation *op, bool commutative) {
    llvm::hash_code hash = llvm::hash_combine(
        op->getName().getAsOpaquePointer(),
        op->getRawDictionaryAttrs().getAsOpaquePointer(), op->hashProperties());
    for (Type type : op->getResultTypes())
      hash = llvm::hash_combine(hash, type.getAsOpaquePointer());
    if (!commutative)
      for (Value operand : op->getOperands())
        hash = llvm::hash_combine(hash, operand.getAsOpaquePointer());
    return hash;
  }
  static CSEKey makeKey(Operation *op, unsigned epoch) {
    bool commutative = isSortedCommutative(op);
    llvm::hash_code hash = hashOp(op, commutative);
    if (commutative) {
      llvm::hash_code a = hash_value(op->getOperand(0));
      llvm::hash_code b = hash_value(op->getOperand(1));
      hash = llvm::hash_combine(hash, std::min<size_t>(a, b),
                                std::max<size_t>(a, b));
    }
    return {op, epoch, static_cast<unsigned>(llvm::hash_combine(hash, epoch))};
  }
  static bool isEqual(const CSEKey &lhs, const CSEKey &rhs) {
    if (lhs.op == rhs.op)
      return lhs.epoch == rhs.epoch;
    auto isMarker = [](Operation *op) {
      return op == getEmptyKey().op || op == getTombstoneKey().op;
    };
    if (isMarker(lhs.op) || isMarker(rhs.op) || lhs.epoch != rhs.epoch ||
        lhs.hash != rhs.hash)
      return false;
    auto sameOperands = [](ValueRange a, ValueRange b) {
      SmallVector<Value, 2> x(a.begin(), a.end()), y(b.begin(), b.end());
      auto byAddress = [](Value u, Value v) {
        return u.getAsOpaquePointer() < v.getAsOpaquePointer();
      };
      llvm::sort(x, byAddress);
      llvm::sort(y, byAddress);
      return success(x == y);
    };
    return OperationEquivalence::isEquivalentTo(
        lhs.op, rhs.op, OperationEquivalence::exactValueMatch,
        /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations,
        isSortedCommutative(lhs.op)
            ? function_ref<LogicalResult(ValueRange, ValueRange)>(sameOperands)
            : nullptr);
  }
};

using ScopedTable = llvm::ScopedHashTable<
    CSEKey, Operation *, CSEKeyInfo,
    llvm::RecyclingAllocator<llvm::BumpPtrAllocator,
                             llvm::ScopedHashTableVal<CSEKey, Operation *>>>;

bool isPrecolored(Operation *op) {
  return isa<PrecoloredVRegOp, PrecoloredSRegOp, PrecoloredARegOp>(op);
}

/// Writes EXEC, or may (raw text, foreign ops).
bool writesExec(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  return isa<RawOp>(op) || !facts.hasInfo || (facts.implicitDefs & ImpEXEC);
}

/// Reads SCC without an SSA operand saying which SCC value.
bool readsSCCImplicitly(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  if (isa<RawOp>(op) || !facts.hasInfo)
    return true;
  return (facts.implicitUses & ImpSCC) &&
         llvm::none_of(op->getOperandTypes(),
                       [](Type type) { return isa<SCCType>(type); });
}

class ScopedCSE {
public:
  explicit ScopedCSE(ProgramOp program) {
    // One look at the program for the two program-wide facts.
    program.walk([&](Operation *op) {
      if (op == program.getOperation())
        return;
      hasImplicitSCCReader |= readsSCCImplicitly(op);
      if (!writesExec(op))
        return;
      // Loops whose body writes EXEC: their body may start under another
      // EXEC in a later iteration.
      for (Operation *parent = op->getParentOp(); parent != program;
           parent = parent->getParentOp())
        if (isa<LoopOp>(parent) && !execLoops.insert(parent).second)
          break;
    });
  }

  unsigned run(Block &body) {
    ScopedTable::ScopeTy scope(table);
    walkBlock(body);
    return erased;
  }

private:
  /// Whether `op` may be replaced by (or replace) an equal op.
  bool isEligible(Operation *op) {
    if (op->getNumResults() == 0 || op->getNumRegions())
      return false;
    InstFacts facts = lookupInstFacts(op);
    if (!facts.hasInfo || facts.memReads || facts.memWrites ||
        facts.implicitUses || (facts.implicitDefs & ~ImpSCC))
      return false;
    if ((facts.implicitDefs & ImpSCC) && hasImplicitSCCReader)
      return false;
    if (isPrecolored(op) || op->hasAttr("no_cse") || hasPhysicalResults(op))
      return false;
    return facts.unit == ExecUnit::VALU || facts.unit == ExecUnit::SALU ||
           isMemoryEffectFree(op);
  }

  /// SALU ops and register plumbing compute the same under any EXEC.
  static bool dependsOnExec(Operation *op) {
    return lookupInstFacts(op).unit != ExecUnit::SALU &&
           !isa<ConstantOp, PackOp, ExtractOp, InsertOp>(op);
  }

  void walkBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isEligible(&op) && replaceByEqual(&op))
        continue;
      for (Region &region : op.getRegions()) {
        ScopedTable::ScopeTy scope(table);
        if (execLoops.contains(&op))
          ++epoch;
        for (Block &nested : region)
          walkBlock(nested);
      }
      if (writesExec(&op))
        ++epoch;
    }
  }

  /// Replaces `op` by an equal op in scope and erases it; else records it.
  bool replaceByEqual(Operation *op) {
    CSEKey key = CSEKeyInfo::makeKey(op, dependsOnExec(op) ? epoch : 0);
    Operation *equal = table.lookup(key);
    if (!equal) {
      table.insert(key, op);
      return false;
    }
    // The duplicate's SCC result is its own flag, not the earlier op's.
    if (llvm::any_of(op->getResults(), [](Value result) {
          return isa<SCCType>(result.getType()) && !result.use_empty();
        })) {
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kept at " << op->getLoc()
                              << ": its SCC result is used\n");
      return false;
    }
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] '" << op->getName() << "' at "
                            << op->getLoc() << " replaced by the one at "
                            << equal->getLoc() << "\n");
    op->replaceAllUsesWith(equal);
    eraseOp(op);
    ++erased;
    return true;
  }

  ScopedTable table;
  llvm::DenseSet<Operation *> execLoops;
  bool hasImplicitSCCReader = false;
  unsigned epoch = 1;
  unsigned erased = 0;
};

struct ScopedCSEPass
    : public waveasm::impl::WaveASMScopedCSEBase<ScopedCSEPass> {
  void runOnOperation() override {
    ProgramOp program = getOperation();
    unsigned erased = ScopedCSE(program).run(program.getBodyBlock());
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] @" << program.getSymName()
                            << ": " << erased << " ops replaced\n");
  }
};

} // namespace
