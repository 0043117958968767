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
#include "pipeline/ForEachOp.h"
#include "pipeline/Passes.h"
#include "pipeline/opt/OperandFacts.h"

#include "ir/InstFacts.h"
#include "ir/OpClassTable.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <vector>

#define DEBUG_TYPE "waveasm-scoped-cse"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMSCOPEDCSE
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

/// An op, the EXEC epoch it computes under (0 when EXEC does not matter),
/// its hash, computed once, and whether its two operands compare as a set.
struct CSEKey {
  Operation *op;
  unsigned epoch;
  unsigned hash;
  bool commutative = false;
};

/// One step of the key's hash. Only the table's bucket choice depends on
/// it (equal keys hash equal, isEqual decides), so a multiply-xorshift of
/// each word does: llvm::hash_combine's byte-buffer mixing per word was a
/// fifth of the pass.
uint64_t mixHash(uint64_t hash, uint64_t word) {
  hash = (hash ^ word) * 0x9E3779B97F4A7C15ull;
  return hash ^ (hash >> 29);
}
uint64_t mixHash(uint64_t hash, const void *pointer) {
  return mixHash(hash, reinterpret_cast<uintptr_t>(pointer));
}

struct CSEKeyInfo {
  /// What isEqual compares, hashed: the name, the attribute dictionary,
  /// the properties, the result types and (in order unless commutative) the
  /// operands. OperationEquivalence::computeHash with IgnoreLocations hashes
  /// the same, but looks the commutative trait up once more (a linear search
  /// of the op's traits) and folds the result types through a variadic
  /// hash_combine: 70% of this pass. Equal ops still hash equal
  /// (commutative operands by address order).
  static uint64_t hashOp(Operation *op, bool commutative) {
    uint64_t hash = mixHash(0, op->getName().getAsOpaquePointer());
    hash = mixHash(hash, op->getRawDictionaryAttrs().getAsOpaquePointer());
    // An op class without properties has nothing to hash there (the
    // hash is a call through the op's name); ops of one name agree.
    if (op->getPropertiesStorageSize())
      hash = mixHash(hash, static_cast<uint64_t>(op->hashProperties()));
    for (Type type : op->getResultTypes())
      hash = mixHash(hash, type.getAsOpaquePointer());
    if (!commutative) {
      for (Value operand : op->getOperands())
        hash = mixHash(hash, operand.getAsOpaquePointer());
      return hash;
    }
    const void *a = op->getOperand(0).getAsOpaquePointer();
    const void *b = op->getOperand(1).getAsOpaquePointer();
    if (b < a)
      std::swap(a, b);
    return mixHash(mixHash(hash, a), b);
  }
  static CSEKey makeKey(Operation *op, unsigned epoch, bool commutative) {
    uint64_t hash = mixHash(hashOp(op, commutative), uint64_t(epoch));
    return {op, epoch, static_cast<unsigned>(hash ^ (hash >> 32)), commutative};
  }
  static bool isEqual(const CSEKey &lhs, const CSEKey &rhs) {
    if (lhs.op == rhs.op)
      return lhs.epoch == rhs.epoch;
    if (lhs.epoch != rhs.epoch || lhs.hash != rhs.hash)
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
        lhs.commutative
            ? function_ref<LogicalResult(ValueRange, ValueRange)>(sameOperands)
            : nullptr);
  }
};

/// The eligible ops in scope, by CSEKey: open addressing with linear
/// probing, sized once for every op of the program (at most half full), so
/// it never grows or rehashes, and probed once per op. llvm::ScopedHashTable
/// over a DenseMap probed three times per op (lookup, insert, erase at the
/// scope's end), grew from empty and left a tombstone per erasure: the pass
/// took a third more instructions with it. Two facts make a scope's end
/// cheap and exact here: an op is inserted only when no equal op is in
/// scope (nothing is ever shadowed), and scopes end last-opened first. Emptying
/// the slots a scope filled, last filled first, restores the table as it was:
/// with linear probing an entry's probe path crosses only slots filled before
/// it.
class ScopedOpTable {
public:
  /// Makes room for `maxOps` ops; the table is empty.
  void reserve(size_t maxOps) {
    slots.assign(llvm::NextPowerOf2(2 * maxOps + 1), Slot());
    mask = slots.size() - 1;
    filled.reserve(maxOps);
  }

  /// The op in scope equal to `key`'s, or null after inserting `key`.
  Operation *lookupOrInsert(const CSEKey &key) {
    for (size_t i = key.hash & mask;; i = (i + 1) & mask) {
      Slot &slot = slots[i];
      if (!slot.op) {
        slot = {key.op, key.hash, key.epoch};
        filled.push_back(i);
        return nullptr;
      }
      if (CSEKeyInfo::isEqual({slot.op, slot.epoch, slot.hash, key.commutative},
                              key))
        return slot.op;
    }
  }
  /// The current scope's start, for endScope.
  size_t beginScope() const { return filled.size(); }
  /// Removes every op inserted since `begin`.
  void endScope(size_t begin) {
    while (filled.size() > begin) {
      slots[filled.back()].op = nullptr;
      filled.pop_back();
    }
  }

private:
  struct Slot {
    Operation *op = nullptr;
    unsigned hash = 0;
    unsigned epoch = 0;
  };
  std::vector<Slot> slots;
  size_t mask = 0;
  std::vector<uint32_t> filled; // slot indices, in insertion order
};

/// What the pass asks of an op that its class answers: InstFacts, the op
/// kind and its traits, read once per class and kept per thread by TypeID
/// (the pass asks every op of the program three times, and the InstFacts
/// lookup and the kind tests cost more than one lookup here). An
/// unregistered op's TypeID is one for every name, and every such op has
/// no InstFacts: the same answers.
enum ClassFact : uint8_t {
  /// A class whose ops (with results, without regions, `no_cse` or
  /// physical results) may be merged: InstFacts without memory access or
  /// implicit registers other than an SCC definition, not precolored, and
  /// VALU, SALU or otherwise free of memory effects (asked only of such
  /// classes without regions: their ODS traits decide it).
  Candidate = 1,
  /// Defines SCC implicitly.
  WritesSCC = 2,
  /// Writes EXEC, or may (raw text, foreign ops).
  WritesExec = 4,
  /// Reads SCC without an SSA operand saying which SCC value: always (raw
  /// text, foreign ops), or unless it has an SCC operand.
  ReadsSCCAlways = 8,
  ReadsSCCUnlessOperand = 16,
  /// Computes under EXEC (SALU ops and register plumbing compute the same
  /// under any EXEC).
  DependsOnExec = 32,
  /// Its two operands compare as a set.
  Commutative = 64,
};

uint8_t computeClassFacts(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  bool raw = isa<RawOp>(op);
  uint8_t result = 0;
  if (raw || !facts.hasInfo)
    result |= WritesExec | ReadsSCCAlways;
  if (facts.implicitDefs & ImpEXEC)
    result |= WritesExec;
  if (facts.implicitUses & ImpSCC)
    result |= ReadsSCCUnlessOperand;
  if (facts.implicitDefs & ImpSCC)
    result |= WritesSCC;
  if (facts.unit != ExecUnit::SALU &&
      !isa<ConstantOp, PackOp, ExtractOp, InsertOp>(op))
    result |= DependsOnExec;
  if (op->hasTrait<mlir::OpTrait::IsCommutative>())
    result |= Commutative;
  if (facts.hasInfo && !facts.memReads && !facts.memWrites &&
      !facts.implicitUses && !(facts.implicitDefs & ~ImpSCC) &&
      !isa<PrecoloredVRegOp, PrecoloredSRegOp, PrecoloredARegOp>(op) &&
      op->getNumRegions() == 0 &&
      (facts.unit == ExecUnit::VALU || facts.unit == ExecUnit::SALU ||
       isMemoryEffectFree(op)))
    result |= Candidate;
  return result;
}

uint8_t classFacts(Operation *op) {
  static thread_local OpClassTable<uint8_t, 512> table;
  return table.get(op, computeClassFacts);
}

/// Reads SCC without an SSA operand saying which SCC value.
bool readsSCCImplicitly(Operation *op, uint8_t facts) {
  if (facts & ReadsSCCAlways)
    return true;
  return (facts & ReadsSCCUnlessOperand) &&
         llvm::none_of(op->getOperandTypes(),
                       [](Type type) { return isa<SCCType>(type); });
}

class ScopedCSE {
public:
  explicit ScopedCSE(ProgramOp program) {
    // One look at the program for the two program-wide facts (and the
    // table's size).
    size_t numOps = 0;
    forEachOpPostOrder(program.getBody(), [&](Operation *op) {
      ++numOps;
      uint8_t facts = classFacts(op);
      hasImplicitSCCReader |= readsSCCImplicitly(op, facts);
      if (!(facts & WritesExec))
        return;
      // Loops whose body writes EXEC: their body may start under another
      // EXEC in a later iteration.
      for (Operation *parent = op->getParentOp(); parent != program;
           parent = parent->getParentOp())
        if (isa<LoopOp>(parent) && !execLoops.insert(parent).second)
          break;
    });
    table.reserve(numOps);
  }

  unsigned run(Block &body) {
    walkBlock(body);
    return erased;
  }

private:
  /// Whether `op` (of class `facts`) may be replaced by (or replace) an
  /// equal op.
  bool isEligible(Operation *op, uint8_t facts) {
    if (op->getNumResults() == 0 || op->getNumRegions() || !(facts & Candidate))
      return false;
    if ((facts & WritesSCC) && hasImplicitSCCReader)
      return false;
    // `no_cse` is a discardable attribute (no op has it inherent): the
    // dictionary alone, not the op's inherent attributes compared by name.
    return !(!op->getRawDictionaryAttrs().empty() &&
             op->getDiscardableAttr("no_cse")) &&
           !hasPhysicalResults(op);
  }

  void walkBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      uint8_t facts = classFacts(&op);
      if (isEligible(&op, facts) && replaceByEqual(&op, facts))
        continue;
      for (Region &region : op.getRegions()) {
        size_t scope = table.beginScope();
        if (execLoops.contains(&op))
          ++epoch;
        for (Block &nested : region)
          walkBlock(nested);
        table.endScope(scope);
      }
      if (facts & WritesExec)
        ++epoch;
    }
  }

  /// Replaces `op` by an equal op in scope and erases it; else records it.
  bool replaceByEqual(Operation *op, uint8_t facts) {
    bool commutative = op->getNumOperands() == 2 && (facts & Commutative);
    CSEKey key = CSEKeyInfo::makeKey(op, (facts & DependsOnExec) ? epoch : 0,
                                     commutative);
    Operation *equal = table.lookupOrInsert(key);
    if (!equal)
      return false;
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

  ScopedOpTable table;
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
