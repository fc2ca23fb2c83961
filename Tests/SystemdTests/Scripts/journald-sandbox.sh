#!/bin/sh
# Runs a command next to a private systemd-journald and leaves the journal files in OUTDIR/journal.
#   journald-sandbox.sh OUTDIR COMMAND [ARG...]
# Needs root and unshare(1). Read the entries afterwards with: journalctl -D OUTDIR/journal -o json
# The journald sees only this mount namespace: tmpfs /run (socket in /run/systemd/journal), /run/log/journal
# bound to OUTDIR/journal, a tmpfs over /var/log/journal, and its own journald.conf.
set -eu
[ "$#" -ge 2 ] || { echo "usage: $0 OUTDIR COMMAND [ARG...]" >&2; exit 2; }
outdir=$1
shift
mkdir -p "$outdir/journal"
cat > "$outdir/journald.conf" <<'CONF'
[Journal]
Storage=volatile
ReadKMsg=no
Audit=no
RateLimitBurst=0
ForwardToSyslog=no
ForwardToKMsg=no
ForwardToConsole=no
ForwardToWall=no
CONF

exec unshare --mount --propagation private /bin/sh -eu -c '
outdir=$1
shift
mount -t tmpfs -o mode=0755 tmpfs /run
mkdir -p /run/systemd/journal /run/log/journal
mount --bind "$outdir/journal" /run/log/journal
if [ -d /var/log/journal ]; then mount -t tmpfs tmpfs /var/log/journal; fi
mount --bind "$outdir/journald.conf" /etc/systemd/journald.conf
/lib/systemd/systemd-journald >"$outdir/journald.log" 2>&1 &
journald=$!
trap "kill \$journald 2>/dev/null; wait \$journald 2>/dev/null || true" EXIT
tries=0
while [ ! -S /run/systemd/journal/socket ]; do
    tries=$((tries + 1))
    if [ "$tries" -gt 500 ]; then echo "journald did not start" >&2; cat "$outdir/journald.log" >&2; exit 3; fi
    sleep 0.01
done
status=0
"$@" || status=$?
journalctl --sync
exit "$status"
' sandbox "$outdir" "$@"
