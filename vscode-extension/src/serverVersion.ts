// The server's version against the one this extension was built with
// (both come from the project version): an older server lacks requests and
// settings the extension sends, so the user is told instead of seeing
// features silently missing. No VS Code API here.

/// [major, minor, patch] of the leading "X.Y.Z" of a version string such as
/// "0.2.0 (git 1a2b3c)"; undefined if there is none.
export function parseVersion(text: string | undefined): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec((text ?? '').trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/// A warning when the server reports no version or one older than the
/// extension's; undefined when it is the same or newer.
export function serverVersionWarning(
  serverVersion: string | undefined,
  extensionVersion: string,
  serverPath: string,
): string | undefined {
  const wanted = parseVersion(extensionVersion);
  if (!wanted) return undefined;
  const have = parseVersion(serverVersion);
  if (!have)
    return `WaveASM: the language server at ${serverPath} reports no version; ` +
      `this extension expects waveasm-lsp ${extensionVersion} or newer. ` +
      'Update the server or the waveasm.server.path setting.';
  for (let i = 0; i < 3; ++i) {
    if (have[i] > wanted[i]) return undefined;
    if (have[i] < wanted[i])
      return `WaveASM: the language server at ${serverPath} is version ${serverVersion}, ` +
        `older than this extension (${extensionVersion}); some features may be missing. ` +
        'Update the server or the waveasm.server.path setting.';
  }
  return undefined;
}
