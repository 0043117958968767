//===- OpFacts.h - per-op timing facts, computed once -----------*- C++ -*-===//
//
// What the cycle model and the loop bounds ask about every op, gathered once
// per program into a vector indexed by op number: interface queries and the
// MFMA latency lookup cost far more than reading a few integers, and the
// simulation visits each op several times (two isolated iterations per loop
// plus the program timeline).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_OPFACTS_H
#define WAVEASM_ANALYSIS_OPFACTS_H

#include "analysis/ProgramIndex.h"
#include "analysis/TargetModel.h"

namespace waveasm {

/// How the simulator treats an op.
enum class OpShape : uint8_t {
  Plain,     // issued or free, no regions
  Loop,      // waveasm.loop
  If,        // waveasm.if
  Condition, // waveasm.condition
};

struct OpFacts {
  int32_t latency = 0;      // TargetModel::getOpLatency
  int32_t occupancy = 0;    // TargetModel::getUnitOccupancy
  int32_t chainLatency = 0; // MFMA: TargetModel::getMFMAChainLatency
  int32_t coIssueDelay = 0; // MFMA: TargetModel::getValuCoIssueDelay
  int32_t issueCycles = 0;  // IssueRules: 0 when not issued
  int32_t vmWait = -1;      // s_waitcnt vmcnt threshold, -1: none
  int32_t lgkmWait = -1;    // s_waitcnt lgkmcnt threshold, -1: none
  uint32_t numRead = 0;     // IssueRules::getNumReadOperands
  ExecUnit unit = ExecUnit::None;
  WaitCounter counter = WaitCounter::None;
  OpShape shape = OpShape::Plain;
  int8_t tied = -1; // MFMA accumulator operand, else -1
  bool issued = false;
};

std::vector<OpFacts> computeOpFacts(const ProgramIndex &index,
                                    const TargetModel &target);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_OPFACTS_H
