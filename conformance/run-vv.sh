#!/usr/bin/env bash
# Run the OpenACC V&V suite's C tests in OpenACC 2.0 scope against accsim and print a pass table.
#
#   conformance/run-vv.sh SUITE_CHECKOUT [ACCSIM_BINARY] [-- extra accsim run flags]
#
# SUITE_CHECKOUT is a checkout of github.com/OpenACCUserGroup/OpenACCV-V (never copied into this
# repository). The lists of files in scope are ../shared/conformance/openacc-c-2.0-files.txt and
# openacc-c-2.0-mixed-files.tsv (file, tab, -DTn flags). A file passes when accsim exits 0.
# Output: one line per file (PASS/FAIL, exit status, first diagnostic line), then the totals.
#
# VV_LANG=fortran runs the Fortran files instead (openacc-fortran-2.0-*; issue 16): each `.F90`
# goes through the C preprocessor in traditional mode and includes the suite's
# `Tests/acc_testsuite.Fh`; `conformance/run-vv-fortran.sh` is this script with VV_LANG=fortran.
#
# VV_COMMAND=check runs `accsim check --format json` instead (issue 4, "Real code"): a file passes
# when it has no error or warning finding, and each line lists the findings as kind@line.
set -uo pipefail
suite=${1:?usage: run-vv.sh SUITE_CHECKOUT [ACCSIM] [-- flags]}
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
command=${VV_COMMAND:-run}
lang=${VV_LANG:-c}
# The first diagnostic line of a failure (a Fortran run may end at a `STOP n`).
first_pattern='error|panicked|not supported'
[ "$lang" = fortran ] && first_pattern="$first_pattern|STOP"
# `kind@line` of each finding in `accsim check --format json` output (its last stdout line).
findings() {
    tail -n 1 | python3 -c 'import json,sys
try:
    print(" ".join(sorted("%s@%s" % (f["kind"], f["line"]) for f in json.loads(sys.stdin.read())["findings"])))
except Exception:
    print("(no JSON)")'
}
run_one() {
    local file=$1
    shift
    local err
    if [ "$command" = check ]; then
        local out
        out=$(timeout "$timeout_s" "$accsim" check --format json -I "$suite/Tests" -DSEED=12345 "$@" "${extra[@]}" "$suite/$file" 2>/dev/null)
        local rc=$?
        local found
        found=$(printf '%s\n' "$out" | findings)
        [ $rc -eq 124 ] && found="timeout after ${timeout_s}s"
        if [ $rc -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
        printf '%s  %s %s (exit %d) %s\n' "$([ $rc -eq 0 ] && echo CLEAN || echo FOUND)" "$file" "$*" "$rc" "$found"
        return
    fi
    err=$(timeout "$timeout_s" "$accsim" run -I "$suite/Tests" -DSEED=12345 "$@" "${extra[@]}" "$suite/$file" 2>&1 >/dev/null)
    local rc=$?
    if [ $rc -eq 0 ]; then
        pass=$((pass + 1))
        printf 'PASS  %s %s\n' "$file" "$*"
    else
        fail=$((fail + 1))
        local first
        first=$(printf '%s\n' "$err" | grep -m1 -E "$first_pattern" | cut -c1-160)
        [ $rc -eq 124 ] && first="timeout after ${timeout_s}s"
        printf 'FAIL  %s %s (exit %d) %s\n' "$file" "$*" "$rc" "$first"
    fi
}
while read -r f; do
    [ -n "$f" ] && run_one "$f"
done <"$lists/openacc-$lang-2.0-files.txt"
while IFS=$'\t' read -r f flags; do
    # shellcheck disable=SC2086
    [ -n "$f" ] && run_one "$f" $flags
done <"$lists/openacc-$lang-2.0-mixed-files.tsv"
total=$((pass + fail))
echo
echo "total $total: $pass passed, $fail failed ($(( total ? pass * 1000 / total : 0 ))‰)"
