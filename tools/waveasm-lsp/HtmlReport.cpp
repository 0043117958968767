//===- HtmlReport.cpp - `check --format html`: one self-contained page ----===//
//
// A CI artifact a reviewer opens in any browser, offline: the findings and
// metrics of each file, then the schedule pictures of every program and
// loop (the SVG the VS Code webview shows, server/features/ScheduleSvg.cpp).
// Everything is inline (CSS, SVG); no script, no URL, so the page renders
// the same from a zip of artifacts as from a web server with a strict
// Content-Security-Policy.
//
//===----------------------------------------------------------------------===//

#include "tools/waveasm-lsp/Check.h"

#include "server/Features.h"
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

} // namespace

void waveasm::check::writeHTML(llvm::raw_ostream &os,
                               llvm::ArrayRef<FileReport> files) {
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>WaveASM check</title>\n<style>\n"
     << kPageCss << server::getScheduleCss() << "</style></head><body>\n"
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
    os << "</section>\n";
  }
  os << "</body></html>\n";
}
