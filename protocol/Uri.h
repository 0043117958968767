//===- Uri.h - file URIs <-> paths ------------------------------*- C++ -*-===//
//
// Documents are keyed by their URI exactly as the client sent it; paths are
// only derived for messages (diagnostic file names) and reports. Non-file
// URIs (untitled:, vscode-notebook-cell:) have no path and still work.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_URI_H
#define WAVEASM_PROTOCOL_URI_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace waveasm::lsp {

/// "file:///a%20b/c.mlir" -> "/a b/c.mlir"; nullopt for other schemes or
/// a malformed escape.
std::optional<std::string> uriToPath(llvm::StringRef uri);

/// An absolute path -> "file:///..." with RFC 3986 escaping. Relative paths
/// are made absolute against the current directory.
std::string pathToUri(llvm::StringRef path);

/// A short name for logs and progress messages: the file name of a file
/// URI, else the URI itself.
std::string uriDisplayName(llvm::StringRef uri);

/// The path pathToUri encodes: absolute (against the current directory),
/// "." and ".." removed.
std::string makeAbsolutePath(llvm::StringRef path);

/// RFC 3986 escaping of a path's characters ('/' kept): the path part of a
/// file URI, or a relative reference such as SARIF's URIs under a base.
std::string escapeUriPath(llvm::StringRef path);

} // namespace waveasm::lsp

#endif // WAVEASM_PROTOCOL_URI_H
