//===- InstInfo.h - enums behind InstInfoOpInterface ------------*- C++ -*-===//
//
// The vocabulary of the static instruction facts every WaveASM op carries.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_INSTINFO_H
#define WAVEASM_IR_INSTINFO_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace waveasm {

/// The hardware unit that issues an instruction.
enum class ExecUnit : uint8_t {
  None, // pseudo ops: nothing is issued
  VALU,
  SALU,
  SMEM,
  VMEM,
  LDS,
  MFMA,
  Branch,
  Sync,
};

/// Latency class; per-target cycle counts live in the analysis layer.
enum class LatencyClass : uint8_t {
  None,
  VALU,
  Trans,
  SALU,
  SMEM,
  VMEMLoad,
  VMEMStore,
  LDSLoad,
  LDSStore,
  MFMA,
  Branch,
  Sync,
};

/// Memory spaces, as a bit mask.
enum MemSpace : unsigned {
  MemNone = 0,
  MemGlobal = 1u << 0,
  MemLDS = 1u << 1,
  MemScalar = 1u << 2, // constant/kernarg memory read through SMEM
};

/// The wait counter that tracks an op's completion.
enum class WaitCounter : uint8_t {
  None,
  VMCnt,
  LGKMCnt,
  VMAndLGKM, // FLAT: counts on both
};

/// Registers read or written without an SSA operand, as a bit mask.
enum ImplicitReg : unsigned {
  ImpNone = 0,
  ImpSCC = 1u << 0,
  ImpVCC = 1u << 1,
  ImpEXEC = 1u << 2,
  ImpM0 = 1u << 3,
};

/// What result 0 may be, by the op's constraint.
enum class RegClassConstraint : uint8_t {
  None,   // no result
  VGPR,   // vreg or pvreg
  SGPR,   // sreg or psreg
  AGPR,   // areg or pareg
  Vector, // VGPR or AGPR
  Any,    // any register
  SCC,
  Imm,
};

llvm::StringRef stringifyExecUnit(ExecUnit unit);
llvm::StringRef stringifyLatencyClass(LatencyClass cls);

} // namespace waveasm

#endif // WAVEASM_IR_INSTINFO_H
