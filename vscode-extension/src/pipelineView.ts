// "WaveASM: Show Pipeline": the passes of the server's pipeline in a quick
// pick (metric deltas, unchanged passes folded), and the chosen pass's
// before/after in VS Code's diff editor. Both sides are virtual documents
// (scheme waveasm-pipeline) whose text is fetched by index from
// waveasm/pipelineSnapshots, so a list sent without texts (textOnDemand)
// works the same.

import * as vscode from 'vscode';
import { RequestFn } from './assemblyView';
import { pipelineItems } from './pipelineItems';
import { PIPELINE_SNAPSHOTS_REQUEST, PipelineSnapshotsResult, SnapshotTextResult } from './protocol';

export const PIPELINE_SCHEME = 'waveasm-pipeline';

export class PipelineView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly request: () => RequestFn | undefined) {
    this.disposables.push(vscode.workspace.registerTextDocumentContentProvider(PIPELINE_SCHEME, this));
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  /// waveasm-pipeline:/<index>-<pass>.mlir?<source uri>
  static snapshotUri(source: vscode.Uri, index: number, pass: string): vscode.Uri {
    return vscode.Uri.from({ scheme: PIPELINE_SCHEME, path: `/${index}-${pass}.mlir`, query: source.toString() });
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const request = this.request();
    const index = Number(/^\/(\d+)-/.exec(uri.path)?.[1] ?? NaN);
    if (!request || Number.isNaN(index)) return '// WaveASM: the language server is not running';
    try {
      const result = await request<SnapshotTextResult>(
        PIPELINE_SNAPSHOTS_REQUEST,
        { textDocument: { uri: uri.query }, index },
        token,
      );
      return result.text ?? '';
    } catch (error) {
      return `// WaveASM: ${(error as Error).message}`;
    }
  }

  /// The quick pick, then the diff of the chosen snapshot against the one
  /// before it (the input alone for the first).
  async show(source: vscode.TextEditor): Promise<void> {
    const request = this.request();
    if (!request) {
      vscode.window.showWarningMessage('WaveASM: the language server is not running.');
      return;
    }
    const uri = source.document.uri;
    let result: PipelineSnapshotsResult;
    try {
      result = await request<PipelineSnapshotsResult>(PIPELINE_SNAPSHOTS_REQUEST, {
        textDocument: { uri: uri.toString() },
        maxTextBytes: 0, // texts come with the diff's documents
      });
    } catch (error) {
      vscode.window.showErrorMessage(`WaveASM: no pipeline snapshots: ${(error as Error).message}`);
      return;
    }
    if (result.stale) vscode.window.showWarningMessage(`WaveASM: stale snapshots: ${result.message ?? ''}`);
    const items = pipelineItems(result.snapshots);
    if (!items.length) return;
    const picked = await vscode.window.showQuickPick(items, {
      title: `WaveASM pipeline (version ${result.version ?? '-'}${result.stale ? ', stale' : ''})`,
      placeHolder: 'A pass to diff against the snapshot before it',
      matchOnDescription: true,
    });
    if (picked) await this.openDiff(uri, result, picked.index);
  }

  async openDiff(source: vscode.Uri, result: PipelineSnapshotsResult, index: number): Promise<void> {
    const after = PipelineView.snapshotUri(source, index, result.snapshots[index].pass);
    if (index === 0) {
      await vscode.window.showTextDocument(after, { preview: true });
      return;
    }
    const before = PipelineView.snapshotUri(source, index - 1, result.snapshots[index - 1].pass);
    await vscode.commands.executeCommand(
      'vscode.diff',
      before,
      after,
      `${result.snapshots[index - 1].pass} ↔ ${result.snapshots[index].pass}`,
    );
  }
}
