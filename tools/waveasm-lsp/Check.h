//===- Check.h - `waveasm-lsp check`: the server's analysis, headless -*- C++
//-*-===//
//
// CI runs the same parse, verify, pipeline and lints as the editor, on
// files, and fails the build on findings. Exit codes: 0 clean, 1 findings
// at or above the --fail-on level, 2 usage or I/O error.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TOOLS_WAVEASM_LSP_CHECK_H
#define WAVEASM_TOOLS_WAVEASM_LSP_CHECK_H

#include "analysis/Metrics.h"
#include "pipeline/PipelineSnapshots.h"
#include "protocol/LspTypes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace waveasm::check {

enum class Format { Text, JSON, SARIF, CodeClimate, HTML };

/// One checked file.
struct FileReport {
  std::string path; // as given on the command line
  std::string uri;
  std::vector<lsp::Diagnostic> diagnostics;
  std::vector<ProgramMetrics> metrics; // empty unless the pipeline ran
  std::string metricsTable;            // text format only
  std::string instructionTable;        // text format only
  /// HTML format only: per program and loop, its title and its picture
  /// (server::renderScheduleSvg).
  std::vector<std::pair<std::string, std::string>> schedules;
  /// HTML format only: per loop, its title and its dependence graph
  /// (server::renderDependenceSvg).
  std::vector<std::pair<std::string, std::string>> graphs;
  /// HTML format only: the program after each pass of the pipeline (the
  /// input first), texts only where a pass changed it; the diagnostics of
  /// a pass that failed.
  std::vector<PipelineSnapshot> passes;
  std::vector<lsp::Diagnostic> passDiagnostics;
};

/// `waveasm-lsp check --help`'s text.
llvm::StringRef getUsage();

/// Runs `waveasm-lsp check` with the arguments after "check".
int runCheck(llvm::ArrayRef<std::string> args, llvm::raw_ostream &out,
             llvm::raw_ostream &err);

/// The report formats (CheckReport.cpp).
void writeText(llvm::raw_ostream &os, llvm::ArrayRef<FileReport> files,
               bool tables);
void writeJSON(llvm::raw_ostream &os, llvm::ArrayRef<FileReport> files);
/// SARIF (SarifReport.cpp): URIs under `sarifRoot` are relative to
/// %SRCROOT%, which the report maps to that directory.
void writeSARIF(llvm::raw_ostream &os, llvm::ArrayRef<FileReport> files,
                llvm::StringRef sarifRoot);
/// GitLab's code quality JSON (CodeClimateReport.cpp): paths relative to
/// `root`.
void writeCodeClimate(llvm::raw_ostream &os, llvm::ArrayRef<FileReport> files,
                      llvm::StringRef root);

/// One self-contained HTML page (HtmlReport.cpp): inline CSS and SVG, no
/// script, no reference outside the page.
void writeHTML(llvm::raw_ostream &os, llvm::ArrayRef<FileReport> files);

/// "error", "warning", "info", "hint".
llvm::StringRef severityName(lsp::DiagnosticSeverity severity);

/// The rule a finding belongs to in the reports: its code, or "verifier"
/// for parse and verification errors (which carry none).
llvm::StringRef ruleOf(const lsp::Diagnostic &diag);

/// `path` relative to the directory `root` (both made absolute), or
/// nullopt when it lies outside: the reports' locations under a root.
std::optional<std::string> relativeToRoot(llvm::StringRef path,
                                          llvm::StringRef root);

} // namespace waveasm::check

#endif // WAVEASM_TOOLS_WAVEASM_LSP_CHECK_H
