-- require('waveasm').setup{} without `settings`: the server must get an
-- object (an empty Lua table would encode as `[]`) and warn about nothing.
-- tests/editors/neovim.sh runs it before nvim_e2e.lua, with the same
-- environment. Exits 0 when every check passed, 1 otherwise.

local TIMEOUT = 60000
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)')
local harness = dofile(here .. 'nvim_harness.lua')
local check = harness.check

local function run()
  local server = assert(os.getenv('WAVEASM_LSP'), 'WAVEASM_LSP is not set')
  local example = assert(os.getenv('WAVEASM_EXAMPLE'), 'WAVEASM_EXAMPLE is not set')
  local messages = {}
  vim.lsp.handlers['window/showMessage'] = function(_, result)
    table.insert(messages, result and result.message or '')
  end

  local waveasm = require('waveasm')
  waveasm.setup({ cmd = { server } })
  vim.cmd('edit ' .. vim.fn.fnameescape(example))
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.wait(TIMEOUT, function()
    return waveasm.client(bufnr) ~= nil
  end, 50), 'the client starts without settings')
  local client = waveasm.client(bufnr)
  if not client then
    return
  end
  -- A request answered after initialize and the configuration push: the
  -- server writes in order, so any settings warning has arrived by now.
  local answered = false
  waveasm.request(client, 'textDocument/documentSymbol', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  }, function()
    answered = true
  end, bufnr)
  check(vim.wait(TIMEOUT, function()
    return answered
  end, 50), 'the server answers')
  vim.wait(200)
  check(#messages == 0, 'no settings warning (got: ' .. table.concat(messages, ' | ') .. ')')
  waveasm.configure({})
  answered = false
  waveasm.request(client, 'textDocument/documentSymbol', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  }, function()
    answered = true
  end, bufnr)
  vim.wait(TIMEOUT, function()
    return answered
  end, 50)
  vim.wait(200)
  check(#messages == 0, 'configure{} sends an object too (got: ' .. table.concat(messages, ' | ') .. ')')
end

harness.run(run)
