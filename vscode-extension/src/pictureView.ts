// "WaveASM: Show Schedule": a webview beside the editor with the server's
// picture of the schedule of the loop (or program) at the cursor, redrawn
// when the pipeline republishes (the hook the assembly view uses) and when
// the cursor moves to another loop; a click on a row reveals its op.
// The page and its messages live in schedulePage.ts (no VS Code API).

import * as vscode from 'vscode';
import { RequestFn } from './assemblyView';
import { SCHEDULE_REQUEST, ScheduleResult } from './protocol';
import { isNewPicture, makeNonce, parseWebviewMessage, schedulePage, scheduleStatus } from './schedulePage';

export class ScheduleView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private source: vscode.Uri | undefined;
  private sourceColumn: vscode.ViewColumn | undefined;
  private position: vscode.Position | undefined;
  private shown: ScheduleResult | undefined;
  private ready = false;
  private pending: vscode.CancellationTokenSource | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly request: () => RequestFn | undefined) {
    this.disposables.push(
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (!this.panel || e.textEditor.document.uri.toString() !== this.source?.toString()) return;
        this.position = e.selections[0]?.active;
        this.refreshSoon(150);
      }),
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.pending?.cancel();
    this.panel?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }

  async show(editor: vscode.TextEditor): Promise<void> {
    this.source = editor.document.uri;
    this.sourceColumn = editor.viewColumn;
    this.position = editor.selection.active;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        'waveasm.schedule',
        'WaveASM Schedule',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [], retainContextWhenHidden: true },
      );
      this.ready = false;
      this.shown = undefined;
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.shown = undefined;
      });
      this.panel.webview.onDidReceiveMessage((m) => this.onMessage(m));
    } else {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    await this.update();
  }

  /// The pipeline finished for `source`: redraw if the panel shows it.
  refresh(source: vscode.Uri): void {
    if (this.panel && source.toString() === this.source?.toString()) this.refreshSoon(50);
  }

  private refreshSoon(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), delayMs);
  }

  private async update(): Promise<void> {
    const send = this.request();
    const panel = this.panel;
    if (!panel || !this.source) return;
    if (!send) return void this.post({ type: 'error', message: 'WaveASM: the language server is not running' });
    this.pending?.cancel();
    const cancel = (this.pending = new vscode.CancellationTokenSource());
    const params = {
      textDocument: { uri: this.source.toString() },
      position: this.position && { line: this.position.line, character: this.position.character },
      render: 'svg',
    };
    try {
      const result = await send<ScheduleResult>(SCHEDULE_REQUEST, params, cancel.token);
      if (cancel.token.isCancellationRequested || panel !== this.panel) return;
      if (!panel.webview.html) panel.webview.html = schedulePage(makeNonce(), result.css ?? '');
      if (!isNewPicture(this.shown, result)) return;
      this.shown = result;
      this.postShown();
    } catch (error) {
      if (cancel.token.isCancellationRequested) return;
      const message = error instanceof Error ? error.message : String(error);
      if (!panel.webview.html) panel.webview.html = schedulePage(makeNonce(), '');
      this.post({ type: 'error', message: `WaveASM: no schedule: ${message}` });
    }
  }

  private postShown(): void {
    const shown = this.shown;
    if (!shown || !this.ready) return;
    this.post({ type: 'update', svg: shown.svg ?? '', status: scheduleStatus(shown), version: shown.version });
  }

  private post(message: unknown): void {
    void this.panel?.webview.postMessage(message);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) return;
    if (message.type === 'ready') {
      this.ready = true;
      return this.postShown();
    }
    if (!this.source) return;
    const at = new vscode.Position(message.line, message.character);
    const doc = await vscode.workspace.openTextDocument(this.source);
    await vscode.window.showTextDocument(doc, {
      viewColumn: this.sourceColumn ?? vscode.ViewColumn.One,
      selection: new vscode.Range(at, at),
      preserveFocus: false,
    });
  }
}
