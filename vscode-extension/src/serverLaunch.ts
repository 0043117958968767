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
