"""System scenario of a package downgrade across schema versions (issue 26).

24: two packages of two schema versions: the release build of this tree (schema 4) and a newer package carrying
    workspaced-testing, whose test hooks add a schema version 5 (Sources/workspaced-testing/TestSchemaFive.swift:
    version 4 plus a root `schemaFiveNote`). Install the older, change the state; upgrade (the file goes to version 5),
    change it again; downgrade with `dpkg -i` of the older package: its prerm stops the units and writes the
    state down to version 4, the older release starts on it and serves every change; upgrade again: the note
    of version 5 comes back, not a new default. Then, with version 5's step made one-way (no way down), a
    downgrade is refused before anything changed: dpkg keeps the newer package and its running service. Last,
    the script `make install` runs over a newer installation does the same stop, write down and start.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import systemtest as st
from harness import Machine, check, wait_for
from scenario_package import build_deb, dpkg, favorites, release_version, unit_state

NEWER = "0.9.0~schema5"
HOOKS = ("WSD_TEST_HOOKS=1", "WSD_TEST_SCHEMA_FIVE=1")
ONE_WAY = ("WSD_TEST_HOOKS=1", "WSD_TEST_SCHEMA_FIVE=one-way")
DROP_IN = f"{st.DROP_INS}/schema-five.conf"


def newer_deb(work: Path, older: Path, hooks_binary: Path) -> Path:
    """The older package with workspaced-testing's debug build as /usr/bin/workspaced and version NEWER: its
    scripts are this tree's, so its prerm is the one a newer release would ship. (Scripts/build-deb.sh refuses
    a debug build, which links the toolchain's Swift runtime; the machines share the host's /opt/swift, so it
    runs there.)"""
    root = work / "deb-newer"
    shutil.rmtree(root, ignore_errors=True)
    subprocess.run(["dpkg-deb", "-R", str(older), str(root)], check=True)
    binary = root / "usr/bin/workspaced"
    shutil.copyfile(hooks_binary, binary)
    subprocess.run(["strip", "--strip-debug", str(binary)], check=True)
    binary.chmod(0o755)
    base = release_version()
    for name in ("control", "prerm"):
        script = root / "DEBIAN" / name
        text = script.read_text()
        text = text.replace(f"Version: {base}", f"Version: {NEWER}").replace(f"version='{base}'",
                                                                             f"version='{NEWER}'")
        script.write_text(text)
    check(f"version='{NEWER}'" in (root / "DEBIAN/prerm").read_text(), "the prerm does not carry its version")
    sums = subprocess.run(
        "find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\\./||' | sort | xargs -d '\\n' md5sum",
        shell=True, cwd=root, capture_output=True, text=True, check=True).stdout
    (root / "DEBIAN/md5sums").write_text(sums)
    output = work / "deb" / f"workspaced_{NEWER}_test.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", str(root), str(output)],
                   check=True, capture_output=True)
    shutil.rmtree(root, ignore_errors=True)
    return output


def state_file(machine: Machine) -> dict:
    return json.loads(machine.path(st.STATE).read_text())


def status(machine: Machine) -> dict:
    return st.expect_ok(machine.http("GET", "/v1/status", timeout=30)).json


def add_favorite(machine: Machine, name: str) -> None:
    st.expect_ok(machine.http("POST", "/v1/favorites?durable=true", {"name": name, "path": f"/srv/{name}"},
                              timeout=30), 201)


def serving(machine: Machine, version: str, schema: int) -> dict:
    """Waits for the service to answer as `version` reading `schema`; its status."""
    def answered():
        try:
            current = status(machine)
        except (OSError, AssertionError):
            return None
        return current if (current["daemonVersion"], current["schemaVersion"]) == (version, schema) else None
    return wait_for(f"{version} serving schema {schema}", answered, timeout=60, interval=0.2)


def scenario_24_downgrade(suite: st.Suite) -> str:
    """Upgrade to a newer schema, downgrade with dpkg -i and keep every change; an unreachable one is refused."""
    check(suite.hooks_binary.exists(), f"the test-hooks build is missing: {suite.hooks_binary}")
    base = release_version()
    older = build_deb(suite.work, base)
    newer = newer_deb(suite.work, older, suite.hooks_binary)
    with suite.machine() as machine:
        for deb in (older, newer):
            machine.write(f"/root/{deb.name}", deb.read_bytes())
        # The newer package's daemon reads version 5 with these; its prerm gets them from dpkg's environment.
        machine.write(DROP_IN, "[Service]\n" + "".join(f"Environment={item}\n" for item in HOOKS))

        dpkg(machine, "-i", f"/root/{older.name}")
        serving(machine, base, 4)
        add_favorite(machine, "on-4")

        # Upgrade: workspaced-testing migrates the file to version 5 and adds its note.
        dpkg(machine, "-i", f"/root/{newer.name}")
        serving(machine, base, 5)
        upgraded = state_file(machine)
        note = upgraded.get("schemaFiveNote")
        check(upgraded["version"] == 5 and isinstance(note, str) and note.startswith("first written by version 5"),
              f"after the upgrade the file is {upgraded.get('version')} with note {note!r}")
        add_favorite(machine, "on-5")

        # Downgrade: prerm writes the state down; the older release starts on it with every change.
        down = machine.run("env", *HOOKS, "dpkg", "-i", f"/root/{older.name}", check=False, input="", timeout=300)
        output = down.stdout + down.stderr
        check(down.returncode == 0, f"dpkg -i of the older package exited {down.returncode}: {output}")
        check("written as version 4 (5→4)" in output and "set aside in unknown fields: schemaFiveNote" in output,
              f"dpkg's output does not show the write down: {output}")
        check(machine.path(f"{st.STATE_DIR}/workspace.json.v5.bak").exists(), "no backup of the version 5 file")
        serving(machine, base, 4)
        check(unit_state(machine)["socket"] == "active", f"the socket was not started again: {unit_state(machine)}")
        served = favorites(machine)
        check({"on-4", "on-5"} <= set(served), f"the older release serves {served}")
        written_down = state_file(machine)
        check(written_down["version"] == 4 and written_down.get("schemaFiveNote") == note,
              f"the older release's file: version {written_down['version']}, note "
              f"{written_down.get('schemaFiveNote')!r}")
        add_favorite(machine, "back-on-4")
        check(state_file(machine).get("schemaFiveNote") == note, "the older release dropped the set-aside note")

        # Upgrade again: version 5's note comes back as it was.
        dpkg(machine, "-i", f"/root/{newer.name}")
        serving(machine, base, 5)
        again = state_file(machine)
        check(again["version"] == 5 and again.get("schemaFiveNote") == note,
              f"after upgrading again: version {again['version']}, note {again.get('schemaFiveNote')!r}, "
              f"expected {note!r}")
        check({"on-4", "on-5", "back-on-4"} <= set(favorites(machine)), f"changes lost: {favorites(machine)}")

        # One-way version 5: the downgrade is refused before anything changes; the newer service runs on.
        machine.write(DROP_IN, "[Service]\n" + "".join(f"Environment={item}\n" for item in ONE_WAY))
        machine.systemctl("daemon-reload")
        machine.systemctl("restart", st.UNIT)
        serving(machine, base, 5)
        pid = machine.main_pid()
        before = machine.path(st.STATE).read_bytes()
        refused = machine.run("env", *ONE_WAY, "dpkg", "-i", f"/root/{older.name}", check=False, input="",
                              timeout=300)
        said = refused.stdout + refused.stderr
        check(refused.returncode != 0, f"the unreachable downgrade was not refused: {said}")
        check("refusing the downgrade to " + base in said and "no way back" in said,
              f"the refusal does not say why: {said}")
        installed = machine.run("dpkg-query", "-W", "-f=${Version} ${Status}", "workspaced").stdout
        check(installed == f"{NEWER} install ok installed", f"after the refusal dpkg-query says {installed!r}")
        state = unit_state(machine)
        check(state["service"] == "active" and int(state["pid"]) == pid and state["socket"] == "active",
              f"the refusal touched the running service: {state}, was pid {pid}")
        check(machine.path(st.STATE).read_bytes() == before, "the refused downgrade changed the state file")
        serving(machine, base, 5)

        # `make install` of an older tree over a newer installation does the same (Scripts/install-downgrade.sh,
        # here with a stand-in for the installed binary that names itself 0.9.0 and reads version 5).
        machine.write(DROP_IN, "[Service]\n" + "".join(f"Environment={item}\n" for item in HOOKS))
        machine.systemctl("daemon-reload")
        machine.systemctl("restart", st.UNIT)
        serving(machine, base, 5)
        machine.write("/root/install-downgrade.sh", (st.REPO / "Scripts/install-downgrade.sh").read_text(), 0o755)
        machine.write("/root/newer-workspaced", "#!/bin/sh\n"
                      "if [ \"$1\" = --version ]; then echo 0.9.0; exit 0; fi\n"
                      f"exec env {' '.join(HOOKS)} /usr/bin/workspaced \"$@\"\n", 0o755)
        before_install = machine.run("/root/install-downgrade.sh", "before", "/root/newer-workspaced", base,
                                     check=False)
        check(before_install.returncode == 0, f"install-downgrade.sh before exited {before_install.returncode}: "
                                              f"{before_install.stdout}{before_install.stderr}")
        state = unit_state(machine)
        check(state["service"] == "inactive" and state["socket"] == "inactive",
              f"install-downgrade.sh before left the units running: {state}")
        check(state_file(machine)["version"] == 4, "install-downgrade.sh before did not write the state down")
        machine.run("/root/install-downgrade.sh", "after")
        serving(machine, base, 5)
        check(state_file(machine).get("schemaFiveNote") == note, "the note did not survive make install's way")
        return (f"{base} (schema 4) → {NEWER} (5) → {base}: prerm wrote 5→4, 2 changes served, note kept; → {NEWER}: "
                f"note back; one-way 5: dpkg -i refused (exit {refused.returncode}), pid {pid} still serving; "
                f"make install's script: stopped, wrote 5→4, started again")


SCENARIOS = [(24, "package downgrade across schema versions keeps every change", scenario_24_downgrade)]
