//===- LoadsBehindStores.cpp - loads only a declaration could move ahead --===//
//
// See LoadsBehindStores.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/LoadsBehindStores.h"

#include "analysis/MemoryAlias.h"
#include "analysis/PointerRoots.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace mlir;
using namespace waveasm;

namespace {

/// The SGPRs [first, first + size) of a descriptor preset in registers.
std::optional<std::pair<int64_t, int64_t>> precoloredRange(Value pointer) {
  auto preset = pointer.getDefiningOp<PrecoloredSRegOp>();
  if (!preset)
    return std::nullopt;
  return std::make_pair(int64_t(preset.getIndex()), int64_t(preset.getSize()));
}

/// The two pointers of `store` and `load` in words and the declaration
/// that would separate them; empty when none would.
std::string declarationApart(Operation *store, Operation *load) {
  // Two kernel arguments: PointerRoots' own proposal (only one that would
  // separate them).
  if (std::string hint = noAliasHint(store, load); !hint.empty())
    return hint;
  Value storePointer = getAddressPointer(store);
  Value loadPointer = getAddressPointer(load);
  if (!storePointer || !loadPointer)
    return "";
  auto s = precoloredRange(storePointer), l = precoloredRange(loadPointer);
  if (!s || !l ||
      (s->first < l->first + l->second && l->first < s->first + s->second))
    return "";
  auto name = [](std::pair<int64_t, int64_t> r) {
    return llvm::formatv("s[{0}:{1}]", r.first, r.first + r.second - 1).str();
  };
  return llvm::formatv("through the precolored descriptors {0} and {1}, "
                       "which no declaration covers: if their memory never "
                       "overlaps, build them from the kernel arguments "
                       "(s_load_dwordx2 of the kernarg pointer) and declare "
                       "those in noalias_args on waveasm.program",
                       name(*l), name(*s))
      .str();
}

void findInLoop(LoopOp loop, std::vector<LoadBehindStore> &out) {
  Block &body = loop.getBodyBlock();
  // Only a loop holding another loop is rotated around its kernel (an `if`
  // alone moves no load ahead of a store).
  if (!body.walk([](LoopOp) { return WalkResult::interrupt(); })
           .wasInterrupted())
    return;
  // The body's global stores (nested ones at their top-level op's place).
  SmallVector<std::pair<Operation *, unsigned>> stores;
  unsigned position = 0;
  for (Operation &top : body.without_terminator()) {
    top.walk([&](Operation *op) {
      if (!op->getNumRegions() && (memWrites(op) & MemGlobal))
        stores.push_back({op, position});
    });
    ++position;
  }
  position = 0;
  for (Operation &op : body.without_terminator()) {
    unsigned at = position++;
    if (op.getNumRegions() || !(memReads(&op) & MemGlobal) || writesMemory(&op))
      continue;
    // The store issued last before the load: the nearest one before it in
    // the body, else the previous iteration's last one.
    const std::pair<Operation *, unsigned> *latest = nullptr;
    std::string latestDeclaration;
    bool sameIteration = false, separable = true;
    for (const auto &store : stores) {
      if (alias(store.first, &op) == AliasResult::NoAlias)
        continue;
      std::string declaration = declarationApart(store.first, &op);
      if (declaration.empty()) {
        // A declaration would not let the load pass this store.
        separable = false;
        break;
      }
      bool before = store.second < at;
      if (!latest || (before && !sameIteration) ||
          (before == sameIteration && store.second >= latest->second)) {
        latest = &store;
        latestDeclaration = std::move(declaration);
        sameIteration = before;
      }
    }
    if (!separable || !latest)
      continue;
    out.push_back(
        {&op, latest->first, sameIteration, std::move(latestDeclaration)});
  }
}

} // namespace

std::vector<LoadBehindStore> waveasm::findLoadsBehindStores(ProgramOp program) {
  std::vector<LoadBehindStore> out;
  program.walk<WalkOrder::PreOrder>(
      [&](LoopOp loop) { findInLoop(loop, out); });
  return out;
}
