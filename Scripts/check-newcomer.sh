#!/usr/bin/env bash
# The newcomer's check (make newcomer, part of make test): builds Tests/Newcomer, the settings service written
# from the StateStore guides only, as a package of its own that depends on this repository by path with
# `traits: []`, runs its tests and the service itself, and fails when
#   - it resolves any package but swift-syntax (the macro's plug-in),
#   - it compiles a module that StateStore, StateModel and StateStoreTesting do not need (SwiftNIO, swift-crypto,
#     swift-log, the daemon...),
#   - the service does not migrate a version 1 file, apply changes read on standard input, and on SIGTERM flush
#     them and exit 0; or, started again on that file, load it as version 2, continue its revisions and flush on
#     SIGINT with exit 0;
#   - a line that is not a change does not name itself, takes a revision, or stops the reading; the end of the
#     input does not flush and exit 0 as SIGTERM does;
#   - a compatible file from a newer release loses a field it holds (issue 41): through the service, and through a
#     package outside the repository whose model has a nested record and no UnknownFields property anywhere.
#
#   Scripts/check-newcomer.sh            (scratch path Tests/Newcomer/.build; NEWCOMER_SCRATCH_PATH to change it)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo/Tests/Newcomer"
swift=${SWIFT:-swift}
scratch=${NEWCOMER_SCRATCH_PATH:-.build}
fail() { echo "newcomer: $*" >&2; exit 1; }

# The outside package below is built in this scratch path too: a previous run's objects of it are not the
# newcomer's modules.
if [ -d "$scratch" ]; then find "$scratch" -maxdepth 3 -name outside.build -prune -exec rm -rf {} +; fi
start=$(date +%s)
$swift build --build-tests --scratch-path "$scratch"
echo "newcomer: built in $(($(date +%s) - start)) s"
$swift test --skip-build --scratch-path "$scratch"

resolved=$(ls "$scratch/checkouts" | tr '\n' ' ')
[ "$resolved" = "swift-syntax " ] || fail "resolved [$resolved], expected only swift-syntax"

bin=$($swift build --scratch-path "$scratch" --show-bin-path)
allowed='^(Settings|SettingsTests|settings_service|settingsPackage(Discovered)?Tests|StateStore|StateCoding|StateJSON'
allowed+='|StateModel|StateStoreTesting|CSignalLatch|CChecksum|StateModelMacros-tool|_?Swift[A-Za-z0-9]*-tool)\.build$'
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

state=$(mktemp -d /tmp/newcomer-XXXXXX)
outside=$(mktemp -d /tmp/newcomer-outside-XXXXXX)
trap 'exec 3>&- 2>/dev/null; rm -rf "$state" "$outside"' EXIT

# Runs the service in $state (it keeps settings.json in its current directory) with CHANGES on standard input,
# which stays open (a FIFO held by this shell, so that the end of the input does not stop it first), waits for
# `revision REVISION`, then sends SIGNAL and fails unless the service exits 0. Its output is in $state/output.
#   run_until_revision REVISION SIGNAL CHANGES
run_until_revision() {
    rm -f "$state/input" "$state/output"
    mkfifo "$state/input"
    pushd "$state" >/dev/null
    "$bin/settings-service" <"$state/input" >"$state/output" 2>&1 &
    local pid=$!
    popd >/dev/null
    exec 3>"$state/input"
    printf '%s' "$3" >&3
    for _ in $(seq 300); do grep -q "^revision $1\$" "$state/output" && break; sleep 0.1; done
    grep -q "^revision $1\$" "$state/output" || { kill -KILL "$pid"; cat "$state/output"; fail "no revision $1 in 30 s"; }
    kill "-$2" "$pid"
    local status=0
    wait "$pid" || status=$?
    exec 3>&-
    cat "$state/output"
    [ "$status" -eq 0 ] || fail "settings-service exited with $status after SIG$2, expected 0"
}

# The service on a version 1 file: two changes, then SIGTERM.
cp Tests/SettingsTests/Fixtures/v1.json "$state/settings.json"
run_until_revision 2 TERM $'theme solarized\nfontSize 14\n'
grep -q '^migrated version 1 to 2' "$state/output" || fail "no migration line in the load report"
grep -q '^  defaulted: fontSize' "$state/output" || fail "the load report does not list fontSize as defaulted"
cmp -s Tests/SettingsTests/Fixtures/v1.json "$state/settings.json.v1.bak" || fail "the version 1 bytes were not kept"
python3 - "$state/settings.json" <<'PYTHON' || fail "settings.json does not hold the two changes: $(cat "$state/settings.json")"
import json, sys
stored = json.load(open(sys.argv[1]))
sys.exit(0 if (stored["theme"], stored["fontSize"], stored["version"], stored["revision"]) == ("solarized", 14, 2, 2) else 1)
PYTHON
echo "newcomer: the service migrated version 1, applied 2 changes and flushed them on SIGTERM (exit 0)"

# A second start on that file, stopped with SIGINT (Ctrl-C): it loads version 2 as it is, its change continues the
# revisions (3), and the flush on SIGINT exits 0 as on SIGTERM.
run_until_revision 3 INT $'theme dark\n'
grep -q 'loaded version 2' "$state/output" || fail "the second start did not load version 2 as it is"
python3 - "$state/settings.json" <<'PYTHON' || fail "settings.json does not hold the third change: $(cat "$state/settings.json")"
import json, sys
stored = json.load(open(sys.argv[1]))
sys.exit(0 if (stored["theme"], stored["fontSize"], stored["revision"]) == ("dark", 14, 3) else 1)
PYTHON
echo "newcomer: a second start loaded version 2, continued at revision 3 and flushed it on SIGINT (exit 0)"

# Lines that are not changes, then the end of the input: each is named and ignored (no revision), the reading goes
# on, and the end of the input flushes and exits 0 as SIGTERM does.
rm -f "$state"/settings.json* "$state"/output
pushd "$state" >/dev/null
status=0
printf 'theme solarized\n\nbogus line\nfontSize big\ntheme\nfontSize 15\n' | timeout 30 "$bin/settings-service" \
    >"$state/output" 2>&1 || status=$?
popd >/dev/null
cat "$state/output"
[ "$status" -eq 0 ] || fail "settings-service exited with $status at the end of its input, expected 0"
[ "$(grep -c '^ignored ' "$state/output")" -eq 4 ] || fail "not every line that is no change was named"
[ "$(grep -c '^revision ' "$state/output")" -eq 2 ] || fail "a line that is no change took a revision"
python3 - "$state/settings.json" <<'PYTHON' || fail "the end of the input did not flush both changes: $(cat "$state/settings.json")"
import json, sys
stored = json.load(open(sys.argv[1]))
sys.exit(0 if (stored["theme"], stored["fontSize"], stored["revision"]) == ("solarized", 15, 2) else 1)
PYTHON
echo "newcomer: 4 lines that are no change were named and took no revision; the end of the input flushed (exit 0)"

# A compatible file from a newer release (version 3, minReaderVersion 2) with a key version 2 does not know: two
# changes and the end of the input; the key is still there, and the file is still labelled version 3.
rm -f "$state"/settings.json* "$state"/output
cp Tests/SettingsTests/Fixtures/v3.json "$state/settings.json"
pushd "$state" >/dev/null
status=0
printf 'theme solarized\nfontSize 16\n' | timeout 30 "$bin/settings-service" >"$state/output" 2>&1 || status=$?
popd >/dev/null
cat "$state/output"
[ "$status" -eq 0 ] || fail "settings-service exited with $status on a newer file, expected 0"
python3 - "$state/settings.json" <<'PYTHON' || fail "the newer file lost what it held: $(cat "$state/settings.json")"
import json, sys
stored = json.load(open(sys.argv[1]))
want = {"cursor": "block", "theme": "solarized", "fontSize": 16, "version": 3, "minReaderVersion": 2, "revision": 2}
sys.exit(0 if all(stored.get(k) == v for k, v in want.items()) else 1)
PYTHON
echo "newcomer: a newer file kept its unknown key through two changes and still says version 3"

# Issue 41 as a package outside the repository meets it: its version 2 model has a nested record and no
# UnknownFields property anywhere; it loads a version 3 file that allows it, with a key unknown at the root and
# one inside the nested record, saves twice through PersistentState and stops. Built in this scratch path, so
# that swift-syntax is not compiled again.
mkdir -p "$outside/Sources/outside"
cat >"$outside/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "outside",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "workspaced", path: "$repo", traits: [])],
    targets: [
        .executableTarget(
            name: "outside",
            dependencies: [
                .product(name: "StateStore", package: "workspaced"),
                .product(name: "StateModel", package: "workspaced"),
            ])
    ]
)
SWIFT
cat >"$outside/Sources/outside/main.swift" <<'SWIFT'
import StateModel
import StateStore

@StateModel struct Editor: Sendable { var fontSize: Int = 12 }

@StateModel struct Settings: Sendable {
    var theme: String
    var editor: Editor = Editor()
}

let schema = try StateSchema(currentVersion: 2, firstVersion: 2, initial: { Settings(theme: "light") })
let file = StateFile(path: CommandLine.arguments[1], schema: schema)
let loaded = try file.load()
print(loaded.report)
let state = PersistentState(file: file, loaded: loaded)
try state.apply { $0.theme = "solarized" }
try state.flushSynchronously()
try state.apply { $0.editor.fontSize = 16 }
try state.close()
SWIFT
printf '%s\n' '{"editor":{"fontSize":14,"wordWrap":"bounded"},"lineSpacing":1.5,"minReaderVersion":2,"theme":"dark","version":3}' \
    >"$state/outside.json"
start=$(date +%s)
$swift build --package-path "$outside" --scratch-path "$(cd "$scratch" && pwd)" --product outside
echo "newcomer: the outside package built in $(($(date +%s) - start)) s"
"$bin/outside" "$state/outside.json"
python3 - "$state/outside.json" <<'PYTHON' || fail "the outside package lost a newer key: $(cat "$state/outside.json")"
import json, sys
stored = json.load(open(sys.argv[1]))
ok = (stored.get("lineSpacing") == 1.5 and stored["editor"].get("wordWrap") == "bounded"
      and stored["editor"]["fontSize"] == 16 and stored["theme"] == "solarized" and stored["version"] == 3)
sys.exit(0 if ok else 1)
PYTHON
echo "newcomer: outside the repository, a model without UnknownFields kept a newer root key and nested key"
