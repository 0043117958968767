// Starts the real waveasm-lsp through the extension's own launch code
// (resolveServerPath, buildServerEnv, spawnServer; the settings from
// buildServerSettings) without VS Code, and drives it over vscode-jsonrpc,
// the transport vscode-languageclient uses.
import * as assert from 'assert';
import { ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import {
  createMessageConnection,
  MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import { asmLinesForIrLine } from '../../src/assemblyMap';
import { pipelineItems } from '../../src/pipelineItems';
import {
  AssemblyResult,
  LivePeakResult,
  MetricsResult,
  PipelineSnapshotsResult,
  SnapshotTextResult,
} from '../../src/protocol';
import { buildServerEnv, resolveServerPath, spawnServer } from '../../src/serverLaunch';
import { buildServerSettings, getterFromObject } from '../../src/settings';
import {
  findProgram,
  metricsReport,
  programAt,
  scheduleLoopParams,
  scheduleMessage,
  statusText,
  statusTooltip,
} from '../../src/status';

const repo = path.join(__dirname, '..', '..', '..', '..');
const example = path.join(repo, 'examples', 'gemm_f16_32x32x8_global.mlir');

interface Diagnostic {
  range: { start: { line: number } };
  severity: number;
  code?: string;
  message: string;
}

describe('waveasm-lsp through the extension launch code', function () {
  this.timeout(120000);
  let proc: ChildProcess;
  let conn: MessageConnection;
  let stderr = '';
  const published: { uri: string; version?: number; diagnostics: Diagnostic[] }[] = [];
  const serverRequests: string[] = [];
  const messages: string[] = [];
  const uri = pathToFileURL(example).toString();
  const text = fs.readFileSync(example, 'utf8');
  let capabilities: Record<string, any>;

  /// Resolves with the first diagnostics publication after `from` that
  /// satisfies `pred`.
  async function waitDiagnostics(pred: (d: Diagnostic[]) => boolean, from = 0): Promise<Diagnostic[]> {
    const deadline = Date.now() + 60000;
    while (Date.now() < deadline) {
      const hit = published.slice(from).find((p) => p.uri === uri && pred(p.diagnostics));
      if (hit) return hit.diagnostics;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no matching diagnostics; got ${JSON.stringify(published.slice(from))}`);
  }

  before(async () => {
    // The ctest entry names the server of this build tree; without it the
    // extension's own search applies (build/bin in the workspace folder).
    const resolved = resolveServerPath({ configured: process.env.WAVEASM_LSP ?? '', workspaceRoots: [repo], env: process.env });
    assert.ok(resolved.ok, (resolved as { message?: string }).message);
    const settings = buildServerSettings(
      getterFromObject({
        lints: { waitcnt: 'warning' },
        waitcntStallThresholdCycles: 16,
        llm: { apiKeyEnv: 'WAVEASM_TEST_KEY' },
      }),
    );
    proc = spawnServer({
      serverPath: (resolved as { path: string }).path,
      logLevel: 'info',
      env: buildServerEnv(process.env, settings.llm.apiKeyEnv, 'sk-integration-secret'),
    });
    proc.stderr!.on('data', (d) => (stderr += d.toString()));
    conn = createMessageConnection(
      new StreamMessageReader(proc.stdout!),
      new StreamMessageWriter(proc.stdin!),
    );
    conn.onNotification('textDocument/publishDiagnostics', (p: any) => published.push(p));
    conn.onNotification('window/showMessage', (p: any) => messages.push(p.message));
    for (const method of [
      'window/workDoneProgress/create',
      'workspace/inlayHint/refresh',
      'workspace/codeLens/refresh',
    ])
      conn.onRequest(method, () => {
        serverRequests.push(method);
        return null;
      });
    conn.onRequest('workspace/applyEdit', () => {
      serverRequests.push('workspace/applyEdit');
      return { applied: true };
    });
    conn.listen();
    const init: any = await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(repo).toString(),
      capabilities: {
        window: { workDoneProgress: true },
        workspace: {
          applyEdit: true,
          configuration: false,
          inlayHint: { refreshSupport: true },
          codeLens: { refreshSupport: true },
        },
        textDocument: { publishDiagnostics: { versionSupport: true } },
      },
      initializationOptions: settings,
    });
    capabilities = init.capabilities;
    assert.strictEqual(init.serverInfo?.name, 'waveasm-lsp');
    await conn.sendNotification('initialized', {});
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'waveasm', version: 1, text },
    });
  });

  after(async () => {
    if (!conn) return;
    await conn.sendRequest('shutdown').catch(() => undefined);
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    await conn.sendNotification('exit');
    assert.strictEqual(await exited, 0, 'exit after shutdown is code 0');
    conn.dispose();
  });

  it('applies initializationOptions: the waitcnt lint arrives as a warning', async () => {
    const diags = await waitDiagnostics((d) => d.some((x) => x.code === 'waitcnt'));
    const waits = diags.filter((d) => d.code === 'waitcnt');
    assert.ok(waits.every((d) => d.severity === 2), JSON.stringify(waits));
    assert.ok(diags.some((d) => d.code === 'pressure' && d.severity === 2));
  });

  it('accepts every setting the extension sends (no settings warnings)', () => {
    assert.deepStrictEqual(messages.filter((m) => /settings/.test(m)), []);
  });

  it('answers waveasm/assembly, and the map leads from an MFMA line to its instruction', async () => {
    const result = await conn.sendRequest<AssemblyResult>('waveasm/assembly', {
      textDocument: { uri },
    });
    assert.ok(result.map.length > 0);
    const asm = result.text.split('\n');
    const irLine = text.split('\n').findIndex((l) => l.includes('waveasm.v_mfma_f32_32x32x8_f16 '));
    assert.ok(irLine >= 0);
    const lines = asmLinesForIrLine(result.map, irLine);
    assert.ok(lines.length > 0, 'the MFMA produced assembly');
    assert.ok(lines.some((l) => /v_mfma_f32_32x32x?8/.test(asm[l])), lines.map((l) => asm[l]).join('\n'));
  });

  it('answers waveasm/metrics for the status bar', async () => {
    const metrics = await conn.sendRequest<MetricsResult>('waveasm/metrics', { textDocument: { uri } });
    assert.strictEqual(metrics.version, 1);
    const line = text.split('\n').findIndex((l) => l.includes('waveasm.loop'));
    const program = findProgram(metrics, programAt(text, line));
    assert.strictEqual(program?.name, 'gemm_f16_32x32x8_global');
    assert.match(statusText(program!), /^\$\(pulse\) \d+ slots · \d+ VGPR allocated · \d+ waves$/);
    // What the status bar and "Show Metrics" display, for the README.
    const capture = process.env.WAVEASM_VSCODE_CAPTURE;
    if (capture)
      fs.writeFileSync(
        capture,
        [
          `status bar: ${statusText(program!)}`,
          'tooltip:',
          statusTooltip(program!).replace(/^/gm, '  '),
          '',
          metricsReport(path.basename(example), metrics),
        ].join('\n'),
      );
  });

  it('answers waveasm/pipelineSnapshots as "Show Pipeline" asks (texts by index)', async () => {
    const list = await conn.sendRequest<PipelineSnapshotsResult>('waveasm/pipelineSnapshots', {
      textDocument: { uri },
      maxTextBytes: 0,
    });
    assert.strictEqual(list.stale, false);
    assert.strictEqual(list.textOnDemand, true);
    assert.strictEqual(list.snapshots[0].pass, 'input');
    const items = pipelineItems(list.snapshots);
    const changed = items.find((i) => i.index > 0 && !i.label.includes('unchanged'));
    assert.ok(changed, items.map((i) => i.label).join(' | '));
    const [before, after] = await Promise.all(
      [changed!.index - 1, changed!.index].map((index) =>
        conn.sendRequest<SnapshotTextResult>('waveasm/pipelineSnapshots', { textDocument: { uri }, index }),
      ),
    );
    assert.ok(before.text && after.text && before.text !== after.text);
  });

  it('answers waveasm.showLivePeak with the values live at the peak', async () => {
    const peak = await conn.sendRequest<LivePeakResult>('workspace/executeCommand', {
      command: 'waveasm.showLivePeak',
      arguments: [{ uri }],
    });
    assert.strictEqual(peak.uri, uri);
    assert.ok(peak.op && peak.values.length > 0);
    // Registers live after the peak op, never more than while it issues.
    assert.ok(peak.liveRegisters!.vgpr <= peak.peak, JSON.stringify(peak.liveRegisters));
  });

  it('applies a configuration change: waitcnt lints off', async () => {
    const from = published.length;
    await conn.sendNotification('workspace/didChangeConfiguration', {
      settings: buildServerSettings(getterFromObject({ lints: { waitcnt: 'off' }, waitcntStallThresholdCycles: 16 })),
    });
    await waitDiagnostics((d) => d.some((x) => x.code === 'pressure') && !d.some((x) => x.code === 'waitcnt'), from);
  });

  it('round-trips textDocument/codeAction in a loop (required once the server offers actions)', async () => {
    const line = text.split('\n').findIndex((l) => l.includes('waveasm.v_mfma_f32_32x32x8_f16 '));
    const position = { line, character: 4 };
    const params = {
      textDocument: { uri },
      range: { start: position, end: position },
      context: { diagnostics: [] },
    };
    if (!capabilities.codeActionProvider) {
      // Not offered yet: the request must still be answered (an error).
      await assert.rejects(conn.sendRequest('textDocument/codeAction', params), ResponseError);
      return;
    }
    const actions = ((await conn.sendRequest('textDocument/codeAction', params)) ?? []) as any[];
    const schedule = actions.find((a) => a.title === 'Schedule this loop (built-in)');
    assert.ok(schedule, `actions: ${actions.map((a) => a.title).join(' | ')}`);
    // The extension runs it through the command vscode-languageclient
    // registers for the server's executeCommandProvider.
    assert.strictEqual(schedule.command?.command, 'waveasm.scheduleLoop');
    assert.ok((capabilities.executeCommandProvider?.commands ?? []).includes('waveasm.scheduleLoop'));
  });

  it('round-trips waveasm.scheduleLoop (required once the server advertises it)', async () => {
    const line = text.split('\n').findIndex((l) => l.includes('waveasm.v_mfma_f32_32x32x8_f16 '));
    const params = scheduleLoopParams(uri, { line, character: 4 }, 'builtin');
    const advertised: string[] = capabilities.executeCommandProvider?.commands ?? [];
    try {
      const result = await conn.sendRequest('workspace/executeCommand', params);
      assert.match(scheduleMessage('builtin', result), /^WaveASM: built-in schedule (applied|not applied)/);
      assert.strictEqual(typeof (result as any).applied, 'boolean');
      // An applied schedule arrives as workspace/applyEdit before the reply.
      if ((result as any).applied) assert.ok(serverRequests.includes('workspace/applyEdit'));
    } catch (error) {
      assert.ok(error instanceof ResponseError, String(error));
      assert.ok(
        !advertised.includes('waveasm.scheduleLoop'),
        `the server advertises waveasm.scheduleLoop but failed: ${error.message}`,
      );
    }
  });

  it('never logs the API key it received through the environment', () => {
    assert.ok(stderr.length > 0, 'the server logged at info level');
    assert.ok(!stderr.includes('sk-integration-secret'));
  });
});
