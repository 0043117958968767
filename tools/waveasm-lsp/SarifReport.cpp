//===- SarifReport.cpp - the SARIF 2.1.0 report of `check` ----------------===//
//
// What GitHub code scanning and other SARIF consumers read: every rule
// `check` can report with its metadata, results located by URIs relative to
// %SRCROOT% (the --sarif-root directory, given in originalUriBaseIds) so the
// report is valid on any checkout of the same tree, and the tool's version.
// Lines and columns are 1-based; columns count UTF-16 code units, as LSP
// positions do ("columnKind": "utf16CodeUnits").
//
//===----------------------------------------------------------------------===//

#include "tools/waveasm-lsp/Check.h"

#include "protocol/Uri.h"
#include "server/Settings.h"
#include "support/Version.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

using namespace waveasm;
using namespace waveasm::check;
namespace json = llvm::json;

namespace {

constexpr llvm::StringLiteral kSrcRoot = "%SRCROOT%";

/// One rule of the catalogue.
struct Rule {
  std::string id; // the diagnostic's code
  llvm::StringRef friendlyName;
  llvm::StringRef summary;
  llvm::StringRef help;
  llvm::StringRef defaultLevel; // SARIF level
};

llvm::StringRef sarifLevel(server::LintSeverity severity) {
  switch (severity) {
  case server::LintSeverity::Off:
    return "none";
  case server::LintSeverity::Hint:
  case server::LintSeverity::Info:
    return "note";
  case server::LintSeverity::Warning:
    return "warning";
  case server::LintSeverity::Error:
    return "error";
  }
  return "note";
}

llvm::StringRef sarifLevel(lsp::DiagnosticSeverity severity) {
  switch (severity) {
  case lsp::DiagnosticSeverity::Error:
    return "error";
  case lsp::DiagnosticSeverity::Warning:
    return "warning";
  default:
    return "note";
  }
}

/// Every rule `check` can report, in a fixed order (results refer to them
/// by index): parse and verification errors, pipeline failures, each lint,
/// the --max-vgpr threshold.
std::vector<Rule> ruleCatalogue() {
  std::vector<Rule> rules;
  rules.push_back({"verifier", "InvalidIR", "The IR does not parse or verify.",
                   "Fix the operation at the reported location; the message "
                   "is the MLIR parser's or the WaveASM verifier's.",
                   "error"});
  rules.push_back(
      {"pipeline", "PipelineFailure",
       "The backend pipeline (allocation, waits, hazards) failed or reports "
       "the register peak.",
       "An error means the program cannot be compiled as written (most often "
       "more registers live than the program's limit allows); reduce the "
       "pressure at the reported peak or raise the program's register "
       "budget.",
       "error"});
  server::ServerSettings defaults;
  for (unsigned i = 0; i < server::kNumLintCodes; ++i) {
    auto code = static_cast<server::LintCode>(i);
    server::LintDescription lint = server::describeLint(code);
    rules.push_back({server::stringifyLintCode(code).str(), lint.friendlyName,
                     lint.summary, lint.help,
                     sarifLevel(defaults.severityOf(code))});
  }
  rules.push_back({"max-vgpr", "VGPRBudgetExceeded",
                   "A program uses more VGPRs than --max-vgpr allows.",
                   "Reduce the program's VGPR peak below the budget or raise "
                   "--max-vgpr.",
                   "error"});
  return rules;
}

json::Object region(const lsp::Range &range) {
  return json::Object{{"startLine", range.start.line + 1},
                      {"startColumn", range.start.character + 1},
                      {"endLine", range.end.line + 1},
                      {"endColumn", range.end.character + 1}};
}

/// Where each artifact is: relative to %SRCROOT% when under the root, else
/// its absolute URI (stdin has no file and keeps "stdin").
class ArtifactLocations {
public:
  explicit ArtifactLocations(llvm::StringRef root) : root(root) {}

  json::Object rootLocation() const {
    std::string uri = lsp::pathToUri(root);
    if (!llvm::StringRef(uri).ends_with("/"))
      uri += '/';
    return json::Object{{"uri", std::move(uri)}};
  }

  /// The artifactLocation of file `index` of the report.
  json::Object forFile(const FileReport &file, unsigned index) const {
    json::Object location = forUri(file.uri);
    location["index"] = index;
    return location;
  }

  json::Object forUri(llvm::StringRef uri) const {
    std::optional<std::string> path = lsp::uriToPath(uri);
    std::optional<std::string> relative =
        path ? relativeToRoot(*path, root) : std::nullopt;
    if (!relative)
      return json::Object{{"uri", uri}};
    return json::Object{{"uri", lsp::escapeUriPath(*relative)},
                        {"uriBaseId", kSrcRoot}};
  }

private:
  std::string root;
};

} // namespace

void waveasm::check::writeSARIF(llvm::raw_ostream &os,
                                llvm::ArrayRef<FileReport> files,
                                llvm::StringRef sarifRoot) {
  std::vector<Rule> rules = ruleCatalogue();
  llvm::StringMap<unsigned> ruleIndex;
  for (auto [i, rule] : llvm::enumerate(rules))
    ruleIndex[rule.id] = i;
  ArtifactLocations locations(sarifRoot);

  json::Array results;
  for (auto [fileIndex, file] : llvm::enumerate(files)) {
    for (const lsp::Diagnostic &diag : file.diagnostics) {
      llvm::StringRef rule = ruleOf(diag);
      json::Object physical{
          {"artifactLocation", locations.forFile(file, fileIndex)},
          {"region", region(diag.range)}};
      json::Object result{
          {"ruleId", rule},
          {"level", sarifLevel(diag.severity)},
          {"message", json::Object{{"text", diag.message}}},
          {"locations", json::Array{json::Object{
                            {"physicalLocation", std::move(physical)}}}}};
      // A code the catalogue does not know still gets its result; SARIF
      // only needs the index when the rule exists.
      auto known = ruleIndex.find(rule);
      if (known != ruleIndex.end())
        result["ruleIndex"] = known->second;
      if (!diag.related.empty()) {
        json::Array related;
        for (const lsp::DiagnosticRelatedInformation &info : diag.related)
          related.push_back(json::Object{
              {"message", json::Object{{"text", info.message}}},
              {"physicalLocation",
               json::Object{
                   {"artifactLocation", locations.forUri(info.location.uri)},
                   {"region", region(info.location.range)}}}});
        result["relatedLocations"] = std::move(related);
      }
      results.push_back(std::move(result));
    }
  }

  json::Array ruleList;
  for (const Rule &rule : rules)
    ruleList.push_back(json::Object{
        {"id", rule.id},
        {"name", rule.friendlyName},
        {"shortDescription", json::Object{{"text", rule.summary}}},
        {"fullDescription",
         json::Object{{"text", (rule.summary + " " + rule.help).str()}}},
        {"help", json::Object{{"text", rule.help}}},
        {"defaultConfiguration", json::Object{{"level", rule.defaultLevel}}}});
  json::Array artifacts;
  for (auto [i, file] : llvm::enumerate(files))
    artifacts.push_back(json::Object{{"location", locations.forFile(file, i)},
                                     {"roles", json::Array{"analysisTarget"}},
                                     {"sourceLanguage", "mlir"}});
  json::Object driver{
      {"name", "waveasm-lsp"},
      {"fullName", getVersionLine("waveasm-lsp check")},
      {"version", getVersion()},
      {"semanticVersion", getVersion()},
      {"properties", json::Object{{"gitRevision", getGitRevision()}}},
      {"rules", std::move(ruleList)}};
  json::Object run{{"tool", json::Object{{"driver", std::move(driver)}}},
                   {"originalUriBaseIds",
                    json::Object{{kSrcRoot, locations.rootLocation()}}},
                   {"columnKind", "utf16CodeUnits"},
                   {"artifacts", std::move(artifacts)},
                   {"results", std::move(results)}};
  json::Object root{
      {"version", "2.1.0"},
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"runs", json::Array{std::move(run)}}};
  os << llvm::formatv("{0:2}", json::Value(std::move(root))) << '\n';
}
