// "WaveASM: Show Live Values at Peak": the server's waveasm.showLivePeak
// (waveasm/liveAt at the VGPR pressure peak); the cursor goes to the peak
// op and a quick pick lists the values live there (choosing one reveals its
// definition).

import * as vscode from 'vscode';
import { RequestFn } from './assemblyView';
import { LivePeakResult, LspRange, SHOW_LIVE_PEAK_COMMAND } from './protocol';

const toRange = (r: LspRange) =>
  new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);

export async function showLivePeak(request: RequestFn | undefined, editor: vscode.TextEditor): Promise<void> {
  if (!request) {
    vscode.window.showWarningMessage('WaveASM: the language server is not running.');
    return;
  }
  let peak: LivePeakResult | null;
  try {
    peak = await request<LivePeakResult | null>('workspace/executeCommand', {
      command: SHOW_LIVE_PEAK_COMMAND,
      arguments: [{ uri: editor.document.uri.toString() }],
    });
  } catch (error) {
    vscode.window.showErrorMessage(`WaveASM: ${(error as Error).message}`);
    return;
  }
  if (!peak || !peak.op) {
    vscode.window.showInformationMessage('WaveASM: no VGPR pressure peak.');
    return;
  }
  const at = toRange(peak.op.range);
  editor.selection = new vscode.Selection(at.start, at.start);
  editor.revealRange(at, vscode.TextEditorRevealType.InCenter);
  // The peak counts VGPRs: those values first, the longest-lived first.
  const vgprFirst = (v: { class: string }) => (v.class === 'VGPR' ? 0 : 1);
  const byLength = [...peak.values].sort((a, b) => vgprFirst(a) - vgprFirst(b) || b.length - a.length);
  const picked = await vscode.window.showQuickPick(
    byLength.map((v) => ({
      label: v.name,
      description: `${v.class} x${v.width}${v.register ? ' ' + v.register : ''} · live ${v.length} ops`,
      detail: `defined on line ${v.definition.start.line + 1}${v.lastUse ? `, last used on line ${v.lastUse.start.line + 1}` : ''}`,
      value: v,
    })),
    { title: `VGPR pressure peak: ${peak.peak} (values live after ${peak.op.name})` },
  );
  if (picked) {
    const def = toRange(picked.value.definition);
    editor.selection = new vscode.Selection(def.start, def.end);
    editor.revealRange(def, vscode.TextEditorRevealType.InCenter);
  }
}
