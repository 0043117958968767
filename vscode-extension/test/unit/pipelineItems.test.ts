import * as assert from 'assert';
import { metricDelta, pipelineItems } from '../../src/pipelineItems';
import { PipelineSnapshot } from '../../src/protocol';

const m = (vgpr: number, instrs: number) => ({
  instructions: instrs,
  peak_vgpr: vgpr,
  peak_sgpr: 10,
  peak_agpr: 0,
  est_cycles: 100,
});
const snap = (pass: string, changed: boolean, vgpr: number, instrs: number, failed = false): PipelineSnapshot => ({
  pass,
  changed,
  metrics: m(vgpr, instrs),
  failed,
});

describe('pipelineItems', () => {
  it('shows what each pass changed', () => {
    assert.strictEqual(metricDelta(m(38, 120), m(36, 116)), 'VGPR 38→36 · instrs 120→116');
    assert.strictEqual(metricDelta(m(38, 120), m(38, 120)), 'metrics unchanged');
    assert.match(metricDelta(undefined, m(38, 120)), /^VGPR 38 /);
  });
  it('folds runs of passes that changed nothing', () => {
    const items = pipelineItems([
      snap('input', true, 40, 120),
      snap('a', false, 40, 120),
      snap('b', false, 40, 120),
      snap('c', true, 38, 118),
      snap('d', false, 38, 118),
      snap('e', false, 38, 118, true),
    ]);
    assert.deepStrictEqual(
      items.map((i) => [i.index, i.label]),
      [
        [0, '0. input'],
        [1, '$(fold) 2 unchanged'],
        [3, '3. c'],
        [4, '$(fold) 1 unchanged'],
        [5, '5. e $(error) failed'],
      ],
    );
    assert.strictEqual(items[1].description, 'a, b');
    assert.strictEqual(items[2].description, 'VGPR 40→38 · instrs 120→118');
  });
});
