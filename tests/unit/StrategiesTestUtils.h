//===- StrategiesTestUtils.h - kernels for the strategy tests ---*- C++ -*-===//

#ifndef WAVEASM_TESTS_UNIT_STRATEGIESTESTUTILS_H
#define WAVEASM_TESTS_UNIT_STRATEGIESTESTUTILS_H

#include "TestUtils.h"

#include "conductor/Tags.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <string>
#include <vector>

namespace waveasm::test {

inline std::string readKernel(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

inline std::string examplePath(llvm::StringRef name) {
  return (llvm::Twine(waveasm::test::examplesDir()) + "/" + name).str();
}

inline std::string mcaVariantPath(llvm::StringRef name) {
  return (llvm::Twine(waveasm::test::examplesDir()) +
          "/../bench/mca_variants/" + name)
      .str();
}

/// Every kernel the strategies must handle: the examples and the
/// mca_compare ranking variants (GEMM loops in four orders).
inline std::vector<std::string> allKernelPaths() {
  std::vector<std::string> paths;
  for (const char *name :
       {"attention_softmax_rows.mlir", "dequant_i8_to_f16.mlir",
        "gemm_bf16_splitk_agpr.mlir", "gemm_f16_32x32x8_global.mlir",
        "gemm_f16_double_buffer.mlir", "mxfp4_gemm_direct_to_lds.mlir",
        "mxfp4_preshuffle_gemm_loop.mlir",
        "gemm_f16_triple_buffer_ntiles.mlir"})
    paths.push_back(examplePath(name));
  for (const char *name :
       {"v1_clustered_early.mlir", "v2_pipelined_early.mlir",
        "v3_interleaved_early.mlir", "v4_clustered_late.mlir"})
    paths.push_back(mcaVariantPath(name));
  return paths;
}

/// The default scheduled block (innermost loop body) of the first program.
inline mlir::Block *defaultBlock(mlir::ModuleOp module) {
  for (ProgramOp program : module.getOps<ProgramOp>())
    return conductor::findDefaultBlock(program);
  return nullptr;
}

inline ProgramOp firstProgram(mlir::ModuleOp module) {
  for (ProgramOp program : module.getOps<ProgramOp>())
    return program;
  return nullptr;
}

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_STRATEGIESTESTUTILS_H
