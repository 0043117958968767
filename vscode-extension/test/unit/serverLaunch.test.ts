import * as assert from 'assert';
import * as path from 'path';
import { spawn } from 'child_process';
import {
  buildServerEnv,
  missingLibrary,
  missingVersion,
  resolveServerPath,
  serverArgs,
  serverDescription,
  ServerPlaces,
  ServerWatch,
  startFailureMessage,
  StderrTail,
} from '../../src/serverLaunch';

const only = (...files: string[]) => (f: string) => files.includes(f);

describe('serverLaunch', () => {
  const place = (configured: string, more: Partial<ServerPlaces> = {}): ServerPlaces => ({
    configured,
    env: {},
    ...more,
  });
  it('uses a configured absolute path', () => {
    const r = resolveServerPath(place('/opt/w/waveasm-lsp', { workspaceRoots: ['/ws'] }), only('/opt/w/waveasm-lsp'));
    assert.deepStrictEqual(r, { ok: true, path: '/opt/w/waveasm-lsp', source: 'setting' });
  });
  it('resolves a configured relative path against the first workspace folder and ~', () => {
    assert.deepStrictEqual(
      resolveServerPath(place('out/lsp', { workspaceRoots: ['/ws', '/other'] }), only('/ws/out/lsp')),
      { ok: true, path: '/ws/out/lsp', source: 'setting' },
    );
    assert.deepStrictEqual(
      resolveServerPath(place('~/bin/lsp', { env: { HOME: '/home/u' } }), only('/home/u/bin/lsp')),
      { ok: true, path: '/home/u/bin/lsp', source: 'setting' },
    );
  });
  it('says clearly when the configured binary is missing (no fallback)', () => {
    const r = resolveServerPath(
      place('/nope/waveasm-lsp', { extensionDir: '/ext', workspaceRoots: ['/ws'], env: { PATH: '/usr/bin' } }),
      only('/ext/server/waveasm-lsp', '/usr/bin/waveasm-lsp'),
    );
    assert.strictEqual(r.ok, false);
    assert.match((r as { message: string }).message, /\/nope\/waveasm-lsp.*waveasm\.server\.path/);
  });
  // Every place has a server: each one wins over all that follow it.
  const everywhere = place('/set/waveasm-lsp', {
    extensionDir: '/ext',
    documentDirs: ['/src/kernels/gemm'],
    workspaceRoots: ['/ws'],
    env: { PATH: '/usr/bin' },
  });
  const all = [
    '/set/waveasm-lsp',
    '/ext/server/waveasm-lsp',
    '/src/build/bin/waveasm-lsp',
    '/ws/build/bin/waveasm-lsp',
    '/usr/bin/waveasm-lsp',
  ];
  it('takes the setting, the bundled server, a build tree above the file, PATH, in that order', () => {
    const expected: [string, string][] = [
      ['/set/waveasm-lsp', 'setting'],
      ['/ext/server/waveasm-lsp', 'bundled'],
      ['/src/build/bin/waveasm-lsp', 'build tree'],
      ['/ws/build/bin/waveasm-lsp', 'build tree'],
      ['/usr/bin/waveasm-lsp', 'PATH'],
    ];
    expected.forEach(([file, source], i) => {
      const places = { ...everywhere, configured: i === 0 ? everywhere.configured : '' };
      assert.deepStrictEqual(resolveServerPath(places, only(...all.slice(i))), { ok: true, path: file, source });
    });
  });
  it('finds the build tree nearest above the file, then above a workspace folder', () => {
    const dirs = place('', { documentDirs: ['/a/b/c'], workspaceRoots: ['/w'] });
    assert.deepStrictEqual(
      resolveServerPath(dirs, only('/a/build/bin/waveasm-lsp', '/a/b/build/bin/waveasm-lsp', '/w/build/bin/waveasm-lsp')),
      { ok: true, path: '/a/b/build/bin/waveasm-lsp', source: 'build tree' },
    );
    assert.deepStrictEqual(
      resolveServerPath(dirs, only('/build/bin/waveasm-lsp', '/w/build/bin/waveasm-lsp')),
      { ok: true, path: '/build/bin/waveasm-lsp', source: 'build tree' },
      'the root above the file comes before the workspace folder',
    );
    assert.deepStrictEqual(
      resolveServerPath(place('', { workspaceRoots: ['/w/x'] }), only('/w/build/bin/waveasm-lsp')),
      { ok: true, path: '/w/build/bin/waveasm-lsp', source: 'build tree' },
    );
  });
  it('looks on PATH in order', () => {
    assert.deepStrictEqual(
      resolveServerPath(place('', { env: { PATH: ['/x', '', '/usr/bin', '/y'].join(path.delimiter) } }),
        only('/usr/bin/waveasm-lsp', '/y/waveasm-lsp')),
      { ok: true, path: '/usr/bin/waveasm-lsp', source: 'PATH' },
    );
  });
  it('lists what it tried when nothing is found', () => {
    const r = resolveServerPath(place('', { extensionDir: '/ext', workspaceRoots: ['/a'], env: { PATH: '/usr/bin' } }), () => false);
    assert.strictEqual(r.ok, false);
    const message = (r as { message: string }).message;
    assert.match(message, /\/ext\/server\/waveasm-lsp \(bundled only in the linux-x64 package\)/);
    assert.match(message, /build\/bin\/waveasm-lsp above the open files/);
    assert.match(message, /on PATH/);
    assert.match(message, /waveasm\.server\.path/);
  });
  it('describes the running server and where it came from', () => {
    assert.strictEqual(
      serverDescription('/ext/server/waveasm-lsp', 'bundled', '0.2.0 (git abc)'),
      'server: /ext/server/waveasm-lsp (bundled with the extension; 0.2.0 (git abc))',
    );
    assert.match(serverDescription('/b/waveasm-lsp', 'build tree', undefined), /from the build tree.*no version/);
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
  it('names the shared library the loader could not find and its package', () => {
    const loader = ['/ext/server/waveasm-lsp: error while loading shared libraries: libcurl.so.4: cannot open shared object file: No such file or directory'];
    assert.strictEqual(missingLibrary(loader), 'libcurl.so.4');
    assert.strictEqual(missingLibrary(['boom']), undefined);
    const message = startFailureMessage('/ext/server/waveasm-lsp', { code: 127, signal: null }, loader, undefined, 'bundled');
    assert.match(message, /exit code 127 before it started\. The system lacks the shared library libcurl\.so\.4 \(install the package libcurl4\)\./);
    assert.match(message, /\(bundled with the extension; waveasm\.server\.path chooses another server;/);
    const other = startFailureMessage('/x', { code: 127, signal: null },
      ['/x: error while loading shared libraries: libfoo.so.2: cannot open shared object file'], undefined);
    assert.match(other, /lacks the shared library libfoo\.so\.2\. Last/);
    // glibc older than the build machine's.
    const old = ["/x: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.36' not found (required by /x)"];
    assert.strictEqual(missingVersion(old), 'GLIBC_2.36');
    assert.match(startFailureMessage('/x', { code: 1, signal: null }, old, undefined),
      /older than the server needs: GLIBC_2\.36 is missing\./);
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
