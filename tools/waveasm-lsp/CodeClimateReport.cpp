//===- CodeClimateReport.cpp - GitLab's code quality report of `check` ----===//
//
// GitLab reads a Code Climate JSON array (one issue per finding) as a
// merge request's code quality report. Paths are relative to the report
// root (--sarif-root, default the current directory, where GitLab runs the
// job); fingerprints stay the same while a finding's file, rule and message
// do, so GitLab tracks an issue across commits that only move it.
//
//===----------------------------------------------------------------------===//

#include "tools/waveasm-lsp/Check.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MD5.h"

using namespace waveasm;
using namespace waveasm::check;
namespace json = llvm::json;

namespace {

llvm::StringRef codeClimateSeverity(lsp::DiagnosticSeverity severity) {
  switch (severity) {
  case lsp::DiagnosticSeverity::Error:
    return "critical";
  case lsp::DiagnosticSeverity::Warning:
    return "major";
  case lsp::DiagnosticSeverity::Information:
    return "minor";
  case lsp::DiagnosticSeverity::Hint:
    return "info";
  }
  return "major";
}

} // namespace

void waveasm::check::writeCodeClimate(llvm::raw_ostream &os,
                                      llvm::ArrayRef<FileReport> files,
                                      llvm::StringRef root) {
  json::Array issues;
  for (const FileReport &file : files) {
    std::string path = relativeToRoot(file.path, root).value_or(file.path);
    // The n-th identical finding of a file gets its own fingerprint.
    llvm::StringMap<unsigned> occurrences;
    for (const lsp::Diagnostic &diag : file.diagnostics) {
      std::string rule = ruleOf(diag).str();
      std::string key = path + '\0' + rule + '\0' + diag.message;
      unsigned nth = occurrences[key]++;
      llvm::MD5 md5;
      md5.update(key);
      md5.update(std::to_string(nth));
      std::string fingerprint(md5.final().digest());
      issues.push_back(json::Object{
          {"type", "issue"},
          {"check_name", rule},
          {"description", diag.message},
          {"categories", json::Array{"Bug Risk"}},
          {"severity", codeClimateSeverity(diag.severity)},
          {"fingerprint", std::move(fingerprint)},
          {"location",
           json::Object{
               {"path", path},
               {"lines", json::Object{{"begin", diag.range.start.line + 1},
                                      {"end", diag.range.end.line + 1}}}}}});
    }
  }
  os << llvm::formatv("{0:2}", json::Value(std::move(issues))) << '\n';
}
