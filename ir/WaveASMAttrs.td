//===- WaveASMAttrs.td - target, ABI and enum attributes ---*- tablegen -*-===//
//
// SPEC.md section 3.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ATTRS_TD
#define WAVEASM_ATTRS_TD

include "ir/WaveASMBase.td"
include "mlir/IR/EnumAttr.td"

def WaveASM_TargetAttrInterface : AttrInterface<"TargetAttrInterface"> {
  let cppNamespace = "::waveasm";
  let description = [{
    Implemented by the parameterless target-kind attributes (`#waveasm.gfx942`,
    ...). The per-target numbers live in one table (ir/TargetInfo.cpp); this
    interface only names the entry.
  }];
  let methods = [
    InterfaceMethod<"The target this attribute names.",
      "::waveasm::TargetKind", "getTargetKind">,
  ];
}

class WaveASM_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<WaveASM_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class WaveASM_TargetKindAttr<string name, string attrMnemonic>
    : WaveASM_Attr<name, attrMnemonic,
        [DeclareAttrInterfaceMethods<WaveASM_TargetAttrInterface>]> {
  let summary = "the " # attrMnemonic # " target";
}

def WaveASM_GFX942Attr : WaveASM_TargetKindAttr<"GFX942", "gfx942">;
def WaveASM_GFX950Attr : WaveASM_TargetKindAttr<"GFX950", "gfx950">;
def WaveASM_GFX1250Attr : WaveASM_TargetKindAttr<"GFX1250", "gfx1250">;

def WaveASM_TargetAttr : WaveASM_Attr<"Target", "target"> {
  let summary = "target GPU and code object version";
  let parameters = (ins
    "TargetAttrInterface":$target_kind,
    DefaultValuedParameter<"int64_t", "5">:$code_object_version);
  let assemblyFormat = "`<` $target_kind (`,` $code_object_version^)? `>`";
}

def WaveASM_ABIAttr : WaveASM_Attr<"ABI", "abi"> {
  let summary = "where the prologue leaves thread id, kernarg pointer and "
                "workgroup ids (descriptive only)";
  let parameters = (ins
    DefaultValuedParameter<"int64_t", "0">:$tid,
    DefaultValuedParameter<"int64_t", "0">:$kernarg,
    OptionalParameter<"std::optional<int64_t>">:$wg_id_x,
    OptionalParameter<"std::optional<int64_t>">:$wg_id_y,
    OptionalParameter<"std::optional<int64_t>">:$wg_id_z);
  let assemblyFormat = "`<` struct(params) `>`";
}

def WaveASM_CmpPredicate : I64EnumAttr<"CmpPredicate",
    "comparison predicate of waveasm.arith.cmp", [
      I64EnumAttrCase<"eq", 0>, I64EnumAttrCase<"ne", 1>,
      I64EnumAttrCase<"slt", 2>, I64EnumAttrCase<"sle", 3>,
      I64EnumAttrCase<"sgt", 4>, I64EnumAttrCase<"sge", 5>,
      I64EnumAttrCase<"ult", 6>, I64EnumAttrCase<"ule", 7>,
      I64EnumAttrCase<"ugt", 8>, I64EnumAttrCase<"uge", 9>]> {
  let cppNamespace = "::waveasm";
}

#endif // WAVEASM_ATTRS_TD
