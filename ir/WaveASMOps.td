//===- WaveASMOps.td - WaveASM operations ------------------*- tablegen -*-===//
//
// Every op of SPEC.md section 8 (359 ops). Each family is one ODS class that
// fixes operands, results, assembly format, traits and the static facts of
// InstInfoOpInterface; the ops themselves are lists of mnemonics.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_OPS_TD
#define WAVEASM_OPS_TD

include "ir/WaveASMBase.td"
include "ir/WaveASMTypes.td"
include "ir/WaveASMAttrs.td"
include "ir/WaveASMInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Native traits (ir/Traits.h)
//===----------------------------------------------------------------------===//

class WaveASM_NativeTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::waveasm::OpTrait";
}
class WaveASM_ParamNativeTrait<string name, string params>
    : ParamNativeOpTrait<name, params> {
  let cppNamespace = "::waveasm::OpTrait";
}

// Instructions and pseudo ops live inside a waveasm.program.
def WaveASM_InProgram : WaveASM_NativeTrait<"InProgram">;
// MFMA accumulator and result widths (SPEC.md section 7.12).
class WaveASM_MFMAWidth<int regs>
    : WaveASM_ParamNativeTrait<"MFMAWidth", !cast<string>(regs)>;
// Buffer descriptor is 4 SGPRs and instOffset fits 12 bits.
class WaveASM_BufferAccess<string kind>
    : WaveASM_ParamNativeTrait<"BufferAccess", "::waveasm::BufferAccessKind::" # kind>;

//===----------------------------------------------------------------------===//
// Base op class and its facts
//===----------------------------------------------------------------------===//

class WaveASM_Op<string mnemonic, list<Trait> traits = []>
    : Op<WaveASM_Dialect, mnemonic,
         traits # [WaveASM_InstInfoOpInterface]> {
  // Facts, spelled as C++ enumerators of ir/InstInfo.h.
  string unit = "None";
  string latClass = "None";
  string memReads = "0";
  string memWrites = "0";
  string counter = "None";
  string implicitUses = "0";
  string implicitDefs = "0";
  string tied = "-1";
  string pinned = "false";
  string nonEmitting = "false";
  string dstConstraint = "None";
  string dataDwords = "0";
  code extraDecls = "";

  let extraClassDeclaration =
    "static constexpr ::waveasm::ExecUnit kExecUnit = ::waveasm::ExecUnit::" # unit # ";\n"
    "static constexpr ::waveasm::LatencyClass kLatencyClass = ::waveasm::LatencyClass::" # latClass # ";\n"
    "static constexpr unsigned kMemReads = " # memReads # ";\n"
    "static constexpr unsigned kMemWrites = " # memWrites # ";\n"
    "static constexpr ::waveasm::WaitCounter kWaitCounter = ::waveasm::WaitCounter::" # counter # ";\n"
    "static constexpr unsigned kImplicitUses = " # implicitUses # ";\n"
    "static constexpr unsigned kImplicitDefs = " # implicitDefs # ";\n"
    "static constexpr int kTiedOperand = " # tied # ";\n"
    "static constexpr bool kPinned = " # pinned # ";\n"
    "static constexpr bool kNonEmitting = " # nonEmitting # ";\n"
    "static constexpr unsigned kDataDwords = " # dataDwords # ";\n"
    "static constexpr ::waveasm::RegClassConstraint kDstConstraint = ::waveasm::RegClassConstraint::" # dstConstraint # ";\n"
    # extraDecls;
}

// An op that must sit inside a program.
class WaveASM_ProgramOp<string mnemonic, list<Trait> traits = []>
    : WaveASM_Op<mnemonic, traits # [WaveASM_InProgram]>;

// Ops with a `dst` and an `scc`/`carry` result print them under those names
// (`%dst, %scc = waveasm.s_add_u32 ...`), as upstream does.
class WaveASM_NamedResults<string second> {
  code namedResultsDecl = [{
    void getAsmResultNames(::mlir::OpAsmSetValueNameFn setNameFn) {
      setNameFn(getResult(0), "dst");
      setNameFn(getResult(1), "}] # second # [{");
    }
  }];
}

//===----------------------------------------------------------------------===//
// Structure ops (SPEC.md section 4)
//===----------------------------------------------------------------------===//

def WaveASM_ProgramOp : WaveASM_Op<"program", [
    IsolatedFromAbove, SingleBlock, NoTerminator, Symbol]> {
  let summary = "one GPU kernel";
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    WaveASM_TargetAttr:$target,
    WaveASM_ABIAttr:$abi,
    DefaultValuedAttr<I64Attr, "256">:$vgprs,
    DefaultValuedAttr<I64Attr, "104">:$sgprs,
    OptionalAttr<I64ArrayAttr>:$workgroup_size,
    OptionalAttr<I64Attr>:$lds_size,
    DefaultValuedAttr<I64Attr, "0">:$kernarg_preload_length);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `target` `=` $target `abi` `=` $abi attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
  let nonEmitting = "true";
  let pinned = "true";
  let extraDecls = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The target-kind attribute of `target`.
    ::waveasm::TargetKind getTargetKind();
  }];
}

def WaveASM_LoopOp : WaveASM_ProgramOp<"loop", [
    RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<RegionBranchOpInterface, [
      "getEntrySuccessorOperands", "areTypesCompatible"]>,
    DeclareOpInterfaceMethods<LoopLikeOpInterface, ["getLoopRegions"]>]> {
  let summary = "do-while loop with iteration arguments";
  let description = [{
    Runs its body once with the block arguments bound to the inits, then again
    with the condition's iter_args while the condition holds; the results are
    the iter_args of the last iteration.

    Only `getLoopRegions` of LoopLikeOpInterface is implemented (enough for
    loop-invariant code motion): the interface's own verifier demands equal
    types for inits, block arguments and yielded values, which register
    allocation legitimately breaks. The loop verifier enforces that rule for
    virtual registers with upstream's message, and register-class
    compatibility for allocated ones. An init whose type differs from its
    block argument (an allocated, uncoalesced init) prints its own type:
    `(%arg0 = %v : !waveasm.pvreg<3>)`. The operand group is named
    `init_args` so that its accessors do not implement the interface's
    `getInitsMutable` by name.
  }];
  let arguments = (ins Variadic<WaveASM_AnyReg>:$init_args);
  let results = (outs Variadic<WaveASM_AnyReg>:$results);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let pinned = "false";
  let nonEmitting = "false";
  let unit = "Branch";
  let latClass = "Branch";
  let extraDecls = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The terminator, or null when the body does not end with one.
    ConditionOp getConditionOp();
  }];
}

def WaveASM_ConditionOp : WaveASM_Op<"condition", [
    Terminator, HasParent<"LoopOp">,
    DeclareOpInterfaceMethods<RegionBranchTerminatorOpInterface,
                              ["getMutableSuccessorOperands"]>]> {
  let summary = "loop continuation test and next-iteration values";
  let arguments = (ins WaveASM_SCCOrSGPR:$condition,
                       Variadic<WaveASM_AnyReg>:$iter_args);
  let assemblyFormat = [{
    $condition `:` type($condition)
    (`iter_args` `(` $iter_args^ `)` `:` type($iter_args))? attr-dict
  }];
  let hasVerifier = 1;
  let pinned = "true";
  let unit = "Branch";
  let latClass = "Branch";
  let implicitUses = "::waveasm::ImpSCC";
}

def WaveASM_IfOp : WaveASM_ProgramOp<"if", [
    RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<RegionBranchOpInterface, ["areTypesCompatible"]>]> {
  let summary = "structured conditional";
  let arguments = (ins WaveASM_SCCOrSGPR:$condition);
  let results = (outs Variadic<WaveASM_AnyReg>:$results);
  let regions = (region AnyRegion:$then_region, AnyRegion:$else_region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let unit = "Branch";
  let latClass = "Branch";
  let implicitUses = "::waveasm::ImpSCC";
  let extraDecls = [{
    /// The yield ending `region`, or null.
    YieldOp getYield(::mlir::Region &region);
  }];
}

def WaveASM_YieldOp : WaveASM_Op<"yield", [
    Pure, ReturnLike, Terminator, ParentOneOf<["IfOp", "ProgramOp"]>]> {
  let summary = "terminator of waveasm.if regions";
  let arguments = (ins Variadic<WaveASM_AnyReg>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let pinned = "true";
  let nonEmitting = "true";
}

//===----------------------------------------------------------------------===//
// Pseudo and non-emitting ops (SPEC.md section 5)
//===----------------------------------------------------------------------===//

class WaveASM_PseudoOp<string mnemonic, list<Trait> traits = []>
    : WaveASM_ProgramOp<mnemonic, traits> {
  let nonEmitting = "true";
}

def WaveASM_ConstantOp : WaveASM_PseudoOp<"constant", [Pure]> {
  let summary = "immediate value";
  let arguments = (ins I64Attr:$value);
  let results = (outs WaveASM_ImmType:$result);
  let assemblyFormat = "$value attr-dict `:` type($result)";
  let dstConstraint = "Imm";
}

class WaveASM_PrecoloredOp<string cls, Type resultType>
    : WaveASM_PseudoOp<"precolored." # cls, [Pure]> {
  let summary = "value pinned to physical registers";
  let arguments = (ins I64Attr:$index, DefaultValuedAttr<I64Attr, "1">:$size);
  let results = (outs resultType:$result);
  let assemblyFormat = "$index (`,` $size^)? attr-dict `:` type($result)";
}
def WaveASM_PrecoloredVRegOp : WaveASM_PrecoloredOp<"vreg", WaveASM_AnyVGPR> {
  let dstConstraint = "VGPR";
}
def WaveASM_PrecoloredSRegOp : WaveASM_PrecoloredOp<"sreg", WaveASM_AnySGPR> {
  let dstConstraint = "SGPR";
}
def WaveASM_PrecoloredARegOp : WaveASM_PrecoloredOp<"areg", WaveASM_AnyAGPR> {
  let dstConstraint = "AGPR";
}

def WaveASM_PackOp : WaveASM_PseudoOp<"pack", [Pure]> {
  let summary = "concatenate registers low-to-high";
  let arguments = (ins Variadic<WaveASM_AnyReg>:$elements);
  let results = (outs WaveASM_AnyReg:$result);
  let assemblyFormat = "$elements attr-dict `:` functional-type($elements, $result)";
  let dstConstraint = "Any";
}

def WaveASM_ExtractOp : WaveASM_PseudoOp<"extract", [Pure]> {
  let summary = "sub-range of a register tuple";
  let arguments = (ins WaveASM_AnyReg:$source, I64Attr:$index);
  let results = (outs WaveASM_AnyReg:$result);
  let assemblyFormat = [{
    $source `[` $index `]` attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
  let dstConstraint = "Any";
}

def WaveASM_InsertOp : WaveASM_PseudoOp<"insert", [Pure]> {
  let summary = "copy of a register tuple with a slot replaced";
  let arguments = (ins WaveASM_AnyReg:$value, WaveASM_AnyReg:$vector,
                       I64Attr:$index);
  let results = (outs WaveASM_AnyReg:$result);
  let assemblyFormat = [{
    $value `into` $vector `[` $index `]` attr-dict `:` type($value) `,`
    type($vector) `->` type($result)
  }];
  let hasVerifier = 1;
  let dstConstraint = "Any";
}

def WaveASM_DCEProtectOp : WaveASM_PseudoOp<"dce_protect"> {
  let summary = "keeps a value alive";
  let arguments = (ins WaveASM_AnyReg:$val);
  let assemblyFormat = "$val attr-dict `:` type($val)";
}

def WaveASM_CommentOp : WaveASM_ProgramOp<"comment"> {
  let summary = "assembly comment";
  let arguments = (ins StrAttr:$text);
  let assemblyFormat = "$text attr-dict";
  let nonEmitting = "false";
}

def WaveASM_RawOp : WaveASM_ProgramOp<"raw"> {
  let summary = "verbatim assembly text, opaque to every pass";
  let arguments = (ins StrAttr:$text);
  let assemblyFormat = "$text attr-dict";
  let pinned = "true";
  let unit = "Sync";
  let latClass = "Sync";
}

def WaveASM_LabelOp : WaveASM_ProgramOp<"label"> {
  let summary = "assembly label";
  let arguments = (ins SymbolNameAttr:$name);
  let assemblyFormat = "$name attr-dict";
  let pinned = "true";
}

//===----------------------------------------------------------------------===//
// Generic arithmetic pseudo ops (SPEC.md section 6)
//===----------------------------------------------------------------------===//

class WaveASM_ArithOp<string mnemonic, list<Trait> traits = []>
    : WaveASM_PseudoOp<"arith." # mnemonic, traits # [Pure]> {
  let results = (outs WaveASM_AnyReg:$dst);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let dstConstraint = "Any";
}

class WaveASM_ArithBinaryOp<string mnemonic>
    : WaveASM_ArithOp<mnemonic, [Commutative]> {
  let arguments = (ins WaveASM_AnyOperand:$lhs, WaveASM_AnyOperand:$rhs);
}
def WaveASM_ArithAddOp : WaveASM_ArithBinaryOp<"add">;
def WaveASM_ArithMulOp : WaveASM_ArithBinaryOp<"mul">;
def WaveASM_ArithOrOp : WaveASM_ArithBinaryOp<"or">;
def WaveASM_ArithAndOp : WaveASM_ArithBinaryOp<"and">;

def WaveASM_ArithCmpOp : WaveASM_ArithOp<"cmp"> {
  let arguments = (ins WaveASM_CmpPredicate:$predicate,
                       WaveASM_AnyOperand:$lhs, WaveASM_AnyOperand:$rhs);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

// Upstream declares (falseVal, trueVal, condition) and writes them in the
// opposite order; the functional type follows the declaration (SPEC.md 6).
def WaveASM_ArithSelectOp : WaveASM_ArithOp<"select"> {
  let arguments = (ins WaveASM_AnyOperand:$falseVal,
                       WaveASM_AnyOperand:$trueVal, WaveASM_AnyReg:$condition);
  let assemblyFormat = [{
    $condition `,` $trueVal `,` $falseVal attr-dict `:`
    functional-type(operands, results)
  }];
}

class WaveASM_ArithUnaryOp<string mnemonic> : WaveASM_ArithOp<mnemonic> {
  let arguments = (ins WaveASM_AnyOperand:$src);
}
def WaveASM_ArithReadFirstLaneOp : WaveASM_ArithUnaryOp<"readfirstlane">;
def WaveASM_ArithTruncOp : WaveASM_ArithUnaryOp<"trunc">;
def WaveASM_ArithSExtOp : WaveASM_ArithUnaryOp<"sext">;
def WaveASM_ArithZExtOp : WaveASM_ArithUnaryOp<"zext">;

//===----------------------------------------------------------------------===//
// Instruction base classes
//===----------------------------------------------------------------------===//

class WaveASM_InstOp<string mnemonic, list<Trait> traits = []>
    : WaveASM_ProgramOp<mnemonic, traits>;

class WaveASM_VALUOp<string mnemonic, list<Trait> traits = []>
    : WaveASM_InstOp<mnemonic, traits> {
  let unit = "VALU";
  let latClass = "VALU";
  let dstConstraint = "VGPR";
}

class WaveASM_SALUOp<string mnemonic, list<Trait> traits = []>
    : WaveASM_InstOp<mnemonic, traits> {
  let unit = "SALU";
  let latClass = "SALU";
  let dstConstraint = "SGPR";
}

//===----------------------------------------------------------------------===//
// VALU (SPEC.md 7.1 - 7.6)
//===----------------------------------------------------------------------===//

class WaveASM_VALUUnaryOp<string mnemonic, string lat = "VALU">
    : WaveASM_VALUOp<mnemonic, [Pure]> {
  let arguments = (ins WaveASM_VGPROrImm:$src);
  let results = (outs WaveASM_AnyVGPR:$dst);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($dst)";
  let latClass = lat;
}

foreach n = ["v_mov_b64", "v_cvt_f32_i32", "v_cvt_f32_u32", "v_cvt_i32_f32",
             "v_cvt_u32_f32", "v_cvt_f16_f32", "v_cvt_f32_f16", "v_cvt_f32_f64",
             "v_cvt_f64_f32", "v_cvt_f32_bf16", "v_cvt_bf16_f32", "v_not_b32",
             "v_not_b64", "v_bfrev_b32", "v_ffbh_u32", "v_ffbl_b32",
             "v_ffbh_i32", "v_frexp_mant_f32", "v_frexp_exp_i32_f32",
             "v_fract_f32", "v_trunc_f32", "v_ceil_f32", "v_floor_f32",
             "v_rndne_f32", "v_abs_f32", "v_abs_i32"] in
def WaveASM_#!toupper(n) : WaveASM_VALUUnaryOp<n>;

// Transcendental subset: producers of the Trans -> VALU hazard.
foreach n = ["v_rcp_f32", "v_rcp_f64", "v_rsq_f32", "v_rsq_f64", "v_sqrt_f32",
             "v_sqrt_f64", "v_exp_f32", "v_log_f32", "v_sin_f32",
             "v_cos_f32"] in
def WaveASM_#!toupper(n) : WaveASM_VALUUnaryOp<n, "Trans">;

def WaveASM_V_MOV_B32 : WaveASM_VALUOp<"v_mov_b32", [Pure]> {
  let arguments = (ins WaveASM_VALUSrc:$src);
  let results = (outs WaveASM_AnyVectorReg:$dst);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($dst)";
  let dstConstraint = "Vector";
}

class WaveASM_VALUBinaryOp<string mnemonic, list<Trait> traits = []>
    : WaveASM_VALUOp<mnemonic, traits # [Pure]> {
  let arguments = (ins WaveASM_VALUSrc:$src0, WaveASM_VALUSrc:$src1);
  let results = (outs WaveASM_AnyVGPR:$dst);
  let assemblyFormat = [{
    $src0 `,` $src1 attr-dict `:` type($src0) `,` type($src1) `->` type($dst)
  }];
}

foreach n = ["v_cvt_pk_bf16_f32", "v_sub_u32", "v_sub_i32", "v_subrev_u32",
             "v_add_f32", "v_add_f64", "v_add_f16", "v_sub_f32", "v_sub_f64",
             "v_sub_f16", "v_subrev_f32", "v_mul_f32", "v_mul_f64", "v_mul_f16",
             "v_mul_legacy_f32", "v_min_f32", "v_min_f64", "v_min_i32",
             "v_min_u32", "v_max_f32", "v_max_f64", "v_max_i32", "v_max_u32",
             "v_lshlrev_b32", "v_lshlrev_b64", "v_lshrrev_b32", "v_lshrrev_b64",
             "v_ashrrev_i32", "v_ashrrev_i64", "v_ldexp_f32", "v_ldexp_f64",
             "v_cvt_pkrtz_f16_f32", "v_mbcnt_lo_u32_b32",
             "v_mbcnt_hi_u32_b32"] in
def WaveASM_#!toupper(n) : WaveASM_VALUBinaryOp<n>;

foreach n = ["v_add_u32", "v_add_i32", "v_mul_lo_u32", "v_mul_hi_u32",
             "v_mul_lo_i32", "v_mul_hi_i32", "v_and_b32", "v_and_b64",
             "v_or_b32", "v_or_b64", "v_xor_b32", "v_xor_b64"] in
def WaveASM_#!toupper(n) : WaveASM_VALUBinaryOp<n, [Commutative]>;

// Carry ops write VCC (the `carry` result models it); the carry-in forms
// read VCC implicitly.
class WaveASM_VALUCarryOp<string mnemonic, string uses>
    : WaveASM_VALUOp<mnemonic, [Pure,
        OpAsmOpInterface]> {
  let arguments = (ins WaveASM_VALUSrc:$src0, WaveASM_VALUSrc:$src1);
  let results = (outs WaveASM_AnyVGPR:$dst, WaveASM_AnySGPR:$carry);
  let assemblyFormat = [{
    $src0 `,` $src1 attr-dict `:` type($src0) `,` type($src1) `->`
    type($dst) `,` type($carry)
  }];
  let implicitDefs = "::waveasm::ImpVCC";
  let implicitUses = uses;
  let extraDecls = WaveASM_NamedResults<"carry">.namedResultsDecl;
}
def WaveASM_V_ADD_CO_U32 : WaveASM_VALUCarryOp<"v_add_co_u32", "0">;
def WaveASM_V_SUB_CO_U32 : WaveASM_VALUCarryOp<"v_sub_co_u32", "0">;
def WaveASM_V_ADDC_CO_U32
    : WaveASM_VALUCarryOp<"v_addc_co_u32", "::waveasm::ImpVCC">;
def WaveASM_V_SUBB_CO_U32
    : WaveASM_VALUCarryOp<"v_subb_co_u32", "::waveasm::ImpVCC">;

class WaveASM_VALUTernaryOp<string mnemonic, string lat = "VALU">
    : WaveASM_VALUOp<mnemonic, [Pure]> {
  let arguments = (ins WaveASM_VALUSrc:$src0, WaveASM_VALUSrc:$src1,
                       WaveASM_VALUSrc:$src2);
  let results = (outs WaveASM_AnyVGPR:$dst);
  let assemblyFormat = [{
    $src0 `,` $src1 `,` $src2 attr-dict `:` type($src0) `,` type($src1) `,`
    type($src2) `->` type($dst)
  }];
  let latClass = lat;
}
foreach n = ["v_fma_f32", "v_fma_f64", "v_fma_f16", "v_mad_f32",
             "v_mad_i32_i24", "v_mad_u32_u24", "v_add3_u32", "v_med3_f32",
             "v_med3_i32", "v_med3_u32", "v_sad_u32", "v_lerp_u8", "v_bfe_u32",
             "v_bfe_i32", "v_bfi_b32", "v_alignbit_b32", "v_alignbyte_b32",
             "v_lshl_or_b32", "v_lshl_add_u32"] in
def WaveASM_#!toupper(n) : WaveASM_VALUTernaryOp<n>;

// Compares write VCC; no SSA result, unknown effects (not Pure) as upstream.
class WaveASM_VALUCmpOp<string mnemonic> : WaveASM_VALUOp<mnemonic> {
  let arguments = (ins WaveASM_VALUSrc:$src0, WaveASM_VALUSrc:$src1);
  let assemblyFormat = [{
    $src0 `,` $src1 attr-dict `:` type($src0) `,` type($src1)
  }];
  let implicitDefs = "::waveasm::ImpVCC";
  let dstConstraint = "None";
}
foreach p = ["eq", "ne", "lt", "le", "gt", "ge", "o", "u"] in
def WaveASM_V_CMP_#!toupper(p)#_F32 : WaveASM_VALUCmpOp<"v_cmp_" # p # "_f32">;
foreach t = ["i32", "u32", "i64", "u64"] in
foreach p = ["eq", "ne", "lt", "le", "gt", "ge"] in
def WaveASM_V_CMP_#!toupper(p)#_#!toupper(t)
    : WaveASM_VALUCmpOp<"v_cmp_" # p # "_" # t>;

def WaveASM_V_READFIRSTLANE_B32 : WaveASM_VALUOp<"v_readfirstlane_b32", [Pure]> {
  let arguments = (ins WaveASM_AnyVGPR:$src);
  let results = (outs WaveASM_AnySGPR:$dst);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($dst)";
  let dstConstraint = "SGPR";
}

// `vcc_dep` only orders the select after the compare that wrote VCC.
def WaveASM_V_CNDMASK_B32 : WaveASM_VALUOp<"v_cndmask_b32"> {
  let arguments = (ins WaveASM_VALUSrc:$src0, WaveASM_VALUSrc:$src1,
                       WaveASM_VALUSrc:$vcc_dep);
  let results = (outs WaveASM_AnyVGPR:$dst);
  let assemblyFormat = [{
    $src0 `,` $src1 `,` $vcc_dep attr-dict `:` type($src0) `,` type($src1) `,`
    type($vcc_dep) `->` type($dst)
  }];
  let implicitUses = "::waveasm::ImpVCC";
}

def WaveASM_V_READLANE_B32 : WaveASM_VALUOp<"v_readlane_b32", [Pure]> {
  let arguments = (ins WaveASM_AnyVGPR:$src, WaveASM_SGPROrImm:$lane);
  let results = (outs WaveASM_AnySGPR:$dst);
  let assemblyFormat = [{
    $src `,` $lane attr-dict `:` type($src) `,` type($lane) `->` type($dst)
  }];
  let dstConstraint = "SGPR";
}

def WaveASM_V_WRITELANE_B32 : WaveASM_VALUOp<"v_writelane_b32", [Pure]> {
  let arguments = (ins WaveASM_SGPROrImm:$src, WaveASM_SGPROrImm:$lane,
                       WaveASM_AnyVGPR:$vdst_in);
  let results = (outs WaveASM_AnyVGPR:$dst);
  let assemblyFormat = [{
    $src `,` $lane `,` $vdst_in attr-dict `:` type($src) `,` type($lane) `,`
    type($vdst_in) `->` type($dst)
  }];
}

def WaveASM_V_ACCVGPR_READ_B32 : WaveASM_VALUOp<"v_accvgpr_read_b32", [Pure]> {
  let arguments = (ins WaveASM_AnyAGPR:$src);
  let results = (outs WaveASM_AnyVGPR:$dst);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($dst)";
}

// The destination AGPR is an operand (upstream's shape). Upstream: Pure, so
// generic dead-code elimination (canonicalize, which the production
// pipeline runs) removes every write (SPEC.md 21 item 8); it writes a
// register, so it is no pure op here and stays.
def WaveASM_V_ACCVGPR_WRITE_B32 : WaveASM_VALUOp<"v_accvgpr_write_b32", []> {
  let arguments = (ins WaveASM_AnyVGPR:$src, WaveASM_AnyAGPR:$adst);
  let assemblyFormat = "$src `,` $adst attr-dict `:` type($src) `,` type($adst)";
  let dstConstraint = "None";
}

//===----------------------------------------------------------------------===//
// MFMA (SPEC.md 7.12). The result is tied to the accumulator (operand 2).
//===----------------------------------------------------------------------===//

// `srcRegs`: the registers of each of A and B (the emitter and completion
// read it from OpSignatures; the verifier leaves it to the emitter, as
// upstream does). 0 for the scaled ops, where cbsz/blgp decide.
class WaveASM_MFMAOp<string mnemonic, int accRegs, int srcRegs>
    : WaveASM_InstOp<mnemonic, [Pure, WaveASM_MFMAWidth<accRegs>]> {
  let arguments = (ins WaveASM_VALUSrc:$a, WaveASM_VALUSrc:$b,
                       WaveASM_MFMAAccSrc:$acc);
  let results = (outs WaveASM_AnyVectorReg:$dst);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc) `->`
    type($dst)
  }];
  let unit = "MFMA";
  let latClass = "MFMA";
  let tied = "2";
  let dstConstraint = "Vector";
  int mfmaSrcRegs = srcRegs;
}

// Grouped by accumulator and A/B registers (SPEC.md 7.12).
foreach n = ["v_mfma_f64_4x4x4_f64"] in
def WaveASM_#!toupper(n) : WaveASM_MFMAOp<n, 2, 2>;
foreach n = ["v_mfma_f64_16x16x4_f64"] in
def WaveASM_#!toupper(n) : WaveASM_MFMAOp<n, 8, 2>;
foreach n = ["v_mfma_f32_16x16x16_f16", "v_mfma_f32_4x4x4_f16",
             "v_mfma_f32_16x16x16_bf16", "v_mfma_f32_4x4x4_bf16",
             "v_mfma_f32_16x16x32_fp8_fp8", "v_mfma_f32_16x16x32_fp8_bf8",
             "v_mfma_f32_16x16x32_bf8_fp8", "v_mfma_f32_16x16x32_bf8_bf8"] in
def WaveASM_#!toupper(n) : WaveASM_MFMAOp<n, 4, 2>;
foreach n = ["v_mfma_f32_16x16x32_f16", "v_mfma_f32_16x16x32_bf16"] in
def WaveASM_#!toupper(n) : WaveASM_MFMAOp<n, 4, 4>;
foreach n = ["v_mfma_i32_16x16x16_i8", "v_mfma_i32_4x4x4_i8",
             "v_mfma_f32_16x16x4_f32", "v_mfma_f32_4x4x1_f32"] in
def WaveASM_#!toupper(n) : WaveASM_MFMAOp<n, 4, 1>;
foreach n = ["v_mfma_f32_32x32x8_f16", "v_mfma_f32_16x16x4_f16",
             "v_mfma_f32_32x32x8_bf16", "v_mfma_f32_16x16x4_bf16",
             "v_mfma_f32_32x32x16_fp8_fp8", "v_mfma_f32_32x32x16_fp8_bf8",
             "v_mfma_f32_32x32x16_bf8_fp8", "v_mfma_f32_32x32x16_bf8_bf8"] in
def WaveASM_#!toupper(n) : WaveASM_MFMAOp<n, 16, 2>;
foreach n = ["v_mfma_i32_32x32x8_i8", "v_mfma_i32_16x16x4_i8",
             "v_mfma_f32_32x32x2_f32"] in
def WaveASM_#!toupper(n) : WaveASM_MFMAOp<n, 16, 1>;
foreach n = ["v_mfma_f32_32x32x4_f16", "v_mfma_f32_32x32x4_bf16"] in
def WaveASM_#!toupper(n) : WaveASM_MFMAOp<n, 32, 2>;
foreach n = ["v_mfma_i32_32x32x4_i8"] in
def WaveASM_#!toupper(n) : WaveASM_MFMAOp<n, 32, 1>;

// Scaled MFMA: cbsz/blgp/op_sel_a/op_sel_b are discardable attributes.
class WaveASM_ScaledMFMAOp<string mnemonic, int accRegs>
    : WaveASM_MFMAOp<mnemonic, accRegs, 0> {
  let arguments = (ins WaveASM_VALUSrc:$a, WaveASM_VALUSrc:$b,
                       WaveASM_MFMAAccSrc:$acc, WaveASM_VALUSrc:$a_scale,
                       WaveASM_VALUSrc:$b_scale);
  let assemblyFormat = [{
    $a `,` $b `,` $acc `,` $a_scale `,` $b_scale attr-dict `:` type($a) `,`
    type($b) `,` type($acc) `,` type($a_scale) `,` type($b_scale) `->`
    type($dst)
  }];
}
def WaveASM_V_MFMA_SCALE_F32_16X16X128_F8F6F4
    : WaveASM_ScaledMFMAOp<"v_mfma_scale_f32_16x16x128_f8f6f4", 4>;
def WaveASM_V_MFMA_SCALE_F32_32X32X64_F8F6F4
    : WaveASM_ScaledMFMAOp<"v_mfma_scale_f32_32x32x64_f8f6f4", 16>;

//===----------------------------------------------------------------------===//
// SALU (SPEC.md 7.13)
//===----------------------------------------------------------------------===//

class WaveASM_SALUUnaryOp<string mnemonic> : WaveASM_SALUOp<mnemonic, [Pure]> {
  let arguments = (ins WaveASM_SGPROrImm:$src);
  let results = (outs WaveASM_AnySGPR:$dst);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($dst)";
}
foreach n = ["s_mov_b32", "s_mov_b64", "s_sext_i32_i8", "s_sext_i32_i16"] in
def WaveASM_#!toupper(n) : WaveASM_SALUUnaryOp<n>;

class WaveASM_SALUUnarySCCOp<string mnemonic>
    : WaveASM_SALUOp<mnemonic, [Pure,
        OpAsmOpInterface]> {
  let arguments = (ins WaveASM_SGPROrImm:$src);
  let results = (outs WaveASM_AnySGPR:$dst, WaveASM_SCCFlag:$scc);
  let assemblyFormat = [{
    $src attr-dict `:` type($src) `->` type($dst) `,` type($scc)
  }];
  let implicitDefs = "::waveasm::ImpSCC";
  let extraDecls = WaveASM_NamedResults<"scc">.namedResultsDecl;
}
foreach n = ["s_not_b32", "s_not_b64", "s_brev_b32", "s_brev_b64",
             "s_bcnt0_i32_b32", "s_bcnt0_i32_b64", "s_bcnt1_i32_b32",
             "s_bcnt1_i32_b64", "s_ff0_i32_b32", "s_ff0_i32_b64",
             "s_ff1_i32_b32", "s_ff1_i32_b64", "s_flbit_i32_b32",
             "s_flbit_i32_b64", "s_abs_i32"] in
def WaveASM_#!toupper(n) : WaveASM_SALUUnarySCCOp<n>;

class WaveASM_SALUBinaryOp<string mnemonic> : WaveASM_SALUOp<mnemonic, [Pure]> {
  let arguments = (ins WaveASM_AnySGPR:$src0, WaveASM_SGPROrImm:$src1);
  let results = (outs WaveASM_AnySGPR:$dst);
  let assemblyFormat = [{
    $src0 `,` $src1 attr-dict `:` type($src0) `,` type($src1) `->` type($dst)
  }];
}
foreach n = ["s_mul_i32", "s_mul_hi_u32", "s_mul_hi_i32", "s_bfm_b32",
             "s_bfm_b64", "s_pack_ll_b32_b16", "s_pack_lh_b32_b16",
             "s_pack_hh_b32_b16"] in
def WaveASM_#!toupper(n) : WaveASM_SALUBinaryOp<n>;

class WaveASM_SALUBinarySCCOp<string mnemonic, list<Trait> traits = [Pure]>
    : WaveASM_SALUOp<mnemonic, traits # [
        OpAsmOpInterface]> {
  let arguments = (ins WaveASM_AnySGPR:$src0, WaveASM_SGPROrImm:$src1);
  let results = (outs WaveASM_AnySGPR:$dst, WaveASM_SCCFlag:$scc);
  let assemblyFormat = [{
    $src0 `,` $src1 attr-dict `:` type($src0) `,` type($src1) `->` type($dst)
    `,` type($scc)
  }];
  let implicitDefs = "::waveasm::ImpSCC";
  let extraDecls = WaveASM_NamedResults<"scc">.namedResultsDecl;
}
foreach op = ["and", "or", "xor", "andn2", "orn2", "nand", "nor", "xnor"] in
foreach w = ["b32", "b64"] in
def WaveASM_S_#!toupper(op)#_#!toupper(w)
    : WaveASM_SALUBinarySCCOp<"s_" # op # "_" # w>;
foreach n = ["s_lshl_b32", "s_lshl_b64", "s_lshr_b32", "s_lshr_b64",
             "s_ashr_i32", "s_ashr_i64", "s_min_i32", "s_min_u32", "s_max_i32",
             "s_max_u32", "s_bfe_u32", "s_bfe_i32", "s_bfe_u64",
             "s_bfe_i64"] in
def WaveASM_#!toupper(n) : WaveASM_SALUBinarySCCOp<n>;

// Carry/borrow ops are not Pure upstream: never removed or hoisted.
foreach n = ["s_add_u32", "s_add_i32", "s_sub_u32", "s_sub_i32"] in
def WaveASM_#!toupper(n) : WaveASM_SALUBinarySCCOp<n, []>;

def WaveASM_S_ADDC_U32 : WaveASM_SALUOp<"s_addc_u32", [
    OpAsmOpInterface]> {
  let arguments = (ins WaveASM_SCCFlag:$scc_in, WaveASM_AnySGPR:$src0,
                       WaveASM_SGPROrImm:$src1);
  let results = (outs WaveASM_AnySGPR:$dst, WaveASM_SCCFlag:$scc);
  let assemblyFormat = [{
    $scc_in `,` $src0 `,` $src1 attr-dict `:` type($scc_in) `,` type($src0) `,`
    type($src1) `->` type($dst) `,` type($scc)
  }];
  let implicitUses = "::waveasm::ImpSCC";
  let implicitDefs = "::waveasm::ImpSCC";
  let extraDecls = WaveASM_NamedResults<"scc">.namedResultsDecl;
}

class WaveASM_SALUCmpOp<string mnemonic> : WaveASM_SALUOp<mnemonic, [Pure]> {
  let arguments = (ins WaveASM_AnySGPR:$src0, WaveASM_SGPROrImm:$src1);
  let results = (outs WaveASM_SCCFlag:$scc);
  let assemblyFormat = [{
    $src0 `,` $src1 attr-dict `:` type($src0) `,` type($src1) `->` type($scc)
  }];
  let implicitDefs = "::waveasm::ImpSCC";
  let dstConstraint = "SCC";
}
foreach t = ["i32", "u32"] in
foreach p = ["eq", "ne", "lt", "le", "gt", "ge"] in
def WaveASM_S_CMP_#!toupper(p)#_#!toupper(t)
    : WaveASM_SALUCmpOp<"s_cmp_" # p # "_" # t>;
def WaveASM_S_CMP_EQ_U64 : WaveASM_SALUCmpOp<"s_cmp_eq_u64">;
def WaveASM_S_CMP_NE_U64 : WaveASM_SALUCmpOp<"s_cmp_ne_u64">;

def WaveASM_S_CSELECT_B32 : WaveASM_SALUOp<"s_cselect_b32", [NoMemoryEffect]> {
  let arguments = (ins WaveASM_SCCFlag:$scc_in, WaveASM_SGPROrImm:$src0,
                       WaveASM_SGPROrImm:$src1);
  let results = (outs WaveASM_AnySGPR:$dst);
  let assemblyFormat = [{
    $scc_in `,` $src0 `,` $src1 attr-dict `:` type($scc_in) `,` type($src0) `,`
    type($src1) `->` type($dst)
  }];
  let implicitUses = "::waveasm::ImpSCC";
}

//===----------------------------------------------------------------------===//
// Memory (SPEC.md 7.7 - 7.11)
//===----------------------------------------------------------------------===//

class WaveASM_MemOp<string mnemonic, list<Trait> traits = []>
    : WaveASM_InstOp<mnemonic, traits>;

// Buffer/global/flat loads. FLAT addresses may resolve to LDS and count on
// both counters (SCHEDULING-FACTS.md).
class WaveASM_VMEMLoadOp<string mnemonic, int dwords, list<Trait> traits = [],
                         string reads = "::waveasm::MemGlobal",
                         string ctr = "VMCnt">
    : WaveASM_MemOp<mnemonic, traits> {
  let arguments = (ins WaveASM_AnySGPR:$saddr, WaveASM_VGPROrImm:$voffset,
                       WaveASM_SGPROrImm:$soffset,
                       DefaultValuedAttr<I64Attr, "0">:$instOffset);
  let results = (outs Variadic<WaveASM_AnyVGPR>:$results);
  let assemblyFormat = [{
    $saddr `,` $voffset `,` $soffset (`offset` `:` $instOffset^)? attr-dict `:`
    type($saddr) `,` type($voffset) `,` type($soffset) `->` type($results)
  }];
  let unit = "VMEM";
  let latClass = "VMEMLoad";
  let memReads = reads;
  let counter = ctr;
  let dataDwords = !cast<string>(dwords);
  let dstConstraint = "VGPR";
}
class WaveASM_BufferLoadOp<string mnemonic, int dwords>
    : WaveASM_VMEMLoadOp<mnemonic, dwords, [WaveASM_BufferAccess<"Load">]>;
class WaveASM_FlatLoadOp<string mnemonic, int dwords>
    : WaveASM_VMEMLoadOp<mnemonic, dwords, [],
        "::waveasm::MemGlobal | ::waveasm::MemLDS", "VMAndLGKM">;

def WaveASM_BUFFER_LOAD_DWORD : WaveASM_BufferLoadOp<"buffer_load_dword", 1>;
def WaveASM_BUFFER_LOAD_DWORDX2 : WaveASM_BufferLoadOp<"buffer_load_dwordx2", 2>;
def WaveASM_BUFFER_LOAD_DWORDX3 : WaveASM_BufferLoadOp<"buffer_load_dwordx3", 3>;
def WaveASM_BUFFER_LOAD_DWORDX4 : WaveASM_BufferLoadOp<"buffer_load_dwordx4", 4>;
foreach n = ["ubyte", "sbyte", "ushort", "sshort"] in
def WaveASM_BUFFER_LOAD_#!toupper(n)
    : WaveASM_BufferLoadOp<"buffer_load_" # n, 1>;
def WaveASM_GLOBAL_LOAD_DWORD : WaveASM_VMEMLoadOp<"global_load_dword", 1>;
def WaveASM_GLOBAL_LOAD_DWORDX2 : WaveASM_VMEMLoadOp<"global_load_dwordx2", 2>;
def WaveASM_GLOBAL_LOAD_DWORDX3 : WaveASM_VMEMLoadOp<"global_load_dwordx3", 3>;
def WaveASM_GLOBAL_LOAD_DWORDX4 : WaveASM_VMEMLoadOp<"global_load_dwordx4", 4>;
foreach n = ["ubyte", "sbyte", "ushort", "sshort"] in
def WaveASM_GLOBAL_LOAD_#!toupper(n)
    : WaveASM_VMEMLoadOp<"global_load_" # n, 1>;
def WaveASM_FLAT_LOAD_DWORD : WaveASM_FlatLoadOp<"flat_load_dword", 1>;
def WaveASM_FLAT_LOAD_DWORDX2 : WaveASM_FlatLoadOp<"flat_load_dwordx2", 2>;
def WaveASM_FLAT_LOAD_DWORDX3 : WaveASM_FlatLoadOp<"flat_load_dwordx3", 3>;
def WaveASM_FLAT_LOAD_DWORDX4 : WaveASM_FlatLoadOp<"flat_load_dwordx4", 4>;

// Direct-to-LDS loads: voffset first; data lands in LDS at M0.
class WaveASM_VMEMToLDSLoadOp<string mnemonic, int dwords>
    : WaveASM_MemOp<mnemonic> {
  let arguments = (ins WaveASM_VGPROrImm:$voffset, WaveASM_AnySGPR:$srd,
                       WaveASM_SGPROrImm:$soffset);
  let assemblyFormat = [{
    $voffset `,` $srd `,` $soffset attr-dict `:` type($voffset) `,` type($srd)
    `,` type($soffset)
  }];
  let unit = "VMEM";
  let latClass = "VMEMLoad";
  let memReads = "::waveasm::MemGlobal";
  let memWrites = "::waveasm::MemLDS";
  let counter = "VMCnt";
  let implicitUses = "::waveasm::ImpM0";
  let dataDwords = !cast<string>(dwords);
}
def WaveASM_BUFFER_LOAD_DWORD_LDS
    : WaveASM_VMEMToLDSLoadOp<"buffer_load_dword_lds", 1>;
def WaveASM_BUFFER_LOAD_DWORDX4_LDS
    : WaveASM_VMEMToLDSLoadOp<"buffer_load_dwordx4_lds", 4>;

// Stores and atomics: no soffset operand (emitted as 0).
class WaveASM_VMEMStoreOp<string mnemonic, int dwords, list<Trait> traits = [],
                          string writes = "::waveasm::MemGlobal",
                          string ctr = "VMCnt">
    : WaveASM_MemOp<mnemonic, traits> {
  let arguments = (ins WaveASM_AnyVGPR:$data, WaveASM_AnySGPR:$saddr,
                       WaveASM_VGPROrImm:$voffset,
                       DefaultValuedAttr<I64Attr, "0">:$instOffset);
  let assemblyFormat = [{
    $data `,` $saddr `,` $voffset (`offset` `:` $instOffset^)? attr-dict `:`
    type($data) `,` type($saddr) `,` type($voffset)
  }];
  let unit = "VMEM";
  let latClass = "VMEMStore";
  let memWrites = writes;
  let counter = ctr;
  let dataDwords = !cast<string>(dwords);
}
class WaveASM_BufferStoreOp<string mnemonic, int dwords>
    : WaveASM_VMEMStoreOp<mnemonic, dwords, [WaveASM_BufferAccess<"Store">]>;
class WaveASM_FlatStoreOp<string mnemonic, int dwords>
    : WaveASM_VMEMStoreOp<mnemonic, dwords, [],
        "::waveasm::MemGlobal | ::waveasm::MemLDS", "VMAndLGKM">;

def WaveASM_BUFFER_STORE_DWORD : WaveASM_BufferStoreOp<"buffer_store_dword", 1>;
def WaveASM_BUFFER_STORE_DWORDX2 : WaveASM_BufferStoreOp<"buffer_store_dwordx2", 2>;
def WaveASM_BUFFER_STORE_DWORDX3 : WaveASM_BufferStoreOp<"buffer_store_dwordx3", 3>;
def WaveASM_BUFFER_STORE_DWORDX4 : WaveASM_BufferStoreOp<"buffer_store_dwordx4", 4>;
def WaveASM_BUFFER_STORE_BYTE : WaveASM_BufferStoreOp<"buffer_store_byte", 1>;
def WaveASM_BUFFER_STORE_SHORT : WaveASM_BufferStoreOp<"buffer_store_short", 1>;
def WaveASM_GLOBAL_STORE_DWORD : WaveASM_VMEMStoreOp<"global_store_dword", 1>;
def WaveASM_GLOBAL_STORE_DWORDX2 : WaveASM_VMEMStoreOp<"global_store_dwordx2", 2>;
def WaveASM_GLOBAL_STORE_DWORDX3 : WaveASM_VMEMStoreOp<"global_store_dwordx3", 3>;
def WaveASM_GLOBAL_STORE_DWORDX4 : WaveASM_VMEMStoreOp<"global_store_dwordx4", 4>;
def WaveASM_GLOBAL_STORE_BYTE : WaveASM_VMEMStoreOp<"global_store_byte", 1>;
def WaveASM_GLOBAL_STORE_SHORT : WaveASM_VMEMStoreOp<"global_store_short", 1>;
def WaveASM_FLAT_STORE_DWORD : WaveASM_FlatStoreOp<"flat_store_dword", 1>;
def WaveASM_FLAT_STORE_DWORDX2 : WaveASM_FlatStoreOp<"flat_store_dwordx2", 2>;
def WaveASM_FLAT_STORE_DWORDX3 : WaveASM_FlatStoreOp<"flat_store_dwordx3", 3>;
def WaveASM_FLAT_STORE_DWORDX4 : WaveASM_FlatStoreOp<"flat_store_dwordx4", 4>;

class WaveASM_BufferAtomicOp<string mnemonic>
    : WaveASM_BufferStoreOp<mnemonic, 1> {
  let memReads = "::waveasm::MemGlobal";
}
def WaveASM_BUFFER_ATOMIC_PK_ADD_BF16
    : WaveASM_BufferAtomicOp<"buffer_atomic_pk_add_bf16">;
def WaveASM_BUFFER_ATOMIC_ADD_F32
    : WaveASM_BufferAtomicOp<"buffer_atomic_add_f32">;

// Scalar loads: results may return out of order (only lgkmcnt(0) is safe).
class WaveASM_SMEMLoadOp<string mnemonic, int dwords> : WaveASM_MemOp<mnemonic> {
  let arguments = (ins WaveASM_AnySGPR:$saddr, WaveASM_SGPROrImm:$offset);
  let results = (outs Variadic<WaveASM_AnySGPR>:$results);
  let assemblyFormat = [{
    $saddr `,` $offset attr-dict `:` type($saddr) `,` type($offset) `->`
    type($results)
  }];
  let unit = "SMEM";
  let latClass = "SMEM";
  let memReads = "::waveasm::MemScalar";
  let counter = "LGKMCnt";
  let dataDwords = !cast<string>(dwords);
  let dstConstraint = "SGPR";
}
def WaveASM_S_LOAD_DWORD : WaveASM_SMEMLoadOp<"s_load_dword", 1>;
def WaveASM_S_LOAD_DWORDX2 : WaveASM_SMEMLoadOp<"s_load_dwordx2", 2>;
def WaveASM_S_LOAD_DWORDX4 : WaveASM_SMEMLoadOp<"s_load_dwordx4", 4>;
def WaveASM_S_LOAD_DWORDX8 : WaveASM_SMEMLoadOp<"s_load_dwordx8", 8>;
def WaveASM_S_LOAD_DWORDX16 : WaveASM_SMEMLoadOp<"s_load_dwordx16", 16>;

class WaveASM_LDSReadOp<string mnemonic, int dwords> : WaveASM_MemOp<mnemonic> {
  let arguments = (ins WaveASM_VGPROrImm:$vaddr, OptionalAttr<I64Attr>:$offset);
  let results = (outs Variadic<WaveASM_AnyVGPR>:$results);
  let assemblyFormat = "$vaddr attr-dict `:` type($vaddr) `->` type($results)";
  let unit = "LDS";
  let latClass = "LDSLoad";
  let memReads = "::waveasm::MemLDS";
  let counter = "LGKMCnt";
  let dataDwords = !cast<string>(dwords);
  let dstConstraint = "VGPR";
}
def WaveASM_DS_READ_B32 : WaveASM_LDSReadOp<"ds_read_b32", 1>;
def WaveASM_DS_READ_B64 : WaveASM_LDSReadOp<"ds_read_b64", 2>;
def WaveASM_DS_READ_B128 : WaveASM_LDSReadOp<"ds_read_b128", 4>;
def WaveASM_DS_READ2_B32 : WaveASM_LDSReadOp<"ds_read2_b32", 2>;
def WaveASM_DS_READ2_B64 : WaveASM_LDSReadOp<"ds_read2_b64", 4>;
foreach n = ["u8", "i8", "u16", "i16"] in
def WaveASM_DS_READ_#!toupper(n) : WaveASM_LDSReadOp<"ds_read_" # n, 1>;

// `offset` on LDS writes is a discardable attribute upstream; it stays one.
class WaveASM_LDSWriteOp<string mnemonic, int dwords> : WaveASM_MemOp<mnemonic> {
  let arguments = (ins WaveASM_AnyVGPR:$data, WaveASM_VGPROrImm:$vaddr);
  let assemblyFormat = [{
    $data `,` $vaddr attr-dict `:` type($data) `,` type($vaddr)
  }];
  let unit = "LDS";
  let latClass = "LDSStore";
  let memWrites = "::waveasm::MemLDS";
  let counter = "LGKMCnt";
  let dataDwords = !cast<string>(dwords);
}
def WaveASM_DS_WRITE_B32 : WaveASM_LDSWriteOp<"ds_write_b32", 1>;
def WaveASM_DS_WRITE_B64 : WaveASM_LDSWriteOp<"ds_write_b64", 2>;
def WaveASM_DS_WRITE_B128 : WaveASM_LDSWriteOp<"ds_write_b128", 4>;
def WaveASM_DS_WRITE2_B32 : WaveASM_LDSWriteOp<"ds_write2_b32", 2>;
def WaveASM_DS_WRITE2_B64 : WaveASM_LDSWriteOp<"ds_write2_b64", 4>;
def WaveASM_DS_WRITE_B8 : WaveASM_LDSWriteOp<"ds_write_b8", 1>;
def WaveASM_DS_WRITE_B16 : WaveASM_LDSWriteOp<"ds_write_b16", 1>;

//===----------------------------------------------------------------------===//
// Special registers (SPEC.md 7.14)
//===----------------------------------------------------------------------===//

def WaveASM_S_MOV_B32_M0 : WaveASM_SALUOp<"s_mov_b32_m0"> {
  let arguments = (ins WaveASM_SGPROrImm:$src);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let implicitDefs = "::waveasm::ImpM0";
  let dstConstraint = "None";
}

def WaveASM_S_AND_SAVEEXEC_B64 : WaveASM_SALUOp<"s_and_saveexec_b64"> {
  let results = (outs WaveASM_AnySGPR:$dst);
  let assemblyFormat = "attr-dict `->` type($dst)";
  let implicitUses = "::waveasm::ImpEXEC | ::waveasm::ImpVCC";
  let implicitDefs = "::waveasm::ImpEXEC | ::waveasm::ImpSCC";
  let pinned = "true";
}

def WaveASM_S_MOV_B64_EXEC : WaveASM_SALUOp<"s_mov_b64_exec"> {
  let arguments = (ins WaveASM_AnySGPR:$src);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let implicitDefs = "::waveasm::ImpEXEC";
  let pinned = "true";
  let dstConstraint = "None";
}

//===----------------------------------------------------------------------===//
// Synchronization and control (SPEC.md 7.15)
//===----------------------------------------------------------------------===//

class WaveASM_SyncOp<string mnemonic> : WaveASM_InstOp<mnemonic> {
  let unit = "Sync";
  let latClass = "Sync";
  let pinned = "true";
}

def WaveASM_S_WAITCNT : WaveASM_SyncOp<"s_waitcnt"> {
  let summary = "wait until outstanding memory counters drop to the given "
                "values (no field: wait for everything)";
  let arguments = (ins OptionalAttr<I32Attr>:$vmcnt,
                       OptionalAttr<I32Attr>:$lgkmcnt,
                       OptionalAttr<I32Attr>:$expcnt);
  let assemblyFormat = [{
    (`vmcnt` `(` $vmcnt^ `)`)? (`lgkmcnt` `(` $lgkmcnt^ `)`)?
    (`expcnt` `(` $expcnt^ `)`)? attr-dict
  }];
}

class WaveASM_CountedOp<string mnemonic> : WaveASM_SyncOp<mnemonic> {
  let arguments = (ins I32Attr:$count);
  let assemblyFormat = "$count attr-dict";
}
def WaveASM_S_WAITCNT_VMCNT : WaveASM_CountedOp<"s_waitcnt_vmcnt">;
def WaveASM_S_WAITCNT_LGKMCNT : WaveASM_CountedOp<"s_waitcnt_lgkmcnt">;
def WaveASM_S_WAITCNT_EXPCNT : WaveASM_CountedOp<"s_waitcnt_expcnt">;
def WaveASM_S_NOP : WaveASM_CountedOp<"s_nop">;
def WaveASM_S_SETPRIO : WaveASM_CountedOp<"s_setprio">;
def WaveASM_S_SCHED_BARRIER : WaveASM_CountedOp<"s_sched_barrier">;

def WaveASM_S_BARRIER : WaveASM_SyncOp<"s_barrier"> {
  let assemblyFormat = "attr-dict";
}

def WaveASM_S_ENDPGM : WaveASM_SyncOp<"s_endpgm"> {
  let assemblyFormat = "attr-dict";
  let unit = "Branch";
  let latClass = "Branch";
}

// Branches are opaque markers: no CFG edges, target not checked.
class WaveASM_BranchOp<string mnemonic, string uses = "0">
    : WaveASM_SyncOp<mnemonic> {
  let arguments = (ins FlatSymbolRefAttr:$target);
  let assemblyFormat = "$target attr-dict";
  let unit = "Branch";
  let latClass = "Branch";
  let implicitUses = uses;
}
def WaveASM_S_BRANCH : WaveASM_BranchOp<"s_branch">;
def WaveASM_S_CBRANCH_SCC0 : WaveASM_BranchOp<"s_cbranch_scc0", "::waveasm::ImpSCC">;
def WaveASM_S_CBRANCH_SCC1 : WaveASM_BranchOp<"s_cbranch_scc1", "::waveasm::ImpSCC">;
def WaveASM_S_CBRANCH_VCCZ : WaveASM_BranchOp<"s_cbranch_vccz", "::waveasm::ImpVCC">;
def WaveASM_S_CBRANCH_VCCNZ : WaveASM_BranchOp<"s_cbranch_vccnz", "::waveasm::ImpVCC">;
def WaveASM_S_CBRANCH_EXECZ : WaveASM_BranchOp<"s_cbranch_execz", "::waveasm::ImpEXEC">;
def WaveASM_S_CBRANCH_EXECNZ : WaveASM_BranchOp<"s_cbranch_execnz", "::waveasm::ImpEXEC">;

#endif // WAVEASM_OPS_TD
