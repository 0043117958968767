//===- waveasm-conductor.cpp - schedule a WaveASM loop from the shell -----===//
//
// waveasm-conductor FILE [--llm openai|anthropic|none] [--strategy NAMES]
//                   [--rounds N] ...
//
// Runs the Conductor on the default region of FILE's first program (the
// innermost loop body, else the program body): baseline metrics, rounds of
// moves from the chosen source (built-in strategies for `--llm none`, a
// script with `--replies`), then writes FILE's text with that block's ops
// reordered (each op's source lines moved verbatim, comments kept) to -o
// (default stdout). The input file is never modified.
//
// Exit status: 0 when a schedule no worse than the input was written; 1 when
// no schedule that compiles exists (the input does not compile and nothing
// fixed it) or the result failed its re-check; 2 for usage, I/O and parse
// errors.
//
//===----------------------------------------------------------------------===//

#include "conductor/Cache.h"
#include "conductor/Driver.h"
#include "conductor/LLMMoveSource.h"
#include "conductor/MoveSource.h"
#include "conductor/Profile.h"
#include "conductor/Session.h"
#include "conductor/TextEdit.h"
#include "ir/Dialect.h"
#include "pipeline/CompileAndMeasure.h"
#include "sim/Directives.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "support/Version.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
namespace cl = llvm::cl;

static cl::opt<std::string> inputPath(cl::Positional, cl::desc("FILE"),
                                      cl::Required);
static cl::opt<std::string> outputPath("o",
                                       cl::desc("output file ('-': stdout)"),
                                       cl::value_desc("OUT"), cl::init("-"));
static cl::opt<std::string>
    llmProvider("llm",
                cl::desc("reply source: openai, anthropic or none "
                         "(built-in strategies)"),
                cl::init("none"));
static cl::opt<std::string> baseUrl("base-url", cl::desc("LLM API base URL"));
static cl::opt<std::string> modelName("model", cl::desc("LLM model name"));
static cl::opt<std::string>
    apiKeyEnv("api-key-env",
              cl::desc("environment variable holding the API key"),
              cl::init("WAVEASM_LLM_API_KEY"));
static cl::opt<int> rounds("rounds", cl::desc("round budget"), cl::init(10));
static cl::opt<int> agents("agents", cl::desc("parallel agents (LLM search)"),
                           cl::init(1));
static cl::opt<int> checkpoint("checkpoint",
                               cl::desc("rounds between checkpoints"),
                               cl::init(2));
static cl::opt<int> topK("top-k", cl::desc("agents kept at a checkpoint"),
                         cl::init(2));
static cl::opt<bool> llmTools(
    "llm-tools",
    cl::desc("the LLM calls apply_moves/evaluate tools instead of writing "
             "commands as text"));
static cl::opt<bool> noCache("no-cache",
                             cl::desc("neither read nor write the cache"));
static cl::opt<bool> cacheSameSource(
    "cache-same-source",
    cl::desc("replay only cache entries found by the source asked for "
             "(provider:model, builtin:STRATEGIES VERSION or script); an "
             "entry of another source is bypassed and replaced by this run's "
             "result (a cached \"no better schedule\" is only taken from "
             "the same source anyway)"));
static cl::opt<std::string> repliesPath(
    "replies",
    cl::desc("take replies from FILE (separated by lines '---') instead of "
             "--llm: replays a transcript, used by the tests"),
    cl::value_desc("FILE"));
static cl::opt<std::string>
    metricOrder("metric-order",
                cl::desc("is_better key order, comma separated (default "
                         "peak_vgpr,waitcnts_inserted,nops_inserted,"
                         "total_instructions)"));
static cl::opt<std::string> targetName("target",
                                       cl::desc("override the target"));
static cl::opt<std::string> pipelineName(
    "pipeline",
    cl::desc("measure with the production pipeline and upstream's "
             "optimizations (full, the default) or with allocation, waits "
             "and hazards only (backend)"),
    cl::init("full"));
static cl::opt<std::string> profilePath(
    "profile",
    cl::desc("per-instruction profile CSV (key,hits,lat_min,lat_mean,lat_max; "
             "key = tag or assembly line) added to the prompt"),
    cl::value_desc("CSV"));
static cl::opt<bool> checkByExecution(
    "check-by-execution",
    cl::desc("run every schedule about to be kept against the input in the "
             "simulator and revert one that computes different results "
             "(default on; =false to skip)"),
    cl::init(true));
static cl::opt<std::string> strategyNames(
    "strategy",
    cl::desc("with --llm none: the built-in strategies to run, comma "
             "separated, in order (list-latency, pressure, spectral; "
             "default: all of them; `pipeline` only by name)"),
    cl::value_desc("NAMES"));
static cl::opt<double> spectralEpsilon(
    "spectral-epsilon",
    cl::desc("the spectral strategy keeps the input order unless its "
             "co-access cost C(pi) drops by at least this fraction "
             "(default 0.05)"),
    cl::init(0.05));
static cl::opt<bool> showPrompt("print-prompt",
                                cl::desc("print the first prompt to the log"));

namespace {

llvm::raw_ostream *logStream = &llvm::errs();
llvm::raw_ostream &log() { return *logStream; }

int usageError(const llvm::Twine &message) {
  llvm::errs() << "waveasm-conductor: error: " << message << "\n";
  return 2;
}

/// The before/after table of the metrics the Conductor compares by.
void printTable(const Session &session) {
  const ProgramMetrics &a = session.baselineMetrics(),
                       &b = session.bestMetrics();
  struct Row {
    const char *name;
    int64_t before, after;
  };
  std::vector<Row> rows = {
      {"peak_vgpr", a.peak_vgpr, b.peak_vgpr},
      {"peak_sgpr", a.peak_sgpr, b.peak_sgpr},
      {"peak_agpr", a.peak_agpr, b.peak_agpr},
      {"nops_inserted", a.nops_inserted, b.nops_inserted},
      {"waitcnts_inserted", a.waitcnts_inserted, b.waitcnts_inserted},
      {"total_instructions", a.total_instructions, b.total_instructions},
      {"est_cycles", a.est_cycles, b.est_cycles},
      {"occupancy", a.occupancy, b.occupancy}};
  for (size_t i = 0; i < a.loops.size() && i < b.loops.size(); ++i) {
    static std::vector<std::string> names;
    names.push_back("loop" + std::to_string(i) + ".est_cycles_per_iter");
    rows.push_back({names.back().c_str(), a.loops[i].est_cycles_per_iter,
                    b.loops[i].est_cycles_per_iter});
  }
  log() << llvm::format("%-30s %10s %10s\n", "metric", "before", "after");
  for (const Row &row : rows)
    log() << llvm::format("%-30s %10lld %10lld%s\n", row.name,
                          (long long)row.before, (long long)row.after,
                          row.before == row.after ? "" : "  *");
  // The co-access figures are fractional (OrderCost.h).
  for (size_t i = 0; i < a.loops.size() && i < b.loops.size(); ++i) {
    const LoopMetrics &x = a.loops[i], &y = b.loops[i];
    std::string loop = "loop" + std::to_string(i);
    log() << llvm::format("%-30s %10.2f %10.2f%s\n",
                          (loop + ".coaccess_cost").c_str(), x.coaccess_cost,
                          y.coaccess_cost,
                          x.coaccess_cost == y.coaccess_cost ? "" : "  *");
    log() << llvm::format(
        "%-30s %10.3f %10.3f%s\n", (loop + ".coaccess_modularity").c_str(),
        x.coaccess_modularity, y.coaccess_modularity,
        x.coaccess_modularity == y.coaccess_modularity ? "" : "  *");
  }
}

void logRound(const RoundReport &report, llvm::StringRef source) {
  log() << report.summary() << " [" << source << "]\n";
  if (!report.metricsChange.empty())
    log() << "  better: " << report.metricsChange << "\n";
  for (const std::string &warning : report.warnings)
    log() << "  " << warning << "\n";
  for (const std::string &line : report.ignoredLines)
    log() << "  ignored: " << line << "\n";
  for (const std::string &error : report.commandErrors)
    log() << "  error: " << error << "\n";
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  waveasm::installVersionPrinter("waveasm-conductor");
  cl::ParseCommandLineOptions(
      argc, argv,
      "waveasm-conductor: schedule the innermost loop of a WaveASM file\n");
  if (outputPath != "-")
    logStream = &llvm::outs();

  bool scripted = !repliesPath.empty();
  std::optional<llm::Provider> provider = llm::parseProvider(llmProvider);
  if (!scripted && llmProvider != "none" && !provider)
    return usageError("unknown --llm '" + llmProvider +
                      "' (expected openai, anthropic or none)");
  if (rounds < 1)
    return usageError("--rounds must be at least 1");
  if (agents < 1 || checkpoint < 1 || topK < 1)
    return usageError("--agents, --checkpoint and --top-k must be at least 1");

  // Read and parse; the text stays as read so the output can be an edit.
  auto buffer = llvm::MemoryBuffer::getFile(inputPath, /*IsText=*/true);
  if (!buffer)
    return usageError("cannot read '" + inputPath +
                      "': " + buffer.getError().message());
  llvm::StringRef text = (*buffer)->getBuffer();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(text, inputPath, false), llvm::SMLoc());
  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.loadDialect<WaveASMDialect>();
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  Block parsed;
  AsmParserState state;
  ParserConfig config(&context);
  if (failed(parseAsmSourceFile(sourceMgr, &parsed, config, &state)))
    return 2;
  OwningOpRef<ModuleOp> module =
      mlir::detail::constructContainerOpForParserIfNecessary<ModuleOp>(
          &parsed, &context, FileLineColLoc::get(&context, inputPath, 1, 1));
  if (!module || failed(verify(*module)))
    return 2;

  if (pipelineName != "full" && pipelineName != "backend")
    return usageError("unknown --pipeline '" + pipelineName +
                      "' (expected full or backend)");
  SessionOptions options;
  options.maxRounds = rounds;
  options.targetOverride = targetName;
  options.optimizePipeline = pipelineName == "full";
  options.checkByExecution = checkByExecution;
  // The file's `// waveasm-sim:` lines: the inputs the check runs on.
  setExecutionInputs(options, text);
  if (checkByExecution && !options.executionInputsError.empty()) {
    // The same reader, for the line and column of the bad word.
    std::optional<sim::DirectiveError> bad = sim::readSimDirectives(text).error;
    return usageError(bad ? bad->str(inputPath)
                          : inputPath + ": " + options.executionInputsError);
  }
  if (!metricOrder.empty()) {
    llvm::SmallVector<llvm::StringRef> keys;
    llvm::StringRef(metricOrder).split(keys, ',', -1, false);
    for (llvm::StringRef key : keys)
      options.metricKeyOrder.push_back(key.trim().str());
  }
  std::string error;
  FailureOr<std::unique_ptr<Session>> created =
      Session::create(*module, nullptr, options, &error);
  if (failed(created))
    return usageError(inputPath + ": " + error);
  Session &session = **created;
  log() << "scheduling the " << describeRegion(session.region()) << " of @"
        << session.program().getSymName() << " (" << session.region().ops.size()
        << " ops)\n";
  if (!session.baselineError().empty())
    log() << "note: the input does not compile: " << session.baselineError()
          << "\n";
  if (!profilePath.empty()) {
    auto csv = llvm::MemoryBuffer::getFile(profilePath, true);
    if (!csv)
      return usageError("cannot read '" + profilePath +
                        "': " + csv.getError().message());
    llvm::Expected<std::vector<ProfileRow>> rows =
        parseProfileCSV((*csv)->getBuffer(), profilePath);
    if (!rows)
      return usageError(llvm::toString(rows.takeError()));
    std::vector<std::string> unmatched;
    std::vector<TaggedProfile> profile =
        correlateProfile(session, *rows, &unmatched);
    if (!unmatched.empty())
      log() << "warning: " << unmatched.size()
            << " profile rows match no tag or assembly line (first: "
            << unmatched.front() << ")\n";
    session.setProfilingSection(formatProfileSection(profile));
  }
  if (showPrompt)
    log() << session.prompt();

  // Cache: a hit replays the moves (validated again), no reply source runs.
  ScheduleCache cache(noCache ? std::string()
                              : ScheduleCache::defaultDirectory());
  std::unique_ptr<MoveSource> source;
  StrategyMoveSource *strategySource = nullptr;
  LLMMoveSource *llmSource = nullptr;
  SearchMoveSource *searchSource = nullptr;
  std::string model;
  if (scripted) {
    auto replies = llvm::MemoryBuffer::getFile(repliesPath, true);
    if (!replies)
      return usageError("cannot read '" + repliesPath +
                        "': " + replies.getError().message());
    source = std::make_unique<ScriptedMoveSource>(
        splitScriptedReplies((*replies)->getBuffer()));
    model = "script";
  } else if (provider) {
    // LLM: one agent, or the parallel search with --agents > 1 (or tools).
    llm::LLMConfig llmConfig = llm::LLMConfig::defaults(*provider);
    if (!baseUrl.empty())
      llmConfig.baseUrl = baseUrl;
    if (!modelName.empty())
      llmConfig.model = modelName;
    llmConfig.apiKeyEnv = apiKeyEnv;
    model = llmProvider + ":" + llmConfig.model;
    if (agents == 1 && !llmTools) {
      auto one = std::make_unique<LLMMoveSource>(llmConfig);
      llmSource = one.get();
      source = std::move(one);
    } else {
      SearchOptions options;
      options.agents = agents;
      options.checkpointRounds = checkpoint;
      options.topK = topK;
      options.toolCalling = llmTools;
      auto search = std::make_unique<SearchMoveSource>(
          llmConfig, options,
          [](const SearchEvent &event) { log() << event.message << "\n"; });
      searchSource = search.get();
      source = std::move(search);
    }
  } else {
    BuiltinStrategyOptions builtinOptions;
    builtinOptions.spectralEpsilon = spectralEpsilon;
    std::vector<Strategy> strategies = builtinStrategies(builtinOptions);
    if (!strategyNames.empty()) {
      llvm::Expected<std::vector<Strategy>> chosen =
          selectBuiltinStrategies(strategyNames, builtinOptions);
      if (!chosen)
        return usageError("--strategy: " + llvm::toString(chosen.takeError()));
      strategies = std::move(*chosen);
    }
    if (strategies.empty())
      log() << "note: no built-in strategy is linked into this build; the "
               "schedule stays as written unless the cache has one\n";
    if (agents > 1)
      log() << "note: --agents applies to LLM search; the built-in "
               "strategies run once\n";
    // The cache's source: the strategies and the build that ran them (a
    // newer build or other strategies may find what these did not).
    std::vector<std::string> names;
    for (const Strategy &strategy : strategies)
      names.push_back(strategy.name);
    model = "builtin:" + llvm::join(names, ",") + " " + getVersionString();
    auto builtin = std::make_unique<StrategyMoveSource>(std::move(strategies));
    strategySource = builtin.get();
    source = std::move(builtin);
  }
  CachePolicy policy;
  policy.source = model;
  policy.sameSourceOnly = cacheSameSource;
  RunResult run = runConductor(
      session, *source, cache.directory().empty() ? nullptr : &cache, policy,
      [&](const RoundReport &report, llvm::StringRef from) {
        if (from == "cache" && report.applied.empty())
          return; // a cached "no better schedule": no round to show
        logRound(report, strategySource && from == "builtin"
                             ? "builtin:" + strategySource->lastStrategy()
                             : from.str());
      });
  // Say which source a cached result came from: with the default policy it
  // may not be the one asked for.
  if (run.cacheHit) {
    log() << "cache hit: ";
    if (run.cacheFoundNothing)
      log() << run.cacheSource
            << " found no better schedule for this input; it stays as written";
    else
      log() << "replayed " << session.bestMoves().size()
            << " cached moves found by " << run.cacheSource;
    log() << " (no "
          << (llvm::StringRef(model).starts_with("builtin") ? "strategy run"
                                                            : "LLM call")
          << ")\n";
    if (run.cacheSource != model)
      log() << "note: the cached result is " << run.cacheSource << "'s, not "
            << model << "'s; --cache-same-source asks " << model
            << " instead\n";
  } else if (!run.bypassedSource.empty()) {
    log() << "cache: bypassed the entry found by " << run.bypassedSource
          << (cacheSameSource ? " (--cache-same-source)"
                              : " (its \"no better schedule\" is not "
                                "this source's)")
          << "\n";
  }
  for (const std::string &warning : run.warnings)
    log() << "warning: " << warning << "\n";
  if (llmSource || searchSource) {
    // Request errors (after retries; never the key), token usage, and a
    // failure when the LLM answered no round at all.
    std::vector<std::string> errors;
    int answered = 0;
    if (llmSource) {
      if (!llmSource->lastError().empty())
        errors.push_back(llmSource->lastError());
      answered = run.sourceCalls;
      log() << "tokens: " << llmSource->usage().inputTokens << " in, "
            << llmSource->usage().outputTokens << " out\n";
    } else {
      const SearchResult &result = searchSource->result();
      errors = result.errors;
      answered = result.rounds;
      log() << "search: " << result.checkpoints << " checkpoints, "
            << result.rounds << " rounds, " << result.requests
            << " requests; tokens: " << result.usage.inputTokens << " in, "
            << result.usage.outputTokens << " out\n";
    }
    for (const std::string &error : errors)
      llvm::errs() << "waveasm-conductor: error: " << error << "\n";
    if (!errors.empty() && answered == 0 && !run.cacheHit) {
      llvm::errs() << "waveasm-conductor: error: the LLM answered no round; "
                      "nothing written\n";
      return 1;
    }
  }

  if (!session.bestCompiles()) {
    llvm::errs() << "waveasm-conductor: error: no schedule that compiles was "
                    "found (the input fails: "
                 << session.baselineError() << "); nothing written\n";
    return 1;
  }

  // The output: the input text with the block's op lines reordered; a
  // pipelined loop is no reordering of the input, so then the whole module
  // as compiled (prologue, steady state, epilogue), printed.
  FailureOr<std::string> result = failure();
  if (session.bestIsPipelined()) {
    std::string printed;
    llvm::raw_string_ostream os(printed);
    session.resultModule()->print(os);
    result = printed;
  } else {
    Block *inputBlock = session.inputOp(0)->getBlock();
    FailureOr<std::vector<OpTextRange>> ranges =
        computeOpTextRanges(text, *inputBlock, state, &error);
    if (failed(ranges))
      return usageError(inputPath + ": cannot edit the text: " + error);
    std::vector<unsigned> order = session.currentOrder();
    result = reorderBlockText(text, *ranges, order, &error);
    if (failed(result))
      return usageError("cannot reorder the text: " + error);
  }

  // Re-check: the written text parses, verifies and measures as the best.
  {
    ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &diag) {
      if (error.empty())
        error = diag.str();
      return success();
    });
    OwningOpRef<ModuleOp> reparsed =
        parseSourceString<ModuleOp>(*result, ParserConfig(&context));
    CompileOptions compile;
    compile.pipeline =
        CompileOptions::measuringPipeline(options.optimizePipeline);
    compile.emitAssembly = false;
    FailureOr<CompileResult> measured = failure();
    if (reparsed)
      measured = compileAndMeasure(*reparsed, compile);
    if (!reparsed || failed(measured)) {
      llvm::errs() << "waveasm-conductor: error: the rescheduled text does not "
                      "compile: "
                   << error << "\n";
      return 1;
    }
  }

  printTable(session);
  if (outputPath == "-") {
    llvm::outs() << *result;
    llvm::outs().flush();
    return 0;
  }
  bool same = false;
  if (!llvm::sys::fs::equivalent(inputPath, outputPath, same) && same)
    return usageError("refusing to overwrite the input file '" + inputPath +
                      "'");
  std::error_code ec;
  llvm::raw_fd_ostream out(outputPath, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return usageError("cannot write '" + outputPath + "': " + ec.message());
  out << *result;
  log() << "wrote " << outputPath << " (" << session.bestMoves().size()
        << " moves)\n";
  return 0;
}
