//===- DiagnosticCapture.h - this thread's MLIR diagnostics -----*- C++ -*-===//
//
// The MLIRContext is shared by the loop thread (incremental diagnosis),
// the parse thread and the worker (compiling), and its diagnostic handlers
// form one stack. A capture only
// takes the diagnostics emitted on the thread that created it and lets the
// others fall through to their own capture. Diagnostics emitted by MLIR's
// parallel verifier or pass manager on pool threads are re-emitted on the
// calling thread (ParallelDiagnosticHandler), so they are caught too.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_DIAGNOSTICCAPTURE_H
#define WAVEASM_SERVER_DIAGNOSTICCAPTURE_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <string>
#include <thread>
#include <vector>

namespace waveasm::server {

/// A diagnostic taken out of MLIR: location, severity, text, notes.
struct RawDiagnostic {
  mlir::Location loc;
  mlir::DiagnosticSeverity severity;
  std::string message;
  std::vector<std::pair<mlir::Location, std::string>> notes;
};

class DiagnosticCapture {
public:
  explicit DiagnosticCapture(mlir::MLIRContext &context)
      : owner(std::this_thread::get_id()),
        handler(&context, [this](mlir::Diagnostic &diag) {
          if (std::this_thread::get_id() != owner)
            return mlir::failure(); // another thread's capture takes it
          RawDiagnostic raw{
              diag.getLocation(), diag.getSeverity(), diag.str(), {}};
          for (mlir::Diagnostic &note : diag.getNotes())
            raw.notes.emplace_back(note.getLocation(), note.str());
          captured.push_back(std::move(raw));
          return mlir::success();
        }) {}

  std::vector<RawDiagnostic> take() { return std::move(captured); }

private:
  std::thread::id owner;
  std::vector<RawDiagnostic> captured;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_DIAGNOSTICCAPTURE_H
