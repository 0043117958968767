import * as assert from 'assert';
import * as path from 'path';
import { spawn } from 'child_process';
import {
  buildServerEnv,
  resolveServerPath,
  serverArgs,
  ServerWatch,
  startFailureMessage,
  StderrTail,
} from '../../src/serverLaunch';

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
  it('keeps the last stderr lines, bounded', () => {
    const tail = new StderrTail(2, 64);
    tail.push('one\ntw');
    tail.push('o\r\n\nthree\n');
    assert.deepStrictEqual(tail.lines(), ['two', 'three']);
    tail.push('x'.repeat(100));
    assert.deepStrictEqual(tail.lines(), ['x'.repeat(64)]);
  });
  it('names the path, the exit code or signal, and the stderr tail of a failed start', () => {
    const lines = ['boom: libfoo.so missing'];
    assert.match(
      startFailureMessage('/x/lsp', { code: 3, signal: null }, lines, new Error('closed')),
      /\/x\/lsp exited with exit code 3 before it started\. Last stderr lines: "boom: libfoo\.so missing"/,
    );
    assert.match(
      startFailureMessage('/x/lsp', { code: null, signal: 'SIGSEGV' }, [], undefined),
      /was killed by SIGSEGV before it started\. It wrote nothing to stderr\./,
    );
    assert.match(
      startFailureMessage('/x/lsp', { code: null, signal: null, spawnError: 'spawn /x/lsp EACCES' }, [], undefined),
      /could not be run \(spawn \/x\/lsp EACCES\)/,
    );
    assert.match(startFailureMessage('/x/lsp', undefined, [], new Error('bad reply')), /did not start \(bad reply\)/);
  });
  it('watches a real process: exit code and stderr', async () => {
    const proc = spawn('sh', ['-c', 'echo first >&2; echo "second line" >&2; exit 7'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const watch = new ServerWatch('sh', proc);
    assert.deepStrictEqual(await watch.exited(10000), { code: 7, signal: null });
    assert.deepStrictEqual(watch.stderr.lines(), ['first', 'second line']);
  });
  it('watches a binary that cannot be spawned', async () => {
    const proc = spawn('/nonexistent/waveasm-lsp', [], { stdio: ['pipe', 'pipe', 'pipe'] });
    const watch = new ServerWatch('/nonexistent/waveasm-lsp', proc);
    const exit = await watch.exited(10000);
    assert.match(exit?.spawnError ?? '', /ENOENT/);
  });
  it('gives up waiting for a process that keeps running', async () => {
    const proc = spawn('sleep', ['5'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const watch = new ServerWatch('sleep', proc);
    assert.strictEqual(await watch.exited(50), undefined);
    proc.kill();
  });
});
