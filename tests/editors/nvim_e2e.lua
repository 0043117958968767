-- End-to-end test of editors/neovim in a real headless Neovim against the
-- real waveasm-lsp (tests/editors/neovim.sh runs it):
--   nvim --headless -u NONE -i NONE -n --cmd 'set rtp^=editors/neovim' -c 'luafile nvim_e2e.lua'
-- Environment: WAVEASM_LSP (server), WAVEASM_EXAMPLE (a kernel to open; the
-- test works on a copy), WAVEASM_NVIM_CAPTURE (optional: where to write a
-- text capture of the screen with hints and diagnostics).
-- Exits 0 when every check passed, 1 otherwise (with the reason on stderr).

local TIMEOUT = 60000
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)')
local harness = dofile(here .. 'nvim_harness.lua')
local check = harness.check
local function log(msg)
  io.stdout:write(msg .. '\n')
end

local function run()
  local server = assert(os.getenv('WAVEASM_LSP'), 'WAVEASM_LSP is not set')
  local example = assert(os.getenv('WAVEASM_EXAMPLE'), 'WAVEASM_EXAMPLE is not set')
  log('neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.' .. tostring(vim.version().patch))

  -- A .mlir copy: detection must work from the text (waveasm.program after
  -- a comment header), and schedule edits must not touch the repository.
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  local file = dir .. '/' .. vim.fn.fnamemodify(example, ':t')
  vim.fn.writefile(vim.fn.readfile(example, 'b'), file, 'b')

  local waveasm = require('waveasm')
  waveasm.setup({
    cmd = { server, '--log=info' },
    -- waits of 18-19 issue slots in the loop pass this threshold
    settings = { lints = { waitcnt = 'warning' }, waitcntStallThresholdCycles = 16 },
  })
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.bo[bufnr].filetype == 'waveasm', 'a .mlir file with waveasm.program gets filetype waveasm')
  vim.cmd('syntax on')
  local function syntax_at(pattern)
    local lnum = vim.fn.search(pattern, 'w')
    if lnum == 0 then
      return ''
    end
    local col = vim.fn.col('.')
    return vim.fn.synIDattr(vim.fn.synID(lnum, col + 8, 1), 'name')
  end
  check(syntax_at('waveasm\\.v_mfma') == 'waveasmMfma', 'syntax: MFMA instructions (' .. syntax_at('waveasm\\.v_mfma') .. ')')
  check(syntax_at('waveasm\\.ds_read') == 'waveasmLds', 'syntax: LDS instructions')
  vim.api.nvim_win_set_cursor(0, { 1, 0 })

  check(vim.wait(TIMEOUT, function()
    return waveasm.client(bufnr) ~= nil and waveasm.client(bufnr).initialized ~= false
  end, 50), 'the waveasm client starts and attaches')
  local client = waveasm.client(bufnr)
  if not client then
    return
  end

  -- Diagnostics: the pipeline's lints, with the severity from setup{settings}.
  local function has_diag(code, severity)
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      local c = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
      if c == code and (not severity or d.severity == severity) then
        return true
      end
    end
    return false
  end
  check(vim.wait(TIMEOUT, function()
    return has_diag('pressure') and has_diag('waitcnt')
  end, 50), 'diagnostics arrive (pressure and waitcnt lints)')
  check(has_diag('waitcnt', vim.diagnostic.severity.WARN), 'settings apply: waitcnt lints are warnings')

  -- Inlay hints: native on 0.10+, end-of-line virtual text before.
  local hints = require('waveasm.hints')
  local function hint_texts()
    local out = {}
    if hints.native() then
      for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = bufnr })) do
        local label = h.inlay_hint.label
        table.insert(out, type(label) == 'string' and label or vim.inspect(label))
      end
    else
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, hints.ns, 0, -1, { details = true })) do
        for _, chunk in ipairs(m[4].virt_text or {}) do
          table.insert(out, chunk[1])
        end
      end
    end
    return table.concat(out, '\n')
  end
  check(vim.wait(TIMEOUT, function()
    local t = hint_texts()
    return t:find('lat %d+') ~= nil and t:find('v %d+ · s %d+') ~= nil and t:find('I%d+') ~= nil
  end, 50), 'inlay hints appear (' .. (hints.native() and 'native' or 'virtual text') .. ') with latency, pressure and tags')

  -- Code lenses (refreshed on the server's request).
  check(vim.wait(TIMEOUT, function()
    return #(vim.lsp.codelens.get(bufnr) or {}) > 0
  end, 50), 'code lenses appear')

  -- Hover on an instruction.
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local mfma_line
  for i, l in ipairs(lines) do
    if l:find('waveasm.v_mfma', 1, true) then
      mfma_line = i - 1
      break
    end
  end
  check(mfma_line ~= nil, 'the example has an MFMA inside its loop')
  local col = lines[mfma_line + 1]:find('waveasm.v_mfma', 1, true) + 8
  vim.api.nvim_win_set_cursor(0, { mfma_line + 1, col })
  local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', vim.lsp.util.make_position_params(), 10000)
  local hover_text = hover and hover[client.id] and hover[client.id].result and vim.inspect(hover[client.id].result.contents) or ''
  check(hover_text:find('mfma') ~= nil, 'hover on the MFMA answers')

  -- Completion through the built-in omnifunc, as <C-x><C-o> runs it: the
  -- start column from the keyword under the cursor, the request, the
  -- items filtered by the typed base. A headless Neovim cannot sit in
  -- insert mode inside this script, so mode() answers "i" and complete()
  -- (insert mode only) hands its items to the test.
  check(vim.bo[bufnr].omnifunc == 'v:lua.vim.lsp.omnifunc', 'omnifunc is the LSP client\'s')
  local function omni(text)
    vim.api.nvim_buf_set_lines(bufnr, mfma_line, mfma_line, false, { text })
    local virtualedit = vim.o.virtualedit
    vim.o.virtualedit = 'onemore' -- the cursor after the last character
    vim.api.nvim_win_set_cursor(0, { mfma_line + 1, #text })
    vim.wait(400) -- the client's didChange debounce
    local got, col
    local complete, mode = vim.fn.complete, vim.fn.mode
    rawset(vim.fn, 'complete', function(c, items)
      col, got = c, items
    end)
    rawset(vim.fn, 'mode', function()
      return 'i'
    end)
    local start = vim.lsp.omnifunc(1, '')
    if start >= 0 then -- Neovim 0.10+: findstart, then the items
      col = start + 1
      vim.lsp.omnifunc(0, text:sub(start + 1))
    end
    vim.wait(10000, function()
      return got ~= nil
    end, 20)
    rawset(vim.fn, 'complete', complete)
    rawset(vim.fn, 'mode', mode)
    vim.o.virtualedit = virtualedit
    vim.api.nvim_buf_set_lines(bufnr, mfma_line, mfma_line + 1, false, {})
    local words = {}
    for _, item in ipairs(got or {}) do
      words[item.word] = true
    end
    return (col or 0) - 1, words
  end
  local start, words = omni('    %sum = waveasm.v_add_u3')
  check(start == #'    %sum = ', 'omnifunc starts at waveasm. (column ' .. tostring(start) .. ')')
  check(words['waveasm.v_add_u32'] and not words['waveasm.v_mfma_f32_16x16x16_f16'],
    'omnifunc offers the op the prefix names: ' .. vim.inspect(vim.tbl_keys(words)))
  start, words = omni('    %sum = waveasm.v_add_u32 %fa0')
  check(words['%fa00'] and words['%fa01'] and not words['%fb0'],
    'omnifunc offers values in scope: ' .. vim.inspect(vim.tbl_keys(words)))
  -- Signature help: the operand being typed is active.
  local sig_line = '    %sum = waveasm.v_add_u32 %a_frag, '
  vim.api.nvim_buf_set_lines(bufnr, mfma_line, mfma_line, false, { sig_line })
  vim.api.nvim_win_set_cursor(0, { mfma_line + 1, #sig_line })
  vim.wait(400)
  local sig = vim.lsp.buf_request_sync(bufnr, 'textDocument/signatureHelp', vim.lsp.util.make_position_params(), 10000)
  local help = sig and sig[client.id] and sig[client.id].result
  check(help and help.activeParameter == 1 and help.signatures[1].label:find('src1: VALU source operand', 1, true),
    'signature help marks the second operand: ' .. vim.inspect(help and help.activeParameter))
  vim.api.nvim_buf_set_lines(bufnr, mfma_line, mfma_line + 1, false, {})
  vim.api.nvim_win_set_cursor(0, { mfma_line + 1, col })

  -- Code actions at an op inside the loop.
  local caps = client.server_capabilities
  check(type(caps) == 'table' and caps.hoverProvider ~= nil, 'the server capabilities are readable')
  caps = caps or {}
  local offered = caps.codeActionProvider ~= nil and caps.codeActionProvider ~= false
  local done, action_err, actions = false, nil, nil
  waveasm.code_actions(bufnr, { line = mfma_line, character = col }, function(err, list)
    done, action_err, actions = true, err, list
  end)
  check(vim.wait(TIMEOUT, function()
    return done
  end, 50), 'textDocument/codeAction round-trips')
  check(type(actions) == 'table', 'the code action list is handled (a table, never nil)')
  if offered then
    local titles = {}
    for _, a in ipairs(actions or {}) do
      table.insert(titles, a.title)
    end
    check(vim.tbl_contains(titles, 'Schedule this loop (built-in)'),
      'the server offers "Schedule this loop (built-in)"; got: ' .. table.concat(titles, ' | '))
  else
    log('note: the server does not advertise codeActionProvider yet (answer: '
      .. (action_err and (action_err.message or vim.inspect(action_err)) or (#actions .. ' actions')) .. ')')
  end

  -- :WaveasmAssembly: a split with the emitted assembly, in sync with the cursor.
  local assembly = require('waveasm.assembly')
  vim.cmd('WaveasmAssembly')
  local view
  check(vim.wait(TIMEOUT, function()
    view = assembly.views[bufnr]
    if not view then
      return false
    end
    local text = table.concat(vim.api.nvim_buf_get_lines(view.buf, 0, -1, false), '\n')
    return text:find('v_mfma_f32') ~= nil and #view.map > 0
  end, 50), ':WaveasmAssembly shows the assembly with its line map')
  check(#vim.api.nvim_list_wins() == 2, 'the assembly opens in a split')
  if view then
    vim.api.nvim_win_set_cursor(0, { mfma_line + 1, col })
    assembly.sync_from_source(bufnr)
    local asm_win
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_buf(w) == view.buf then
        asm_win = w
      end
    end
    local asm_line = asm_win and vim.api.nvim_buf_get_lines(view.buf, vim.api.nvim_win_get_cursor(asm_win)[1] - 1, vim.api.nvim_win_get_cursor(asm_win)[1], false)[1] or ''
    check(asm_line:find('v_mfma') ~= nil, 'cursor sync: the asm cursor lands on the MFMA (' .. asm_line .. ')')

    -- The README's capture: the state so far, before edits.
    local capture = os.getenv('WAVEASM_NVIM_CAPTURE')
    if capture and capture ~= '' then
      vim.api.nvim_set_current_win(vim.fn.win_getid(vim.fn.bufwinnr(bufnr)))
      dofile(here .. 'nvim_capture.lua').write(bufnr, capture, mfma_line, actions)
      log('capture written to ' .. capture)
    end

    -- An edit re-runs the pipeline; the view refreshes by itself.
    local before = view.version
    vim.api.nvim_buf_set_lines(bufnr, mfma_line, mfma_line, false, { '  // an edit' })
    check(vim.wait(TIMEOUT, function()
      return view.version ~= nil and view.version ~= before
    end, 50), 'the assembly view refreshes after an edit (version ' .. tostring(before) .. ' -> ' .. tostring(view.version) .. ')')
    mfma_line = mfma_line + 1
  end

  -- :WaveasmPipeline N: snapshot N against N-1 in a new tab, in diff mode.
  local why = require('waveasm.why')
  local snapshots
  waveasm.request(client, 'waveasm/pipelineSnapshots', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } },
    function(err, result)
      snapshots = err and { error = err } or result
    end, bufnr)
  check(vim.wait(TIMEOUT, function()
    return snapshots ~= nil
  end, 50) and snapshots.snapshots ~= nil, 'waveasm/pipelineSnapshots answers')
  local changed_index
  for i, s in ipairs((snapshots or {}).snapshots or {}) do
    if i > 1 and s.changed and not changed_index then
      changed_index = i - 1
    end
  end
  check(changed_index ~= nil, 'some pass changes the example')
  local tab_before = vim.api.nvim_get_current_tabpage()
  local diff_bufs
  vim.cmd('WaveasmPipeline ' .. tostring(changed_index or 1))
  check(vim.wait(TIMEOUT, function()
    diff_bufs = nil
    local wins = vim.api.nvim_tabpage_list_wins(0)
    if vim.api.nvim_get_current_tabpage() == tab_before or #wins ~= 2 then
      return false
    end
    diff_bufs = {}
    for _, w in ipairs(wins) do
      if not vim.wo[w].diff then
        return false
      end
      table.insert(diff_bufs, vim.api.nvim_win_get_buf(w))
    end
    return true
  end, 50), ':WaveasmPipeline opens two windows in diff mode in a new tab')
  if diff_bufs then
    local names = vim.api.nvim_buf_get_name(diff_bufs[1]) .. ' ' .. vim.api.nvim_buf_get_name(diff_bufs[2])
    local chosen = snapshots.snapshots[changed_index + 1]
    check(names:find(('%d%%-'):format(changed_index - 1)) and names:find(vim.pesc(chosen.pass)),
      'the diff shows the chosen pass and the one before it (' .. names .. ')')
    local a = table.concat(vim.api.nvim_buf_get_lines(diff_bufs[1], 0, -1, false), '\n')
    local b = table.concat(vim.api.nvim_buf_get_lines(diff_bufs[2], 0, -1, false), '\n')
    check(a ~= b and a:find('waveasm.program') and b:find('waveasm.program'), 'both sides hold the program, and differ')
  end
  check(#why.describe(snapshots) == #snapshots.snapshots, 'the picker lists every snapshot')
  vim.cmd('tabclose')
  vim.api.nvim_set_current_win(vim.fn.win_getid(vim.fn.bufwinnr(bufnr)))

  -- :WaveasmLivePeak: the cursor moves to the peak op.
  local peak
  why.live_peak(function(err, result)
    peak = err and { error = err } or result
  end)
  check(vim.wait(TIMEOUT, function()
    return peak ~= nil
  end, 50) and peak.op ~= nil, ':WaveasmLivePeak answers')
  if peak and peak.op then
    check(vim.api.nvim_win_get_cursor(0)[1] == peak.op.range.start.line + 1, ':WaveasmLivePeak jumps to the peak op')
    check(#peak.values > 0, 'values are live at the peak')
  end
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then
      vim.api.nvim_win_close(w, true)
    end
  end

  -- :WaveasmTimeline: the loop at the cursor as a text timeline, one line
  -- per row of waveasm/schedule; <CR> on a row jumps to its op.
  local timeline = require('waveasm.timeline')
  vim.api.nvim_win_set_cursor(0, { mfma_line + 1, col })
  local rows
  waveasm.request(client, 'waveasm/schedule', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = mfma_line, character = col },
  }, function(err, result)
    rows = err and { error = err } or result.rows
  end, bufnr)
  local tl_done, tl_err, tl_buf = false, nil, nil
  vim.cmd('WaveasmTimeline')
  timeline.open(function(err, buf)
    tl_done, tl_err, tl_buf = true, err, buf
  end)
  check(vim.wait(TIMEOUT, function()
    return tl_done and rows ~= nil
  end, 50) and tl_err == nil and tl_buf ~= nil, ':WaveasmTimeline shows the timeline: ' .. vim.inspect(tl_err))
  if tl_buf and rows and not rows.error then
    local lines = vim.api.nvim_buf_get_lines(tl_buf, 0, -1, false)
    local text = table.concat(lines, '\n')
    check(lines[1]:find('loop at line', 1, true) ~= nil, 'the timeline shows the loop at the cursor: ' .. lines[1])
    local first = timeline.first_row_line(text)
    check(first ~= nil and #lines - first + 1 == #rows, ('one line per row (%d rows, %d lines)'):format(#rows, #lines - (first or 0) + 1))
    check(text:find('◀ peak VGPR', 1, true) ~= nil, 'the timeline marks the VGPR peak')
    check(text:find('|[ %-]*%.+=', 1) ~= nil, 'a row shows its stall (.) before its issue (=)')
    check(#vim.fn.getbufinfo(tl_buf)[1].windows == 1, 'the timeline opens once: the second :WaveasmTimeline reuses it')
    -- <CR> on the first MFMA row: the cursor goes to that op in the source.
    local mfma_row
    for i, row in ipairs(rows) do
      if row.mnemonic:find('^v_mfma') then
        mfma_row = mfma_row or i
      end
    end
    check(mfma_row ~= nil, 'the loop has an MFMA row')
    if mfma_row then
      local win = vim.fn.getbufinfo(tl_buf)[1].windows[1]
      vim.api.nvim_set_current_win(win)
      vim.api.nvim_win_set_cursor(win, { first + mfma_row - 1, 0 })
      vim.cmd('execute "normal \\<CR>"')
      check(vim.api.nvim_get_current_buf() == bufnr
        and vim.api.nvim_win_get_cursor(0)[1] == rows[mfma_row].at[1] + 1,
        '<CR> on a timeline row jumps to its op (line ' .. vim.api.nvim_win_get_cursor(0)[1] .. ')')
    end
    for _, w in ipairs(vim.fn.getbufinfo(tl_buf)[1].windows) do
      vim.api.nvim_win_close(w, true)
    end
    vim.api.nvim_set_current_win(vim.fn.win_getid(vim.fn.bufwinnr(bufnr)))
  end

  -- :WaveasmSchedule round trip (workspace/executeCommand waveasm.scheduleLoop).
  local commands = (caps.executeCommandProvider or {}).commands or {}
  local sched_done, sched_err, sched_result = false, nil, nil
  local text_before = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  vim.api.nvim_win_set_cursor(0, { mfma_line + 1, col })
  waveasm.schedule('builtin', function(err, result)
    sched_done, sched_err, sched_result = true, err, result
  end)
  check(vim.wait(TIMEOUT, function()
    return sched_done
  end, 50), ':WaveasmSchedule round-trips')
  if vim.tbl_contains(commands, 'waveasm.scheduleLoop') then
    check(sched_err == nil and type(sched_result) == 'table' and type(sched_result.applied) == 'boolean',
      'waveasm.scheduleLoop answers {applied, summary}: ' .. vim.inspect(sched_err or sched_result))
    if type(sched_result) == 'table' and sched_result.applied then
      -- The server's workspace/applyEdit went through Neovim's handler.
      check(vim.wait(TIMEOUT, function()
        return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') ~= text_before
      end, 50), 'the schedule edit is applied to the buffer (' .. (sched_result.summary or '') .. ')')
    end
  else
    log('note: the server does not provide waveasm.scheduleLoop yet (' .. (sched_err and sched_err.message or '?') .. ')')
  end

  -- A settings change reaches the running server.
  waveasm.configure({ lints = { waitcnt = 'off' } })
  check(vim.wait(TIMEOUT, function()
    return has_diag('pressure') and not has_diag('waitcnt')
  end, 50), 'configure{} applies: waitcnt lints off')

  -- Metrics for the statusline.
  local metrics_done = false
  waveasm.metrics(function()
    metrics_done = true
  end)
  vim.wait(TIMEOUT, function()
    return metrics_done
  end, 50)
  check(waveasm.statusline():find('^%d+ cyc · %d+ VGPR allocated · %d+ waves$') ~= nil, 'statusline: ' .. waveasm.statusline())


  -- A broken kernel: an error diagnostic at its line, and the assembly view
  -- says why there is no assembly instead of failing.
  local broken = dir .. '/broken.waveasm.mlir'
  vim.fn.writefile({
    'waveasm.program @broken target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {',
    '  %x = waveasm.v_add_u32 %nope, %nope : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg',
    '  waveasm.s_endpgm',
    '}',
  }, broken)
  vim.cmd('only')
  vim.cmd('edit ' .. vim.fn.fnameescape(broken))
  local bad = vim.api.nvim_get_current_buf()
  check(vim.bo[bad].filetype == 'waveasm', '*.waveasm.mlir gets filetype waveasm')
  local err_diag
  check(vim.wait(TIMEOUT, function()
    for _, d in ipairs(vim.diagnostic.get(bad, { severity = vim.diagnostic.severity.ERROR })) do
      err_diag = d
      return true
    end
    return false
  end, 50), 'a broken kernel gets an error diagnostic')
  if err_diag then
    check(err_diag.lnum == 1, 'the error is on the line with the undefined value: ' .. err_diag.message)
  end
  vim.cmd('WaveasmAssembly')
  check(vim.wait(TIMEOUT, function()
    local view = assembly.views[bad]
    if not view then
      return false
    end
    local first = vim.api.nvim_buf_get_lines(view.buf, 0, 1, false)[1] or ''
    return first:find('^; ') ~= nil
  end, 50), ':WaveasmAssembly on a broken kernel shows the reason as a comment')
end

harness.run(run)
