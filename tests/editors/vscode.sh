#!/usr/bin/env bash
# The VS Code extension's test steps (ctest runs each as its own test):
#   vscode.sh setup        npm ci (offline cache first), bundle, compile tests
#   vscode.sh package OUT  build the .vsix with @vscode/vsce into OUT and check
#                          its contents and that the bundle loads
#   vscode.sh unit         mocha unit tests (client logic, grammar)
#   vscode.sh integration  the real server through the extension's launch code
#                          (WAVEASM_LSP names the server of this build tree)
set -euo pipefail
ext="$(cd "$(dirname "$0")/../../vscode-extension" && pwd)"
cd "$ext"

if ! command -v npm >/dev/null 2>&1; then
  echo "vscode.sh: SKIP: npm is not installed (scripts/install-deps.sh installs nodejs/npm)" >&2
  exit 77
fi
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

case "${1:-}" in
  setup)
    # Offline when the npm cache has every package; the registry otherwise.
    # No install scripts: none is needed (esbuild's binary comes as an
    # optional dependency; keytar and vsce-sign only serve publishing), and
    # keytar's would try to download a prebuilt binary.
    npm ci --prefer-offline --ignore-scripts --no-progress --loglevel=error
    node esbuild.mjs --minify
    rm -rf out
    npx --no-install tsc -p .
    ;;
  package)
    out="${2:?usage: vscode.sh package OUT.vsix}"
    rm -f "$out"
    # </dev/null: vsce must never wait for an answer.
    npx --no-install vsce package --no-dependencies --allow-missing-repository \
      -o "$out" </dev/null
    python3 - "$out" <<'PY'
import json, sys, zipfile
vsix = zipfile.ZipFile(sys.argv[1])
names = set(vsix.namelist())
need = {"extension.vsixmanifest", "extension/package.json", "extension/dist/extension.js",
        "extension/syntaxes/waveasm.tmLanguage.json", "extension/syntaxes/waveasm-asm.tmLanguage.json",
        "extension/language-configuration.json", "extension/README.md",
        "extension/snippets/waveasm.json"}
missing = need - names
assert not missing, f"missing from the vsix: {sorted(missing)}"
leaked = [n for n in names if n.startswith(("extension/node_modules/", "extension/src/", "extension/test/"))]
assert not leaked, f"sources or node_modules in the vsix: {leaked[:5]}"
manifest = json.loads(vsix.read("extension/package.json"))
assert manifest["main"] == "./dist/extension.js"
langs = {l["id"] for l in manifest["contributes"]["languages"]}
assert "waveasm" in langs, langs
for g in manifest["contributes"]["grammars"] + manifest["contributes"]["snippets"]:
    json.loads(vsix.read("extension/" + g["path"].lstrip("./")))
print(f"{sys.argv[1]}: {len(names)} files, ok")
PY
    # The packaged bundle must be valid JavaScript that exports the
    # extension entry points (it cannot be loaded here: it needs VS Code's
    # `vscode` module at load time).
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    python3 -c "import sys, zipfile; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('extension/dist/extension.js'))" \
      "$out" "$tmp/extension.js"
    node --check "$tmp/extension.js"
    grep -q 'activate:()=>' "$tmp/extension.js" && grep -q 'deactivate:()=>' "$tmp/extension.js" \
      || { echo "vscode.sh: the bundle does not export activate/deactivate" >&2; exit 1; }
    echo "bundle: valid, exports activate and deactivate"
    ;;
  unit)
    npx --no-install mocha --timeout 20000 "out/test/unit/**/*.test.js"
    ;;
  integration)
    : "${WAVEASM_LSP:?WAVEASM_LSP must name the waveasm-lsp binary}"
    npx --no-install mocha --timeout 120000 "out/test/integration/**/*.test.js"
    ;;
  *)
    echo "usage: vscode.sh setup|package OUT|unit|integration" >&2
    exit 2
    ;;
esac
