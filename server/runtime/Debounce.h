//===- Debounce.h - how long to wait before reparsing -----------*- C++ -*-===//
//
// clangd's policy: wait as long as a parse takes (the median of the recent
// ones), clamped to [min, max], so a small file reacts at once and a file
// that takes 200 ms to parse is not reparsed on every keystroke.
//
// Each edit within the interval restarts the wait (a burst of typing is
// parsed once, when it pauses), but an unparsed edit never waits more than
// `max` in total, so continuous typing still gets diagnostics.
//
// Plus a leading edge: an edit arriving when the document has been quiet
// for a whole interval is parsed immediately, since nothing is being typed
// that a wait would coalesce with. This keeps keystroke-to-diagnostics
// latency at the parse time for isolated edits without parsing once per
// keystroke while typing.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_DEBOUNCE_H
#define WAVEASM_SERVER_RUNTIME_DEBOUNCE_H

#include <chrono>
#include <deque>
#include <optional>

namespace waveasm::server {

class DebouncePolicy {
public:
  using Clock = std::chrono::steady_clock;
  using Duration = std::chrono::duration<double, std::milli>;

  DebouncePolicy(double minMs = 50, double maxMs = 500, bool leadingEdge = true)
      : minMs(minMs), maxMs(maxMs), leadingEdge(leadingEdge) {}

  void configure(double newMinMs, double newMaxMs, bool newLeadingEdge);

  /// Records how long a parse took.
  void recordParse(Duration took);
  /// The current interval: median recent parse time in [min, max] (min
  /// before any parse was measured).
  Duration interval() const;

  /// An edit arrived at `now`; returns the delay before parsing (zero on
  /// the leading edge). `previousEdit` is when the edit before it arrived,
  /// `firstUnparsed` when the oldest edit not parsed yet did (nullopt:
  /// none; `now` is then the first).
  Duration delayFor(Clock::time_point now,
                    std::optional<Clock::time_point> previousEdit,
                    std::optional<Clock::time_point> firstUnparsed) const;

private:
  static constexpr size_t kHistory = 15;
  double minMs, maxMs;
  bool leadingEdge;
  std::deque<double> history; // ms, most recent last
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_DEBOUNCE_H
