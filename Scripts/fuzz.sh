#!/usr/bin/env bash
# Runs the libFuzzer targets of WorkspaceFuzz (built by `make fuzz`) for SECONDS each, all at once: libFuzzer is
# single-threaded, so on two cores three targets take SECONDS in all instead of three times that, each running
# about two thirds of the inputs it would alone.
#
#   Scripts/fuzz.sh BINARY SECONDS ROWS TARGET...
#
# Each target starts from its seeds and stored crashes (Tests/WorkspaceFuzzingTests/Fixtures/TARGET, read only) and
# from the corpus earlier runs grew (.build/fuzz/corpus/TARGET, kept). A crash, a broken promise (the checker
# aborts with `FINDING:`), an AddressSanitizer report or a hang leaves its input in .build/fuzz/artifacts/TARGET/;
# the script prints what to do with it and exits 1. One row per target goes to ROWS (the reliability summary):
# inputs run, failures, seconds.
set -u
if [ $# -lt 4 ]; then
    echo "usage: $0 BINARY SECONDS ROWS TARGET..." >&2
    exit 2
fi
binary=$1 seconds=$2 rows=$3
shift 3
fixtures=Tests/WorkspaceFuzzingTests/Fixtures
# Fuzzes one target; its exit status is 1 on a finding.
fuzz_target() {
    local target=$1 corpus artifacts log stamp started status ended inputs failures duration
    corpus=.build/fuzz/corpus/$target
    artifacts=.build/fuzz/artifacts/$target
    log=.build/fuzz/$target.log
    mkdir -p "$corpus" "$artifacts"
    echo "fuzzing $target for $seconds s (log: $log)"
    stamp=$(mktemp)
    started=$(date +%s.%N)
    # Leak detection is off: the Swift runtime's caches outlive the run by design. -timeout is the backstop for
    # a hang; the driver itself reports an input that takes over 10 s.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$binary" --target="$target" \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$corpus" "$fixtures/$target" >"$log" 2>&1
    status=$?
    ended=$(date +%s.%N)
    inputs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
    failures=0
    if [ "$status" -ne 0 ]; then
        failures=1
        echo "FAILED: $target (exit $status)" >&2
        grep -E "FINDING|ERROR:|SUMMARY:|Precondition failed|Fatal error" "$log" | head -5 >&2
        # The inputs of this run only (earlier runs' stay in the directory).
        find "$artifacts" -type f -newer "$stamp" | while read -r artifact; do echo "  input: $artifact" >&2; done
        echo "  Reproduce: $binary --target=$target INPUT. Once fixed, keep the input as a regression fixture:" >&2
        echo "  cp INPUT $fixtures/$target/regression-<what-it-found> (WorkspaceFuzzingTests runs it)." >&2
    else
        echo "  $target: ${inputs:-0} inputs, no finding"
    fi
    rm -f "$stamp"
    duration=$(awk -v a="$started" -v b="$ended" 'BEGIN {printf "%.1f", b - a}')
    printf 'libFuzzer %s (inputs)\t%s\t%s\t%s\n' "$target" "${inputs:-0}" "$failures" "$duration" >>"$rows"
    return $failures
}

pids=()
for target in "$@"; do
    fuzz_target "$target" &
    pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do
    wait "$pid" || failed=1
done
exit $failed
