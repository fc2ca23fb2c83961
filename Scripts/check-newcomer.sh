#!/usr/bin/env bash
# The newcomer's check (make newcomer, part of make test): builds Tests/Newcomer, the settings service written
# from the StateStore guides only, as a package of its own that depends on this repository by path with
# `traits: []`, runs its tests and the service itself, and fails when
#   - it resolves any package but swift-syntax (the macro's plug-in),
#   - it compiles a module that StateStore, StateModel and StateStoreTesting do not need (SwiftNIO, swift-crypto,
#     swift-log, the daemon...),
#   - the service does not migrate a version 1 file, apply changes read on standard input, and on SIGTERM flush
#     them and exit 0.
#
#   Scripts/check-newcomer.sh            (scratch path Tests/Newcomer/.build; NEWCOMER_SCRATCH_PATH to change it)
set -euo pipefail
cd "$(dirname "$0")/../Tests/Newcomer"
swift=${SWIFT:-swift}
scratch=${NEWCOMER_SCRATCH_PATH:-.build}
fail() { echo "newcomer: $*" >&2; exit 1; }

start=$(date +%s)
$swift build --build-tests --scratch-path "$scratch"
echo "newcomer: built in $(($(date +%s) - start)) s"
$swift test --skip-build --scratch-path "$scratch"

resolved=$(ls "$scratch/checkouts" | tr '\n' ' ')
[ "$resolved" = "swift-syntax " ] || fail "resolved [$resolved], expected only swift-syntax"

bin=$($swift build --scratch-path "$scratch" --show-bin-path)
allowed='^(Settings|SettingsTests|settings_service|settingsPackage(Discovered)?Tests|StateStore|StateCoding|StateJSON'
allowed+='|StateModel|StateStoreTesting|CSignalLatch|StateModelMacros-tool|_?Swift[A-Za-z0-9]*-tool)\.build$'
compiled=()
for directory in "$bin"/*.build; do
    name=$(basename "$directory")
    [ -n "$(find "$directory" -name '*.o' -print -quit)" ] || continue
    compiled+=("$name")
    [[ "$name" =~ $allowed ]] || fail "compiled $name, which none of StateStore, StateModel, StateStoreTesting needs"
done
echo "newcomer: resolved $resolved; compiled ${#compiled[@]} modules, none beyond the three products' needs"

# The goals of the guide's service: at most 40 lines of service code (model, schema, main) and 20 of tests, blank
# lines and comments left out.
code_lines() { cat "$@" | grep -Ev '^[[:space:]]*(//.*)?$' | wc -l; }
service=$(code_lines Sources/Settings/*.swift Sources/settings-service/*.swift)
tests=$(code_lines Tests/SettingsTests/*.swift)
echo "newcomer: $service lines of service code, $tests of tests"
[ "$service" -le 40 ] || fail "$service lines of service code, more than the guide's 40"
[ "$tests" -le 20 ] || fail "$tests lines of tests, more than the guide's 20"

# The service on a version 1 file: two changes on standard input, then SIGTERM.
state=$(mktemp -d /tmp/newcomer-XXXXXX)
trap 'rm -rf "$state"' EXIT
cp Tests/SettingsTests/Fixtures/v1.json "$state/settings.json"
# It keeps settings.json in its current directory.
pushd "$state" >/dev/null
printf 'theme solarized\nfontSize 14\n' | "$bin/settings-service" >"$state/output" 2>&1 &
pid=$!
popd >/dev/null
for _ in $(seq 300); do grep -q '^revision 2$' "$state/output" && break; sleep 0.1; done
grep -q '^revision 2$' "$state/output" || { kill -KILL "$pid"; cat "$state/output"; fail "no revision 2 in 30 s"; }
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
cat "$state/output"
[ "$status" -eq 0 ] || fail "settings-service exited with $status after SIGTERM, expected 0"
grep -q '^migrated version 1 to 2' "$state/output" || fail "no migration line in the load report"
grep -q '^  defaulted: fontSize' "$state/output" || fail "the load report does not list fontSize as defaulted"
cmp -s Tests/SettingsTests/Fixtures/v1.json "$state/settings.json.v1.bak" || fail "the version 1 bytes were not kept"
python3 - "$state/settings.json" <<'PYTHON' || fail "settings.json does not hold the two changes: $(cat "$state/settings.json")"
import json, sys
stored = json.load(open(sys.argv[1]))
sys.exit(0 if (stored["theme"], stored["fontSize"], stored["version"], stored["revision"]) == ("solarized", 14, 2, 2) else 1)
PYTHON
echo "newcomer: the service migrated version 1, applied 2 changes and flushed them on SIGTERM (exit 0)"
