//===- ScheduleBench.cpp - the schedule view's costs ----------------------===//
//
// On one WaveASM file (K runs; milliseconds):
//
//   compile   the background compile the view reads (CompiledDocument:
//             pipeline + annotations), once per document version, for scale
//   request   waveasm/schedule with render "svg" once the compile is there:
//             computeScheduleView at the first loop, scheduleViewToJSON
//             with the SVG, serialized (p50 and p90; its size is reported)
//   all       computeAllScheduleViews + renderScheduleSvg of every view:
//             what `check --format html` adds to the check
//   graph     waveasm/dependenceGraph's work on the first loop: the
//             dependence graph, latencies, critical path, carried edges and
//             the layout (computeDependenceView; no compile needed), p50
//             and p90; then the whole answer with the SVG, serialized
//
// Usage: waveasm-bench-schedule FILE [K=20]. Budget: open and refresh of
// a 300-op loop's view within 100 ms; its dependence graph built and laid
// out within 50 ms.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"

#include "BenchTiming.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace waveasm;
using namespace waveasm::server;

using bench::percentile;

int main(int argc, char **argv) {
  std::optional<bench::DriverArgs> args =
      bench::parseDriverArgs(argc, argv, "waveasm-bench-schedule", 20);
  if (!args)
    return 2;
  mlir::MLIRContext ctx(bench::benchThreading(/*threadedByDefault=*/true));
  ServerSettings settings;
  ParsedDocument doc(ctx, "file:///bench.mlir", args->text, 1, settings);
  if (!doc.isVerified()) {
    llvm::errs() << "error: the file does not verify\n";
    return 1;
  }
  std::vector<double> compile, compileCpu, request, requestCpu, all, allCpu;
  std::unique_ptr<CompiledDocument> compiled;
  for (int i = 0; i < std::min(args->runs, 3); ++i)
    compile.push_back(bench::timeMs(&compileCpu, [&] {
      compiled = std::make_unique<CompiledDocument>(doc, settings);
    }));
  if (!compiled->succeeded()) {
    llvm::errs() << "error: the file does not compile\n";
    return 1;
  }
  size_t bytes = 0, rows = 0, views = 0, svgBytes = 0;
  std::string title;
  for (int i = 0; i < args->runs; ++i) {
    request.push_back(bench::timeMs(&requestCpu, [&] {
      std::optional<ScheduleView> view =
          computeScheduleView(doc, compiled.get(), std::nullopt);
      llvm::json::Value answer =
          scheduleViewToJSON(*view, 1, ScheduleRender::SVG);
      std::string out;
      llvm::raw_string_ostream os(out);
      os << answer;
      bytes = out.size();
      rows = view->rows.size();
      title = view->title;
    }));
    all.push_back(bench::timeMs(&allCpu, [&] {
      svgBytes = 0;
      std::vector<ScheduleView> list =
          computeAllScheduleViews(doc, compiled.get());
      views = list.size();
      for (const ScheduleView &view : list)
        svgBytes += renderScheduleSvg(view).size();
    }));
  }
  std::vector<double> graph, graphCpu, graphAnswer;
  size_t graphNodes = 0, graphEdges = 0, graphBytes = 0;
  for (int i = 0; i < args->runs; ++i) {
    std::optional<DependenceView> view;
    graph.push_back(bench::timeMs(&graphCpu, [&] {
      view = computeDependenceView(doc, settings, std::nullopt);
    }));
    if (!view)
      break;
    graphNodes = view->nodes.size();
    graphEdges = view->edges.size();
    graphAnswer.push_back(bench::timeMs(nullptr, [&] {
      std::string out;
      llvm::raw_string_ostream os(out);
      os << dependenceViewToJSON(*view, 1, /*svg=*/true);
      graphBytes = out.size();
    }));
  }
  llvm::outs() << "file: " << argv[1] << " (" << args->runs << " runs)\n";
  llvm::outs() << llvm::format(
      "compile  %8.2f ms median (CPU %.2f; once per version, in the "
      "background)\n",
      percentile(compile, 0.5), percentile(compileCpu, 0.5));
  llvm::outs() << llvm::format(
      "request  %8.2f ms p50, %.2f ms p90 (CPU p50 %.2f): %s, %zu rows, "
      "answer %.3f MB\n",
      percentile(request, 0.5), percentile(request, 0.9),
      percentile(requestCpu, 0.5), title.c_str(), rows, bytes / 1e6);
  llvm::outs() << llvm::format(
      "all      %8.2f ms median (CPU %.2f): %zu views, SVG %.2f MB\n",
      percentile(all, 0.5), percentile(allCpu, 0.5), views, svgBytes / 1e6);
  if (!graph.empty() && graphNodes)
    llvm::outs() << llvm::format(
        "graph    %8.2f ms p50, %.2f ms p90 (CPU p50 %.2f): first loop, %zu "
        "ops, %zu edges; + JSON and SVG %.2f ms p50, answer %.3f MB\n",
        percentile(graph, 0.5), percentile(graph, 0.9),
        percentile(graphCpu, 0.5), graphNodes, graphEdges,
        percentile(graphAnswer, 0.5), graphBytes / 1e6);
  return 0;
}
