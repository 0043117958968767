// The server's settings (server/runtime/SettingsJSON.h) from the
// extension's `waveasm.*` configuration. Sent as initializationOptions and
// in workspace/didChangeConfiguration. Pure: takes a getter so that unit
// tests pass a plain object instead of a WorkspaceConfiguration.
//
// The LLM API key is deliberately absent: it lives in VS Code's
// SecretStorage and reaches the server only as an environment variable of
// its process (serverLaunch.ts).

export type ConfigGetter = <T>(key: string, fallback: T) => T;

export type Severity = 'off' | 'hint' | 'info' | 'warning' | 'error';
const SEVERITIES: readonly string[] = ['off', 'hint', 'info', 'warning', 'error'];
export const LINT_CODES = [
  'stall',
  'pressure',
  'hazard',
  'waitcnt',
  'optimization',
  'liveThrough',
  'scc',
  'unused',
  'redundantLoad',
  'bankConflict',
  'loadBehindStore',
] as const;
export const DEFAULT_API_KEY_ENV = 'WAVEASM_LLM_API_KEY';

export interface ServerSettings {
  target: string | null;
  targetModelOverrides: string[];
  pipeline: 'full' | 'backend';
  checkByExecution: boolean;
  hints: { latency: boolean; pressure: boolean; tag: boolean; profile: boolean };
  profile: string | null;
  lints: Record<string, Severity>;
  stallThresholdCycles: number;
  waitcntStallThresholdCycles: number;
  debounce: { minMs: number; maxMs: number; leadingEdge: boolean };
  progressDelayMs: number;
  llm: { provider: string; model: string; baseUrl: string; apiKeyEnv: string; rounds: number;
    timeoutMs: number; maxRetries: number; cacheSameSource: boolean };
}

function severity(get: ConfigGetter, code: string, fallback: Severity): Severity {
  const value = get<string>(`lints.${code}`, fallback);
  return SEVERITIES.includes(value) ? (value as Severity) : fallback;
}

function nonNegativeInt(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? value
    : fallback;
}

function boundedInt(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
    ? value
    : fallback;
}

function profilePath(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function buildServerSettings(get: ConfigGetter): ServerSettings {
  const target = get<string>('target', '');
  const apiKeyEnv = get<string>('llm.apiKeyEnv', DEFAULT_API_KEY_ENV).trim();
  return {
    // null asks the server for each program's own target.
    target: target ? target : null,
    targetModelOverrides: get<string[]>('targetModelOverrides', []).filter(
      (s) => typeof s === 'string' && s.length > 0,
    ),
    pipeline: get<string>('pipeline', 'full') === 'backend' ? 'backend' : 'full',
    checkByExecution: get<boolean>('checkByExecution', true) !== false,
    hints: {
      latency: get<boolean>('hints.latency', true),
      pressure: get<boolean>('hints.pressure', true),
      tag: get<boolean>('hints.tag', true),
      profile: get<boolean>('hints.profile', true),
    },
    // null: the server looks for <file>.profile.csv; "": no profile.
    profile: profilePath(get<unknown>('profile', null)),
    lints: {
      stall: severity(get, 'stall', 'hint'),
      pressure: severity(get, 'pressure', 'warning'),
      hazard: severity(get, 'hazard', 'hint'),
      waitcnt: severity(get, 'waitcnt', 'info'),
      optimization: severity(get, 'optimization', 'info'),
      liveThrough: severity(get, 'liveThrough', 'info'),
      scc: severity(get, 'scc', 'info'),
      unused: severity(get, 'unused', 'hint'),
      redundantLoad: severity(get, 'redundantLoad', 'info'),
      bankConflict: severity(get, 'bankConflict', 'info'),
      loadBehindStore: severity(get, 'loadBehindStore', 'info'),
    },
    stallThresholdCycles: nonNegativeInt(get('stallThresholdCycles', 16), 16),
    waitcntStallThresholdCycles: nonNegativeInt(
      get('waitcntStallThresholdCycles', 64),
      64,
    ),
    debounce: {
      minMs: nonNegativeInt(get('debounce.minMs', 50), 50),
      maxMs: nonNegativeInt(get('debounce.maxMs', 500), 500),
      leadingEdge: get<boolean>('debounce.leadingEdge', true),
    },
    progressDelayMs: nonNegativeInt(get('progressDelayMs', 200), 200),
    llm: {
      provider: get<string>('llm.provider', 'none'),
      model: get<string>('llm.model', ''),
      baseUrl: get<string>('llm.baseUrl', ''),
      apiKeyEnv: apiKeyEnv || DEFAULT_API_KEY_ENV,
      rounds: boundedInt(get('llm.rounds', 5), 1, 100, 5),
      timeoutMs: boundedInt(get('llm.timeoutMs', 120000), 100, 3600000, 120000),
      maxRetries: boundedInt(get('llm.maxRetries', 4), 0, 10, 4),
      cacheSameSource: get<boolean>('llm.cacheSameSource', false) === true,
    },
  };
}

/// Configuration keys whose change needs a new server process (the
/// process's command line and environment), not just a settings update.
export const RESTART_KEYS = [
  'waveasm.server.path',
  'waveasm.server.logLevel',
  'waveasm.llm.apiKeyEnv',
];

/// A getter over a nested plain object ({lints: {stall: 'off'}}) or dotted
/// keys ({'lints.stall': 'off'}): for tests and non-VS Code callers.
export function getterFromObject(config: Record<string, unknown>): ConfigGetter {
  return <T>(key: string, fallback: T): T => {
    if (key in config) return config[key] as T;
    let node: unknown = config;
    for (const part of key.split('.')) {
      if (node === null || typeof node !== 'object' || !(part in (node as object)))
        return fallback;
      node = (node as Record<string, unknown>)[part];
    }
    return node as T;
  };
}
