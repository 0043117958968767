-- Inlay hints (latency/stall, live registers, Conductor tags): Neovim's
-- own on 0.10+, end-of-line virtual text before that. The server asks for a
-- refresh (workspace/inlayHint/refresh) whenever its background pipeline
-- has new numbers; init.lua routes that request here.

local M = {}

M.ns = vim.api.nvim_create_namespace('waveasm_inlay_hints')
vim.api.nvim_set_hl(0, 'WaveasmInlayHint', { default = true, link = 'Comment' })

function M.native()
  return vim.fn.has('nvim-0.10') == 1 and vim.lsp.inlay_hint ~= nil and type(vim.lsp.inlay_hint.enable) == 'function'
end

local function label_text(label)
  if type(label) == 'string' then
    return label
  end
  local parts = {}
  for _, part in ipairs(label or {}) do
    table.insert(parts, part.value or '')
  end
  return table.concat(parts)
end

--- Draws `hints` (the LSP InlayHint list) as one virtual-text chunk per
--- line, in column order: "  ‹I3 · lat 8 · v 52 · s 20›".
function M.render(bufnr, hints)
  vim.api.nvim_buf_clear_namespace(bufnr, M.ns, 0, -1)
  local by_line = {}
  for _, hint in ipairs(hints or {}) do
    local line = hint.position.line
    by_line[line] = by_line[line] or {}
    table.insert(by_line[line], hint)
  end
  local count = vim.api.nvim_buf_line_count(bufnr)
  for line, list in pairs(by_line) do
    if line < count then
      table.sort(list, function(a, b)
        return a.position.character < b.position.character
      end)
      local texts = {}
      for _, hint in ipairs(list) do
        table.insert(texts, label_text(hint.label))
      end
      vim.api.nvim_buf_set_extmark(bufnr, M.ns, line, 0, {
        virt_text = { { '  ‹' .. table.concat(texts, ' · ') .. '›', 'WaveasmInlayHint' } },
        virt_text_pos = 'eol',
        hl_mode = 'combine',
      })
    end
  end
end

--- Requests the hints of the whole buffer and draws them (pre-0.10 path).
function M.refresh(client, bufnr)
  if M.native() or not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local last = vim.api.nvim_buf_line_count(bufnr)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = last, character = 0 } },
  }
  local version = vim.lsp.util.buf_versions[bufnr]
  require('waveasm').request(client, 'textDocument/inlayHint', params, function(err, result)
    if err or not vim.api.nvim_buf_is_loaded(bufnr) then
      return
    end
    -- An answer for text the user has edited since would misplace hints;
    -- the next refresh request brings the current ones.
    if vim.lsp.util.buf_versions[bufnr] ~= version then
      return
    end
    M.render(bufnr, result)
  end, bufnr)
end

function M.enable(client, bufnr)
  if M.native() then
    -- 0.10's signature is enable(enable, filter); 0.9 nightlies had
    -- enable(bufnr, enable).
    if not pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr }) then
      pcall(vim.lsp.inlay_hint.enable, bufnr, true)
    end
    return
  end
  M.refresh(client, bufnr)
  -- Edits shift lines; drop stale hints until the server's next refresh.
  vim.api.nvim_buf_attach(bufnr, false, {
    on_lines = function(_, buf, _, first, old_last, new_last)
      if old_last ~= new_last then
        vim.schedule(function()
          if vim.api.nvim_buf_is_loaded(buf) then
            vim.api.nvim_buf_clear_namespace(buf, M.ns, first, -1)
          end
        end)
      end
    end,
  })
end

return M
