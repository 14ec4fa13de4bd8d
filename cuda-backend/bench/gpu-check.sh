#!/bin/bash
# Every program with an expected output (samples/acc, samples/openuh, samples/regress,
# conformance/spec) with --device cuda against it, `validate` on the samples and the gpu_*
# regression programs, `validate` on the PolyBench-style benchmarks (samples/bench/styles) at
# small sizes, and chosen V&V files; no whole V&V run (gpu-programs.sh does that).
#
#   bash cuda-backend/bench/gpu-check.sh CARRY
#
# run from the repository root on the GPU machine. CARRY (the device tool's `carry`, relative to
# the root) holds `accsim` (a stripped x86-64 build), `COMMIT`, `src/` (a copy of the branch's
# samples/ and conformance/, which the machine's checkout may lack) and `vv/` (the V&V files
# named at the end, with acc_testsuite.h). Results go to $OUT (or /tmp/out).
set -u
C=$PWD/${1:?usage: gpu-check.sh CARRY}; A=$C/accsim; O=${OUT:-/tmp/out}; mkdir -p $O
export ACCSIM_PTX_CACHE=/tmp/ptx
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/machine.txt; echo "commit $(cat $C/COMMIT)" | tee -a $O/machine.txt
cd $C/src
hdr() { grep -m1 "^// $2:" "$1" | sed "s|^// $2:||"; }
one() {
  f=$1; exp=${f%.c}.expected; want=$(hdr $f expect-exit); want=${want:-0}; want=$(echo $want)
  [ "$want" = 0 ] || { echo "SKIP $f (expects exit $want)"; return; }
  [ -f "$exp" ] || { echo "SKIP $f (no .expected)"; return; }
  grep -q '^// accsim-env:' $f && { echo "SKIP $f (environment)"; return; }
  flags=$(hdr $f accsim-flags); e=/tmp/err_$(echo $f | tr / _)
  out=$(timeout 120 $A run --device cuda $flags $f 2>$e); rc=$?
  if [ $rc = 0 ] && [ "$out" = "$(cat $exp)" ]; then echo "PASS $f"; else echo "FAIL $f rc=$rc $(grep -m1 -E 'error|unsupported|not supported' $e | cut -c1-300)"; cp $e $O/fail_$(basename $f .c).err; echo "$out" | diff - $exp | head -5 > $O/fail_$(basename $f .c).diff; fi
}
export -f one hdr; export A O
ls samples/acc/*.c samples/openuh/*.c samples/regress/*.c conformance/spec/*.c | xargs -P 16 -I{} bash -c 'one {}' > $O/programs.txt 2>&1
for g in samples/acc samples/openuh samples/regress conformance/spec; do
  echo "$g: $(grep -c "^PASS $g/" $O/programs.txt) pass, $(grep -c "^FAIL $g/" $O/programs.txt) fail, $(grep -c "^SKIP $g/" $O/programs.txt) skipped"
done | tee $O/summary.txt
grep ^FAIL $O/programs.txt
v() { f=$1; timeout 120 $A validate $f > /tmp/v_$(basename $f).txt 2>&1 && echo "VALID $f" || echo "DIFF $f $(tail -3 /tmp/v_$(basename $f).txt | tr '\n' ' ' | cut -c1-300)"; }
export -f v
ls samples/acc/*.c samples/openuh/*.c samples/regress/vla_param_whole.c samples/regress/gpu_*.c | xargs -P 16 -I{} bash -c 'v {}' | sort > $O/validate.txt
echo "validate: $(grep -c ^VALID $O/validate.txt) of $(wc -l < $O/validate.txt)" | tee -a $O/summary.txt
grep ^DIFF $O/validate.txt
# the PolyBench-style benchmarks (samples/bench/styles) at the small sizes of simulator/tests/engines.rs
s() { f=$1; n=$(basename $f .c); case $n in histogram|calltree) d=-DN=20000;; conv3d) d=-DN=16;; *) d=-DN=40;; esac
  timeout 200 $A validate $d $f > /tmp/s_$n.txt 2>&1; rc=$?; echo "STYLE $n validate_rc=$rc $(grep -m2 '^validate:' /tmp/s_$n.txt | tr '\n' ' ' | cut -c1-400)"; }
export -f s
ls samples/bench/styles/*.c | xargs -P 16 -I{} bash -c 's {}' | sort > $O/styles.txt
echo "styles: validate agrees on $(grep -c 'validate_rc=0' $O/styles.txt) of $(wc -l < $O/styles.txt)" | tee -a $O/summary.txt
grep -v 'validate_rc=0' $O/styles.txt
for f in host_data.c parallel_loop_reduction_add_general_type_check_pt2.c parallel_loop_reduction_add_general_type_check_pt3.c; do
  timeout 120 $A run --device cuda -I $C/vv -DSEED=12345 $C/vv/$f > /tmp/vv.out 2>/tmp/vv.err; rc=$?
  echo "VV $f rc=$rc $(head -c 400 /tmp/vv.err)" | tee -a $O/summary.txt
done
