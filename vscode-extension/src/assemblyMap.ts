// Cursor sync between a WaveASM document and its assembly (the map of
// `waveasm/assembly`). Pure: unit tested without VS Code.

import { AssemblyResult, LspRange } from './protocol';

type LineMap = AssemblyResult['map'];

function spans(range: LspRange, line: number): boolean {
  return range.start.line <= line && line <= range.end.line;
}

/// The assembly lines produced by the op(s) on IR line `irLine`, sorted.
/// When several ops cover the line (a region op's name line is only its
/// first line, so this is rare), the ones with the smallest span win: the
/// instruction under the cursor, not the loop around it.
export function asmLinesForIrLine(map: LineMap, irLine: number): number[] {
  let best = Infinity;
  let lines: number[] = [];
  for (const entry of map) {
    if (!spans(entry.range, irLine)) continue;
    const size = entry.range.end.line - entry.range.start.line;
    if (size < best) {
      best = size;
      lines = [];
    }
    if (size === best) lines.push(entry.line);
  }
  return lines.sort((a, b) => a - b);
}

/// The IR range of the op that produced assembly line `asmLine`, if any
/// (labels, directives and the kernel descriptor have none).
export function irRangeForAsmLine(map: LineMap, asmLine: number): LspRange | undefined {
  return map.find((entry) => entry.line === asmLine)?.range;
}

/// Consecutive runs of sorted line numbers: [[first, last], ...], so that
/// one highlight covers each run.
export function lineRuns(lines: number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const line of lines) {
    const last = runs[runs.length - 1];
    if (last && line === last[1] + 1) last[1] = line;
    else if (!last || line > last[1]) runs.push([line, line]);
  }
  return runs;
}
