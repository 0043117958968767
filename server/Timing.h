//===- Timing.h - milliseconds for the logs ---------------------*- C++ -*-===//

#ifndef WAVEASM_SERVER_TIMING_H
#define WAVEASM_SERVER_TIMING_H

#include <chrono>

namespace waveasm::server {

/// Wall milliseconds since `start` (steady clock).
inline double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace waveasm::server

#endif // WAVEASM_SERVER_TIMING_H
