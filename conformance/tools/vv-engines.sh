#!/usr/bin/env bash
# Differential run of the OpenACC V&V suite's files in OpenACC 2.0 scope on accsim's two engines
# (issue 15: "the V&V files in scope … give byte-identical output, exit status and findings on
# the native engine and the interpreter").
#
#   conformance/tools/vv-engines.sh SUITE_CHECKOUT [ACCSIM_BINARY]
#
# For each file of ../shared/conformance/openacc-{c,fortran}-2.0-files.txt and the
# -mixed-files.tsv lists (the ones conformance/run-vv.sh runs, with the same -I and -DSEED), it
# runs `accsim run --engine native` and `--engine interp` and compares stdout, stderr and the exit
# status byte for byte, then `accsim check --format json` with each engine and compares its
# stdout (the findings) and exit status. Both engines run with `--threads 1`: a V&V file with a
# data race (a few test racy code on purpose) may otherwise print another value per run on
# either engine. A run stopped by the time limit is compared by its exit status alone.
# VV_LANG=c (default), fortran or both; VV_TIMEOUT (default 60 s); VV_JOBS parallel files
# (default 2). Output: one DIFF line per difference (what, file, flags), then the totals.
# Exit 0 when nothing differs.
set -uo pipefail
suite=${1:?usage: vv-engines.sh SUITE_CHECKOUT [ACCSIM]}
accsim=${2:-target/debug/accsim}
here=$(cd "$(dirname "$0")/../.." && pwd)
lists=${ACCSIM_CONFORMANCE_LISTS:-$here/../shared/conformance}
[ -d "$lists" ] || lists=/work/shared/conformance
timeout_s=${VV_TIMEOUT:-60}
jobs=${VV_JOBS:-2}
langs=${VV_LANG:-c}
[ "$langs" = both ] && langs="c fortran"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export suite accsim timeout_s work

one() {
    local line=$1 file flags i
    file=${line%%$'\t'*}
    flags=""
    [ "$file" != "$line" ] && flags=${line#*$'\t'}
    i=$(printf '%s' "$line" | md5sum | cut -c1-12)
    local diffs=()
    for sub in run check; do
        local extra=()
        [ "$sub" = check ] && extra=(--format json)
        for engine in native interp; do
            # shellcheck disable=SC2086
            timeout "$timeout_s" "$accsim" "$sub" "${extra[@]}" --engine "$engine" --threads 1 -I "$suite/Tests" -DSEED=12345 $flags "$suite/$file" \
                >"$work/$i.$sub.$engine.out" 2>"$work/$i.$sub.$engine.err" </dev/null
            echo $? >"$work/$i.$sub.$engine.rc"
        done
        local a=$work/$i.$sub.native b=$work/$i.$sub.interp
        if ! cmp -s "$a.rc" "$b.rc"; then
            diffs+=("$sub:exit($(cat "$a.rc")/$(cat "$b.rc"))")
        elif [ "$(cat "$a.rc")" != 124 ]; then
            cmp -s "$a.out" "$b.out" || diffs+=("$sub:stdout")
            [ "$sub" = run ] && ! cmp -s "$a.err" "$b.err" && diffs+=("$sub:stderr")
        fi
    done
    if [ ${#diffs[@]} -eq 0 ]; then
        printf 'SAME  %s %s\n' "$file" "$flags"
    else
        printf 'DIFF  %s %s: %s\n' "$file" "$flags" "${diffs[*]}"
    fi
    rm -f "$work/$i".*
}
export -f one

for lang in $langs; do
    { cat "$lists/openacc-$lang-2.0-files.txt"; cat "$lists/openacc-$lang-2.0-mixed-files.tsv"; } | grep -v '^$' |
        tr '\n' '\0' | xargs -0 -P "$jobs" -I{} bash -c 'one "$1"' _ {}
done >"$work/results"
sort -k2 "$work/results"
same=$(grep -c '^SAME' "$work/results")
differ=$(grep -c '^DIFF' "$work/results")
echo
echo "total $((same + differ)): $same the same on both engines, $differ differ"
[ "$differ" -eq 0 ]
