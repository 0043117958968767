//===- Directives.cpp - a file's own simulation options -------------------===//
//
// A kernel's author knows what its buffers hold; random bytes do not: an
// E8M0 scale buffer of uniform bytes makes every scaled MFMA infinite or
// NaN, and a compare of NaN with NaN proves nothing. A comment line
//
//   // waveasm-sim: --byte-range=3:120-134 --byte-range=4:120-134
//
// says so, for waveasm-sim and for the tests that run the file; so does
// `--kernarg-dword=OFFSET:VALUE` for the sizes a kernel reads from its
// arguments (64 by default: often a loop that never runs), and
// `--descriptor=K:J+OFFSET` for a buffer descriptor into another buffer's
// bytes (buffers that overlap: the slow copy of a loop versioned on its
// descriptors being apart).
//
//===----------------------------------------------------------------------===//

#include "sim/Directives.h"

#include "llvm/ADT/StringExtras.h"

using namespace waveasm;
using namespace waveasm::sim;

namespace {

/// "K:LO-HI" into `ranges`.
bool parseByteRange(llvm::StringRef text, ByteRanges &ranges) {
  auto [buffer, range] = text.split(':');
  auto [lo, hi] = range.split('-');
  unsigned k, l, h;
  if (buffer.getAsInteger(10, k) || lo.getAsInteger(0, l) ||
      hi.getAsInteger(0, h) || l > h || h > 255)
    return false;
  ranges[k] = {uint8_t(l), uint8_t(h)};
  return true;
}

/// Applies one word of a directive line; the reason it is not one, else "".
std::string applyWord(llvm::StringRef word, SimOptions &options) {
  llvm::StringRef value = word;
  if (value.consume_front("--kernarg-dword=")) {
    auto [offset, dword] = value.split(':');
    unsigned o;
    uint64_t d;
    if (offset.getAsInteger(0, o) || dword.getAsInteger(0, d) || o % 4 ||
        o >= 256 || d > 0xffffffffu)
      return ("'" + word +
              "': expected --kernarg-dword=OFFSET:VALUE with OFFSET a "
              "multiple of 4 below 256")
          .str();
    options.kernargDwords[o] = uint32_t(d);
    return "";
  }
  if (value.consume_front("--descriptor=")) {
    // K:J or K:J+OFFSET: descriptor K into buffer J's bytes.
    auto [k, rest] = value.split(':');
    auto [j, offset] = rest.split('+');
    unsigned kk, jj;
    uint64_t o = 0;
    if (k.getAsInteger(10, kk) || j.getAsInteger(10, jj) ||
        (!offset.empty() && offset.getAsInteger(0, o)) ||
        kk >= options.numBuffers || jj >= options.numBuffers ||
        o >= (uint64_t(1) << 31))
      return ("'" + word +
              "': expected --descriptor=K:J[+OFFSET] with K and J buffers "
              "below " +
              std::to_string(options.numBuffers) + " and OFFSET below 2^31")
          .str();
    options.descriptorAt[kk] = {jj, o};
    return "";
  }
  if (!value.consume_front("--byte-range="))
    return ("unknown option '" + word +
            "' (known: --byte-range=K:LO-HI, --kernarg-dword=OFFSET:VALUE, "
            "--descriptor=K:J[+OFFSET])")
        .str();
  if (!parseByteRange(value, options.initial.byteRanges))
    return ("'" + word +
            "': expected --byte-range=K:LO-HI with LO <= HI <= 255")
        .str();
  return "";
}

} // namespace

std::string DirectiveError::str(llvm::StringRef file) const {
  std::string where =
      file.empty()
          ? "line " + std::to_string(line)
          : (file + ":" + llvm::Twine(line) + ":" + llvm::Twine(column)).str();
  return where + ": waveasm-sim directive: " + message;
}

SimDirectives waveasm::sim::readSimDirectives(llvm::StringRef text,
                                              const SimOptions &base) {
  SimDirectives result;
  result.options = base;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (auto [index, line] : llvm::enumerate(lines)) {
    llvm::StringRef rest = line.trim();
    if (!rest.consume_front("//"))
      continue;
    rest = rest.ltrim();
    if (!rest.consume_front("waveasm-sim:"))
      continue;
    llvm::SmallVector<llvm::StringRef> words;
    llvm::SplitString(rest, words);
    for (llvm::StringRef word : words) {
      std::string why = applyWord(word, result.options);
      if (why.empty())
        continue;
      // The words are slices of `line`: their offset is their column.
      result.error = DirectiveError{unsigned(index + 1),
                                    unsigned(word.data() - line.data() + 1),
                                    std::move(why)};
      return result;
    }
  }
  return result;
}

llvm::Error waveasm::sim::applySimDirectives(llvm::StringRef text,
                                             SimOptions &options) {
  SimDirectives read = readSimDirectives(text, options);
  if (read.error)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   read.error->str());
  options = std::move(read.options);
  return llvm::Error::success();
}
