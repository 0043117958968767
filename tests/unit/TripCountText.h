//===- TripCountText.h - a loop declared to run N times, as text -*- C++
//-*-===//
//
// Tests that compare a loop whose trip count comes from a kernel argument
// with the same loop declared to run N times (`trip_count = N` on it): the
// program's est_cycles decide for the latter, the loop's cycles per
// iteration as written for the former (pipeline/PipelinedCycles.h).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_TRIPCOUNTTEXT_H
#define WAVEASM_TESTS_UNIT_TRIPCOUNTTEXT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace waveasm::test {

/// `text` with ` {trip_count = N : i64}` after the closing brace (a line
/// "  }") of the loop whose condition line contains `condition`; none when
/// there is no such line.
inline std::optional<std::string>
withTripCount(std::string text, llvm::StringRef condition, int64_t n) {
  size_t at = text.find(condition.str());
  size_t end = at == std::string::npos ? at : text.find("\n  }\n", at);
  if (end == std::string::npos)
    return std::nullopt;
  text.insert(end + 4, " {trip_count = " + std::to_string(n) + " : i64}");
  return text;
}

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_TRIPCOUNTTEXT_H
