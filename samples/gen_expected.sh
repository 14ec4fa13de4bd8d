#!/bin/sh
# gen_expected.sh — regenerate (or check) the golden outputs of the OpenACC samples.
#
#   samples/gen_expected.sh          rewrite every gcc-derived NAME.expected
#   samples/gen_expected.sh --check  build each sample with warnings as errors and
#                                    AddressSanitizer/UBSan, run it, and compare its output with
#                                    NAME.expected; exit status 1 on any difference
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
    if [ "$mode" = --check ]; then
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
