import * as assert from 'assert';
import { ProgramMetrics } from '../../src/protocol';
import {
  findProgram,
  llmNotReady,
  metricsReport,
  programAt,
  scheduleLoopParams,
  scheduleMessage,
  statusText,
  statusTooltip,
} from '../../src/status';

const TEXT = [
  '// two kernels',
  'waveasm.program @first target = <#waveasm.gfx942> {',
  '  waveasm.s_endpgm',
  '}',
  'waveasm.program @second target = <#waveasm.gfx942> {',
  '  waveasm.s_endpgm',
  '}',
].join('\n');

const program = (name: string, cycles: number): ProgramMetrics => ({
  name,
  peak_vgpr: 52,
  peak_sgpr: 20,
  peak_agpr: 0,
  nops_inserted: 0,
  waitcnts_inserted: 9,
  total_instructions: 84,
  est_cycles: cycles,
  occupancy: 4,
  loops: [
    {
      est_cycles_per_iter: 287,
      lower_bound_cycles: 256,
      bound_kind: 'recurrence',
      resource_bound_cycles: 200,
      busiest_unit: 'MFMA',
      recurrence_bound_cycles: 256,
      latency_limited_cycles: 34,
      max_prefetch_distance: 2,
      critical_path: 122,
    },
  ],
});

describe('status', () => {
  it('finds the program under the cursor', () => {
    assert.strictEqual(programAt(TEXT, 0), 'first');
    assert.strictEqual(programAt(TEXT, 2), 'first');
    assert.strictEqual(programAt(TEXT, 4), 'second');
    assert.strictEqual(programAt(TEXT, 6), 'second');
    assert.strictEqual(programAt('// nothing', 0), undefined);
  });
  it('picks that program from the metrics (else the first)', () => {
    const metrics = { version: 3, programs: [program('first', 10), program('second', 20)] };
    assert.strictEqual(findProgram(metrics, 'second')?.est_cycles, 20);
    assert.strictEqual(findProgram(metrics, 'gone')?.est_cycles, 10);
    assert.strictEqual(findProgram({ version: 1, programs: [] }, 'x'), undefined);
  });
  it('shows issue slots, peak VGPRs and occupancy', () => {
    assert.strictEqual(statusText(program('k', 9440)), '$(pulse) 9440 slots · 52 VGPR allocated · 4 waves');
    assert.match(statusTooltip(program('k', 9440)), /loop 0: 287 slots\/iter \(bound 256, recurrence\)/);
  });
  it('renders a metrics report per program', () => {
    const md = metricsReport('k.mlir', { version: 2, programs: [program('k', 9440)] });
    assert.match(md, /## @k/);
    assert.match(md, /\| est_cycles \(issue slots\) \| 9440 \|/);
    assert.match(md, /\| 0 \| 287 \| 256 \| recurrence \| 200 MFMA \| 256 \| 34 \(prefetch 2\) \| 122 \|/);
  });
  it('builds the waveasm.scheduleLoop command of the contract', () => {
    assert.deepStrictEqual(scheduleLoopParams('file:///k.mlir', { line: 3, character: 7 }, 'llm'), {
      command: 'waveasm.scheduleLoop',
      arguments: [{ uri: 'file:///k.mlir', position: { line: 3, character: 7 }, strategy: 'llm' }],
    });
  });
  it('reports the metric diff of a schedule', () => {
    assert.strictEqual(
      scheduleMessage('builtin', { applied: true, summary: 'est_cycles/iter 287 -> 240' }),
      'WaveASM: built-in schedule applied: est_cycles/iter 287 -> 240',
    );
    assert.strictEqual(scheduleMessage('llm', { applied: false }), 'WaveASM: LLM schedule not applied');
    assert.strictEqual(scheduleMessage('llm', null), 'WaveASM: LLM schedule not applied');
  });
  it('explains what an LLM schedule is missing', () => {
    assert.match(llmNotReady('none', 'K', true, {}) ?? '', /waveasm\.llm\.provider/);
    assert.match(llmNotReady('openai', 'K', false, {}) ?? '', /Set LLM API Key.*export K/);
    assert.strictEqual(llmNotReady('openai', 'K', true, {}), undefined);
    assert.strictEqual(llmNotReady('openai', 'K', false, { K: 'x' }), undefined);
  });
});
