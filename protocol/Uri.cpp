//===- Uri.cpp - file URIs <-> paths --------------------------------------===//

#include "protocol/Uri.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace waveasm::lsp;

std::optional<std::string> waveasm::lsp::uriToPath(llvm::StringRef uri) {
  llvm::StringRef rest = uri;
  if (!rest.consume_front_insensitive("file:"))
    return std::nullopt;
  // file:///path or file://host/path; only the local host is meaningful.
  if (rest.consume_front("//")) {
    size_t slash = rest.find('/');
    llvm::StringRef host = rest.take_front(slash);
    if (!host.empty() && host != "localhost")
      return std::nullopt;
    rest = rest.drop_front(host.size());
  }
  std::string path;
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (c != '%') {
      path += c;
      continue;
    }
    if (i + 2 >= rest.size() || !llvm::isHexDigit(rest[i + 1]) ||
        !llvm::isHexDigit(rest[i + 2]))
      return std::nullopt;
    path += static_cast<char>(llvm::hexFromNibbles(rest[i + 1], rest[i + 2]));
    i += 2;
  }
  return path;
}

std::string waveasm::lsp::pathToUri(llvm::StringRef path) {
  return "file://" + escapeUriPath(makeAbsolutePath(path));
}

std::string waveasm::lsp::uriDisplayName(llvm::StringRef uri) {
  std::optional<std::string> path = uriToPath(uri);
  return path ? llvm::sys::path::filename(*path).str() : uri.str();
}

std::string waveasm::lsp::makeAbsolutePath(llvm::StringRef path) {
  llvm::SmallString<256> absolute(path);
  (void)llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  return absolute.str().str();
}

std::string waveasm::lsp::escapeUriPath(llvm::StringRef path) {
  std::string escaped;
  for (char c : path) {
    if (llvm::isAlnum(c) || llvm::StringRef("-._~/").contains(c)) {
      escaped += c;
    } else {
      escaped += '%';
      escaped += llvm::hexdigit((static_cast<unsigned char>(c) >> 4) & 0xF);
      escaped += llvm::hexdigit(static_cast<unsigned char>(c) & 0xF);
    }
  }
  return escaped;
}
