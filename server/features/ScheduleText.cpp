//===- ScheduleText.cpp - a schedule view as text -------------------------===//
//
// For terminals (Neovim's :WaveasmTimeline): the layout of `llvm-mca
// -timeline`, one line per instruction and one column per slot (or per a
// few slots when the frame is long), beside the live VGPRs as a bar. The
// marks: `.` stalled, `=` the unit busy, `-` the result not ready yet.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace waveasm;
using namespace waveasm::server;

namespace {

constexpr int64_t kMaxColumns = 64;
constexpr int64_t kBarWidth = 16;

/// Columns of one timeline line: `.` stall, `=` busy, `-` latency; within
/// a column of several slots the busiest mark wins.
std::string timelineColumns(const ScheduleRow &row, int64_t slotsPerColumn,
                            int64_t columns) {
  std::string line(columns, ' ');
  auto mark = [&](int64_t from, int64_t to, char c, int rank) {
    static const std::string kRank = " -.=";
    for (int64_t slot = std::max<int64_t>(from, 0); slot < to; ++slot) {
      int64_t col = slot / slotsPerColumn;
      if (col >= columns)
        break;
      if (static_cast<int>(kRank.find(line[col])) < rank)
        line[col] = c;
    }
  };
  int64_t ready = row.loop ? 0 : row.issue + row.latency;
  mark(row.issue + row.busy, ready, '-', 1);
  mark(row.issue - row.stall, row.issue, '.', 2);
  mark(row.issue, row.issue + std::max<int64_t>(row.busy, 1), '=', 3);
  return line;
}

} // namespace

std::string waveasm::server::renderScheduleText(const ScheduleView &view) {
  std::string out;
  llvm::raw_string_ostream os(out);
  int64_t span = std::max<int64_t>(view.cycles, 1);
  for (const ScheduleRow &row : view.rows)
    span = std::max(span, row.issue + std::max<int64_t>(row.busy, 1));
  int64_t perColumn = (span + kMaxColumns - 1) / kMaxColumns;
  int64_t columns = (span + perColumn - 1) / perColumn;

  os << view.title << ": " << view.cycles << " slots · peak VGPR "
     << view.peak.vgprs() << " · SGPR " << view.peak.sgprs();
  if (view.peak.agprs())
    os << " · AGPR " << view.peak.agprs();
  os << " · occupancy " << view.occupancy << " waves";
  if (view.mfmaBusy)
    os << " · MFMA pipe " << llvm::format("%.0f", view.mfmaUtilization * 100)
       << "% busy";
  os << "\noccupancy by VGPRs (VGPR+AGPR file):";
  for (const OccupancyThreshold &t : view.thresholds)
    os << " ≤" << t.vgprs << ": " << t.waves << "w";
  os << "\n1 column = " << perColumn << (perColumn == 1 ? " slot" : " slots")
     << "; . stall, = unit busy, - result not ready\n\n";

  // The unit lanes.
  for (unsigned u = 0; u < kNumExecUnits; ++u) {
    if (!view.unitBusy[u])
      continue;
    auto unit = static_cast<ExecUnit>(u);
    std::string lane(columns, ' ');
    for (const ScheduleRow &row : view.rows)
      if (!row.loop && row.unit == unit)
        for (int64_t slot = row.issue; slot < row.issue + row.busy; ++slot)
          if (slot / perColumn < columns)
            lane[slot / perColumn] = '#';
    os << llvm::format("%-8s", common::getUnitName(unit).c_str()) << "    |"
       << lane << "| "
       << llvm::format("%3.0f%%", 100.0 * double(view.unitBusy[u]) /
                                      double(std::max<int64_t>(view.cycles, 1)))
       << '\n';
  }
  os << '\n';

  int64_t barMax = std::max<int64_t>(view.peak.vgprs(), 1);
  os << llvm::format("%5s  %-30s %-6s %5s %5s %4s |", "line", "instruction",
                     "unit", "issue", "stall", "lat")
     << std::string(columns, ' ')
     << llvm::format("| %4s %4s %4s", "v", "s", "a") << '\n';
  for (auto [i, row] : llvm::enumerate(view.rows)) {
    std::string text = (row.inserted ? "+ " : "") + row.text;
    if (text.size() > 30)
      text = text.substr(0, 29) + "~";
    std::string unit = row.loop ? "loop" : common::getUnitName(row.unit);
    os << llvm::format("%5d  %-30s %-6s %5lld %5lld %4d |", row.line,
                       text.c_str(), unit.c_str(), (long long)row.issue,
                       (long long)row.stall, row.latency)
       << timelineColumns(row, perColumn, columns)
       << llvm::format("| %4d %4d %4d ", row.pressure.vgprs(),
                       row.pressure.sgprs(), row.pressure.agprs());
    int64_t bar = (row.pressure.vgprs() * kBarWidth + barMax - 1) / barMax;
    for (int64_t b = 0; b < bar; ++b)
      os << "█";
    if (i == view.peakRow[0])
      os << " ◀ peak VGPR " << view.peak.vgprs();
    os << '\n';
  }
  return out;
}
