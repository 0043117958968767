//===- Types.cpp - WaveASM register and immediate types -------------------===//

#include "ir/Dialect.h"
#include "ir/RegisterKind.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <atomic>
#include <cstring>
#include <optional>

using namespace mlir;
using namespace waveasm;

#define GET_TYPEDEF_CLASSES
#include "ir/WaveASMTypes.cpp.inc"

/// Parsed types by spelling (the text after `!waveasm.`, e.g. "vreg<4, 4>").
/// A type is a pure function of its spelling, and MLIR resets its lexer
/// after a dialect type, so a cached spelling needs no second parse. Only
/// successful parses are cached: errors are diagnosed every time.
///
/// The language server parses on two threads with one context: each thread
/// keeps its own table (no lock on the parser's hottest path), tagged with
/// the id of the dialect instance it belongs to. Ids are never reused, so a
/// table is never consulted for a context other than the one whose types it
/// holds, even when a new context reuses an old one's address.
static std::atomic<uint64_t> destroyedDialects{0};

struct WaveASMDialect::TypeCache {
  const uint64_t id = [] {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }();
  // Destroyed with the dialect, so with its context and every type in it.
  // Relaxed: a thread that is handed a new context at the old address got
  // it through some synchronization that follows this increment.
  ~TypeCache() { destroyedDialects.fetch_add(1, std::memory_order_relaxed); }
};

uint64_t waveasm::detail::getDestroyedDialectCount() {
  return destroyedDialects.load(std::memory_order_relaxed);
}

namespace {
/// A spelling of at most 15 bytes packed into two words, its length in the
/// top byte: the register and immediate types are all that short
/// ("psreg<12, 4>"), and comparing two words beats hashing and comparing a
/// string (the parser asks for a type about three times per op).
struct ShortSpelling {
  uint64_t lo = 0, hi = 0;
  static constexpr size_t kMaxSize = 15;
  static std::optional<ShortSpelling> pack(StringRef spelling) {
    if (spelling.size() > kMaxSize)
      return std::nullopt;
    char bytes[16] = {};
    std::memcpy(bytes, spelling.data(), spelling.size());
    bytes[15] = static_cast<char>(spelling.size());
    ShortSpelling key;
    std::memcpy(&key.lo, bytes, 8);
    std::memcpy(&key.hi, bytes + 8, 8);
    return key;
  }
};

struct ShortSpellingInfo {
  // No packed spelling has a zero length byte with nonzero bytes after it.
  static ShortSpelling getEmptyKey() { return {~0ull, 0}; }
  static ShortSpelling getTombstoneKey() { return {~0ull - 1, 0}; }
  static unsigned getHashValue(const ShortSpelling &key) {
    uint64_t mixed =
        (key.lo ^ (key.hi * 0x9E3779B97F4A7C15ull)) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<unsigned>(mixed >> 32);
  }
  static bool isEqual(const ShortSpelling &a, const ShortSpelling &b) {
    return a.lo == b.lo && a.hi == b.hi;
  }
};

struct ThreadTypeCache {
  uint64_t owner = 0; // TypeCache::id
  llvm::DenseMap<ShortSpelling, Type, ShortSpellingInfo> shortTypes;
  llvm::StringMap<Type> longTypes;
};
} // namespace

void WaveASMDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ir/WaveASMTypes.cpp.inc"
      >();
  typeCache = std::make_shared<TypeCache>();
}

Type WaveASMDialect::parseType(DialectAsmParser &parser) const {
  StringRef spelling = parser.getFullSymbolSpec();
  thread_local ThreadTypeCache cache;
  if (cache.owner != typeCache->id) {
    cache.shortTypes.clear();
    cache.longTypes.clear();
    cache.owner = typeCache->id;
  }
  std::optional<ShortSpelling> shortKey = ShortSpelling::pack(spelling);
  if (shortKey) {
    auto it = cache.shortTypes.find(*shortKey);
    if (it != cache.shortTypes.end())
      return it->second;
  } else {
    auto it = cache.longTypes.find(spelling);
    if (it != cache.longTypes.end())
      return it->second;
  }
  SMLoc typeLoc = parser.getCurrentLocation();
  StringRef mnemonic;
  Type type;
  OptionalParseResult result = generatedTypeParser(parser, &mnemonic, type);
  if (!result.has_value()) {
    parser.emitError(typeLoc) << "unknown  type `" << mnemonic
                              << "` in dialect `" << getNamespace() << "`";
    return {};
  }
  if (succeeded(*result) && type) {
    if (shortKey)
      cache.shortTypes.try_emplace(*shortKey, type);
    else
      cache.longTypes.try_emplace(spelling, type);
  }
  return type;
}

void WaveASMDialect::printType(Type type, DialectAsmPrinter &printer) const {
  (void)generatedTypePrinter(type, printer);
}

// RegisterTypes.h's decoding of a type, here where the types' accessors
// are defined so that they inline (a call each otherwise).
RegTypeInfo waveasm::getRegTypeInfo(Type type) {
  auto virt = [](RegClass cls, auto t) {
    return RegTypeInfo{cls, t.getSize(), t.getAlignment(), std::nullopt};
  };
  auto phys = [](RegClass cls, auto t) {
    return RegTypeInfo{cls, t.getSize(), 1, t.getIndex()};
  };
  switch (waveasm::detail::getRegisterKind(type)) {
  case 0:
    return virt(RegClass::VGPR, cast<VRegType>(type));
  case 1:
    return virt(RegClass::SGPR, cast<SRegType>(type));
  case 2:
    return virt(RegClass::AGPR, cast<ARegType>(type));
  case 3:
    return phys(RegClass::VGPR, cast<PVRegType>(type));
  case 4:
    return phys(RegClass::SGPR, cast<PSRegType>(type));
  case 5:
    return phys(RegClass::AGPR, cast<PARegType>(type));
  }
  return RegTypeInfo();
}

//===----------------------------------------------------------------------===//
// Virtual registers: `vreg ( '<' size ( ',' alignment )? '>' )?`
//===----------------------------------------------------------------------===//

template <typename T> static Type parseVirtualReg(AsmParser &parser) {
  int64_t size = 1, alignment = 1;
  if (succeeded(parser.parseOptionalLess())) {
    if (parser.parseInteger(size))
      return {};
    if (succeeded(parser.parseOptionalComma()) &&
        parser.parseInteger(alignment))
      return {};
    if (parser.parseGreater())
      return {};
  }
  return parser.getChecked<T>(parser.getContext(), size, alignment);
}

// Defaults are elided as upstream does, except that a non-default alignment
// is always kept (upstream loses it when size is 1, SPEC.md 21 item 3).
static void printVirtualReg(AsmPrinter &printer, int64_t size,
                            int64_t alignment) {
  if (size == 1 && alignment == 1)
    return;
  printer << '<' << size;
  if (alignment != 1)
    printer << ", " << alignment;
  printer << '>';
}

static LogicalResult verifyVirtualReg(function_ref<InFlightDiagnostic()> emit,
                                      int64_t size, int64_t alignment) {
  if (size < 1)
    return emit() << "register count must be at least 1, got " << size;
  if (alignment < 1)
    return emit() << "register alignment must be at least 1, got " << alignment;
  return success();
}

#define DEFINE_VIRTUAL_REG(T)                                                  \
  Type T::parse(AsmParser &parser) { return parseVirtualReg<T>(parser); }      \
  void T::print(AsmPrinter &printer) const {                                   \
    printVirtualReg(printer, getSize(), getAlignment());                       \
  }                                                                            \
  LogicalResult T::verify(function_ref<InFlightDiagnostic()> emitError,        \
                          int64_t size, int64_t alignment) {                   \
    return verifyVirtualReg(emitError, size, alignment);                       \
  }
DEFINE_VIRTUAL_REG(VRegType)
DEFINE_VIRTUAL_REG(SRegType)
DEFINE_VIRTUAL_REG(ARegType)
#undef DEFINE_VIRTUAL_REG

//===----------------------------------------------------------------------===//
// Physical registers: `pvreg '<' index ( ',' size )? '>'`
//===----------------------------------------------------------------------===//

template <typename T> static Type parsePhysicalReg(AsmParser &parser) {
  int64_t index = 0, size = 1;
  if (parser.parseLess() || parser.parseInteger(index))
    return {};
  if (succeeded(parser.parseOptionalComma()) && parser.parseInteger(size))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<T>(parser.getContext(), index, size);
}

static void printPhysicalReg(AsmPrinter &printer, int64_t index, int64_t size) {
  printer << '<' << index;
  if (size != 1)
    printer << ", " << size;
  printer << '>';
}

static LogicalResult verifyPhysicalReg(function_ref<InFlightDiagnostic()> emit,
                                       int64_t index, int64_t size) {
  if (index < 0)
    return emit() << "physical register index must be non-negative, got "
                  << index;
  if (size < 1)
    return emit() << "register count must be at least 1, got " << size;
  return success();
}

#define DEFINE_PHYSICAL_REG(T)                                                 \
  Type T::parse(AsmParser &parser) { return parsePhysicalReg<T>(parser); }     \
  void T::print(AsmPrinter &printer) const {                                   \
    printPhysicalReg(printer, getIndex(), getSize());                          \
  }                                                                            \
  LogicalResult T::verify(function_ref<InFlightDiagnostic()> emitError,        \
                          int64_t index, int64_t size) {                       \
    return verifyPhysicalReg(emitError, index, size);                          \
  }
DEFINE_PHYSICAL_REG(PVRegType)
DEFINE_PHYSICAL_REG(PSRegType)
DEFINE_PHYSICAL_REG(PARegType)
#undef DEFINE_PHYSICAL_REG
