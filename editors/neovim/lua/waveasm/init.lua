-- WaveASM for Neovim (0.7 and newer): starts waveasm-lsp for WaveASM MLIR
-- buffers and adds what the built-in client lacks: inlay hints before 0.10
-- (end-of-line virtual text), code-lens and hint refresh on the server's
-- request, the assembly view, the schedule timeline and loop scheduling.
--
--   require('waveasm').setup{
--     cmd = {'/path/to/waveasm-lsp'},   -- default: build/bin/waveasm-lsp
--                                       -- above the file, else PATH
--     settings = {lints = {stall = 'warning'}, llm = {provider = 'openai'}},
--     keymaps = true,                   -- buffer-local <leader>w* mappings
--     completion = true,                -- omnifunc (<C-x><C-o>) from the server
--   }
--
-- `settings` is the server's JSON (README "waveasm-lsp"). The LLM API key
-- is never a setting: the server reads it from the environment variable
-- named by settings.llm.apiKeyEnv (default WAVEASM_LLM_API_KEY), which the
-- server process inherits from Neovim's environment.

local M = {}

local hints = require('waveasm.hints')
local assembly = require('waveasm.assembly')
local timeline = require('waveasm.timeline')

-- Client API across versions: 0.11 made request/notify/stop methods
-- (client:request) and deprecated the field form; 0.10 added get_clients.
local method_calls = vim.fn.has('nvim-0.11') == 1

function M.request(client, method, params, handler, bufnr)
  if method_calls then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

function M.notify(client, method, params)
  if method_calls then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

local function clients(filter)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients(filter)
  end
  local list = {}
  local source = filter.bufnr and vim.lsp.buf_get_clients(filter.bufnr) or vim.lsp.get_active_clients()
  for _, client in pairs(source) do
    if not filter.name or client.name == filter.name then
      table.insert(list, client)
    end
  end
  return list
end

M.config = {
  cmd = nil,
  settings = {},
  keymaps = true,
  hints = true,
  codelens = true,
  completion = true,
}

local notified_missing = false

-- The server's settings are a JSON object, but an empty Lua table encodes
-- as `[]`: send an empty dict instead.
local function as_object(settings)
  if settings == nil or next(settings) == nil then
    return vim.empty_dict()
  end
  return settings
end

local function exists(path)
  return path and vim.fn.executable(path) == 1
end

--- The server command: the configured one, else build/bin/waveasm-lsp in a
--- directory above the file (a checkout of this repository), else PATH.
function M.server_cmd(bufnr)
  if M.config.cmd then
    return M.config.cmd
  end
  local file = vim.api.nvim_buf_get_name(bufnr or 0)
  local dir = vim.fn.fnamemodify(file ~= '' and file or vim.fn.getcwd(), ':p:h')
  local found = vim.fn.findfile('build/bin/waveasm-lsp', dir .. ';')
  if found ~= '' and exists(vim.fn.fnamemodify(found, ':p')) then
    return { vim.fn.fnamemodify(found, ':p') }
  end
  if exists('waveasm-lsp') then
    return { 'waveasm-lsp' }
  end
  return nil
end

--- True when the buffer holds WaveASM: *.waveasm.mlir, or a .mlir file
--- with a `waveasm.program` line near the top.
function M.is_waveasm(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name:match('%.waveasm%.mlir$') then
    return true
  end
  if not name:match('%.mlir$') then
    return false
  end
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, 400, false)) do
    if line:match('^%s*waveasm%.program%f[^%w_]') then
      return true
    end
  end
  return false
end

--- The waveasm client attached to a buffer.
function M.client(bufnr)
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  return clients({ bufnr = bufnr, name = 'waveasm' })[1]
end

local function each_attached_buffer(client, fn)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.lsp.buf_is_attached(bufnr, client.id) then
      fn(bufnr)
    end
  end
end

local function refresh_codelens(bufnr)
  if not M.config.codelens then
    return
  end
  vim.api.nvim_buf_call(bufnr, function()
    vim.lsp.codelens.refresh()
  end)
end

-- The server asks for these after every background pipeline (new latency
-- hints, lenses and assembly). Neovim 0.7 has no handlers for them.
local function on_codelens_refresh(_, _, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    each_attached_buffer(client, function(bufnr)
      refresh_codelens(bufnr)
      assembly.refresh(bufnr)
      timeline.refresh(bufnr)
    end)
  end
  return vim.NIL
end

local function on_inlay_hint_refresh(err, result, ctx, config)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    if hints.native() then
      local default = vim.lsp.handlers['workspace/inlayHint/refresh']
      if default then
        return default(err, result, ctx, config)
      end
    end
    each_attached_buffer(client, function(bufnr)
      hints.refresh(client, bufnr)
    end)
  end
  return vim.NIL
end

local function capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.workspace = caps.workspace or {}
  caps.workspace.codeLens = { refreshSupport = true }
  caps.workspace.inlayHint = { refreshSupport = true }
  caps.window = caps.window or {}
  caps.window.workDoneProgress = true
  caps.textDocument = caps.textDocument or {}
  caps.textDocument.inlayHint = caps.textDocument.inlayHint or { dynamicRegistration = false }
  return caps
end

local function set_keymaps(bufnr)
  local function map(lhs, rhs, desc)
    vim.api.nvim_buf_set_keymap(bufnr, 'n', lhs, rhs, { noremap = true, silent = true, desc = desc })
  end
  map('K', '<cmd>lua vim.lsp.buf.hover()<CR>', 'WaveASM hover')
  map('gd', '<cmd>lua vim.lsp.buf.definition()<CR>', 'WaveASM definition')
  map('<leader>wa', '<cmd>WaveasmAssembly<CR>', 'WaveASM assembly')
  map('<leader>ws', '<cmd>WaveasmSchedule builtin<CR>', 'WaveASM schedule loop')
  map('<leader>wl', '<cmd>WaveasmSchedule llm<CR>', 'WaveASM schedule loop (LLM)')
  map('<leader>wm', '<cmd>WaveasmMetrics<CR>', 'WaveASM metrics')
  map('<leader>wc', '<cmd>lua vim.lsp.buf.code_action()<CR>', 'WaveASM code actions')
end

-- Completion through the built-in client's omnifunc. Neovim 0.7-0.9
-- insert the item's text from the start of the keyword under the cursor,
-- so `.`, `%`, `!` and `#` are keyword characters here: the whole
-- `waveasm.v_add` or `%a_addr` is replaced, as the server's edit says.
local function enable_completion(bufnr)
  vim.bo[bufnr].omnifunc = 'v:lua.vim.lsp.omnifunc'
  vim.api.nvim_buf_call(bufnr, function()
    vim.opt_local.iskeyword:append({ '46', '37', '33', '35' })
  end)
end

local function on_attach(client, bufnr)
  if M.config.keymaps then
    set_keymaps(bufnr)
  end
  if M.config.completion then
    enable_completion(bufnr)
  end
  if M.config.hints then
    hints.enable(client, bufnr)
  end
  refresh_codelens(bufnr)
  if M.config.user_on_attach then
    M.config.user_on_attach(client, bufnr)
  end
end

local function root_dir(bufnr)
  local file = vim.api.nvim_buf_get_name(bufnr)
  local dir = vim.fn.fnamemodify(file ~= '' and file or vim.fn.getcwd(), ':p:h')
  local git = vim.fn.finddir('.git', dir .. ';')
  if git ~= '' then
    return vim.fn.fnamemodify(git, ':p:h:h')
  end
  return dir
end

local client_ids = {} -- root_dir -> client id (Neovim 0.7 has no vim.lsp.start)

--- Starts (or reuses) the server for a buffer and attaches it.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if M.client(bufnr) then
    return
  end
  local cmd = M.server_cmd(bufnr)
  if not cmd then
    if not notified_missing then
      notified_missing = true
      vim.notify(
        'waveasm: language server not found (build/bin/waveasm-lsp above the file or waveasm-lsp on PATH); '
          .. "build it with 'ninja -C build waveasm-lsp' or pass setup{cmd = {...}}",
        vim.log.levels.ERROR
      )
    end
    return
  end
  local root = root_dir(bufnr)
  local config = {
    name = 'waveasm',
    cmd = cmd,
    root_dir = root,
    init_options = as_object(M.config.settings),
    -- Sent as workspace/didChangeConfiguration after initialize; the
    -- server accepts the "waveasm" section.
    settings = { waveasm = as_object(M.config.settings) },
    capabilities = capabilities(),
    handlers = {
      ['workspace/codeLens/refresh'] = on_codelens_refresh,
      ['workspace/inlayHint/refresh'] = on_inlay_hint_refresh,
    },
    on_attach = on_attach,
    on_exit = function(code, signal)
      client_ids[root] = nil
      if code ~= 0 then
        vim.schedule(function()
          vim.notify(('waveasm: language server exited (code %d, signal %d)'):format(code, signal), vim.log.levels.WARN)
        end)
      end
    end,
  }
  if vim.lsp.start then
    -- 0.8+: reuses the client with the same name and root.
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  local id = client_ids[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(config)
    if not id then
      vim.notify('waveasm: could not start ' .. table.concat(cmd, ' '), vim.log.levels.ERROR)
      return
    end
    client_ids[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

--- Pushes new server settings (merged into the current ones) to every
--- running waveasm client.
function M.configure(settings)
  M.config.settings = vim.tbl_deep_extend('force', M.config.settings or {}, settings or {})
  for _, client in ipairs(clients({ name = 'waveasm' })) do
    M.notify(client, 'workspace/didChangeConfiguration', { settings = { waveasm = as_object(M.config.settings) } })
  end
end

--- Code actions at a position (0-based line, UTF-16 character), calling
--- `callback(err, actions)` with the server's list normalized to a table
--- (never nil). The built-in vim.lsp.buf.code_action() is the interactive
--- way; this serves commands and tests.
function M.code_actions(bufnr, position, callback)
  local client = M.client(bufnr)
  if not client then
    return callback('no waveasm client', {})
  end
  -- The LSP form of the diagnostics on that line (kept by vim.diagnostic
  -- in user_data.lsp).
  local diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr, { lnum = position.line })) do
    if d.user_data and d.user_data.lsp then
      table.insert(diagnostics, d.user_data.lsp)
    end
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = position, ['end'] = position },
    context = { diagnostics = diagnostics },
  }
  M.request(client, 'textDocument/codeAction', params, function(err, result)
    local actions = {}
    for _, action in ipairs(type(result) == 'table' and result or {}) do
      table.insert(actions, action)
    end
    callback(err, actions)
  end, bufnr)
end

--- :WaveasmSchedule [builtin|llm]: schedule the loop around the cursor via
--- workspace/executeCommand waveasm.scheduleLoop; the server applies the
--- edit (workspace/applyEdit) and answers with the metric diff.
function M.schedule(strategy, callback)
  strategy = (strategy == nil or strategy == '') and 'builtin' or strategy
  if strategy ~= 'builtin' and strategy ~= 'llm' then
    return vim.notify("waveasm: strategy must be 'builtin' or 'llm'", vim.log.levels.ERROR)
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return vim.notify('waveasm: no language server for this buffer', vim.log.levels.WARN)
  end
  local pos = vim.lsp.util.make_position_params(0, client.offset_encoding).position
  local params = {
    command = 'waveasm.scheduleLoop',
    arguments = { { uri = vim.uri_from_bufnr(bufnr), position = pos, strategy = strategy } },
  }
  vim.notify(('waveasm: scheduling the loop (%s)...'):format(strategy))
  M.request(client, 'workspace/executeCommand', params, function(err, result)
    local message, level
    if err then
      message, level = 'waveasm: scheduling failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR
    elseif type(result) == 'table' and result.applied then
      message, level = 'waveasm: schedule applied: ' .. (result.summary or ''), vim.log.levels.INFO
    else
      message = 'waveasm: schedule not applied'
      if type(result) == 'table' and result.summary then
        message = message .. ': ' .. result.summary
      end
      level = vim.log.levels.WARN
    end
    vim.notify(message, level)
    if callback then
      callback(err, result)
    end
  end, bufnr)
end

M.last_metrics = {} -- bufnr -> metrics result

local function program_at(bufnr, line)
  local name, first
  for i, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local n = text:match('^%s*waveasm%.program%s+@([%w_%$%.%-]+)')
    if n then
      first = first or n
      if i - 1 <= line then
        name = n
      else
        break
      end
    end
  end
  return name or first
end

--- "9440 cyc · 52 VGPR allocated · 4 waves" for the program under the cursor, from the
--- last :WaveasmMetrics (for a statusline).
function M.statusline()
  local bufnr = vim.api.nvim_get_current_buf()
  local metrics = M.last_metrics[bufnr]
  if not metrics or not metrics.programs then
    return ''
  end
  local name = program_at(bufnr, vim.api.nvim_win_get_cursor(0)[1] - 1)
  local chosen = metrics.programs[1]
  for _, p in ipairs(metrics.programs) do
    if p.name == name then
      chosen = p
    end
  end
  if not chosen then
    return ''
  end
  return ('%d cyc · %d VGPR allocated · %d waves'):format(chosen.est_cycles, chosen.peak_vgpr, chosen.occupancy)
end

--- :WaveasmMetrics: the metrics of every program in a floating window.
function M.metrics(callback)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return vim.notify('waveasm: no language server for this buffer', vim.log.levels.WARN)
  end
  M.request(client, 'waveasm/metrics', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, function(err, result)
    if err then
      vim.notify('waveasm: no metrics: ' .. (err.message or ''), vim.log.levels.ERROR)
    else
      M.last_metrics[bufnr] = result
      local lines = {}
      for _, p in ipairs(result.programs or {}) do
        table.insert(lines, ('@%s: %d issue slots, %d instructions'):format(p.name, p.est_cycles, p.total_instructions))
        table.insert(
          lines,
          ('  allocated VGPR %d  SGPR %d  AGPR %d  occupancy %s'):format(
            p.peak_vgpr,
            p.peak_sgpr,
            p.peak_agpr,
            p.occupancy_limit and p.occupancy_limit.summary or (p.occupancy .. ' waves')
          )
        )
        for i, l in ipairs(p.loops or {}) do
          table.insert(
            lines,
            ('  loop %d: %d slots/iter (bound %d, %s), critical path %d'):format(
              i - 1,
              l.est_cycles_per_iter,
              l.lower_bound_cycles,
              l.busiest_unit,
              l.critical_path
            )
          )
        end
      end
      vim.lsp.util.open_floating_preview(lines, 'text', { border = 'single' })
    end
    if callback then
      callback(err, result)
    end
  end, bufnr)
end

local function define_commands()
  vim.cmd([[
    command! -nargs=? -complete=customlist,v:lua.require'waveasm'.complete_strategy WaveasmSchedule lua require('waveasm').schedule(<q-args>)
    command! WaveasmAssembly lua require('waveasm.assembly').open()
    command! WaveasmMetrics lua require('waveasm').metrics()
    command! WaveasmRestart lua require('waveasm').restart()
    command! -nargs=? WaveasmPipeline lua require('waveasm.why').pipeline(<q-args>)
    command! WaveasmLiveAt lua require('waveasm.why').live_at()
    command! WaveasmLivePeak lua require('waveasm.why').live_peak()
    command! WaveasmTimeline lua require('waveasm.timeline').open()
  ]])
end

function M.complete_strategy()
  return { 'builtin', 'llm' }
end

function M.restart()
  for _, client in ipairs(clients({ name = 'waveasm' })) do
    if method_calls then
      client:stop()
    else
      client.stop()
    end
  end
  client_ids = {}
  vim.defer_fn(function()
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == 'waveasm' then
        M.attach(bufnr)
      end
    end
  end, 200)
end

function M.setup(opts)
  opts = opts or {}
  M.config = vim.tbl_deep_extend('force', M.config, opts)
  M.config.user_on_attach = opts.on_attach
  define_commands()
  local group = vim.api.nvim_create_augroup('waveasm', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = group,
    pattern = '*.mlir',
    callback = function(args)
      if M.is_waveasm(args.buf) then
        vim.bo[args.buf].filetype = 'waveasm'
      end
    end,
  })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'waveasm',
    callback = function(args)
      vim.bo[args.buf].commentstring = '// %s'
      M.attach(args.buf)
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave' }, {
    group = group,
    pattern = '*.mlir',
    callback = function(args)
      if M.client(args.buf) then
        refresh_codelens(args.buf)
      end
    end,
  })
  -- Buffers already open when setup runs.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and M.is_waveasm(bufnr) then
      vim.bo[bufnr].filetype = 'waveasm'
    end
  end
end

return M
