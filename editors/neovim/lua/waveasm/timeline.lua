-- The schedule as text: :WaveasmTimeline shows waveasm/schedule's text
-- picture (the server renders it, like `llvm-mca -timeline`: one line per
-- instruction with slot columns, the live VGPRs as a bar) of the loop or
-- program at the cursor in a scratch split. It is redrawn when the server
-- finishes a pipeline (workspace/codeLens/refresh), and <CR> on a row jumps
-- to its op. (:WaveasmSchedule is the scheduling command, hence the name.)
local M = {}

-- source bufnr -> {buf = timeline buffer, position = {line, character}}
local open_views = {}

local function scratch_lines(buf, text)
  vim.bo[buf].modifiable = true
  local lines = vim.split((text or ''):gsub('\n$', ''), '\n', { plain = true })
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
end

--- 1-based buffer line of the first row: after the table's header line.
function M.first_row_line(text)
  local n = 0
  for line in ((text or '') .. '\n'):gmatch('([^\n]*)\n') do
    n = n + 1
    if line:match('^%s*line%s+instruction') then
      return n + 1
    end
  end
  return nil
end

local function request(source, position, callback)
  local waveasm = require('waveasm')
  local client = waveasm.client(source)
  if not client then
    return callback({ message = 'no language server for this buffer' })
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(source) },
    position = position,
    render = 'text',
  }
  waveasm.request(client, 'waveasm/schedule', params, callback, source)
end

local function show(source, view, result)
  if not vim.api.nvim_buf_is_valid(view.buf) then
    return
  end
  view.result = result
  view.first_row = M.first_row_line(result.text)
  scratch_lines(view.buf, result.text)
end

--- <CR> in the timeline: the row's op in the source window.
local function jump(source)
  local view = open_views[source]
  if not view or not view.result or not view.first_row then
    return
  end
  local row = view.result.rows[vim.api.nvim_win_get_cursor(0)[1] - view.first_row + 1]
  if not row or type(row.at) ~= 'table' then
    return
  end
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == source then
      vim.api.nvim_set_current_win(win)
      vim.api.nvim_win_set_cursor(win, { row.at[1] + 1, row.at[2] })
      return
    end
  end
end

--- :WaveasmTimeline. `callback(err, buf)` once the text is shown.
function M.open(callback)
  local source = vim.api.nvim_get_current_buf()
  local cursor = vim.api.nvim_win_get_cursor(0)
  local position = { line = cursor[1] - 1, character = cursor[2] }
  request(source, position, function(err, result)
    if err or not result then
      vim.notify('waveasm: no schedule: ' .. ((err and err.message) or 'no answer'), vim.log.levels.ERROR)
      if callback then
        callback(err or { message = 'no answer' })
      end
      return
    end
    local view = open_views[source]
    if not view or not vim.api.nvim_buf_is_valid(view.buf) then
      local buf = vim.api.nvim_create_buf(false, true)
      vim.bo[buf].bufhidden = 'wipe'
      pcall(vim.api.nvim_buf_set_name, buf, 'waveasm-timeline://' .. vim.fn.fnamemodify(vim.api.nvim_buf_get_name(source), ':t'))
      vim.api.nvim_buf_set_keymap(buf, 'n', '<CR>', '', {
        noremap = true,
        silent = true,
        callback = function()
          jump(source)
        end,
      })
      view = { buf = buf }
      open_views[source] = view
      vim.cmd('botright new')
      vim.api.nvim_win_set_buf(0, buf)
      vim.wo.wrap = false
    end
    view.position = position
    show(source, view, result)
    if callback then
      callback(nil, view.buf)
    end
  end)
end

--- The pipeline finished for `source`: redraw its open timeline.
function M.refresh(source, callback)
  local view = open_views[source]
  if not view or not vim.api.nvim_buf_is_valid(view.buf) then
    open_views[source] = nil
    return
  end
  request(source, view.position, function(err, result)
    if not err and result then
      show(source, view, result)
    end
    if callback then
      callback(err, view.buf)
    end
  end)
end

return M
