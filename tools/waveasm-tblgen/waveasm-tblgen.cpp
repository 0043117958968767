//===- waveasm-tblgen.cpp - the project's own TableGen backends -----------===//
//
// mlir-tblgen's driver with the WaveASM generators (OpSignaturesGen.cpp)
// registered; a build-time tool, like mlir-tblgen itself.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/mlir-tblgen/MlirTblgenMain.h"

int main(int argc, char **argv) { return mlir::MlirTblgenMain(argc, argv); }
