//===- ServerBench.cpp - the language server's per-request costs ----------===//
//
// Measures, on one WaveASM file, what the server does per keystroke and per
// request (median of K runs, milliseconds):
//
//   parse      ParsedDocument: parse + verify + diagnostics (the op index
//              is built on first use; "index" times that first use)
//   names      the SSA name index, built on the first navigation request
//   compile    CompiledDocument: pipeline on a clone + annotations
//   hints      computeInlayHints for a 100-line range in the middle
//   lints      computeLints over the whole document
//   tokens     computeSemanticTokens for the whole document
//   hover      computeHover on an op name in the middle
//   lenses     computeCodeLenses
//   edit       IncrementalModel::update for the keystroke edit of
//              bench/lsp_bench.py (v_xor_b32 <-> v_and_b32 mid-file), the
//              diagnostics path of a didChange; "build" is the model's
//              copy of a parsed document, made once after a full parse.
//              Every result is checked against a full parse of the text.
//
// Usage: waveasm-bench-server FILE [K=15]. Budgets (10,000 instructions):
// parse <= 30 ms, hints <= 10 ms, compile (full refresh) <= 200 ms. The
// context runs without threads, as the server's worker does.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/IncrementalParse.h"

#include "BenchTiming.h"
#include "server/Completion.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <time.h>

using namespace waveasm;
using namespace waveasm::server;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<double> *cpuSink = nullptr;

double timeMs(const std::function<void()> &fn) {
  return bench::timeMs(cpuSink, fn);
}

} // namespace

int main(int argc, char **argv) {
  std::optional<bench::DriverArgs> args =
      bench::parseDriverArgs(argc, argv, "waveasm-bench-server", 15);
  if (!args)
    return 2;
  std::string text = std::move(args->text);
  int runs = args->runs;
  mlir::MLIRContext ctx(bench::benchThreading(/*threadedByDefault=*/false));
  ServerSettings settings;

  std::vector<double> parseOnly, verifyOnly, indexOnly;
  std::vector<double> names, parseCpu, compileCpu, hintsCpu;
  std::vector<double> parse, compile, hints, lints, tokens, hover, lenses;
  size_t numHints = 0, numLints = 0, numTokens = 0;
  for (int i = 0; i < runs; ++i) {
    std::unique_ptr<ParsedDocument> doc;
    cpuSink = &parseCpu;
    parse.push_back(timeMs([&] {
      doc = std::make_unique<ParsedDocument>(ctx, "file:///bench.mlir", text, i,
                                             settings);
    }));
    parseOnly.push_back(doc->getParseMs());
    verifyOnly.push_back(doc->getVerifyMs());
    cpuSink = nullptr;
    // The op index is built on first use, after the diagnostics are out.
    indexOnly.push_back(timeMs([&] { (void)doc->getOps(); }));
    names.push_back(timeMs([&] { (void)doc->getOccurrences(); }));
    std::unique_ptr<CompiledDocument> compiled;
    cpuSink = &compileCpu;
    compile.push_back(timeMs([&] {
      compiled = std::make_unique<CompiledDocument>(*doc, settings);
    }));
    cpuSink = &hintsCpu;
    int mid = doc->getLines().getNumLines() / 2;
    hints.push_back(timeMs([&] {
      numHints = computeInlayHints(*doc, compiled.get(),
                                   {{mid, 0}, {mid + 100, 0}}, settings)
                     .size();
    }));
    lints.push_back(timeMs(
        [&] { numLints = computeLints(*doc, *compiled, settings).size(); }));
    tokens.push_back(
        timeMs([&] { numTokens = computeSemanticTokens(*doc).size(); }));
    unsigned op = doc->getOpsOnLines(mid, mid + 100).first;
    lsp::Position pos = op < doc->getOps().size() ? doc->getOps()[op].name.start
                                                  : lsp::Position{mid, 0};
    hover.push_back(
        timeMs([&] { (void)computeHover(*doc, compiled.get(), pos); }));
    lenses.push_back(
        timeMs([&] { (void)computeCodeLenses(*doc, compiled.get()); }));
    if (i == 0 && !compiled->succeeded())
      llvm::errs() << "warning: the document did not compile\n";
  }

  // Keystroke edits through the incremental model.
  std::vector<double> build, edit, editCpu, editVerify;
  std::string reason;
  {
    size_t at = text.find("waveasm.v_xor_b32", text.size() / 2);
    std::string texts[2] = {text, text};
    if (at != std::string::npos)
      texts[1].replace(at, strlen("waveasm.v_xor_b32"), "waveasm.v_and_b32");
    ParsedDocument first(ctx, "file:///bench.mlir", texts[0], 0, settings);
    std::unique_ptr<IncrementalModel> model;
    for (int i = 0; i < runs && at != std::string::npos; ++i)
      build.push_back(timeMs([&] { model = IncrementalModel::build(first); }));
    for (int i = 0; model && i < 2 * runs; ++i) {
      const std::string &next = texts[(i + 1) % 2];
      std::optional<std::vector<lsp::Diagnostic>> diags;
      cpuSink = &editCpu;
      edit.push_back(timeMs([&] { diags = model->update(next); }));
      cpuSink = nullptr;
      editVerify.push_back(model->getVerifyMs());
      if (!diags) {
        reason = model->getFallbackReason().str();
        break;
      }
      ParsedDocument full(ctx, "file:///bench.mlir", next, i + 1, settings);
      if (*diags != full.getDiagnostics()) {
        llvm::errs() << "error: incremental diagnostics differ from the full "
                        "parse\n";
        return 1;
      }
    }
  }
  // Completion and signature help on a new line typed mid-file (the text
  // does not parse; the values come from the last good parse), CPU time
  // including the JSON the server would send.
  std::vector<double> opNames, values, types, signature, opNamesNoJSON;
  size_t numOpNames = 0, numValues = 0;
  {
    ParsedDocument good(ctx, "file:///bench.mlir", text, 0, settings);
    (void)good.getValues(); // built by the worker in the server
    size_t at = text.find("\n  %", text.size() / 2) + 1;
    int line = good.getLines().getPosition(at).line;
    auto typing = [&](llvm::StringRef typed) {
      std::string edited = text;
      edited.insert(at, (typed + "\n").str());
      return std::make_pair(edited, lsp::Position{line, int(typed.size())});
    };
    CompletionOptions options;
    options.snippets = true;
    options.defaultEditRange = true; // as VS Code
    auto complete = [&](llvm::StringRef typed, std::vector<double> &out,
                        size_t *count) {
      auto [edited, pos] = typing(typed);
      for (int i = 0; i < runs; ++i) {
        cpuSink = &out;
        timeMs([&] {
          lsp::CompletionList list =
              computeCompletion(&good, edited, pos, ctx, options);
          std::string json;
          llvm::raw_string_ostream os(json);
          os << llvm::json::Value(list);
          if (count)
            *count = list.items.size();
        });
      }
    };
    complete("  %t = waveasm.", opNames, &numOpNames);
    {
      auto [edited, pos] = typing("  %t = waveasm.");
      for (int i = 0; i < runs; ++i) {
        cpuSink = &opNamesNoJSON;
        timeMs(
            [&] { (void)computeCompletion(&good, edited, pos, ctx, options); });
      }
    }
    complete("  %t = waveasm.v_add_u32 ", values, &numValues);
    complete("  %t = waveasm.v_add_u32 %v1, %v2 : ", types, nullptr);
    auto [edited, pos] = typing("  %t = waveasm.v_add_u32 %v1, ");
    for (int i = 0; i < runs; ++i) {
      cpuSink = &signature;
      timeMs([&] { (void)computeSignatureHelp(edited, pos); });
    }
    cpuSink = nullptr;
  }

  llvm::outs() << "file: " << argv[1] << " (" << runs << " runs, median ms)\n";
  llvm::outs() << llvm::format("parse   %8.2f  (budget 30; CPU %.2f)\n",
                               median(parse), median(parseCpu));
  llvm::outs() << llvm::format(
      "  mlir parse %.2f, verify %.2f, index %.2f (on first use)\n",
      median(parseOnly), median(verifyOnly), median(indexOnly));
  llvm::outs() << llvm::format(
      "names   %8.2f  (name index, built on first use)\n", median(names));
  llvm::outs() << llvm::format("compile %8.2f  (budget 200; CPU %.2f)\n",
                               median(compile), median(compileCpu));
  llvm::outs() << llvm::format(
      "hints   %8.3f  (budget 10; CPU %.3f; %zu hints / 100 lines)\n",
      median(hints), median(hintsCpu), numHints);
  llvm::outs() << llvm::format("lints   %8.2f  (%zu)\n", median(lints),
                               numLints);
  llvm::outs() << llvm::format("tokens  %8.2f  (%zu)\n", median(tokens),
                               numTokens);
  llvm::outs() << llvm::format("hover   %8.3f\n", median(hover));
  llvm::outs() << llvm::format("lenses  %8.2f\n", median(lenses));
  llvm::outs() << llvm::format(
      "complete CPU: op names %.2f (%zu items; %.2f without the JSON), values "
      "%.2f (%zu), types %.2f, signature help %.3f (budget 5 p50)\n",
      median(opNames), numOpNames, median(opNamesNoJSON), median(values),
      numValues, median(types), median(signature));
  if (edit.empty() || !reason.empty())
    llvm::outs() << "edit    incremental path not taken: " << reason << "\n";
  else
    llvm::outs() << llvm::format(
        "edit    %8.2f  (budget 30 to diagnostics; CPU %.2f; verify %.2f; "
        "build %.2f once per full parse)\n",
        median(edit), median(editCpu), median(editVerify), median(build));
  return 0;
}
