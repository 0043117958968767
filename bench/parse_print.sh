#!/bin/sh
# Thin wrapper: see parse_print.py for options (waveasm-opt path as first
# argument or $WAVEASM_OPT, --runs K, --sizes, --out).
exec python3 "$(dirname "$0")/parse_print.py" "$@"
