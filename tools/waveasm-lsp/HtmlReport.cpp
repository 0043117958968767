//===- HtmlReport.cpp - `check --format html`: one self-contained page ----===//
//
// A CI artifact a reviewer opens in any browser, offline: the findings and
// metrics of each file, then the schedule pictures of every program and
// loop (the SVG the VS Code webview shows, server/features/ScheduleSvg.cpp),
// each loop's dependence graph (DependenceSvg.cpp, the other webview's
// picture), and what each pass of the pipeline did: a unified diff per pass
// that changed the program (Compiler Explorer's pipeline view, on paper),
// passes that changed nothing folded into one line each. Folding is
// <details>, so it needs no script either.
// Everything is inline (CSS, SVG); no script, no URL, so the page renders
// the same from a zip of artifacts as from a web server with a strict
// Content-Security-Policy.
//
//===----------------------------------------------------------------------===//

#include "tools/waveasm-lsp/Check.h"

#include "server/Features.h"
#include "support/LineDiff.h"
#include "support/Version.h"

#include "llvm/ADT/StringExtras.h"

using namespace waveasm;
using namespace waveasm::check;

namespace {

void escaped(llvm::raw_ostream &os, llvm::StringRef text) {
  llvm::printHTMLEscaped(text, os);
}

constexpr llvm::StringLiteral kPageCss =
    R"css(body{font:14px system-ui,sans-serif;margin:24px;color:#1f2328;background:#fff}
h1{font-size:20px}h2{font-size:17px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}
h3{font-size:15px;margin:20px 0 6px}
table{border-collapse:collapse;font-size:13px}
td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.sev-error{color:#cf222e;font-weight:bold}.sev-warning{color:#9a6700;font-weight:bold}
figure{margin:12px 0 28px}
details.pass{margin:2px 0}details.pass summary{cursor:pointer;font-size:13px}
details.pass.same summary{color:#57606a}details.pass.failed summary{color:#cf222e}
.delta{font-variant-numeric:tabular-nums;color:#57606a}
pre.diff{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa;border:1px solid #d0d7de;padding:6px 8px;overflow-x:auto;margin:4px 0 12px}
pre.diff .hh{color:#8250df}pre.diff .del{background:#ffebe9;color:#82071e}pre.diff .ins{background:#dafbe1;color:#116329}
.pic{overflow-x:auto}
)css";

void diagnosticsTable(llvm::raw_ostream &os, const FileReport &file) {
  os << "<h3>Findings (" << file.diagnostics.size() << ")</h3>\n";
  if (file.diagnostics.empty()) {
    os << "<p>none</p>\n";
    return;
  }
  os << "<table><tr><th>line:col</th><th>severity</th><th>rule</th>"
        "<th>message</th></tr>\n";
  for (const lsp::Diagnostic &diag : file.diagnostics) {
    llvm::StringRef severity = severityName(diag.severity);
    os << "<tr><td class=\"n\">" << diag.range.start.line + 1 << ':'
       << diag.range.start.character + 1 << "</td><td class=\"sev-" << severity
       << "\">" << severity << "</td><td>";
    escaped(os, ruleOf(diag));
    os << "</td><td>";
    escaped(os, diag.message);
    os << "</td></tr>\n";
  }
  os << "</table>\n";
}

void metricsTable(llvm::raw_ostream &os, const FileReport &file) {
  if (file.metrics.empty())
    return;
  os << "<h3>Metrics</h3>\n<table><tr><th>program</th><th>est slots</th>"
        "<th>VGPR</th><th>SGPR</th><th>AGPR</th><th>occupancy</th>"
        "<th>instructions</th><th>waits / nops inserted</th></tr>\n";
  for (const ProgramMetrics &m : file.metrics) {
    os << "<tr><td>@";
    escaped(os, m.name);
    os << "</td><td class=\"n\">" << m.est_cycles << "</td><td class=\"n\">"
       << m.peak_vgpr << "</td><td class=\"n\">" << m.peak_sgpr
       << "</td><td class=\"n\">" << m.peak_agpr << "</td><td>";
    escaped(os, m.occupancy_limit.summary);
    os << "</td><td class=\"n\">" << m.total_instructions
       << "</td><td class=\"n\">" << m.waitcnts_inserted << " / "
       << m.nops_inserted << "</td></tr>\n";
  }
  os << "</table>\n";
}

/// Lines of diff a pass shows at most: the allocator rewrites every type of
/// a 20,000-line program, and the report must stay a page.
constexpr size_t kMaxDiffLines = 1500;

void metricDelta(llvm::raw_ostream &os, llvm::StringRef name, int64_t before,
                 int64_t after) {
  if (before == after)
    return;
  os << ' ' << name << ' ' << before << "→" << after;
}

void passesSection(llvm::raw_ostream &os, const FileReport &file) {
  if (file.passes.empty())
    return;
  os << "<h3>Passes (" << file.passes.size() - 1 << ")</h3>\n";
  llvm::StringRef text = file.passes.front().text;
  const SnapshotMetrics *prev = &file.passes.front().metrics;
  for (const PipelineSnapshot &pass : llvm::drop_begin(file.passes)) {
    const SnapshotMetrics &m = pass.metrics;
    os << "<details class=\"pass"
       << (pass.failed    ? " failed"
           : pass.changed ? " changed"
                          : " same")
       << "\"" << (pass.changed || pass.failed ? " open" : "")
       << "><summary><b>";
    escaped(os, pass.pass);
    os << "</b>";
    if (pass.failed) {
      os << " failed";
      for (const lsp::Diagnostic &diag : file.passDiagnostics) {
        os << ": line " << diag.range.start.line + 1 << ": ";
        escaped(os, diag.message);
      }
      os << "</summary></details>\n";
      break;
    }
    if (!pass.changed) {
      os << " · no change</summary></details>\n";
      continue;
    }
    os << " <span class=\"delta\">";
    metricDelta(os, "instructions", prev->instructions, m.instructions);
    metricDelta(os, "VGPR", prev->peakVGPR, m.peakVGPR);
    metricDelta(os, "SGPR", prev->peakSGPR, m.peakSGPR);
    metricDelta(os, "AGPR", prev->peakAGPR, m.peakAGPR);
    metricDelta(os, "slots", prev->estCycles, m.estCycles);
    os << "</span></summary><pre class=\"diff\">";
    size_t shown = 0, total = 0;
    for (const DiffHunk &hunk : diffHunks(text, pass.text)) {
      total += hunk.lines.size() + 1;
      if (shown >= kMaxDiffLines)
        continue;
      os << "<span class=\"hh\">" << hunk.header() << "</span>\n";
      ++shown;
      for (const DiffLine &line : hunk.lines) {
        if (shown++ >= kMaxDiffLines)
          break;
        const char *cls = line.kind == DiffLine::Removed ? "del"
                          : line.kind == DiffLine::Added ? "ins"
                                                         : nullptr;
        if (cls)
          os << "<span class=\"" << cls << "\">";
        os << char(line.kind);
        escaped(os, line.text);
        os << (cls ? "</span>\n" : "\n");
      }
    }
    if (total > shown)
      os << "<span class=\"hh\">… " << total - shown
         << " more lines of diff not shown</span>\n";
    os << "</pre></details>\n";
    text = pass.text;
    prev = &pass.metrics;
  }
}

} // namespace

void waveasm::check::writeHTML(llvm::raw_ostream &os,
                               llvm::ArrayRef<FileReport> files) {
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>WaveASM check</title>\n<style>\n"
     << kPageCss << server::getScheduleCss() << server::getDependenceCss()
     << "</style></head><body>\n"
     << "<h1>WaveASM check</h1>\n<p>";
  escaped(os, getVersionLine("waveasm-lsp check"));
  os << ". Time figures are issue slots of 4 clocks; a program's picture "
        "shows each loop as one row, and each loop has its own picture of "
        "one steady-state iteration.</p>\n";
  for (const FileReport &file : files) {
    os << "<section><h2>";
    escaped(os, file.path);
    os << "</h2>\n";
    diagnosticsTable(os, file);
    metricsTable(os, file);
    if (!file.schedules.empty())
      os << "<h3>Schedules</h3>\n";
    // The picture carries its title; the figure's id links to it.
    for (auto [i, schedule] : llvm::enumerate(file.schedules))
      os << "<figure id=\"f" << &file - files.data() << "-s" << i
         << "\"><div class=\"pic\">" << schedule.second << "</div></figure>\n";
    if (!file.graphs.empty())
      os << "<h3>Dependence graphs</h3>\n";
    for (auto [i, graph] : llvm::enumerate(file.graphs))
      os << "<figure id=\"f" << &file - files.data() << "-g" << i
         << "\"><div class=\"pic\">" << graph.second << "</div></figure>\n";
    passesSection(os, file);
    os << "</section>\n";
  }
  os << "</body></html>\n";
}
