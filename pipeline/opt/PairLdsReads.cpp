//===- PairLdsReads.cpp - ds_read_b64 pairs as one ds_read2_b64 -----------===//

#include "pipeline/opt/PairLdsReads.h"
#include "pipeline/opt/OperandFacts.h"

#include "analysis/MemoryAlias.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace waveasm;

namespace {

/// ds_read2_b64's offset fields: 8 bits of 8-byte elements.
constexpr int64_t kElementBytes = 8;
constexpr int64_t kMaxElement = 255;

/// A read's address as a root value plus a constant byte offset (the
/// `v_add_u32`s of constants the memory offset pass folds later, and the
/// op's `offset`: analysis/MemoryAlias.h's getMemoryAccess).
struct Read {
  DS_READ_B64 op;
  Value root;
  int64_t bytes = 0;
  unsigned position = 0;
  bool paired = false;
};

/// The type of an address add the pass makes: a new virtual VGPR, never
/// the type of the value it rebases (a precolored one, the thread id's v0,
/// would be written over).
Type freshVGPR(OpBuilder &b) { return VRegType::get(b.getContext(), 1, 1); }

/// Ops the second read of a pair may not move above: they may change the
/// bytes it reads (LDS writes, direct-to-LDS loads, barriers: another wave's
/// writes), count its ticket (waits) or hide either (regions).
bool isFence(Operation *op) {
  if (op->getNumRegions() ||
      isa<S_BARRIER, S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT>(op))
    return true;
  auto info = dyn_cast<InstInfoOpInterface>(op);
  return info && (info.getMemWrites() & MemLDS);
}

bool isPairable(DS_READ_B64 read) {
  return read->getNumResults() == 1 && isVGPR(read.getVaddr()) &&
         !getConstant32(read.getVaddr()) && !hasPhysicalResults(read);
}

int64_t offsetOf(Operation *op) {
  auto attr = op->getAttrOfType<IntegerAttr>("offset");
  return attr ? attr.getInt() : 0;
}

class Pairer {
public:
  /// `dryRun`: count the candidate pairs, change nothing.
  Pairer(LoopOp loop, llvm::DenseMap<Operation *, int> *stageOf,
         bool dryRun = false)
      : loop(loop), stageOf(stageOf), dryRun(dryRun) {}

  unsigned run() {
    SmallVector<Read> segment;
    for (Operation &op :
         llvm::make_early_inc_range(loop.getBodyBlock().without_terminator())) {
      if (isFence(&op)) {
        pairSegment(segment);
        segment.clear();
        continue;
      }
      if (auto read = dyn_cast<DS_READ_B64>(&op); read && isPairable(read)) {
        std::optional<MemoryAccess> access = getMemoryAccess(read);
        // A VGPR root only: an SGPR address is no ds address operand.
        if (access && access->base && access->offset && isVGPR(access->base))
          segment.push_back(
              {read, access->base, *access->offset, unsigned(segment.size())});
      }
    }
    pairSegment(segment);
    return pairs;
  }

private:
  /// Within a segment (no fence between any two of its reads), the pairs
  /// nearest in bytes first: adjacent fragments issue together, so the
  /// pairs take the first reads' early slots (the double buffer's pairs 32
  /// bytes apart; pairing its 0 with 1088 would move the 32s later).
  void pairSegment(SmallVectorImpl<Read> &reads) {
    struct Candidate {
      unsigned first, second;
      int64_t distance;
    };
    SmallVector<Candidate> candidates;
    for (unsigned i = 0; i < reads.size(); ++i)
      for (unsigned j = i + 1; j < reads.size(); ++j) {
        if (reads[i].root != reads[j].root ||
            (stageOf &&
             stageOf->lookup(reads[i].op) != stageOf->lookup(reads[j].op)))
          continue;
        int64_t distance = std::abs(reads[j].bytes - reads[i].bytes);
        if (distance == 0 || distance % kElementBytes ||
            distance / kElementBytes > kMaxElement)
          continue;
        candidates.push_back({i, j, distance});
      }
    if (dryRun) {
      pairs += candidates.size();
      return;
    }
    llvm::stable_sort(candidates, [](const Candidate &a, const Candidate &b) {
      return std::tie(a.distance, a.first) < std::tie(b.distance, b.first);
    });
    for (const Candidate &c : candidates) {
      Read &first = reads[c.first], &second = reads[c.second];
      if (first.paired || second.paired)
        continue;
      if (pair(first, second)) {
        first.paired = second.paired = true;
        ++pairs;
      }
    }
  }

  /// An address and two element offsets that reach `first` and `second`,
  /// usable at `first` (new ops: `made`):
  ///   - the root itself when both fit;
  ///   - the root from before the loop, rebased there (an address add of a
  ///     constant inside the loop, which the memory offset pass would fold
  ///     into the offsets of two plain reads, would stay as a VALU op every
  ///     iteration);
  ///   - an LDS copy's address (`v_add_u32 base, x`, LdsCopies.h: the
  ///     copy's SGPR base onto an address x from before the loop) as the
  ///     base onto x rebased before the loop: the add a copy makes anyway,
  ///     which the kernel folds (ConstantIterArgs.h, hoistPairAddresses);
  ///   - `first`'s own address when both fit.
  std::optional<std::tuple<Value, int64_t, int64_t>>
  base(Read &first, Read &second, SmallVectorImpl<Operation *> &made) {
    auto fits = [](int64_t bytes) {
      return bytes >= 0 && bytes % kElementBytes == 0 &&
             bytes / kElementBytes <= kMaxElement;
    };
    auto at = [&](Value address, int64_t bytes)
        -> std::optional<std::tuple<Value, int64_t, int64_t>> {
      if (!fits(first.bytes - bytes) || !fits(second.bytes - bytes))
        return std::nullopt;
      return std::make_tuple(address, (first.bytes - bytes) / kElementBytes,
                             (second.bytes - bytes) / kElementBytes);
    };
    Value own = first.op.getVaddr();
    Value root = first.root;
    int64_t low = std::min(first.bytes, second.bytes);
    if (own == root)
      if (auto direct = at(own, 0))
        return direct;
    if (isOutside(root))
      return at(hoisted(root, low), low);
    if (auto add = root.getDefiningOp<V_ADD_U32>()) {
      Value s = add.getSrc0(), x = add.getSrc1();
      if (isSGPR(x))
        std::swap(s, x);
      if (isSGPR(s) && isVGPR(x) && isOutside(x)) {
        OpBuilder b(first.op);
        auto copy = V_ADD_U32::create(b, add.getLoc(), freshVGPR(b), s,
                                      hoisted(x, low));
        made.push_back(copy);
        return at(copy, low);
      }
    }
    if (own == root)
      return std::nullopt;
    return at(own, first.bytes - offsetOf(first.op));
  }

  /// Whether `value` is defined before the loop (a loop-invariant VGPR).
  bool isOutside(Value value) const {
    return !loop->isAncestor(value.getParentBlock()->getParentOp());
  }

  /// `value + bytes`, computed before the loop (one add per value and
  /// constant).
  Value hoisted(Value value, int64_t bytes) {
    if (bytes == 0)
      return value;
    Value &sum = rebases[{value, bytes}];
    if (!sum) {
      OpBuilder b(loop);
      sum = V_ADD_U32::create(b, loop.getLoc(), freshVGPR(b),
                              getImmediate(b, loop.getLoc(), bytes), value);
    }
    return sum;
  }

  bool pair(Read &first, Read &second) {
    SmallVector<Operation *> made;
    std::optional<std::tuple<Value, int64_t, int64_t>> where =
        base(first, second, made);
    if (!where)
      return false;
    auto [address, offset0, offset1] = *where;
    MLIRContext *ctx = loop.getContext();
    Location loc = first.op.getLoc();
    OpBuilder b(first.op);
    auto both = DS_READ2_B64::create(
        b, loc, TypeRange{VRegType::get(ctx, 4, 4)}, address, IntegerAttr());
    both->setAttr("offset0", b.getI64IntegerAttr(offset0));
    both->setAttr("offset1", b.getI64IntegerAttr(offset1));
    if (stageOf)
      for (Operation *op : made)
        (*stageOf)[op] = stageOf->lookup(first.op);
    (*stageOfOr(both)) = stageOf ? stageOf->lookup(first.op) : 0;
    split(first.op->getResult(0), both, 0);
    split(second.op->getResult(0), both, 2);
    if (stageOf) {
      stageOf->erase(first.op);
      stageOf->erase(second.op);
    }
    first.op->erase();
    second.op->erase();
    return true;
  }

  int *stageOfOr(Operation *op) {
    static int ignored;
    return stageOf ? &(*stageOf)[op] : &ignored;
  }

  /// `half`'s users read registers [index, index + 2) of `both` through an
  /// extract placed before the first of them, in the stage of the earliest
  /// (never before the pair's): a pair read in one step and used in a later
  /// one is then carried as its four registers, which the kernel's
  /// iter_args take as they are (extracts carried would each need a copy
  /// into their own registers at the kernel's back edge).
  void split(Value half, Operation *both, int64_t index) {
    Block &body = loop.getBodyBlock();
    Operation *firstUser = nullptr;
    int stage = std::numeric_limits<int>::max();
    for (Operation *user : half.getUsers()) {
      Operation *inBody = body.findAncestorOpInBlock(*user);
      if (!inBody)
        continue;
      if (!firstUser || inBody->isBeforeInBlock(firstUser))
        firstUser = inBody;
      if (stageOf && stageOf->count(inBody) && !isa<ConditionOp>(inBody))
        stage = std::min(stage, stageOf->lookup(inBody));
    }
    int own = *stageOfOr(both);
    OpBuilder b(firstUser && !isa<ConditionOp>(firstUser)
                    ? firstUser
                    : both->getNextNode());
    Value part = ExtractOp::create(b, both->getLoc(), half.getType(),
                                   both->getResult(0), index);
    *stageOfOr(part.getDefiningOp()) =
        stage == std::numeric_limits<int>::max() ? own : std::max(own, stage);
    half.replaceAllUsesWith(part);
  }

  LoopOp loop;
  llvm::DenseMap<Operation *, int> *stageOf;
  bool dryRun;
  llvm::DenseMap<std::pair<Value, int64_t>, Value> rebases;
  unsigned pairs = 0;
};

} // namespace

/// A wait counting LDS tickets would count a pair as one: in a body with
/// such waits (written by hand) the counts would change meaning.
static bool countsLdsTickets(LoopOp loop) {
  bool counted = false;
  loop.getBodyBlock().walk(
      [&](Operation *op) { counted |= isa<S_WAITCNT, S_WAITCNT_LGKMCNT>(op); });
  return counted;
}

unsigned waveasm::pairLdsReads(LoopOp loop,
                               llvm::DenseMap<Operation *, int> *stageOf) {
  return countsLdsTickets(loop) ? 0 : Pairer(loop, stageOf).run();
}

bool waveasm::hasLdsReadPairs(LoopOp loop) {
  return !countsLdsTickets(loop) &&
         Pairer(loop, nullptr, /*dryRun=*/true).run() > 0;
}

unsigned waveasm::hoistPairAddresses(LoopOp kernel) {
  unsigned hoistedCount = 0;
  llvm::DenseMap<std::pair<Value, int64_t>, Value> sums;
  for (Operation &op :
       llvm::make_early_inc_range(kernel.getBodyBlock().without_terminator())) {
    auto pair = dyn_cast<DS_READ2_B64>(&op);
    auto add = pair ? pair.getVaddr().getDefiningOp<V_ADD_U32>() : nullptr;
    if (!add || add->getBlock() != &kernel.getBodyBlock())
      continue;
    std::optional<int64_t> k = getConstant32(add.getSrc0());
    Value x = add.getSrc1();
    if (!k) {
      k = getConstant32(add.getSrc1());
      x = add.getSrc0();
    }
    if (!k || !isVGPR(x) ||
        kernel->isAncestor(x.getParentBlock()->getParentOp()))
      continue;
    Value &sum = sums[{x, *k}];
    if (!sum) {
      OpBuilder b(kernel);
      sum = V_ADD_U32::create(b, add.getLoc(), freshVGPR(b),
                              getImmediate(b, add.getLoc(), *k), x);
    }
    pair->setOperand(0, sum);
    if (add->use_empty())
      add->erase();
    ++hoistedCount;
  }
  return hoistedCount;
}
