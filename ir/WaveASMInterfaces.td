//===- WaveASMInterfaces.td - instruction facts ------------*- tablegen -*-===//
//
// What later layers (analysis, pipeline, conductor) need to know about an op,
// as static facts on the op class: execution unit, latency class, memory
// reads/writes per memory space, wait counter, implicit registers, tied
// accumulator operand, whether the op is pinned in place, whether it emits an
// instruction. Nothing downstream matches on op-name strings.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_INTERFACES_TD
#define WAVEASM_INTERFACES_TD

include "mlir/IR/OpBase.td"

def WaveASM_InstInfoOpInterface : OpInterface<"InstInfoOpInterface"> {
  let cppNamespace = "::waveasm";
  let description = [{
    Static scheduling and resource facts of a WaveASM op. Every op of the
    dialect implements it; the values come from the op's ODS family.
  }];
  let methods = [
    StaticInterfaceMethod<"Execution unit that issues the op.",
      "::waveasm::ExecUnit", "getExecUnit", (ins), [{}],
      [{ return ConcreteOp::kExecUnit; }]>,
    StaticInterfaceMethod<"Latency class (cycle counts are per target).",
      "::waveasm::LatencyClass", "getLatencyClass", (ins), [{}],
      [{ return ConcreteOp::kLatencyClass; }]>,
    StaticInterfaceMethod<"Memory spaces read (MemSpace bit mask).",
      "unsigned", "getMemReads", (ins), [{}],
      [{ return ConcreteOp::kMemReads; }]>,
    StaticInterfaceMethod<"Memory spaces written (MemSpace bit mask).",
      "unsigned", "getMemWrites", (ins), [{}],
      [{ return ConcreteOp::kMemWrites; }]>,
    StaticInterfaceMethod<"Hardware counter that tracks completion.",
      "::waveasm::WaitCounter", "getWaitCounter", (ins), [{}],
      [{ return ConcreteOp::kWaitCounter; }]>,
    StaticInterfaceMethod<"Implicit registers read (ImplicitReg bit mask).",
      "unsigned", "getImplicitUses", (ins), [{}],
      [{ return ConcreteOp::kImplicitUses; }]>,
    StaticInterfaceMethod<"Implicit registers written (ImplicitReg bit mask).",
      "unsigned", "getImplicitDefs", (ins), [{}],
      [{ return ConcreteOp::kImplicitDefs; }]>,
    StaticInterfaceMethod<[{
        Operand tied to result 0 for register allocation (the MFMA
        accumulator), or -1.
      }], "int", "getTiedOperandIndex", (ins), [{}],
      [{ return ConcreteOp::kTiedOperand; }]>,
    StaticInterfaceMethod<[{
        True if a scheduler must not move the op (terminators, barriers,
        waits, s_endpgm, labels and branches, raw text, priority changes).
      }], "bool", "isPinned", (ins), [{}],
      [{ return ConcreteOp::kPinned; }]>,
    StaticInterfaceMethod<"True if no machine instruction is emitted.",
      "bool", "isNonEmitting", (ins), [{}],
      [{ return ConcreteOp::kNonEmitting; }]>,
    StaticInterfaceMethod<"Dwords per lane a memory op moves (0 otherwise).",
      "unsigned", "getDataDwords", (ins), [{}],
      [{ return ConcreteOp::kDataDwords; }]>,
    StaticInterfaceMethod<"Register class of result 0 by constraint.",
      "::waveasm::RegClassConstraint", "getDstConstraint", (ins), [{}],
      [{ return ConcreteOp::kDstConstraint; }]>,
  ];
}

#endif // WAVEASM_INTERFACES_TD
