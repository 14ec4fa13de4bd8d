#!/usr/bin/env bash
# Run the OpenACC V&V suite's Fortran tests in OpenACC 2.0 scope against accsim and print a pass
# table (issue 16).
#
#   conformance/run-vv-fortran.sh SUITE_CHECKOUT [ACCSIM_BINARY] [-- extra accsim run flags]
#
# The lists of files in scope are ../shared/conformance/openacc-fortran-2.0-files.txt and
# openacc-fortran-2.0-mixed-files.tsv (file, tab, -DTn flags). Each `.F90` goes through the C
# preprocessor (traditional mode) with `-DSEED=12345` and the flags, and includes
# `acc_testsuite.Fh` from the suite's Tests folder. A file passes when accsim exits 0.
set -uo pipefail
suite=${1:?usage: run-vv-fortran.sh SUITE_CHECKOUT [ACCSIM] [-- flags]}
shift
accsim=${1:-target/release/accsim}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
extra=("$@")
here=$(cd "$(dirname "$0")/.." && pwd)
lists=${ACCSIM_CONFORMANCE_LISTS:-$here/../shared/conformance}
timeout_s=${VV_TIMEOUT:-60}
pass=0
fail=0
run_one() {
    local file=$1
    shift
    local err
    err=$(timeout "$timeout_s" "$accsim" run -I "$suite/Tests" -DSEED=12345 "$@" "${extra[@]}" "$suite/$file" 2>&1 >/dev/null)
    local rc=$?
    if [ $rc -eq 0 ]; then
        pass=$((pass + 1))
        printf 'PASS  %s %s\n' "$file" "$*"
    else
        fail=$((fail + 1))
        local first
        first=$(printf '%s\n' "$err" | grep -m1 -E 'error|panicked|not supported|STOP' | cut -c1-160)
        [ $rc -eq 124 ] && first="timeout after ${timeout_s}s"
        printf 'FAIL  %s %s (exit %d) %s\n' "$file" "$*" "$rc" "$first"
    fi
}
while read -r file; do
    [ -n "$file" ] && run_one "$file"
done < "$lists/openacc-fortran-2.0-files.txt"
while IFS=$'\t' read -r file flags; do
    # shellcheck disable=SC2086
    [ -n "$file" ] && run_one "$file" $flags
done < "$lists/openacc-fortran-2.0-mixed-files.tsv"
total=$((pass + fail))
echo "passed $pass of $total"
