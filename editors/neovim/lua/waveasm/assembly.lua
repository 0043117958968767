-- :WaveasmAssembly: the server's emitted assembly (waveasm/assembly) in a
-- scratch buffer beside the source, reloaded whenever the server reports a
-- finished pipeline, with cursor sync in both directions through the
-- request's line map ({line, range}: which op produced each asm line).

local M = {}

M.ns = vim.api.nvim_create_namespace('waveasm_assembly')
vim.api.nvim_set_hl(0, 'WaveasmAsmSync', { default = true, link = 'Visual' })

-- source bufnr -> {buf = asm bufnr, map = {...}, version = n}
M.views = {}

local function client_of(bufnr)
  return require('waveasm').client(bufnr)
end

local function set_text(buf, text)
  local lines = vim.split(text, '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
end

--- The asm lines the op(s) on IR line `line` produced (innermost op wins).
function M.asm_lines_for(map, line)
  local best, lines = math.huge, {}
  for _, entry in ipairs(map or {}) do
    local r = entry.range
    if r.start.line <= line and line <= r['end'].line then
      local size = r['end'].line - r.start.line
      if size < best then
        best, lines = size, {}
      end
      if size == best then
        table.insert(lines, entry.line)
      end
    end
  end
  table.sort(lines)
  return lines
end

function M.ir_range_for(map, asm_line)
  for _, entry in ipairs(map or {}) do
    if entry.line == asm_line then
      return entry.range
    end
  end
  return nil
end

local function window_of(buf)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
  return nil
end

--- Source cursor -> highlight (and scroll to) its asm lines.
function M.sync_from_source(src)
  local view = M.views[src]
  if not view or not vim.api.nvim_buf_is_valid(view.buf) then
    return
  end
  local line = vim.api.nvim_win_get_cursor(0)[1] - 1
  local lines = M.asm_lines_for(view.map, line)
  vim.api.nvim_buf_clear_namespace(view.buf, M.ns, 0, -1)
  for _, l in ipairs(lines) do
    vim.api.nvim_buf_add_highlight(view.buf, M.ns, 'WaveasmAsmSync', l, 0, -1)
  end
  local win = window_of(view.buf)
  if win and #lines > 0 then
    vim.api.nvim_win_set_cursor(win, { lines[1] + 1, 0 })
  end
end

--- Asm cursor -> highlight (and scroll to) the op that produced the line.
function M.sync_from_asm(asm)
  for src, view in pairs(M.views) do
    if view.buf == asm then
      local range = M.ir_range_for(view.map, vim.api.nvim_win_get_cursor(0)[1] - 1)
      vim.api.nvim_buf_clear_namespace(src, M.ns, 0, -1)
      if range then
        for l = range.start.line, range['end'].line do
          vim.api.nvim_buf_add_highlight(src, M.ns, 'WaveasmAsmSync', l, 0, -1)
        end
        local win = window_of(src)
        if win then
          vim.api.nvim_win_set_cursor(win, { range.start.line + 1, 0 })
        end
      end
      return
    end
  end
end

--- Re-requests the assembly of `src` if its view is open.
function M.refresh(src, callback)
  local view = M.views[src]
  if not view then
    return
  end
  if not vim.api.nvim_buf_is_valid(view.buf) then
    M.views[src] = nil
    return
  end
  local client = client_of(src)
  if not client then
    return
  end
  require('waveasm').request(client, 'waveasm/assembly', { textDocument = { uri = vim.uri_from_bufnr(src) } }, function(err, result)
    if not vim.api.nvim_buf_is_valid(view.buf) then
      return
    end
    if err then
      -- Say why (e.g. registers ran out) instead of showing stale text.
      view.map = {}
      local lines = {}
      for _, l in ipairs(vim.split(err.message or 'assembly failed', '\n', { plain = true })) do
        table.insert(lines, '; ' .. l)
      end
      set_text(view.buf, table.concat(lines, '\n'))
    else
      view.map = result.map
      view.version = result.version
      set_text(view.buf, result.text)
    end
    if callback then
      callback(err, result)
    end
  end, src)
end

--- Opens (or focuses) the assembly view of the current buffer.
function M.open(callback)
  local src = vim.api.nvim_get_current_buf()
  if not client_of(src) then
    return vim.notify('waveasm: no language server for this buffer', vim.log.levels.WARN)
  end
  local view = M.views[src]
  if not view or not vim.api.nvim_buf_is_valid(view.buf) then
    local buf = vim.api.nvim_create_buf(false, true)
    local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(src), ':t:r')
    vim.api.nvim_buf_set_name(buf, ('waveasm://%s.s'):format(name ~= '' and name or src))
    vim.bo[buf].buftype = 'nofile'
    vim.bo[buf].bufhidden = 'hide'
    vim.bo[buf].swapfile = false
    vim.bo[buf].filetype = 'asm'
    vim.bo[buf].modifiable = false
    view = { buf = buf, map = {} }
    M.views[src] = view
    local group = vim.api.nvim_create_augroup('waveasm_assembly_' .. src, { clear = true })
    vim.api.nvim_create_autocmd('CursorMoved', {
      group = group,
      buffer = src,
      callback = function()
        M.sync_from_source(src)
      end,
    })
    vim.api.nvim_create_autocmd('CursorMoved', {
      group = group,
      buffer = buf,
      callback = function()
        M.sync_from_asm(buf)
      end,
    })
  end
  if not window_of(view.buf) then
    local win = vim.api.nvim_get_current_win()
    vim.cmd('vsplit')
    vim.api.nvim_win_set_buf(0, view.buf)
    vim.api.nvim_set_current_win(win)
  end
  M.refresh(src, callback)
end

return M
