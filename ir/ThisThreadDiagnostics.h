//===- ThisThreadDiagnostics.h - one thread's diagnostics -------*- C++ -*-===//
//
// An MLIRContext's diagnostic handlers form one stack shared by every
// thread: a module's programs run their passes in parallel, and the
// language server parses, diagnoses and compiles on different threads at
// once. A handler that takes (or swallows) what its own work reports must
// therefore take only what is emitted on its own thread and let the others
// fall through to their handlers; else it swallows another program's
// remarks, or another thread writes the text it records.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_THISTHREADDIAGNOSTICS_H
#define WAVEASM_IR_THISTHREADDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <thread>
#include <utility>

namespace waveasm {

/// A scoped handler for the diagnostics emitted on the thread that created
/// it; the other threads' fall through.
class ThisThreadDiagnosticHandler : public mlir::ScopedDiagnosticHandler {
public:
  /// Swallows this thread's diagnostics (a trial's or a measure's failures
  /// are no error of the user's program).
  explicit ThisThreadDiagnosticHandler(mlir::MLIRContext *ctx)
      : ThisThreadDiagnosticHandler(ctx, [](mlir::Diagnostic &) {}) {}

  /// Passes this thread's diagnostics to `take` (`void(Diagnostic &)`);
  /// they go no further.
  template <typename TakeFn>
  ThisThreadDiagnosticHandler(mlir::MLIRContext *ctx, TakeFn take)
      : ScopedDiagnosticHandler(ctx) {
    setHandler([owner = std::this_thread::get_id(),
                take = std::move(take)](mlir::Diagnostic &diag) mutable {
      if (std::this_thread::get_id() != owner)
        return mlir::failure();
      take(diag);
      return mlir::success();
    });
  }
};

} // namespace waveasm

#endif // WAVEASM_IR_THISTHREADDIAGNOSTICS_H
