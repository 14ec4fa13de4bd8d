#!/bin/sh
# Run each fuzz target of accsim for a budget: with cargo-fuzz (libFuzzer, nightly) when it is
# installed, else with the stable driver accsim-fuzz (simulator/src/bin/fuzz.rs). Seeds are
# the samples (preprocessed); crashes land in fuzz/crashes/TARGET/ (replayed by `cargo test -p
# accsim --test fuzz_replay`) or fuzz/artifacts/TARGET/ (cargo-fuzz: copy them to crashes/).
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]      (default 60; all three targets)
set -eu
cd "$(dirname "$0")/.."
budget=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-directive_parser frontend execute}
status=0
if cargo +nightly fuzz --version >/dev/null 2>&1; then
    for t in $targets; do
        corpus=fuzz/corpus/$t
        mkdir -p "$corpus"
        (cd fuzz && cargo +nightly fuzz run "$t" "corpus/$t" ../samples/acc ../samples/regress -- \
            -max_total_time="$budget" -timeout=20 -rss_limit_mb=2048) || status=1
    done
else
    echo "fuzz/run.sh: cargo-fuzz not installed; using the stable driver accsim-fuzz" >&2
    cargo build -q -p accsim --bin accsim-fuzz
    bin=${CARGO_TARGET_DIR:-target}/debug/accsim-fuzz
    for t in $targets; do
        "$bin" "$t" --seconds "$budget" --seed "${FUZZ_SEED:-1}" || status=1
    done
fi
exit $status
