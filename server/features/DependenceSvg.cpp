//===- DependenceSvg.cpp - a loop's dependence graph as one SVG picture ---===//
//
// The one renderer of the graph: `check --format html` inlines its SVG and
// the VS Code webview inserts the SVG waveasm/dependenceGraph returns. As
// for the schedule pictures (ScheduleSvg.cpp): no script, no external
// reference, no marker definitions (ids would collide between the pictures
// of one page, and `url(#...)` is a reference the report promises not to
// have), so arrowheads are small triangles drawn with each edge; colours
// come from getDependenceCss() through classes; text in currentColor.
//
// Drawn: edges first (under the boxes), carried edges last in lanes right of
// the graph, then the boxes (unit colour, critical ones outlined in red).
// Ordering edges a longer path implies are left out (DependenceView.cpp).
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"
#include "server/features/DependenceLayout.h"
#include "server/features/SvgCommon.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::graph;

namespace {

using svg::escape;
using svg::Num;
using svg::unitClass;

class Renderer {
public:
  Renderer(const DependenceView &view, llvm::raw_ostream &os)
      : view(view), os(os) {
    for (const DependenceNode &node : view.nodes)
      right = std::max(right, node.x + kNodeWidth);
  }

  void render() {
    if (view.nodes.size() > kMaxDrawnNodes) {
      // Thousands of boxes are no picture anyone reads, and megabytes in
      // a report; the data still lists every node and edge.
      os << "<svg class=\"wdg\" width=\"640\" height=\"44\" viewBox=\"0 0 "
            "640 44\"><text class=\"h1\" x=\"4\" y=\"16\">";
      escape(os, view.title);
      os << " · dependence graph</text><text x=\"4\" y=\"34\">"
         << view.nodes.size() << " ops, more than " << kMaxDrawnNodes
         << " to draw · critical path " << view.criticalLength << " slots ("
         << view.criticalPath.size() << " ops)</text></svg>";
      return;
    }
    os << "<svg class=\"wdg\" width=\"" << Num{view.width} << "\" height=\""
       << Num{view.height} << "\" viewBox=\"0 0 " << Num{view.width} << ' '
       << Num{view.height} << "\">";
    header();
    os << "<g class=\"es\">";
    for (const DependenceEdge &edge : view.edges)
      if (!edge.carried && !edge.implied)
        bodyEdge(edge);
    unsigned lane = 0;
    for (const DependenceEdge &edge : view.edges)
      if (edge.carried)
        carriedEdge(edge, lane++ % kMaxLanes);
    os << "</g>";
    for (auto [i, node] : llvm::enumerate(view.nodes))
      box(i, node);
    os << "</svg>";
  }

private:
  void header() {
    size_t drawn = 0, carried = 0;
    for (const DependenceEdge &edge : view.edges) {
      carried += edge.carried;
      drawn += !edge.carried && !edge.implied;
    }
    os << "<text class=\"h1\" x=\"4\" y=\"16\">";
    escape(os, view.title);
    os << " · dependence graph</text><text x=\"4\" y=\"34\">"
       << view.nodes.size() << " ops · " << view.numLayers
       << " layers · critical path <tspan class=\"cp-t\">"
       << view.criticalLength << " slots (" << view.criticalPath.size()
       << " ops)</tspan> · " << view.edges.size() - carried << " edges ("
       << drawn << " drawn) · <tspan class=\"k-data-t\">data</tspan> "
       << "<tspan class=\"k-memory-t\">memory</tspan> "
       << "<tspan class=\"k-barrier-t\">barrier</tspan> "
       << "<tspan class=\"k-register-t\">register</tspan> · "
       << "<tspan class=\"cr-t\">" << carried << " carried</tspan> · "
       << view.target << "</text>";
  }

  void edgeTitle(const DependenceEdge &edge) {
    const DependenceNode &from = view.nodes[edge.from];
    const DependenceNode &to = view.nodes[edge.to];
    os << "<title>" << getDependenceKindName(edge.kind)
       << (edge.carried ? " (next iteration)" : "") << ": line " << from.line
       << ' ';
    escape(os, from.mnemonic);
    os << " → line " << to.line << ' ';
    escape(os, to.mnemonic);
    os << ", " << edge.latency << " slots</title>";
  }

  void bodyEdge(const DependenceEdge &edge) {
    const DependenceNode &from = view.nodes[edge.from];
    const DependenceNode &to = view.nodes[edge.to];
    double x1 = from.x + kNodeWidth / 2, y1 = from.y + kNodeHeight;
    double x2 = to.x + kNodeWidth / 2, y2 = to.y;
    double bend = std::max(16.0, (y2 - y1) / 2);
    os << "<g class=\"e k-" << getDependenceKindName(edge.kind)
       << (edge.critical ? " crit" : "") << "\">";
    edgeTitle(edge);
    os << "<path d=\"M" << Num{x1} << ' ' << Num{y1} << 'C' << Num{x1} << ' '
       << Num{y1 + bend} << ' ' << Num{x2} << ' ' << Num{y2 - bend} << ' '
       << Num{x2} << ' ' << Num{y2 - 4} << "\"/><path class=\"ah\" d=\"M"
       << Num{x2} << ' ' << Num{y2} << "l-3.5 -6h7z\"/>";
    // Latency on data edges worth reading (1 slot is the issue itself).
    if (edge.kind == conductor::DepKind::Data && edge.latency > 1)
      os << "<text x=\"" << Num{(x1 + x2) / 2 + 3} << "\" y=\""
         << Num{(y1 + y2) / 2 + 3} << "\">" << edge.latency << "</text>";
    os << "</g>";
  }

  /// Out of the producer's right side, down or up a lane right of the
  /// graph, into the reader's right side: apart from the body's edges.
  void carriedEdge(const DependenceEdge &edge, unsigned lane) {
    const DependenceNode &from = view.nodes[edge.from];
    const DependenceNode &to = view.nodes[edge.to];
    double laneX = right + 16 + lane * kLaneGap;
    double y1 = from.y + kNodeHeight / 2 + 3, y2 = to.y + kNodeHeight / 2 - 3;
    double x1 = from.x + kNodeWidth, x2 = to.x + kNodeWidth;
    os << "<g class=\"e cr\">";
    edgeTitle(edge);
    os << "<path d=\"M" << Num{x1} << ' ' << Num{y1} << 'H' << Num{laneX} << 'V'
       << Num{y2} << 'H' << Num{x2 + 5} << "\"/><path class=\"ah\" d=\"M"
       << Num{x2} << ' ' << Num{y2} << "l6 -3.5v7z\"/><text x=\""
       << Num{laneX + 2} << "\" y=\"" << Num{(y1 + y2) / 2} << "\">"
       << edge.latency << "</text></g>";
  }

  void box(unsigned i, const DependenceNode &node) {
    os << "<g class=\"n " << unitClass(node.unit)
       << (node.critical ? " crit" : "") << "\" data-node=\"" << i << '"';
    if (node.opEntry != OpEntry::kNone)
      os << " data-op=\"" << node.range.start.line << ':'
         << node.range.start.character << '"';
    os << "><title>line " << node.line << ": ";
    escape(os, node.text);
    os << "\nlatency " << node.latency << " slots, longest path to the end "
       << node.height << " slots" << (node.critical ? " (critical)" : "")
       << "</title><rect x=\"" << Num{node.x} << "\" y=\"" << Num{node.y}
       << "\" width=\"" << Num{kNodeWidth} << "\" height=\"" << Num{kNodeHeight}
       << "\" rx=\"4\"/><text x=\"" << Num{node.x + 6} << "\" y=\""
       << Num{node.y + 13} << "\">";
    escape(os, llvm::StringRef(node.text).take_front(22));
    os << "</text><text class=\"sub\" x=\"" << Num{node.x + 6} << "\" y=\""
       << Num{node.y + 25} << "\">line " << node.line << " · lat "
       << node.latency << "</text></g>";
  }

  const DependenceView &view;
  llvm::raw_ostream &os;
  double right = 0;
};

} // namespace

std::string waveasm::server::renderDependenceSvg(const DependenceView &view) {
  std::string out;
  out.reserve(512 + view.nodes.size() * 400 + view.edges.size() * 120);
  llvm::raw_string_ostream os(out);
  Renderer(view, os).render();
  return out;
}

llvm::StringRef waveasm::server::getDependenceCss() {
  // The schedule pictures' unit colours (getScheduleCss); edge kinds: data
  // in the foreground colour, memory orange, barrier grey dotted, register
  // cyan; the critical path red; carried edges purple dashed.
  return R"css(.wdg{font:11px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.wdg text{fill:currentColor;white-space:pre}
.wdg .h1{font-weight:bold;font-size:13px}
.wdg .n rect{fill-opacity:.16;stroke-width:1.2}
.wdg .n .sub{fill-opacity:.65;font-size:10px}
.wdg .u-valu rect{fill:#3b82f6;stroke:#3b82f6}.wdg .u-salu rect{fill:#06b6d4;stroke:#06b6d4}
.wdg .u-smem rect{fill:#84cc16;stroke:#84cc16}.wdg .u-vmem rect{fill:#f59e0b;stroke:#f59e0b}
.wdg .u-lds rect{fill:#22c55e;stroke:#22c55e}.wdg .u-mfma rect{fill:#a855f7;stroke:#a855f7}
.wdg .u-branch rect{fill:#94a3b8;stroke:#94a3b8}.wdg .u-sync rect{fill:#64748b;stroke:#64748b}
.wdg .u-none rect{fill:#cbd5e1;stroke:#94a3b8}
.wdg .n.crit rect{stroke:#e5484d;stroke-width:2.5}
.wdg .n[data-op]{cursor:pointer}
.wdg .n[data-op]:hover rect{fill-opacity:.35}
.wdg .e path{fill:none;stroke:currentColor;stroke-opacity:.45;stroke-width:1}
.wdg .e .ah{fill:currentColor;fill-opacity:.45;stroke:none}
.wdg .e text{font-size:9px;fill-opacity:.75}
.wdg .k-memory path{stroke:#f59e0b;stroke-opacity:.8;stroke-dasharray:5 3}.wdg .k-memory .ah{fill:#f59e0b}
.wdg .k-barrier path{stroke:#64748b;stroke-dasharray:2 3}.wdg .k-barrier .ah{fill:#64748b}
.wdg .k-register path{stroke:#06b6d4;stroke-opacity:.8}.wdg .k-register .ah{fill:#06b6d4}
.wdg .e.crit path{stroke:#e5484d;stroke-opacity:1;stroke-width:2.2}.wdg .e.crit .ah{fill:#e5484d;fill-opacity:1}
.wdg .e.crit text{fill:#e5484d;font-weight:bold}
.wdg .e.cr path{stroke:#a855f7;stroke-opacity:.8;stroke-dasharray:4 3}.wdg .e.cr .ah{fill:#a855f7;fill-opacity:.8}
.wdg .cp-t{fill:#e5484d;font-weight:bold}.wdg .cr-t{fill:#a855f7}
.wdg .k-memory-t{fill:#f59e0b}.wdg .k-barrier-t{fill:#64748b}.wdg .k-register-t{fill:#06b6d4}
)css";
}
