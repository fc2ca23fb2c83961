#!/usr/bin/env bash
# Runs a command with a real S3 protocol server on loopback: moto's server (PyPI `moto[server]`, in its own venv,
# .build/s3-venv), started on a free port of 127.0.0.1, its URL in WSD_S3_ENDPOINT; stopped when the command ends.
# The S3 tests (StateStoreS3Tests, the daemon's replication tests) run against it and are skipped without it,
# unless CI=true, where they fail.
#
#   Scripts/with-s3-server.sh swift test --skip-build
#
# Environment: S3_VENV (default .build/s3-venv), PYTHON (default python3).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
VENV=${S3_VENV:-$ROOT/.build/s3-venv}
PYTHON=${PYTHON:-python3}

if [ ! -x "$VENV/bin/moto_server" ]; then
    echo "with-s3-server: installing moto[server] into $VENV"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet 'moto[server]>=5.1,<6'
fi

PORT=$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
LOG=$(mktemp /tmp/moto-XXXXXX.log)
"$VENV/bin/moto_server" -H 127.0.0.1 -p "$PORT" >"$LOG" 2>&1 &
SERVER=$!
cleanup() {
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    rm -f "$LOG"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$LOG" >&2; echo "with-s3-server: moto_server exited" >&2; exit 1; }
    sleep 0.1
done
curl -s -o /dev/null "http://127.0.0.1:$PORT/" || { cat "$LOG" >&2; echo "with-s3-server: no answer on $PORT" >&2; exit 1; }

export WSD_S3_ENDPOINT="http://127.0.0.1:$PORT"
export WSD_S3_VENV="$VENV"
set +e
"$@"
status=$?
set -e
exit $status
