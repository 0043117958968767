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

#include "ir/ThisThreadDiagnostics.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <string>
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
      : handler(&context, [this](mlir::Diagnostic &diag) {
          RawDiagnostic raw{
              diag.getLocation(), diag.getSeverity(), diag.str(), {}};
          for (mlir::Diagnostic &note : diag.getNotes())
            raw.notes.emplace_back(note.getLocation(), note.str());
          captured.push_back(std::move(raw));
        }) {}

  std::vector<RawDiagnostic> take() { return std::move(captured); }

private:
  std::vector<RawDiagnostic> captured;
  /// Another thread's diagnostics fall through to that thread's capture.
  ThisThreadDiagnosticHandler handler;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_DIAGNOSTICCAPTURE_H
