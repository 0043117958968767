// Program header errors: wrong attribute inside target, bad/duplicate abi keys, target/abi order, missing or ill-typed attributes.
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

// A non-target attribute as the target kind: two diagnostics on one line.
// expected-error@+2 {{invalid kind of attribute specified}}
// expected-error@+1 {{failed to parse WaveASM_TargetAttr parameter 'target_kind' which is to be a `TargetAttrInterface`}}
waveasm.program @k target = #waveasm.target<#waveasm.abi<>> abi = #waveasm.abi<> {
}

// -----

// Same in the stripped form, with a builtin attribute.
// expected-error@+2 {{invalid kind of attribute specified}}
// expected-error@+1 {{failed to parse WaveASM_TargetAttr parameter 'target_kind' which is to be a `TargetAttrInterface`}}
waveasm.program @k target = <42> abi = <> {
}

// -----

// expected-error@+1 {{expected '>'}}
waveasm.program @k target = #waveasm.target<#waveasm.gfx942, 4, 3> abi = #waveasm.abi<> {
}

// -----

// expected-error@+1 {{duplicate or unknown struct parameter name: bogus}}
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<bogus = 1> {
}

// -----

// expected-error@+1 {{duplicate or unknown struct parameter name: tid}}
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 1, tid = 2> {
}

// -----

// expected-error@+1 {{custom op 'waveasm.program' expected 'target'}}
waveasm.program @k abi = #waveasm.abi<> target = #waveasm.target<#waveasm.gfx942> {
}

// -----

// expected-error@+1 {{custom op 'waveasm.program' expected 'abi'}}
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> {
}

// -----

// An abi attribute where the target is expected.
// expected-error@+1 {{invalid kind of attribute specified}}
waveasm.program @k target = #waveasm.abi<> abi = #waveasm.abi<> {
}

// -----

// Declared program attributes are type-checked while parsing (MLIR repeats
// the op name in this message).
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<>
    // expected-error@+1 {{custom op 'waveasm.program' 'waveasm.program' op attribute 'vgprs' failed to satisfy constraint: 64-bit signless integer attribute}}
    attributes {vgprs = "many"} {
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<>
    // expected-error@+1 {{custom op 'waveasm.program' 'waveasm.program' op attribute 'workgroup_size' failed to satisfy constraint: 64-bit integer array attribute}}
    attributes {workgroup_size = [64 : i32, 1 : i32, 1 : i32]} {
}
