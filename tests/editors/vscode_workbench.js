// Drives the real VS Code workbench (code-server in Debian's chromium,
// through playwright-core) with the WaveASM extension installed, and
// asserts what a user sees: the language mode, the inlay hints on the
// lines `waveasm-lsp check` names, the status-bar metrics, the pressure
// warning in the Problems panel, the assembly view beside the IR, a move
// applied through the lightbulb's menu, the schedule webview (rows, stall
// bars, peak marker, a click revealing the op, a redraw after an edit), the
// dependence graph webview (a node per op of the loop, the critical path,
// carried edges, a click revealing the op), the program's occupancy lens,
// the pipeline view (the passes, a pass's diff) and the live values at the
// VGPR peak, all served by the server the platform package carries (no server
// setting); then the error the bundled server leaves when a shared library
// is missing, and the setting taking precedence over it. Started by
// vscode_workbench.sh, which owns the processes and the temporary profile;
// this file only talks to the browser.
'use strict';
const assert = require('assert');
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, '')] = argv[i + 1];
  for (const key of ['url', 'chromium', 'lsp', 'file', 'check-text', 'check-json', 'machine-settings', 'screenshots',
    'bundled', 'broken'])
    assert.ok(args[key], `missing --${key}`);
  return args;
}

const args = parseArgs(process.argv.slice(2));
const fileName = path.basename(args.file);
const original = fs.readFileSync(args.file, 'utf8');
const check = JSON.parse(fs.readFileSync(args['check-json'], 'utf8')).files[0];

/// The rows of `check`'s instruction table that carry a tag:
/// {line (1-based), tag, lat, stall, v, s, a}.
function instructionRows(text) {
  const rows = [];
  const re = /^\s*(\d+)\s+(I\d+)\s+(\S+)\s+\S+\s+(\d+)\s+\d+\*?\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$/;
  for (const line of text.split('\n')) {
    const m = re.exec(line);
    if (m)
      rows.push({ line: +m[1], tag: m[2], opcode: m[3], lat: +m[4], stall: +m[5], v: +m[6], s: +m[7], a: +m[8] });
  }
  return rows;
}
const rows = instructionRows(fs.readFileSync(args['check-text'], 'utf8'));
assert.ok(rows.length > 20, `check printed no instruction table:\n${fs.readFileSync(args['check-text'], 'utf8')}`);

let shotIndex = 0;
/// Where the time to open a picture view went, from the marks the extension
/// sends with the picture and the page's own: the command palette until
/// the extension's show() ran, then the panel, the server's answer, the
/// page's script ready, the picture posted and drawn (ms after show()).
async function viewSteps(frame, askedAt) {
  const timing = JSON.parse((await frame.evaluate(() => document.body.dataset.timing)) || '{}');
  assert.ok(timing.openedAt && timing.answerMs !== undefined && timing.drawnAt, 'the view reports its steps');
  return {
    commandMs: timing.openedAt - askedAt,
    panelMs: timing.panelMs,
    answerMs: timing.answerMs,
    readyMs: timing.readyMs,
    postMs: timing.postMs,
    drawnMs: timing.drawnAt - timing.openedAt,
  };
}

async function screenshot(page, name) {
  const file = path.join(args.screenshots, `${String(++shotIndex).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  console.log(`screenshot: ${file}`);
  return file;
}

/// A screenshot of `locator`'s box only (at most `maxHeight` pixels of
/// it): the pictures the README shows stay small.
async function clipShot(page, name, locator, maxHeight = 760) {
  const box = await locator.boundingBox();
  assert.ok(box && box.width > 0 && box.height > 0, `${name}: nothing to capture`);
  const file = path.join(args.screenshots, `${String(++shotIndex).padStart(2, '0')}-${name}.png`);
  await page.screenshot({
    path: file,
    clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, maxHeight) },
  });
  console.log(`screenshot: ${file}`);
}

async function poll(what, fn, timeoutMs = 60000, intervalMs = 25) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${last}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/// The rendered lines of the editor in group `group` (0-based), by line
/// number: what the user sees, inlay hints included (VS Code renders them
/// as injected text inside the line).
async function visibleLines(page, group = 0) {
  return page.evaluate((group) => {
    const editors = document.querySelectorAll('.editor-group-container .editor-instance .monaco-editor');
    const editor = editors[group];
    if (!editor) return {};
    const tops = {};
    for (const n of editor.querySelectorAll('.margin-view-overlays .line-numbers'))
      tops[n.closest('[style*="top"]').style.top] = +n.textContent.trim();
    const out = {};
    for (const l of editor.querySelectorAll('.view-lines .view-line')) {
      const line = tops[l.style.top];
      if (line) out[line] = l.textContent.replace(/\u00a0/g, ' ');
    }
    return out;
  }, group);
}

/// The quick input (command palette, go to line) with `value` in its box.
/// Filled rather than typed, and waited for: keys typed before the widget
/// has focus land in the editor and change the file under test.
async function openQuickInput(page, key, value) {
  await page.keyboard.press(key);
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(value);
  return input;
}

/// Go to line in the IR's editor. A click may leave the focus in a webview,
/// where the prompt says "Open a text editor first": then the first editor
/// group gets the focus and the prompt is asked again, once.
async function goToLine(page, line, column = 1) {
  for (let attempt = 1; ; attempt++) {
    await openQuickInput(page, 'Control+G', `:${line}:${column}`);
    const widget = page.locator('.quick-input-widget');
    const prompt = await poll('the go-to-line prompt', async () => {
      const text = await widget.innerText().catch(() => '');
      if (/Open a text editor first/i.test(text)) return 'no editor';
      return /Go to line/i.test(text) ? 'line' : undefined;
    }, 15000);
    if (prompt === 'line') {
      await page.keyboard.press('Enter');
      await widget.waitFor({ state: 'hidden' });
      return;
    }
    if (attempt === 2) throw new Error(`go to line ${line}: no text editor has the focus`);
    console.log(`go to line ${line}: no text editor had the focus; focusing the first group`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+1');
  }
}

/// Runs a command from the palette once the row under the selection is the
/// command (Enter on a list that is still filtering runs another command).
/// A palette that never shows it is closed and asked again, twice at most:
/// on a loaded machine the first keystrokes after a view change are lost.
async function runCommand(page, title) {
  for (let attempt = 1; ; attempt++) {
    await openQuickInput(page, 'F1', `>${title}`);
    const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first();
    try {
      await row.waitFor({ timeout: 20000 });
      await page.keyboard.press('Enter');
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(`the palette did not offer "${title}" (attempt ${attempt}); asking again`);
      await page.keyboard.press('Escape');
    }
  }
}

/// The hover of the status bar item showing `text`.
async function statusTooltip(page, text) {
  const item = page.locator('.statusbar-item', { hasText: text }).first();
  return poll('the status bar tooltip', async () => {
    await page.mouse.move(10, 10);
    await item.hover();
    const hover = page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'server:' }).first();
    await hover.waitFor({ state: 'visible', timeout: 3000 });
    return (await hover.innerText()).trim();
  }, 30000, 100);
}

async function notificationText(page) {
  return (await page.locator('.notifications-toasts').allInnerTexts()).join('\n');
}

async function main() {
  const timings = {};
  const browser = await chromium.launch({
    executablePath: args.chromium,
    headless: true,
    // Root in a container: no user namespaces for chromium's sandbox.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1100 } });
  try {
    page.setDefaultTimeout(60000);
    const t0 = Date.now();
    await poll('code-server to answer', async () => {
      try {
        return (await page.goto(args.url, { waitUntil: 'domcontentloaded' }))?.ok();
      } catch {
        return false;
      }
    }, 60000, 250);
    await page.locator('.monaco-workbench .part.statusbar').waitFor();
    // The explorer shows the workspace once the remote side is connected.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: fileName }).waitFor();
    timings.workbenchMs = Date.now() - t0;

    // Open the example with Quick Open, as a user would. It is a plain
    // `.mlir` file: the extension must recognise it as WaveASM.
    await page.locator('.monaco-workbench').click({ position: { x: 800, y: 500 } });
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
    await page.keyboard.type(fileName);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: fileName }).first().waitFor();
    await page.keyboard.press('Enter');
    const opened = Date.now();
    await page.locator('.tabs-container .tab.active', { hasText: fileName }).waitFor();
    timings.editorOpenMs = Date.now() - opened;
    const mode = page.locator('[id="status.editor.mode"]');
    await poll('the language mode WaveASM', async () => (await mode.innerText()).trim() === 'WaveASM', 60000, 10);
    timings.languageModeMs = Date.now() - opened;
    await poll('a first inlay hint', async () =>
      Object.values(await visibleLines(page)).some((t) => /lat \d+/.test(t)), 60000, 10);
    timings.firstInlayHintMs = Date.now() - opened;

    // Inlay hints: on each of these lines the tag, the latency (and the
    // stall when there is one) and the live registers of check's table.
    const picks = [
      rows.find((r) => r.opcode.startsWith('global_load')),
      rows.find((r) => r.opcode.startsWith('v_mfma') && r.stall > 0),
    ];
    assert.ok(picks.every(Boolean), 'check table has a global load and a stalled MFMA');
    const lines = original.split('\n');
    // An op's hints follow its last line (types continue on lines that
    // start with `:` or `->`), after the whole text of that line.
    const lastLine = (line) => {
      while (/^\s*(:|->)/.test(lines[line] ?? '')) ++line;
      return line;
    };
    for (const row of picks) {
      const line = lastLine(row.line);
      await goToLine(page, line);
      const text = await poll(`the hints on line ${line}`, async () => {
        const t = (await visibleLines(page))[line];
        return t && t.includes(row.tag) && /lat \d+/.test(t) ? t : undefined;
      });
      const source = lines[line - 1].trimEnd();
      assert.ok(text.startsWith(source), `the hints on line ${line} split its text: "${text}"`);
      const want = [
        row.stall > 0 ? `lat ${row.lat} · stall ${row.stall}` : `lat ${row.lat}`,
        `v ${row.v} · s ${row.s}`,
        row.tag,
      ];
      for (const piece of want)
        assert.ok(text.includes(piece), `line ${row.line} shows "${text}", expected "${piece}"`);
      if (row.stall === 0) assert.ok(!/ stall /.test(text.split('lat')[1] ?? ''), `no stall on line ${row.line}: ${text}`);
      console.log(`hints on line ${line}: ${text.slice(source.length)}`);
    }
    // No hints on a comment line.
    const commentLine = lines.findIndex((l, i) => i > picks[1].line - 20 && l.trim().startsWith('//')) + 1;
    await goToLine(page, commentLine);
    const comment = await poll(`line ${commentLine}`, async () => (await visibleLines(page))[commentLine]);
    assert.strictEqual(comment?.trim(), lines[commentLine - 1].trim(), 'a comment line has no hints');

    // Status bar: the metrics of the program under the cursor.
    const program = check.metrics.programs[0];
    const metricsText = `${program.est_cycles} slots · ${program.peak_vgpr} VGPR allocated · ${program.occupancy} waves`;
    await page.locator('.statusbar-item', { hasText: metricsText }).waitFor();
    await screenshot(page, 'hints-and-status-bar');
    // Its tooltip names the server and where it came from: the one in the
    // installed package, as no setting names one.
    const bundledLine = `server: ${args.bundled} (bundled with the extension; `;
    const tooltip = await statusTooltip(page, metricsText);
    assert.ok(tooltip.includes(bundledLine), `the status bar tooltip: "${tooltip}", expected "${bundledLine}"`);
    console.log(`status bar tooltip: ${tooltip.split('\n').pop()}`);

    // Problems panel: the pressure warning at its line and column.
    const warning = check.diagnostics.find((d) => d.code === 'pressure');
    assert.ok(warning, 'check reports a pressure warning');
    await page.keyboard.press('Control+Shift+M');
    const problem = page.locator('.markers-panel .monaco-list-row', { hasText: warning.message.slice(0, 40) });
    await problem.first().waitFor();
    const problemText = await problem.first().innerText();
    assert.ok(problemText.includes(`Ln ${warning.line}, Col ${warning.column}`), problemText);
    console.log(`problems panel: ${problemText.replace(/\s+/g, ' ')}`);
    await screenshot(page, 'problems-panel');
    await page.keyboard.press('Control+Shift+M');

    // The assembly view opens beside the IR.
    await page.locator('.editor-group-container .editor-instance .monaco-editor').first().click({ position: { x: 300, y: 200 } });
    await runCommand(page, 'WaveASM: Show Assembly');
    const asmName = fileName.replace(/\.mlir$/, '.s');
    await page.locator('.editor-group-container', { hasText: asmName }).waitFor();
    assert.strictEqual(await page.locator('.editor-group-container').count(), 2, 'the assembly opens in a second group');
    const asm = await poll('the assembly text', async () => {
      const t = Object.values(await visibleLines(page, 1)).join('\n');
      return /s_load_dwordx/.test(t) ? t : undefined;
    });
    assert.ok(!/error/i.test(asm.split('\n')[0]), asm.split('\n')[0]);
    await screenshot(page, 'assembly-beside');
    // A code action through the lightbulb: in this example a single move
    // helps the op that computes %a_frag (it measures one issue slot and
    // four VGPRs better after the prologue's loads).
    const mfma = rows.find((r) => lines[r.line - 1].includes('%a_frag = '));
    assert.ok(mfma, 'the example computes %a_frag');
    const editor = page.locator('.editor-group-container .editor-instance .monaco-editor').first();
    await editor.click({ position: { x: 300, y: 200 } });
    await goToLine(page, mfma.line, 5);
    const bulb = page.locator('.lightBulbWidget, .codicon-lightbulb, .codicon-lightbulb-autofix').first();
    let via = 'lightbulb';
    try {
      await bulb.waitFor({ state: 'visible', timeout: 30000 });
      await bulb.click();
    } catch {
      via = 'quick-fix menu (Ctrl+.)';
      await page.keyboard.press('Control+.');
    }
    const menu = page.locator('.action-widget');
    const move = menu.locator('.action-list-row, .monaco-list-row', { hasText: new RegExp(`Move ${mfma.tag} (before|after) I\\d+`) }).first();
    await move.waitFor();
    const title = (await move.innerText()).trim();
    await screenshot(page, 'code-action-menu');
    await move.click();
    const m = new RegExp(`Move ${mfma.tag} (before|after) (I\\d+)`).exec(title);
    // The other op: the row with that tag nearest to the MFMA (same block).
    const other = rows
      .filter((r) => r.tag === m[2])
      .sort((a, b) => Math.abs(a.line - mfma.line) - Math.abs(b.line - mfma.line))[0];
    await page.keyboard.press('Control+S');
    const moved = await poll('the moved op saved to disk', () => {
      const t = fs.readFileSync(args.file, 'utf8');
      return t !== original ? t : undefined;
    });
    const savedLines = moved.split('\n');
    assert.deepStrictEqual([...savedLines].sort(), [...lines].sort(), 'a move only reorders lines');
    const at = savedLines.indexOf(lines[mfma.line - 1]);
    const otherAt = savedLines.indexOf(lines[other.line - 1]);
    assert.ok(m[1] === 'before' ? at < otherAt : at > otherAt,
      `"${title}": ${mfma.tag} is at line ${at + 1}, ${other.tag} at ${otherAt + 1}`);
    console.log(`code action via ${via}: "${title}"`);
    // The status bar follows: the metrics `check` measures on the saved text.
    const after = JSON.parse(
      execFileSync(args.lsp, ['check', '--format', 'json', args.file], { encoding: 'utf8' }),
    ).files[0].metrics.programs[0];
    const afterText = `${after.est_cycles} slots · ${after.peak_vgpr} VGPR allocated · ${after.occupancy} waves`;
    assert.notStrictEqual(afterText, metricsText, 'the move changes the metrics');
    await page.locator('.statusbar-item', { hasText: afterText }).waitFor();
    console.log(`status bar after the move: ${afterText} (before: ${metricsText})`);
    await screenshot(page, 'code-action-applied');

    // The schedule view: the loop at the cursor drawn by the server in a
    // webview beside the editor. Its rows are those of the loop's picture in
    // `check --format html` of the saved text; a click on a row moves the
    // cursor to that op, and an edit redraws it.
    const report = execFileSync(args.lsp, ['check', '--format', 'html', '--fail-on', 'none', args.file], { encoding: 'utf8' });
    const pictures = report.split('<svg class="wsv"').slice(1);
    const loopPicture = pictures.find((p) => /loop at line/.test(p.slice(0, 400)));
    assert.ok(loopPicture, 'check --format html draws the loop');
    const expectedRows = (loopPicture.match(/<g class="r[ "]/g) ?? []).length;
    const currentLines = fs.readFileSync(args.file, 'utf8').split('\n');
    const loopMfma = currentLines.findIndex((l, i) => i > mfma.line && l.includes('waveasm.v_mfma')) + 1;
    await editor.click({ position: { x: 300, y: 200 } });
    await goToLine(page, loopMfma, 5);
    const askedSchedule = Date.now();
    await runCommand(page, 'WaveASM: Show Schedule');
    await page.locator('.tab', { hasText: 'WaveASM Schedule' }).first().waitFor();
    /// The webview's document: VS Code nests it in two iframes.
    const scheduleFrame = () =>
      poll('the schedule webview', async () => {
        for (const frame of page.frames()) {
          const found = await frame.evaluate(() => !!document.querySelector('#pic svg.wsv g.r')).catch(() => false);
          if (found) return frame;
        }
        return undefined;
      });
    const frame = await scheduleFrame();
    timings.scheduleViewMs = Date.now() - askedSchedule;
    timings.scheduleViewSteps = await viewSteps(frame, askedSchedule);
    const dom = await frame.evaluate(() => ({
      title: document.querySelector('svg.wsv .h1')?.textContent ?? '',
      rows: document.querySelectorAll('svg.wsv g.r').length,
      stalls: document.querySelectorAll('svg.wsv g.r rect.st').length,
      peak: document.querySelector('svg.wsv g.pk.pv-k text')?.textContent ?? '',
      lanes: [...document.querySelectorAll('svg.wsv g.lane text')].map((t) => t.textContent),
      status: document.getElementById('status')?.textContent ?? '',
      version: document.body.dataset.version,
      styled: getComputedStyle(document.querySelector('svg.wsv rect.st')).fill,
    }));
    console.log(`schedule view: ${JSON.stringify({ ...dom, lanes: dom.lanes.join(', ') })}`);
    assert.ok(/loop at line \d+/.test(dom.title), dom.title);
    assert.strictEqual(dom.rows, expectedRows, 'one row per instruction of the loop');
    assert.ok(dom.stalls > 0, 'stall bars');
    assert.ok(/^peak VGPR \d+$/.test(dom.peak), `the VGPR peak marker: "${dom.peak}"`);
    assert.ok(dom.lanes.some((l) => /^MFMA \d+%$/.test(l)), `an MFMA lane: ${dom.lanes}`);
    assert.strictEqual(dom.styled, 'rgb(229, 72, 77)', "the server's style sheet applies under the CSP");
    await screenshot(page, 'schedule-view');
    // Click the last MFMA row: the editor's cursor goes to that op.
    const target = await frame.evaluate(() => {
      const rows = [...document.querySelectorAll('svg.wsv g.r[data-op]')].filter((g) => /v_mfma/.test(g.textContent));
      const row = rows[rows.length - 1];
      row.setAttribute('data-test-target', '1');
      return row.getAttribute('data-op');
    });
    const [tLine, tChar] = target.split(':').map(Number);
    await frame.locator('g.r[data-test-target] text').click();
    const selection = page.locator('[id="status.editor.selection"]');
    await poll(`the cursor at ${tLine + 1}:${tChar + 1}`, async () =>
      (await selection.innerText()).includes(`Ln ${tLine + 1}, Col ${tChar + 1}`));
    console.log(`schedule row click: cursor at Ln ${tLine + 1}, Col ${tChar + 1} (${currentLines[tLine].trim().slice(0, 60)})`);
    // An edit: the pipeline reruns and the view redraws for the new version.
    const drawnVersion = dom.version;
    await page.keyboard.press('End');
    await page.keyboard.type('  // edited');
    const redrawn = Date.now();
    await poll('the schedule view redrawn after an edit', async () =>
      (await frame.evaluate(() => document.body.dataset.version)) !== drawnVersion);
    timings.scheduleRefreshMs = Date.now() - redrawn;
    await screenshot(page, 'schedule-view-clicked-and-edited');
    await page.keyboard.press('Control+Z');

    // The dependence graph of the loop at the cursor: one box per op of the
    // loop body, as many as the loop's graph in `check --format html`, the
    // critical path outlined, carried edges drawn apart; a click on a box
    // moves the cursor to its op.
    const graphs = report.split('<svg class="wdg"').slice(1);
    assert.strictEqual(graphs.length, check.metrics.programs[0].loops.length, "check --format html draws each loop's graph");
    const expectedNodes = (graphs[0].match(/<g class="n /g) ?? []).length;
    assert.ok(expectedNodes > 10, `the loop's graph has ${expectedNodes} nodes`);
    await editor.click({ position: { x: 300, y: 200 } });
    await goToLine(page, loopMfma, 5);
    const askedGraph = Date.now();
    await runCommand(page, 'WaveASM: Show Dependence Graph');
    await page.locator('.tab', { hasText: 'WaveASM Dependence Graph' }).first().waitFor();
    const graphFrame = await poll('the dependence graph webview', async () => {
      for (const f of page.frames()) {
        const found = await f.evaluate(() => !!document.querySelector('#pic svg.wdg g.n')).catch(() => false);
        if (found) return f;
      }
      return undefined;
    });
    timings.graphViewMs = Date.now() - askedGraph;
    timings.graphViewSteps = await viewSteps(graphFrame, askedGraph);
    const graphDom = await graphFrame.evaluate(() => ({
      title: document.querySelector('svg.wdg .h1')?.textContent ?? '',
      nodes: document.querySelectorAll('svg.wdg g.n[data-op]').length,
      critical: document.querySelectorAll('svg.wdg g.n.crit').length,
      criticalEdges: document.querySelectorAll('svg.wdg g.e.crit').length,
      carried: document.querySelectorAll('svg.wdg g.e.cr').length,
      dataEdges: document.querySelectorAll('svg.wdg g.e.k-data').length,
      status: document.getElementById('status')?.textContent ?? '',
      styled: getComputedStyle(document.querySelector('svg.wdg g.n.crit rect')).stroke,
    }));
    console.log(`dependence graph: ${JSON.stringify(graphDom)}`);
    assert.ok(/loop at line \d+ · dependence graph/.test(graphDom.title), graphDom.title);
    assert.strictEqual(graphDom.nodes, expectedNodes, 'one box per op of the loop body');
    assert.ok(graphDom.critical >= 2, 'a critical path of ops');
    assert.strictEqual(graphDom.criticalEdges, graphDom.critical - 1, 'the critical path is a chain');
    assert.ok(graphDom.carried > 0, 'the accumulators are carried to the next iteration');
    assert.ok(graphDom.dataEdges > 0, 'data edges');
    assert.ok(/critical path \d+ slots/.test(graphDom.status), graphDom.status);
    assert.strictEqual(graphDom.styled, 'rgb(229, 72, 77)', "the server's style sheet applies under the CSP");
    await clipShot(page, 'dependence-graph', page.locator('.tab', { hasText: 'WaveASM Dependence Graph' }).first().locator('xpath=ancestor::*[contains(@class,"editor-group-container")]'));
    // Click the last box of the critical path: the cursor goes to its op.
    const node = await graphFrame.evaluate(() => {
      const boxes = [...document.querySelectorAll('svg.wdg g.n.crit[data-op]')];
      const box = boxes[boxes.length - 1];
      box.setAttribute('data-test-target', '1');
      return { at: box.getAttribute('data-op'), text: box.querySelector('text').textContent };
    });
    const [nLine, nChar] = node.at.split(':').map(Number);
    await graphFrame.locator('g.n[data-test-target] rect').click();
    await poll(`the cursor at ${nLine + 1}:${nChar + 1}`, async () =>
      (await selection.innerText()).includes(`Ln ${nLine + 1}, Col ${nChar + 1}`));
    assert.ok(currentLines[nLine].slice(nChar).startsWith(`waveasm.${node.text.split(' ')[0]}`),
      `the box "${node.text}" reveals line ${nLine + 1}: ${currentLines[nLine].trim()}`);
    console.log(`graph node click: cursor at Ln ${nLine + 1}, Col ${nChar + 1} (${node.text})`);
    await screenshot(page, 'dependence-graph-clicked');

    // The program's occupancy lens: waves, what limits them, the next wave.
    const occupancy = `occupancy ${after.occupancy_limit.summary}`;
    // The webviews beside it close first: the lens line is long, and the
    // focus must be in the IR's editor (a click may leave it in a webview).
    const programLine = currentLines.findIndex((l) => l.includes('waveasm.program @')) + 1;
    await editor.click({ position: { x: 300, y: 200 } });
    await page.keyboard.press('Control+1');
    await runCommand(page, 'View: Close Editors in Other Groups');
    await poll('the webviews closed', async () => (await page.locator('.tab', { hasText: 'WaveASM Dependence Graph' }).count()) === 0);
    await page.keyboard.press('Control+1');
    await goToLine(page, programLine + 1, 1);
    const lens = page.locator('.contentWidgets .codelens-decoration', { hasText: 'limited by' }).first();
    await lens.waitFor();
    const lensText = (await lens.innerText()).trim();
    assert.ok(lensText.includes(occupancy), `the lens says "${lensText}", expected "${occupancy}"`);
    console.log(`occupancy lens: ${lensText}`);
    // The README's picture: the lens line whole, with the lines around it.
    const lensBox = await lens.boundingBox();
    const editorBox = await editor.boundingBox();
    const lensShot = path.join(args.screenshots, `${String(++shotIndex).padStart(2, '0')}-occupancy-lens.png`);
    await page.screenshot({
      path: lensShot,
      clip: {
        x: editorBox.x,
        y: Math.max(editorBox.y, lensBox.y - 60),
        width: Math.min(editorBox.width, lensBox.x + lensBox.width + 40 - editorBox.x),
        height: 160,
      },
    });
    console.log(`screenshot: ${lensShot}`);

    // The pipeline view: the passes of the server's pipeline in a quick
    // pick, the ones that changed nothing folded, the same passes and
    // changes as check's HTML report of the same text; choosing a pass
    // opens its before/after in the diff editor.
    const reportPasses = [...report.matchAll(/<details class="pass (changed|same|failed)"[^>]*><summary><b>([^<]+)<\/b>/g)]
      .map((m) => ({ pass: m[2], changed: m[1] !== 'same' }));
    assert.ok(reportPasses.length > 5 && reportPasses.some((p) => p.changed), 'the report lists the passes');
    await runCommand(page, 'WaveASM: Show Pipeline');
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.locator('.quick-input-title', { hasText: 'WaveASM pipeline' }).waitFor();
    const passRows = await poll('the pass list', async () => {
      const t = await quickInput.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      return t.length > 1 ? t.map((r) => r.replace(/\s+/g, ' ').trim()) : undefined;
    });
    console.log(`pipeline view: ${passRows.length} entries: ${passRows.join(' | ')}`);
    // The input, each changed pass by its index, each run of unchanged ones once.
    const wanted = ['0. input'];
    reportPasses.forEach((p, i) => {
      if (p.changed) wanted.push(`${i + 1}. ${p.pass}`);
      else if (i === 0 || reportPasses[i - 1].changed) wanted.push('unchanged');
    });
    assert.strictEqual(passRows.length, wanted.length, `entries ${passRows.join(' | ')}; expected ${wanted.join(' | ')}`);
    wanted.forEach((w, i) => assert.ok(passRows[i].includes(w), `entry ${i} "${passRows[i]}" names "${w}"`));
    const chosenIndex = reportPasses.findIndex((p) => p.changed);
    const chosen = reportPasses[chosenIndex];
    await clipShot(page, 'pipeline-passes', quickInput);
    await page.keyboard.type(chosen.pass);
    await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: `${chosenIndex + 1}. ${chosen.pass}` }).first().waitFor();
    await page.keyboard.press('Enter');
    const diffTab = page.locator('.tab.active', { hasText: `↔ ${chosen.pass}` });
    await diffTab.waitFor();
    const diffEditor = page.locator('.monaco-diff-editor').first();
    const diffMarks = await poll('the diff of the chosen pass', async () => {
      const marks = await diffEditor.evaluate((e) => ({
        inserted: e.querySelectorAll('.editor.modified .line-insert').length,
        removed: e.querySelectorAll('.editor.original .line-delete').length,
      }));
      return marks.inserted + marks.removed > 0 ? marks : undefined;
    });
    console.log(`pipeline diff "${(await diffTab.innerText()).trim()}": ${JSON.stringify(diffMarks)} lines marked`);
    await clipShot(page, 'pipeline-diff', diffEditor.locator('xpath=ancestor::*[contains(@class,"editor-group-container")]'), 400);
    await page.keyboard.press('Control+W');
    await page.locator('.tabs-container .tab.active', { hasText: fileName }).waitFor();

    // Live values at the peak: the cursor goes to the peak op, a quick pick
    // lists the values live after it (their VGPRs add up to the lens's live
    // peak), and choosing one reveals its definition.
    const livePeak = Number(/live peak v (\d+)/.exec(lensText)?.[1]);
    assert.ok(livePeak > 0, `the lens names the live peak: ${lensText}`);
    await runCommand(page, 'WaveASM: Show Live Values at Peak');
    const peakTitle = await poll('the live values quick pick', async () => {
      const t = await quickInput.locator('.quick-input-title').innerText().catch(() => '');
      return /VGPR pressure peak/.test(t) ? t : undefined;
    });
    assert.ok(peakTitle.includes(`VGPR pressure peak: ${livePeak} `), `"${peakTitle}" vs the lens's live peak ${livePeak}`);
    const liveRows = await poll('the live values', async () => {
      const t = await quickInput.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      return t.length ? t.map((r) => r.replace(/\s+/g, ' ').trim()) : undefined;
    });
    console.log(`live values at the peak: ${peakTitle}: ${liveRows.slice(0, 4).join(' | ')} ...`);
    const peakLine = Number(/Ln (\d+),/.exec(await selection.innerText())?.[1]);
    assert.ok(/waveasm\./.test(currentLines[peakLine - 1] ?? ''), `the cursor is on the peak op, line ${peakLine}`);
    await clipShot(page, 'live-values', page.locator('.editor-group-container').first(), 560);
    assert.ok(/VGPR x\d/.test(liveRows[0]), `the VGPR values come first: ${liveRows[0]}`);
    const definedOn = Number(/defined on line (\d+)/.exec(liveRows[0])?.[1]);
    assert.ok(definedOn > 0, `the first value names its definition: ${liveRows[0]}`);
    await page.keyboard.press('Enter');
    await poll(`the cursor on line ${definedOn}`, async () =>
      (await selection.innerText()).includes(`Ln ${definedOn},`));


    // Completion while typing a new instruction after the fragment reads:
    // the `.` of `waveasm.` opens the list, the prefix filters it, Enter
    // inserts the op's snippet; at the first operand the values in scope.
    const fragLine = savedLines.findIndex((l) => l.includes('%fb1  = waveasm.ds_read_b128')) + 1;
    assert.ok(fragLine > 0, 'the example reads %fb1');
    await editor.click({ position: { x: 300, y: 200 } });
    // The click may leave the focus in a webview beside it: focus the IR's group.
    await page.keyboard.press('Control+1');
    await goToLine(page, fragLine, 1);
    await page.locator('[id="status.editor.selection"]', { hasText: `Ln ${fragLine},` }).waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await poll('a new line below the reads', async () => {
      const t = await visibleLines(page);
      return (t[fragLine + 1] ?? 'x').trim() === '' && (t[fragLine] ?? '').includes('%fb1');
    });
    const typedAt = Date.now();
    await page.keyboard.type('%sum = waveasm.v_add_u3', { delay: 20 });
    const suggest = page.locator('.editor-widget.suggest-widget.visible');
    const opRow = suggest.locator('.monaco-list-row', { hasText: 'waveasm.v_add_u32' }).first();
    await opRow.waitFor();
    timings.completionListMs = Date.now() - typedAt;
    await screenshot(page, 'completion-op-names');
    await page.keyboard.press('Enter');
    const inserted = await poll('the op snippet in the editor', async () => {
      const t = (await visibleLines(page))[fragLine + 1];
      return t && t.includes('-> !waveasm.vreg') ? t : undefined;
    });
    assert.ok(/%sum = waveasm\.v_add_u32 %src0, %src1 : !waveasm\.vreg, !waveasm\.vreg -> !waveasm\.vreg/.test(inserted),
      `the snippet inserted: "${inserted}"`);
    // The first placeholder (%src0) is selected: typing replaces it.
    await page.keyboard.type('%fa', { delay: 20 });
    const valueRow = suggest.locator('.monaco-list-row', { hasText: '%fa00' }).first();
    await valueRow.waitFor();
    const values = await suggest.locator('.monaco-list-row').allInnerTexts();
    assert.ok(!values.some((v) => v.includes('%fb0')), `only %fa* values: ${values.join(' | ')}`);
    await screenshot(page, 'completion-values');
    await page.keyboard.press('Escape');
    // Signature help: after the first operand and a comma, the second is active.
    await page.keyboard.type('00, ', { delay: 20 });
    const hints = page.locator('.parameter-hints-widget.visible');
    await hints.waitFor({ timeout: 30000 }).catch(async () => {
      await page.keyboard.press('Control+Shift+Space');
      await hints.waitFor();
    });
    // The widget may still show the answer to an earlier keystroke (src0)
    // on a loaded machine: wait for the one after the comma.
    let active = '';
    await poll('the second operand marked active', async () => {
      active = (await hints.locator('.parameter.active').innerText()).trim();
      return active === 'src1: VALU source operand';
    }, 15000, 100).catch(() => undefined);
    assert.strictEqual(active, 'src1: VALU source operand', `active parameter: "${active}"`);
    console.log(`completion: op list in ${timings.completionListMs} ms; signature help marks "${active}"`);
    await screenshot(page, 'signature-help');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');

    // The bundled server fails to start: a shared library is missing (a
    // copy whose libcurl.so.4 was renamed takes its place; the running
    // file is unlinked first, as a package update would). The extension
    // names the path, where it came from, the exit code and the library.
    // Three times, typing right after the restart as a user would: the
    // client library's start() may resolve for a server whose connection
    // closed before initialize failed, and the status must still say
    // "server failed", not the last "no metrics" of the working server.
    const working = `${args.bundled}.working`;
    fs.copyFileSync(args.bundled, working);
    const installServer = (file) => {
      fs.unlinkSync(args.bundled);
      fs.copyFileSync(file, args.bundled);
      fs.chmodSync(args.bundled, 0o755);
    };
    for (let round = 1; round <= 3; round++) {
      if (round > 1) {
        installServer(working);
        await runCommand(page, 'WaveASM: Restart Language Server');
        await page.locator('.statusbar-item', { hasText: /WaveASM: no metrics| slots · / }).waitFor();
      }
      installServer(args.broken);
      await runCommand(page, 'WaveASM: Restart Language Server');
      await page.waitForTimeout(100 * (round - 1));
      await page.keyboard.type(' ');
      await page.keyboard.press('Backspace');
      await page.locator('.statusbar-item', { hasText: 'WaveASM: server failed' }).waitFor().catch(async (error) => {
        // What the user would see instead, so a failure here says why.
        console.log(`round ${round}: status bar: ${JSON.stringify(await page.locator('.statusbar-item').allInnerTexts())}`);
        console.log(`notifications: ${await notificationText(page)}`);
        throw error;
      });
    }
    // The error, as the notification center lists it.
    await runCommand(page, 'Notifications: Show Notifications');
    const failure = await poll('the start failure notification', async () => {
      const t = (await page.locator('.notifications-center').allInnerTexts()).join('\n');
      return t.includes(args.bundled) ? t : undefined;
    });
    assert.ok(!/connection to server is erroring/.test(failure), `one message, not the client's: ${failure}`);
    for (const piece of ['exit code 127', 'lacks the shared library libcurl.so.9', 'bundled with the extension'])
      assert.ok(failure.includes(piece), `the notification says "${failure}", expected "${piece}"`);
    console.log(`start failure: ${failure.replace(/\s+/g, ' ')}`);
    await screenshot(page, 'server-start-failure');
    await page.keyboard.press('Escape');

    // The setting comes before the bundled server: naming the working one
    // (machine-scoped; a change restarts the client) starts it, and the
    // status bar's tooltip says so (the text still holds the half-typed
    // instruction of the completion step, so it reads "no metrics").
    fs.writeFileSync(args['machine-settings'], JSON.stringify({ 'waveasm.server.path': args.lsp }));
    const settingLine = `server: ${args.lsp} (from the setting waveasm.server.path; `;
    const settingTooltip = await poll('the server the setting names', async () => {
      const items = await page.locator('.statusbar-item').allInnerTexts();
      const text = items.find((t) => / slots · \d+ VGPR allocated|WaveASM: no metrics/.test(t));
      if (!text) return undefined;
      const tooltip = await statusTooltip(page, text.trim());
      return tooltip.includes(settingLine) ? tooltip : undefined;
    });
    console.log(`after the setting: ${settingTooltip.split('\n').pop()}`);

    timings.sessionMs = Date.now() - t0;
    console.log(`timings: ${JSON.stringify(timings)}`);
  } catch (error) {
    // What the workbench showed when an assertion failed.
    await screenshot(page, 'FAILED').catch(() => undefined);
    const lines = await visibleLines(page).catch(() => ({}));
    console.error(`visible lines:\n${Object.entries(lines).map(([n, t]) => `${n}: ${t}`).join('\n')}`);
    console.error(`notifications: ${await notificationText(page).catch(() => '')}`);
    throw error;
  } finally {
    await browser.close();
  }
}

main().catch(async (error) => {
  console.error(`vscode_workbench.js: FAIL: ${error.stack ?? error}`);
  process.exit(1);
});
