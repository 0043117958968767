#!/usr/bin/env bash
# Runs tests/editors/emacs_test.el in batch Emacs with Debian's eglot.
# Usage: emacs.sh WAVEASM_LSP
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export WAVEASM_REPO="$(cd "$here/../.." && pwd)"
export WAVEASM_LSP="$(realpath "${1:?usage: emacs.sh path/to/waveasm-lsp}")"
export WAVEASM_EXAMPLE="${WAVEASM_EXAMPLE:-$WAVEASM_REPO/examples/gemm_f16_32x32x8_global.mlir}"
if ! command -v emacs >/dev/null 2>&1; then
  echo "emacs.sh: SKIP: emacs is not installed (scripts/install-deps.sh installs emacs-nox)" >&2
  exit 77
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
exec timeout 240 emacs --batch -Q -l "$here/emacs_test.el"
