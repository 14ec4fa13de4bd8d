#!/bin/bash
# Every program with an expected output (samples/acc, samples/openuh, samples/regress,
# conformance/spec, and the Fortran programs of samples/fortran) run with --device cuda and
# compared with it; `validate` on the samples; the
# V&V suite's C files in 2.0 scope with --device cuda (8 lists at once).
#
#   bash cuda-backend/bench/gpu-programs.sh CARRY
#
# run from the repository root on the GPU machine. CARRY is an ignored folder sent with the
# working tree (the device tool's `carry`) holding `accsim` (a stripped x86-64 build), `lists/`
# (the two files of ../shared/conformance) and `vv/` (a checkout of the V&V suite, which is never
# committed here). Results go to $OUT (or /tmp/out): programs.txt, validate.txt, vv.txt, summary.txt.
set -u
C=${1:?usage: gpu-programs.sh CARRY}; B=$PWD/$C/accsim; export ACCSIM_PTX_CACHE=/tmp/accsim-ptx
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/machine.txt
# A header line `// key: value` (C), `! key: value` (Fortran) or ` * key: value` (a C block comment).
hdr() { grep -m1 -E "^(//|!| \*) $2:" "$1" | sed -E "s#^(//|!| \*) $2:##"; }
one() {  # program -> PASS/FAIL line
  f=$1; exp=${f%.*}.expected; want=$(hdr $f expect-exit); want=${want:-0}; want=$(echo $want)
  [ "$want" = 0 ] || { echo "SKIP $f (expects exit $want)"; return; }
  [ -f "$exp" ] || { echo "SKIP $f (no .expected)"; return; }
  grep -q -E '^(//|!) accsim-env:' $f && { echo "SKIP $f (environment)"; return; }
  # racy or order-dependent on purpose: their output is one of several (check/explore show them)
  grep -q -E 'expect: data-race' $f && { echo "SKIP $f (racy by design)"; return; }
  [ -n "$(hdr $f gpu)" ] && { echo "SKIP $f ($(hdr $f gpu))"; return; }
  flags=$(hdr $f accsim-flags)
  # A program that reads standard input has it in NAME.stdin (samples/fortran/63_read_input).
  input=${f%.*}.stdin; [ -f "$input" ] || input=/dev/null
  err=$(mktemp); out=$(timeout 120 $B run --device cuda $flags $f 2>$err <$input); rc=$?
  if [ $rc = 0 ] && [ "$out" = "$(cat $exp)" ]; then echo "PASS $f"; else echo "FAIL $f rc=$rc $(grep -m1 -E 'error|unsupported|not supported' $err | cut -c1-200)"; fi; rm -f $err
}
export -f one hdr; export B
ls samples/acc/*.c samples/openuh/*.c samples/regress/*.c conformance/spec/*.c samples/fortran/*.f90 samples/fortran/*.f samples/fortran/*.F90 samples/pgi13/*.c samples/pgi13/*.f90 samples/cray/*.c samples/openuh/nested/*.c | xargs -P 8 -I{} bash -c 'one {}' > $O/programs.txt 2>&1
for g in samples/acc samples/openuh samples/regress conformance/spec samples/fortran samples/pgi13 samples/cray; do
  echo "$g: $(grep -c "^PASS $g/" $O/programs.txt) pass, $(grep -c "^FAIL $g/" $O/programs.txt) fail, $(grep -c "^SKIP $g/" $O/programs.txt) skipped"
done | tee $O/summary.txt
for f in samples/acc/*.c samples/openuh/*.c; do
  timeout 120 $B validate $f > /tmp/v.txt 2>&1 && echo "VALID $f" || echo "DIFF $f $(tail -3 /tmp/v.txt | tr '\n' ' ' | cut -c1-300)"
done > $O/validate.txt
echo "validate: $(grep -c ^VALID $O/validate.txt) of $(wc -l < $O/validate.txt)" | tee -a $O/summary.txt
# the V&V files, 8 lists run at once (run-vv.sh is sequential)
for k in 0 1 2 3 4 5 6 7; do
  mkdir -p /tmp/l$k; awk "NR % 8 == $k" $C/lists/openacc-c-2.0-files.txt > /tmp/l$k/openacc-c-2.0-files.txt
  awk "NR % 8 == $k" $C/lists/openacc-c-2.0-mixed-files.tsv > /tmp/l$k/openacc-c-2.0-mixed-files.tsv
  VV_TIMEOUT=120 ACCSIM_CONFORMANCE_LISTS=/tmp/l$k conformance/run-vv.sh $C/vv $B -- --device cuda > /tmp/vv$k.txt 2>&1 &
done; wait
cat /tmp/vv?.txt | grep -E '^(PASS|FAIL)' | sort > $O/vv.txt
echo "V&V on the GPU: $(grep -c ^PASS $O/vv.txt) of $(wc -l < $O/vv.txt) pass" | tee -a $O/summary.txt
# the V&V files in Fortran (issue 16), likewise, when CARRY/lists has their lists
if [ -f $C/lists/openacc-fortran-2.0-files.txt ]; then
  for k in 0 1 2 3 4 5 6 7; do
    mkdir -p /tmp/f$k; awk "NR % 8 == $k" $C/lists/openacc-fortran-2.0-files.txt > /tmp/f$k/openacc-fortran-2.0-files.txt
    awk "NR % 8 == $k" $C/lists/openacc-fortran-2.0-mixed-files.tsv > /tmp/f$k/openacc-fortran-2.0-mixed-files.tsv
    VV_LANG=fortran VV_TIMEOUT=120 ACCSIM_CONFORMANCE_LISTS=/tmp/f$k conformance/run-vv.sh $C/vv $B -- --device cuda > /tmp/vvf$k.txt 2>&1 &
  done; wait
  cat /tmp/vvf?.txt | grep -E '^(PASS|FAIL)' | sort > $O/vv-fortran.txt
  echo "V&V Fortran on the GPU: $(grep -c ^PASS $O/vv-fortran.txt) of $(wc -l < $O/vv-fortran.txt) pass" | tee -a $O/summary.txt
fi
