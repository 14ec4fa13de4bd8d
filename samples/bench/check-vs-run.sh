#!/usr/bin/env bash
# `accsim check` against `accsim run` on the styles suite (issue 15: "check <= 2x run on every
# program of the suite whose kernels are race-free, and <= 3x the program's data in memory"):
# user CPU seconds and peak resident memory (`/usr/bin/time -f '%U %M'`) of each, one device
# thread, the same binary, default sizes. Prints a markdown table; the data sizes are the ones
# accsim-bench computes (simulator/src/bin/bench/programs.rs).
#
#   samples/bench/check-vs-run.sh [ACCSIM] [PROGRAM...]
set -uo pipefail
accsim=${1:-target/debug/accsim}
shift || true
dir=$(cd "$(dirname "$0")" && pwd)/styles
programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=(laplace gemm 2mm atax bicg mvt gesummv syrk syr2k jacobi2d fdtd2d conv2d conv3d correlation blur histogram calltree)
data_mib() {
    python3 -c "
n={'laplace':1024,'gemm':700,'2mm':440,'atax':2000,'bicg':2000,'mvt':2000,'gesummv':1600,'syrk':600,'syr2k':480,'jacobi2d':1000,'fdtd2d':1000,'conv2d':2048,'conv3d':144,'correlation':800,'blur':1536,'histogram':4000000,'calltree':1000000}['$1']
b={'laplace':2*n*n*8,'gemm':3*n*n*8,'2mm':5*n*n*8,'atax':n*n*8+3*n*8,'bicg':n*n*8+4*n*8,'mvt':n*n*8+4*n*8,'gesummv':2*n*n*8+2*n*8,'syrk':2*n*n*8,'syr2k':3*n*n*8,'jacobi2d':2*n*n*8,'fdtd2d':3*n*n*8,'conv2d':2*n*n*8,'conv3d':2*n*n*n*8,'correlation':n*(n//2)*8+(n//2)*(n//2)*8+2*(n//2)*8,'blur':2*n*n*4+100,'histogram':n*4+2048,'calltree':n*8+((1<<18)-1)*24}['$1']
print('%.1f' % (b/1048576))"
}
# The baseline: the peak of `check` on a program with the same headers and no data (what
# accsim holds itself: its code, the parsed headers), taken off the peak as accsim-bench does.
base_src=$(mktemp --suffix=.c)
printf '#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\nint main(void) { return 0; }\n' >"$base_src"
/usr/bin/time -o /tmp/check-vs-run.$$.t -f '%U %M' "$accsim" check --threads 1 "$base_src" >/dev/null 2>&1
base_kib=$(tail -1 /tmp/check-vs-run.$$.t | cut -d' ' -f2)
rm -f "$base_src"
echo "Baseline (check of an empty program): $((base_kib / 1024)) MiB"
echo
echo "| program | data MiB | run user s | run peak MiB | check user s | check peak MiB | check/run user | check net peak / data | proofs at launch |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in "${programs[@]}"; do
    f=$dir/$p.c
    /usr/bin/time -o /tmp/check-vs-run.$$.t -f '%U %M' "$accsim" run --threads 1 "$f" >/dev/null 2>&1
    r=$(tail -1 /tmp/check-vs-run.$$.t)
    /usr/bin/time -o /tmp/check-vs-run.$$.t -f '%U %M' env ACCSIM_EXPLAIN_PROOFS=1 "$accsim" check --threads 1 "$f" >/dev/null 2>/tmp/check-vs-run.$$
    c=$(tail -1 /tmp/check-vs-run.$$.t)
    proven=$(grep -c 'run on its footprint' /tmp/check-vs-run.$$)
    launches=$(grep -c '^accsim: kernel at line' /tmp/check-vs-run.$$)
    rm -f /tmp/check-vs-run.$$ /tmp/check-vs-run.$$.t
    d=$(data_mib "$p")
    python3 - "$p" "$d" $r $c "$proven" "$launches" "$base_kib" <<'PY'
import sys
p, d, ru, rm, cu, cm, proven, launches, base = sys.argv[1:]
base = int(base) / 1024
d, ru, rm, cu, cm = float(d), float(ru), int(rm) / 1024, float(cu), int(cm) / 1024
ratio = cu / ru if ru > 0 else float("inf")
print(f"| styles/{p} | {d:.1f} | {ru:.2f} | {rm:.0f} | {cu:.2f} | {cm:.0f} | {ratio:.1f}× | {(cm - base) / d:.1f}× | {proven}/{launches} |")
PY
done
