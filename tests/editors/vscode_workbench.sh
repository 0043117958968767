#!/usr/bin/env bash
# The extension in the real VS Code workbench: code-server (VS Code 1.139)
# on 127.0.0.1, driven through playwright-core by Debian's chromium.
#   vscode_workbench.sh VSIX WAVEASM_LSP SCREENSHOT_DIR
# Installs the platform .vsix (linux-x64, the server inside) into a
# temporary profile with no server setting at all, opens a copy of an
# example in a temporary workspace and runs tests/editors/vscode_workbench.js,
# which asserts what a user sees (served by the bundled server) and saves
# screenshots into SCREENSHOT_DIR. WAVEASM_LSP computes what the workbench
# must show, and is the server the setting names in the last step.
# Everything else (settings, extensions, logs, the browser profile) lives in
# one temporary directory that is removed at the end, together with the
# server's process group (the extension host outlives the browser).
#
# Needs the workbench from scripts/install-vscode-workbench.sh (scripts/test.sh
# runs it) and chromium from scripts/install-deps.sh; without them the test
# fails and says so. It never reaches the network.
set -euo pipefail
vsix="${1:?usage: vscode_workbench.sh VSIX WAVEASM_LSP SCREENSHOT_DIR}"
lsp="${2:?usage: vscode_workbench.sh VSIX WAVEASM_LSP SCREENSHOT_DIR}"
shots="${3:?usage: vscode_workbench.sh VSIX WAVEASM_LSP SCREENSHOT_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
example="$root/examples/gemm_f16_32x32x8_global.mlir"

fail() { echo "vscode_workbench.sh: FAIL: $*" >&2; exit 1; }
wb="$("$root/scripts/install-vscode-workbench.sh" --print-dir)" \
  || fail "the VS Code workbench (code-server, playwright-core, Node 24) is not installed; run scripts/install-vscode-workbench.sh"
chromium="$(command -v chromium || true)"
[ -n "$chromium" ] || fail "chromium is not installed (scripts/install-deps.sh installs it)"
[ -f "$vsix" ] || fail "no extension package at $vsix (the test editors-vscode-package builds it)"
[ -x "$lsp" ] || fail "no language server at $lsp"
lsp="$(realpath "$lsp")" vsix="$(realpath "$vsix")"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/vscode-workbench.XXXXXX")"
server_pid=""
cleanup() {
  # code-server, its extension host and waveasm-lsp share one process group.
  if [ -n "$server_pid" ]; then
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 -- "-$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

export PATH="$wb/node-bin:$PATH"
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache"
export TMPDIR="$tmp"
# No extension gallery: its queries would go to the network.
export EXTENSIONS_GALLERY='{"serviceUrl": "http://127.0.0.1:9/gallery", "itemUrl": "http://127.0.0.1:9/item"}'

user_data="$tmp/user-data"
extensions="$tmp/extensions"
workspace="$tmp/workspace"
mkdir -p "$user_data/Machine" "$user_data/User" "$extensions" "$workspace" "$shots"
rm -f "$shots"/*.png
cp "$example" "$workspace/"
# No server setting: the extension must start the server it carries. (The
# server path is machine-scoped: the last step sets it in this file.)
echo '{}' >"$user_data/Machine/settings.json"
cat >"$user_data/User/settings.json" <<'EOF'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "telemetry.telemetryLevel": "off",
  "editor.inlayHints.enabled": "on",
  "editor.minimap.enabled": false,
  "window.commandCenter": false,
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden"
}
EOF

cs=("$wb/node_modules/.bin/code-server" --user-data-dir "$user_data" --extensions-dir "$extensions"
    --disable-telemetry --disable-update-check --disable-workspace-trust)
start=$(date +%s.%N)
"${cs[@]}" --install-extension "$vsix" >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log" >&2; fail "code-server could not install $vsix"; }
# The server as VS Code unpacked it: executable (the zip's mode kept).
bundled=("$extensions"/conductor.waveasm-*/server/waveasm-lsp)
[ -x "${bundled[0]}" ] || fail "no executable server/waveasm-lsp in the installed extension: ${bundled[*]}"
# A copy that cannot start for want of a shared library (its libcurl.so.4
# renamed), for the last step: the loader's own failure, not a script.
python3 - "$lsp" "$tmp/waveasm-lsp-no-curl" <<'PY'
import os, sys
data = open(sys.argv[1], "rb").read()
assert data.count(b"libcurl.so.4\0") >= 1, "the server does not link libcurl.so.4"
open(sys.argv[2], "wb").write(data.replace(b"libcurl.so.4\0", b"libcurl.so.9\0"))
os.chmod(sys.argv[2], 0o755)
PY

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
setsid "${cs[@]}" --auth none --bind-addr "127.0.0.1:$port" --disable-getting-started-override \
  "$workspace" >"$tmp/code-server.log" 2>&1 &
server_pid=$!

# What the server computes for the example, to compare with what the
# workbench draws: the metrics and the instruction table of `check`.
"$lsp" check "$example" >"$tmp/check.txt" || true
"$lsp" check --format json "$example" >"$tmp/check.json" || true

status=0
NODE_PATH="$wb/node_modules" node "$here/vscode_workbench.js" \
  --url "http://127.0.0.1:$port/?folder=$workspace" --chromium "$chromium" --lsp "$lsp" \
  --file "$workspace/$(basename "$example")" --check-text "$tmp/check.txt" \
  --check-json "$tmp/check.json" --machine-settings "$user_data/Machine/settings.json" \
  --bundled "${bundled[0]}" --broken "$tmp/waveasm-lsp-no-curl" \
  --screenshots "$shots" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- code-server log (tail) ---" >&2
  tail -n 40 "$tmp/code-server.log" >&2 || true
fi
echo "vscode_workbench.sh: wall time $(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)") s (install, start, session)"
exit "$status"
