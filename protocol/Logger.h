//===- Logger.h - leveled, thread-safe logging to stderr --------*- C++ -*-===//
//
// stdout carries the protocol, so everything the server has to say goes to
// stderr. The worker thread logs too, hence the lock.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_LOGGER_H
#define WAVEASM_PROTOCOL_LOGGER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

namespace waveasm::lsp {

enum class LogLevel { Error = 0, Info = 1, Verbose = 2 };

/// "error", "info" or "verbose".
std::optional<LogLevel> parseLogLevel(llvm::StringRef name);
void setLogLevel(LogLevel level);
bool isLogging(LogLevel level);
void logMessage(LogLevel level, llvm::StringRef message);

template <typename... Ts> void logError(const char *fmt, Ts &&...vals) {
  if (isLogging(LogLevel::Error))
    logMessage(LogLevel::Error,
               llvm::formatv(fmt, std::forward<Ts>(vals)...).str());
}
template <typename... Ts> void logInfo(const char *fmt, Ts &&...vals) {
  if (isLogging(LogLevel::Info))
    logMessage(LogLevel::Info,
               llvm::formatv(fmt, std::forward<Ts>(vals)...).str());
}
template <typename... Ts> void logVerbose(const char *fmt, Ts &&...vals) {
  if (isLogging(LogLevel::Verbose))
    logMessage(LogLevel::Verbose,
               llvm::formatv(fmt, std::forward<Ts>(vals)...).str());
}

} // namespace waveasm::lsp

#endif // WAVEASM_PROTOCOL_LOGGER_H
