//===- Logger.cpp - leveled, thread-safe logging to stderr ----------------===//

#include "protocol/Logger.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <mutex>

using namespace waveasm::lsp;

namespace {
std::atomic<int> currentLevel{static_cast<int>(LogLevel::Error)};
std::mutex logMutex;
} // namespace

std::optional<LogLevel> waveasm::lsp::parseLogLevel(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<LogLevel>>(name)
      .Case("error", LogLevel::Error)
      .Case("info", LogLevel::Info)
      .Case("verbose", LogLevel::Verbose)
      .Default(std::nullopt);
}

void waveasm::lsp::setLogLevel(LogLevel level) {
  currentLevel = static_cast<int>(level);
}

bool waveasm::lsp::isLogging(LogLevel level) {
  return static_cast<int>(level) <= currentLevel.load();
}

void waveasm::lsp::logMessage(LogLevel level, llvm::StringRef message) {
  static const auto start = std::chrono::steady_clock::now();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  char tag = level == LogLevel::Error  ? 'E'
             : level == LogLevel::Info ? 'I'
                                       : 'V';
  std::lock_guard<std::mutex> lock(logMutex);
  llvm::errs() << tag << '[' << llvm::format("%.3f", seconds) << "] " << message
               << '\n';
  llvm::errs().flush();
}
