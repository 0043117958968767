-- What the headless Neovim tests share (nvim_no_settings.lua,
-- nvim_e2e.lua): check() reports and counts, run() calls the test and
-- leaves Neovim with status 0 when every check passed, 1 otherwise.
local M = { failures = 0 }

function M.check(ok, what)
  if ok then
    io.stdout:write('ok: ' .. what .. '\n')
  else
    M.failures = M.failures + 1
    io.stderr:write('FAIL: ' .. what .. '\n')
  end
  return ok
end

function M.run(body)
  local ok, err = pcall(body)
  if not ok then
    M.failures = M.failures + 1
    io.stderr:write('FAIL: error: ' .. tostring(err) .. '\n')
  end
  vim.cmd(M.failures == 0 and 'qall!' or 'cquit! 1')
end

return M
