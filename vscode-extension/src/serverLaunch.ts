// Finding and starting waveasm-lsp. No VS Code API here: the extension
// passes spawnServer to vscode-languageclient as its ServerOptions, and the
// integration test starts the real server through the same function.

import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

export const SERVER_BINARY = 'waveasm-lsp';
/// Where a CMake build of this repository puts the server.
export const BUILD_RELATIVE_PATHS = [path.join('build', 'bin', SERVER_BINARY)];

export type ResolveResult =
  | { ok: true; path: string }
  | { ok: false; message: string };

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/// The server binary: the configured path (absolute, `~/`, or relative to
/// the first workspace folder), else build/bin/waveasm-lsp in a workspace
/// folder, else waveasm-lsp on PATH. A miss says what was tried and how to
/// fix it.
export function resolveServerPath(
  configured: string,
  workspaceRoots: string[],
  env: NodeJS.ProcessEnv,
  executable: (file: string) => boolean = isExecutable,
): ResolveResult {
  const setting = configured.trim();
  if (setting) {
    let file = setting;
    if (file.startsWith('~/') && env.HOME) file = path.join(env.HOME, file.slice(2));
    else if (!path.isAbsolute(file) && workspaceRoots.length > 0)
      file = path.join(workspaceRoots[0], file);
    if (executable(file)) return { ok: true, path: file };
    return {
      ok: false,
      message:
        `WaveASM: the language server "${file}" (setting waveasm.server.path) ` +
        `does not exist or is not executable. Build it with ` +
        `"ninja -C build waveasm-lsp" or fix the setting.`,
    };
  }
  const tried: string[] = [];
  for (const root of workspaceRoots)
    for (const relative of BUILD_RELATIVE_PATHS) {
      const file = path.join(root, relative);
      tried.push(file);
      if (executable(file)) return { ok: true, path: file };
    }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, SERVER_BINARY);
    if (executable(file)) return { ok: true, path: file };
  }
  tried.push(`${SERVER_BINARY} on PATH`);
  return {
    ok: false,
    message:
      `WaveASM: language server not found (tried ${tried.join(', ')}). ` +
      `Build it with "ninja -C build waveasm-lsp" or set waveasm.server.path.`,
  };
}

/// The server's environment: the editor's, plus the LLM API key from the
/// secret storage under the variable the server reads it from (server
/// setting llm.apiKeyEnv). Without a stored key a value already in the
/// editor's environment passes through (a key exported in the shell).
export function buildServerEnv(
  base: NodeJS.ProcessEnv,
  apiKeyEnv: string,
  apiKey: string | undefined,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  if (apiKey) env[apiKeyEnv] = apiKey;
  return env;
}

export interface LaunchOptions {
  serverPath: string;
  logLevel?: 'error' | 'info' | 'verbose';
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

export function serverArgs(options: LaunchOptions): string[] {
  return options.logLevel && options.logLevel !== 'error'
    ? [`--log=${options.logLevel}`]
    : [];
}

/// Starts the server on stdio. Spawn errors (ENOENT after the binary was
/// removed, EACCES) surface as the child's 'error' event, which
/// vscode-languageclient reports.
export function spawnServer(options: LaunchOptions): ChildProcess {
  return spawn(options.serverPath, serverArgs(options), {
    env: options.env,
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/// How a server process ended: its exit code or signal, or the spawn error
/// (ENOENT, EACCES) when it never ran.
export interface ServerExit {
  code: number | null;
  signal: string | null;
  spawnError?: string;
}

/// The last lines a process wrote to stderr, bounded in lines and bytes, for
/// the message when the server fails to start.
export class StderrTail {
  private text = '';
  constructor(
    private readonly maxLines = 5,
    private readonly maxBytes = 16 * 1024,
  ) {}

  push(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.maxBytes);
  }

  lines(): string[] {
    return this.text
      .split(/\r?\n/)
      .map((l) => l.trimEnd())
      .filter((l) => l.length > 0)
      .slice(-this.maxLines);
  }
}

/// What the extension knows about one server process: its path, its stderr
/// tail and, once it ended, how.
export class ServerWatch {
  readonly stderr = new StderrTail();
  exit: ServerExit | undefined;
  private readonly ended: Promise<ServerExit>;

  constructor(
    readonly serverPath: string,
    proc: ChildProcess,
  ) {
    proc.stderr?.on('data', (d: Buffer | string) => this.stderr.push(d.toString()));
    this.ended = new Promise((resolve) => {
      proc.once('error', (error) => {
        this.exit = { code: null, signal: null, spawnError: error.message };
        resolve(this.exit);
      });
      proc.once('exit', (code, signal) => {
        this.exit ??= { code, signal };
        resolve(this.exit);
      });
    });
  }

  /// How the process ended, waiting at most `ms` for it (a server whose
  /// initialize failed may still be running, or its exit event may lag
  /// behind the closed pipe).
  async exited(ms: number): Promise<ServerExit | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)));
    const result = await Promise.race([this.ended, timeout]);
    clearTimeout(timer);
    return result;
  }
}

/// The error shown when the server did not start: its path, how it ended,
/// and the last lines it wrote to stderr.
export function startFailureMessage(
  serverPath: string,
  exit: ServerExit | undefined,
  stderrLines: string[],
  error: unknown,
): string {
  let how: string;
  if (exit?.spawnError) how = `could not be run (${exit.spawnError})`;
  else if (exit?.signal) how = `was killed by ${exit.signal} before it started`;
  else if (exit) how = `exited with exit code ${exit.code} before it started`;
  else how = `did not start (${error instanceof Error ? error.message : String(error)})`;
  const tail = stderrLines.length
    ? ` Last stderr lines: ${stderrLines.map((l) => `"${l}"`).join(' ')}`
    : ' It wrote nothing to stderr.';
  return `WaveASM: the language server ${serverPath} ${how}.${tail} (setting waveasm.server.path; the WaveASM output channel has the whole log)`;
}
