#!/bin/sh
# gen_expected.sh — regenerate (or check) the golden outputs of the OpenACC samples.
#
#   samples/gen_expected.sh          rewrite every gcc-derived NAME.expected
#   samples/gen_expected.sh --check  build each sample with warnings as errors and
#                                    AddressSanitizer/UBSan, run it, and compare its output with
#                                    NAME.expected; exit status 1 on any difference
#   samples/gen_expected.sh --gcc-openacc
#                                    a second opinion on the directives: build each sample with
#                                    gcc's own OpenACC front end (-fopenacc; with no offload
#                                    compiler installed, regions run by libgomp's host fallback)
#                                    and compare. Known, expected exceptions (not failures):
#                                    15 (host fallback runs one gang), 19 (libgomp names
#                                    acc_update_local acc_update_self), 20 (gcc rejects
#                                    non-contiguous pointer-to-pointer sections), 24 (gcc 12
#                                    has no device_type).
#
# A plain C compiler ignores `#pragma acc`, so each program runs sequentially on the host, with
# support/openacc_host.c standing in for the runtime library (a shared-memory host device). A
# correct, race-free OpenACC program prints the same on any device, so this output is the golden
# one. Samples whose output depends on the device by design carry the line
#     Expected output: hand-written
# in their header comment; their .expected files are written from the specification (see
# acc/README.md) and are never rewritten here; --check only builds and runs them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-gcc}
mode=${1:-write}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for src in "$here"/acc/[0-9]*.c "$here"/openuh/*.c; do
    [ -e "$src" ] || continue
    name=${src%.c}
    exe="$tmp/$(basename "$name")"
    handwritten=0
    grep -q 'Expected output: hand-written' "$src" && handwritten=1
    if [ "$mode" = --gcc-openacc ]; then
        case $(basename "$src") in
            15_*|19_*|20_*|24_*) known=1 ;;
            *) known=0 ;;
        esac
        if "$cc" -std=gnu11 -O0 -w -fopenacc "$src" -lm -o "$exe" 2>"$tmp/err" &&
           "$exe" > "$tmp/out" 2>&1 && cmp -s "$tmp/out" "$name.expected"; then
            echo "same: $src"
        elif [ $known = 1 ]; then
            echo "differs (known): $src"
        else
            echo "DIFF: $src"; head -5 "$tmp/err"; status=1
        fi
    elif [ "$mode" = --check ]; then
        "$cc" -std=gnu11 -O0 -Wall -Wextra -Wno-unknown-pragmas -Werror \
            -fsanitize=address,undefined -fno-sanitize-recover=all \
            -I "$here/support" "$src" "$here/support/openacc_host.c" -lm -o "$exe" \
            || { echo "FAIL (build): $src"; status=1; continue; }
        "$exe" > "$tmp/out" || { echo "FAIL (exit $?): $src"; status=1; continue; }
        if [ $handwritten = 1 ]; then
            echo "ran (hand-written expected, not compared): $src"
        elif cmp -s "$tmp/out" "$name.expected"; then
            echo "ok: $src"
        else
            echo "DIFF: $src"; diff "$name.expected" "$tmp/out" | head -20; status=1
        fi
    else
        [ $handwritten = 1 ] && { echo "kept (hand-written): $name.expected"; continue; }
        "$cc" -std=gnu11 -O0 -w -I "$here/support" "$src" "$here/support/openacc_host.c" -lm -o "$exe"
        "$exe" > "$name.expected"
        echo "wrote: $name.expected"
    fi
done
exit $status
