//===- waveasm-lsp.cpp - WaveASM language server and headless check -------===//
//
//   waveasm-lsp [--log=error|info|verbose]   LSP on stdin/stdout
//   waveasm-lsp check [options] FILE...      the same analysis for CI
//
//===----------------------------------------------------------------------===//

#include "protocol/Logger.h"
#include "server/runtime/ServerMain.h"
#include "support/Version.h"
#include "tools/waveasm-lsp/Check.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace {

constexpr const char *kUsage =
    "usage: waveasm-lsp [--log=error|info|verbose]\n"
    "         serve the Language Server Protocol on stdin/stdout\n"
    "       waveasm-lsp check [options] FILE...\n"
    "         report diagnostics, lints and metrics (options below)\n"
    "       waveasm-lsp --version\n"
    "         print the version and the git revision, and exit\n";

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  std::vector<std::string> args(argv + 1, argv + argc);

  if (!args.empty() && args[0] == "check") {
    std::vector<std::string> rest(args.begin() + 1, args.end());
    return waveasm::check::runCheck(rest, llvm::outs(), llvm::errs());
  }

  for (const std::string &arg : args) {
    llvm::StringRef a(arg);
    if (a == "--help" || a == "-h") {
      llvm::outs() << kUsage << '\n' << waveasm::check::getUsage();
      return 0;
    }
    if (a == "--version") {
      llvm::outs() << waveasm::getVersionLine("waveasm-lsp") << '\n';
      return 0;
    }
    if (a.consume_front("--log=")) {
      std::optional<waveasm::lsp::LogLevel> level =
          waveasm::lsp::parseLogLevel(a);
      if (!level) {
        llvm::errs() << "waveasm-lsp: unknown log level '" << a
                     << "' (expected error, info or verbose)\n"
                     << kUsage;
        return 2;
      }
      waveasm::lsp::setLogLevel(*level);
      continue;
    }
    // Editors pass --stdio; that is the only transport anyway.
    if (a == "--stdio")
      continue;
    llvm::errs() << "waveasm-lsp: unknown argument '" << arg << "'\n" << kUsage;
    return 2;
  }
  return waveasm::server::runLanguageServer();
}
