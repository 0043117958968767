//===- DependenceLayout.h - the graph picture's dimensions ------*- C++ -*-===//
//
// Internal to server/features: the sizes DependenceLayout.cpp places boxes
// with and DependenceSvg.cpp draws them at.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_FEATURES_DEPENDENCELAYOUT_H
#define WAVEASM_SERVER_FEATURES_DEPENDENCELAYOUT_H

#include <cstddef>

namespace waveasm::server::graph {

constexpr double kNodeWidth = 156;
constexpr double kNodeHeight = 30;
constexpr double kGapX = 18;
/// Room between rows for the edges' curves and their latency labels.
constexpr double kGapY = 34;
constexpr double kMargin = 8;
/// The title and the legend above the graph.
constexpr double kHeaderHeight = 48;
/// A layer wider than this many boxes wraps onto further rows, so 64
/// independent loads make a block, not a 10,000-pixel line; 8 boxes fit
/// a webview beside an editor on a wide screen.
constexpr unsigned kMaxPerRow = 8;
/// Carried edges run in lanes this far apart right of the graph.
constexpr double kLaneGap = 6;
constexpr unsigned kMaxLanes = 24;
/// Above this many ops the picture is a line saying so (a 300-op loop's
/// graph is 0.3 MB of SVG; a 4,000-op one would be 3.5 MB).
constexpr size_t kMaxDrawnNodes = 1500;

} // namespace waveasm::server::graph

#endif // WAVEASM_SERVER_FEATURES_DEPENDENCELAYOUT_H
