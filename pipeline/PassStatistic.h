//===- PassStatistic.h - mlir::Pass::Statistic that matches the library -*- C++ -*-===//
//
// Include first in a pass that declares `Statistic` members.
//
// This project keeps assert() on in every build type (CMakeLists.txt drops
// -DNDEBUG), and llvm/ADT/Statistic.h turns llvm::Statistic into a
// TrackingStatistic when NDEBUG is unset. Debian's LLVM/MLIR libraries are
// built with NDEBUG, so in them llvm::Statistic is the empty NoopStatistic --
// including mlir::Pass::Statistic's out-of-line constructor in libMLIRPass.
// A TrackingStatistic member would then be built by a constructor that never
// initialises its fields (undefined behaviour on the first `+=`). Seeing
// Statistic.h with NDEBUG set gives this translation unit the library's
// layout. Against such a library `-mlir-pass-statistics` prints no values
// (the library compiled statistics out); against an LLVM built with
// statistics the same members count and print as usual.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_PASSSTATISTIC_H
#define WAVEASM_PIPELINE_PASSSTATISTIC_H

#ifdef LLVM_ADT_STATISTIC_H
#error "pipeline/PassStatistic.h must be included before any LLVM header"
#endif

#include "llvm/Config/abi-breaking.h"
#include "llvm/Config/llvm-config.h"

// The library's statistics follow its assertions, for which ABI-breaking
// checks (on by default exactly in assertion builds) are the exported proxy.
#if LLVM_ENABLE_ABI_BREAKING_CHECKS || LLVM_FORCE_ENABLE_STATS
#ifdef NDEBUG
#undef NDEBUG
#include "llvm/ADT/Statistic.h"
#define NDEBUG
#else
#include "llvm/ADT/Statistic.h"
#endif
#else
#ifndef NDEBUG
#define NDEBUG
#include "llvm/ADT/Statistic.h"
#undef NDEBUG
#else
#include "llvm/ADT/Statistic.h"
#endif
#endif

#endif // WAVEASM_PIPELINE_PASSSTATISTIC_H
