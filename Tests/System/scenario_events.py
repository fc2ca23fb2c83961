"""System scenario 18: live events (`GET /v1/events`, `workspacectl watch`; issue 14, item 2).

In a booted machine: `workspacectl watch --json` runs as one process and sees a change made by another
`workspacectl` within a second. A stalled reader (a raw socket that sends the GET and never reads) then holds up
nothing: thousands of changes, each awaited by the watcher before the next, stay fast and the watcher misses none.
When the stalled reader finally reads it finds a `lagged` event, and what it received plus what it was told it
missed is every event, exactly. Stalled again under more changes, it does not delay `systemctl stop` (its
connection is closed), and the watcher exits 0 after the `stopping` event.
"""

from __future__ import annotations

import json
import os
import queue
import select
import socket
import subprocess
import threading
import time

import systemtest as st
from harness import UnixHTTPConnection, check

CHANGES = 3000


class Watcher:
    """`workspacectl watch --json` inside the machine; its lines arrive in a queue with the time they were read."""

    def __init__(self, machine):
        self.process = subprocess.Popen(
            ["nsenter", "-t", str(machine.pid), "-a", st.WORKSPACECTL, "watch", "--json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put((time.monotonic(), line))
        self.lines.put((time.monotonic(), None))

    def next(self, timeout: float = 10.0) -> tuple[float, dict | None]:
        """The next event and when it was read; None once the output ended."""
        try:
            at, line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise st.Failure(f"workspacectl watch printed nothing for {timeout} s") from None
        if line is None:
            return at, None
        try:
            event = json.loads(line)
        except ValueError:
            raise st.Failure(f"workspacectl watch --json printed a line that is not JSON: {line!r}") from None
        self.seen.append(event)
        return at, event

    def until(self, what: str, matches, timeout: float = 10.0) -> tuple[float, dict]:
        """Reads events until one `matches`; fails on the end of the output or after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            at, event = self.next(max(0.1, deadline - time.monotonic()))
            check(event is not None, f"workspacectl watch ended before {what}: {self.stderr()}")
            if matches(event):
                return at, event

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(still running)"
        return self.process.stderr.read()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


class StalledReader:
    """A raw client that sends `GET /v1/events` and then reads nothing until told to."""

    def __init__(self, machine):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(machine.path(st.SOCKET)))
        self.sock.sendall(b"GET /v1/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        self.buffer = b""

    def events(self) -> list[dict]:
        """The JSON lines read so far (each event is one chunk: `{...}\\n` between the chunk framing)."""
        return [json.loads(line) for line in self.buffer.split(b"\n") if line.startswith(b"{")]

    def read_until(self, done, timeout: float = 30.0) -> list[dict]:
        self.sock.settimeout(timeout)
        while not done(self.events()):
            chunk = self.sock.recv(1 << 16)
            check(chunk, "the stalled reader's connection ended before it read what it was owed")
            self.buffer += chunk
        return self.events()

    def ended(self, timeout: float = 10.0) -> bool:
        """Reads what is left; True when the daemon closed the connection (end of file, or a reset)."""
        self.sock.settimeout(timeout)
        try:
            while self.sock.recv(1 << 16):
                pass
        except ConnectionResetError:
            return True
        except OSError:
            return False
        return True

    def close(self) -> None:
        self.sock.close()


def accounted(events: list[dict]) -> str | None:
    """What is wrong with a stream's accounting, or None: after `subscribed`, every sequence number comes once,
    either as an event or inside a `lagged` event's range (its `missed` events ending at its `sequence`)."""
    if not events or events[0]["type"] != "subscribed":
        return f"the stream does not begin with subscribed: {events[:1]}"
    expected = events[0]["sequence"] + 1
    for event in events[1:]:
        if event["type"] == "lagged":
            first = event["sequence"] - event["missed"] + 1
            if first != expected or event["missed"] < 1:
                return f"lagged {event} does not continue at sequence {expected}"
            expected = event["sequence"] + 1
        elif event["sequence"] != expected:
            return f"sequence {event['sequence']} ({event['type']}) where {expected} was due"
        else:
            expected += 1
    return None


def scenario_18_live_events(suite: st.Suite) -> str:
    """workspacectl watch sees another process's change within a second; a stalled reader delays nothing and is
    told what it missed; stop is not delayed."""
    with suite.installed() as machine:
        machine.systemctl("start", st.UNIT)
        watcher = Watcher(machine)
        stalled = None
        try:
            _, first = watcher.next(timeout=20)
            check(first is not None and first["type"] == "subscribed", f"the first event is not subscribed: {first}")

            created = st.expect_ctl(machine, "project", "create", "Live", "--layout", "split")
            answered = time.monotonic()
            seen_at, change = watcher.until(
                "the change event", lambda event: event["type"] == "change", timeout=10)
            late = seen_at - answered
            check(change["revision"] == created["revision"] and change["operation"] == "project.create"
                  and change["id"] == created["value"]["id"], f"not the change made: {change} for {created}")
            check(late < 1.0, f"the change event came {late:.2f} s after workspacectl's answer")

            stalled = StalledReader(machine)
            connection = UnixHTTPConnection(str(machine.path(st.SOCKET)), timeout=10)
            slowest = 0.0
            last_revision = created["revision"]
            began = time.monotonic()
            for index in range(CHANGES):
                started = time.monotonic()
                connection.request("PATCH", "/v1/owner", body=json.dumps({"alias": f"owner {index}"}),
                                   headers={"Content-Type": "application/json"})
                answer = connection.getresponse()
                body = json.loads(answer.read())
                check(answer.status == 200, f"change {index} was refused: {answer.status} {body}")
                last_revision = body["revision"]
                watcher.until(f"the event of revision {last_revision}",
                              lambda event: event["type"] == "change" and event["revision"] == last_revision)
                slowest = max(slowest, time.monotonic() - started)
            took = time.monotonic() - began
            connection.close()
            check(slowest < 1.0, f"the slowest change (and its event at the watcher) took {slowest:.2f} s")
            check(not [event for event in watcher.seen if event["type"] == "lagged"],
                  "the watcher that kept up was told it lagged")

            received = stalled.read_until(
                lambda events: any(event["type"] == "change" and event["revision"] == last_revision
                                   for event in events))
            lagged = [event for event in received if event["type"] == "lagged"]
            check(lagged, f"the stalled reader found no lagged event among {len(received)} events")
            problem = accounted(received)
            check(problem is None, f"the stalled reader's events do not add up: {problem}")
            missed = sum(event["missed"] for event in lagged)

            # Stall it again, far beyond its buffer and its socket, and stop the daemon under it.
            connection = UnixHTTPConnection(str(machine.path(st.SOCKET)), timeout=10)
            for index in range(CHANGES // 2):
                connection.request("PATCH", "/v1/owner", body=json.dumps({"alias": f"again {index}"}),
                                   headers={"Content-Type": "application/json"})
                answer = connection.getresponse()
                answer.read()
                check(answer.status == 200, f"change {index} after the stalled read was refused: {answer.status}")
            connection.close()
            began_stop = time.monotonic()
            machine.systemctl("stop", st.UNIT)
            stop_took = time.monotonic() - began_stop
            check(stop_took < 5.0, f"systemctl stop took {stop_took:.1f} s with a stalled reader attached")
            check(stalled.ended(), "the stalled reader's connection is still open after the stop")
            _, stopping = watcher.until("the stopping event", lambda event: event["type"] == "stopping")
            check(watcher.process.wait(timeout=10) == 0,
                  f"workspacectl watch exited {watcher.process.returncode} after the stop: {watcher.stderr()}")
            problem = accounted(watcher.seen)
            check(problem is None, f"the watcher's events do not add up: {problem}")
            return (f"change seen {late * 1000:.0f} ms after the answer; {CHANGES} changes in {took:.1f} s "
                    f"(slowest {slowest * 1000:.0f} ms) with a stalled reader, which then read {len(received)} "
                    f"events and {len(lagged)} lagged ({missed} missed, exact); stalled again, stop in "
                    f"{stop_took:.2f} s, watch exited 0 after stopping (signal {stopping['signal']})")
        finally:
            watcher.close()
            if stalled is not None:
                stalled.close()


def watch_lines(machine, *args: str, count: int, timeout: float = 20.0) -> list[dict]:
    """The first `count` events `workspacectl watch --json ARGS` prints within `timeout`; the watcher is then
    stopped. Lines are read with a deadline (select), so a watcher that goes quiet fails the scenario instead of
    blocking it."""
    watcher = subprocess.Popen(
        ["nsenter", "-t", str(machine.pid), "-a", st.WORKSPACECTL, "watch", "--json", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    events: list[dict] = []
    pending = b""
    deadline = time.monotonic() + timeout
    try:
        while len(events) < count:
            if b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                events.append(json.loads(line))
                continue
            left = deadline - time.monotonic()
            check(left > 0, f"workspacectl watch {' '.join(args)} printed only {events} in {timeout:.0f} s")
            readable, _, _ = select.select([watcher.stdout], [], [], left)
            if not readable:
                continue
            chunk = os.read(watcher.stdout.fileno(), 65536)
            if not chunk:
                watcher.wait(timeout=10)
                error = watcher.stderr.read().decode(errors="replace").strip()
                check(False, f"workspacectl watch {' '.join(args)} exited {watcher.returncode} after {events}: "
                             f"{error}")
            pending += chunk
    finally:
        watcher.kill()
        watcher.wait()
    return events


def scenario_21_etags_across_restarts(suite: st.Suite) -> str:
    """An ETag read before `systemctl restart` is refused after another client's changes (412), a resumed watch
    replays exactly the missed changes, and after a SIGKILL every earlier ETag is of another lineage."""
    with suite.installed() as machine:
        machine.systemctl("start", st.UNIT)
        for name in ("A0", "A1", "A2"):
            st.expect_ok(machine.http("POST", "/v1/favorites", {"name": name, "path": f"/srv/{name}"}), 201)
        first = st.expect_ok(machine.http("GET", "/v1/workspace"))
        etag = first.headers["ETag"]
        check(etag == f'"{first.json["etag"]}"' and first.json["revision"] == 3, f"the first read: {first!r}")

        machine.systemctl("restart", st.UNIT)
        again = st.expect_ok(machine.http("GET", "/v1/workspace"))
        check(again.headers["ETag"] == etag, f"a clean restart changed the ETag: {etag} → {again.headers['ETag']}")
        a0 = [favorite for favorite in again.json["workspace"]["favorites"] if favorite["name"] == "A0"][0]
        st.expect_ok(machine.http("DELETE", f"/v1/favorites/{a0['id']}"))
        for name in ("B0", "B1"):
            st.expect_ctl(machine, "favorite", "add", name, f"/srv/{name}")
        late = machine.http("PATCH", "/v1/owner", {"alias": "late"}, headers={"If-Match": etag})
        check(late.status == 412 and late.json["error"]["code"] == "revision_mismatch",
              f"a change with the ETag read before the restart was not refused: {late!r}")
        current = st.expect_ok(machine.http("GET", "/v1/workspace"))
        check(late.headers.get("ETag") == current.headers["ETag"], f"the 412 does not name the current state: {late!r}")
        check(current.json["workspace"]["owner"].get("alias") != "late", "the refused change was applied")
        refused = st.workspacectl(machine, "favorite", "add", "C", "/srv/C", "--if-match", first.json["etag"])
        check(refused.returncode == 1, f"workspacectl --if-match with the old ETag exited {refused.returncode}")

        # The watcher resumes from the state it last saw (read after the restart): the three changes, in order.
        resumed = watch_lines(machine, "--since", again.json["etag"], count=4)
        check(resumed[0]["type"] == "subscribed" and resumed[0]["revision"] == 3,
              f"the resumed stream does not start at revision 3: {resumed[0]}")
        revisions = [event["revision"] for event in resumed[1:] if event["type"] == "change"]
        check(revisions == [4, 5, 6], f"the resumed stream replayed {revisions}, not [4, 5, 6]: {resumed}")

        # A SIGKILL may lose acknowledged changes: the restarted daemon starts a new lineage.
        before = current.json["etag"]
        machine.systemctl("kill", "-s", "KILL", st.UNIT)
        st.wait_for("the restart after SIGKILL",
                    lambda: st.active(machine)["SubState"] == "running" and st.active(machine)["NRestarts"] == "1",
                    timeout=20)
        after = st.expect_ok(machine.http("GET", "/v1/workspace"))
        check(after.json["etag"].split(".")[0] != before.split(".")[0],
              f"the lineage survived a SIGKILL: {before} → {after.json['etag']}")
        check(machine.http("PATCH", "/v1/owner", {"alias": "x"}, headers={"If-Match": f'"{before}"'}).status == 412,
              "an ETag of the killed process was accepted")
        reset = watch_lines(machine, "--since", before, count=1)
        check(reset[0]["type"] == "reset" and reset[0]["lineage"] == after.json["etag"].split(".")[0],
              f"resuming across the SIGKILL did not reset: {reset[0]}")
        return (f"ETag {etag} refused after restart and 3 changes (412 naming {late.headers.get('ETag')}); "
                f"watch --since replayed {revisions}; after SIGKILL lineage {after.json['etag']} and reset")


SCENARIOS = [
    (18, "live events", scenario_18_live_events),
    (21, "ETags and resumed events across restarts", scenario_21_etags_across_restarts),
]
