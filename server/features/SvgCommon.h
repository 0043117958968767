//===- SvgCommon.h - what the SVG pictures share ----------------*- C++ -*-===//
//
// Number formatting, escaping and unit classes used by both pictures the
// server draws (ScheduleSvg.cpp, DependenceSvg.cpp), so a style sheet rule
// or a coordinate looks the same in both.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_FEATURES_SVGCOMMON_H
#define WAVEASM_SERVER_FEATURES_SVGCOMMON_H

#include "ir/InstInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdint>

namespace waveasm::server::svg {

/// Coordinates with at most one decimal: enough at screen resolution, and
/// a third of the bytes of default float printing.
struct Num {
  double value;
};
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Num n) {
  double rounded = std::round(n.value * 10) / 10;
  if (rounded == std::floor(rounded))
    return os << static_cast<int64_t>(rounded);
  return os << llvm::format("%.1f", rounded);
}

inline void escape(llvm::raw_ostream &os, llvm::StringRef text) {
  llvm::printHTMLEscaped(text, os);
}

/// The style sheet's class for an op's unit.
inline const char *unitClass(ExecUnit unit) {
  static constexpr const char *kClasses[] = {"u-none", "u-valu",   "u-salu",
                                             "u-smem", "u-vmem",   "u-lds",
                                             "u-mfma", "u-branch", "u-sync"};
  return kClasses[static_cast<unsigned>(unit)];
}

} // namespace waveasm::server::svg

#endif // WAVEASM_SERVER_FEATURES_SVGCOMMON_H
