import * as assert from 'assert';
import { parseVersion, serverVersionWarning } from '../../src/serverVersion';

describe('serverVersion', () => {
  it('parses the leading X.Y.Z of serverInfo.version', () => {
    assert.deepStrictEqual(parseVersion('0.2.0 (git 1a2b3c4d5e6f)'), [0, 2, 0]);
    assert.deepStrictEqual(parseVersion('10.0.3'), [10, 0, 3]);
    assert.strictEqual(parseVersion('dev'), undefined);
    assert.strictEqual(parseVersion(undefined), undefined);
  });
  it('is quiet for the same or a newer server', () => {
    assert.strictEqual(serverVersionWarning('0.2.0 (git abc)', '0.2.0', '/s'), undefined);
    assert.strictEqual(serverVersionWarning('0.3.0', '0.2.5', '/s'), undefined);
    assert.strictEqual(serverVersionWarning('1.0.0', '0.9.9', '/s'), undefined);
  });
  it('warns about an older server, naming both versions and the path', () => {
    const warning = serverVersionWarning('0.1.0', '0.2.0', '/opt/waveasm-lsp');
    assert.ok(warning);
    assert.match(warning, /\/opt\/waveasm-lsp is version 0\.1\.0, older than this extension \(0\.2\.0\)/);
    assert.ok(serverVersionWarning('0.2.0', '0.2.1', '/s'));
  });
  it('warns about a server without a version', () => {
    assert.match(serverVersionWarning(undefined, '0.2.0', '/s') ?? '', /reports no version/);
  });
});
