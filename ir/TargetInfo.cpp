//===- TargetInfo.cpp - per-target architectural data ---------------------===//

#include "ir/TargetInfo.h"
#include "ir/Dialect.h"
#include "ir/TargetKindAttr.h"

using namespace waveasm;

// Numbers from SPEC.md 12.1 (upstream's target attributes) and
// SCHEDULING-FACTS.md: VCC occupies s106-s107, so SGPR indices up to 105 are
// allocatable; v0-v255 and a0-a255 are addressable on CDNA.
static const TargetInfo kTargets[] = {
    {TargetKind::gfx942, "gfx942", "CDNA3", /*maxVGPRs=*/512,
     /*maxArchVGPRs=*/256, /*maxSGPRs=*/106, /*maxAGPRs=*/256,
     /*defaultWaveSize=*/64, /*maxLDSBytes=*/65536, /*ldsBanks=*/32,
     /*maxVmcnt=*/63, /*maxLgkmcnt=*/15, /*maxExpcnt=*/7,
     /*vgprAllocGranule=*/8, /*sgprAllocGranule=*/16, /*hasMFMA=*/true},
    {TargetKind::gfx950, "gfx950", "CDNA4", 512, 256, 106, 256, 64, 65536, 32,
     63, 15, 7, 8, 16, true},
    {TargetKind::gfx1250, "gfx1250", "RDNA4", 256, 256, 106, 0, 32, 65536, 32,
     63, 63, 7, 4, 16, false},
};

const TargetInfo &waveasm::getTargetInfo(TargetKind kind) {
  return kTargets[static_cast<unsigned>(kind)];
}

std::optional<TargetKind> waveasm::parseTargetKind(llvm::StringRef name) {
  for (const TargetInfo &info : kTargets)
    if (info.name == name)
      return info.kind;
  return std::nullopt;
}

llvm::StringRef waveasm::listTargetKinds() { return "gfx942, gfx950, gfx1250"; }

mlir::Attribute waveasm::getTargetKindAttr(mlir::MLIRContext *ctx,
                                           TargetKind kind) {
  switch (kind) {
  case TargetKind::gfx942:
    return GFX942Attr::get(ctx);
  case TargetKind::gfx950:
    return GFX950Attr::get(ctx);
  case TargetKind::gfx1250:
    return GFX1250Attr::get(ctx);
  }
  return GFX942Attr::get(ctx);
}
