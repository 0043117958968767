import * as assert from 'assert';
import { asmLinesForIrLine, irRangeForAsmLine, lineRuns } from '../../src/assemblyMap';

const r = (l0: number, c0: number, l1: number, c1: number) => ({
  start: { line: l0, character: c0 },
  end: { line: l1, character: c1 },
});

const MAP = [
  { line: 10, range: r(5, 2, 5, 40) },
  { line: 11, range: r(5, 2, 5, 40) }, // an op emitting two lines
  { line: 12, range: r(6, 2, 7, 30) }, // an op spanning two lines
  { line: 20, range: r(8, 2, 8, 20) }, // a loop's name line
  { line: 14, range: r(9, 4, 9, 30) },
];

describe('assemblyMap', () => {
  it('maps an IR line to every asm line its op produced, sorted', () => {
    assert.deepStrictEqual(asmLinesForIrLine(MAP, 5), [10, 11]);
    assert.deepStrictEqual(asmLinesForIrLine(MAP, 7), [12]);
    assert.deepStrictEqual(asmLinesForIrLine(MAP, 9), [14]);
    assert.deepStrictEqual(asmLinesForIrLine(MAP, 0), []);
  });
  it('prefers the innermost op when ranges nest', () => {
    const nested = [...MAP, { line: 30, range: r(4, 0, 12, 1) }];
    assert.deepStrictEqual(asmLinesForIrLine(nested, 5), [10, 11]);
    assert.deepStrictEqual(asmLinesForIrLine(nested, 11), [30]);
  });
  it('maps an asm line back to its op range', () => {
    assert.deepStrictEqual(irRangeForAsmLine(MAP, 12), r(6, 2, 7, 30));
    assert.strictEqual(irRangeForAsmLine(MAP, 13), undefined);
  });
  it('groups consecutive lines into runs', () => {
    assert.deepStrictEqual(lineRuns([1, 2, 3, 7, 9, 10]), [[1, 3], [7, 7], [9, 10]]);
    assert.deepStrictEqual(lineRuns([]), []);
    assert.deepStrictEqual(lineRuns([4, 4]), [[4, 4]]);
  });
});
