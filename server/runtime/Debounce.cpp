//===- Debounce.cpp - how long to wait before reparsing
//--------------------===//

#include "server/runtime/Debounce.h"

#include <algorithm>
#include <vector>

using namespace waveasm::server;

void DebouncePolicy::configure(double newMinMs, double newMaxMs,
                               bool newLeadingEdge) {
  minMs = std::max(0.0, newMinMs);
  maxMs = std::max(minMs, newMaxMs);
  leadingEdge = newLeadingEdge;
}

void DebouncePolicy::recordParse(Duration took) {
  history.push_back(took.count());
  if (history.size() > kHistory)
    history.pop_front();
}

DebouncePolicy::Duration DebouncePolicy::interval() const {
  if (history.empty())
    return Duration(minMs);
  std::vector<double> recent(history.begin(), history.end());
  auto median = recent.begin() + recent.size() / 2;
  std::nth_element(recent.begin(), median, recent.end());
  return Duration(std::clamp(*median, minMs, maxMs));
}

DebouncePolicy::Duration
DebouncePolicy::delayFor(Clock::time_point now,
                         std::optional<Clock::time_point> previousEdit,
                         std::optional<Clock::time_point> firstUnparsed) const {
  Duration wait = interval();
  bool quiet = !previousEdit || Duration(now - *previousEdit) >= wait;
  if (leadingEdge && quiet && !firstUnparsed)
    return Duration(0);
  if (firstUnparsed) {
    Duration waited(now - *firstUnparsed);
    wait = std::min(wait, std::max(Duration(0), Duration(maxMs) - waited));
  }
  return wait;
}
