import * as assert from 'assert';
import * as path from 'path';
import { buildServerEnv, resolveServerPath, serverArgs } from '../../src/serverLaunch';

const only = (...files: string[]) => (f: string) => files.includes(f);

describe('serverLaunch', () => {
  it('uses a configured absolute path', () => {
    const r = resolveServerPath('/opt/w/waveasm-lsp', ['/ws'], {}, only('/opt/w/waveasm-lsp'));
    assert.deepStrictEqual(r, { ok: true, path: '/opt/w/waveasm-lsp' });
  });
  it('resolves a configured relative path against the first workspace folder and ~', () => {
    assert.deepStrictEqual(
      resolveServerPath('out/lsp', ['/ws', '/other'], {}, only('/ws/out/lsp')),
      { ok: true, path: '/ws/out/lsp' },
    );
    assert.deepStrictEqual(
      resolveServerPath('~/bin/lsp', [], { HOME: '/home/u' }, only('/home/u/bin/lsp')),
      { ok: true, path: '/home/u/bin/lsp' },
    );
  });
  it('says clearly when the configured binary is missing (no fallback)', () => {
    const r = resolveServerPath('/nope/waveasm-lsp', ['/ws'], { PATH: '/usr/bin' }, only('/usr/bin/waveasm-lsp'));
    assert.strictEqual(r.ok, false);
    assert.match((r as { message: string }).message, /\/nope\/waveasm-lsp.*waveasm\.server\.path/);
  });
  it('finds build/bin in a workspace folder, then PATH', () => {
    assert.deepStrictEqual(
      resolveServerPath('', ['/a', '/b'], { PATH: '/usr/bin' }, only('/b/build/bin/waveasm-lsp', '/usr/bin/waveasm-lsp')),
      { ok: true, path: '/b/build/bin/waveasm-lsp' },
    );
    assert.deepStrictEqual(
      resolveServerPath('', ['/a'], { PATH: ['/x', '/usr/bin'].join(path.delimiter) }, only('/usr/bin/waveasm-lsp')),
      { ok: true, path: '/usr/bin/waveasm-lsp' },
    );
  });
  it('lists what it tried when nothing is found', () => {
    const r = resolveServerPath('', ['/a'], { PATH: '/usr/bin' }, () => false);
    assert.strictEqual(r.ok, false);
    const message = (r as { message: string }).message;
    assert.match(message, /\/a\/build\/bin\/waveasm-lsp/);
    assert.match(message, /on PATH/);
    assert.match(message, /waveasm\.server\.path/);
  });
  it('puts the stored API key into the named variable only', () => {
    const base = { PATH: '/usr/bin', HOME: '/h' };
    const env = buildServerEnv(base, 'MY_KEY', 'sk-1');
    assert.strictEqual(env.MY_KEY, 'sk-1');
    assert.strictEqual(env.PATH, '/usr/bin');
    assert.ok(!('MY_KEY' in base), 'the editor environment is not modified');
    assert.deepStrictEqual(buildServerEnv(base, 'MY_KEY', undefined), base);
    // a key exported in the shell passes through when none is stored
    assert.strictEqual(buildServerEnv({ MY_KEY: 'sh' }, 'MY_KEY', undefined).MY_KEY, 'sh');
    assert.strictEqual(buildServerEnv({ MY_KEY: 'sh' }, 'MY_KEY', 'stored').MY_KEY, 'stored');
  });
  it('passes the log level as a flag', () => {
    assert.deepStrictEqual(serverArgs({ serverPath: 'x', env: {} }), []);
    assert.deepStrictEqual(serverArgs({ serverPath: 'x', env: {}, logLevel: 'verbose' }), ['--log=verbose']);
  });
});
