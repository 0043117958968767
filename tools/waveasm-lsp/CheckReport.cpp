//===- CheckReport.cpp - text and JSON reports of `check`
//------------------===//
//
// Lines and columns are 1-based in every format (editors and CI annotate
// that way); columns count UTF-16 code units, as LSP positions do.
// SarifReport.cpp writes the SARIF format.
//
//===----------------------------------------------------------------------===//

#include "tools/waveasm-lsp/Check.h"

#include "protocol/Uri.h"

#include "support/Version.h"

#include "llvm/Support/JSON.h"

using namespace waveasm;
using namespace waveasm::check;
namespace json = llvm::json;

llvm::StringRef waveasm::check::severityName(lsp::DiagnosticSeverity s) {
  switch (s) {
  case lsp::DiagnosticSeverity::Error:
    return "error";
  case lsp::DiagnosticSeverity::Warning:
    return "warning";
  case lsp::DiagnosticSeverity::Information:
    return "info";
  case lsp::DiagnosticSeverity::Hint:
    return "hint";
  }
  return "error";
}

llvm::StringRef waveasm::check::ruleOf(const lsp::Diagnostic &diag) {
  return diag.code.empty() ? llvm::StringRef("verifier")
                           : llvm::StringRef(diag.code);
}

std::optional<std::string>
waveasm::check::relativeToRoot(llvm::StringRef path, llvm::StringRef root) {
  std::string absolute = lsp::makeAbsolutePath(path);
  std::string base = lsp::makeAbsolutePath(root);
  llvm::StringRef rest = absolute;
  if (!rest.consume_front(base))
    return std::nullopt;
  // "/a/bc" is not under "/a/b"; under "/" everything is.
  if (!rest.starts_with("/") && !llvm::StringRef(base).ends_with("/"))
    return std::nullopt;
  return rest.ltrim('/').str();
}

void waveasm::check::writeText(llvm::raw_ostream &os,
                               llvm::ArrayRef<FileReport> files, bool tables) {
  unsigned counts[5] = {0, 0, 0, 0, 0};
  for (const FileReport &file : files) {
    for (const lsp::Diagnostic &diag : file.diagnostics) {
      ++counts[static_cast<int>(diag.severity)];
      os << file.path << ':' << diag.range.start.line + 1 << ':'
         << diag.range.start.character + 1 << ": "
         << severityName(diag.severity) << ": " << diag.message;
      if (!diag.code.empty())
        os << " [" << diag.code << ']';
      os << '\n';
      for (const lsp::DiagnosticRelatedInformation &related : diag.related)
        os << file.path << ':' << related.location.range.start.line + 1 << ':'
           << related.location.range.start.character + 1
           << ": note: " << related.message << '\n';
    }
    if (!tables)
      continue;
    if (!file.metricsTable.empty())
      os << '\n' << file.path << ": metrics\n" << file.metricsTable;
    if (!file.instructionTable.empty())
      os << '\n' << file.path << ": instructions\n" << file.instructionTable;
  }
  os << llvm::formatv("{0} file(s): {1} error(s), {2} warning(s), {3} "
                      "info, {4} hint(s)\n",
                      files.size(), counts[1], counts[2], counts[3], counts[4]);
}

void waveasm::check::writeJSON(llvm::raw_ostream &os,
                               llvm::ArrayRef<FileReport> files) {
  json::Array fileList;
  int64_t counts[5] = {0, 0, 0, 0, 0};
  for (const FileReport &file : files) {
    json::Array diagnostics;
    for (const lsp::Diagnostic &diag : file.diagnostics) {
      ++counts[static_cast<int>(diag.severity)];
      json::Object entry{{"line", diag.range.start.line + 1},
                         {"column", diag.range.start.character + 1},
                         {"endLine", diag.range.end.line + 1},
                         {"endColumn", diag.range.end.character + 1},
                         {"severity", severityName(diag.severity)},
                         {"message", diag.message}};
      entry["code"] =
          diag.code.empty() ? json::Value(nullptr) : json::Value(diag.code);
      diagnostics.push_back(std::move(entry));
    }
    json::Value metrics = metricsToJSON(file.metrics);
    fileList.push_back(json::Object{{"path", file.path},
                                    {"uri", file.uri},
                                    {"diagnostics", std::move(diagnostics)},
                                    {"metrics", std::move(metrics)}});
  }
  json::Object root{{"tool", "waveasm-lsp check"},
                    {"version", getVersion()},
                    {"files", std::move(fileList)},
                    {"summary", json::Object{{"errors", counts[1]},
                                             {"warnings", counts[2]},
                                             {"infos", counts[3]},
                                             {"hints", counts[4]}}}};
  os << llvm::formatv("{0:2}", json::Value(std::move(root))) << '\n';
}
