#!/usr/bin/env bash
# Quick start, main job: install what is missing, build, then run the
# headless check (the language server's analysis, as CI would use it) on a
# bundled GEMM kernel: diagnostics and lints, the metrics table and the
# per-instruction latency/pressure table.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

exec "$build/bin/waveasm-lsp" check "${@:-$root/examples/gemm_f16_double_buffer.mlir}"
