// The VS Code extension: WaveASM language detection, the language client
// for waveasm-lsp, and the editor-side commands (assembly view, loop
// scheduling, metrics, status bar, LLM API key in SecretStorage).

import * as path from 'path';
import * as vscode from 'vscode';
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  ErrorHandler,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';
import { AssemblyView, RequestFn } from './assemblyView';
import { showLivePeak } from './livePeak';
import { PipelineView } from './pipelineView';
import { GRAPH_PICTURE, PictureView, SCHEDULE_PICTURE } from './pictureView';
import { shouldBeWaveasm } from './detect';
import { DependenceGraphResult, METRICS_REQUEST, MetricsResult, ScheduleResult, ScheduleStrategy } from './protocol';
import {
  buildServerEnv,
  resolveServerPath,
  serverDescription,
  ServerWatch,
  spawnServer,
  startFailureMessage,
} from './serverLaunch';
import { serverVersionWarning } from './serverVersion';
import { buildServerSettings, ConfigGetter, RESTART_KEYS } from './settings';
import {
  findProgram,
  llmNotReady,
  metricsReport,
  programAt,
  scheduleLoopParams,
  scheduleMessage,
  statusText,
  statusTooltip,
} from './status';

const SECRET_KEY = 'waveasm.llm.apiKey';

let client: LanguageClient | undefined;
let context: vscode.ExtensionContext;
let output: vscode.OutputChannel;
let assembly: AssemblyView;
let schedule: PictureView<ScheduleResult>;
let graph: PictureView<DependenceGraphResult>;
let statusItem: vscode.StatusBarItem;
const metricsCache = new Map<string, { version: number; result: MetricsResult }>();
let statusTimer: NodeJS.Timeout | undefined;
let statusRequest: vscode.CancellationTokenSource | undefined;
/// Which server runs and where it came from (the status bar tooltip's last
/// line).
let serverLine = '';

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('waveasm');
}

function getter(cfg: vscode.WorkspaceConfiguration): ConfigGetter {
  return <T>(key: string, fallback: T) => cfg.get<T>(key, fallback);
}

function request(): RequestFn | undefined {
  const c = client;
  if (!c || !c.isRunning()) return undefined;
  // vscode-jsonrpc counts arguments: an explicit `undefined` token would be
  // sent as a second parameter, making the params an array.
  return <R>(method: string, params: unknown, token?: vscode.CancellationToken) =>
    token ? c.sendRequest<R>(method, params, token) : c.sendRequest<R>(method, params);
}

function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
}

/// Directories of the open WaveASM files, the active one first: a build
/// tree above one of them serves them.
function documentDirs(): string[] {
  const docs = vscode.workspace.textDocuments.filter(
    (d) => d.uri.scheme === 'file' && (d.languageId === 'waveasm' || d.fileName.endsWith('.mlir')),
  );
  const active = vscode.window.activeTextEditor?.document;
  if (active && docs.includes(active)) docs.unshift(active);
  return [...new Set(docs.map((d) => path.dirname(d.uri.fsPath)))];
}

async function startClient(): Promise<void> {
  const cfg = config();
  const resolved = resolveServerPath({
    configured: cfg.get('server.path', ''),
    extensionDir: context.extensionPath,
    documentDirs: documentDirs(),
    workspaceRoots: workspaceRoots(),
    env: process.env,
  });
  serverLine = '';
  if (!resolved.ok) {
    showServerProblem('$(error) WaveASM: no server', resolved.message);
    return;
  }
  const settings = buildServerSettings(getter(cfg));
  const apiKey = await context.secrets.get(SECRET_KEY);
  const env = buildServerEnv(process.env, settings.llm.apiKeyEnv, apiKey);
  const logLevel = cfg.get<'error' | 'info' | 'verbose'>('server.logLevel', 'error');
  // The latest process, watched for the start-failure message.
  let watch: ServerWatch | undefined;
  const serverOptions: ServerOptions = () => {
    const proc = spawnServer({ serverPath: resolved.path, logLevel, env });
    watch = new ServerWatch(resolved.path, proc);
    return Promise.resolve(proc);
  };
  // Until the server has started, its failure is reported once, by the
  // message below (path, exit code, stderr), not by the client's generic
  // "connection to server is erroring"; afterwards the client's default
  // handling (restart a crashed server a few times) applies, but only to
  // the current client: one that was stopped or replaced (a restart, a new
  // server path; its stop may time out on a busy server, which then exits
  // later) must not start its old server again.
  let started = false;
  let fallback: ErrorHandler | undefined;
  let self: LanguageClient | undefined;
  const current = () => started && fallback && client === self;
  const errorHandler: ErrorHandler = {
    error: (error, message, count) =>
      current() && fallback
        ? fallback.error(error, message, count)
        : { action: ErrorAction.Shutdown, handled: true },
    closed: () =>
      current() && fallback
        ? fallback.closed()
        : { action: CloseAction.DoNotRestart, handled: true },
  };
  const clientOptions: LanguageClientOptions = {
    errorHandler,
    documentSelector: [
      { scheme: 'file', language: 'waveasm' },
      { scheme: 'untitled', language: 'waveasm' },
    ],
    initializationOptions: settings,
    outputChannel: output,
    middleware: {
      handleDiagnostics: (uri, diagnostics, next) => {
        next(uri, diagnostics);
        // Diagnostics are republished when the background pipeline lands:
        // the assembly and the metrics of that text are ready now.
        metricsCache.delete(uri.toString());
        assembly.refresh(uri);
        schedule.refresh(uri);
        graph.refresh(uri);
        scheduleStatusUpdate();
      },
    },
  };
  client = self = new LanguageClient('waveasm', 'WaveASM', serverOptions, clientOptions);
  fallback = client.createDefaultErrorHandler();
  try {
    await client.start();
    // vscode-languageclient 9 resolves start() when the server's connection
    // closed before its initialize request failed (the close handler drops
    // the promise start() returns): a client that is not running did not
    // start, and the stale status ("no metrics") would otherwise stay.
    if (client !== self) return;
    if (!self.isRunning()) throw new Error('the server exited during initialization');
    started = true;
    const serverInfo = client.initializeResult?.serverInfo;
    serverLine = serverDescription(resolved.path, resolved.source, serverInfo?.version);
    output.appendLine(`WaveASM: started ${serverLine}`);
    const warning = serverVersionWarning(
      serverInfo?.version, context.extension.packageJSON.version, resolved.path);
    if (warning) {
      output.appendLine(warning);
      vscode.window.showWarningMessage(warning);
    }
  } catch (error) {
    // A client replaced meanwhile (another restart) owns the status and
    // `client` now: its start reports for itself.
    if (client !== self) return;
    // Say which binary failed and how, instead of the client's "connection
    // got closed": the exit code and its last stderr lines usually name
    // the cause (a missing library, a bad flag).
    const exit = await watch?.exited(2000);
    const message = startFailureMessage(
      resolved.path, exit, watch?.stderr.lines() ?? [], error, resolved.source);
    showServerProblem('$(error) WaveASM: server failed', message);
    // Not awaited: stopping a client whose start failed can wait forever.
    void stopClient();
    return;
  }
  scheduleStatusUpdate();
}

/// A server that cannot run: the status bar says so and an error offers
/// the setting and the log. Not awaited: activation must not wait for the
/// user to dismiss it.
function showServerProblem(status: string, message: string): void {
  statusItem.text = status;
  statusItem.tooltip = message;
  statusItem.command = 'waveasm.editor.restartServer';
  statusItem.show();
  void vscode.window.showErrorMessage(message, 'Open Settings', 'Show Log').then((choice) => {
    if (choice === 'Open Settings')
      void vscode.commands.executeCommand('workbench.action.openSettings', 'waveasm.server.path');
    else if (choice === 'Show Log') output.show();
  });
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop().catch(() => undefined);
}

async function restartClient(): Promise<void> {
  await stopClient();
  await startClient();
}

function activeWaveasmEditor(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor?.document.languageId === 'waveasm' ? editor : undefined;
}

// --- status bar -----------------------------------------------------------

function scheduleStatusUpdate(): void {
  if (statusTimer) clearTimeout(statusTimer);
  statusTimer = setTimeout(() => void updateStatus(), 150);
}

async function metricsFor(doc: vscode.TextDocument): Promise<MetricsResult> {
  const key = doc.uri.toString();
  const cached = metricsCache.get(key);
  if (cached && cached.version === doc.version) return cached.result;
  const send = request();
  if (!send) throw new Error('the language server is not running');
  statusRequest?.cancel();
  statusRequest = new vscode.CancellationTokenSource();
  const result = await send<MetricsResult>(
    METRICS_REQUEST,
    { textDocument: { uri: key } },
    statusRequest.token,
  );
  if (result.version === doc.version) metricsCache.set(key, { version: doc.version, result });
  return result;
}

async function updateStatus(): Promise<void> {
  const editor = activeWaveasmEditor();
  if (!editor || !client) {
    if (client) statusItem.hide();
    return;
  }
  // A client that stopped (or failed to start) while the request was out
  // owns the status item no more: its failure message must stay.
  const asked = client;
  try {
    const metrics = await metricsFor(editor.document);
    if (client !== asked) return;
    const name = programAt(editor.document.getText(), editor.selection.active.line);
    const program = findProgram(metrics, name);
    if (!program) return statusItem.hide();
    statusItem.text = statusText(program);
    statusItem.tooltip = `${statusTooltip(program)}\n${serverLine}`;
  } catch (error) {
    if (client !== asked) return;
    if (error instanceof Error && /cancel/i.test(error.message)) return;
    // A client still starting (or whose start failed) has no metrics to
    // miss: its start sets the status ("server failed" names the cause),
    // and "no metrics" must not replace that, whichever comes last.
    if (!asked.isRunning()) return;
    statusItem.text = '$(warning) WaveASM: no metrics';
    statusItem.tooltip = `${error instanceof Error ? error.message : String(error)}\n${serverLine}`;
  }
  statusItem.command = 'waveasm.editor.showMetrics';
  statusItem.show();
}

// --- commands ---------------------------------------------------------------

async function showAssembly(): Promise<void> {
  const editor = activeWaveasmEditor();
  if (!editor) return void vscode.window.showWarningMessage('WaveASM: open a WaveASM file first.');
  await assembly.show(editor);
}

async function scheduleLoop(strategy: ScheduleStrategy): Promise<void> {
  const editor = activeWaveasmEditor();
  const send = request();
  if (!editor || !send)
    return void vscode.window.showWarningMessage('WaveASM: open a WaveASM file first.');
  if (strategy === 'llm') {
    const settings = buildServerSettings(getter(config()));
    const problem = llmNotReady(
      settings.llm.provider,
      settings.llm.apiKeyEnv,
      (await context.secrets.get(SECRET_KEY)) !== undefined,
      process.env,
    );
    if (problem) return void vscode.window.showWarningMessage(problem);
  }
  const position = editor.selection.active;
  const params = scheduleLoopParams(editor.document.uri.toString(), position, strategy);
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `WaveASM: scheduling the loop (${strategy === 'llm' ? 'LLM' : 'built-in'})`,
      cancellable: true,
    },
    async (_progress, token) => {
      try {
        // Cancelling the notification sends $/cancelRequest.
        const result = await send<unknown>(ExecuteCommandRequest.method, params, token);
        vscode.window.showInformationMessage(scheduleMessage(strategy, result));
      } catch (error) {
        if (token.isCancellationRequested) return;
        const message = error instanceof Error ? error.message : String(error);
        vscode.window.showErrorMessage(`WaveASM: scheduling failed: ${message}`);
      }
    },
  );
}

async function showMetrics(): Promise<void> {
  const editor = activeWaveasmEditor();
  if (!editor) return void vscode.window.showWarningMessage('WaveASM: open a WaveASM file first.');
  try {
    const metrics = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'WaveASM: metrics' },
      () => metricsFor(editor.document),
    );
    const name = editor.document.uri.path.split('/').pop() ?? '';
    const doc = await vscode.workspace.openTextDocument({
      language: 'markdown',
      content: metricsReport(name, metrics),
    });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    vscode.window.showErrorMessage(`WaveASM: no metrics: ${message}`);
  }
}

async function setApiKey(): Promise<void> {
  const key = await vscode.window.showInputBox({
    prompt: 'LLM API key for WaveASM scheduling (kept in VS Code secret storage)',
    password: true,
    ignoreFocusOut: true,
  });
  if (!key) return;
  await context.secrets.store(SECRET_KEY, key);
  // The key reaches the server only through its environment: restart it.
  await restartClient();
  vscode.window.showInformationMessage('WaveASM: API key stored; the language server restarted.');
}

async function clearApiKey(): Promise<void> {
  await context.secrets.delete(SECRET_KEY);
  await restartClient();
}

/// Runs `fn` on the active WaveASM editor, or says there is none.
async function withWaveasmEditor(fn: (editor: vscode.TextEditor) => Promise<void>): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'waveasm') {
    vscode.window.showWarningMessage('WaveASM: open a WaveASM file first.');
    return;
  }
  await fn(editor);
}

// --- activation ---------------------------------------------------------------

function detect(doc: vscode.TextDocument): void {
  if (shouldBeWaveasm(doc.fileName, doc.languageId, doc.getText()))
    void vscode.languages.setTextDocumentLanguage(doc, 'waveasm');
}

export async function activate(ctx: vscode.ExtensionContext): Promise<void> {
  context = ctx;
  output = vscode.window.createOutputChannel('WaveASM');
  statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  assembly = new AssemblyView(request);
  schedule = new PictureView(request, SCHEDULE_PICTURE);
  graph = new PictureView(request, GRAPH_PICTURE);
  const register = (id: string, fn: () => Promise<void>) =>
    ctx.subscriptions.push(vscode.commands.registerCommand(id, fn));
  register('waveasm.editor.showAssembly', showAssembly);
  register('waveasm.editor.scheduleLoopBuiltin', () => scheduleLoop('builtin'));
  register('waveasm.editor.scheduleLoopLLM', () => scheduleLoop('llm'));
  register('waveasm.editor.showMetrics', showMetrics);
  register('waveasm.editor.setApiKey', setApiKey);
  register('waveasm.editor.clearApiKey', clearApiKey);
  register('waveasm.editor.restartServer', restartClient);
  const pipeline = new PipelineView(request);
  ctx.subscriptions.push(pipeline);
  register('waveasm.editor.showPipeline', () => withWaveasmEditor((e) => pipeline.show(e)));
  register('waveasm.editor.showSchedule', () => withWaveasmEditor((e) => schedule.show(e)));
  register('waveasm.editor.showDependenceGraph', () => withWaveasmEditor((e) => graph.show(e)));
  register('waveasm.editor.showLivePeak', () => withWaveasmEditor((e) => showLivePeak(request(), e)));
  ctx.subscriptions.push(
    output,
    statusItem,
    assembly,
    schedule,
    graph,
    vscode.workspace.onDidOpenTextDocument(detect),
    vscode.window.onDidChangeActiveTextEditor(scheduleStatusUpdate),
    vscode.window.onDidChangeTextEditorSelection((e) => {
      if (e.textEditor.document.languageId === 'waveasm') scheduleStatusUpdate();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('waveasm')) return;
      if (RESTART_KEYS.some((k) => e.affectsConfiguration(k))) return void restartClient();
      metricsCache.clear();
      void client?.sendNotification(DidChangeConfigurationNotification.type, {
        settings: buildServerSettings(getter(config())),
      });
    }),
  );
  vscode.workspace.textDocuments.forEach(detect);
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
