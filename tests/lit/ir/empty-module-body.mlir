// A module whose body region has no block is mlir::verify's error, not an
// assertion in the fast verification path (pipeline/VerifyPassResult.cpp).
// RUN: not waveasm-opt %s 2>&1 | FileCheck %s
// CHECK: error: 'builtin.module' op region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks
"builtin.module"() ({}) : () -> ()
