"""System scenario 20: the daemon under the unit's own limits (LimitNOFILE=8192, MemoryMax=1G; issue 15, item 9).

- A 50 MB state file loads, a change to it is saved, and the service neither restarts nor is killed for memory.
- The largest body the API accepts (api.maximumBodyBytes) gets an answer; one byte more gets 413; it keeps serving.
- 1,000 idle connections held open do not stop service to another client; past api.maximumConnections a
  connection is refused with 503 too_many_connections.
- A client sending one byte a second gets 408 request_timeout once api.requestTimeoutMilliseconds has passed,
  while others are served.
"""

from __future__ import annotations

import json
import resource
import socket
import time

import systemtest as st
from harness import check, wait_for

CAP = 1100
REQUEST_TIMEOUT_MS = 3000


def large_state(megabytes: int) -> bytes:
    """A version-4 workspace whose favorites make it `megabytes` MB."""
    favorites = []
    size = 0
    index = 0
    while size < megabytes * 1_000_000:
        favorite = {"createdAt": "2025-01-02T03:04:05Z", "id": f"{index:08x}-0000-4000-8000-{index:012x}",
                    "name": f"favorite {index}", "path": f"/srv/projects/{index:08d}/a/reasonably/long/path"}
        favorites.append(favorite)
        size += len(json.dumps(favorite)) + 2
        index += 1
    return json.dumps({"version": 4, "minReaderVersion": 4, "projects": [], "favorites": favorites,
                       "activeProjectID": None, "owner": {"alias": "big"}}).encode()


def connect(machine) -> socket.socket:
    """A connection to the control socket. The connect blocks (no timeout): with a timeout Python makes the socket
    non-blocking, and a Unix connect then fails with EAGAIN instead of waiting while the listen backlog is full."""
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(str(machine.path(st.SOCKET)))
    connection.settimeout(20)
    return connection


def read_response(connection: socket.socket) -> tuple[int, bytes]:
    """Reads until the server closes or a whole Content-Length body arrived; returns (status, body)."""
    data = b""
    while True:
        try:
            chunk = connection.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lengths = [line.split(b":", 1)[1].strip() for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")]
        if lengths and len(body) >= int(lengths[0]):
            break
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    return status, data.partition(b"\r\n\r\n")[2]


def memory_peak(machine) -> int:
    text = machine.run("cat", "/sys/fs/cgroup/system.slice/workspaced.service/memory.peak", check=False).stdout
    return int(text.strip() or 0)


def scenario_20_limits(suite: st.Suite) -> str:
    """The unit's limits hold a 50 MB file, the largest body, a 1,000-connection hoard and a byte-a-second client."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    config = st.default_config(debounce=50, maximum_delay=500)
    config["api"]["maximumConnections"] = CAP
    config["api"]["requestTimeoutMilliseconds"] = REQUEST_TIMEOUT_MS
    with suite.installed(config) as machine:
        unit = machine.show(st.UNIT, "LimitNOFILE", "MemoryMax")
        check(unit == {"LimitNOFILE": "8192", "MemoryMax": str(1 << 30)}, f"the unit's limits: {unit}")
        state = large_state(50)
        st.place_state(machine, state)
        started = time.monotonic()
        machine.systemctl("start", st.UNIT)
        loaded_in = time.monotonic() - started
        status = st.expect_ok(machine.http("GET", "/v1/status", timeout=30)).json
        check(status["load"]["bytes"] == len(state), f"not the 50 MB file: {status['load']}")
        st.expect_ok(machine.http("POST", "/v1/favorites", {"name": "on top", "path": "/top"}, timeout=30), 201)
        st.expect_ok(machine.http("POST", "/v1/flush", timeout=60))
        check(b'"on top"' in machine.path(st.STATE).read_bytes(), "the change to the 50 MB state is not on disk")
        peak = memory_peak(machine)

        # The largest body the API takes is answered (here a 400: no such field); one byte more is a 413.
        limit = config["api"]["maximumBodyBytes"]
        padding = "x" * (limit - len('{"name": "", "path": "/p"}'))
        largest = json.dumps({"name": padding, "path": "/p"}, separators=(", ", ": ")).encode()
        check(len(largest) == limit, f"the body is {len(largest)} bytes, not {limit}")
        connection = connect(machine)
        connection.sendall(b"POST /v1/favorites HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           + f"Content-Length: {len(largest)}\r\n\r\n".encode() + largest)
        largest_status, largest_body = read_response(connection)
        connection.close()
        check(400 <= largest_status < 500 and largest_status != 413 and b'"error"' in largest_body,
              f"the largest body got {largest_status}: {largest_body[:200]!r}")
        connection = connect(machine)
        connection.sendall(b"POST /v1/favorites HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           + f"Content-Length: {limit + 1}\r\n\r\n".encode())
        over_status, over_body = read_response(connection)
        connection.close()
        check(over_status == 413 and b"body_too_large" in over_body, f"one byte over got {over_status}: {over_body!r}")

        # 1,000 idle connections, held: another client is still served.
        hoard = [connect(machine) for _ in range(1000)]
        served = machine.http("GET", "/v1/status", timeout=10)
        check(served.status == 200, f"with 1,000 idle connections open: {served!r}")
        ctl = st.workspacectl(machine, "status")
        check(ctl.returncode == 0, f"workspacectl status with 1,000 idle connections: {ctl.stdout}{ctl.stderr}")
        # Past the cap: refused clearly.
        extra = []
        refused = None
        for _ in range(CAP):
            connection = connect(machine)
            extra.append(connection)
            connection.settimeout(0.05)
            try:
                head = connection.recv(4096)
            except socket.timeout:
                continue
            if head.startswith(b"HTTP/1.1 503"):
                refused = head
                break
        check(refused is not None and b"too_many_connections" in refused,
              f"no 503 too_many_connections after {len(hoard) + len(extra)} connections: {refused!r}")
        opened = len(hoard) + len(extra)
        for connection in hoard + extra:
            connection.close()
        wait_for("service after the hoard closed", lambda: machine.http("GET", "/v1/status").status == 200,
                 timeout=10)

        # A client sending a byte a second is cut off once the request deadline passes; others are served meanwhile.
        slow = connect(machine)
        request = b"GET /v1/status HTTP/1.1\r\nHost: x\r\n\r\n"
        trickle_started = time.monotonic()
        timed_out = None
        for byte in request:
            try:
                slow.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                break
            slow.settimeout(1.0)
            try:
                head = slow.recv(4096)
            except socket.timeout:
                check(machine.http("GET", "/v1/status").status == 200, "another client waited for the slow one")
                continue
            timed_out = head
            break
        trickled = time.monotonic() - trickle_started
        check(timed_out is not None and timed_out.startswith(b"HTTP/1.1 408") and b"request_timeout" in timed_out,
              f"the byte-a-second client got {timed_out!r} after {trickled:.1f} s")
        check(REQUEST_TIMEOUT_MS / 1000 <= trickled < REQUEST_TIMEOUT_MS / 1000 + 3,
              f"cut off after {trickled:.1f} s, not after the {REQUEST_TIMEOUT_MS} ms deadline")

        state_now = st.active(machine)
        check(state_now["SubState"] == "running" and state_now["NRestarts"] == "0" and state_now["Result"] == "success",
              f"the service did not keep running under its limits: {state_now}")
        oom = [entry["MESSAGE"] for entry in machine.journal("_PID=1", f"UNIT={st.UNIT}")
               if "oom" in entry.get("MESSAGE", "").lower()]
        check(not oom, f"the memory limit was hit: {oom}")
        memory = (f"memory peak {peak / 1e6:.0f} MB of 1 GB" if peak else
                  "no memory.peak in this machine's cgroup: MemoryMax= set but its enforcement not observed")
        return (f"50 MB file loaded in {loaded_in:.1f} s, changed and flushed ({memory}); the {limit}-byte body got {largest_status}, one more 413; 1,000 idle connections did not stop "
                f"service, connection {opened} got 503 too_many_connections (cap {CAP}); a byte a second got 408 after "
                f"{trickled:.1f} s")


SCENARIOS = [(20, "under the unit's limits: 50 MB, largest body, 1,000 connections, slow client", scenario_20_limits)]
