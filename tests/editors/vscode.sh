#!/usr/bin/env bash
# The VS Code extension's test steps (ctest runs each as its own test):
#   vscode.sh setup        npm ci (offline cache first), bundle, compile tests
#   vscode.sh package OUT  build the .vsix with @vscode/vsce into OUT and check
#                          its contents and that the bundle loads
#   vscode.sh package-platform OUT SERVER
#                          the linux-x64 .vsix carrying SERVER (stripped) as
#                          server/waveasm-lsp; checks it and runs the server
#                          from the unpacked package
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
  package-platform)
    out="${2:?usage: vscode.sh package-platform OUT.vsix SERVER}"
    server="${3:?usage: vscode.sh package-platform OUT.vsix SERVER}"
    [ -x "$server" ] || { echo "vscode.sh: no server at $server" >&2; exit 1; }
    rm -f "$out"
    # vsce packages its working directory: a staging copy of what the
    # generic package carries plus the server, so the source tree never
    # holds a binary.
    stage="$(mktemp -d)"
    trap 'rm -rf "$stage"' EXIT
    cp -r package.json README.md language-configuration.json .vscodeignore syntaxes snippets "$stage/"
    mkdir -p "$stage/dist" "$stage/server"
    cp dist/extension.js "$stage/dist/"
    # Stripped: the symbols are half the size and a user never reads them.
    strip --strip-all -o "$stage/server/waveasm-lsp" "$server"
    chmod 755 "$stage/server/waveasm-lsp"
    (cd "$stage" && "$ext/node_modules/.bin/vsce" package --target linux-x64 --no-dependencies \
      --allow-missing-repository -o "$out" </dev/null)
    python3 - "$out" "$stage/unpacked" <<'PY'
import os, sys, zipfile
vsix = zipfile.ZipFile(sys.argv[1])
manifest = vsix.read("extension.vsixmanifest").decode()
assert 'TargetPlatform="linux-x64"' in manifest, "the manifest names no linux-x64 target"
info = vsix.getinfo("extension/server/waveasm-lsp")
mode = info.external_attr >> 16
# VS Code keeps the zip's Unix mode when it installs the package.
assert mode & 0o111, f"server/waveasm-lsp is not executable in the vsix (mode {oct(mode)})"
assert "extension/dist/extension.js" in vsix.namelist()
vsix.extractall(sys.argv[2])
os.chmod(os.path.join(sys.argv[2], "extension/server/waveasm-lsp"), mode & 0o777)
size = os.path.getsize(sys.argv[1])
print(f"{sys.argv[1]}: {len(vsix.namelist())} files, {size / 2**20:.1f} MiB "
      f"(server {info.file_size / 2**20:.1f} MiB unpacked), target linux-x64")
PY
    bundled="$stage/unpacked/extension/server/waveasm-lsp"
    "$bundled" --version
    # What the bundled server needs from the system: the C and C++ runtimes
    # and libcurl (libuv and LLVM/MLIR are linked in). A new shared library
    # here is a machine where the package does not start.
    needed=$(objdump -p "$bundled" | awk '/NEEDED/ {print $2}' | sort | tr '\n' ' ')
    echo "needs: $needed"
    for lib in $needed; do
      case "$lib" in
        libc.so.6|libm.so.6|libpthread.so.0|libdl.so.2|librt.so.1|ld-linux-x86-64.so.2) ;;
        libstdc++.so.6|libgcc_s.so.1|libcurl.so.4) ;;
        *) echo "vscode.sh: the bundled server needs $lib" >&2; exit 1 ;;
      esac
    done
    ;;
  unit)
    npx --no-install mocha --timeout 20000 "out/test/unit/**/*.test.js"
    ;;
  integration)
    : "${WAVEASM_LSP:?WAVEASM_LSP must name the waveasm-lsp binary}"
    npx --no-install mocha --timeout 120000 "out/test/integration/**/*.test.js"
    ;;
  *)
    echo "usage: vscode.sh setup|package OUT|package-platform OUT SERVER|unit|integration" >&2
    exit 2
    ;;
esac
