//===- DependenceView.cpp - the dependence graph of one loop body ---------===//
//
// waveasm/dependenceGraph and `check --format html` draw the constraints
// the Conductor's schedulers keep, so the picture is what a schedule must
// respect: conductor::DependenceGraph of the loop body as written (the
// text the user edits, so every node reveals an op) and the latencies of
// conductor::SchedulingModel on the settings' target model. Nothing here
// needs the pipeline: the graph answers as soon as the text verifies, and
// also for a loop the allocator cannot fit.
//
// Loop-carried edges: the terminator's iter_args feed the block arguments
// of the next iteration; an edge goes from the op defining a yielded value
// (when the body defines it) to each op of the body reading the matching
// block argument. A value yielded unchanged (a rotation of buffers) is
// carried over two iterations or more, and not drawn.
//
// Ordering edges implied by a longer path (most barrier edges: every op
// before a barrier is ordered before it) stay in the data but not in the
// picture: transitive reduction over the body's reachability bit sets.
// Data edges are always drawn: their latency is information.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"

#include "conductor/strategies/SchedulingModel.h"
#include "ir/InstFacts.h"
#include "protocol/LspJSON.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;
using conductor::DepKind;
using llvm::json::Array;
using llvm::json::Object;

llvm::StringRef waveasm::server::getDependenceKindName(DepKind kind) {
  // The Conductor calls a pinned op's constraint a wall; the editor shows
  // what the user sees in the body: barriers, waits, the branch.
  if (kind == DepKind::Wall)
    return "barrier";
  return conductor::stringifyDepKind(kind);
}

namespace {

TargetModel targetFor(ProgramOp program, const ServerSettings &settings) {
  TargetKind kind = settings.targetOverride.value_or(program.getTargetKind());
  llvm::Expected<TargetModel> model =
      TargetModel::getWithOverrides(kind, settings.targetModelOverrides);
  if (model)
    return std::move(*model);
  // Bad overrides are the settings' diagnostic (the compile reports them).
  llvm::consumeError(model.takeError());
  return TargetModel::get(kind);
}

/// The nodes after `i` on its longest path, reading the model's heights.
std::vector<unsigned> criticalPathFrom(const conductor::SchedulingModel &model,
                                       unsigned i) {
  const conductor::DependenceGraph &graph = model.getGraph();
  std::vector<unsigned> path{i};
  for (;;) {
    std::optional<unsigned> next;
    for (unsigned s : graph.succs(i))
      if (model.edgeLatency(i, s) + model.height(s) == model.height(i)) {
        next = s;
        break;
      }
    if (!next)
      return path;
    path.push_back(*next);
    i = *next;
  }
}

/// Marks ordering edges that a longer path already implies.
void markImpliedEdges(const conductor::DependenceGraph &graph,
                      std::vector<DependenceEdge> &edges) {
  unsigned n = graph.size();
  // Descendants of each node, in reverse body order (edges go forward).
  std::vector<llvm::BitVector> below(n, llvm::BitVector(n));
  for (unsigned i = n; i-- > 0;)
    for (unsigned s : graph.succs(i)) {
      below[i].set(s);
      below[i] |= below[s];
    }
  for (DependenceEdge &edge : edges) {
    if (edge.carried || edge.kind == DepKind::Data || edge.critical)
      continue;
    for (unsigned s : graph.succs(edge.from))
      if (s != edge.to && below[s].test(edge.to)) {
        edge.implied = true;
        break;
      }
  }
}

DependenceView buildView(const ParsedDocument &parsed,
                         const ServerSettings &settings, LoopOp loop) {
  ProgramOp program = loop->getParentOfType<ProgramOp>();
  TargetModel target = targetFor(program, settings);
  Block &body = loop.getBody().front();
  conductor::DependenceGraph graph(body);
  conductor::SchedulingModel model(graph, target);
  unsigned n = graph.size();

  DependenceView view;
  view.programName = program.getSymName().str();
  view.target =
      getTargetInfo(settings.targetOverride.value_or(program.getTargetKind()))
          .name.str();
  if (std::optional<unsigned> entry = parsed.lookupOp(loop)) {
    view.loopEntry = *entry;
    view.range = parsed.getOps()[*entry].name;
    view.program = parsed.getOps()[*entry].program;
  }
  view.title = llvm::formatv("@{0} loop at line {1}", view.programName,
                             view.loopEntry == OpEntry::kNone
                                 ? 0
                                 : getDisplayLine(parsed, view.loopEntry));

  view.nodes.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    Operation *op = graph.getOp(i);
    DependenceNode &node = view.nodes[i];
    if (std::optional<unsigned> entry = parsed.lookupOp(op)) {
      node.opEntry = *entry;
      node.range = parsed.getOps()[*entry].name;
      node.line = getDisplayLine(parsed, *entry);
    }
    node.mnemonic = getMnemonic(op).str();
    node.text = getShortText(op);
    node.unit = lookupInstFacts(op).unit;
    node.latency = model.op(i).latency;
    node.height = model.height(i);
  }

  for (const conductor::DepEdge &e : graph.edges())
    view.edges.push_back(
        {e.from, e.to, e.kind, model.edgeLatency(e.from, e.to)});

  // Critical path: from the highest node, down its longest path.
  if (n) {
    unsigned start = 0;
    for (unsigned i = 1; i < n; ++i)
      if (model.height(i) > model.height(start))
        start = i;
    view.criticalPath = criticalPathFrom(model, start);
    view.criticalLength = model.height(start);
    for (unsigned i : view.criticalPath)
      view.nodes[i].critical = true;
    std::vector<int> step(n, -1);
    for (auto [k, i] : llvm::enumerate(view.criticalPath))
      step[i] = k;
    for (DependenceEdge &edge : view.edges)
      edge.critical =
          step[edge.from] >= 0 && step[edge.to] == step[edge.from] + 1;
  }
  markImpliedEdges(graph, view.edges);

  // Loop-carried data edges, through the terminator's iter_args.
  if (ConditionOp condition = loop.getConditionOp()) {
    for (auto [k, yielded] : llvm::enumerate(condition.getIterArgs())) {
      if (k >= body.getNumArguments())
        break;
      Operation *def = yielded.getDefiningOp();
      Operation *from = def ? body.findAncestorOpInBlock(*def) : nullptr;
      std::optional<unsigned> f = from ? graph.indexOf(from) : std::nullopt;
      if (!f)
        continue;
      int64_t latency = model.op(*f).latency;
      llvm::SmallVector<unsigned, 4> readers;
      for (Operation *user : body.getArgument(k).getUsers())
        if (Operation *anc = body.findAncestorOpInBlock(*user))
          if (std::optional<unsigned> t = graph.indexOf(anc);
              t && !isa<ConditionOp>(anc) && !llvm::is_contained(readers, *t))
            readers.push_back(*t);
      llvm::sort(readers);
      for (unsigned t : readers) {
        int64_t lat = latency;
        // An accumulator chain: the next MFMA reads the result as SrcC.
        InstFacts facts = lookupInstFacts(graph.getOp(t));
        if (facts.unit == ExecUnit::MFMA && facts.tiedOperand >= 0 &&
            model.op(*f).mfmaOccupancy > 0 &&
            static_cast<unsigned>(facts.tiedOperand) <
                graph.getOp(t)->getNumOperands() &&
            graph.getOp(t)->getOperand(facts.tiedOperand) ==
                body.getArgument(k))
          lat = target.getMFMAChainLatency(graph.getOp(*f));
        DependenceEdge edge{*f, t, DepKind::Data, lat};
        edge.carried = true;
        view.edges.push_back(edge);
      }
    }
  }
  layoutDependenceView(view);
  return view;
}

/// The loops of `parsed`'s programs, in document order.
std::vector<LoopOp> allLoops(const ParsedDocument &parsed) {
  std::vector<LoopOp> loops;
  for (const OpEntry &entry : parsed.getOps())
    if (auto loop = dyn_cast<LoopOp>(entry.op))
      loops.push_back(loop);
  return loops;
}

} // namespace

std::optional<DependenceView>
waveasm::server::computeDependenceView(const ParsedDocument &parsed,
                                       const ServerSettings &settings,
                                       std::optional<lsp::Position> pos) {
  if (!parsed.isVerified())
    return std::nullopt;
  if (pos)
    if (std::optional<ScheduleTarget> target = findScheduleTarget(parsed, *pos))
      if (auto loop = dyn_cast<LoopOp>(target->owner))
        return buildView(parsed, settings, loop);
  std::vector<LoopOp> loops = allLoops(parsed);
  if (loops.empty())
    return std::nullopt;
  return buildView(parsed, settings, loops.front());
}

std::vector<DependenceView>
waveasm::server::computeAllDependenceViews(const ParsedDocument &parsed,
                                           const ServerSettings &settings) {
  std::vector<DependenceView> views;
  if (!parsed.isVerified())
    return views;
  for (LoopOp loop : allLoops(parsed))
    views.push_back(buildView(parsed, settings, loop));
  return views;
}

llvm::json::Value
waveasm::server::dependenceViewToJSON(const DependenceView &view,
                                      int64_t version, bool svg) {
  Array nodes;
  nodes.reserve(view.nodes.size());
  for (auto [i, node] : llvm::enumerate(view.nodes)) {
    Object item{{"id", int64_t(i)},
                {"line", node.line},
                {"mnemonic", node.mnemonic},
                {"text", node.text},
                {"unit", getUnitName(node.unit)},
                {"latency", node.latency},
                {"height", node.height},
                {"layer", int64_t(node.layer)},
                {"x", node.x},
                {"y", node.y}};
    if (node.opEntry != OpEntry::kNone)
      item["at"] = Array{node.range.start.line, node.range.start.character};
    if (node.critical)
      item["critical"] = true;
    nodes.push_back(std::move(item));
  }
  Array edges;
  edges.reserve(view.edges.size());
  // Implied ordering edges are counted, not listed: a loop of a few
  // thousand ops has a few hundred thousand of them (every op before a
  // barrier), most of a 20 MB answer, and no client draws them.
  int64_t implied = 0;
  for (const DependenceEdge &edge : view.edges) {
    if (edge.implied) {
      ++implied;
      continue;
    }
    Object item{{"from", int64_t(edge.from)},
                {"to", int64_t(edge.to)},
                {"kind", getDependenceKindName(edge.kind)},
                {"latency", edge.latency}};
    if (edge.carried)
      item["carried"] = true;
    if (edge.critical)
      item["critical"] = true;
    edges.push_back(std::move(item));
  }
  Array path;
  for (unsigned i : view.criticalPath)
    path.push_back(int64_t(i));
  Object result{{"version", version},
                {"title", view.title},
                {"program", view.programName},
                {"target", view.target},
                {"range", lsp::toJSON(view.range)},
                {"criticalLength", view.criticalLength},
                {"criticalPath", std::move(path)},
                {"layers", int64_t(view.numLayers)},
                {"nodes", std::move(nodes)},
                {"edges", std::move(edges)},
                {"impliedEdges", implied}};
  if (svg) {
    result["svg"] = renderDependenceSvg(view);
    result["css"] = getDependenceCss();
  }
  return result;
}
