//===- SimTestUtils.h - fixtures shared by the simulator tests --*- C++ -*-===//
//
// The first program of a module, a 32-bit word of a simulated buffer, an
// f16's value for the references, and the program prologue the per-op
// tests start from (lane id, output SRD, small constants, a per-lane byte
// offset).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_SIMTESTUTILS_H
#define WAVEASM_TESTS_UNIT_SIMTESTUTILS_H

#include "sim/Simulator.h"

#include "mlir/IR/BuiltinOps.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace waveasm::test {

inline ProgramOp firstProgram(mlir::ModuleOp module) {
  return *module.getOps<ProgramOp>().begin();
}

inline uint32_t wordAt(const sim::SimResult &result, unsigned buffer,
                       uint64_t offset) {
  std::vector<uint8_t> bytes =
      result.bytes(sim::bufferAddress(buffer) + offset, 4);
  uint32_t word;
  std::memcpy(&word, bytes.data(), 4);
  return word;
}

/// An f16 as a double, from the IEEE layout (the references' own decoding,
/// no shared code with sim/).
inline double halfValue(uint32_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double magnitude = exp ? std::ldexp(1.0 + mant / 1024.0, exp - 15)
                         : std::ldexp(mant / 1024.0, -14);
  return (h & 0x8000) ? -magnitude : magnitude;
}

/// `%tid` (v0), `%out` (the SRD in s[4:7]), constants `%c0..%c4`, `%c7`,
/// and `%off` = 4 * lane.
inline const char *kSimHeader = R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
)";

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_SIMTESTUTILS_H
