//===- LspParamsJSON.h - JSON form of the LSP method payloads ---*- C++ -*-===//
//
// Both directions for every payload of LspParams.h: the server reads
// requests and writes results, the tests (and any C++ client) the reverse.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_LSPPARAMSJSON_H
#define WAVEASM_PROTOCOL_LSPPARAMSJSON_H

#include "protocol/LspJSON.h"
#include "protocol/LspParams.h"

namespace waveasm::lsp {

#define WAVEASM_LSP_JSON(Type)                                                 \
  llvm::json::Value toJSON(const Type &value);                                 \
  bool fromJSON(const llvm::json::Value &json, Type &value,                    \
                llvm::json::Path path);

WAVEASM_LSP_JSON(TextDocumentIdentifier)
WAVEASM_LSP_JSON(VersionedTextDocumentIdentifier)
WAVEASM_LSP_JSON(TextDocumentItem)
WAVEASM_LSP_JSON(TextDocumentContentChangeEvent)
WAVEASM_LSP_JSON(DidOpenTextDocumentParams)
WAVEASM_LSP_JSON(DidChangeTextDocumentParams)
WAVEASM_LSP_JSON(DidCloseTextDocumentParams)
WAVEASM_LSP_JSON(DocumentParams)
WAVEASM_LSP_JSON(DocumentRangeParams)
WAVEASM_LSP_JSON(TextDocumentPositionParams)
WAVEASM_LSP_JSON(ReferenceParams)
WAVEASM_LSP_JSON(RenameParams)
WAVEASM_LSP_JSON(PrepareRenameResult)
WAVEASM_LSP_JSON(PublishDiagnosticsParams)
WAVEASM_LSP_JSON(SemanticTokens)
WAVEASM_LSP_JSON(ClientCapabilities)
WAVEASM_LSP_JSON(InitializeParams)
WAVEASM_LSP_JSON(ServerCapabilities)
WAVEASM_LSP_JSON(InitializeResult)
WAVEASM_LSP_JSON(DidChangeConfigurationParams)
WAVEASM_LSP_JSON(NoParams)
WAVEASM_LSP_JSON(WorkDoneProgressCreateParams)
WAVEASM_LSP_JSON(WorkDoneProgress)
WAVEASM_LSP_JSON(ProgressParams)
WAVEASM_LSP_JSON(WorkDoneProgressCancelParams)
WAVEASM_LSP_JSON(CodeActionParams)
WAVEASM_LSP_JSON(ExecuteCommandParams)
WAVEASM_LSP_JSON(ApplyWorkspaceEditParams)
WAVEASM_LSP_JSON(ApplyWorkspaceEditResult)
WAVEASM_LSP_JSON(AssemblyLineMapping)
WAVEASM_LSP_JSON(AssemblyResult)
WAVEASM_LSP_JSON(MetricsResult)
WAVEASM_LSP_JSON(PipelineSnapshotsParams)
WAVEASM_LSP_JSON(ScheduleParams)

#undef WAVEASM_LSP_JSON

} // namespace waveasm::lsp

#endif // WAVEASM_PROTOCOL_LSPPARAMSJSON_H
