//===- Check.cpp - `waveasm-lsp check`: the server's analysis, headless
//----===//

#include "tools/waveasm-lsp/Check.h"

#include "protocol/Uri.h"
#include "server/DocumentState.h"
#include "server/Features.h"
#include "server/runtime/SettingsJSON.h"
#include "support/BoundedJson.h"
#include "support/Version.h"

#include "ir/Dialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace waveasm;
using namespace waveasm::check;
using waveasm::server::CompiledDocument;
using waveasm::server::ParsedDocument;

namespace {

constexpr const char *kUsage =
    "usage: waveasm-lsp check [options] FILE...\n"
    "  --format text|json|sarif|codeclimate|html\n"
    "                             report format (default text; codeclimate:\n"
    "                             GitLab's code quality JSON; html: one\n"
    "                             self-contained page with the schedule\n"
    "                             pictures of every program and loop, each\n"
    "                             loop's dependence graph and each pass's\n"
    "                             diff)\n"
    "  --sarif-root DIR           SARIF: locations relative to DIR, the\n"
    "                             report's %SRCROOT%; codeclimate: paths\n"
    "                             relative to DIR (default: the current\n"
    "                             directory)\n"
    "  --only-waveasm             skip files without a waveasm.program (for\n"
    "                             hooks and globs over every *.mlir file)\n"
    "  --fail-on warning|error|none\n"
    "                             exit 1 on findings at least this severe;\n"
    "                             none: only usage and I/O errors fail\n"
    "                             (default error)\n"
    "  --max-vgpr N               report programs using more than N VGPRs\n"
    "                             (an error)\n"
    "  --target NAME              analyse every program for this target\n"
    "  --pipeline full|backend    the production pipeline with upstream's\n"
    "                             optimizations (default), or allocation,\n"
    "                             waits and hazards only (the IR as written)\n"
    "  --settings FILE            settings in the server's JSON shape\n"
    "  --no-tables                text format: no metrics/instruction tables\n"
    "  --version                  print the version and exit\n"
    "exit status: 0 clean, 1 findings at or above --fail-on, 2 usage or I/O "
    "error\n";

struct Options {
  Format format = Format::Text;
  /// nullopt: findings never fail (a report for code scanning).
  std::optional<lsp::DiagnosticSeverity> failOn =
      lsp::DiagnosticSeverity::Error;
  std::optional<int64_t> maxVGPR;
  bool tables = true;
  bool onlyWaveASM = false;
  std::string sarifRoot = ".";
  server::ServerSettings settings;
  std::vector<std::string> files;
};

/// Parses the arguments; returns an error message for bad usage.
std::optional<std::string> parseOptions(llvm::ArrayRef<std::string> args,
                                        Options &options) {
  std::string target;
  for (size_t i = 0; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg == "--") {
      for (++i; i < args.size(); ++i)
        options.files.push_back(args[i]);
      break;
    }
    if (!arg.starts_with("-") || arg == "-") {
      options.files.push_back(arg.str());
      continue;
    }
    // --name=value or --name value.
    auto [name, inlineValue] = arg.split('=');
    bool hasInline = arg.contains('=');
    auto value = [&](std::string &out) -> bool {
      if (hasInline) {
        out = inlineValue.str();
        return true;
      }
      if (i + 1 >= args.size())
        return false;
      out = args[++i];
      return true;
    };
    std::string v;
    if (name == "--no-tables" && !hasInline) {
      options.tables = false;
    } else if (name == "--only-waveasm" && !hasInline) {
      options.onlyWaveASM = true;
    } else if (name == "--format") {
      if (!value(v))
        return "--format needs a value";
      if (v == "text")
        options.format = Format::Text;
      else if (v == "json")
        options.format = Format::JSON;
      else if (v == "sarif")
        options.format = Format::SARIF;
      else if (v == "codeclimate")
        options.format = Format::CodeClimate;
      else if (v == "html")
        options.format = Format::HTML;
      else
        return "unknown --format '" + v +
               "' (expected text, json, sarif, codeclimate or html)";
    } else if (name == "--sarif-root") {
      if (!value(options.sarifRoot))
        return "--sarif-root needs a directory";
      if (!llvm::sys::fs::is_directory(options.sarifRoot))
        return "--sarif-root '" + options.sarifRoot + "' is not a directory";
    } else if (name == "--fail-on") {
      if (!value(v))
        return "--fail-on needs a value";
      if (v == "error")
        options.failOn = lsp::DiagnosticSeverity::Error;
      else if (v == "warning")
        options.failOn = lsp::DiagnosticSeverity::Warning;
      else if (v == "none")
        options.failOn = std::nullopt;
      else
        return "unknown --fail-on '" + v +
               "' (expected warning, error or none)";
    } else if (name == "--max-vgpr") {
      int64_t n;
      if (!value(v))
        return "--max-vgpr needs a value";
      if (llvm::StringRef(v).getAsInteger(10, n) || n < 0)
        return "--max-vgpr expects a non-negative integer, got '" + v + "'";
      options.maxVGPR = n;
    } else if (name == "--pipeline") {
      if (!value(v))
        return "--pipeline needs a value";
      if (v != "full" && v != "backend")
        return "unknown --pipeline '" + v + "' (expected full or backend)";
      options.settings.optimizePipeline = v == "full";
    } else if (name == "--target") {
      if (!value(target))
        return "--target needs a value";
      std::optional<TargetKind> kind = parseTargetKind(target);
      if (!kind)
        return "unknown --target '" + target + "' (expected " +
               listTargetKinds().str() + ")";
      options.settings.targetOverride = *kind;
    } else if (name == "--settings") {
      if (!value(v))
        return "--settings needs a file";
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
          llvm::MemoryBuffer::getFile(v);
      if (!buffer)
        return "cannot read --settings file '" + v +
               "': " + buffer.getError().message();
      llvm::Expected<llvm::json::Value> json =
          parseJsonBounded((*buffer)->getBuffer());
      if (!json)
        return "--settings file '" + v +
               "' is not JSON: " + llvm::toString(json.takeError());
      server::RuntimeSettings runtime;
      std::vector<std::string> problems =
          server::applySettingsJSON(*json, options.settings, runtime);
      if (!problems.empty())
        return "--settings file '" + v + "': " + problems.front();
    } else {
      return "unknown option '" + arg.str() + "'";
    }
  }
  if (options.files.empty())
    return std::string("no input files");
  return std::nullopt;
}

lsp::Diagnostic maxVGPRFinding(const ParsedDocument &parsed, unsigned entry,
                               const ProgramMetrics &metrics, int64_t limit) {
  lsp::Diagnostic diag;
  diag.range = parsed.getOps()[entry].name;
  diag.severity = lsp::DiagnosticSeverity::Error;
  diag.code = "max-vgpr";
  diag.message = llvm::formatv("program @{0} uses {1} VGPRs, more than "
                               "--max-vgpr {2}",
                               metrics.name, metrics.peak_vgpr, limit);
  return diag;
}

} // namespace

llvm::StringRef waveasm::check::getUsage() { return kUsage; }

int waveasm::check::runCheck(llvm::ArrayRef<std::string> args,
                             llvm::raw_ostream &out, llvm::raw_ostream &err) {
  if (llvm::is_contained(args, "--help") || llvm::is_contained(args, "-h")) {
    out << kUsage;
    return 0;
  }
  if (llvm::is_contained(args, "--version")) {
    out << getVersionLine("waveasm-lsp check") << '\n';
    return 0;
  }
  Options options;
  if (std::optional<std::string> problem = parseOptions(args, options)) {
    err << "waveasm-lsp check: " << *problem << "\n" << kUsage;
    return 2;
  }

  mlir::MLIRContext context;
  context.loadDialect<WaveASMDialect>();
  // One file's pipeline at a time: the pool would only add threads.
  context.disableMultithreading();

  bool ioError = false;
  std::vector<FileReport> reports;
  for (const std::string &path : options.files) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
    if (!buffer) {
      err << "waveasm-lsp check: cannot read '" << path
          << "': " << buffer.getError().message() << "\n";
      ioError = true;
      continue;
    }
    // Other MLIR (the Wave compiler's inputs, upstream dialects) is not
    // ours to diagnose when a hook hands us every *.mlir file.
    if (options.onlyWaveASM &&
        !(*buffer)->getBuffer().contains("waveasm.program"))
      continue;
    FileReport report;
    report.path = path;
    report.uri = path == "-" ? "stdin" : lsp::pathToUri(path);
    ParsedDocument parsed(context, report.uri, (*buffer)->getBuffer().str(),
                          /*version=*/0, options.settings);
    std::unique_ptr<CompiledDocument> compiled;
    if (parsed.isVerified())
      compiled = std::make_unique<CompiledDocument>(parsed, options.settings);
    report.diagnostics =
        server::computeDiagnostics(parsed, compiled.get(), options.settings);
    if (options.format == Format::HTML && parsed.isVerified()) {
      // As written: the graphs and the passes need no successful compile
      // (a failing pass shows where the pipeline stops).
      for (const server::DependenceView &view :
           server::computeAllDependenceViews(parsed, options.settings))
        report.graphs.emplace_back(view.title,
                                   server::renderDependenceSvg(view));
      server::DocumentSnapshots snapshots =
          server::computePipelineSnapshots(parsed, options.settings);
      report.passes = std::move(snapshots.snapshots.snapshots);
      report.passDiagnostics = std::move(snapshots.diagnostics);
    }
    if (compiled && compiled->succeeded()) {
      for (const server::CompiledProgramInfo &program :
           compiled->getPrograms()) {
        report.metrics.push_back(program.result.metrics);
        if (options.maxVGPR &&
            program.result.metrics.peak_vgpr > *options.maxVGPR)
          report.diagnostics.push_back(maxVGPRFinding(
              parsed, program.entry, program.result.metrics, *options.maxVGPR));
      }
      if (options.format == Format::Text && options.tables) {
        report.metricsTable = server::renderMetricsTable(parsed, *compiled);
        report.instructionTable =
            server::renderInstructionTable(parsed, *compiled);
      }
      if (options.format == Format::HTML)
        for (const server::ScheduleView &view :
             server::computeAllScheduleViews(parsed, compiled.get()))
          report.schedules.emplace_back(view.title,
                                        server::renderScheduleSvg(view));
    }
    reports.push_back(std::move(report));
  }

  switch (options.format) {
  case Format::Text:
    writeText(out, reports, options.tables);
    break;
  case Format::JSON:
    writeJSON(out, reports);
    break;
  case Format::SARIF:
    writeSARIF(out, reports, options.sarifRoot);
    break;
  case Format::CodeClimate:
    writeCodeClimate(out, reports, options.sarifRoot);
    break;
  case Format::HTML:
    writeHTML(out, reports);
    break;
  }
  out.flush();

  if (ioError)
    return 2;
  if (!options.failOn)
    return 0;
  for (const FileReport &report : reports)
    for (const lsp::Diagnostic &diag : report.diagnostics)
      if (static_cast<int>(diag.severity) <= static_cast<int>(*options.failOn))
        return 1;
  return 0;
}
