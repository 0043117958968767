import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { buildServerSettings, ConfigGetter, getterFromObject } from '../../src/settings';

const manifest = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
);
const properties: Record<string, { default: unknown }> =
  manifest.contributes.configuration.properties;

describe('settings', () => {
  it('defaults match the server defaults (server/Settings.h)', () => {
    const s = buildServerSettings(getterFromObject({}));
    assert.deepStrictEqual(s, {
      target: null,
      targetModelOverrides: [],
      pipeline: 'full',
      checkByExecution: true,
      hints: { latency: true, pressure: true, tag: true, profile: true },
      profile: null,
      lints: { stall: 'hint', pressure: 'warning', hazard: 'hint', waitcnt: 'info', optimization: 'info',
        liveThrough: 'info', scc: 'info', unused: 'hint',
        redundantLoad: 'info', bankConflict: 'info', loadBehindStore: 'info' },
      stallThresholdCycles: 16,
      waitcntStallThresholdCycles: 64,
      debounce: { minMs: 50, maxMs: 500, leadingEdge: true },
      progressDelayMs: 200,
      llm: { provider: 'none', model: '', baseUrl: '', apiKeyEnv: 'WAVEASM_LLM_API_KEY', rounds: 5, timeoutMs: 120000, maxRetries: 4,
        cacheSameSource: false },
    });
  });

  it('maps nested and dotted configuration values', () => {
    const s = buildServerSettings(
      getterFromObject({
        target: 'gfx950',
        lints: { stall: 'off', pressure: 'error' },
        'hints.tag': false,
        debounce: { minMs: 10 },
        llm: { provider: 'anthropic', model: 'm', apiKeyEnv: 'MY_KEY' },
      }),
    );
    assert.strictEqual(s.target, 'gfx950');
    assert.strictEqual(s.lints.stall, 'off');
    assert.strictEqual(s.lints.pressure, 'error');
    assert.strictEqual(s.hints.tag, false);
    assert.strictEqual(s.debounce.minMs, 10);
    assert.deepStrictEqual(s.llm, {
      provider: 'anthropic',
      model: 'm',
      baseUrl: '',
      apiKeyEnv: 'MY_KEY',
      rounds: 5,
      timeoutMs: 120000,
      maxRetries: 4,
      cacheSameSource: false,
    });
  });

  it('drops invalid values back to the defaults', () => {
    const s = buildServerSettings(
      getterFromObject({ lints: { stall: 'loud' }, stallThresholdCycles: -3, llm: { apiKeyEnv: ' ', rounds: 0 } }),
    );
    assert.strictEqual(s.llm.rounds, 5);
    assert.strictEqual(s.lints.stall, 'hint');
    assert.strictEqual(s.stallThresholdCycles, 16);
    assert.strictEqual(s.llm.apiKeyEnv, 'WAVEASM_LLM_API_KEY');
  });

  it('never carries an API key, even if one is put into the configuration', () => {
    const s = buildServerSettings(getterFromObject({ llm: { apiKey: 'sk-secret' }, apiKey: 'sk-secret' }));
    assert.ok(!JSON.stringify(s).includes('sk-secret'));
  });

  it('reads exactly the keys package.json contributes (besides server.*), with the same defaults', () => {
    const read = new Map<string, unknown>();
    const recording: ConfigGetter = <T>(key: string, fallback: T): T => {
      read.set(`waveasm.${key}`, fallback);
      return fallback;
    };
    buildServerSettings(recording);
    const contributed = Object.keys(properties).filter((k) => !k.startsWith('waveasm.server.'));
    assert.deepStrictEqual([...read.keys()].sort(), contributed.sort());
    for (const [key, fallback] of read)
      assert.deepStrictEqual(fallback, properties[key].default, key);
    assert.ok(!Object.keys(properties).some((k) => /apikey$/i.test(k)), 'no API key setting');
  });
});
