"""System scenarios 25 and 26: the operator's first hour (issue 47).

25: what a restart cannot fix never loops. A bad configuration value (backupsKept 0) and a state file the service's
dynamic user may not read (root's, mode 0600) each fail the start once, with the status systemd does not restart
on (78, 77), NRestarts 0, the socket still listening and the reason (with the fix, for the permission) in the
journal; `workspaced check` as root says what the service meets. After the operator fixes the cause, a plain
`systemctl start` works, without `reset-failed`.

28: the journal-only state is a state. A SIGKILL before the first snapshot (a minute of debounce) leaves no
`workspace.json`, only the change journal: `workspaced check` says what a start would serve (exit 0, not "no such
file"), the next start's STATUS says it replayed the changes, and the state file holds them within the maximum
delay without another change.

26: a broken file never starts empty while a good copy exists. A version 3 file is migrated (its bytes kept as
`workspace.json.v3.bak`), then the state file is cut in half; the next start sets it aside, serves the backup
(migrated), and says so in STATUS, the journal (its MESSAGE_ID, explained by `journalctl -x`) and `/v1/status`.
"""

from __future__ import annotations

import os
import re
import time

import systemtest as st
from harness import check, wait_for

RESTORED_FROM_BACKUP = "b09537f355614952a348eaee12d21470"


def settled_failed(machine) -> dict[str, str]:
    """Waits for the unit to settle in failed (not activating: no restart pending) and returns its state."""
    return wait_for("the unit to settle in failed", lambda: (lambda s: s if s["ActiveState"] == "failed" else None)(
        machine.show(st.UNIT, "ActiveState", "SubState", "Result", "ExecMainStatus", "NRestarts", "StatusText")))


def socket_listening(machine) -> bool:
    return machine.show("workspaced.socket", "ActiveState")["ActiveState"] == "active"


def scenario_25_no_loop(suite: st.Suite) -> str:
    """A bad value and an unreadable file fail once, keep the socket, and start after the fix."""
    with suite.installed(st.default_config(backupsKept=0)) as machine:
        machine.systemctl("start", "workspaced.socket")
        start = machine.systemctl("start", st.UNIT, check=False)
        check(start.returncode != 0, "systemctl start succeeded with backupsKept 0")
        shown = settled_failed(machine)
        check(shown["ExecMainStatus"] == "78" and shown["NRestarts"] == "0",
              f"expected exit 78 from the daemon and no restart: {shown}")
        check("backupsKept" in shown["StatusText"], f"STATUS does not name the key: {shown['StatusText']!r}")
        check(socket_listening(machine), "workspaced.socket failed with the service")
        st.write_config(machine, st.default_config())
        machine.systemctl("start", st.UNIT)
        check(st.active(machine)["SubState"] == "running", "not running after the fix")
        config_line = f"exit 78 once, NRestarts 0, socket listening, started after the fix"

    with suite.installed() as machine:
        st.place_state(machine, (st.FIXTURES / "versions/v4.json").read_bytes())
        machine.systemctl("start", st.UNIT)
        machine.systemctl("stop", st.UNIT)
        state = machine.path(st.STATE)
        uid = state.stat().st_uid
        os.chown(state, 0, 0)
        os.chmod(state, 0o600)
        start = machine.systemctl("start", st.UNIT, check=False)
        check(start.returncode != 0, "systemctl start succeeded on a file the service may not read")
        shown = settled_failed(machine)
        check(shown["ExecMainStatus"] == "77" and shown["NRestarts"] == "0",
              f"expected exit 77 and no restart: {shown}")
        check(socket_listening(machine), "workspaced.socket failed with the service")
        message = " ".join([str(entry.get("MESSAGE", "")) for entry in st.unit_journal(machine)]
                           + [shown["StatusText"]])
        fix = re.search(r"as root, run: (chown \d+:\d+ \S+)", message)
        check(fix is not None and "mode 0600" in message, f"the refusal names no owner, mode or fix: {message!r}")
        checked = machine.run("/usr/local/bin/workspaced", "check", check=False)
        check(checked.returncode == 77 and "chown" in checked.stdout + checked.stderr,
              f"workspaced check as root does not say what the service meets: {checked.returncode} "
              f"{checked.stdout}{checked.stderr}")
        machine.run(*fix.group(1).split(" "))
        check(state.stat().st_uid == uid, f"the fix did not give the file back to uid {uid}")
        machine.systemctl("start", st.UNIT)
        check(st.active(machine)["SubState"] == "running", "not running after the fix")
        return f"bad value: {config_line}; unreadable file: exit 77 once, fixed with `{fix.group(1)}`, started"


def scenario_26_corrupt_file_serves_its_backup(suite: st.Suite) -> str:
    """A truncated file with a backup on disk serves the backup, and says so everywhere."""
    with suite.installed() as machine:
        st.place_state(machine, (st.FIXTURES / "versions/v3.json").read_bytes())
        machine.systemctl("start", st.UNIT)
        before = st.expect_ok(machine.http("GET", "/v1/workspace")).json["workspace"]
        machine.systemctl("stop", st.UNIT)
        check(machine.path(f"{st.STATE_DIR}/workspace.json.v3.bak").exists(), "the migration kept no v3 backup")
        saved = machine.path(st.STATE).read_bytes()
        machine.path(st.STATE).write_bytes(saved[: len(saved) // 2])

        machine.systemctl("start", st.UNIT)
        shown = st.active(machine)
        check(shown["SubState"] == "running", f"not running: {shown}")
        check("restored from backup workspace.json.v3.bak" in shown["StatusText"],
              f"STATUS does not say where the state came from: {shown['StatusText']!r}")
        after = st.expect_ok(machine.http("GET", "/v1/workspace")).json["workspace"]
        check(st.names(after.get("projects", [])) == st.names(before.get("projects", [])) and after.get("projects"),
              "the backup's projects are not served")
        status = st.expect_ok(machine.http("GET", "/v1/status")).json
        load = status.get("load") or {}
        check(load.get("restoredFromBackup") == "workspace.json.v3.bak" and load.get("source") == "quarantined",
              f"/v1/status does not say it: {load}")
        entries = st.unit_journal(machine, f"MESSAGE_ID={RESTORED_FROM_BACKUP}")
        entry = entries[0] if entries else {}
        check(entry.get("RESTORED_FROM") == "workspace.json.v3.bak"
              and "workspace.json.corrupt-" in entry.get("QUARANTINE_PATH", ""),
              f"no journal entry with the backup and the quarantined file: {entries}")
        machine.run("journalctl", "--update-catalog")  # as make install does on a running systemd
        explained = machine.run("journalctl", "--no-pager", "-x", "-u", st.UNIT,
                                f"MESSAGE_ID={RESTORED_FROM_BACKUP}").stdout
        check("restored the state from a backup" in explained, f"journalctl -x does not explain it:\n{explained}")
        quarantined = [p for p in machine.path(st.STATE_DIR).iterdir() if p.name.startswith("workspace.json.corrupt-")]
        check(len(quarantined) == 1 and quarantined[0].read_bytes() == saved[: len(saved) // 2],
              "the broken bytes were not kept aside")
        return (f"truncated file set aside as {quarantined[0].name}; served workspace.json.v3.bak "
                f"({len(after.get('projects', []))} project(s)), in STATUS, the journal and /v1/status")


def scenario_28_journal_only_state(suite: st.Suite) -> str:
    """A SIGKILL before the first snapshot: check, STATUS and the snapshot treat the journal as the state."""
    with suite.installed(st.default_config(debounce=60_000, maximum_delay=600_000)) as machine:
        # No restart: the scenario starts the service itself, after `check`.
        machine.write(f"{st.DROP_INS}/no-restart.conf", "[Service]\nRestart=no\n")
        machine.systemctl("daemon-reload")
        machine.systemctl("start", st.UNIT)
        for name in ("one", "two"):
            st.expect_ok(machine.http("POST", "/v1/favorites", {"name": name, "path": f"/srv/{name}"}), 201)
        machine.systemctl("kill", "-s", "KILL", st.UNIT)
        wait_for("the kill", lambda: st.active(machine)["ActiveState"] in ("failed", "inactive") or None)
        check(not machine.path(st.STATE).exists(), "a snapshot came before the kill: nothing left to replay")
        checked = machine.run("/usr/local/bin/workspaced", "check", check=False)
        check(checked.returncode == 0 and "journal: 2 change(s) a start would replay" in checked.stdout,
              f"check does not say what a start serves: {checked.returncode} {checked.stdout}{checked.stderr}")

        st.write_config(machine, st.default_config(debounce=500, maximum_delay=5000))
        machine.systemctl("start", st.UNIT)
        started = time.monotonic()
        line = st.active(machine)["StatusText"]
        check("replayed 2 changes from the change journal" in line and "started" not in line.split(";")[1],
              f"STATUS does not say the state is the journal's: {line!r}")
        wait_for("the snapshot of the replayed changes", lambda: machine.path(st.STATE).exists() or None, timeout=15)
        took = time.monotonic() - started
        stored = st.names((st.state_on_disk(machine) or {}).get("favorites", []))
        check(stored == ["one", "two"], f"the snapshot does not hold the replayed changes: {stored}")
        check(took <= 5 + 3, f"the snapshot took {took:.1f} s, past the maximum delay of 5 s")
        return f"no state file after the kill; check exit 0; STATUS {line!r}; file written after {took:.1f} s"


SCENARIOS = [
    (25, "a refusal a restart cannot fix does not loop, and starts after the fix", scenario_25_no_loop),
    (26, "a corrupt file serves the newest backup that loads", scenario_26_corrupt_file_serves_its_backup),
    (28, "a journal without a state file is a state: check, STATUS and its snapshot", scenario_28_journal_only_state),
]
