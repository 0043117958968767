//===- DeferredErase.cpp - keep erased ops' memory until a map is built ---===//

#include "pipeline/DeferredErase.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/DenseMap.h"

#include <atomic>
#include <mutex>

using namespace mlir;
using namespace waveasm;

namespace {
// Scopes by top-level op: the pass manager may run passes on other threads
// (one per program), and several compiles may run at once.
std::mutex scopesMutex;
llvm::DenseMap<Operation *, DeferredEraseScope *> &scopes() {
  static llvm::DenseMap<Operation *, DeferredEraseScope *> map;
  return map;
}

Operation *topLevel(Operation *op) {
  while (Operation *parent = op->getParentOp())
    op = parent;
  return op;
}
} // namespace

DeferredEraseScope::DeferredEraseScope(Operation *root) : root(root) {
  std::lock_guard<std::mutex> lock(scopesMutex);
  scopes()[root] = this;
}

DeferredEraseScope::~DeferredEraseScope() {
  {
    std::lock_guard<std::mutex> lock(scopesMutex);
    scopes().erase(root);
  }
  for (Operation *op : erased)
    op->destroy();
}

void waveasm::eraseOp(Operation *op) {
  DeferredEraseScope *scope = nullptr;
  {
    std::lock_guard<std::mutex> lock(scopesMutex);
    if (!scopes().empty())
      scope = scopes().lookup(topLevel(op));
  }
  if (!scope) {
    op->erase();
    return;
  }
  // What erase() does, without freeing: no use of a value of the program
  // may point into the detached op.
  op->dropAllReferences();
  op->remove();
  std::lock_guard<std::mutex> lock(scopesMutex);
  scope->erased.push_back(op);
  scope->erasedSet.insert(op);
}

void waveasm::noteReplacement(Operation *op, Operation *replacement) {
  std::lock_guard<std::mutex> lock(scopesMutex);
  if (scopes().empty())
    return;
  if (DeferredEraseScope *scope = scopes().lookup(topLevel(op)))
    scope->replacements[op] = replacement;
}

namespace {
std::atomic<bool> leakDiscarded{false};
} // namespace

void waveasm::setLeakDiscardedOps(bool leak) { leakDiscarded = leak; }

void waveasm::discardOps(Block &block) {
  if (leakDiscarded && !hasDeferredEraseScope(block.getParentOp())) {
    // Deliberately leaked, with the ops: nothing outside names them.
    auto *graveyard = new Block();
    graveyard->getOperations().splice(graveyard->end(), block.getOperations());
    return;
  }
  for (Operation &op : block)
    op.dropAllReferences();
  while (!block.empty())
    eraseOp(&block.back());
}

bool waveasm::hasDeferredEraseScope(Operation *op) {
  std::lock_guard<std::mutex> lock(scopesMutex);
  return !scopes().empty() && scopes().count(topLevel(op));
}

Operation *DeferredEraseScope::live(Operation *op) const {
  std::lock_guard<std::mutex> lock(scopesMutex);
  // Replacements form chains (a loop rebuilt by two passes), never cycles.
  while (Operation *next = replacements.lookup(op))
    op = next;
  return erasedSet.contains(op) ? nullptr : op;
}
