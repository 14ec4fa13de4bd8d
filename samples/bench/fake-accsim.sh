#!/bin/sh
# A stand-in for the accsim command, to test accsim-bench's accsim path without the interpreter:
#   accsim-bench --accsim samples/bench/fake-accsim.sh --size small
# It takes `run|check [-DNAME=VALUE]... FILE`, builds FILE with `gcc -O0` and runs it.
# FAKE_ACCSIM_BREAK=output prints an extra line (a mismatch); FAKE_ACCSIM_BREAK=exit exits 3;
# FAKE_ACCSIM_BREAK=hang sleeps for a minute first (try --timeout 2);
# FAKE_ACCSIM_NO_CHECK=1 answers `check` as an accsim without that subcommand does (usage error).
set -eu
sub=${1:?usage: fake-accsim.sh run|check [-D...] FILE}
shift
case $sub in
run) ;;
check) if [ "${FAKE_ACCSIM_NO_CHECK:-}" = 1 ]; then echo "error: unrecognized subcommand 'check'" >&2; exit 2; fi ;;
*) echo "error: unrecognized subcommand '$sub'" >&2; exit 2 ;;
esac
if [ "${1:-}" = --help ]; then echo "usage: fake-accsim.sh $sub [-D...] FILE"; exit 0; fi
exe=$(mktemp "${TMPDIR:-/tmp}/fake-accsim.XXXXXX")
trap 'rm -f "$exe"' EXIT
gcc -O0 -std=gnu11 -w "$@" -o "$exe" -lm
case ${FAKE_ACCSIM_BREAK:-} in
exit) "$exe"; echo "fake-accsim: stopped on purpose" >&2; exit 3 ;;
output) "$exe"; echo "an extra line" ;;
hang) sleep 60; "$exe" ;;
*) "$exe" ;;
esac
