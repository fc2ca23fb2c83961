#!/usr/bin/env bash
# Builds the DocC documentation of the reusable libraries, StateStore, StateStoreTesting, StateModel and Systemd
# (their catalogs are Sources/<name>/<name>.docc), with swift-docc-plugin, and fails on any
# DocC warning: a broken ``symbol`` or <doc:article> link, an unknown directive, a missing parameter.
#
#   Scripts/build-docs.sh [OUTPUT]       (make docs; default OUTPUT .build-docs/docs)
#
# Writes OUTPUT/<name>.doccarchive for each, each ready for static hosting (serve OUTPUT
# over HTTP and open /documentation/statestore), and prints their paths. The build uses its own scratch path,
# .build-docs (DOCS_SCRATCH_PATH to change it), so it never waits for the lock of another build.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
scratch=${DOCS_SCRATCH_PATH:-.build-docs}
output=${1:-$scratch/docs}
log=$(mktemp /tmp/workspaced-docs-XXXXXX.log)
trap 'rm -f "$log"' EXIT
mkdir -p "$scratch" "$(dirname "$output")"

status=0
$swift package --scratch-path "$scratch" --allow-writing-to-directory "$output" \
    generate-documentation --target StateStore --target StateStoreTesting --target StateModel --target Systemd --output-path "$output" \
    --warnings-as-errors --transform-for-static-hosting >"$log" 2>&1 || status=$?

# docc reports warnings as `FILE:LINE:COLUMN: warning: …` (errors, with --warnings-as-errors), and the plug-in its
# own as `warning: …`; either fails the build, even if a future plug-in or docc stops failing on them.
if [ "$status" -ne 0 ] || grep -Eq '(^|: )(warning|error):' "$log"; then
    cat "$log"
    echo "build-docs: failed (exit status $status); fix every DocC warning above" >&2
    exit 1
fi
grep -A2 '^Generated' "$log"
