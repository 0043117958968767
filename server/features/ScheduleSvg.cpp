//===- ScheduleSvg.cpp - a schedule view as one SVG picture ---------------===//
//
// The one renderer of the pictures: `check --format html` inlines its SVG
// and the VS Code webview inserts the SVG waveasm/schedule returns, so both
// draw the same thing. No script and no external reference in the output;
// colours come from getScheduleCss() through classes (the webview's
// Content-Security-Policy admits only its own nonce'd style sheet, and one
// style sheet keeps a 20,000-row picture small). Text is drawn in
// `currentColor`, so the picture follows the page's or the editor theme's
// foreground.
//
// Layout, top to bottom: title and summary; one lane per execution unit
// (busy intervals merged at pixel resolution, so a lane costs at most one
// rectangle per pixel column however many ops it has); the slot axis; one
// row per instruction: label, stall bar, issue bar (unit colour, as long as
// the unit is busy) and a latency whisker, beside the register column, the
// live VGPR/SGPR/AGPR step curves with the peak and the occupancy
// thresholds.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"
#include "server/features/SvgCommon.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace waveasm;
using namespace waveasm::server;

namespace {

constexpr double kRowHeight = 14;
constexpr double kBarHeight = 10;
constexpr double kLaneHeight = 12;
constexpr double kLabelWidth = 280;
constexpr double kMaxChartWidth = 640;
constexpr double kMaxSlotWidth = 12;
constexpr double kRegWidth = 220;
constexpr double kGap = 24;
/// Above this many rows a picture drops the per-row tooltips (they are a
/// third of its bytes): a 300-op loop keeps them, and the report of a
/// 20,000-instruction kernel stays under 5 MB (bench/results/schedule.txt).
constexpr size_t kMaxRowsWithTooltips = 2000;

using svg::escape;
using svg::Num;
using svg::unitClass;

/// A round step for an axis of `span` slots with about `ticks` ticks.
int64_t niceStep(int64_t span, int ticks) {
  int64_t raw = std::max<int64_t>(1, span / std::max(1, ticks));
  int64_t step = 1;
  while (step * 10 <= raw)
    step *= 10;
  if (step * 5 <= raw)
    return step * 5;
  if (step * 2 <= raw)
    return step * 2;
  return step;
}

class Renderer {
public:
  Renderer(const ScheduleView &view, llvm::raw_ostream &os)
      : view(view), os(os) {
    // The timeline's extent: the frame's slots, or further when a row
    // (a nested loop, an op after the steady state's end) reaches beyond.
    span = std::max<int64_t>(view.cycles, 1);
    for (const ScheduleRow &row : view.rows)
      span = std::max(span, row.issue + std::max<int64_t>(row.busy, 1));
    scale = std::min(kMaxSlotWidth, kMaxChartWidth / double(span));
    chartX = kLabelWidth;
    regX = chartX + span * scale + kGap;
    int64_t axis = std::max<int64_t>(
        {8, view.peak.vgprs(), view.peak.sgprs(), view.peak.agprs()});
    // Show the threshold that would gain the next wave, too.
    for (const OccupancyThreshold &t : view.thresholds)
      if (t.vgprs < view.peak.vgprs() + view.peak.agprs())
        continue;
      else {
        axis = std::max(axis, t.vgprs);
        break;
      }
    regMax = double(axis) * 1.08;
    width = regX + kRegWidth + 60;
  }

  void render() {
    size_t numLanes = 0;
    for (int64_t busy : view.unitBusy)
      numLanes += busy > 0;
    double lanesY = 44;
    // Room above the rows for the axis and the threshold labels.
    double axisY = lanesY + numLanes * (kLaneHeight + 2) + 30;
    rowsY = axisY + 8;
    double height = rowsY + view.rows.size() * kRowHeight + 8;
    // Inline in HTML: no namespace declaration needed, so the pages name
    // no URL at all.
    os << "<svg class=\"wsv\" width=\"" << Num{width} << "\" height=\""
       << Num{height} << "\" viewBox=\"0 0 " << Num{width} << ' ' << Num{height}
       << "\">";
    header();
    lanes(lanesY);
    axis(axisY, height);
    registerAxis(height);
    rows();
    curves();
    os << "</svg>";
  }

private:
  double x(double slot) const { return chartX + slot * scale; }
  double regXOf(double regs) const { return regX + regs / regMax * kRegWidth; }
  double rowY(size_t row) const { return rowsY + row * kRowHeight; }

  void header() {
    os << "<text class=\"h1\" x=\"4\" y=\"16\">";
    escape(os, view.title);
    os << "</text><text x=\"4\" y=\"34\">" << view.cycles << " slots";
    static constexpr const char *kNames[] = {"VGPR", "SGPR", "AGPR"};
    for (unsigned c = 0; c < 3; ++c) {
      if (c == 2 && !view.peak.agprs())
        continue;
      os << " · peak " << kNames[c] << ' ' << view.peak.regs[c];
      if (view.peakRow[c] < view.rows.size() && view.rows[view.peakRow[c]].line)
        os << " (line " << view.rows[view.peakRow[c]].line << ')';
    }
    os << " · occupancy " << view.occupancy << " waves";
    if (view.mfmaBusy)
      os << " · MFMA pipe " << llvm::format("%.0f", view.mfmaUtilization * 100)
         << "% busy";
    os << " · <tspan class=\"st-t\">stall</tspan></text>";
  }

  /// One lane per busy unit: its busy intervals, merged where they touch
  /// at pixel resolution.
  void lanes(double y) {
    std::vector<std::vector<std::pair<int64_t, int64_t>>> busy(kNumExecUnits);
    for (const ScheduleRow &row : view.rows)
      if (!row.loop && row.unit != ExecUnit::None)
        busy[static_cast<unsigned>(row.unit)].push_back(
            {row.issue, row.issue + row.busy});
    for (unsigned u = 0; u < kNumExecUnits; ++u) {
      if (!view.unitBusy[u])
        continue;
      auto unit = static_cast<ExecUnit>(u);
      os << "<g class=\"lane " << unitClass(unit) << "\"><text x=\"4\" y=\""
         << Num{y + 10} << "\">" << common::getUnitName(unit) << ' '
         << llvm::format("%.0f", 100.0 * double(view.unitBusy[u]) /
                                     double(std::max<int64_t>(view.cycles, 1)))
         << "%</text>";
      std::vector<std::pair<int64_t, int64_t>> &spans = busy[u];
      llvm::sort(spans);
      for (size_t i = 0; i < spans.size();) {
        double from = x(spans[i].first), to = x(spans[i].second);
        for (++i; i < spans.size() && x(spans[i].first) <= to + 0.5; ++i)
          to = std::max(to, x(spans[i].second));
        os << "<rect x=\"" << Num{from} << "\" y=\"" << Num{y} << "\" width=\""
           << Num{std::max(to - from, 1.0)} << "\" height=\""
           << Num{kLaneHeight} << "\"/>";
      }
      os << "</g>";
      y += kLaneHeight + 2;
    }
  }

  /// Slot ticks over the timeline, with faint grid lines down the rows.
  void axis(double y, double height) {
    int64_t step = niceStep(span, int(span * scale / 70) + 1);
    os << "<g class=\"axis\">";
    for (int64_t slot = 0; slot <= span; slot += step)
      os << "<line x1=\"" << Num{x(slot)} << "\" y1=\"" << Num{y + 2}
         << "\" x2=\"" << Num{x(slot)} << "\" y2=\"" << Num{height - 8}
         << "\"/><text x=\"" << Num{x(slot) + 2} << "\" y=\"" << Num{y} << "\">"
         << slot << "</text>";
    os << "</g>";
  }

  /// The register column's frame: the occupancy thresholds.
  void registerAxis(double height) {
    os << "<g class=\"regs\"><text x=\"" << Num{regX} << "\" y=\""
       << Num{rowsY - 32}
       << "\">live <tspan class=\"pv-t\">VGPR</tspan> <tspan "
          "class=\"ps-t\">SGPR</tspan>";
    if (view.peak.agprs())
      os << " <tspan class=\"pa-t\">AGPR</tspan>";
    os << "</text>";
    // Thresholds lie a granule apart: labels on three staggered lines.
    for (auto [k, t] : llvm::enumerate(view.thresholds)) {
      if (t.vgprs > regMax)
        break;
      double tx = regXOf(t.vgprs);
      os << "<g class=\"th\"><title>up to " << t.vgprs
         << " VGPRs (VGPR+AGPR file): " << t.waves
         << " waves per SIMD</title><line x1=\"" << Num{tx} << "\" y1=\""
         << Num{rowsY - 28} << "\" x2=\"" << Num{tx} << "\" y2=\""
         << Num{height - 8} << "\"/><text x=\"" << Num{tx + 2} << "\" y=\""
         << Num{rowsY - 21 + (k % 3) * 8} << "\">" << t.waves << "w ≤"
         << t.vgprs << "</text></g>";
    }
    os << "</g>";
  }

  void rows() {
    bool tooltips = view.rows.size() <= kMaxRowsWithTooltips;
    for (auto [i, row] : llvm::enumerate(view.rows)) {
      double y = rowY(i);
      os << "<g class=\"r";
      if (row.inserted)
        os << " ins";
      if (i == view.peakRow[0])
        os << " pkr";
      os << '"';
      if (row.opEntry != OpEntry::kNone)
        os << " data-op=\"" << row.range.start.line << ':'
           << row.range.start.character << '"';
      os << '>';
      if (tooltips) {
        os << "<title>";
        escape(os, row.text);
        os << ": issue " << row.issue << ", stall " << row.stall;
        if (row.stall)
          os << " (" << stringifyStallReason(row.stallReason) << ')';
        os << ", latency " << row.latency << ", busy " << row.busy
           << "; live v " << row.pressure.vgprs() << " s "
           << row.pressure.sgprs() << " a " << row.pressure.agprs()
           << "</title>";
      }
      os << "<text x=\"4\" y=\"" << Num{y + 10} << "\">";
      if (row.line)
        os << row.line << ' ';
      if (row.inserted)
        os << "+ ";
      escape(os, llvm::StringRef(row.text).take_front(38));
      os << "</text>";
      if (row.stall > 0)
        os << "<rect class=\"st\" x=\"" << Num{x(row.issue - row.stall)}
           << "\" y=\"" << Num{y + 2} << "\" width=\"" << Num{row.stall * scale}
           << "\" height=\"" << Num{kBarHeight} << "\"/>";
      double barWidth = std::max(row.busy * scale, 1.5);
      os << "<rect class=\"" << (row.loop ? "lp" : unitClass(row.unit))
         << "\" x=\"" << Num{x(row.issue)} << "\" y=\"" << Num{y + 2}
         << "\" width=\"" << Num{barWidth} << "\" height=\"" << Num{kBarHeight}
         << "\"/>";
      if (!row.loop && row.latency > row.busy)
        os << "<path class=\"lat\" d=\"M" << Num{x(row.issue) + barWidth} << ' '
           << Num{y + 7} << 'h' << Num{(row.latency - row.busy) * scale}
           << "\"/>";
      os << "</g>";
    }
  }

  /// One step curve per register class, a point only where the count
  /// changes, and the peaks marked.
  void curves() {
    static constexpr const char *kClasses[] = {"pv", "ps", "pa"};
    static constexpr const char *kNames[] = {"VGPR", "SGPR", "AGPR"};
    if (view.rows.empty())
      return;
    for (unsigned c = 0; c < 3; ++c) {
      if (c == 2 && !view.peak.agprs())
        continue;
      int32_t current = view.rows[0].pressure.regs[c];
      os << "<path class=\"" << kClasses[c] << "\" d=\"M"
         << Num{regXOf(current)} << ' ' << Num{rowY(0)};
      for (auto [i, row] : llvm::enumerate(view.rows)) {
        if (row.pressure.regs[c] == current)
          continue;
        current = row.pressure.regs[c];
        os << 'V' << Num{rowY(i)} << 'H' << Num{regXOf(current)};
      }
      os << 'V' << Num{rowY(view.rows.size())} << "\"/>";
    }
    for (unsigned c = 0; c < 3; ++c) {
      if (!view.peak.regs[c] || view.peakRow[c] >= view.rows.size())
        continue;
      double px = regXOf(view.peak.regs[c]);
      double py = rowY(view.peakRow[c]) + kRowHeight / 2;
      os << "<g class=\"pk " << kClasses[c] << "-k\"><circle cx=\"" << Num{px}
         << "\" cy=\"" << Num{py} << "\" r=\"4\"/><text x=\"" << Num{px + 6}
         << "\" y=\"" << Num{py + 4} << "\">peak " << kNames[c] << ' '
         << view.peak.regs[c] << "</text></g>";
    }
  }

  const ScheduleView &view;
  llvm::raw_ostream &os;
  int64_t span = 1;
  double scale = 1, chartX = 0, regX = 0, regMax = 1, width = 0, rowsY = 0;
};

} // namespace

std::string waveasm::server::renderScheduleSvg(const ScheduleView &view) {
  std::string out;
  out.reserve(256 + view.rows.size() * 220);
  llvm::raw_string_ostream os(out);
  Renderer(view, os).render();
  return out;
}

llvm::StringRef waveasm::server::getScheduleCss() {
  // Unit colours after Radeon GPU Analyzer's (ALU blue, memory orange and
  // green, matrix purple); stalls red; translucent fills read on light and
  // dark backgrounds alike.
  return R"css(.wsv{font:11px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.wsv text{fill:currentColor;white-space:pre}
.wsv .h1{font-weight:bold;font-size:13px}
.wsv .st,.wsv .st-t{fill:#e5484d}
.wsv .u-valu{fill:#3b82f6}.wsv .u-salu{fill:#06b6d4}.wsv .u-smem{fill:#84cc16}
.wsv .u-vmem{fill:#f59e0b}.wsv .u-lds{fill:#22c55e}.wsv .u-mfma{fill:#a855f7}
.wsv .u-branch{fill:#94a3b8}.wsv .u-sync{fill:#64748b}.wsv .u-none{fill:#cbd5e1}
.wsv .lp{fill:#a1a1aa;fill-opacity:.5}
.wsv .lane text{fill:currentColor}
.wsv .lat{stroke:currentColor;stroke-opacity:.35;stroke-width:1}
.wsv .axis line{stroke:currentColor;stroke-opacity:.12}
.wsv .axis text,.wsv .th text{fill-opacity:.7;font-size:10px}
.wsv .th line{stroke:#e5484d;stroke-dasharray:3 3;stroke-opacity:.7}
.wsv .pv,.wsv .ps,.wsv .pa{fill:none;stroke-width:1.5}
.wsv .pv{stroke:#3b82f6}.wsv .ps{stroke:#06b6d4}.wsv .pa{stroke:#a855f7}
.wsv .pv-t{fill:#3b82f6}.wsv .ps-t{fill:#06b6d4}.wsv .pa-t{fill:#a855f7}
.wsv .pk circle{fill:#e5484d}.wsv .pk text{font-weight:bold}
.wsv .r.ins text{font-style:italic;fill-opacity:.7}
.wsv .r.pkr text{font-weight:bold}
.wsv .r[data-op]{cursor:pointer}
.wsv .r[data-op]:hover text{text-decoration:underline}
)css";
}
