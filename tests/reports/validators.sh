#!/usr/bin/env bash
# Installs the report validators of package.json (Microsoft's SARIF
# multitool, a self-contained .NET binary from npm) into DIR, once: a second
# run with the same lock file does nothing. Exit 77 (skip) without npm.
#   validators.sh DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:?usage: validators.sh DIR}"
if ! command -v npm >/dev/null 2>&1; then
  echo "validators.sh: SKIP: npm is not installed (scripts/install-deps.sh installs nodejs/npm)" >&2
  exit 77
fi
mkdir -p "$dir"
tool="$dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [ -x "$tool" ] && cmp -s "$here/package-lock.json" "$dir/package-lock.json"; then
  echo "validators.sh: up to date in $dir"
  exit 0
fi
cp "$here/package.json" "$here/package-lock.json" "$dir/"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# No install scripts (the package's only one marks the binary executable).
(cd "$dir" && npm ci --prefer-offline --ignore-scripts --no-progress --loglevel=error)
chmod u+x "$tool"
echo "validators.sh: installed $tool"
