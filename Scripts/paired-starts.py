#!/usr/bin/env python3
"""Paired start times of two workspaced binaries: exec -> READY=1, the builds taking turns.

Usage: Scripts/paired-starts.py A B [--pairs N] [--first-starts] [--change] [--config FILE]

Each start runs `BIN run` on its own state directory with NOTIFY_SOCKET set, is timed from the spawn to the
READY=1 datagram, and is stopped with SIGTERM (exit 0 required). Restarts by default: each binary keeps its
state directory between its starts, so every start after the first finds the last one's clean stop (lock
marker, journal, history). `--first-starts` empties the directory before each start instead. `--change` makes
one durable change (a favorite added, then removed at the next start) through the control socket after READY=1,
before the SIGTERM: the next start then finds what a used daemon's stop leaves (the final save, the segment it
moved into the history), as `make bench`'s restart row does.

Prints the median of each binary's times, the median of the paired ratios B/A (the figure to quote), and each
binary's median CPU a start (user + system of the whole run, stop included).

Both binaries are first dropped from the page cache (posix_fadvise DONTNEED) and read back whole: a binary just
written by the linker or a copy is held by the page cache in other pieces than an older file and started up to
12% faster in 60-pair runs whatever its code, while two copies of one binary treated this way read 0.993.
Run it with the builds swapped too: a real difference reads as ratios either side of 1 that agree.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time


def evict_and_read(path):
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(descriptor)
    with open(path, "rb") as binary:
        while binary.read(1 << 20):
            pass


def durable_change(socket_path):
    """Adds the favorite "paired" when it is missing, removes it when it is there: one durable change a start."""
    def request(method, target, body=b""):
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(socket_path)
        head = (f"{method} {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
        connection.sendall(head.encode() + body)
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
        connection.close()
        status = int(reply.split(b" ", 2)[1])
        return status, reply.split(b"\r\n\r\n", 1)[1]

    status, body = request("GET", "/v1/favorites")
    if status != 200:
        raise SystemExit(f"GET /v1/favorites answered {status}")
    favorites = json.loads(body)
    favorites = favorites.get("favorites", favorites) if isinstance(favorites, dict) else favorites
    kept = [favorite for favorite in favorites if favorite.get("name") == "paired"]
    if kept:
        status, _ = request("DELETE", f"/v1/favorites/{kept[0]['id']}?durable=true")
    else:
        status, _ = request("POST", "/v1/favorites?durable=true", b'{"name": "paired", "path": "/paired"}')
    if status not in (200, 201, 204):
        raise SystemExit(f"the durable change was answered {status}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--first-starts", action="store_true")
    parser.add_argument("--change", action="store_true")
    default_config = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "config", "workspaced.json")
    parser.add_argument("--config", default=default_config)
    options = parser.parse_args()
    root = tempfile.mkdtemp(prefix="paired-starts-")
    cpu = {"a": [], "b": []}

    def start(binary, tag):
        directory = os.path.join(root, tag)
        if options.first_starts:
            shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory, exist_ok=True)
        notify_path = os.path.join(root, tag + ".notify")
        if os.path.exists(notify_path):
            os.unlink(notify_path)
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(notify_path)
        notify.settimeout(10)
        environment = dict(os.environ, NOTIFY_SOCKET=notify_path)
        command = [binary, "run", "--config", options.config, "--state-directory", directory,
                   "--control-socket", os.path.join(directory, "control.sock")]
        began = time.perf_counter()
        process = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while b"READY=1" not in notify.recv(4096):
            pass
        elapsed = time.perf_counter() - began
        if options.change:
            durable_change(os.path.join(directory, "control.sock"))
        process.send_signal(signal.SIGTERM)
        _, status, usage = os.wait4(process.pid, 0)
        notify.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{binary} exited with {os.waitstatus_to_exitcode(status)}")
        cpu[tag].append(usage.ru_utime + usage.ru_stime)
        return elapsed

    try:
        evict_and_read(options.a)
        evict_and_read(options.b)
        for _ in range(3):
            start(options.a, "a")
            start(options.b, "b")
        for kept in cpu.values():
            kept.clear()
        times_a, times_b, ratios = [], [], []
        for index in range(options.pairs):
            if index % 2:
                first, second = start(options.a, "a"), start(options.b, "b")
            else:
                second, first = start(options.b, "b"), start(options.a, "a")
            times_a.append(first)
            times_b.append(second)
            ratios.append(second / first)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    kind = "first starts" if options.first_starts else "restarts"
    if options.change:
        kind += " after a durable change"
    print(f"{options.pairs} pairs, {kind}: A median {statistics.median(times_a) * 1e3:.2f} ms, "
          f"B median {statistics.median(times_b) * 1e3:.2f} ms, "
          f"B/A median of paired ratios {statistics.median(ratios):.3f}; CPU a start "
          f"A {statistics.median(cpu['a']) * 1e3:.1f} ms, B {statistics.median(cpu['b']) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
