#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, only those that
# are missing (idempotent: a second run does nothing).
set -euo pipefail

packages=(
  # toolchain
  cmake ninja-build ccache g++ python3
  # LLVM/MLIR 22 (Debian's cmake config also needs zstd and libedit)
  llvm-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools lld-22
  libzstd-dev libedit-dev
  # libraries of the server and the Conductor
  nlohmann-json3-dev libcurl4-openssl-dev libuv1-dev
  # the spectral strategy's eigensolver (header-only)
  libeigen3-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # editor integrations and their tests: Node.js for the VS Code extension
  # (esbuild, vsce, mocha come from npm), headless Neovim, Emacs + eglot
  nodejs neovim emacs-nox elpa-eglot
  # the Debian package: man pages from --help, dpkg-shlibdeps for Depends
  help2man dpkg-dev
  # the CI recipes' test runs the pre-commit hook through pre-commit
  pre-commit
  # the SARIF validator of the report tests (a self-contained .NET binary
  # from npm) needs ICU
  libicu72
  # the real VS Code workbench test: the browser playwright-core drives, and
  # the Kerberos headers code-server's native kerberos module builds against
  # (code-server itself comes from npm: scripts/install-vscode-workbench.sh)
  chromium libkrb5-dev
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

# Debian's nodejs ships npm separately; NodeSource's bundles it (and conflicts
# with Debian's npm package), so ask for npm only when the command is absent.
if ! command -v npm >/dev/null 2>&1; then
  packages+=(npm)
  if ! dpkg-query -W -f='${Status}' npm 2>/dev/null | grep -q "install ok installed"; then
    missing+=(npm)
  fi
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
