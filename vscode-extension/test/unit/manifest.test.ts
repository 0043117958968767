// The manifest and the code must agree: every contributed command is
// registered, and none collides with the server's executeCommand ids
// (vscode-languageclient registers those itself; a second registration
// of the same id throws at activation).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SCHEDULE_LOOP_COMMAND, SHOW_LIVE_PEAK_COMMAND, SHOW_METRICS_COMMAND } from '../../src/protocol';

const root = path.join(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const source = fs.readFileSync(path.join(root, 'src', 'extension.ts'), 'utf8');

describe('manifest', () => {
  const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);
  const registered = [...source.matchAll(/register\('([^']+)'/g)].map((m) => m[1]);

  it('registers exactly the contributed commands', () => {
    assert.deepStrictEqual([...registered].sort(), [...contributed].sort());
  });

  it('keeps client command ids apart from the server commands', () => {
    for (const id of [SCHEDULE_LOOP_COMMAND, SHOW_METRICS_COMMAND, SHOW_LIVE_PEAK_COMMAND])
      assert.ok(!contributed.includes(id), `${id} is the server's`);
  });

  it('activates for WaveASM documents and points at the bundle', () => {
    assert.ok(manifest.activationEvents.includes('onLanguage:waveasm'));
    assert.strictEqual(manifest.main, './dist/extension.js');
    const waveasm = manifest.contributes.languages.find((l: { id: string }) => l.id === 'waveasm');
    assert.deepStrictEqual(waveasm.extensions, ['.waveasm.mlir']);
    for (const g of manifest.contributes.grammars)
      assert.ok(fs.existsSync(path.join(root, g.path)), g.path);
  });

  it('menus only name contributed commands', () => {
    for (const items of Object.values(manifest.contributes.menus) as { command: string }[][])
      for (const item of items) assert.ok(contributed.includes(item.command), item.command);
  });
});
