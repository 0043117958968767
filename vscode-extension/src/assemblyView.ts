// "Show Assembly": a read-only virtual document (scheme waveasm-asm) beside
// the WaveASM editor, refreshed whenever the server republishes diagnostics
// for the source (it does so when the background pipeline finishes), and
// cursor sync in both directions through the request's line map.

import * as vscode from 'vscode';
import { asmLinesForIrLine, irRangeForAsmLine, lineRuns } from './assemblyMap';
import { ASSEMBLY_REQUEST, AssemblyResult } from './protocol';

export const ASM_SCHEME = 'waveasm-asm';

export type RequestFn = <R>(
  method: string,
  params: unknown,
  token?: vscode.CancellationToken,
) => Promise<R>;

export class AssemblyView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /// Last successful result per source URI (string), for cursor sync.
  private readonly results = new Map<string, AssemblyResult>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    isWholeLine: true,
  });
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly request: () => RequestFn | undefined) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(ASM_SCHEME, this),
      vscode.window.onDidChangeTextEditorSelection((e) => this.syncFrom(e)),
      this.changed,
      this.highlight,
    );
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.disposables.forEach((d) => d.dispose());
  }

  static asmUri(source: vscode.Uri): vscode.Uri {
    return vscode.Uri.from({
      scheme: ASM_SCHEME,
      path: source.path.replace(/\.mlir$/, '') + '.s',
      query: source.toString(),
    });
  }

  static sourceOf(asm: vscode.Uri): vscode.Uri {
    return vscode.Uri.parse(asm.query);
  }

  async show(source: vscode.TextEditor): Promise<void> {
    const uri = AssemblyView.asmUri(source.document.uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'waveasm-asm');
    await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
      preview: false,
    });
  }

  /// The pipeline finished for `source` (diagnostics republished): reload
  /// an open assembly view, coalescing bursts.
  refresh(source: vscode.Uri): void {
    const asm = AssemblyView.asmUri(source);
    if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === asm.toString()))
      return;
    const key = asm.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.changed.fire(asm);
      }, 100),
    );
  }

  async provideTextDocumentContent(
    uri: vscode.Uri,
    token: vscode.CancellationToken,
  ): Promise<string> {
    const request = this.request();
    const source = AssemblyView.sourceOf(uri);
    if (!request) return '; WaveASM: the language server is not running\n';
    try {
      const result = await request<AssemblyResult>(
        ASSEMBLY_REQUEST,
        { textDocument: { uri: source.toString() } },
        token,
      );
      this.results.set(source.toString(), result);
      return result.text;
    } catch (error) {
      // Keep the view useful: say why (e.g. the allocator ran out of
      // registers) instead of showing stale text.
      this.results.delete(source.toString());
      const message = error instanceof Error ? error.message : String(error);
      return message
        .split('\n')
        .map((line) => `; ${line}`)
        .join('\n')
        .concat('\n');
    }
  }

  private visibleEditor(uri: vscode.Uri): vscode.TextEditor | undefined {
    return vscode.window.visibleTextEditors.find(
      (e) => e.document.uri.toString() === uri.toString(),
    );
  }

  /// Cursor sync; only user moves in the focused editor drive it, so the
  /// reveal in the other editor never echoes back.
  private syncFrom(e: vscode.TextEditorSelectionChangeEvent): void {
    if (e.textEditor !== vscode.window.activeTextEditor) return;
    if (e.kind === vscode.TextEditorSelectionChangeKind.Command) return;
    const doc = e.textEditor.document;
    const line = e.selections[0].active.line;
    if (doc.uri.scheme === ASM_SCHEME) {
      const source = AssemblyView.sourceOf(doc.uri);
      const result = this.results.get(source.toString());
      const target = this.visibleEditor(source);
      if (!result || !target) return;
      const range = irRangeForAsmLine(result.map, line);
      if (!range) return target.setDecorations(this.highlight, []);
      const r = new vscode.Range(
        range.start.line,
        range.start.character,
        range.end.line,
        range.end.character,
      );
      target.setDecorations(this.highlight, [r]);
      target.revealRange(r, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return;
    }
    const result = this.results.get(doc.uri.toString());
    const target = this.visibleEditor(AssemblyView.asmUri(doc.uri));
    if (!result || !target) return;
    const ranges = lineRuns(asmLinesForIrLine(result.map, line)).map(
      ([a, b]) => new vscode.Range(a, 0, b, 0),
    );
    target.setDecorations(this.highlight, ranges);
    if (ranges.length)
      target.revealRange(ranges[0], vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}
