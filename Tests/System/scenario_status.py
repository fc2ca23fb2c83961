"""System scenario 19: the STATUS line and `workspacectl status` while the disk is full, and after it is freed.

The state directory is a 256 KiB tmpfs (real ENOSPC, /work/shared/NOTES.md); a filler file takes every free
block, a change is accepted in memory and its save fails; `systemctl status` then shows the failing line and
`workspacectl status` the error. Removing the filler lets the next retry succeed: the ready line (with the load
summary) returns, with no restart and the change on disk.
"""

from __future__ import annotations

import errno
import re

import systemtest as st
from harness import check, wait_for

FILLER = f"{st.STATE_DIR}/filler"


def fill(machine) -> int:
    """Writes a filler file until the tmpfs is full; returns its size."""
    written = 0
    with open(machine.path(FILLER), "wb", buffering=0) as handle:
        block = b"\0" * 4096
        while True:
            try:
                written += handle.write(block)
            except OSError as error:
                check(error.errno == errno.ENOSPC, f"filling the state directory failed: {error}")
                return written


def scenario_19_disk_full_status(suite: st.Suite) -> str:
    """A full disk shows in STATUS and status, and the ready line comes back after space is freed."""
    with suite.installed(st.default_config(debounce=50, maximum_delay=500)) as machine:
        machine.run("mkdir", "-p", "-m", "0700", "/var/lib/private/workspaced")
        machine.run("mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", "/var/lib/private/workspaced")
        machine.systemctl("start", st.UNIT)
        pid = machine.main_pid()
        ready = st.active(machine)["StatusText"]
        check(ready.startswith("serving "), f"not the ready line: {ready!r}")
        st.expect_ok(machine.http("POST", "/v1/favorites", {"name": "before", "path": "/before"}), 201)
        st.expect_ok(machine.http("POST", "/v1/flush"))

        filled = fill(machine)
        st.expect_ok(machine.http("POST", "/v1/favorites", {"name": "during", "path": "/during"}), 201)
        wait_for("the failing STATUS line", lambda: st.active(machine)["StatusText"].startswith("saving FAILED since"),
                 timeout=10)
        line = st.active(machine)["StatusText"]
        check(re.fullmatch(r"saving FAILED since \d\d:\d\d:\d\d UTC: ENOSPC \(No space left on device\)", line),
              f"unexpected failing line: {line!r}")
        text = machine.systemctl("status", "--no-pager", st.UNIT, check=False).stdout
        check(f'Status: "{line}"' in text, f"systemctl status does not show the failing line:\n{text}")
        status = st.expect_ok(machine.http("GET", "/v1/status")).json
        check(status.get("savesFailingSince") and "No space left" in (status.get("lastError") or ""),
              f"/v1/status does not say the saves fail: {status}")
        shown = st.workspacectl(machine, "status")
        check(shown.returncode == 0 and "failing since" in shown.stdout and "No space left" in shown.stdout,
              f"workspacectl status does not show the failure:\n{shown.stdout}{shown.stderr}")
        check("loaded" in shown.stdout, f"workspacectl status does not show the load:\n{shown.stdout}")

        machine.path(FILLER).unlink()
        wait_for("the ready line to return", lambda: st.active(machine)["StatusText"] == ready, timeout=30)
        on_disk = st.names((st.state_on_disk(machine) or {}).get("favorites", []))
        check("during" in on_disk, f"the change accepted while the disk was full is not on disk: {on_disk}")
        state = st.active(machine)
        check(state["MainPID"] == str(pid) and state["NRestarts"] == "0", f"the service restarted: {state}")
        status = st.expect_ok(machine.http("GET", "/v1/status")).json
        check(status.get("savesFailingSince") is None and status.get("lastError") is None,
              f"/v1/status still reports a failure after recovery: {status}")
        return (f"filled a 256 KiB state directory ({filled} bytes); STATUS {line!r}; after freeing it the ready "
                "line returned with no restart and the change on disk")


SCENARIOS = [(19, "disk full in STATUS and status", scenario_19_disk_full_status)]
