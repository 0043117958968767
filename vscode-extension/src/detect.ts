// Which documents are WaveASM. VS Code picks a language from the file name
// (and the first line) only; WaveASM kernels are usually plain `.mlir` files
// whose program starts after a comment header, so the extension looks at
// the text as well. Pure: unit tested without VS Code.

/// How far into a `.mlir` file `waveasm.program` must appear (a kernel's
/// header comment is short; a huge generic MLIR file is not scanned whole).
export const DETECT_LIMIT = 64 * 1024;

const PROGRAM_RE = /^\s*waveasm\.program\b/m;

export function isWaveasmFileName(fileName: string): boolean {
  return fileName.endsWith('.waveasm.mlir');
}

/// True when a document with this name, language and text should be
/// switched to the `waveasm` language.
export function shouldBeWaveasm(
  fileName: string,
  languageId: string,
  text: string,
): boolean {
  if (languageId === 'waveasm') return false; // already
  if (isWaveasmFileName(fileName)) return true;
  if (!fileName.endsWith('.mlir')) return false;
  // Only take over generic languages (another extension's MLIR mode or
  // plain text), never a language the user picked deliberately otherwise.
  if (languageId !== 'mlir' && languageId !== 'plaintext') return false;
  return PROGRAM_RE.test(text.slice(0, DETECT_LIMIT));
}
