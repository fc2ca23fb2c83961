#!/usr/bin/env bash
# The flake budget (issue 11): runs the whole `swift test` RUNS times in a row (default 10) while two busy loops
# compete for the machine's cores, and fails unless every run passes. A test that fails one run in twenty on a
# loaded machine is a defect: this is how it is found before CI finds it.
#
#   Scripts/test-stress.sh [RUNS]        (make test-stress RUNS=10)
#
# Prints one line per run (result, duration, test count) and ends with "N passed, N failed" (runs).
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
swift=${SWIFT:-swift}
log_dir=$(mktemp -d /tmp/workspaced-stress-XXXXXX)

SWIFT=$swift Scripts/swift-build.sh --build-tests >"$log_dir/build.log" 2>&1 || { cat "$log_dir/build.log"; exit 1; }

busy() { while :; do :; done; }
busy & first=$!
busy & second=$!
trap 'kill $first $second 2>/dev/null' EXIT

passed=0
failed=0
for run in $(seq 1 "$runs"); do
    started=$(date +%s.%N)
    if Scripts/with-s3-server.sh $swift test --skip-build >"$log_dir/run-$run.log" 2>&1; then
        passed=$((passed + 1)); result=PASS
    else
        failed=$((failed + 1)); result=FAIL
    fi
    took=$(awk -v a="$(date +%s.%N)" -v b="$started" 'BEGIN { print a - b }')
    tests=$(grep -Eo 'Test run with [0-9]+ tests' "$log_dir/run-$run.log" | grep -Eo '[0-9]+' | tail -1)
    printf '%s run %2d: %6.1f s, %s Swift Testing tests\n' "$result" "$run" "$took" "${tests:-?}"
    if [ "$result" = FAIL ]; then
        grep -E '✘|error:|failed' "$log_dir/run-$run.log" | head -20 | sed 's/^/    /'
    fi
done
echo "logs in $log_dir"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
