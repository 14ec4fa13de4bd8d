#!/bin/sh
# GPU fault injection (issue 14): each fault must end accsim with one error that names the
# program's file:line and a non-zero exit status -- never a panic, a cascade of errors or a hang.
#
#   cuda-backend/tests/fault-injection.sh BINARY        (BINARY: the accsim executable)
#
# Needs a CUDA GPU (run it on the GPU machine); prints PASS/FAIL per case and exits 1 if any
# failed. Each case has the exit status of README's table "Exit status": accsim's own fault 101,
# a limit 4, the program's runtime error 3, the environment 5. The cases (programs in
# cuda-backend/tests/fault-injection/):
#   nvrtc          ACCSIM_CUDA_INJECT_FAULT=nvrtc makes the generated CUDA C fail to compile:
#                  accsim's bug, 101
#   nvrtc-env      ACCSIM_CUDA_INJECT_FAULT=nvrtc-env makes NVRTC fail in itself (out of memory):
#                  the environment, 5
#   oom            acc_malloc of 4 TiB: over --max-memory (the device block's host placeholder), 4
#   oom-exhausted  8 GiB blocks until the card is full: the one that does not fit fails, 4
#   oom-gpu        ACCSIM_CUDA_INJECT_FAULT=oom: cuMemAlloc answers out of memory, 4
#   fault          a kernel writes far outside a deviceptr block (illegal address), 3
#   fault-pointer  a kernel reads through a deviceptr that was never a device address, 3
# and, after the faults, `after-fault`: a normal program still runs (no wedged GPU left behind).
set -u
bin=${1:?usage: fault-injection.sh BINARY}
here=$(cd "$(dirname "$0")/fault-injection" && pwd)
limit=${FAULT_TIMEOUT:-180}
# FAULT_DEVICE=sim tries the script's own logic on the simulator (no GPU): the faults are then
# the simulator's errors, and `nvrtc` and `after-fault` cannot pass.
device=${FAULT_DEVICE:-cuda}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# case NAME PROGRAM STATUS EXPECT-IN-STDERR [ENV=VALUE]
case_() {
    name=$1 prog=$2 status=$3 expect=$4
    shift 4
    start=$(date +%s)
    env "$@" timeout -k 10 "$limit" "$bin" run --device "$device" "$here/$prog" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    took=$(( $(date +%s) - start ))
    why=""
    errors=$(grep -c '^error' "$tmp/err")
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then why="hung (killed after ${limit} s)"
    elif [ "$rc" -eq 0 ]; then why="exit status 0"
    elif [ "$rc" -eq 5 ] && [ "$status" -ne 5 ]; then why="exit 5: no usable GPU here"
    elif grep -q 'panicked' "$tmp/err"; then why="a panic"
    elif [ "$rc" -ne "$status" ]; then why="exit $rc, not $status"
    elif [ "$status" -eq 5 ]; then
        # The environment's failure: one line, `accsim: cannot run on the GPU: …`.
        if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then why="$(wc -l <"$tmp/err") lines, not one"
        elif ! grep -Eqi "$expect" "$tmp/err"; then why="the error does not say /$expect/"; fi
    elif [ "$errors" -ne 1 ]; then why="$errors error lines, not one"
    elif ! grep -Eq "${prog%.c}\.c:[0-9]+" "$tmp/err"; then why="no $prog:LINE in the error"
    elif ! grep -Eqi "$expect" "$tmp/err"; then why="the error does not say /$expect/"
    fi
    if [ -z "$why" ]; then
        echo "PASS $name (exit $rc, ${took} s): $(grep -E '^(error|accsim:)' "$tmp/err")"
    else
        echo "FAIL $name (exit $rc, ${took} s): $why"
        sed 's/^/    | /' "$tmp/err" | head -20
        failed=1
    fi
}

case_ nvrtc vector_add.c 101 'NVRTC.*a bug in accsim' ACCSIM_CUDA_INJECT_FAULT=nvrtc
case_ nvrtc-env vector_add.c 5 'NVRTC.*OUT_OF_MEMORY' ACCSIM_CUDA_INJECT_FAULT=nvrtc-env
case_ oom oom_acc_malloc.c 4 'out of memory|memory'
case_ oom-exhausted oom_exhausted.c 4 'out of memory|memory'
case_ oom-gpu vector_add.c 4 "GPU's memory is full" ACCSIM_CUDA_INJECT_FAULT=oom
case_ fault fault_deviceptr.c 3 'illegal|address|fault|invalid'
case_ fault-pointer fault_bad_pointer.c 3 'illegal|address|fault|invalid'

# The GPU is usable again after the faults.
timeout -k 10 "$limit" "$bin" run --device "$device" "$here/vector_add.c" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "3069" ]; then
    echo "PASS after-fault (a normal run prints 3069)"
else
    echo "FAIL after-fault (exit $rc): $(head -3 "$tmp/err")"
    failed=1
fi
exit $failed
