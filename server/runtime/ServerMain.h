//===- ServerMain.h - run the language server on stdio ----------*- C++ -*-===//

#ifndef WAVEASM_SERVER_RUNTIME_SERVERMAIN_H
#define WAVEASM_SERVER_RUNTIME_SERVERMAIN_H

namespace waveasm::server {

/// Serves LSP on `inFd`/`outFd` until `exit` or end of input. Returns the
/// process exit code: 0 after shutdown + exit, 1 otherwise (LSP 3.17).
int runLanguageServer(int inFd = 0, int outFd = 1);

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_SERVERMAIN_H
