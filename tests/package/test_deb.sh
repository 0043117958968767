#!/usr/bin/env bash
# The Debian package as a user gets it: cpack builds
# waveasm-conductor_<version>_amd64.deb from this build tree, dpkg-deb
# extracts it into a temporary root, and every tool runs from there on a
# bundled example; the control file declares the shared libraries the tools
# need, and the man pages, the Neovim plugin and the Emacs file are in place.
#   test_deb.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="${1:?usage: test_deb.sh BUILD_DIR SOURCE_DIR}"
src="${2:?usage: test_deb.sh BUILD_DIR SOURCE_DIR}"
fail() { echo "test_deb.sh: FAIL: $*" >&2; exit 1; }

for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh installs it)"
done

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || fail "no CMAKE_PROJECT_VERSION in $build/CMakeCache.txt"
deb="$build/package/waveasm-conductor_${version}_amd64.deb"
rm -f "$deb"
(cd "$build" && cpack -G DEB >/dev/null) || fail "cpack failed"
[ -f "$deb" ] || fail "cpack did not produce $deb"
echo "package: $deb ($(du -h "$deb" | cut -f1))"

# Control fields: name, version, the shared libraries as dependencies.
[ "$(dpkg-deb -f "$deb" Package)" = waveasm-conductor ] || fail "Package field"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version field"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libc6 libcurl4 libstdc++6; do
  grep -q "\b$lib\b" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
# libuv is linked in (Debian's libuv1-dev ships the archive): one package
# less for the user's machine to have.
if grep -q "\blibuv1\b" <<<"$depends"; then
  fail "Depends names libuv1, but libuv should be linked statically: $depends"
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
for path in usr/bin/waveasm-lsp usr/bin/waveasm-opt usr/bin/waveasm-conductor \
    usr/bin/waveasm-sim usr/share/man/man1/waveasm-lsp.1.gz \
    usr/share/man/man1/waveasm-opt.1.gz usr/share/man/man1/waveasm-conductor.1.gz \
    usr/share/man/man1/waveasm-sim.1.gz \
    usr/share/nvim/site/pack/waveasm/start/waveasm/lua/waveasm/init.lua \
    usr/share/emacs/site-lisp/waveasm.el usr/share/doc/waveasm-conductor/README.md; do
  [ -e "$root/$path" ] || fail "$path is not in the package"
done
# Nothing of the build or test tree leaks into the package.
if dpkg-deb -c "$deb" | grep -E "unittests|bench|/include/|\.a$"; then
  fail "test, benchmark or development files in the package"
fi
zcat "$root/usr/share/man/man1/waveasm-lsp.1.gz" | grep -qF 'sarif\-root' ||
  fail "the waveasm-lsp man page lacks check's options"

# The tools, from the extracted root, on a bundled example.
bin="$root/usr/bin"
example="$src/examples/gemm_f16_double_buffer.mlir"
work=$(mktemp -d)
trap 'rm -rf "$root" "$work"' EXIT
for tool in waveasm-lsp waveasm-opt waveasm-conductor waveasm-sim; do
  line=$("$bin/$tool" --version)
  [[ "$line" == "$tool $version (git "* ]] || fail "$tool --version: $line"
done
"$bin/waveasm-lsp" check --no-tables "$example" >"$work/check.txt" ||
  fail "check failed: $(cat "$work/check.txt")"
grep -q "0 error(s)" "$work/check.txt" || fail "check: $(cat "$work/check.txt")"
"$bin/waveasm-opt" --waveasm-pipeline --emit-assembly "$example" -o "$work/out.s" ||
  fail "waveasm-opt failed"
grep -q "v_mfma" "$work/out.s" || fail "no MFMA in the emitted assembly"
"$bin/waveasm-sim" --against-pipeline "$example" >"$work/sim.txt" ||
  fail "waveasm-sim --against-pipeline: $(cat "$work/sim.txt")"
"$bin/waveasm-conductor" --rounds 1 -o "$work/sched.mlir" "$example" >/dev/null 2>&1 ||
  fail "waveasm-conductor failed"
[ -s "$work/sched.mlir" ] || fail "waveasm-conductor wrote nothing"

# Neovim loads the packaged plugin from the prefix's pack directory (here
# the extracted root's, added to 'packpath' as /usr/share/nvim/site is by
# default).
if command -v nvim >/dev/null; then
  nvim --headless --clean --cmd "set packpath^=$root/usr/share/nvim/site" \
    -c 'lua local ok, m = pcall(require, "waveasm"); if not (ok and m.setup) then vim.cmd("cquit 1") end' \
    -c 'qall!' </dev/null || fail "Neovim does not load the packaged plugin"
fi

# The server from the package answers initialize with its version.
python3 - "$bin/waveasm-lsp" "$version" <<'PY'
import json, subprocess, sys
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"capabilities": {}}})
exit_msg = json.dumps({"jsonrpc": "2.0", "method": "exit"})
data = "".join("Content-Length: %d\r\n\r\n%s" % (len(m), m) for m in (body, exit_msg))
out = subprocess.run([sys.argv[1]], input=data.encode(), capture_output=True,
                     timeout=30).stdout.decode()
reply = json.loads(out[out.index("{"):])
version = reply["result"]["serverInfo"]["version"]
assert version.startswith(sys.argv[2] + " (git "), version
PY
echo "test_deb.sh: OK"
