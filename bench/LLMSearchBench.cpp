//===- LLMSearchBench.cpp - wall-clock of the parallel LLM search ---------===//
//
// Runs conductor::Search on one kernel against an LLM endpoint (in the
// benchmark: tests/fake_llm/fake_llm_server.py answering after a fixed
// delay) and prints one JSON object: wall-clock, requests, rounds,
// checkpoints, the most requests in flight at once, process CPU time, and
// the baseline and best metrics. bench/llm_search_bench.py drives it.
//
// Usage: waveasm-bench-llm-search --base-url URL [--provider openai|anthropic]
//   [--model M] [--api-key-env NAME] [--agents P] [--rounds N]
//   [--checkpoint K] [--top-k k] [--tools] KERNEL.mlir
//
//===----------------------------------------------------------------------===//

#include "conductor/Search.h"
#include "ir/Dialect.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include <nlohmann/json.hpp>
#include <uv.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <sys/resource.h>

using namespace waveasm;
using namespace waveasm::conductor;
using json = nlohmann::json;

static double cpuSeconds() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static json metricsJson(const ProgramMetrics &m) {
  json loops = json::array();
  for (const LoopMetrics &l : m.loops)
    loops.push_back(l.est_cycles_per_iter);
  return {{"peak_vgpr", m.peak_vgpr},
          {"waitcnts_inserted", m.waitcnts_inserted},
          {"nops_inserted", m.nops_inserted},
          {"est_cycles", m.est_cycles},
          {"est_cycles_per_iter", loops}};
}

int main(int argc, char **argv) {
  llm::LLMConfig config;
  config.apiKeyEnv = "";
  config.model = "fake";
  SearchOptions options;
  options.agents = 8;
  options.checkpointRounds = 2;
  options.topK = 4;
  int rounds = 5;
  std::string kernel;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--base-url")
      config.baseUrl = value();
    else if (arg == "--provider") {
      auto p = llm::parseProvider(value());
      if (!p) {
        std::fprintf(stderr, "error: --provider is openai or anthropic\n");
        return 2;
      }
      config.provider = *p;
    } else if (arg == "--model")
      config.model = value();
    else if (arg == "--api-key-env")
      config.apiKeyEnv = value();
    else if (arg == "--agents")
      options.agents = std::stoi(value());
    else if (arg == "--rounds")
      rounds = std::stoi(value());
    else if (arg == "--checkpoint")
      options.checkpointRounds = std::stoi(value());
    else if (arg == "--top-k")
      options.topK = std::stoi(value());
    else if (arg == "--tools")
      options.toolCalling = true;
    else if (!arg.empty() && arg[0] != '-')
      kernel = arg;
    else {
      std::fprintf(stderr, "error: unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  if (kernel.empty() || config.baseUrl.empty()) {
    std::fprintf(stderr, "usage: waveasm-bench-llm-search --base-url URL "
                         "[options] KERNEL.mlir\n");
    return 2;
  }

  mlir::MLIRContext ctx;
  ctx.disableMultithreading();
  ctx.loadDialect<WaveASMDialect>();
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(kernel, sourceMgr, &ctx);
  if (!module)
    return 1;
  SessionOptions sessionOptions;
  sessionOptions.maxRounds = rounds;
  std::string error;
  auto session = Session::create(*module, nullptr, sessionOptions, &error);
  if (mlir::failed(session)) {
    std::fprintf(stderr, "%s: error: %s\n", kernel.c_str(), error.c_str());
    return 1;
  }

  uv_loop_t loop;
  uv_loop_init(&loop);
  json out;
  {
    llm::HttpMulti http(&loop);
    auto client = llm::createChatClient(http, config);
    Search search(*client, **session, options);
    double cpu0 = cpuSeconds();
    auto t0 = std::chrono::steady_clock::now();
    SearchResult result = search.run();
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
            .count();
    double cpu = cpuSeconds() - cpu0;
    out = {{"kernel", kernel},
           {"provider", llm::providerName(config.provider)},
           {"agents", options.agents},
           {"rounds", rounds},
           {"checkpoint_rounds", options.checkpointRounds},
           {"top_k", options.topK},
           {"tool_calling", options.toolCalling},
           {"wall_s", wall},
           {"cpu_s", cpu},
           {"requests", result.requests},
           {"rounds_total", result.rounds},
           {"checkpoints", result.checkpoints},
           {"failed_requests", result.failedRequests},
           {"max_in_flight", http.maxInFlight()},
           {"input_tokens", result.usage.inputTokens},
           {"output_tokens", result.usage.outputTokens},
           {"baseline", metricsJson((*session)->baselineMetrics())}};
    if (result.best) {
      out["best"] = metricsJson(result.best->bestMetrics());
      out["best_moves"] = result.best->bestMoves();
    }
    for (const std::string &e : result.errors)
      std::fprintf(stderr, "error: %s\n", e.c_str());
  }
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
  std::printf("%s\n", out.dump(1).c_str());
  return 0;
}
