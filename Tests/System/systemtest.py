#!/usr/bin/env python3
"""System tests of workspaced under a real systemd 252 and journald (issue 7).

Each scenario boots its own systemd as PID 1 of fresh namespaces on an overlay root (harness.py), installs what
`make install` installs, and drives it exactly as an operator would: systemctl, journalctl and the control
socket. Prints one line per scenario and closes with `N passed, N failed`.

    python3 Tests/System/systemtest.py            # every scenario
    python3 Tests/System/systemtest.py 2 7        # only these
Needs root; without it the suite says why and skips (exit 0), unless CI=true (then it fails).
KEEP=1 keeps the work directory (console logs, each machine's journal) even when everything passed.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

from harness import Failure, Machine, Response, check, wait_for

# Scenario modules (scenario_*.py beside this file) import their helpers from here as `systemtest`: the same module
# whether this file runs as a script or is imported.
sys.modules.setdefault("systemtest", sys.modules[__name__])

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "Tests/WorkspaceModelTests/Fixtures"
UNIT = "workspaced.service"
STATE_DIR = "/var/lib/private/workspaced"
STATE = f"{STATE_DIR}/workspace.json"
CONFIG = "/etc/workspaced/config.json"
UNIT_FILE = "/usr/local/lib/systemd/system/workspaced.service"
SOCKET_FILE = "/usr/local/lib/systemd/system/workspaced.socket"
DROP_INS = "/etc/systemd/system/workspaced.service.d"
WORKSPACECTL = "/usr/local/bin/workspacectl"
NOBODY = 65534
SOCKET = "/run/workspaced/control.sock"

MIGRATED = "59d40d6d030141028132def856c40c38"
QUARANTINED = "87da9888b6c248ff9d9caee4abe6b974"
SALVAGED = "77de2393ac96444ab4abfd745fd62bc3"
REFUSED_NEWER = "edd1498be4804db3a040144b7fc11efc"
FLUSHED_ON_STOP = "4c6ff2170b2e4dd8801b4fbcd9e2521d"
JOURNAL_REPLAYED = "fe846471250743229f92ac63c19293cd"
CONFIG_RELOADED = "164d67d348ec47018b454717a4015a33"
CONFIG_REJECTED = "205a42ded1ec4c53baa63a3903d005dd"
STARTED = "4c50677cb1f4416f81dd6b9193f39b72"
LEGACY_IMPORTED = "f1216d6d4c9b4532bd44cf186eddcd26"
LEGACY_PATH = "/var/lib/workspace-state/state.json"
LEGACY_OWNER = 4321
SECRETS_DISABLED = "d79dab42d84b4ae5a2a80835da9d401b"
SECRETS_KEY_FILE = "b01ccc4464f8495e84b74af7dd6a18fe"
INSTALLATION_CREATED = "aad123a68ac643d1bfdd9d97a423d0e7"
TOKEN_REFUSED = "84ea0680f77e4daf8486689b663a70bb"
SECRETS = f"{STATE_DIR}/secrets.json.enc"
KEY_FILE = f"{STATE_DIR}/secrets.key"
PLAIN_KEY = "/etc/workspaced/secrets-key"
ENCRYPTED_KEY = "/etc/workspaced/secrets-key.cred"
TOKEN_SHAPE = re.compile(r"^wsd_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")
TOKEN_FIELDS = {"id", "name", "scope", "createdAt", "lastUsedAt", "revokedAt"}


class Suite:
    """What every scenario shares: the work directory and the installed trees."""

    def __init__(self, work: Path):
        self.work = work
        self.stage = work / "stage"
        # workspaced with the test hooks (Sources/workspaced-testing), which the shipped binary does not have.
        self.hooks_binary = REPO / ".build/debug/workspaced-testing"

    def machine(self) -> Machine:
        return Machine(self.work)

    def installed(self, config: dict | None = None) -> Machine:
        """A booted machine with the staged `make install` tree copied in and systemd reloaded."""
        machine = self.machine()
        machine.__enter__()
        try:
            machine.install_tree(self.stage)
            if config is not None:
                write_config(machine, config)
            machine.systemctl("daemon-reload")
        except BaseException:
            machine.close()
            raise
        return machine


def default_config(**changes) -> dict:
    config = json.loads((REPO / "config/workspaced.json").read_text())
    for key, value in changes.items():
        if key in ("debounce", "maximum_delay"):
            config["save"]["debounceMilliseconds" if key == "debounce" else "maximumDelayMilliseconds"] = value
        else:
            config[key] = value
    return config


def write_config(machine: Machine, config: dict | str) -> None:
    text = config if isinstance(config, str) else json.dumps(config, indent=2)
    machine.write(CONFIG, text)


def place_state(machine: Machine, content: bytes) -> None:
    """Puts a state file in /var/lib/workspaced before the first start, as an operator upgrading would (a plain
    directory: systemd moves it to /var/lib/private for DynamicUser= and hands it to the dynamic user)."""
    machine.write("/var/lib/workspaced/workspace.json", content, mode=0o600)


def state_on_disk(machine: Machine) -> dict | None:
    path = machine.path(STATE)
    return json.loads(path.read_bytes()) if path.exists() else None


def names(records: list[dict]) -> list[str]:
    return [record.get("name") for record in records]


def expect_ok(response: Response, status: int = 200) -> Response:
    check(response.status == status, f"expected HTTP {status}, got {response!r}")
    return response


def unit_journal(machine: Machine, *matches: str) -> list[dict]:
    """Entries the unit's own processes wrote (not PID 1's lines about the unit)."""
    return machine.journal(f"_SYSTEMD_UNIT={UNIT}", *matches)


def workspacectl(machine: Machine, *args: str, uid: int | None = None):
    """The installed `workspacectl ARGS` run inside the machine (as root, or as `uid` with no groups); returns the
    CompletedProcess without judging its exit code."""
    prefix = [] if uid is None else ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
    return machine.run(*prefix, WORKSPACECTL, *args, check=False)


def expect_ctl(machine: Machine, *args: str) -> dict:
    """`workspacectl --json ARGS` as root, which must exit 0; its decoded answer."""
    result = workspacectl(machine, *args, "--json")
    check(result.returncode == 0,
          f"workspacectl {' '.join(args)} exited {result.returncode}: {result.stdout}{result.stderr}".strip())
    return json.loads(result.stdout)


def socket_ownership(machine: Machine) -> str | None:
    """What is wrong with the control socket's ownership, or None: systemd's workspaced.socket made it root's, mode
    0666, in a real, root-owned 0755 /run/workspaced that anyone may traverse (not a link into /run/private)."""
    directory = os.lstat(machine.path(os.path.dirname(SOCKET)))
    socket_file = os.lstat(machine.path(SOCKET))
    found = (f"/run/workspaced {'a link' if stat.S_ISLNK(directory.st_mode) else 'a directory'} uid "
             f"{directory.st_uid} mode {oct(directory.st_mode & 0o7777)}, control.sock uid {socket_file.st_uid} "
             f"mode {oct(socket_file.st_mode & 0o7777)}")
    expected = (stat.S_ISDIR(directory.st_mode) and directory.st_uid == 0 and directory.st_mode & 0o7777 == 0o755
                and stat.S_ISSOCK(socket_file.st_mode) and socket_file.st_uid == 0
                and socket_file.st_mode & 0o7777 == 0o666)
    return None if expected else found


def active(machine: Machine) -> dict[str, str]:
    return machine.show(UNIT, "ActiveState", "SubState", "MainPID", "NRestarts", "Result", "StatusText")


def subset_mismatch(expected, actual, where: str = "workspace") -> str | None:
    """Where `actual` differs from `expected` (dicts: every expected key; lists: same length, element-wise)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{where}.{key} is missing"
            problem = subset_mismatch(value, actual[key], f"{where}.{key}")
            if problem:
                return problem
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{where}: expected {len(expected)} elements, got {actual!r}"
        for index, (left, right) in enumerate(zip(expected, actual)):
            problem = subset_mismatch(left, right, f"{where}[{index}]")
            if problem:
                return problem
        return None
    return None if expected == actual else f"{where}: expected {expected!r}, got {actual!r}"


def pane(id_: str, folder: str, view_mode: str, focused: int = 0, tabs: list | None = None) -> dict:
    return {"id": id_, "folder": folder, "viewMode": view_mode, "focusedTabIndex": focused, "tabs": tabs or []}


# What each shipped version must look like once served at version 4: every field of every record (the values
# the unit tests of the migrations pin, Tests/WorkspaceModelTests/MigrationTests.swift).
EXPECTED = {
    1: {
        "projects": [
            {"id": "11111111-1111-4111-8111-111111111111", "name": "Website", "layout": "split", "panes": [
                pane("21111111-1111-4111-8111-111111111111", "/home/ada/site", "list"),
                pane("22222222-2222-4222-8222-222222222222", "/home/ada/site/assets", "columns"),
            ]},
            {"id": "12222222-2222-4222-8222-222222222222", "name": "Notes", "layout": "single", "panes": [
                pane("23333333-3333-4333-8333-333333333333", "/home/ada/notes", "icons"),
            ]},
        ],
        "favorites": [
            {"id": "31111111-1111-4111-8111-111111111111", "name": "Downloads", "path": "/home/ada/Downloads"},
        ],
        "activeProjectID": "12222222-2222-4222-8222-222222222222",
        "owner": {"alias": "Ada", "email": ""},
    },
    2: {
        "projects": [
            {"id": "11111111-1111-4111-8111-111111111111", "name": "Compiler", "layout": "quad", "panes": [
                pane("21111111-1111-4111-8111-111111111111", "/src/compiler", "columns", 1, [
                    {"id": "41111111-1111-4111-8111-111111111111", "folder": "/src/compiler/lexer"},
                    {"id": "42222222-2222-4222-8222-222222222222", "folder": "/src/compiler/parser"},
                ]),
            ]},
        ],
        "favorites": [{"id": "31111111-1111-4111-8111-111111111111", "name": "Source", "path": "/src"}],
        "activeProjectID": None,
        "owner": {"alias": "Grace", "email": "grace@example.com"},
    },
    3: {
        "projects": [
            {"id": "11111111-1111-4111-8111-111111111111", "name": "Turing", "layout": "split", "panes": [
                pane("21111111-1111-4111-8111-111111111111", "/papers", "icons"),
            ]},
        ],
        "favorites": [
            {"id": "31111111-1111-4111-8111-111111111111", "name": "Papers", "path": "/papers",
             "createdAt": "2024-03-01T10:00:00Z"},
            {"id": "32222222-2222-4222-8222-222222222222", "name": "Archive", "path": "/archive"},
        ],
        "activeProjectID": "11111111-1111-4111-8111-111111111111",
        "owner": {"alias": "alan", "email": ""},
    },
}


# -- scenarios ------------------------------------------------------------------------------------------------


def scenario_1_install(suite: Suite) -> str:
    """make install into the booted root, verify silent, daemon-reload, start returns after READY=1."""
    with suite.machine() as machine:
        root = machine.path("/")
        make = subprocess.run(
            ["make", "-s", "-C", str(REPO), "install", f"DESTDIR={root}", "PREFIX=/usr/local"],
            capture_output=True, text=True, check=False,
        )
        check(make.returncode == 0, f"make install failed: {make.stdout}{make.stderr}")
        for path in ("/usr/local/bin/workspaced", UNIT_FILE, SOCKET_FILE, CONFIG,
                     "/usr/lib/systemd/catalog/workspaced.catalog", "/usr/local/share/doc/workspaced/README.md"):
            check(machine.path(path).exists(), f"make install did not install {path}")
        # The release binaries carry the C++ runtime (the Makefile's RELEASE_FLAGS): a libstdc++ or libgcc_s
        # loaded at each exec costs every start about a millisecond here.
        for binary in ("/usr/local/bin/workspaced", "/usr/local/bin/workspacectl"):
            dynamic = subprocess.run(["readelf", "-d", str(machine.path(binary))],
                                     capture_output=True, text=True, check=True).stdout
            needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
            check("libc.so.6" in needed, f"readelf found no NEEDED libc in {binary}: {dynamic[:400]}")
            dynamic_cxx = [name for name in needed if name.startswith(("libstdc++", "libgcc_s"))]
            check(not dynamic_cxx, f"{binary} links the C++ runtime dynamically: {dynamic_cxx}")
        verify = machine.run("systemd-analyze", "verify", UNIT_FILE, SOCKET_FILE, check=False)
        check(verify.returncode == 0 and not (verify.stdout + verify.stderr).strip(),
              f"systemd-analyze verify is not silent (exit {verify.returncode}): {verify.stdout}{verify.stderr}")
        machine.systemctl("daemon-reload")
        machine.run("journalctl", "--update-catalog")
        check(machine.show(UNIT, "LoadState")["LoadState"] == "loaded", "the unit is not loaded after daemon-reload")

        started = time.monotonic()
        machine.systemctl("start", UNIT)
        took = time.monotonic() - started
        # No waiting from here: a start that returned before READY=1 would show another state or no STATUS yet.
        state = active(machine)
        check(state["ActiveState"] == "active" and state["SubState"] == "running",
              f"not active (running) right after start returned: {state}")
        check(state["StatusText"].startswith("serving "), f"STATUS is not the ready line: {state['StatusText']!r}")
        status = expect_ok(machine.http("GET", "/v1/status")).json
        check(status["schemaVersion"] == 4, f"unexpected status {status}")
        ready = unit_journal(machine, f"MESSAGE_ID={STARTED}")
        check(len(ready) == 1, f"expected one 'ready' entry, got {len(ready)}")

        text = machine.systemctl("status", "--no-pager", UNIT, check=False).stdout
        check(re.search(r'Status: "serving ', text), f"systemctl status has no STATUS line:\n{text}")

        link = machine.path("/var/lib/workspaced")
        check(link.is_symlink() and os.readlink(link) == "private/workspaced",
              f"/var/lib/workspaced is not the DynamicUser link: {link.is_symlink() and os.readlink(link)}")
        info = machine.path(STATE_DIR).stat()
        uid = daemon_uid(machine)
        check(oct(info.st_mode & 0o7777) == "0o700", f"state directory mode {oct(info.st_mode & 0o7777)}, not 0700")
        check(info.st_uid == uid, f"state directory owned by uid {info.st_uid}, the daemon runs as {uid}")
        machine.systemctl("stop", UNIT)

        # An upgrade by the same command keeps the operator's configuration.
        settings = json.loads(machine.path(CONFIG).read_text())
        settings["logLevel"] = "debug"
        edited = json.dumps(settings, indent=2) + "\n"
        machine.path(CONFIG).write_text(edited)
        again = subprocess.run(
            ["make", "-s", "-C", str(REPO), "install", f"DESTDIR={root}", "PREFIX=/usr/local"],
            capture_output=True, text=True, check=False,
        )
        check(again.returncode == 0, f"a second make install failed: {again.stdout}{again.stderr}")
        check(machine.path(CONFIG).read_text() == edited, "a second make install overwrote the edited config.json")
        check("keeping the existing" in again.stdout, f"a second make install did not say it kept the config: {again.stdout}")
        return (f"installed, verify silent, start returned after READY=1 in {took:.2f} s, state dir 0700 uid {uid}; "
                "reinstall kept the edited config")


def daemon_uid(machine: Machine) -> int:
    pid = machine.main_pid()
    status = machine.run("cat", f"/proc/{pid}/status").stdout
    return int(re.search(r"^Uid:\s+(\d+)", status, re.M).group(1))


def scenario_2_upgrade(suite: Suite) -> str:
    """A v1, v2 and v3 file placed before the first start: served at v4 with every field, backup, journal."""
    for version in (1, 2, 3):
        original = (FIXTURES / f"versions/v{version}.json").read_bytes()
        machine = suite.installed()
        with machine:
            place_state(machine, original)
            machine.systemctl("start", UNIT)
            served = expect_ok(machine.http("GET", "/v1/workspace")).json["workspace"]
            problem = subset_mismatch(EXPECTED[version], served)
            check(problem is None, f"v{version}: {problem}")
            # The migrated state reaches the disk with the first save; a flush waits for it.
            expect_ok(machine.http("POST", "/v1/flush"))
            on_disk = state_on_disk(machine)
            check(on_disk and on_disk.get("version") == 4 and on_disk.get("minReaderVersion") == 4,
                  f"v{version}: the file on disk is not version 4: {on_disk and on_disk.get('version')}")
            problem = subset_mismatch(EXPECTED[version], on_disk, "file")
            check(problem is None, f"v{version}: {problem}")
            backup = machine.path(f"{STATE_DIR}/workspace.json.v{version}.bak")
            check(backup.exists(), f"v{version}: no backup {backup.name}; directory has "
                                   f"{sorted(p.name for p in machine.path(STATE_DIR).iterdir())}")
            check(backup.read_bytes() == original, f"v{version}: the backup differs from the original bytes")
            entries = unit_journal(machine, f"MESSAGE_ID={MIGRATED}")
            entries = [entry for entry in entries if entry.get("PRIORITY") == "5"]
            check(len(entries) == 1, f"v{version}: expected one migrated entry, got {len(entries)}")
            entry = entries[0]
            check(entry.get("FROM_VERSION") == str(version) and entry.get("TO_VERSION") == "4",
                  f"v{version}: migrated entry has FROM_VERSION={entry.get('FROM_VERSION')} "
                  f"TO_VERSION={entry.get('TO_VERSION')}")
    return "v1, v2, v3 each served at v4 with every field; backups byte-identical; migrated entries 1/2/3→4"


def scenario_3_stop_unsaved(suite: Suite) -> str:
    """Unsaved changes made with workspacectl, systemctl stop at once: Result=success, changes on disk, 'flushed
    on stop'."""
    # A minute of debounce: nothing is saved before the stop unless the stop flushes.
    with suite.installed(default_config(debounce=60_000, maximum_delay=600_000)) as machine:
        machine.systemctl("start", UNIT)
        # The changes go through the installed workspacectl, as an operator would make them.
        project = expect_ctl(machine, "project", "create", "Unsaved", "--layout", "split")
        expect_ctl(machine, "favorite", "add", "Unsaved favorite", "/srv/unsaved")
        status = expect_ctl(machine, "status")
        check(status["dirty"] and status["durableRevision"] < status["revision"],
              f"the changes were already saved, the test proves nothing: {status}")
        machine.systemctl("stop", UNIT)
        shown = machine.show(UNIT, "Result", "ExecMainCode", "ExecMainStatus", "ActiveState")
        check(shown["Result"] == "success" and shown["ExecMainStatus"] == "0",
              f"stop was not clean: {shown}")
        on_disk = state_on_disk(machine)
        check(on_disk is not None, "no state file after the stop")
        check("Unsaved" in names(on_disk["projects"]), f"the project is not on disk: {names(on_disk['projects'])}")
        check(project["value"]["id"] in [p["id"] for p in on_disk["projects"]], "project id not on disk")
        check("Unsaved favorite" in names(on_disk["favorites"]), "the favorite is not on disk")
        entries = unit_journal(machine, f"MESSAGE_ID={FLUSHED_ON_STOP}")
        check(len(entries) == 1, f"expected one 'flushed on stop' entry, got {len(entries)}")
        check("flushed on stop" in entries[0]["MESSAGE"] and entries[0].get("WAS_DIRTY") == "true",
              f"unexpected entry: {entries[0].get('MESSAGE')!r} WAS_DIRTY={entries[0].get('WAS_DIRTY')}")
        return (f"workspacectl changes, revision {status['revision']} unsaved at stop → Result=success, on disk, "
                f"'flushed on stop' logged")


def scenario_4_kill(suite: Suite) -> str:
    """systemctl kill -s KILL under a writer: Restart=on-failure brings it back with every acknowledged change,
    durable or not (the change journal replayed; a minute of debounce, so no snapshot holds them)."""
    with suite.installed(default_config(debounce=60_000, maximum_delay=600_000)) as machine:
        machine.systemctl("start", UNIT)
        before = active(machine)
        durable = []
        for index in range(5):
            answer = expect_ok(machine.http(
                "POST", "/v1/favorites?durable=true", {"name": f"durable {index}", "path": f"/srv/d{index}"}), 201)
            check(answer.json["durableRevision"] is not None and
                  answer.json["durableRevision"] >= answer.json["revision"],
                  f"a durable acknowledgement that is not durable: {answer.json}")
            durable.append(answer.json["value"]["id"])
        # A writer makes plain changes, one after the other, while the daemon is killed under it.
        acknowledged: list[str] = []
        stop = threading.Event()

        def writer():
            index = 0
            while not stop.is_set():
                index += 1
                try:
                    answer = machine.http(
                        "POST", "/v1/favorites", {"name": f"plain {index}", "path": f"/srv/p{index}"}, timeout=2)
                except OSError:
                    time.sleep(0.01)
                    continue
                if answer.status == 201:
                    acknowledged.append(answer.json["value"]["id"])

        thread = threading.Thread(target=writer, daemon=True)
        thread.start()
        wait_for("plain changes under way", lambda: len(acknowledged) >= 30, timeout=20)
        machine.systemctl("kill", "-s", "KILL", UNIT)
        answered_before_kill = len(acknowledged)

        def restarted():
            state = active(machine)
            return state if (state["NRestarts"] == "1" and state["SubState"] == "running"
                             and state["MainPID"] != before["MainPID"]) else None

        state = wait_for("the restart after SIGKILL", restarted, timeout=20)
        stop.set()
        thread.join(timeout=10)
        killed = machine.journal("_PID=1", f"UNIT={UNIT}", "--grep", "status=9/KILL")
        check(killed, "systemd did not log the SIGKILL of the main process")
        served = [favorite["id"] for favorite in expect_ok(machine.http("GET", "/v1/favorites")).json]
        missing = [id_ for id_ in durable + acknowledged if id_ not in served]
        check(not missing, f"acknowledged favorites lost by the kill: {missing}")
        replayed = unit_journal(machine, f"MESSAGE_ID={JOURNAL_REPLAYED}")
        check(replayed and int(replayed[-1].get("RECORDS", "0")) > 0,
              f"no 'journal replayed' entry after the restart: {replayed}")
        return (f"killed pid {before['MainPID']} under a writer, restarted as {state['MainPID']} (NRestarts=1): "
                f"5/5 durable and {len(acknowledged)}/{len(acknowledged)} plain changes served "
                f"({answered_before_kill} answered before the kill), {replayed[-1].get('RECORDS')} replayed")


def scenario_5_reload(suite: Suite) -> str:
    """systemctl reload applies a new log level and debounce; a broken config keeps the old one and says so."""
    with suite.installed(default_config(debounce=60_000, maximum_delay=600_000)) as machine:
        machine.systemctl("start", UNIT)
        pid = machine.main_pid()
        # At info, a save (forced by a flush: a durable acknowledgement would wait out the debounce) logs
        # nothing at debug (priority 7).
        expect_ok(machine.http("POST", "/v1/projects", {"name": "before", "layout": "single"}), 201)
        expect_ok(machine.http("POST", "/v1/flush"))
        check(not unit_journal(machine, "PRIORITY=7"), "debug entries before the log level was raised")

        write_config(machine, default_config(logLevel="debug", debounce=100, maximum_delay=1_000))
        machine.systemctl("reload", UNIT)
        wait_for("STATUS after the reload",
                 lambda: "configuration reloaded at" in active(machine)["StatusText"])
        line = active(machine)["StatusText"]
        check(line.startswith("serving ") and "(log level debug)" in line,
              f"the reload's STATUS does not keep the load summary: {line!r}")
        entries = unit_journal(machine, f"MESSAGE_ID={CONFIG_RELOADED}")
        check(entries and entries[-1].get("LOG_LEVEL") == "debug", "no 'configuration reloaded' entry at debug")
        # The new debounce: a plain (not durable) change is on disk within about 100 ms, not a minute.
        expect_ok(machine.http("POST", "/v1/projects", {"name": "after reload", "layout": "split"}), 201)
        wait_for("the change to be saved with the new debounce",
                 lambda: "after reload" in names((state_on_disk(machine) or {}).get("projects", [])), timeout=5)
        wait_for("a debug entry (the save) at the new log level",
                 lambda: unit_journal(machine, "PRIORITY=7"), timeout=5)

        write_config(machine, '{"logLevel": "loud", ')
        refused = machine.systemctl("reload", UNIT, check=False)
        check(refused.returncode != 0, "systemctl reload of a broken config returned 0")
        said = [entry.get("MESSAGE", "") for entry in unit_journal(machine)]
        check(any("workspaced reload: configuration rejected" in line and "not valid JSON at line 1" in line
                  for line in said), "ExecReload did not name the defect in the journal")
        wait_for("STATUS after the rejected reload",
                 lambda: "configuration rejected" in active(machine)["StatusText"])
        text = machine.systemctl("status", "--no-pager", UNIT, check=False).stdout
        check("configuration rejected" in text, f"systemctl status does not say the config was rejected:\n{text}")
        rejected = unit_journal(machine, f"MESSAGE_ID={CONFIG_REJECTED}")
        check(rejected and rejected[-1]["PRIORITY"] == "4", "no 'configuration rejected' warning in the journal")
        state = active(machine)
        check(state["ActiveState"] == "active" and machine.main_pid() == pid,
              f"the service did not keep running through the reloads: {state}")
        # The old configuration (debounce 100 ms, debug) is still in force.
        debug_before = len(unit_journal(machine, "PRIORITY=7"))
        expect_ok(machine.http("POST", "/v1/projects", {"name": "after rejection", "layout": "quad"}), 201)
        wait_for("the change to be saved with the kept debounce",
                 lambda: "after rejection" in names((state_on_disk(machine) or {}).get("projects", [])), timeout=5)
        wait_for("debug logging to continue", lambda: len(unit_journal(machine, "PRIORITY=7")) > debug_before,
                 timeout=5)
        return ("debug + 100 ms debounce applied by reload; a broken config failed systemctl reload, was rejected "
                "in STATUS and journal, kept")


def scenario_6_watchdog(suite: Suite) -> str:
    """A hung state owner (workspaced-testing installed as workspaced, with WSD_TEST_HOOKS=1; SIGUSR2) stops the
    pings: systemd restarts it with Result=watchdog."""
    check(suite.hooks_binary.exists(), f"the test-hooks build is missing: {suite.hooks_binary}")
    with suite.installed() as machine:
        machine.write("/usr/local/bin/workspaced", suite.hooks_binary.read_bytes(), mode=0o755)
        machine.write(f"{DROP_INS}/watchdog.conf", "[Service]\nWatchdogSec=2\nEnvironment=WSD_TEST_HOOKS=1\n")
        machine.systemctl("daemon-reload")
        machine.systemctl("start", UNIT)
        before = active(machine)
        # Pings arrive: the watchdog timestamp moves (the daemon pings every WatchdogSec/2).
        first = machine.show(UNIT, "WatchdogTimestampMonotonic")["WatchdogTimestampMonotonic"]
        wait_for("a watchdog ping", lambda: machine.show(
            UNIT, "WatchdogTimestampMonotonic")["WatchdogTimestampMonotonic"] != first, timeout=5)
        machine.systemctl("kill", "-s", "USR2", UNIT)
        seen = set()

        def watchdog_restart():
            state = active(machine)
            seen.add(state["Result"])
            return state if (state["NRestarts"] == "1" and state["SubState"] == "running"
                             and state["MainPID"] != before["MainPID"]) else None

        state = wait_for("the watchdog restart", watchdog_restart, timeout=20, interval=0.1)
        lines = [entry["MESSAGE"] for entry in machine.journal("_PID=1", f"UNIT={UNIT}")]
        check(any("Watchdog timeout" in line for line in lines), f"no watchdog timeout from systemd: {lines}")
        check(any("Failed with result 'watchdog'" in line for line in lines),
              f"the failure result was not 'watchdog': {lines}")
        expect_ok(machine.http("GET", "/v1/status"))
        observed = " (Result=watchdog observed)" if "watchdog" in seen else ""
        return f"hung owner → Watchdog timeout, Result=watchdog, restarted as pid {state['MainPID']}{observed}"


def scenario_7_corrupt_and_newer(suite: Suite) -> str:
    """Corrupt → quarantined and running; newer → the start fails, file unchanged, no restart loop."""
    corrupt = b'{"version": 4, "projects": [{"id": '
    with suite.installed() as machine:
        place_state(machine, corrupt)
        machine.systemctl("start", UNIT)
        check(active(machine)["SubState"] == "running", "not running with a corrupt file")
        quarantined = [p for p in machine.path(STATE_DIR).iterdir() if p.name.startswith("workspace.json.corrupt-")]
        check(len(quarantined) == 1, f"expected one quarantined file, found {[p.name for p in quarantined]}")
        check(quarantined[0].read_bytes() == corrupt, "the quarantined file is not the corrupt bytes")
        warnings = machine.run("journalctl", "--no-pager", "-u", UNIT, "-p", "warning", "-o", "cat").stdout
        check(quarantined[0].name in warnings and "corrupt" in warnings,
              f"journalctl -p warning does not show the quarantine:\n{warnings}")
        entries = unit_journal(machine, f"MESSAGE_ID={QUARANTINED}")
        check(entries and entries[0].get("QUARANTINE_PATH", "").endswith(quarantined[0].name),
              "no quarantined entry with QUARANTINE_PATH")
        expect_ok(machine.http("GET", "/v1/workspace"))

    newer = (FIXTURES / "edge/newer-incompatible.json").read_bytes()
    with suite.installed() as machine:
        place_state(machine, newer)
        start = machine.systemctl("start", UNIT, check=False)
        check(start.returncode != 0, "systemctl start succeeded with a newer incompatible file")
        shown = wait_for("the unit to settle in failed", lambda: (lambda s: s if s["ActiveState"] == "failed" else None)(
            machine.show(UNIT, "ActiveState", "SubState", "Result", "ExecMainStatus", "NRestarts", "StatusText")))
        check(shown["SubState"] == "failed" and shown["ExecMainStatus"] == "75" and shown["NRestarts"] == "0",
              f"expected a final failure with status 75 and no restart: {shown}")
        text = machine.systemctl("status", "--no-pager", UNIT, check=False).stdout
        entries = unit_journal(machine, f"MESSAGE_ID={REFUSED_NEWER}")
        check(entries and entries[0].get("STORED_VERSION") == "5" and entries[0]["PRIORITY"] == "3",
              "no error entry naming the newer version")
        explanation = entries[0]["MESSAGE"]
        check("newer" in explanation.lower() or "version 5" in explanation,
              f"the journal line does not explain: {explanation!r}")
        check("newer" in (shown["StatusText"] + text).lower() or explanation in text,
              f"neither STATUS nor systemctl status explains the failure:\n{shown['StatusText']!r}\n{text}")
        check(machine.path(STATE).read_bytes() == newer, "the newer file was changed")
        # The failure is final: a later look still finds no restart and the start-limit counter untouched.
        again = machine.show(UNIT, "ActiveState", "NRestarts")
        check(again == {"ActiveState": "failed", "NRestarts": "0"}, f"the unit moved on after failing: {again}")
        return f"corrupt → {quarantined[0].name}, running; newer → exit 75 once, file unchanged, no restart"


def lifecycle_timeline(machine: Machine) -> list[str]:
    """The daemon's signal, stop and ready entries with their times and fields, to place a failed request."""
    lines = []
    for entry in unit_journal(machine):
        message = entry.get("MESSAGE", "")
        if not isinstance(message, str) or not (message.startswith("received signal") or message == "stopped"
                                                or message.startswith("ready") or message == "listening"):
            continue
        at = int(entry.get("__REALTIME_TIMESTAMP", "0")) / 1_000_000
        fields = {key: entry[key] for key in ("HANDLED", "LATE") if key in entry}
        lines.append(f"{at:.6f} pid {entry.get('_PID')} {message[:40]} {fields or ''}".rstrip())
    return lines


def scenario_8_socket_activation(suite: Suite) -> str:
    """The first workspacectl call starts the service through the socket; restarts under a looping client refuse
    nothing."""
    with suite.installed() as machine:
        machine.systemctl("enable", "--now", "workspaced.socket")
        check(active(machine)["ActiveState"] == "inactive", "the service runs before any call")
        problem = socket_ownership(machine)
        check(problem is None, f"before the first call: {problem}")
        status = expect_ctl(machine, "status", "--timeout", "30")
        state = active(machine)
        check(state["ActiveState"] == "active" and state["SubState"] == "running",
              f"the first workspacectl call did not start the service: {state}")
        # The running service must not take the socket over (a DynamicUser= runtime directory would be chowned
        # and moved to /run/private, out of every other user's reach).
        problem = socket_ownership(machine)
        check(problem is None, f"with the service running: {problem}")
        first_pid = machine.main_pid()

        counts = {"ok": 0, "refused": 0, "other": 0}
        problems: list[str] = []
        stop = threading.Event()

        def client():
            while not stop.is_set():
                try:
                    answer = machine.http("GET", "/v1/status", timeout=30)
                    if answer.status == 200:
                        counts["ok"] += 1
                    else:
                        counts["other"] += 1
                        problems.append(repr(answer))
                except (ConnectionRefusedError, FileNotFoundError) as error:
                    counts["refused"] += 1
                    problems.append(repr(error))
                except Exception as error:  # noqa: BLE001 - every other failure is counted and shown
                    counts["other"] += 1
                    problems.append(f"{repr(error)} at {time.time():.6f}")

        thread = threading.Thread(target=client, daemon=True)
        thread.start()
        pids = [first_pid]
        try:
            wait_for("the client loop to get answers", lambda: counts["ok"] > 5)
            for _ in range(3):
                machine.systemctl("restart", UNIT)
                pids.append(machine.main_pid())
                served = counts["ok"]
                wait_for("answers from the new process", lambda: counts["ok"] > served + 5)
        finally:
            stop.set()
            thread.join(timeout=40)
        check(len(set(pids)) == 4, f"the restarts did not replace the process: {pids}")
        check(counts["refused"] == 0, f"{counts['refused']} refused connections: {problems[:5]}")
        if counts["other"]:
            raise Failure(f"{counts['other']} failed requests: {problems[:5]}; the daemon's stops and starts: "
                          f"{lifecycle_timeline(machine)}")
        problem = socket_ownership(machine)
        check(problem is None, f"after the restarts: {problem}")
        return (f"first workspacectl status started it ({status['daemonVersion']}); socket root's 0666 throughout; "
                f"3 restarts, {counts['ok']} requests, 0 refused")


WRITE_PROBE = r"""
for dir in "$@"; do
  if ( : > "$dir/.workspaced-write-probe" ) 2>/dev/null; then rm -f "$dir/.workspaced-write-probe"; echo "W $dir";
  else echo "R $dir"; fi
done
"""
PROTECTED = ["/", "/etc", "/etc/workspaced", "/usr", "/usr/local/bin", "/var", "/var/lib", "/var/log", "/root",
             "/home", "/opt", "/srv", "/boot", "/var/cache", "/var/spool", "/usr/local/lib/systemd/system"]


def scenario_9_hardening(suite: Suite) -> str:
    """The hardened unit runs as a dynamic user that can write its state directory and nothing persistent else;
    another user's request is refused with 403 and a warning; systemd-analyze security scores it at most 1.0."""
    with suite.installed() as machine:
        machine.systemctl("start", UNIT)
        pid = machine.main_pid()
        status = machine.run("cat", f"/proc/{pid}/status").stdout
        fields = dict(re.findall(r"^(\w+):\s+(.*)$", status, re.M))
        uid = int(fields["Uid"].split()[0])
        check(61184 <= uid <= 65519, f"not a dynamic user: uid {uid}")
        check(int(fields["CapEff"], 16) == 0 and int(fields["CapBnd"], 16) == 0,
              f"capabilities left: CapEff={fields['CapEff']} CapBnd={fields['CapBnd']}")
        check(fields["NoNewPrivs"] == "1" and fields["Seccomp"] == "2",
              f"NoNewPrivs={fields['NoNewPrivs']} Seccomp={fields['Seccomp']}")

        # Writes as the daemon's user inside the daemon's own mount namespace (nsenter -m into MainPID, setpriv
        # to its uid/gid): only the state directory may take a file. The same probe as root (all capabilities)
        # proves the refusals come from read-only or inaccessible mounts, not just from file permissions.
        gid = int(fields["Gid"].split()[0])
        targets = ["/var/lib/workspaced", *PROTECTED]
        as_daemon = machine.run("nsenter", "-t", str(pid), "-m", "--", "setpriv", f"--reuid={uid}",
                                f"--regid={gid}", "--clear-groups", "sh", "-c", WRITE_PROBE, "probe", *targets).stdout
        as_root = machine.run("nsenter", "-t", str(pid), "-m", "--", "sh", "-c", WRITE_PROBE, "probe",
                              *targets).stdout
        for output, who in ((as_daemon, f"uid {uid}"), (as_root, "root")):
            writable = [line[2:] for line in output.splitlines() if line.startswith("W ")]
            check(writable == ["/var/lib/workspaced"],
                  f"in the daemon's mount namespace {who} can write {writable}, expected only its state dir")
        expect_ok(machine.http("POST", "/v1/favorites?durable=true", {"name": "hardened", "path": "/srv/h"}), 201)
        # The durable change is in the change journal; the flush writes the state file too.
        expect_ok(machine.http("POST", "/v1/flush"))
        owner = machine.path(STATE).stat().st_uid
        check(owner == uid, f"the state file is owned by {owner}, not the daemon's uid {uid}")
        segments = sorted(machine.path(STATE).parent.glob("workspace.json.journal.*"))
        check(segments and all(segment.stat().st_uid == uid for segment in segments),
              f"the change journal's segments are not the daemon's uid {uid}: {segments}")
        peers = refuses_other_users(machine)

        score = machine.run("systemd-analyze", "security", "--no-pager", UNIT, check=False)
        match = re.search(r"Overall exposure level for \S+: ([\d.]+)", score.stdout)
        check(match, f"no overall exposure level: {score.stdout[-500:]}{score.stderr}")
        check(float(match.group(1)) <= 1.0, f"exposure {match.group(1)} > 1.0")
        offline = machine.run("systemd-analyze", "security", "--offline=true", "--threshold=10", "--no-pager",
                              UNIT_FILE, check=False)
        check(offline.returncode == 0, f"offline security of the installed file above 1.0:\n{offline.stdout[-500:]}")
        return f"uid {uid}, no capabilities, seccomp; writes only its state dir (as itself and as root); " \
               f"{peers}; exposure {match.group(1)}"


def refuses_other_users(machine: Machine) -> str:
    """`workspacectl status` as uid 65534 (no groups, not in the default access lists) reaches the daemon and is
    refused with its 403, and `journalctl -u workspaced -p warning` holds the warning naming the uid (PEER_UID)."""
    refused = workspacectl(machine, "status", uid=NOBODY)
    expected = f"refused by workspaced (403 forbidden): uid {NOBODY} may not read the workspace"
    check(refused.returncode == 1 and expected in refused.stderr,
          f"workspacectl status as uid {NOBODY} was not refused by the daemon with 403 (exit {refused.returncode}): "
          + " / ".join((refused.stdout + refused.stderr).strip().splitlines()))

    def warnings():
        entries = machine.journal("-u", UNIT, "-p", "warning")
        return [entry for entry in entries if entry.get("PEER_UID") == str(NOBODY)]

    entries = wait_for(f"a warning with PEER_UID={NOBODY}", warnings, timeout=5)
    check(len(entries) == 1, f"expected one refusal warning for uid {NOBODY}, got {len(entries)}")
    entry = entries[0]
    check(entry.get("PRIORITY") == "4" and f"uid {NOBODY}" in entry.get("MESSAGE", ""),
          f"the refusal entry is not a warning naming the uid: PRIORITY={entry.get('PRIORITY')} "
          f"{entry.get('MESSAGE')!r}")
    return f"uid {NOBODY} refused (403, warning PEER_UID={NOBODY})"


PRIORITY_NOISE = "Failed to set thread priority"


def nice_limit_state(machine: Machine) -> tuple[int, bool]:
    """The daemon's RLIMIT_NICE (soft) and whether this machine's PID 1 holds CAP_SYS_RESOURCE, without which
    systemd cannot raise RLIMIT_NICE above the hard limit it inherited and LimitNICE= cannot take effect."""
    limits = machine.run("cat", f"/proc/{machine.main_pid()}/limits").stdout
    soft = int(re.search(r"^Max nice priority\s+(\d+)", limits, re.M).group(1))
    bounding = int(re.search(r"^CapBnd:\s+([0-9a-f]+)", machine.run("cat", "/proc/1/status").stdout, re.M).group(1), 16)
    return soft, bool(bounding & (1 << 24))


def scenario_10_journal(suite: Suite) -> str:
    """A clean run logs nothing at err, no thread-priority noise, and only native entries with CODE_* fields."""
    with suite.installed() as machine:
        machine.systemctl("start", UNIT)
        check(machine.show(UNIT, "LimitNICE")["LimitNICE"] == "24", "the unit does not ask for LimitNICE=-4")
        nice_limit, can_raise = nice_limit_state(machine)
        expect_ok(machine.http("POST", "/v1/projects?durable=true", {"name": "journal", "layout": "split"}), 201)
        expect_ok(machine.http("POST", "/v1/favorites", {"name": "journal", "path": "/srv/j"}), 201)
        expect_ok(machine.http("GET", "/v1/workspace"))
        machine.systemctl("reload", UNIT)
        wait_for("the reload", lambda: "configuration reloaded" in active(machine)["StatusText"])
        machine.systemctl("restart", UNIT)
        machine.systemctl("stop", UNIT)
        machine.run("journalctl", "--sync")
        errors = machine.run("journalctl", "--no-pager", "-q", "-u", UNIT, "-p", "err").stdout
        check(not errors.strip(), f"journalctl -u workspaced -p err is not empty:\n{errors}")
        noise = [entry for entry in machine.journal("--grep", PRIORITY_NOISE)]
        note = ""
        if nice_limit >= 24:
            check(not noise, f"thread priority noise although RLIMIT_NICE is {nice_limit}: "
                             f"{[entry['MESSAGE'] for entry in noise][:3]}")
        else:
            # Only a host that withholds CAP_SYS_RESOURCE from this systemd excuses the limit not being applied;
            # then libdispatch's EACCES line (its user-interactive worker asks for nice -4) is expected, and
            # nothing else may appear.
            check(not can_raise, f"LimitNICE=-4 not applied (RLIMIT_NICE {nice_limit}) although PID 1 could")
            unexpected = [entry["MESSAGE"] for entry in noise if "errno=13" not in entry["MESSAGE"]]
            check(not unexpected, f"unexpected thread priority messages: {unexpected[:3]}")
            note = (f"; NOT VERIFIED here: this host withholds CAP_SYS_RESOURCE, so LimitNICE=-4 cannot apply and "
                    f"libdispatch logged {len(noise)} EACCES line(s)")
        entries = unit_journal(machine)
        native = [entry for entry in entries if not (note and entry.get("MESSAGE", "").startswith(PRIORITY_NOISE))]
        check(len(native) >= 6, f"only {len(native)} entries from the daemon")
        for entry in native:
            missing = [field for field in ("CODE_FILE", "CODE_LINE", "CODE_FUNC") if not entry.get(field)]
            check(entry.get("SYSLOG_IDENTIFIER") == "workspaced" and not missing,
                  f"an entry without SYSLOG_IDENTIFIER=workspaced or {missing}: "
                  f"{entry.get('SYSLOG_IDENTIFIER')!r} {entry.get('MESSAGE')!r}")
        # Each start runs ExecStartPre=+workspaced stage-legacy (its own process) before the daemon itself, and the
        # reload ExecReload=workspaced reload (another one), each logging natively too.
        staging = {entry["_PID"] for entry in native if entry.get("MESSAGE", "").startswith("stage-legacy: ")}
        reloading = {entry["_PID"] for entry in native
                     if entry.get("MESSAGE", "").startswith("workspaced reload: ")}
        check(len(reloading) == 1, f"expected one workspaced reload process, got pids {sorted(reloading)}")
        pids = {entry["_PID"] for entry in native} - staging - reloading
        check(len(pids) == 2, f"expected entries from the two daemon processes, got pids {sorted(pids)}")
        check(len(staging) == 2, f"expected one stage-legacy process per start, got pids {sorted(staging)}")
        return (f"-p err empty, {len(native)} entries all SYSLOG_IDENTIFIER=workspaced with CODE_FILE/LINE/FUNC"
                + (", no thread priority noise" if not note else note))


def scenario_13_legacy_import(suite: Suite) -> str:
    """An earlier installation's state, owned by another user with mode 0600 outside the unit's paths, is
    imported once under the hardened unit; a restart imports nothing; the legacy file is byte-identical."""
    original = (FIXTURES / "versions/v1.json").read_bytes()
    machine = suite.installed()
    with machine:
        machine.write(LEGACY_PATH, original, mode=0o600)
        legacy = machine.path(LEGACY_PATH)
        os.chown(legacy.parent, LEGACY_OWNER, LEGACY_OWNER)
        os.chmod(legacy.parent, 0o700)
        os.chown(legacy, LEGACY_OWNER, LEGACY_OWNER)
        before = os.stat(legacy)
        machine.systemctl("start", UNIT)
        served = expect_ok(machine.http("GET", "/v1/workspace")).json["workspace"]
        problem = subset_mismatch(EXPECTED[1], served)
        check(problem is None, f"the imported workspace: {problem}")
        entries = unit_journal(machine, f"MESSAGE_ID={LEGACY_IMPORTED}")
        check(len(entries) == 1, f"expected one imported entry, got {len(entries)}")
        check(entries[0].get("LEGACY_PATH") == LEGACY_PATH and "may be removed" in entries[0].get("MESSAGE", ""),
              f"the imported entry: {entries[0]}")
        staged = [entry for entry in machine.journal(f"_SYSTEMD_UNIT={UNIT}")
                  if "stage-legacy: staged " + LEGACY_PATH in entry.get("MESSAGE", "")]
        check(len(staged) == 1, "ExecStartPre=+workspaced stage-legacy did not stage the legacy file")
        marker = json.loads(machine.path(f"{STATE_DIR}/imported-from-legacy").read_text())
        check(marker["source"] == LEGACY_PATH and marker["size"] == len(original) and marker["version"] == 1
              and marker["sha256"] == hashlib.sha256(original).hexdigest(), f"the marker: {marker}")
        on_disk = state_on_disk(machine)
        check(on_disk and on_disk.get("version") == 4, "the imported state is not on disk at version 4")
        leftovers = sorted(p.name for p in machine.path(STATE_DIR).iterdir()
                           if p.name.startswith(".legacy-import") or p.name.endswith(".pending"))
        check(not leftovers, f"left behind in the state directory: {leftovers}")
        uid = daemon_uid(machine)
        check(uid != 0 and uid != LEGACY_OWNER, f"the daemon runs as uid {uid}")

        machine.systemctl("restart", UNIT)
        expect_ok(machine.http("GET", "/v1/status"))
        again = unit_journal(machine, f"MESSAGE_ID={LEGACY_IMPORTED}")
        check(len(again) == 1, f"a restart imported again: {len(again)} imported entries")
        after = os.stat(legacy)
        check(legacy.read_bytes() == original, "the legacy file changed")
        check((after.st_uid, after.st_mode, after.st_mtime_ns) == (before.st_uid, before.st_mode, before.st_mtime_ns),
              "the legacy file's owner, mode or modification time changed")
        return (f"imported a 0600 file of uid {LEGACY_OWNER} as dynamic uid {uid} (via ExecStartPre=+ staging); "
                "one imported entry, marker with SHA-256; restart imported nothing; legacy byte-identical")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_token(machine: Machine, name: str, scope: str) -> dict:
    """`workspacectl token create NAME --scope SCOPE --json` as root; checks the answer's shape (the record's six
    keys and `token`, `wsd_<its id>_<43 base64url>`, never used, not revoked)."""
    created = expect_ctl(machine, "token", "create", name, "--scope", scope)
    check(set(created) == TOKEN_FIELDS | {"token"}, f"token create --json has keys {sorted(created)}")
    shape = TOKEN_SHAPE.match(created["token"])
    check(shape and shape.group(1) == created["id"],
          f"the token {created['token'][:20]}… does not have the shape wsd_<id {created['id']}>_<43 base64url>")
    check(created["name"] == name and created["scope"] == scope and created["lastUsedAt"] is None
          and created["revokedAt"] is None and created["createdAt"],
          f"the created token's record: { {key: created[key] for key in TOKEN_FIELDS} }")
    return created


def secrets_status(machine: Machine) -> tuple[dict, dict]:
    """`GET /v1/status` as root: its `secrets` and `installation` objects (empty when null)."""
    status = expect_ok(machine.http("GET", "/v1/status")).json
    check("secrets" in status and "installation" in status, f"/v1/status has no secrets or installation: {status}")
    return status["secrets"] or {}, status["installation"] or {}


def scenario_11_credential_key(suite: Suite) -> str:
    """The key from a credential (LoadCredential=, then the same key as LoadCredentialEncrypted=): tokens enabled,
    no key file, the store sealed; without the credential the workspace is still served, tokens are disabled and
    say why, and the store is left byte-identical."""
    key = base64.b64encode(os.urandom(32)).decode()
    drop_in = f"{DROP_INS}/secrets-key.conf"
    with suite.installed() as machine:
        # 1. A plain credential: a root-only 0600 file handed over by LoadCredential=.
        machine.write(PLAIN_KEY, key + "\n", mode=0o600)
        machine.write(drop_in, f"[Service]\nLoadCredential=secrets-key:{PLAIN_KEY}\n")
        machine.systemctl("daemon-reload")
        machine.systemctl("start", UNIT)
        secrets, installation = secrets_status(machine)
        check(secrets.get("state") == "enabled" and secrets.get("keySource") == "credential"
              and secrets.get("reason") is None and secrets.get("activeTokens") == 0,
              f"with LoadCredential= the status is not enabled from the credential: {secrets}")
        key_id = secrets.get("keyId") or ""
        check(re.fullmatch(r"[0-9a-f]{16}", key_id), f"keyId {key_id!r} is not 16 hex digits")
        installation_id = installation.get("id") or ""
        check(re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", installation_id)
              and installation.get("firstStartedAt"), f"the installation in /v1/status: {installation}")
        text = workspacectl(machine, "status").stdout
        check(f"enabled, key from the credential ({key_id})" in text,
              f"workspacectl status does not say the key is the credential's:\n{text}")
        check(not machine.path(KEY_FILE).exists(), "a secrets.key was created although the credential is given")
        created = create_token(machine, "credential test", "write")
        token = created["token"]

        sealed = machine.path(SECRETS)
        check(sealed.exists(), f"no {SECRETS}; the state directory has "
                               f"{sorted(p.name for p in machine.path(STATE_DIR).iterdir())}")
        info = sealed.stat()
        check(info.st_mode & 0o7777 == 0o600 and info.st_uid == daemon_uid(machine),
              f"{SECRETS} mode {oct(info.st_mode & 0o7777)} uid {info.st_uid}, expected 0600 of the daemon's uid")
        data = sealed.read_bytes()
        envelope = json.loads(data)
        check(envelope.get("cipher") == "AES-256-GCM" and envelope.get("format") == "workspaced-secrets"
              and envelope.get("keyId") == key_id and envelope.get("sealed"),
              f"not a sealed envelope under key {key_id}: { {k: v for k, v in envelope.items() if k != 'sealed'} }")
        for clear, what in ((installation_id, "the installation id"), (installation_id.upper(), "the installation id"),
                            (created["id"], "the token id"), ("credential test", "the token's name"),
                            (TOKEN_SHAPE.match(token).group(2), "the token's secret"), (key, "the key")):
            check(clear.encode() not in data, f"{SECRETS} holds {what} in clear")
        expect_ok(machine.http("POST", "/v1/favorites?durable=true", {"name": "by token", "path": "/srv/t"},
                               headers=bearer(token)), 201)

        # 2. The same key as an encrypted credential (sealed with the host key); the plain file is gone.
        machine.run("systemd-creds", "encrypt", "--name=secrets-key", "--with-key=host", "-", ENCRYPTED_KEY,
                    input=key)
        check(key.encode() not in machine.path(ENCRYPTED_KEY).read_bytes(), "the encrypted credential holds the key")
        machine.write(drop_in, f"[Service]\nLoadCredentialEncrypted=secrets-key:{ENCRYPTED_KEY}\n")
        machine.path(PLAIN_KEY).unlink()
        machine.systemctl("daemon-reload")
        machine.systemctl("restart", UNIT)
        secrets, again = secrets_status(machine)
        check(secrets.get("state") == "enabled" and secrets.get("keySource") == "credential"
              and secrets.get("keyId") == key_id and secrets.get("activeTokens") == 1,
              f"with LoadCredentialEncrypted= (same key {key_id}, one token): {secrets}")
        check(again == installation, f"the installation changed: {installation} → {again}")
        favorites = expect_ok(machine.http("GET", "/v1/favorites", headers=bearer(token))).json
        check("by token" in names(favorites), f"the token's change is not served: {names(favorites)}")
        check(not machine.path(KEY_FILE).exists(), "a secrets.key appeared")

        # 3. No credential: served as usual, token authentication disabled, the store untouched.
        machine.systemctl("stop", UNIT)
        before_bytes, before = sealed.read_bytes(), sealed.stat()
        listing = sorted(p.name for p in machine.path(STATE_DIR).iterdir())
        machine.path(drop_in).unlink()
        machine.systemctl("daemon-reload")
        machine.systemctl("start", UNIT)
        state = active(machine)
        check(state["ActiveState"] == "active" and state["SubState"] == "running",
              f"not running without the credential: {state}")
        served = expect_ok(machine.http("GET", "/v1/workspace")).json["workspace"]
        check("by token" in names(served["favorites"]), "the workspace is not served without the credential")
        secrets, kept = secrets_status(machine)
        check(secrets.get("state") == "disabled" and secrets.get("reasonCode") == "no_key" and secrets.get("reason"),
              f"without the credential the status does not say tokens are disabled for no_key: {secrets}")
        check(kept.get("id") == installation_id, f"the installation without the key: {kept}")
        text = workspacectl(machine, "status").stdout
        check("DISABLED, token authentication is off: " in text, f"workspacectl status does not say why:\n{text}")
        disabled = unit_journal(machine, f"MESSAGE_ID={SECRETS_DISABLED}")
        check(len(disabled) == 1 and disabled[0].get("PRIORITY") == "3"
              and disabled[0].get("REASON_CODE") == "no_key",
              f"expected one secretsDisabled error (no_key), got "
              f"{[(e.get('PRIORITY'), e.get('REASON_CODE'), e.get('MESSAGE')) for e in disabled]}")
        after = sealed.stat()
        identity = lambda info: (info.st_ino, info.st_mtime_ns, info.st_mode)  # noqa: E731
        check(sealed.read_bytes() == before_bytes and identity(after) == identity(before),
              "secrets.json.enc was rewritten or replaced by a start without its key")
        now = sorted(p.name for p in machine.path(STATE_DIR).iterdir())
        check(now == listing, f"the state directory changed: {listing} → {now}")
        refused = machine.http("GET", "/v1/workspace", headers=bearer(token))
        check(refused.status == 401 and refused.json and refused.json["error"]["code"] == "unauthorized"
              and "disabled" in refused.json["error"]["message"]
              and refused.headers.get("WWW-Authenticate", "").startswith("Bearer"),
              f"a token while disabled: {refused!r} {refused.headers.get('WWW-Authenticate')!r}")
        routes = machine.http("GET", "/v1/tokens")
        check(routes.status == 503 and routes.json["error"]["code"] == "secrets_unavailable",
              f"GET /v1/tokens while disabled: {routes!r}")
        key_file_warnings = unit_journal(machine, f"MESSAGE_ID={SECRETS_KEY_FILE}")
        check(not key_file_warnings, f"key-file warnings although no key file was used: "
                                     f"{[e.get('MESSAGE') for e in key_file_warnings]}")
        return (f"LoadCredential= then LoadCredentialEncrypted= (key {key_id}): enabled, no secrets.key, store 0600 "
                "sealed; without it: served, disabled (no_key) in status and journal, store byte-identical, token 401")


def scenario_12_reinstall(suite: Suite) -> str:
    """Everything `make install` installed removed and installed again, /var/lib kept: same installation, the
    token still works, one installationCreated entry over both starts."""
    with suite.installed() as machine:
        machine.systemctl("start", UNIT)
        secrets, installation = secrets_status(machine)
        check(secrets.get("state") == "enabled" and secrets.get("keySource") == "key-file",
              f"the first start without a credential: {secrets}")
        check(installation.get("id") and installation.get("firstStartedAt"), f"no installation: {installation}")
        check(machine.path(KEY_FILE).exists(), "no secrets.key after the first start without a credential")
        created = create_token(machine, "survives reinstall", "write")
        machine.systemctl("stop", UNIT, "workspaced.socket")

        installed = sorted(path.relative_to(suite.stage) for path in suite.stage.rglob("*")
                           if path.is_file() or path.is_symlink())
        check(len(installed) >= 8, f"the staged tree holds only {[str(p) for p in installed]}")
        for relative in installed:
            machine.path(f"/{relative}").unlink()
        shutil.rmtree(machine.path("/etc/workspaced"))
        shutil.rmtree(machine.path("/usr/local/share/doc/workspaced"))
        left = [str(p) for p in installed if machine.path(f"/{p}").exists()]
        check(not left, f"still installed: {left}")
        machine.systemctl("daemon-reload")
        load = machine.show(UNIT, "LoadState")["LoadState"]
        check(load == "not-found", f"the unit is still {load} after the uninstall")

        machine.install_tree(suite.stage)
        machine.systemctl("daemon-reload")
        machine.systemctl("start", UNIT)
        secrets, again = secrets_status(machine)
        check(again == installation, f"the reinstall changed the installation: {installation} → {again}")
        check(secrets.get("state") == "enabled" and secrets.get("activeTokens") == 1,
              f"after the reinstall: {secrets}")
        changed = machine.http("POST", "/v1/favorites?durable=true", {"name": "after reinstall", "path": "/srv/r"},
                               headers=bearer(created["token"]))
        expect_ok(changed, 201)
        check("after reinstall" in names(expect_ok(machine.http("GET", "/v1/favorites")).json),
              "the change made with the token is not there")
        # The token is really checked: the same id with another secret is refused.
        forged = f"wsd_{created['id']}_{'A' * 43}"
        refused = machine.http("POST", "/v1/favorites", {"name": "forged", "path": "/srv/f"}, headers=bearer(forged))
        check(refused.status == 401, f"a forged secret for token {created['id']}: {refused!r}")
        starts = unit_journal(machine, f"MESSAGE_ID={STARTED}")
        check(len(starts) == 2, f"expected two 'ready' entries (one per start), got {len(starts)}")
        created_entries = unit_journal(machine, f"MESSAGE_ID={INSTALLATION_CREATED}")
        check(len(created_entries) == 1 and created_entries[0].get("INSTALLATION_ID") == installation["id"],
              f"expected one installationCreated entry for {installation['id']}, got "
              f"{[(e.get('INSTALLATION_ID'), e.get('MESSAGE')) for e in created_entries]}")
        key_file = unit_journal(machine, f"MESSAGE_ID={SECRETS_KEY_FILE}")
        check(len(key_file) == 2 and all(e.get("PRIORITY") == "4" for e in key_file),
              f"expected a key-file warning at each of the two starts, got {len(key_file)}")
        return (f"removed {len(installed)} installed files and /etc/workspaced, reinstalled: installation "
                f"{installation['id']} and first start kept, write token works, 1 installationCreated entry")


def scenario_14_tokens_for_nobody(suite: Suite) -> str:
    """uid 65534, in no access list: refused without a token, reads with a read token, changes with a write token
    until root revokes it (then 401 and one warning naming its id, never its secret); it cannot manage tokens."""
    with suite.installed() as machine:
        machine.systemctl("start", UNIT)
        # The text form prints the token on its first line, and its id on the next.
        printed = workspacectl(machine, "token", "create", "nobody reads", "--scope", "read")
        lines = printed.stdout.splitlines()
        shape = TOKEN_SHAPE.match(lines[0]) if lines else None
        check(printed.returncode == 0 and shape and len(lines) == 2 and f"read token {shape.group(1)}" in lines[1],
              f"token create (text) exited {printed.returncode}: {printed.stdout}{printed.stderr}")
        read_token, read_id = lines[0], shape.group(1)
        write = create_token(machine, "nobody writes", "write")
        write_token, write_id = write["token"], write["id"]
        listed = expect_ctl(machine, "token", "list")
        check(sorted(t["id"] for t in listed) == sorted([read_id, write_id])
              and all(set(t) == TOKEN_FIELDS for t in listed), f"token list --json: {listed}")

        def as_nobody(*args: str, token: str | None = None):
            # --token-file, as the docs advise: a --token on the command line would reach the journal as the
            # _CMDLINE of any line workspacectl itself logs (libdispatch's thread-priority noise does here).
            if token is None:
                return workspacectl(machine, *args, uid=NOBODY)
            path = f"/run/workspaced-test/{TOKEN_SHAPE.match(token).group(1)}.token"
            machine.write(path, token + "\n", mode=0o444)
            return workspacectl(machine, *args, "--token-file", path, uid=NOBODY)

        def refused(result, status: str) -> bool:
            return result.returncode == 1 and f"refused by workspaced ({status}" in result.stderr

        def said(result) -> str:
            return f"exit {result.returncode}: " + " / ".join((result.stdout + result.stderr).strip().splitlines())

        plain = as_nobody("show", "--json")
        check(refused(plain, "403 forbidden"), f"uid {NOBODY} without a token read the workspace: {said(plain)}")
        reading = as_nobody("show", "--json", token=read_token)
        check(reading.returncode == 0 and "workspace" in json.loads(reading.stdout or "{}"),
              f"uid {NOBODY} with the read token: {said(reading)}")
        status = as_nobody("status", "--json", token=read_token)
        check(status.returncode == 0, f"status with the read token: {said(status)}")
        change = as_nobody("favorite", "add", "by reader", "/srv/reader", token=read_token)
        check(refused(change, "403 forbidden"), f"a change with the read token: {said(change)}")
        written = as_nobody("favorite", "add", "by writer", "/srv/writer", "--json", token=write_token)
        check(written.returncode == 0, f"a change with the write token: {said(written)}")
        favorites = names(expect_ok(machine.http("GET", "/v1/favorites")).json)
        check("by writer" in favorites and "by reader" not in favorites, f"favorites: {favorites}")
        for token in (None, write_token):
            mint = as_nobody("token", "create", "mine", "--scope", "write", token=token)
            check(refused(mint, "403 forbidden"),
                  f"uid {NOBODY} {'with the write token ' if token else ''}created a token: {said(mint)}")

        revoked = expect_ctl(machine, "token", "revoke", write_id)
        check(revoked.get("id") == write_id and revoked.get("revokedAt"), f"token revoke --json: {revoked}")
        late = as_nobody("favorite", "add", "after revoke", "/srv/revoked", token=write_token)
        check(refused(late, "401 unauthorized"), f"a change with the revoked token: {said(late)}")
        check("after revoke" not in names(expect_ok(machine.http("GET", "/v1/favorites")).json),
              "the refused change was applied")
        entries = unit_journal(machine, f"MESSAGE_ID={TOKEN_REFUSED}")
        check(len(entries) == 1, f"expected one tokenRefused entry, got "
                                 f"{[(e.get('TOKEN_ID'), e.get('MESSAGE')) for e in entries]}")
        entry = entries[0]
        check(entry.get("TOKEN_ID") == write_id and entry.get("PRIORITY") == "4" and entry.get("REASON") == "revoked"
              and entry.get("PEER_UID") == str(NOBODY),
              f"the tokenRefused entry: TOKEN_ID={entry.get('TOKEN_ID')} PRIORITY={entry.get('PRIORITY')} "
              f"REASON={entry.get('REASON')} PEER_UID={entry.get('PEER_UID')}")
        whole = json.dumps(machine.journal())
        for token in (write_token, read_token):
            check(TOKEN_SHAPE.match(token).group(2) not in whole, "a token's secret is in the journal")
        # The refusal is a JSON error with a Bearer challenge (as root: a token is judged alone, whoever sends it).
        raw = machine.http("POST", "/v1/favorites", {"name": "raw", "path": "/srv/raw"}, headers=bearer(write_token))
        check(raw.status == 401 and raw.json and raw.json["error"]["code"] == "unauthorized"
              and raw.headers.get("WWW-Authenticate", "").startswith("Bearer"),
              f"the revoked token as root: {raw!r} WWW-Authenticate={raw.headers.get('WWW-Authenticate')!r}")
        check(len(unit_journal(machine, f"MESSAGE_ID={TOKEN_REFUSED}")) == 2, "not one warning per refused request")
        text = workspacectl(machine, "token", "list").stdout
        row = next((line for line in text.splitlines() if line.startswith(write_id)), "")
        check("REVOKED" in row, f"token list does not show {write_id} revoked:\n{text}")
        return (f"uid {NOBODY}: 403 without a token, read token reads (change 403), write token changes; revoked "
                f"→ 401, one warning TOKEN_ID={write_id} without the secret; token create 403")


def scenario_15_salvage(suite: Suite) -> str:
    """Upgrade from a v1 file with one bad pane and a numeric age: the service starts with every other record,
    one salvage entry in the journal, the original kept in the state directory, and `check` names the pane."""
    document = json.loads((FIXTURES / "versions/v1.json").read_text())
    document["projects"][0]["panes"][1]["viewMode"] = "icons"
    document["owner"]["age"] = 36
    original = json.dumps(document, indent=2).encode()
    with suite.installed() as machine:
        place_state(machine, original)
        machine.systemctl("start", UNIT)
        check(active(machine)["SubState"] == "running", "not running after a salvage")
        shown = expect_ctl(machine, "show")
        workspace = shown.get("workspace", shown)
        check(names(workspace["projects"]) == ["Website", "Notes"],
              f"workspacectl show lists projects {names(workspace['projects'])}")
        website, notes = workspace["projects"]
        panes = [pane["folder"] for pane in website["panes"]]
        check(panes == ["/home/ada/site"], f"the Website project has panes {panes}, expected only the readable one")
        check([pane["folder"] for pane in notes["panes"]] == ["/home/ada/notes"], "the Notes project lost its pane")
        check(names(workspace["favorites"]) == ["Downloads"], "the favorite is gone")
        check(workspace["owner"].get("alias") == "Ada", f"the owner is not intact: {workspace['owner']}")
        entries = unit_journal(machine, f"MESSAGE_ID={SALVAGED}")
        check(len(entries) == 1, f"expected one salvage entry, got {len(entries)}")
        entry = entries[0]
        check(entry.get("DROPPED_RECORDS") == "1" and entry.get("COERCED_FIELDS") == "1"
              and entry.get("CHANGES") == "2" and entry.get("PRIORITY") == "4",
              f"the salvage entry has the wrong counts: { {k: v for k, v in entry.items() if k.isupper()} }")
        kept_name = entry.get("ORIGINAL_PATH", "").rsplit("/", 1)[-1]
        check(kept_name.startswith("workspace.json.corrupt-"), f"ORIGINAL_PATH is {entry.get('ORIGINAL_PATH')!r}")
        kept = machine.path(f"{STATE_DIR}/{kept_name}")
        check(kept.exists() and kept.read_bytes() == original, "the original bytes are not in the state directory")
        check("projects[0].panes[1]" in entry.get("MESSAGE", ""), "the journal line does not name the dropped pane")
        # The salvaged, migrated state reaches the disk; the original stays beside it.
        expect_ok(machine.http("POST", "/v1/flush"))
        on_disk = state_on_disk(machine)
        check(on_disk and on_disk.get("version") == 4 and len(on_disk["projects"][0]["panes"]) == 1,
              "the salvaged state is not on disk at version 4")
        check(kept.read_bytes() == original, "the first save changed the kept original")
        report = machine.run("/usr/local/bin/workspaced", "check", "--state", f"{STATE_DIR}/{kept_name}", "--json",
                             check=False)
        check(report.returncode == 65, f"check of the original exited {report.returncode}, expected 65")
        findings = json.loads(report.stdout)
        dropped = [record["path"] for record in findings["salvage"]["droppedRecords"]]
        check(findings["verdict"] == "salvageable" and dropped == ["projects[0].panes[1]"],
              f"check --json says {findings['verdict']} dropping {dropped}")
        clean = machine.run("/usr/local/bin/workspaced", "check", "--state", STATE, check=False)
        check(clean.returncode == 0, f"check of the saved file exited {clean.returncode}: {clean.stdout}")
        return (f"v1 with a bad pane served at v4 with the other 2 projects, 2 panes, favorite and owner; one "
                f"salvage entry (1 dropped, 1 coerced); original kept as {kept_name}; check 65 then 0")


SCENARIOS = [
    (1, "install as an operator would", scenario_1_install),
    (2, "upgrade from every shipped version", scenario_2_upgrade),
    (3, "stop with unsaved changes", scenario_3_stop_unsaved),
    (4, "kill and restart", scenario_4_kill),
    (5, "reload", scenario_5_reload),
    (6, "watchdog", scenario_6_watchdog),
    (7, "corrupt and newer files", scenario_7_corrupt_and_newer),
    (8, "socket activation", scenario_8_socket_activation),
    (9, "hardening holds", scenario_9_hardening),
    (10, "journal quality", scenario_10_journal),
    (11, "secrets key from a credential", scenario_11_credential_key),
    (12, "reinstall keeps the installation and tokens", scenario_12_reinstall),
    (13, "legacy import under the hardened unit", scenario_13_legacy_import),
    (14, "tokens for a user the access lists cannot name", scenario_14_tokens_for_nobody),
    (15, "salvage on upgrade", scenario_15_salvage),
]


def load_scenario_modules() -> None:
    """Adds the scenarios of every scenario_*.py beside this file (each lists its own in a SCENARIOS list)."""
    import importlib

    for path in sorted(Path(__file__).resolve().parent.glob("scenario_*.py")):
        module = importlib.import_module(path.stem)
        SCENARIOS.extend(module.SCENARIOS)
    SCENARIOS.sort(key=lambda entry: entry[0])


# -- running --------------------------------------------------------------------------------------------------


def unavailable() -> str | None:
    """Why the suite cannot run here, or None."""
    if os.geteuid() != 0:
        return "not root (booting systemd in namespaces needs root)"
    for tool in ("unshare", "nsenter", "setpriv", "make", "swift"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if not Path("/lib/systemd/systemd").exists():
        return "systemd is not installed (make deps installs it)"
    if "overlay" not in Path("/proc/filesystems").read_text():
        return "the kernel has no overlay file system"
    return None


def reuse_macro_plugin() -> None:
    """Has every release build of the suite (`make install`, `make deb`) take the @StateModel macro from the debug
    build's plug-in (WSD_MACRO_PLUGIN, Package.swift) when `make unit-tests` built it from the current sources:
    the release build then compiles no swift-syntax, which it would otherwise optimize module by module for a
    plug-in that only writes source code. Without a current plug-in the release build is the ordinary one."""
    if os.environ.get("WSD_MACRO_PLUGIN") is not None:
        return
    plugin = REPO / ".build" / "debug" / "StateModelMacros-tool"
    sources = list((REPO / "Sources" / "StateModelMacros").rglob("*.swift"))
    if plugin.exists() and all(source.stat().st_mtime <= plugin.stat().st_mtime for source in sources):
        os.environ["WSD_MACRO_PLUGIN"] = str(plugin)
        print(f"system tests: the release build takes the macro from {plugin}", flush=True)


def build(work: Path, hooks: bool) -> None:
    """The release build installed into a staging tree, and (for the watchdog and downgrade scenarios) the debug
    build of workspaced-testing, the daemon with the test hooks (Sources/workspaced-testing; `make unit-tests` has
    built it). The debug build runs without WSD_MACRO_PLUGIN and through Scripts/swift-build.sh, as `make unit-tests`
    did, so that it is the same build and nothing is compiled again."""
    reuse_macro_plugin()
    steps = [["make", "-s", "-C", str(REPO), "install", f"DESTDIR={work / 'stage'}", "PREFIX=/usr/local"]]
    if hooks:
        steps.append([str(REPO / "Scripts" / "swift-build.sh"), "--product", "workspaced-testing",
                      "--package-path", str(REPO)])
    for step in steps:
        started = time.monotonic()
        env = dict(os.environ)
        if step[0] != "make":
            env.pop("WSD_MACRO_PLUGIN", None)
        result = subprocess.run(step, capture_output=True, text=True, check=False, cwd=REPO, env=env)
        if result.returncode != 0:
            raise SystemExit(f"system tests: build step failed: {' '.join(step)}\n{result.stdout}{result.stderr}")
        print(f"system tests: {' '.join(step[:4])} … ({time.monotonic() - started:.1f} s)", flush=True)


# The most one scenario may take (the Debian package scenario, which builds two packages, takes about 2 min).
SCENARIO_LIMIT = 900


def scenario_overran(_signal, frame) -> None:
    where = "".join(traceback.format_stack(frame, limit=4))
    raise Failure(f"the scenario did not finish within {SCENARIO_LIMIT} s; it was at\n{where}")


def main(argv: list[str]) -> int:
    reason = unavailable()
    if reason:
        if os.environ.get("CI") == "true":
            print(f"system tests: cannot run: {reason} (CI=true requires them)", file=sys.stderr)
            return 1
        print(f"system tests: skipped: {reason}")
        return 0
    # A SIGTERM (an interrupted `make test`) unwinds like Ctrl-C so every machine is powered off and removed.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    load_scenario_modules()
    selected = [int(arg) for arg in argv] or [number for number, _, _ in SCENARIOS]
    work = Path(tempfile.mkdtemp(prefix="workspaced-systemtest-"))
    started = time.monotonic()
    passed = failed = 0
    try:
        build(work, hooks=bool({6, 24} & set(selected)))
        suite = Suite(work)
        by_number = {number: (title, scenario) for number, title, scenario in SCENARIOS}
        # In the order given, repeats included (`systemtest.py 8 8 8` loops scenario 8).
        for number in selected:
            title, scenario = by_number[number]
            begun = time.monotonic()
            # A scenario that blocks (a read that never returns, a unit that never settles) fails on its own
            # instead of holding CI until its limit: SIGALRM raises in the scenario, whose cleanups then run.
            signal.signal(signal.SIGALRM, scenario_overran)
            signal.alarm(SCENARIO_LIMIT)
            try:
                detail = scenario(suite)
            except Failure as failure:
                failed += 1
                print(f"FAIL {number:2} {title} ({time.monotonic() - begun:.1f} s): {failure}", flush=True)
            except Exception:  # noqa: BLE001 - a harness error fails the scenario, never the whole suite
                failed += 1
                print(f"FAIL {number:2} {title} ({time.monotonic() - begun:.1f} s): error\n"
                      f"{traceback.format_exc()}", flush=True)
            else:
                passed += 1
                print(f"PASS {number:2} {title} ({time.monotonic() - begun:.1f} s): {detail}", flush=True)
            finally:
                signal.alarm(0)
    finally:
        keep = failed or os.environ.get("KEEP")
        print(f"system tests: {time.monotonic() - started:.1f} s in all"
              + (f"; logs and journals kept in {work}" if keep else ""))
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
