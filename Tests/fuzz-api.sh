#!/usr/bin/env bash
# Property-based fuzzing of the control API: schemathesis (from PyPI) generates requests from docs/openapi.yaml
# and sends them to a live workspaced through socat (TCP on 127.0.0.1 -> the Unix socket). Fails on any 5xx and
# on any response that breaks the schema (body, status code, content type). `GET /v1/events` is a stream that
# stays open until the daemon stops, so schemathesis skips it (it would wait out --request-timeout on every
# example); a bounded curl checks its head and first event instead.
#
#   Tests/fuzz-api.sh            skips with a message when not root or when schemathesis cannot be installed
#   CI=true Tests/fuzz-api.sh    never skips: a missing tool is a failure
#
# Environment: FUZZ_MAX_EXAMPLES (per operation, default 25), FUZZ_MAX_TIME (seconds, default 60),
# FUZZ_SEED (default random), SWIFT (default swift), FUZZ_VENV (default .build/fuzz-venv).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
SWIFT=${SWIFT:-swift}
VENV=${FUZZ_VENV:-$ROOT/.build/fuzz-venv}
MAX_EXAMPLES=${FUZZ_MAX_EXAMPLES:-25}
MAX_TIME=${FUZZ_MAX_TIME:-60}

skip() {
    if [ "${CI:-}" = "true" ]; then
        echo "fuzz-api: cannot run under CI=true: $*" >&2
        exit 1
    fi
    echo "fuzz-api: skipped: $* (CI=true makes this a failure)"
    exit 0
}

[ "$(id -u)" = 0 ] || skip "not root (socat may need installing with apt-get)"
command -v python3 >/dev/null || skip "python3 is missing"
if ! command -v socat >/dev/null; then
    if command -v apt-get >/dev/null; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq socat >/dev/null 2>&1 ||
            { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq socat >/dev/null 2>&1; } ||
            skip "socat is missing and apt-get could not install it"
    else
        skip "socat is missing"
    fi
fi
if [ ! -x "$VENV/bin/schemathesis" ]; then
    python3 -m venv "$VENV" || skip "python3 -m venv failed"
    "$VENV/bin/pip" install -q 'schemathesis>=4,<5' || skip "pip could not install schemathesis (no network?)"
fi

SWIFT="$SWIFT" Scripts/swift-build.sh --product workspaced >/dev/null
BIN=$(SWIFT="$SWIFT" Scripts/swift-build.sh --show-bin-path)/workspaced

WORK=$(mktemp -d /tmp/fuzz-api-XXXXXX)
DAEMON_PID=""
SOCAT_PID=""
cleanup() {
    [ -n "$SOCAT_PID" ] && kill "$SOCAT_PID" 2>/dev/null || true
    [ -n "$DAEMON_PID" ] && kill -TERM "$DAEMON_PID" 2>/dev/null && wait "$DAEMON_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/state"
echo '{"save": {"debounceMilliseconds": 100, "maximumDelayMilliseconds": 500}}' >"$WORK/config.json"
"$BIN" run --config "$WORK/config.json" --state-directory "$WORK/state" --control-socket "$WORK/c.sock" \
    >"$WORK/daemon.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 1 200); do
    [ -S "$WORK/c.sock" ] && break
    sleep 0.05
done
[ -S "$WORK/c.sock" ] || { cat "$WORK/daemon.log" >&2; echo "fuzz-api: workspaced did not start" >&2; exit 1; }

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
socat "TCP-LISTEN:$PORT,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$WORK/c.sock" &
SOCAT_PID=$!
for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/v1/status" && break
    sleep 0.05
done

SEED_ARGS=()
[ -n "${FUZZ_SEED:-}" ] && SEED_ARGS=(--seed "$FUZZ_SEED")
echo "fuzz-api: schemathesis against workspaced (pid $DAEMON_PID) via 127.0.0.1:$PORT, $MAX_EXAMPLES examples per operation, at most ${MAX_TIME}s"
status=0
cd "$WORK" # schemathesis writes its .schemathesis/ state into the working directory
"$VENV/bin/schemathesis" run "$ROOT/docs/openapi.yaml" --url "http://127.0.0.1:$PORT" \
    --exclude-operation-id watchEvents \
    --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
    --max-examples "$MAX_EXAMPLES" --max-time "$MAX_TIME" --workers 1 --request-timeout 30 \
    --generation-database none --no-color "${SEED_ARGS[@]}" || status=$?
# The event stream, bounded: its head and its first line (a `subscribed` event), then curl gives up (exit 28).
events_status=0
curl -s -N -D "$WORK/events.head" -o "$WORK/events.body" --max-time 2 --unix-socket "$WORK/c.sock" \
    http://localhost/v1/events || events_status=$?
if [ "$events_status" != 28 ] || ! grep -qi '^content-type: application/x-ndjson' "$WORK/events.head" ||
    ! head -n 1 "$WORK/events.body" | grep -q '"type":"subscribed"'; then
    echo "fuzz-api: GET /v1/events did not stream (curl exit $events_status):" >&2
    cat "$WORK/events.head" "$WORK/events.body" >&2 || true
    status=1
fi
if grep -qiE "fatal|crash" "$WORK/daemon.log"; then
    echo "fuzz-api: the daemon logged a crash:" >&2
    cat "$WORK/daemon.log" >&2
    status=1
fi
kill -0 "$DAEMON_PID" 2>/dev/null || { echo "fuzz-api: workspaced died during the run" >&2; status=1; }
exit $status
