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
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_DEFERREDERASE_H
#define WAVEASM_PIPELINE_DEFERREDERASE_H

#include "mlir/IR/Operation.h"

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

private:
  friend void eraseOp(mlir::Operation *op);
  mlir::Operation *root;
  std::vector<mlir::Operation *> erased;
};

/// Erases `op` (no uses of its results may remain), or defers its
/// destruction to the scope of its top-level op.
void eraseOp(mlir::Operation *op);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_DEFERREDERASE_H
