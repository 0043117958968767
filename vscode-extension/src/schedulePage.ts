// The schedule webview's page and messages, without the VS Code API (mocha
// tests it directly). The picture itself is the server's SVG (the one
// renderer `waveasm-lsp check --format html` uses too); the page only
// inserts it and turns a click on a row into a reveal message.
//
// Content-Security-Policy: nothing from the network or the disk, the style
// sheet and the one script admitted by a nonce that changes per page.

import { DependenceGraphResult, ScheduleResult } from './protocol';

/// What every picture answer has.
export interface PictureResult {
  version: number;
  title: string;
  svg?: string;
  css?: string;
}

/// 32 characters of [A-Za-z0-9] from `random` (Math.random in the view;
/// only needs to be unguessable by content the page shows, which is ours).
export function makeNonce(random: () => number = Math.random): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let nonce = '';
  for (let i = 0; i < 32; i++) nonce += chars[Math.floor(random() * chars.length) % chars.length];
  return nonce;
}

export function contentSecurityPolicy(nonce: string): string {
  return `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
}

/// What the page's script does: show each `update`'s SVG and status line,
/// keep the scroll position across updates, and post `reveal` for a click
/// on a row or node (`data-op="LINE:CHARACTER"`, 0-based).
const SCRIPT = `
const vscode = acquireVsCodeApi();
const pic = document.getElementById('pic');
const status = document.getElementById('status');
window.addEventListener('message', (event) => {
  const m = event.data;
  if (m.type === 'update') {
    pic.innerHTML = m.svg;
    status.textContent = m.status;
    document.body.dataset.version = String(m.version);
    // When the picture was drawn, beside the extension's own marks: the
    // tests break the time to open a view down from these.
    document.body.dataset.timing = JSON.stringify(Object.assign({}, m.timing, { drawnAt: Date.now() }));
  } else if (m.type === 'error') {
    status.textContent = m.message;
  }
});
pic.addEventListener('click', (event) => {
  const row = event.target.closest('[data-op]');
  if (!row) return;
  const [line, character] = row.getAttribute('data-op').split(':').map(Number);
  for (const r of pic.querySelectorAll('.sel')) r.classList.remove('sel');
  row.classList.add('sel');
  vscode.postMessage({ type: 'reveal', line, character });
});
vscode.postMessage({ type: 'ready' });
`;

/// Page-level style: the theme's colours (the SVG draws text in
/// currentColor) and the selected row.
const PAGE_CSS = `
body { color: var(--vscode-editor-foreground); background: var(--vscode-editor-background); padding: 0 8px; }
#status { font: 12px var(--vscode-font-family); opacity: 0.8; margin: 6px 0; }
.wsv .r.sel text { font-weight: bold; fill: var(--vscode-textLink-foreground); }
.wdg .n.sel rect { stroke: var(--vscode-focusBorder); stroke-width: 3; }
`;

/// The whole page; `css` is the server's style sheet for its SVG.
export function schedulePage(nonce: string, css: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(nonce)}">
<style nonce="${nonce}">${PAGE_CSS}${css}</style></head>
<body><div id="status">Waiting for the language server…</div><div id="pic"></div>
<script nonce="${nonce}">${SCRIPT}</script></body></html>`;
}

/// The one line above the picture.
export function scheduleStatus(result: ScheduleResult): string {
  const rows = result.rows.length;
  return `${result.title} · ${rows} row${rows === 1 ? '' : 's'} · version ${result.version} · click a row to reveal it`;
}

/// The line above a dependence graph.
export function graphStatus(result: DependenceGraphResult): string {
  const n = result.nodes.length;
  return `${result.title} · ${n} op${n === 1 ? '' : 's'} · critical path ${result.criticalLength} slots · version ${result.version} · click a node to reveal it`;
}

export type WebviewMessage = { type: 'ready' } | { type: 'reveal'; line: number; character: number };

/// A message from the page, validated (the page is ours, but a message is
/// still input).
export function parseWebviewMessage(message: unknown): WebviewMessage | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  if (m.type === 'ready') return { type: 'ready' };
  const ok = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (m.type === 'reveal' && ok(m.line) && ok(m.character))
    return { type: 'reveal', line: m.line as number, character: m.character as number };
  return undefined;
}

/// Whether a new answer changes the picture (same version and view: no).
export function isNewPicture(previous: PictureResult | undefined, next: PictureResult): boolean {
  return !previous || previous.version !== next.version || previous.title !== next.title || previous.svg !== next.svg;
}
