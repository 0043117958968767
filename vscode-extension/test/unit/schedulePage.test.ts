import * as assert from 'assert';
import { DependenceGraphResult, ScheduleResult } from '../../src/protocol';
import {
  contentSecurityPolicy,
  graphStatus,
  isNewPicture,
  makeNonce,
  parseWebviewMessage,
  schedulePage,
  scheduleStatus,
} from '../../src/schedulePage';

const result = (svg: string, version = 3): ScheduleResult => ({
  version,
  title: '@gemm loop at line 95 (trip 16, steady state)',
  program: 'gemm',
  kind: 'loop',
  range: { start: { line: 94, character: 2 }, end: { line: 94, character: 14 } },
  cycles: 131,
  rows: [],
  units: [],
  peak: { vgpr: { regs: 74, row: 3 }, sgpr: { regs: 20, row: 0 }, agpr: { regs: 0, row: null } },
  occupancy: { waves: 5, thresholds: [] },
  mfma: { busy: 64, utilization: 0.49 },
  svg,
});

describe('schedulePage', () => {
  it('admits only its own nonce: no network, no inline code without it', () => {
    const nonce = makeNonce(() => 0.5);
    assert.match(nonce, /^[A-Za-z0-9]{32}$/);
    const page = schedulePage(nonce, '.wsv{fill:red}');
    const csp = contentSecurityPolicy(nonce);
    assert.ok(page.includes(`content="${csp}"`));
    assert.ok(csp.startsWith("default-src 'none';"));
    assert.ok(!/unsafe-inline|unsafe-eval/.test(csp), csp);
    assert.ok(!/https?:/.test(page), 'the page names no URL');
    assert.ok(!/\ssrc=/.test(page), 'the page loads nothing');
    // Every style and script element carries the nonce.
    for (const tag of page.match(/<(style|script)[^>]*>/g) ?? []) assert.ok(tag.includes(`nonce="${nonce}"`), tag);
    assert.ok(page.includes('.wsv{fill:red}'), "the server's style sheet is in the page");
  });

  it('accepts only well-formed messages from the page', () => {
    assert.deepStrictEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'reveal', line: 12, character: 4 }), {
      type: 'reveal',
      line: 12,
      character: 4,
    });
    for (const bad of [null, 'reveal', { type: 'reveal', line: -1, character: 0 }, { type: 'reveal', line: 1.5, character: 0 }, { type: 'reveal', line: '3', character: 0 }, { type: 'other' }])
      assert.strictEqual(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
  });

  it('redraws only when the picture changes', () => {
    assert.ok(isNewPicture(undefined, result('<svg/>')));
    assert.ok(!isNewPicture(result('<svg/>'), result('<svg/>')));
    assert.ok(isNewPicture(result('<svg/>'), result('<svg>2</svg>')));
    assert.ok(isNewPicture(result('<svg/>', 3), result('<svg/>', 4)));
  });

  it('says what the picture shows', () => {
    assert.strictEqual(
      scheduleStatus(result('<svg/>')),
      '@gemm loop at line 95 (trip 16, steady state) · 0 rows · version 3 · click a row to reveal it',
    );
  });

  it('says what the graph shows', () => {
    const graph: DependenceGraphResult = {
      version: 4,
      title: '@gemm loop at line 105',
      program: 'gemm',
      target: 'gfx942',
      range: { start: { line: 104, character: 2 }, end: { line: 104, character: 14 } },
      criticalLength: 227,
      criticalPath: [0, 3],
      layers: 2,
      nodes: [
        { id: 0, line: 116, mnemonic: 'buffer_load_dwordx4', text: 'buffer_load_dwordx4', unit: 'VMEM', latency: 100, height: 227, layer: 0, x: 0, y: 0 },
      ],
      edges: [],
    };
    assert.strictEqual(graphStatus(graph), '@gemm loop at line 105 · 1 op · critical path 227 slots · version 4 · click a node to reveal it');
    assert.ok(isNewPicture(graph, { ...graph, version: 5 }));
  });
});
