-- Seeing why: the program after each pass and the values live at a point.
--   :WaveasmPipeline [N]  pick a snapshot of waveasm/pipelineSnapshots (or
--                         give its index) and diff it against the snapshot
--                         before it, in a new tab (two scratch buffers,
--                         :diffthis)
--   :WaveasmLiveAt        the values live after the op under the cursor
--   :WaveasmLivePeak      jump to the VGPR pressure peak, with its values
local M = {}

local function current_client()
  local waveasm = require('waveasm')
  local bufnr = vim.api.nvim_get_current_buf()
  local client = waveasm.client(bufnr)
  if not client then
    vim.notify('waveasm: no language server for this buffer', vim.log.levels.WARN)
  end
  return waveasm, client, bufnr
end

--- "VGPR 38→36 · instrs -4" between two snapshots' metrics.
function M.delta(before, after)
  if not before then
    return ('VGPR %d · SGPR %d · %d instrs · %d slots'):format(
      after.peak_vgpr, after.peak_sgpr, after.instructions, after.est_cycles)
  end
  local parts = {}
  local function add(label, key)
    if before[key] ~= after[key] then
      table.insert(parts, ('%s %d→%d'):format(label, before[key], after[key]))
    end
  end
  add('VGPR', 'peak_vgpr')
  add('SGPR', 'peak_sgpr')
  add('AGPR', 'peak_agpr')
  add('instrs', 'instructions')
  add('slots', 'est_cycles')
  return #parts > 0 and table.concat(parts, ' · ') or 'metrics unchanged'
end

--- One line per snapshot for the picker.
function M.describe(result)
  local items = {}
  for i, s in ipairs(result.snapshots or {}) do
    local prev = i > 1 and result.snapshots[i - 1].metrics or nil
    local status = s.failed and 'FAILED' or (i == 1 or s.changed) and '' or '(unchanged)'
    table.insert(items, ('%2d %-40s %s %s'):format(i - 1, s.pass, status, M.delta(prev, s.metrics)))
  end
  return items
end

--- The text of snapshot `index` (fetched by index: the list may carry no
--- texts, see textOnDemand).
local function fetch_text(waveasm, client, bufnr, index, callback)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, index = index }
  waveasm.request(client, 'waveasm/pipelineSnapshots', params, function(err, result)
    callback(err, result)
  end, bufnr)
end

local function scratch(name, text)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].bufhidden = 'wipe'
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text or '', '\n', { plain = true }))
  vim.bo[buf].modifiable = false
  -- Syntax only: the waveasm filetype would start the server on it.
  vim.bo[buf].syntax = 'waveasm'
  pcall(vim.api.nvim_buf_set_name, buf, name)
  return buf
end

--- Opens snapshot `index` against the one before it (the input alone).
--- `callback(err, {before = buf, after = buf})` when both are shown.
function M.open_snapshot(index, callback)
  local waveasm, client, bufnr = current_client()
  if not client then
    return
  end
  local function done(err, bufs)
    if err then
      vim.notify('waveasm: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
    if callback then
      callback(err, bufs)
    end
  end
  fetch_text(waveasm, client, bufnr, index, function(err, after)
    if err then
      return done(err)
    end
    local function show(before)
      vim.cmd('tabnew')
      local bufs = {}
      if before then
        bufs.before = scratch(('waveasm-pipeline://%d-%s'):format(before.index, before.pass), before.text)
        vim.api.nvim_win_set_buf(0, bufs.before)
        vim.cmd('diffthis')
        vim.cmd('vsplit')
      end
      bufs.after = scratch(('waveasm-pipeline://%d-%s'):format(after.index, after.pass), after.text)
      vim.api.nvim_win_set_buf(0, bufs.after)
      if before then
        vim.cmd('diffthis')
      end
      done(nil, bufs)
    end
    if index == 0 then
      return show(nil)
    end
    fetch_text(waveasm, client, bufnr, index - 1, function(err2, before)
      if err2 then
        return done(err2)
      end
      show(before)
    end)
  end)
end

--- :WaveasmPipeline [N]
function M.pipeline(arg, callback)
  local waveasm, client, bufnr = current_client()
  if not client then
    return
  end
  local index = tonumber(arg or '')
  if index then
    return M.open_snapshot(index, callback)
  end
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  waveasm.request(client, 'waveasm/pipelineSnapshots', params, function(err, result)
    if err then
      vim.notify('waveasm: no pipeline snapshots: ' .. (err.message or ''), vim.log.levels.ERROR)
      return
    end
    if result.stale then
      vim.notify('waveasm: stale snapshots: ' .. (result.message or ''), vim.log.levels.WARN)
    end
    local items = M.describe(result)
    if #items == 0 then
      return
    end
    vim.ui.select(items, { prompt = 'Pipeline snapshot (diffed against the previous one)' }, function(_, choice)
      if choice then
        M.open_snapshot(choice - 1, callback)
      end
    end)
  end, bufnr)
end

--- A response handler: an error is shown, a result goes to `on_result`;
--- then `callback(err, result)` (the tests wait on it).
local function respond(on_result, callback)
  return function(err, result)
    if err then
      vim.notify('waveasm: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    else
      on_result(result)
    end
    if callback then
      callback(err, result)
    end
  end
end

local function value_lines(result)
  local lines = {}
  for _, v in ipairs(result.values or {}) do
    local last = v.lastUse and ('last use line %d'):format(v.lastUse.start.line + 1) or 'no use'
    table.insert(lines, ('%-12s %s x%d%s  def line %d, %s, %d ops'):format(
      v.name, v.class, v.width, v.register and (' ' .. v.register) or '',
      v.definition.start.line + 1, last, v.length))
  end
  if #lines == 0 then
    lines = { 'nothing live here' }
  end
  return lines
end

--- :WaveasmLiveAt: a floating list of the values live after the op under
--- the cursor.
function M.live_at(callback)
  local waveasm, client, bufnr = current_client()
  if not client then
    return
  end
  local cursor = vim.api.nvim_win_get_cursor(0)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = cursor[1] - 1, character = cursor[2] },
  }
  waveasm.request(client, 'waveasm/liveAt', params, respond(function(result)
    vim.lsp.util.open_floating_preview(value_lines(result), 'text', { border = 'single' })
  end, callback), bufnr)
end

--- :WaveasmLivePeak: the cursor to the VGPR pressure peak and the values
--- live there.
function M.live_peak(callback)
  local waveasm, client, bufnr = current_client()
  if not client then
    return
  end
  local params = { command = 'waveasm.showLivePeak', arguments = { { uri = vim.uri_from_bufnr(bufnr) } } }
  waveasm.request(client, 'workspace/executeCommand', params, respond(function(result)
    if result == nil or result == vim.NIL then
      return vim.notify('waveasm: no VGPR pressure peak', vim.log.levels.INFO)
    end
    local start = result.op.range.start
    vim.api.nvim_win_set_cursor(0, { start.line + 1, start.character })
    local lines = { ('VGPR pressure peak: %d'):format(result.peak) }
    vim.list_extend(lines, value_lines(result))
    vim.lsp.util.open_floating_preview(lines, 'text', { border = 'single' })
  end, callback), bufnr)
end

return M
