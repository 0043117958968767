//===- DeferredErase.h - keep erased ops' memory until a map is built -----===//
//
// compileAndMeasure maps compiled ops back to input ops by the clone's
// pointers. A pass that erases an op (a wait merged into a new one, a
// rematerialized constant) frees its memory, and a later op may be
// allocated at the same address: the map would then name the new op as the
// copy of the erased one, depending on the heap's state. Passes erase
// through eraseOp(); while a DeferredEraseScope exists for the op's
// top-level module, the op is detached (its uses dropped) but destroyed only
// when the scope ends, so no address is reused while the map is built.
// Passes that rebuild an op (a loop with other iter_args) report the
// replacement, so the map follows the op to its new form.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_DEFERREDERASE_H
#define WAVEASM_PIPELINE_DEFERREDERASE_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace waveasm {

class DeferredEraseScope {
public:
  /// Defers the erasures of ops nested in `root` (a top-level module).
  explicit DeferredEraseScope(mlir::Operation *root);
  /// Destroys the deferred ops.
  ~DeferredEraseScope();
  DeferredEraseScope(const DeferredEraseScope &) = delete;
  DeferredEraseScope &operator=(const DeferredEraseScope &) = delete;

  /// What became of `op` (an op of the scope's module before the passes):
  /// `op` itself, the op that replaced it (following replacements), or null
  /// when it was erased.
  mlir::Operation *live(mlir::Operation *op) const;

private:
  friend void eraseOp(mlir::Operation *op);
  friend void noteReplacement(mlir::Operation *op,
                              mlir::Operation *replacement);
  mlir::Operation *root;
  std::vector<mlir::Operation *> erased;
  llvm::DenseSet<mlir::Operation *> erasedSet;
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> replacements;
};

/// Erases `op` (no uses of its results may remain), or defers its
/// destruction to the scope of its top-level op.
void eraseOp(mlir::Operation *op);

/// Records that `replacement` took the place of `op` (which the pass then
/// erases), for the scope of their top-level op, if any.
void noteReplacement(mlir::Operation *op, mlir::Operation *replacement);

/// Whether a scope covers `op`'s top-level op: without one, eraseOp erases
/// at once and noteReplacement records nothing, so a caller may skip
/// working out replacements it would only report.
bool hasDeferredEraseScope(mlir::Operation *op);

/// A process that ends right after its passes (waveasm-opt) may tell the
/// passes not to free what they discard whole: see discardOps.
void setLeakDiscardedOps(bool leak);

/// Erases every op of `block` (their values used only among themselves), as
/// eraseOp would. With setLeakDiscardedOps(true) and no deferred-erase
/// scope, the ops move to a block of their own that is never destroyed
/// instead: erasing a replaced 20k-op program body op by op was 1% of a
/// waveasm-opt run, for memory the process gives back when it exits.
void discardOps(mlir::Block &block);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_DEFERREDERASE_H
