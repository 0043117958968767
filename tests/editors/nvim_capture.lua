-- A text capture of what the headless Neovim shows: buffer lines with their
-- sign column (diagnostic severity), end-of-line virtual text from every
-- namespace (inlay hints, diagnostic messages) and inline code lenses, plus
-- the assembly split's lines around the synced cursor. Written for the
-- README's screenshot; the e2e test calls it when WAVEASM_NVIM_CAPTURE is set.
local M = {}

local SIGNS = { 'E', 'W', 'I', 'H' }

-- Every namespace, named or not (vim.diagnostic draws its virtual text in
-- anonymous ones): namespace ids are small consecutive integers.
local function namespaces()
  local ids = {}
  for id = 1, 400 do
    if pcall(vim.api.nvim_buf_get_extmarks, 0, id, 0, 0, {}) then
      table.insert(ids, id)
    end
  end
  return ids
end

local function eol_texts(bufnr, line, ids)
  local texts = {}
  for _, ns in ipairs(ids) do
    local marks = vim.api.nvim_buf_get_extmarks(bufnr, ns, { line, 0 }, { line, -1 }, { details = true })
    for _, m in ipairs(marks) do
      local chunks = {}
      for _, chunk in ipairs(m[4].virt_text or {}) do
        table.insert(chunks, chunk[1])
      end
      local text = table.concat(chunks, '')
      if text ~= '' then
        table.insert(texts, (text:match('^%s') and '' or '  ') .. text)
      end
    end
  end
  return table.concat(texts, '')
end

function M.render(bufnr, first, last)
  local signs = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local s = signs[d.lnum]
    if not s or d.severity < s then
      signs[d.lnum] = d.severity
    end
  end
  local out = {}
  local ids = namespaces()
  local lines = vim.api.nvim_buf_get_lines(bufnr, first, last, false)
  for i, text in ipairs(lines) do
    local lnum = first + i - 1
    local sign = signs[lnum] and SIGNS[signs[lnum]] or ' '
    table.insert(out, ('%s %4d │ %s%s'):format(sign, lnum + 1, text, eol_texts(bufnr, lnum, ids)))
  end
  return out
end

function M.write(bufnr, path, around, actions)
  local out = { ('── %s ──'):format(vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':t')) }
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if l:find('waveasm.loop', 1, true) then
      vim.list_extend(out, M.render(bufnr, i - 1, i + 1))
      table.insert(out, '       ┆')
      break
    end
  end
  local first = math.max(0, around - 12)
  vim.list_extend(out, M.render(bufnr, first, first + 22))
  local view = require('waveasm.assembly').views[bufnr]
  if view and vim.api.nvim_buf_is_valid(view.buf) then
    local lines = require('waveasm.assembly').asm_lines_for(view.map, around)
    local center = lines[1] or 0
    table.insert(out, ('── :WaveasmAssembly (%s), synced to line %d ──'):format(vim.api.nvim_buf_get_name(view.buf), around + 1))
    local asm = vim.api.nvim_buf_get_lines(view.buf, math.max(0, center - 3), center + 5, false)
    for i, l in ipairs(asm) do
      local lnum = math.max(0, center - 3) + i - 1
      table.insert(out, ('%s %4d │ %s'):format(vim.tbl_contains(lines, lnum) and '▶' or ' ', lnum + 1, l))
    end
  end
  if actions and #actions > 0 then
    -- What vim.lsp.buf.code_action() offers on the MFMA line (0.7's prompt).
    table.insert(out, ('── code actions at line %d ──'):format(around + 1))
    for i, a in ipairs(actions) do
      table.insert(out, ('%d. %s'):format(i, a.title))
    end
  end
  vim.fn.writefile(out, path)
end

return M
