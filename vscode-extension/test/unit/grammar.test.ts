// Tokenizes real WaveASM with the TextMate engine VS Code uses
// (vscode-textmate on the Oniguruma WASM build), so the grammar's regexes
// are checked with VS Code's regex flavour, not JavaScript's.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';

const root = path.join(__dirname, '..', '..', '..');
const repo = path.join(root, '..');

async function loadGrammar(file: string, scope: string): Promise<textmate.IGrammar> {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (name: string) =>
      name === scope
        ? textmate.parseRawGrammar(fs.readFileSync(path.join(root, 'syntaxes', file), 'utf8'), file)
        : null,
  });
  const grammar = await registry.loadGrammar(scope);
  assert.ok(grammar, `grammar ${scope} loads`);
  return grammar!;
}

/// token text -> its scopes, for every token of `lines`.
function tokenize(grammar: textmate.IGrammar, lines: string[]): [string, string[]][] {
  let state = textmate.INITIAL;
  const out: [string, string[]][] = [];
  for (const line of lines) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) out.push([line.slice(t.startIndex, t.endIndex), t.scopes]);
    state = r.ruleStack;
  }
  return out;
}

function scopeOf(tokens: [string, string[]][], text: string): string[] {
  const hit = tokens.find(([t]) => t === text);
  assert.ok(hit, `token "${text}" exists`);
  return hit![1];
}

describe('TextMate grammar (source.waveasm)', () => {
  let grammar: textmate.IGrammar;
  before(async () => {
    grammar = await loadGrammar('waveasm.tmLanguage.json', 'source.waveasm');
  });

  const LINES = [
    '// a comment with waveasm.v_add_u32 inside',
    'waveasm.program @gemm target = #waveasm.target<#waveasm.gfx942, 5> attributes {vgprs = 128 : i64} {',
    '  %acc = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %c : !waveasm.vreg<2>, !waveasm.vreg<2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>',
    '  %x = waveasm.buffer_load_dwordx4 %srd, %off : !waveasm.psreg<8, 4>, !waveasm.vreg -> !waveasm.vreg<4>',
    '  %y = waveasm.ds_read_b64 %addr : !waveasm.vreg -> !waveasm.vreg<2>',
    '  %k = waveasm.s_load_dwordx2 %kargs : !waveasm.psreg<0, 2> -> !waveasm.sreg<2>',
    '  %s:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc',
    '  waveasm.s_waitcnt_vmcnt 0',
    '  %r = waveasm.v_add_u32 %s#0, %t : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg',
    '  %q = waveasm.v_accvgpr_read_b32 %m : !waveasm.areg<4, 4> -> !waveasm.vreg',
    '  %c0 = waveasm.constant 0 : !waveasm.imm<0>',
    '  waveasm.loop (%i = %c0) : (!waveasm.sreg) -> (!waveasm.sreg) {',
    '}',
  ];

  it('scopes instructions by execution unit', () => {
    const tokens = tokenize(grammar, LINES);
    const unit = (t: string) => scopeOf(tokens, t).find((s) => s.startsWith('keyword'));
    assert.strictEqual(unit('v_mfma_f32_16x16x16_f16'), 'keyword.other.instruction.mfma.waveasm');
    assert.strictEqual(unit('buffer_load_dwordx4'), 'keyword.other.instruction.vmem.waveasm');
    assert.strictEqual(unit('ds_read_b64'), 'keyword.other.instruction.lds.waveasm');
    assert.strictEqual(unit('s_load_dwordx2'), 'keyword.other.instruction.smem.waveasm');
    assert.strictEqual(unit('s_add_u32'), 'keyword.other.instruction.salu.waveasm');
    assert.strictEqual(unit('v_add_u32'), 'keyword.other.instruction.valu.waveasm');
    assert.strictEqual(unit('s_waitcnt_vmcnt'), 'keyword.other.instruction.control.waveasm');
    assert.strictEqual(unit('program'), 'keyword.control.waveasm');
    assert.strictEqual(unit('loop'), 'keyword.control.waveasm');
  });

  it('scopes registers, SSA values, types, attributes, symbols and comments', () => {
    const tokens = tokenize(grammar, LINES);
    assert.ok(scopeOf(tokens, 'vreg').includes('storage.type.register.vgpr.waveasm'));
    assert.ok(scopeOf(tokens, 'psreg').includes('storage.type.register.sgpr.waveasm'));
    assert.ok(scopeOf(tokens, 'areg').includes('storage.type.register.agpr.waveasm'));
    assert.ok(scopeOf(tokens, 'imm').includes('storage.type.immediate.waveasm'));
    assert.ok(scopeOf(tokens, 'scc').includes('storage.type.register.scc.waveasm'));
    assert.ok(scopeOf(tokens, '%acc').includes('variable.other.ssa.waveasm'));
    assert.ok(scopeOf(tokens, '%s:2').includes('variable.other.ssa.waveasm'));
    assert.ok(scopeOf(tokens, '%s#0').includes('variable.other.ssa.waveasm'));
    assert.ok(scopeOf(tokens, '#waveasm.gfx942').includes('constant.other.attribute.waveasm'));
    assert.ok(scopeOf(tokens, '@gemm').includes('entity.name.function.symbol.waveasm'));
    assert.ok(scopeOf(tokens, 'vgprs').includes('entity.other.attribute-name.waveasm'));
    assert.ok(scopeOf(tokens, 'i64').includes('storage.type.builtin.waveasm'));
    assert.ok(scopeOf(tokens, '128').includes('constant.numeric.waveasm'));
    assert.ok(scopeOf(tokens, 'constant').includes('support.function.builtin.waveasm'));
    const comment = tokens[0];
    assert.deepStrictEqual(comment[1], ['source.waveasm', 'comment.line.double-slash.waveasm']);
  });

  it('leaves no instruction of the bundled examples unclassified', () => {
    const dir = path.join(repo, 'examples');
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.mlir'))) {
      const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
      const tokens = tokenize(grammar, lines);
      const ops = new Set(lines.flatMap((l) => [...l.replace(/\/\/.*/, '').matchAll(/[^!#]\bwaveasm\.([a-z_0-9]+)/g)].map((m) => m[1])));
      for (const op of ops) {
        if (op === 'precolored') continue; // precolored.vreg: two tokens
        const scopes = scopeOf(tokens, op);
        assert.ok(
          scopes.some((s) => /^(keyword|support\.function\.builtin)/.test(s)),
          `${file}: ${op} has scopes ${scopes.join(' ')}`,
        );
      }
    }
  });
});

describe('TextMate grammar (source.waveasm-asm)', () => {
  it('scopes assembly instructions, registers and directives', async () => {
    const grammar = await loadGrammar('waveasm-asm.tmLanguage.json', 'source.waveasm-asm');
    const tokens = tokenize(grammar, [
      '.amdhsa_kernel gemm',
      'gemm:',
      '  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]',
      '  s_waitcnt vmcnt(0) ; wait',
      '  ds_read_b64 v[8:9], v10 offset:64',
    ]);
    assert.ok(scopeOf(tokens, 'v_mfma_f32_16x16x16_f16').includes('keyword.other.instruction.mfma.waveasm-asm'));
    assert.ok(scopeOf(tokens, 's_waitcnt').includes('keyword.control.waveasm-asm'));
    assert.ok(scopeOf(tokens, 'ds_read_b64').includes('keyword.other.instruction.lds.waveasm-asm'));
    assert.ok(scopeOf(tokens, 'v[0:3]').includes('variable.language.register.waveasm-asm'));
    assert.ok(scopeOf(tokens, '.amdhsa_kernel').includes('keyword.directive.waveasm-asm'));
    assert.ok(scopeOf(tokens, 'gemm:').includes('entity.name.label.waveasm-asm'));
    assert.ok(scopeOf(tokens, '; wait').includes('comment.line.waveasm-asm'));
  });
});
