#!/usr/bin/env bash
# Runs tests/editors/nvim_no_settings.lua and nvim_e2e.lua in Debian's headless Neovim with the
# plugin of this tree on the runtimepath. Usage: neovim.sh WAVEASM_LSP
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export WAVEASM_LSP="$(realpath "${1:?usage: neovim.sh path/to/waveasm-lsp}")"
export WAVEASM_EXAMPLE="${WAVEASM_EXAMPLE:-$repo/examples/gemm_f16_32x32x8_global.mlir}"
if ! command -v nvim >/dev/null 2>&1; then
  echo "neovim.sh: SKIP: nvim is not installed (scripts/install-deps.sh installs neovim)" >&2
  exit 77
fi
# A private HOME and XDG dirs: no user config, shada or state leaks in.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" \
  XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache"
# Neovim's timeout guard: the test's own waits end long before this.
# First setup{} without settings, then the full session.
for script in nvim_no_settings.lua nvim_e2e.lua; do
  timeout 240 nvim --headless -u NONE -i NONE -n \
    --cmd "set rtp^=$repo/editors/neovim" \
    -c "luafile $here/$script"
done
