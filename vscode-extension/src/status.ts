// The status-bar text for the program under the cursor, the metrics report
// and the schedule-loop messages. Pure: unit tested without VS Code.

import {
  LspPosition,
  MetricsResult,
  ProgramMetrics,
  SCHEDULE_LOOP_COMMAND,
  ScheduleLoopResult,
  ScheduleStrategy,
} from './protocol';

const PROGRAM_RE = /^\s*waveasm\.program\s+@([A-Za-z0-9_$.\-]+|"[^"]*")/;

/// Name of the program whose definition is the last one at or before
/// `line` (the first program when the cursor is above all of them).
export function programAt(text: string, line: number): string | undefined {
  const lines = text.split('\n');
  let first: string | undefined;
  let current: string | undefined;
  for (let i = 0; i < lines.length; ++i) {
    const m = PROGRAM_RE.exec(lines[i]);
    if (!m) continue;
    const name = m[1].replace(/^"|"$/g, '');
    first ??= name;
    if (i <= line) current = name;
    else break;
  }
  return current ?? first;
}

export function findProgram(
  metrics: MetricsResult,
  name: string | undefined,
): ProgramMetrics | undefined {
  if (metrics.programs.length === 0) return undefined;
  return metrics.programs.find((p) => p.name === name) ?? metrics.programs[0];
}

/// `$(pulse) 9440 slots · 52 VGPR allocated · 4 waves` (issue slots of 4
/// clocks; registers after allocation, not the values live in the source,
/// which the code lens shows as `live peak`)
export function statusText(program: ProgramMetrics): string {
  return `$(pulse) ${program.est_cycles} slots · ${program.peak_vgpr} VGPR allocated · ${program.occupancy} waves`;
}

export function statusTooltip(program: ProgramMetrics): string {
  const lines = [
    `@${program.name}: ${program.est_cycles} estimated issue slots (4 clocks each), ` +
      `${program.total_instructions} instructions`,
    `allocated VGPR ${program.peak_vgpr}, SGPR ${program.peak_sgpr}, AGPR ${program.peak_agpr}; ` +
      `occupancy per SIMD: ${program.occupancy_limit?.summary ?? `${program.occupancy} waves`}`,
    `inserted: ${program.waitcnts_inserted} waits, ${program.nops_inserted} nops`,
  ];
  program.loops.forEach((loop, i) =>
    lines.push(
      `loop ${i}: ${loop.est_cycles_per_iter} slots/iter (bound ${loop.lower_bound_cycles}, ` +
        `${loop.bound_kind ?? loop.busiest_unit}), critical path ${loop.critical_path}`,
    ),
  );
  return lines.join('\n');
}

/// The metrics of every program as a Markdown report.
export function metricsReport(fileName: string, metrics: MetricsResult): string {
  const out = [`# WaveASM metrics: ${fileName} (version ${metrics.version})`, ''];
  for (const p of metrics.programs) {
    out.push(`## @${p.name}`, '', '| metric | value |', '|---|---|');
    const rows: [string, number][] = [
      ['est_cycles (issue slots)', p.est_cycles],
      ['total_instructions', p.total_instructions],
      ['peak_vgpr (allocated)', p.peak_vgpr],
      ['peak_sgpr (allocated)', p.peak_sgpr],
      ['peak_agpr (allocated)', p.peak_agpr],
      ['occupancy (waves/SIMD)', p.occupancy],
      ['waitcnts_inserted', p.waitcnts_inserted],
      ['nops_inserted', p.nops_inserted],
    ];
    for (const [k, v] of rows) out.push(`| ${k} | ${v} |`);
    if (p.loops.length) {
      out.push(
        '',
        '| loop | slots/iter | lower bound | kind | resource | recurrence | latency limit | critical path |',
      );
      out.push('|---|---|---|---|---|---|---|---|');
      const opt = (v?: number) => (v === undefined ? '-' : `${v}`);
      p.loops.forEach((l, i) =>
        out.push(
          `| ${i} | ${l.est_cycles_per_iter} | ${l.lower_bound_cycles} | ${l.bound_kind ?? l.busiest_unit} | ` +
            `${opt(l.resource_bound_cycles)} ${l.busiest_unit} | ${opt(l.recurrence_bound_cycles)} | ` +
            `${l.latency_limited_cycles ? `${l.latency_limited_cycles} (prefetch ${opt(l.max_prefetch_distance)})` : '-'} | ` +
            `${l.critical_path} |`,
        ),
      );
    }
    out.push('');
  }
  return out.join('\n');
}

export function scheduleLoopParams(
  uri: string,
  position: LspPosition,
  strategy: ScheduleStrategy,
): { command: string; arguments: unknown[] } {
  return {
    command: SCHEDULE_LOOP_COMMAND,
    arguments: [{ uri, position: { line: position.line, character: position.character }, strategy }],
  };
}

/// The message after a schedule: the server's metric diff summary.
export function scheduleMessage(strategy: ScheduleStrategy, result: unknown): string {
  const r = (result ?? {}) as ScheduleLoopResult;
  const who = strategy === 'llm' ? 'LLM' : 'built-in';
  if (r.applied) return `WaveASM: ${who} schedule applied: ${r.summary ?? 'done'}`;
  return `WaveASM: ${who} schedule not applied${r.summary ? `: ${r.summary}` : ''}`;
}

/// Why an LLM schedule cannot start, or undefined when it can.
export function llmNotReady(
  provider: string,
  apiKeyEnv: string,
  hasStoredKey: boolean,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (!provider || provider === 'none')
    return 'WaveASM: no LLM provider configured (setting waveasm.llm.provider).';
  if (!hasStoredKey && !env[apiKeyEnv])
    return `WaveASM: no LLM API key; run "WaveASM: Set LLM API Key" (or export ${apiKeyEnv}).`;
  return undefined;
}
