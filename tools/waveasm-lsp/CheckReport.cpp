//===- CheckReport.cpp - text, JSON and SARIF reports of `check` ----------===//
//
// Lines and columns are 1-based in every format (editors and CI annotate
// that way); columns count UTF-16 code units, as LSP positions do, which
// SARIF states with "columnKind": "utf16CodeUnits".
//
//===----------------------------------------------------------------------===//

#include "tools/waveasm-lsp/Check.h"

#include "llvm/ADT/StringMap.h"
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

namespace {

/// The rule a diagnostic belongs to: its code, or "verifier" for parse and
/// verification errors (which carry none).
llvm::StringRef ruleOf(const lsp::Diagnostic &diag) {
  return diag.code.empty() ? llvm::StringRef("verifier")
                           : llvm::StringRef(diag.code);
}

llvm::StringRef describeRule(llvm::StringRef rule) {
  if (rule == "verifier")
    return "The IR does not parse or verify.";
  if (rule == "pipeline")
    return "The backend pipeline (allocation, waits, hazards) failed.";
  if (rule == "stall")
    return "An instruction waits for a register operand.";
  if (rule == "pressure")
    return "Register pressure crosses an occupancy breakpoint.";
  if (rule == "hazard")
    return "The pipeline inserted nops to resolve a hazard.";
  if (rule == "waitcnt")
    return "An inserted s_waitcnt waits long for memory.";
  if (rule == "max-vgpr")
    return "A program uses more VGPRs than --max-vgpr allows.";
  return "WaveASM finding.";
}

llvm::StringRef sarifLevel(lsp::DiagnosticSeverity s) {
  switch (s) {
  case lsp::DiagnosticSeverity::Error:
    return "error";
  case lsp::DiagnosticSeverity::Warning:
    return "warning";
  default:
    return "note";
  }
}

json::Object region(const lsp::Range &range) {
  return json::Object{{"startLine", range.start.line + 1},
                      {"startColumn", range.start.character + 1},
                      {"endLine", range.end.line + 1},
                      {"endColumn", range.end.character + 1}};
}

} // namespace

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
                    {"files", std::move(fileList)},
                    {"summary", json::Object{{"errors", counts[1]},
                                             {"warnings", counts[2]},
                                             {"infos", counts[3]},
                                             {"hints", counts[4]}}}};
  os << llvm::formatv("{0:2}", json::Value(std::move(root))) << '\n';
}

void waveasm::check::writeSARIF(llvm::raw_ostream &os,
                                llvm::ArrayRef<FileReport> files) {
  // Rules in order of first appearance; results refer to them by index.
  std::vector<std::string> rules;
  llvm::StringMap<unsigned> ruleIndex;
  json::Array results;
  for (const FileReport &file : files) {
    for (const lsp::Diagnostic &diag : file.diagnostics) {
      llvm::StringRef rule = ruleOf(diag);
      auto [it, inserted] = ruleIndex.try_emplace(rule, rules.size());
      if (inserted)
        rules.push_back(rule.str());
      json::Object physical{
          {"artifactLocation", json::Object{{"uri", file.uri}}},
          {"region", region(diag.range)}};
      json::Object result{
          {"ruleId", rule},
          {"ruleIndex", it->second},
          {"level", sarifLevel(diag.severity)},
          {"message", json::Object{{"text", diag.message}}},
          {"locations", json::Array{json::Object{
                            {"physicalLocation", std::move(physical)}}}}};
      if (!diag.related.empty()) {
        json::Array related;
        for (const lsp::DiagnosticRelatedInformation &info : diag.related)
          related.push_back(json::Object{
              {"message", json::Object{{"text", info.message}}},
              {"physicalLocation",
               json::Object{{"artifactLocation",
                             json::Object{{"uri", info.location.uri}}},
                            {"region", region(info.location.range)}}}});
        result["relatedLocations"] = std::move(related);
      }
      results.push_back(std::move(result));
    }
  }
  json::Array ruleList;
  for (const std::string &rule : rules)
    ruleList.push_back(json::Object{
        {"id", rule},
        {"shortDescription", json::Object{{"text", describeRule(rule)}}}});
  json::Array artifacts;
  for (const FileReport &file : files)
    artifacts.push_back(
        json::Object{{"location", json::Object{{"uri", file.uri}}}});
  json::Object run{
      {"tool",
       json::Object{{"driver", json::Object{{"name", "waveasm-lsp"},
                                            {"version", "0.1.0"},
                                            {"rules", std::move(ruleList)}}}}},
      {"columnKind", "utf16CodeUnits"},
      {"artifacts", std::move(artifacts)},
      {"results", std::move(results)}};
  json::Object root{
      {"version", "2.1.0"},
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"runs", json::Array{std::move(run)}}};
  os << llvm::formatv("{0:2}", json::Value(std::move(root))) << '\n';
}
