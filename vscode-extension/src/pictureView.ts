// The webviews of the server's pictures: "WaveASM: Show Schedule" (the
// schedule of the loop or program at the cursor, waveasm/schedule) and
// "WaveASM: Show Dependence Graph" (the DAG of the loop at the cursor,
// waveasm/dependenceGraph). Each is a panel beside the editor with the
// server's SVG, redrawn when the pipeline republishes (the hook the
// assembly view uses, which also follows every edit) and when the cursor
// moves; a click on an element with `data-op` (a schedule row, a graph
// node) reveals its op. The page and its messages live in schedulePage.ts
// (no VS Code API).

import * as vscode from 'vscode';
import { RequestFn } from './assemblyView';
import { DEPENDENCE_GRAPH_REQUEST, DependenceGraphResult, SCHEDULE_REQUEST, ScheduleResult } from './protocol';
import {
  graphStatus,
  isNewPicture,
  makeNonce,
  parseWebviewMessage,
  PictureResult,
  schedulePage,
  scheduleStatus,
} from './schedulePage';

/// What differs between the pictures.
export interface PictureKind<R extends PictureResult> {
  viewType: string;
  panelTitle: string;
  request: string;
  what: string; // in "WaveASM: no <what>: ..."
  status(result: R): string;
}

export const SCHEDULE_PICTURE: PictureKind<ScheduleResult> = {
  viewType: 'waveasm.schedule',
  panelTitle: 'WaveASM Schedule',
  request: SCHEDULE_REQUEST,
  what: 'schedule',
  status: scheduleStatus,
};

export const GRAPH_PICTURE: PictureKind<DependenceGraphResult> = {
  viewType: 'waveasm.dependenceGraph',
  panelTitle: 'WaveASM Dependence Graph',
  request: DEPENDENCE_GRAPH_REQUEST,
  what: 'dependence graph',
  status: graphStatus,
};

export class PictureView<R extends PictureResult> implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private source: vscode.Uri | undefined;
  private sourceColumn: vscode.ViewColumn | undefined;
  private position: vscode.Position | undefined;
  private shown: R | undefined;
  private ready = false;
  /// When show() was called (epoch ms) and, after it, each step of opening
  /// the view: the panel created, the server's answer, the page's script
  /// ready, the picture posted to it. Sent with the picture (the tests
  /// report where the time to open a view goes).
  private openedAt = 0;
  private marks: Record<string, number> = {};
  private pending: vscode.CancellationTokenSource | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly request: () => RequestFn | undefined,
    private readonly kind: PictureKind<R>,
  ) {
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
    this.openedAt = Date.now();
    this.marks = {};
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        this.kind.viewType,
        this.kind.panelTitle,
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
      this.mark('panelMs');
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
      const result = await send<R>(this.kind.request, params, cancel.token);
      if (cancel.token.isCancellationRequested || panel !== this.panel) return;
      this.mark('answerMs');
      if (!panel.webview.html) panel.webview.html = schedulePage(makeNonce(), result.css ?? '');
      if (!isNewPicture(this.shown, result)) return;
      this.shown = result;
      this.postShown();
    } catch (error) {
      if (cancel.token.isCancellationRequested) return;
      const message = error instanceof Error ? error.message : String(error);
      if (!panel.webview.html) panel.webview.html = schedulePage(makeNonce(), '');
      this.post({ type: 'error', message: `WaveASM: no ${this.kind.what}: ${message}` });
    }
  }

  private postShown(): void {
    const shown = this.shown;
    if (!shown || !this.ready) return;
    this.mark('postMs');
    this.post({
      type: 'update',
      svg: shown.svg ?? '',
      status: this.kind.status(shown),
      version: shown.version,
      timing: { openedAt: this.openedAt, ...this.marks },
    });
  }

  /// Milliseconds since show() for the first time `step` happens.
  private mark(step: string): void {
    if (this.marks[step] === undefined) this.marks[step] = Date.now() - this.openedAt;
  }

  private post(message: unknown): void {
    void this.panel?.webview.postMessage(message);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) return;
    if (message.type === 'ready') {
      this.ready = true;
      this.mark('readyMs');
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
