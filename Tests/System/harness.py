"""A real systemd 252 booted as PID 1 of fresh namespaces on an overlay root, for the system tests.

`Machine.boot()` starts `boot-inner.sh` as PID 1 of new pid/mount/cgroup/uts/ipc namespaces inside a cgroup of
its own, waits until systemd is up, and `Machine.close()` powers it off (killing it if it does not go) and
removes the cgroups, whatever happened before. Commands run inside with `nsenter -t PID -a`; files are reached
from here through `/proc/PID/root`, and so is the control socket (peer credentials stay root's).
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


class Failure(AssertionError):
    """A scenario's expectation did not hold."""


def check(condition: object, message: str) -> None:
    """Fails the scenario with `message` unless `condition` holds."""
    if not condition:
        raise Failure(message)


def wait_for(what: str, probe, timeout: float = 15.0, interval: float = 0.05):
    """Polls `probe` until it returns something truthy (returned) or fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = probe()
        except (OSError, subprocess.SubprocessError, http.client.HTTPException, ValueError) as error:
            last = error
        else:
            if last:
                return last
        if time.monotonic() >= deadline:
            raise Failure(f"timed out after {timeout:g} s waiting for {what} (last: {last!r})")
        time.sleep(interval)


def cgroup_base() -> Path:
    """Where this host's cgroup2 tree is: `/sys/fs/cgroup/unified` on a hybrid host, else `/sys/fs/cgroup`."""
    unified = Path("/sys/fs/cgroup/unified")
    if (unified / "cgroup.procs").exists():
        return unified
    return Path("/sys/fs/cgroup")


class UnixHTTPConnection(http.client.HTTPConnection):
    """HTTP/1.1 over a Unix socket path."""

    def __init__(self, path: str, timeout: float = 10.0):
        super().__init__("localhost", timeout=timeout)
        self.socket_path = path

    def connect(self) -> None:
        # With a timeout Python makes the socket non-blocking, and a Unix connect then fails at once with EAGAIN
        # while the listen backlog is full (just after a burst of connections the daemon has not accepted yet),
        # where a blocking connect(2) waits for room: try again until the timeout has passed.
        limit = self.timeout if isinstance(self.timeout, (int, float)) else 10.0
        deadline = time.monotonic() + limit
        while True:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(self.timeout)
            try:
                sock.connect(self.socket_path)
            except BlockingIOError:
                sock.close()
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.01)
                continue
            except OSError:
                sock.close()
                raise
            self.sock = sock
            return


class Response:
    """A control API answer: status, headers and the decoded JSON body (None when empty)."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status = status
        self.headers = headers
        self.raw = body
        self.json = json.loads(body) if body else None

    def __repr__(self) -> str:
        return f"<{self.status} {self.raw[:300]!r}>"


class Machine:
    """One booted systemd; use as a context manager so it is always powered off and cleaned up."""

    counter = 0

    def __init__(self, log_dir: Path):
        Machine.counter += 1
        self.name = f"workspaced-systemtest-{os.getpid()}-{Machine.counter}"
        self.log_dir = log_dir
        self.base = Path(tempfile.mkdtemp(prefix=self.name + "-", dir=log_dir))
        self.cgroup = cgroup_base() / self.name
        self.process: subprocess.Popen | None = None
        self.pid: int | None = None

    # -- life cycle ---------------------------------------------------------------------------------------------

    def __enter__(self) -> "Machine":
        if self.process is not None:
            return self
        try:
            self.boot()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def boot(self, timeout: float = 30.0) -> None:
        """Starts systemd in fresh namespaces and waits until it is running (or degraded)."""
        self.cgroup.mkdir()
        log = open(self.log_dir / f"{self.name}.console.log", "wb")
        inner = [str(HERE / "boot-inner.sh"), str(self.base), self.name]
        command = (
            'echo $$ > "$1/cgroup.procs" && shift && exec unshare --pid --fork --kill-child --mount --cgroup '
            '--uts --ipc --propagation private "$@"'
        )
        self.process = subprocess.Popen(
            ["sh", "-c", command, "sh", str(self.cgroup), *inner],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        log.close()

        def systemd_pid():
            if self.process.poll() is not None:
                raise Failure(f"the namespace set-up exited with {self.process.returncode}; see {log.name}")
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
            if not children:
                return None
            pid = int(children[0])
            # Only after the exec: before it, nsenter would enter the set-up's view of the host root.
            return pid if Path(f"/proc/{pid}/comm").read_text().strip() == "systemd" else None

        self.pid = wait_for("systemd to be exec'd as the namespace's PID 1", systemd_pid, timeout)

        def running():
            result = self.run("systemctl", "is-system-running", "--wait", check=False, timeout=timeout)
            return result.stdout.strip() in ("running", "degraded")

        wait_for("systemctl is-system-running", running, timeout, interval=0.1)

    def close(self) -> None:
        """Powers off (SIGKILL after 10 s), waits for the namespace to end and removes the cgroups."""
        if self.process is not None and self.process.poll() is None:
            if self.pid is not None:
                with open(self.log_dir / f"{self.name}.journal.txt", "wb") as out:
                    subprocess.run(
                        ["nsenter", "-t", str(self.pid), "-a", "journalctl", "--no-pager", "-o", "short-precise"],
                        stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, timeout=30, check=False,
                    )
                subprocess.run(
                    ["nsenter", "-t", str(self.pid), "-a", "systemctl", "poweroff", "--no-block"],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10,
                    check=False,
                )
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                if self.pid is not None:
                    try:
                        os.kill(self.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(timeout=10)
        self.remove_cgroups()
        shutil.rmtree(self.base, ignore_errors=True)

    def remove_cgroups(self) -> None:
        """Kills what is left in this machine's cgroups and removes them depth-first."""
        if not self.cgroup.exists():
            return
        deadline = time.monotonic() + 10
        while self.cgroup.exists() and time.monotonic() < deadline:
            for directory, _, _ in sorted(os.walk(self.cgroup), key=lambda entry: -len(entry[0])):
                try:
                    for pid in Path(directory, "cgroup.procs").read_text().split():
                        try:
                            os.kill(int(pid), signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    os.rmdir(directory)
                except (FileNotFoundError, OSError):
                    pass
            if self.cgroup.exists():
                time.sleep(0.05)

    # -- driving it ---------------------------------------------------------------------------------------------

    def run(self, *argv: str, check: bool = True, input: str | None = None, timeout: float = 60.0):
        """Runs a command inside every namespace of the machine; returns the CompletedProcess (text)."""
        result = subprocess.run(
            ["nsenter", "-t", str(self.pid), "-a", *argv], input=input, capture_output=True, text=True,
            timeout=timeout, check=False,
        )
        if check and result.returncode != 0:
            raise Failure(f"{' '.join(argv)} exited {result.returncode}: {result.stdout}{result.stderr}".strip())
        return result

    def systemctl(self, *args: str, check: bool = True, timeout: float = 60.0):
        return self.run("systemctl", *args, check=check, timeout=timeout)

    def show(self, unit: str, *properties: str) -> dict[str, str]:
        """`systemctl show -p …` as a dict."""
        output = self.systemctl("show", unit, *(f"--property={name}" for name in properties)).stdout
        return dict(line.split("=", 1) for line in output.splitlines() if "=" in line)

    def journal(self, *args: str) -> list[dict]:
        """`journalctl -o json ARGS` inside the machine, after a `--sync`."""
        self.run("journalctl", "--sync", check=False)
        output = self.run("journalctl", "--no-pager", "-o", "json", *args, check=False).stdout
        return [json.loads(line) for line in output.splitlines() if line.startswith("{")]

    def path(self, inside: str) -> Path:
        """A path inside the machine, reached from the host."""
        return Path(f"/proc/{self.pid}/root{inside}")

    def write(self, inside: str, content: str | bytes, mode: int = 0o644) -> None:
        target = self.path(inside)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode() if isinstance(content, str) else content
        target.write_bytes(data)
        os.chmod(target, mode)

    def install_tree(self, stage: Path) -> None:
        """Copies a `make install DESTDIR=stage` tree into the root."""
        subprocess.run(["cp", "-a", "--no-preserve=ownership", f"{stage}/.", str(self.path("/"))], check=True)

    def http(self, method: str, path: str, body: object = None, timeout: float = 10.0,
             socket_path: str = "/run/workspaced/control.sock", headers: dict[str, str] | None = None) -> Response:
        """One control API request through the machine's socket (as root), with any extra `headers`."""
        connection = UnixHTTPConnection(str(self.path(socket_path)), timeout=timeout)
        try:
            data = None if body is None else json.dumps(body).encode()
            sent = {"Content-Type": "application/json"} if data is not None else {}
            sent.update(headers or {})
            connection.request(method, path, body=data, headers=sent)
            answer = connection.getresponse()
            return Response(answer.status, dict(answer.getheaders()), answer.read())
        finally:
            connection.close()

    def main_pid(self, unit: str = "workspaced.service") -> int:
        return int(self.show(unit, "MainPID")["MainPID"])
