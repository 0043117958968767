//===- WaveCost.h - a pipelining candidate's cost per wave ------*- C++ -*-===//
//
// The rule by which waveasm-pipeline-loops weighs a gain against the
// occupancy it costs (the stage count, PipelineLoops.cpp chooseStages, and
// the LDS deepening's buffer count, deepenIfFaster): a candidate costs its
// SIMD its cycles over the waves that share the SIMD, but no less than the
// slots it holds a pipe every wave needs alone (the matrix pipe's passes:
// more waves cannot run it faster). Fewer cycles per wave by more than the
// gain threshold win, or as few (both at the shared pipe) with fewer cycles
// by more than the threshold.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_WAVECOST_H
#define WAVEASM_PIPELINE_OPT_WAVECOST_H

#include <algorithm>
#include <cstdint>

namespace waveasm {

struct WaveCost {
  double cycles = 0;
  int64_t waves = 0;
  /// The slots a wave holds a pipe the SIMD's waves share, in the unit of
  /// `cycles`.
  double sharedPipe = 0;

  double perWave() const {
    return std::max(cycles / double(waves), sharedPipe);
  }
  bool atSharedPipe() const { return cycles / double(waves) < sharedPipe; }
  /// `gain` below 1: the factor a win must beat (0.99: more than 1%).
  bool beats(const WaveCost &other, double gain) const {
    return perWave() < other.perWave() * gain ||
           (perWave() <= other.perWave() && cycles < other.cycles * gain);
  }
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_WAVECOST_H
