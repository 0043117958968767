//===- WaveASMTypes.td - register and immediate types ------*- tablegen -*-===//
//
// SPEC.md section 2: virtual and physical register ranges, immediates, SCC.
// Printing elides parameters equal to their defaults; unlike upstream, a
// virtual register with size 1 and a non-default alignment keeps its
// alignment on print (upstream drops it, SPEC.md section 21 item 3).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TYPES_TD
#define WAVEASM_TYPES_TD

include "ir/WaveASMBase.td"

class WaveASM_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<WaveASM_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// vreg / sreg / areg: `!waveasm.vreg`, `!waveasm.vreg<4>`, `!waveasm.vreg<4, 4>`.
class WaveASM_VirtualRegType<string name, string typeMnemonic, string what>
    : WaveASM_Type<name, typeMnemonic> {
  let summary = "virtual " # what # " range";
  let parameters = (ins DefaultValuedParameter<"int64_t", "1">:$size,
                        DefaultValuedParameter<"int64_t", "1">:$alignment);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

// pvreg / psreg / pareg: `!waveasm.pvreg<5>`, `!waveasm.pvreg<8, 4>`.
class WaveASM_PhysicalRegType<string name, string typeMnemonic, string what>
    : WaveASM_Type<name, typeMnemonic> {
  let summary = "physical " # what # " range";
  let parameters = (ins "int64_t":$index,
                        DefaultValuedParameter<"int64_t", "1">:$size);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def WaveASM_VRegType : WaveASM_VirtualRegType<"VReg", "vreg", "VGPR">;
def WaveASM_SRegType : WaveASM_VirtualRegType<"SReg", "sreg", "SGPR">;
def WaveASM_ARegType : WaveASM_VirtualRegType<"AReg", "areg", "AGPR">;
def WaveASM_PVRegType : WaveASM_PhysicalRegType<"PVReg", "pvreg", "VGPR">;
def WaveASM_PSRegType : WaveASM_PhysicalRegType<"PSReg", "psreg", "SGPR">;
def WaveASM_PARegType : WaveASM_PhysicalRegType<"PAReg", "pareg", "AGPR">;

def WaveASM_ImmType : WaveASM_Type<"Imm", "imm"> {
  let summary = "immediate operand (the value is part of the type)";
  let parameters = (ins "int64_t":$value);
  let assemblyFormat = "`<` $value `>`";
}

def WaveASM_SCCType : WaveASM_Type<"SCC", "scc"> {
  let summary = "scalar condition code";
}

//===----------------------------------------------------------------------===//
// Type groups (SPEC.md section 2.3). The summary strings are what MLIR prints
// in "must be ..." diagnostics and match upstream's.
//===----------------------------------------------------------------------===//

def WaveASM_VirtualVGPR : AnyTypeOf<[WaveASM_VRegType], "virtual VGPR">;
def WaveASM_VirtualSGPR : AnyTypeOf<[WaveASM_SRegType], "virtual SGPR">;
def WaveASM_VirtualAGPR : AnyTypeOf<[WaveASM_ARegType], "virtual AGPR">;
def WaveASM_AnyVGPR : AnyTypeOf<[WaveASM_VRegType, WaveASM_PVRegType], "any VGPR">;
def WaveASM_AnySGPR : AnyTypeOf<[WaveASM_SRegType, WaveASM_PSRegType], "any SGPR">;
def WaveASM_AnyAGPR : AnyTypeOf<[WaveASM_ARegType, WaveASM_PARegType], "any AGPR">;
def WaveASM_AnyVectorReg : AnyTypeOf<[WaveASM_VRegType, WaveASM_ARegType,
    WaveASM_PVRegType, WaveASM_PARegType], "any vector register">;
def WaveASM_AnyReg : AnyTypeOf<[WaveASM_VRegType, WaveASM_SRegType,
    WaveASM_ARegType, WaveASM_PVRegType, WaveASM_PSRegType, WaveASM_PARegType],
    "any register">;
def WaveASM_VGPROrImm : AnyTypeOf<[WaveASM_VRegType, WaveASM_PVRegType,
    WaveASM_ImmType], "VGPR or immediate">;
def WaveASM_SGPROrImm : AnyTypeOf<[WaveASM_SRegType, WaveASM_PSRegType,
    WaveASM_ImmType], "SGPR or immediate">;
def WaveASM_VALUSrc : AnyTypeOf<[WaveASM_VRegType, WaveASM_SRegType,
    WaveASM_PVRegType, WaveASM_PSRegType, WaveASM_ImmType],
    "VALU source operand">;
def WaveASM_MFMAAccSrc : AnyTypeOf<[WaveASM_VRegType, WaveASM_ARegType,
    WaveASM_PVRegType, WaveASM_PARegType, WaveASM_ImmType],
    "MFMA accumulator source">;
def WaveASM_AnyOperand : AnyTypeOf<[WaveASM_VRegType, WaveASM_SRegType,
    WaveASM_ARegType, WaveASM_PVRegType, WaveASM_PSRegType, WaveASM_PARegType,
    WaveASM_ImmType], "any operand">;
def WaveASM_SCCFlag : AnyTypeOf<[WaveASM_SCCType], "SCC flag">;
def WaveASM_SCCOrSGPR : AnyTypeOf<[WaveASM_SCCType, WaveASM_SRegType,
    WaveASM_PSRegType], "SCC or SGPR">;
def WaveASM_Immediate : AnyTypeOf<[WaveASM_ImmType], "immediate">;

#endif // WAVEASM_TYPES_TD
