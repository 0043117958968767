import * as assert from 'assert';
import { DETECT_LIMIT, shouldBeWaveasm } from '../../src/detect';

const KERNEL = '// header\n// more\nwaveasm.program @k target = <#waveasm.gfx942> {\n}\n';

describe('detect', () => {
  it('takes *.waveasm.mlir whatever the text', () => {
    assert.ok(shouldBeWaveasm('/a/k.waveasm.mlir', 'plaintext', ''));
  });
  it('takes a .mlir file whose text has waveasm.program after a comment header', () => {
    assert.ok(shouldBeWaveasm('/a/k.mlir', 'mlir', KERNEL));
    assert.ok(shouldBeWaveasm('/a/k.mlir', 'plaintext', KERNEL));
  });
  it('leaves other MLIR alone', () => {
    assert.ok(!shouldBeWaveasm('/a/k.mlir', 'mlir', 'func.func @f() { return }\n'));
    // mentioned in a comment only: not a program
    assert.ok(!shouldBeWaveasm('/a/k.mlir', 'mlir', '// see waveasm.program docs\n'));
  });
  it('never overrides a non-generic language or a non-.mlir file', () => {
    assert.ok(!shouldBeWaveasm('/a/k.mlir', 'cpp', KERNEL));
    assert.ok(!shouldBeWaveasm('/a/k.txt', 'plaintext', KERNEL));
    assert.ok(!shouldBeWaveasm('/a/k.waveasm.mlir', 'waveasm', KERNEL));
  });
  it('scans only the head of huge files', () => {
    const text = ' '.repeat(DETECT_LIMIT) + '\nwaveasm.program @k {\n}\n';
    assert.ok(!shouldBeWaveasm('/a/k.mlir', 'mlir', text));
  });
});
