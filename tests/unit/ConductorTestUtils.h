//===- ConductorTestUtils.h - kernels the Conductor tests share -*- C++ -*-===//

#ifndef WAVEASM_TESTS_UNIT_CONDUCTORTESTUTILS_H
#define WAVEASM_TESTS_UNIT_CONDUCTORTESTUTILS_H

#include "TestUtils.h"

#include "conductor/Session.h"
#include "pipeline/CompileAndMeasure.h"

#include "mlir/IR/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <string>

namespace waveasm::test {

/// `module` through the full pipeline, allocated (waits and nops in), or
/// null when the pipeline failed.
inline mlir::OwningOpRef<mlir::ModuleOp>
compiledByPipeline(mlir::ModuleOp module) {
  CompileOptions options;
  options.emitAssembly = false;
  options.keepCompiledModule = true;
  mlir::FailureOr<CompileResult> result = compileAndMeasure(module, options);
  if (mlir::failed(result))
    return nullptr;
  return std::move(result->compiled);
}

/// A program whose loop runs %k from 0 to 8 carrying the accumulator %acc;
/// `body` is the loop body up to the counter update (each line starting with
/// a newline) and must define the next accumulator as %a. Values available to
/// it: %tid, %srd (buffer resource), %c0/%c1/%c4/%c8 and %off = %tid * 16. The
/// counter update, the compare and the condition end the body; the accumulator
/// is stored after the loop.
inline std::string accumulatorLoop(llvm::StringRef body) {
  return (R"(
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %off = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %kend, %accend = waveasm.loop (%k = %k0, %acc = %acc0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {)" +
          body + R"(
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %a) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %accend, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)")
      .str();
}

/// A loop whose body has every kind of op the validator cares about; tags
/// in the loop body (the default region):
///   I0  %x = buffer_load_dword   [srd, off, 0]
///   I1  %y = buffer_load_dword   [srd, off, 0] offset:4
///   I2  ds_write_b32 %x          [off + 0]
///   I3  %z = ds_read_b32         [off + 4]   (disjoint from I2)
///   I4  %w = ds_read_b32         [off + 0]   (same bytes as I2)
///   I5  %s = v_add_u32 %z, %w
///   I6  %t = v_add_u32 %s, %y
///   I7  %a = v_add_u32 %acc, %t
///   I8  s_barrier
///   I9  %kn = s_add_u32 %k, 1
///   I10 %more = s_cmp_lt_u32 %kn, 8
///   I11 condition
inline const std::string kConductorLoop = accumulatorLoop(R"(
    %x = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %off, %c0 offset : 4 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.ds_write_b32 %x, %off : !waveasm.vreg, !waveasm.vreg
    %z = waveasm.ds_read_b32 %off {offset = 4 : i64} : !waveasm.vreg -> !waveasm.vreg
    %w = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
    %s = waveasm.v_add_u32 %z, %w : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %t = waveasm.v_add_u32 %s, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %a = waveasm.v_add_u32 %acc, %t : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.s_barrier)");

/// The text of a file, or empty.
inline std::string readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// Session on the default region of `module`; fails the test on error.
inline std::unique_ptr<conductor::Session>
makeSession(mlir::ModuleOp module, conductor::SessionOptions options = {},
            mlir::Operation *owner = nullptr) {
  std::string error;
  auto session = conductor::Session::create(module, owner, options, &error);
  if (mlir::failed(session)) {
    ADD_FAILURE() << error;
    return nullptr;
  }
  return std::move(*session);
}

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_CONDUCTORTESTUTILS_H
