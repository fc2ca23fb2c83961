"""System scenario of what the Debian package's removal and purge keep (issue 47, part 6).

27: in a fresh machine with the package of this tree: an administrator's `systemctl disable` survives `dpkg -r` and
    a reinstall (nothing enabled, nothing listening); `systemctl enable workspaced.service` (with the socket, by
    Also=) comes back enabled and running after `dpkg -r` and a reinstall; `dpkg -r` never leaves
    /run/workspaced/control.sock behind. `dpkg -P` with no answer (DEBIAN_FRONTEND=noninteractive) keeps the state
    and says where it is and how to delete it, and a reinstall serves the same state and installation; `dpkg -P`
    answering the debconf question workspaced/purge-state with "yes" (the teletype frontend, on stdin) deletes it.
"""

from __future__ import annotations

import systemtest as st
from harness import Machine, check
from scenario_package import (PURGE_QUESTION, SOCKET_LINK, build_deb, dpkg, favorites, installation_after,
                              no_stale_socket, release_version, sha256, unit_state)

SERVICE_LINK = "/etc/systemd/system/multi-user.target.wants/workspaced.service"
RECORD = "/var/lib/workspaced-package"


def links(machine: Machine) -> dict[str, bool]:
    return {"socket": machine.path(SOCKET_LINK).is_symlink(), "service": machine.path(SERVICE_LINK).is_symlink()}


def remove(machine: Machine, what: str) -> None:
    dpkg(machine, "-r", "workspaced")
    state = unit_state(machine)
    check(state["service"] == "inactive" and state["socket"] == "inactive", f"{what}: dpkg -r left {state}")
    check(links(machine) == {"socket": False, "service": False}, f"{what}: dpkg -r left {links(machine)} enabled")
    no_stale_socket(machine, f"{what}: dpkg -r")


def debconf_shown(machine: Machine) -> str:
    return machine.run("debconf-show", "workspaced", check=False).stdout


def scenario_27_purge(suite: st.Suite) -> str:
    """dpkg -r and a reinstall keep the enablement; dpkg -P keeps the state unless told to delete it."""
    deb = build_deb(suite.work, release_version())
    with suite.machine() as machine:
        machine.write(f"/root/{deb.name}", deb.read_bytes())
        dpkg(machine, "-i", f"/root/{deb.name}")
        check(f"{PURGE_QUESTION}: false" in debconf_shown(machine),
              f"the installed package did not register {PURGE_QUESTION}: {debconf_shown(machine)!r}")
        st.expect_ok(machine.http("POST", "/v1/favorites?durable=true", {"name": "kept by purge", "path": "/srv/k"}),
                     201)
        installation = installation_after(machine, "after the first start", 0)

        # Disabled by the administrator: removed and installed again, it stays disabled and nothing listens.
        machine.systemctl("disable", "--now", "workspaced.socket")
        remove(machine, "disabled")
        dpkg(machine, "-i", f"/root/{deb.name}")
        state = unit_state(machine)
        check(links(machine) == {"socket": False, "service": False} and state["socket"] == "inactive"
              and state["service"] == "inactive",
              f"a reinstall after disable and dpkg -r enabled or started the units: {links(machine)}, {state}")

        # Enabled (the service, and the socket by Also=): removed and installed again, both enabled and running.
        machine.systemctl("enable", "--now", "workspaced.service")
        check(links(machine) == {"socket": True, "service": True}, f"systemctl enable made {links(machine)}")
        remove(machine, "enabled")
        dpkg(machine, "-i", f"/root/{deb.name}")
        state = unit_state(machine)
        check(links(machine) == {"socket": True, "service": True} and state["socket"] == "active"
              and state["service"] == "active",
              f"a reinstall after enable and dpkg -r did not enable and start both: {links(machine)}, {state}")
        check("kept by purge" in favorites(machine), "the state is not served after dpkg -r and a reinstall")
        check(not machine.path(RECORD).exists(), f"the reinstall left {RECORD}")

        # Purge with no answer: the state is kept, and the output says where and how to delete it.
        purged = dpkg(machine, "-P", "workspaced")
        output = purged.stdout + purged.stderr
        check(machine.path(st.STATE).exists() and machine.path("/var/lib/workspaced").is_symlink(),
              f"dpkg -P with no answer deleted the state: {output}")
        kept = sha256(machine.path(st.STATE))
        check(st.STATE_DIR in output and f"rm -rf {st.STATE_DIR} /var/lib/workspaced" in output,
              f"dpkg -P with no answer did not say where the state is and how to delete it: {output}")
        for path in (st.CONFIG, RECORD):
            check(not machine.path(path).exists(), f"dpkg -P left {path}")
        check(links(machine) == {"socket": False, "service": False}, f"dpkg -P left {links(machine)} enabled")
        no_stale_socket(machine, "dpkg -P")
        check(not debconf_shown(machine).strip(), f"dpkg -P left debconf's question: {debconf_shown(machine)!r}")

        # Installed after that purge: a first installation (the socket only) serving the kept state.
        dpkg(machine, "-i", f"/root/{deb.name}")
        check(links(machine) == {"socket": True, "service": False},
              f"installing after dpkg -P did not enable just the socket: {links(machine)}")
        check(sha256(machine.path(st.STATE)) == kept, "installing after a purge that kept the state changed it")
        check("kept by purge" in favorites(machine), "the state kept by dpkg -P is not served after installing")
        again = installation_after(machine, "after a keeping dpkg -P and installing again", 0)
        check(again["id"] == installation["id"], f"the kept state has a new installation: {installation} → {again}")

        # Purge answering the question "yes" (teletype reads the answer on stdin): the state is deleted.
        purged = dpkg(machine, "-P", "workspaced", frontend="teletype", answers="yes\n")
        output = purged.stdout + purged.stderr
        check("Delete workspaced's state too?" in output, f"dpkg -P did not ask {PURGE_QUESTION}: {output}")
        for path in (st.STATE_DIR, "/var/lib/workspaced"):
            check(not machine.path(path).exists() and not machine.path(path).is_symlink(),
                  f"dpkg -P answered yes left {path}: {output}")
        return (f"disabled → dpkg -r → dpkg -i: disabled; enabled → dpkg -r → dpkg -i: enabled and running; no "
                f"stale /run/workspaced/control.sock; dpkg -P with no answer kept the state "
                f"(installation {installation['id'][:8]} served again) and said where; answered yes, deleted it")


SCENARIOS = [
    (27, "Debian package removal and purge keep what they must", scenario_27_purge),
]
