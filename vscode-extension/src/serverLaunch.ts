// Finding and starting waveasm-lsp. No VS Code API here: the extension
// passes spawnServer to vscode-languageclient as its ServerOptions, and the
// integration test starts the real server through the same function.

import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

export const SERVER_BINARY = 'waveasm-lsp';
/// Where a CMake build of this repository puts the server, relative to the
/// source tree.
export const BUILD_RELATIVE_PATH = path.join('build', 'bin', SERVER_BINARY);
/// Where the platform package (vsce package --target linux-x64) carries the
/// server, relative to the extension's installation directory.
export const BUNDLED_RELATIVE_PATH = path.join('server', SERVER_BINARY);

/// Which of the places below the server was taken from.
export type ServerSource = 'setting' | 'bundled' | 'build tree' | 'PATH';

export type ResolveResult =
  | { ok: true; path: string; source: ServerSource }
  | { ok: false; message: string };

/// Everything the server search looks at; only `configured` and `env` are
/// required.
export interface ServerPlaces {
  /// The setting waveasm.server.path ('' when unset).
  configured: string;
  /// The extension's installation directory (its bundled server, if any).
  extensionDir?: string;
  /// Directories of the open WaveASM files: a build tree above one of them.
  documentDirs?: string[];
  /// Workspace folders: a relative setting resolves against the first; a
  /// build tree above any of them.
  workspaceRoots?: string[];
  env: NodeJS.ProcessEnv;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/// `dir` and every directory above it, nearest first.
function selfAndAncestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

/// The server binary, in this order: the setting (absolute, `~/`, or
/// relative to the first workspace folder; a miss is an error, not a
/// fall-through, so a typo does not silently start another server), the
/// server bundled in the platform package, build/bin/waveasm-lsp in a
/// directory above an open file or a workspace folder (nearest first), and
/// waveasm-lsp on PATH. A miss says what was tried and how to fix it.
export function resolveServerPath(
  places: ServerPlaces,
  executable: (file: string) => boolean = isExecutable,
): ResolveResult {
  const { env } = places;
  const roots = places.workspaceRoots ?? [];
  const setting = places.configured.trim();
  if (setting) {
    let file = setting;
    if (file.startsWith('~/') && env.HOME) file = path.join(env.HOME, file.slice(2));
    else if (!path.isAbsolute(file) && roots.length > 0) file = path.join(roots[0], file);
    if (executable(file)) return { ok: true, path: file, source: 'setting' };
    return {
      ok: false,
      message:
        `WaveASM: the language server "${file}" (setting waveasm.server.path) ` +
        `does not exist or is not executable. Build it with ` +
        `"ninja -C build waveasm-lsp" or fix the setting.`,
    };
  }
  const tried: string[] = [];
  if (places.extensionDir) {
    const file = path.join(places.extensionDir, BUNDLED_RELATIVE_PATH);
    if (executable(file)) return { ok: true, path: file, source: 'bundled' };
    tried.push(`${file} (bundled only in the linux-x64 package)`);
  }
  const seen = new Set<string>();
  for (const start of [...(places.documentDirs ?? []), ...roots])
    for (const dir of selfAndAncestors(start)) {
      if (seen.has(dir)) continue;
      seen.add(dir);
      const file = path.join(dir, BUILD_RELATIVE_PATH);
      if (executable(file)) return { ok: true, path: file, source: 'build tree' };
    }
  if (seen.size > 0) tried.push(`${BUILD_RELATIVE_PATH} above the open files and workspace folders`);
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, SERVER_BINARY);
    if (executable(file)) return { ok: true, path: file, source: 'PATH' };
  }
  tried.push(`${SERVER_BINARY} on PATH`);
  return {
    ok: false,
    message:
      `WaveASM: language server not found (tried ${tried.join(', ')}). ` +
      `Install the linux-x64 extension package, the waveasm-conductor .deb, ` +
      `build it with "ninja -C build waveasm-lsp", or set waveasm.server.path.`,
  };
}

const SOURCE_LABELS: Record<ServerSource, string> = {
  setting: 'from the setting waveasm.server.path',
  bundled: 'bundled with the extension',
  'build tree': 'from the build tree above the file',
  PATH: 'found on PATH',
};

/// One line naming the server that runs and where it came from, for the
/// output channel and the status bar tooltip.
export function serverDescription(
  serverPath: string,
  source: ServerSource,
  version: string | undefined,
): string {
  return `server: ${serverPath} (${SOURCE_LABELS[source]}; ${version ?? 'no version'})`;
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

/// The shared library the dynamic loader could not find, from its message
/// ("...: error while loading shared libraries: libcurl.so.4: cannot open
/// shared object file..."), or undefined.
export function missingLibrary(stderrLines: string[]): string | undefined {
  for (const line of stderrLines) {
    const m = /error while loading shared libraries: ([^:\s]+):/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/// The symbol version a too old system library lacks, from the loader's
/// "...: version `GLIBC_2.36' not found (required by ...)", or undefined.
/// The packaged server is built on Debian 12 and needs its glibc 2.36.
export function missingVersion(stderrLines: string[]): string | undefined {
  for (const line of stderrLines) {
    const m = /version [`']([^'`]+)' not found/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/// The Debian/Ubuntu package that provides a library the server links
/// dynamically (the rest is static or part of every system).
const LIBRARY_PACKAGES: Record<string, string> = {
  'libcurl.so.4': 'libcurl4',
  'libuv.so.1': 'libuv1',
};

/// The error shown when the server did not start: its path and where it
/// came from, how it ended, the library the loader missed, and the last
/// lines it wrote to stderr.
export function startFailureMessage(
  serverPath: string,
  exit: ServerExit | undefined,
  stderrLines: string[],
  error: unknown,
  source: ServerSource = 'setting',
): string {
  let how: string;
  if (exit?.spawnError) how = `could not be run (${exit.spawnError})`;
  else if (exit?.signal) how = `was killed by ${exit.signal} before it started`;
  else if (exit) how = `exited with exit code ${exit.code} before it started`;
  else how = `did not start (${error instanceof Error ? error.message : String(error)})`;
  const library = missingLibrary(stderrLines);
  const version = missingVersion(stderrLines);
  let missing = '';
  if (library)
    missing =
      ` The system lacks the shared library ${library}` +
      (LIBRARY_PACKAGES[library] ? ` (install the package ${LIBRARY_PACKAGES[library]}).` : '.');
  else if (version)
    missing = ` The system's libraries are older than the server needs: ${version} is missing.`;
  const tail = stderrLines.length
    ? ` Last stderr lines: ${stderrLines.map((l) => `"${l}"`).join(' ')}`
    : ' It wrote nothing to stderr.';
  const where =
    source === 'setting'
      ? 'setting waveasm.server.path'
      : `${SOURCE_LABELS[source]}; waveasm.server.path chooses another server`;
  return `WaveASM: the language server ${serverPath} ${how}.${missing}${tail} (${where}; the WaveASM output channel has the whole log)`;
}
