#!/usr/bin/env bash
# GPU speed script (issue 5): run by hand on a GPU machine, from the repository root:
#   cuda-backend/bench/gpu-bench.sh [ACCSIM_BINARY]      (default: target/release/accsim)
# One run times, with the same binary and GPU:
#   1. a device-to-device cudaMemcpy bandwidth probe (bw.cu, needs nvcc): the reference;
#   2. saxpy and Jacobi (samples/bench/gpu), default mapping, and Jacobi under every Map2;
#   3. Stencil and Laplacian (samples/bench/gpu, GPU-sized) under the default mapping and
#      every Map3 (`--loop-map`, cuda-backend/src/loopmap.rs);
#   4. a correctness check of every mapping at a small size: `accsim validate` (simulator vs GPU).
# Each timing line is the program's own (-DBENCH_TIMING: ms per sweep and GB/s on stderr).
# Sizes: set SIZES_STENCIL / SIZES_LAPLACIAN / SIZES_JACOBI to -D flags to override.
set -u
B=${1:-target/release/accsim}
export ACCSIM_PTX_CACHE=${ACCSIM_PTX_CACHE:-/tmp/accsim-ptx}
G=samples/bench/gpu
SIZES_STENCIL=${SIZES_STENCIL:-}
SIZES_LAPLACIAN=${SIZES_LAPLACIAN:-}
SIZES_JACOBI=${SIZES_JACOBI:-}
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } 2>&1
if command -v nvcc >/dev/null; then
  nvcc -O2 -o /tmp/accsim-bw cuda-backend/bench/bw.cu && /tmp/accsim-bw
else
  echo "d2d copy: nvcc not found, no probe"
fi
timing() { # label, then the accsim arguments: prints the program's timing line (or why not)
  label=$1; shift
  out=$(timeout 300 "$B" run --device cuda -DBENCH_TIMING "$@" 2>&1 >/dev/null); rc=$?
  line=$(printf '%s\n' "$out" | grep -m1 'per sweep')
  if [ -n "$line" ]; then echo "$label: $line"; else echo "$label: exit $rc: $(printf '%s\n' "$out" | grep -m1 -E 'error|not supported|cannot' | cut -c1-200)"; fi
}
timing "saxpy default" $G/saxpy.c
for m in default map2_1 map2_2 map2_3 map2_4; do timing "jacobi $m" --loop-map $m $SIZES_JACOBI $G/jacobi.c; done
timing "jacobi default collapse(2)" -DJACOBI_COLLAPSE $SIZES_JACOBI $G/jacobi.c
for p in stencil laplacian; do
  sizes=SIZES_${p^^}
  for m in default map3_1 map3_2 map3_3; do timing "$p $m" --loop-map $m ${!sizes} $G/$p.c; done
done
if command -v nvcc >/dev/null; then /tmp/accsim-bw; fi
# Correctness of every mapping (small sizes): simulator and GPU agree at every copy to the host.
for m in map2_1 map2_2 map2_3 map2_4; do
  for f in samples/openuh/gaussblur.c "-DN=130 -DITERS=2 -DGANGS=64 $G/jacobi.c"; do
    r=$(timeout 200 "$B" validate --loop-map $m $f 2>/dev/null | tail -1); echo "validate $m $f: $r"
  done
done
for m in map3_1 map3_2 map3_3; do
  for f in samples/openuh/laplacian.c "-DNX=34 -DNY=20 -DNZ=18 -DITERS=2 -DGANGS=64 $G/stencil.c" "-DN=34 -DITERS=2 -DGANGS=64 $G/laplacian.c"; do
    r=$(timeout 200 "$B" validate --loop-map $m $f 2>/dev/null | tail -1); echo "validate $m $f: $r"
  done
done
