"""System scenario 30: the state outlives the host (issue 43).

A real S3 protocol server (moto's, from the venv `Scripts/with-s3-server.sh` fills, installed here when missing)
listens on the host's loopback. Host A, a booted machine with the installed daemon, replicates to it with the
credentials as systemd credentials (`LoadCredential=` of `s3-access-key-id`, `s3-secret-access-key`,
`replica-key`) and the network drop-in replication needs (the shipped unit has `PrivateNetwork=yes`). Its changes
reach the replica (`/v1/status` shows the lag at 0, the journal the lease taken). Host B, a second booted machine
with its own empty state directory, the same configuration, credentials and `replica.restoreIfMissing = true`,
starts, restores before READY=1 and serves the same workspace, while the lease stays host A's (`replica: held
by` in its STATUS and `/v1/status`).
"""

from __future__ import annotations

import os
import socket
import subprocess
import urllib.request

import systemtest as st
from harness import check, wait_for

CREDENTIALS = "/etc/workspaced-test/replica"
NETWORK_DROP_IN = """[Service]
# Replication reaches an object store over TCP: the shipped unit allows Unix sockets only.
PrivateNetwork=no
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
IPAddressDeny=
IPAddressAllow=localhost
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_store(work) -> tuple[subprocess.Popen, int]:
    """moto's server on a free loopback port, with the bucket `fleet` created."""
    venv = st.REPO / ".build/s3-venv"
    if not (venv / "bin/moto_server").exists():
        subprocess.run(["python3", "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin/pip"), "install", "--quiet", "moto[server]>=5.1,<6"], check=True)
    port = free_port()
    log = open(work / f"moto-{port}.log", "wb")
    server = subprocess.Popen([str(venv / "bin/moto_server"), "-H", "127.0.0.1", "-p", str(port)],
                              stdout=log, stderr=subprocess.STDOUT)

    def answers():
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
            return response.status == 200

    wait_for("moto's server", answers, timeout=30)
    request = urllib.request.Request(f"http://127.0.0.1:{port}/fleet", method="PUT")
    with urllib.request.urlopen(request, timeout=5) as response:
        check(response.status == 200, f"creating the bucket answered {response.status}")
    return server, port


def prepare(machine, config: dict, key: str) -> None:
    """The configuration, the three credentials (root-only files) and the drop-ins that hand them over and open
    the network to the store."""
    st.write_config(machine, config)
    machine.write(f"{CREDENTIALS}/access-key", "fleet-access\n", mode=0o600)
    machine.write(f"{CREDENTIALS}/secret-key", "fleet-secret\n", mode=0o600)
    machine.write(f"{CREDENTIALS}/replica-key", key + "\n", mode=0o600)
    machine.write(f"{st.DROP_INS}/replica-credentials.conf",
                  "[Service]\n"
                  f"LoadCredential=s3-access-key-id:{CREDENTIALS}/access-key\n"
                  f"LoadCredential=s3-secret-access-key:{CREDENTIALS}/secret-key\n"
                  f"LoadCredential=replica-key:{CREDENTIALS}/replica-key\n")
    machine.write(f"{st.DROP_INS}/replica-network.conf", NETWORK_DROP_IN)
    machine.systemctl("daemon-reload")


def replica_status(machine) -> dict:
    return (st.expect_ok(machine.http("GET", "/v1/status")).json or {}).get("replica") or {}


def scenario_30_replica(suite: st.Suite) -> str:
    """Host A replicates to S3; host B, configured to restore when it has no state, serves the same workspace."""
    server, port = start_store(suite.work)
    try:
        key = os.urandom(32).hex()
        config = st.default_config()
        config["replica"] = {"url": "s3://fleet/workspaces", "endpoint": f"http://127.0.0.1:{port}",
                             "syncIntervalMilliseconds": 200}
        with suite.installed() as host_a:
            prepare(host_a, config, key)
            host_a.systemctl("start", st.UNIT)
            project = st.expect_ok(host_a.http("POST", "/v1/projects?durable=true",
                                               {"name": "replicated", "layout": "split"}), 201).json
            for name in ("docs", "src"):
                st.expect_ok(host_a.http("POST", "/v1/favorites?durable=true",
                                         {"name": name, "path": f"/srv/{name}"}), 201)
            workspace_a = st.expect_ok(host_a.http("GET", "/v1/workspace")).json
            revision = st.expect_ok(host_a.http("GET", "/v1/status")).json["revision"]
            caught_up = wait_for(
                "the replica to catch up",
                lambda: (lambda r: r if r.get("lagRevisions") == 0 and r.get("replicatedRevision") == revision
                         else None)(replica_status(host_a)), timeout=30)
            check(caught_up.get("holdsLease") and caught_up.get("encryption") == "aes-256-gcm",
                  f"host A does not hold the lease, or the replica is not sealed: {caught_up}")
            acquired = host_a.journal("-u", st.UNIT, "MESSAGE_ID=9e5a8e6e6ec14f6fb714e174fbd64e7a")
            check(acquired, "no journal entry says host A took the lease")
            installation_a = host_a.path(f"{st.STATE_DIR}/replica-installation").read_text().strip()
            text = st.workspacectl(host_a, "status").stdout
            check("replica" in text and "caught up" in text, f"workspacectl status does not show the replica:\n{text}")

            config_b = dict(config)
            config_b["replica"] = dict(config["replica"], restoreIfMissing=True)
            with suite.installed() as host_b:
                prepare(host_b, config_b, key)
                check(not host_b.path(f"{st.STATE_DIR}/workspace.json").exists(), "host B has a state already")
                host_b.systemctl("start", st.UNIT)
                workspace_b = st.expect_ok(host_b.http("GET", "/v1/workspace")).json
                check(workspace_b.get("workspace") == workspace_a.get("workspace"),
                      f"host B serves another workspace:\n{workspace_b}\n{workspace_a}")
                restored = host_b.journal("-u", st.UNIT, "MESSAGE_ID=c174f2bf0bb04422a33723cabf76f0d4")
                check(restored and restored[-1].get("REVISION") == str(revision),
                      f"no journal entry says host B restored revision {revision}: {restored}")
                held = wait_for("host B to find the lease held",
                                lambda: (lambda r: r if r.get("heldBy") else None)(replica_status(host_b)))
                check(held["heldBy"] == installation_a,
                      f"host B sees the lease held by {held['heldBy']}, not host A's {installation_a}")
                status_line = wait_for(
                    "host B's STATUS to name the lease holder",
                    lambda: (lambda text: text if "replica: held by" in text else None)(
                        host_b.show(st.UNIT, "StatusText").get("StatusText", "")))
                check(installation_a in status_line, f"host B's STATUS names another holder: {status_line!r}")
                names = sorted(f["name"] for f in workspace_b["workspace"]["favorites"])
                return (f"host A replicated revision {revision} (lease {installation_a[:8]}); host B restored it "
                        f"before READY=1 and serves project {project.get('value', project).get('name')} and "
                        f"favorites {names}, the lease still host A's")
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


SCENARIOS = [
    (30, "host A replicates to S3; host B restores when it has no state and serves the same workspace",
     scenario_30_replica),
]
