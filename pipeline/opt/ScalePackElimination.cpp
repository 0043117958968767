//===- ScalePackElimination.cpp - one dword instead of four byte iter_args ===//
//
// `waveasm-scale-pack-elimination` (SPEC.md 18.1). A scale dword split into
// bytes before the loop and at its end,
//
//   init:  b_k = v_bfe_u32(X, 8k, 8)        yield: b_k' = v_bfe_u32(Y, 8k, 8)
//   body:  p = v_lshl_or_b32(B3, 24, v_lshl_or_b32(B2, 16,
//                            v_lshl_or_b32(B1, 8, B0)))
//
// with B0..B3 four distinct block arguments of the loop used only by the
// chain, and single-use inner and middle ops, is an identity round trip: p
// equals the dword of the previous iteration. The loop is rebuilt with one
// dword iter_arg per chain (appended, init X, yield Y) instead of the four
// byte positions; p becomes that block argument; the chain and the in-loop
// yield-side extracts that fed only the condition are erased. Results of
// dropped byte positions that are used after the loop are re-extracted there
// with `v_bfe_u32(result, 8k, 8)`; pre-loop extracts are left for
// canonicalize. Inner loops are rewritten before the loops around them.
//
// Besides upstream's conditions, the init dword, the yielded dword and p
// must have one type (the new block argument takes the place of all three).
// A chain that does not match is left alone; `--debug-only=<flag name>`
// says why.
//
//===----------------------------------------------------------------------===//

#include "pipeline/DeferredErase.h"
#include "pipeline/Passes.h"
#include "pipeline/opt/LoopRewrite.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#include <array>

#define DEBUG_TYPE "waveasm-scale-pack-elimination"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMSCALEPACKELIMINATION
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

constexpr unsigned kBytes = 4;

/// One matched repack chain of a loop.
struct PackChain {
  V_LSHL_OR_B32 outer, middle, inner;
  /// Block-argument position of byte k (bits 8k..8k+7).
  std::array<unsigned, kBytes> positions;
  Value initDword, yieldDword;
};

/// `op` is a v_lshl_or_b32 whose shift is the constant `shift`.
V_LSHL_OR_B32 getLshlOr(Value value, int64_t shift) {
  auto op = value.getDefiningOp<V_LSHL_OR_B32>();
  if (op && getConstantValue(op.getSrc1()) == shift)
    return op;
  return {};
}

/// X when `bytes[k]` is v_bfe_u32(X, 8k, 8) for every k.
Value matchByteExtracts(ArrayRef<Value> bytes) {
  Value source;
  for (auto [k, byte] : llvm::enumerate(bytes)) {
    auto bfe = byte.getDefiningOp<V_BFE_U32>();
    if (!bfe || getConstantValue(bfe.getSrc1()) != int64_t(8 * k) ||
        getConstantValue(bfe.getSrc2()) != 8)
      return {};
    if (k == 0)
      source = bfe.getSrc0();
    else if (bfe.getSrc0() != source)
      return {};
  }
  return source;
}

/// Why `outer` (a v_lshl_or_b32 by 24 of the chain shape) cannot be
/// rewritten, or nullptr when it can (then `chain` is filled in).
const char *matchChain(LoopOp loop, V_LSHL_OR_B32 outer, PackChain &chain) {
  chain.outer = outer;
  chain.middle = getLshlOr(outer.getSrc2(), 16);
  chain.inner = chain.middle ? getLshlOr(chain.middle.getSrc2(), 8) : nullptr;
  if (!chain.inner)
    return nullptr; // not the chain shape at all: nothing to explain
  Block &body = loop.getBodyBlock();
  std::array<Value, kBytes> byteArgs = {
      chain.inner.getSrc2(), chain.inner.getSrc0(), chain.middle.getSrc0(),
      outer.getSrc0()};
  llvm::SmallPtrSet<Operation *, 1> seen;
  for (auto [k, value] : llvm::enumerate(byteArgs)) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg || arg.getOwner() != &body)
      return "a byte input is not a block argument of this loop";
    chain.positions[k] = arg.getArgNumber();
  }
  for (unsigned i = 0; i < kBytes; ++i)
    for (unsigned j = i + 1; j < kBytes; ++j)
      if (chain.positions[i] == chain.positions[j])
        return "the byte inputs are not four distinct block arguments";
  for (Value arg : byteArgs)
    if (!arg.hasOneUse())
      return "a byte block argument has uses besides the chain";
  if (!chain.inner->getResult(0).hasOneUse() ||
      !chain.middle->getResult(0).hasOneUse())
    return "the inner or middle v_lshl_or_b32 has more than one use";

  ConditionOp cond = loop.getConditionOp();
  std::array<Value, kBytes> inits, yields;
  for (unsigned k = 0; k < kBytes; ++k) {
    inits[k] = loop.getInitArgs()[chain.positions[k]];
    yields[k] = cond.getIterArgs()[chain.positions[k]];
  }
  chain.initDword = matchByteExtracts(inits);
  if (!chain.initDword)
    return "the inits are not v_bfe_u32(X, 0/8/16/24, 8) of one value";
  chain.yieldDword = matchByteExtracts(yields);
  if (!chain.yieldDword)
    return "the yielded values are not v_bfe_u32(Y, 0/8/16/24, 8) of one "
           "value";
  Type type = outer.getType();
  if (chain.initDword.getType() != type || chain.yieldDword.getType() != type)
    return "the init or yielded dword has another type than the repacked "
           "value";
  return nullptr;
}

/// The chains of `loop` that can be rewritten (ops nested in inner loops
/// belong to those loops).
/// Calls `visit` on the ops of `region` in pre-order (Region::walk's
/// order, inlined), without entering nested loops: their chains are
/// theirs.
template <typename Fn>
void forEachOpOutsideNestedLoops(Region &region, Fn &&visit) {
  for (Block &block : region)
    for (Operation &op : block) {
      if (isa<LoopOp>(op))
        continue;
      visit(&op);
      for (Region &nested : op.getRegions())
        forEachOpOutsideNestedLoops(nested, visit);
    }
}

SmallVector<PackChain> findChains(LoopOp loop) {
  SmallVector<PackChain> chains;
  if (!loop.getConditionOp())
    return chains;
  forEachOpOutsideNestedLoops(loop.getBody(), [&](Operation *op) {
    auto outer = dyn_cast<V_LSHL_OR_B32>(op);
    if (!outer || getConstantValue(outer.getSrc1()) != 24)
      return;
    PackChain chain;
    const char *why = matchChain(loop, outer, chain);
    if (why) {
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE << ": chain at " << outer.getLoc()
                              << " not rewritten: " << why << "\n");
    } else if (chain.inner) {
      chains.push_back(chain);
    }
  });
  return chains;
}

void rewriteLoop(LoopOp loop, ArrayRef<PackChain> chains) {
  Block &body = loop.getBodyBlock();
  ConditionOp cond = loop.getConditionOp();
  unsigned numArgs = body.getNumArguments();
  llvm::BitVector dropped(numArgs);
  // Byte k of chain c, for the results re-extracted after the loop.
  SmallVector<std::pair<unsigned, unsigned>> byteOf(numArgs);
  for (auto [c, chain] : llvm::enumerate(chains))
    for (auto [k, position] : llvm::enumerate(chain.positions)) {
      dropped.set(position);
      byteOf[position] = {unsigned(c), unsigned(k)};
    }

  SmallVector<Value> inits, iterArgs;
  SmallVector<int64_t> oldToNew(numArgs, -1);
  for (unsigned i = 0; i < numArgs; ++i) {
    if (dropped.test(i))
      continue;
    oldToNew[i] = inits.size();
    inits.push_back(loop.getInitArgs()[i]);
    iterArgs.push_back(cond.getIterArgs()[i]);
  }
  unsigned firstDword = inits.size();
  // A BFE may be yielded at two positions (by two chains).
  llvm::SetVector<Operation *> yieldExtracts;
  for (const PackChain &chain : chains) {
    inits.push_back(chain.initDword);
    iterArgs.push_back(chain.yieldDword);
    for (unsigned position : chain.positions)
      if (Operation *bfe = cond.getIterArgs()[position].getDefiningOp())
        if (loop->isProperAncestor(bfe))
          yieldExtracts.insert(bfe);
  }
  // The condition first: a yielded dword that is the repacked value itself
  // then follows it to the new block argument below.
  cond.getIterArgsMutable().assign(iterArgs);
  for (PackChain chain : chains) {
    BlockArgument dword =
        body.addArgument(chain.outer.getType(), chain.outer.getLoc());
    chain.outer.getResult().replaceAllUsesWith(dword);
    eraseOp(chain.outer);
    eraseOp(chain.middle);
    eraseOp(chain.inner);
  }
  for (Operation *bfe : yieldExtracts)
    if (bfe->use_empty())
      eraseOp(bfe);
  // Sized to the block's arguments now: eraseArguments tests every
  // argument's index, and the dwords' new arguments lie past `numArgs`
  // (a bit vector of the old size read past its end there and, with 64 or
  // more arguments, outside its storage, erasing a new argument at random).
  dropped.resize(body.getNumArguments());
  body.eraseArguments(dropped);

  replaceLoop(loop, inits, oldToNew,
              [&](OpBuilder &b, LoopOp newLoop, unsigned oldResult) -> Value {
                auto [c, k] = byteOf[oldResult];
                Location loc = loop.getLoc();
                return V_BFE_U32::create(
                    b, loc, loop.getResult(oldResult).getType(),
                    newLoop.getResult(firstDword + c),
                    getImmediate(b, loc, 8 * k), getImmediate(b, loc, 8));
              });
}

struct ScalePackEliminationPass
    : public waveasm::impl::WaveASMScalePackEliminationBase<
          ScalePackEliminationPass> {
  void runOnOperation() override {
    for (LoopOp loop : collectLoopsInnerFirst(getOperation())) {
      if (isRegisterAllocated(loop)) {
        LLVM_DEBUG(llvm::dbgs()
                   << DEBUG_TYPE << ": loop at " << loop.getLoc()
                   << " not rewritten: it is register-allocated\n");
        continue;
      }
      SmallVector<PackChain> chains = findChains(loop);
      if (chains.empty())
        continue;
      LLVM_DEBUG(llvm::dbgs()
                 << DEBUG_TYPE << ": loop at " << loop.getLoc() << ": "
                 << chains.size() << " chain(s), " << loop.getInitArgs().size()
                 << " -> " << loop.getInitArgs().size() - 3 * chains.size()
                 << " iter_args\n");
      rewriteLoop(loop, chains);
    }
  }
};

} // namespace
