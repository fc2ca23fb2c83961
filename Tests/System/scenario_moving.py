"""System scenario of moving the state directory to another machine when the key is a host-bound credential.

22: on one machine the key is an encrypted credential sealed with that machine's host key (`systemd-creds encrypt
    --with-key=host`); a token is made and used. The state directory and the credential are copied to a second
    machine, which has a host key of its own (each machine's overlay root makes its own
    /var/lib/systemd/credential.secret): there the copied credential does not decrypt and the service does not
    start with it. The key decrypted on the old machine (`systemd-creds decrypt`) and encrypted again on the new
    one opens the store: same installation, same key id, the token works. Then `workspaced secrets rekey --key OLD
    --new-key NEW` on the new machine and NEW as its credential: same installation, the new key id, the token
    still works. docs/secrets.md, "Moving the state directory to another machine".
"""

from __future__ import annotations

import base64
import os
import re

import systemtest as st
from harness import Machine, check

DROP_IN = f"{st.DROP_INS}/secrets-key.conf"
PLAIN_OLD = "/run/secrets-key"
NEW_KEY = "/root/new.key"
WORKSPACED = "/usr/local/bin/workspaced"


def use_credential(machine: Machine, key: str) -> None:
    """`key` encrypted with this machine's host key as the credential secrets-key of the unit."""
    machine.run("systemd-creds", "encrypt", "--name=secrets-key", "--with-key=host", "-", st.ENCRYPTED_KEY,
                input=key)
    machine.write(DROP_IN, f"[Service]\nLoadCredentialEncrypted=secrets-key:{st.ENCRYPTED_KEY}\n")
    machine.systemctl("daemon-reload")


def enabled_from_credential(machine: Machine, what: str) -> tuple[dict, dict]:
    secrets, installation = st.secrets_status(machine)
    check(secrets.get("state") == "enabled" and secrets.get("keySource") == "credential"
          and secrets.get("activeTokens") == 1, f"{what}: the secret store is {secrets}")
    return secrets, installation


def token_reads(machine: Machine, token: str, what: str) -> None:
    favorites = st.expect_ok(machine.http("GET", "/v1/favorites", headers=st.bearer(token))).json
    check("moved" in st.names(favorites), f"{what}: the favorite made with the token is not served")
    forged = token[:-43] + "A" * 43
    refused = machine.http("GET", "/v1/favorites", headers=st.bearer(forged))
    check(refused.status == 401, f"{what}: a forged secret for the token's id got {refused!r}")


def scenario_22_moving(suite: st.Suite) -> str:
    """The state directory moved to a machine with another host key: decrypt, encrypt again; then rekey."""
    key = base64.b64encode(os.urandom(32)).decode()
    with suite.installed() as old:
        use_credential(old, key)
        old.systemctl("start", st.UNIT)
        secrets, installation = st.secrets_status(old)
        check(secrets.get("state") == "enabled" and secrets.get("keySource") == "credential",
              f"on the old machine: {secrets}")
        key_id = secrets["keyId"]
        token = st.create_token(old, "moves with the state", "write")["token"]
        st.expect_ok(old.http("POST", "/v1/favorites?durable=true", {"name": "moved", "path": "/srv/m"},
                              headers=st.bearer(token)), 201)
        old.systemctl("stop", st.UNIT, "workspaced.socket")
        moved = {path.name: path.read_bytes() for path in old.path(st.STATE_DIR).iterdir()
                 if path.is_file() and not path.name.startswith(".")}
        check({"workspace.json", "secrets.json.enc", "installation.json"} <= set(moved),
              f"the old state directory holds {sorted(moved)}")
        check("secrets.key" not in moved, "a key file was made although the credential was given")
        credential = old.path(st.ENCRYPTED_KEY).read_bytes()
        decrypted = old.run("systemd-creds", "decrypt", "--name=secrets-key", st.ENCRYPTED_KEY, "-").stdout
        check(decrypted.strip() == key, "systemd-creds decrypt on the old machine did not give the key back")

    with suite.installed() as new:
        new.run("install", "-d", "-m", "0700", "/var/lib/private", st.STATE_DIR)
        for name, data in moved.items():
            new.write(f"{st.STATE_DIR}/{name}", data, mode=0o600 if name != "installation.json" else 0o644)
        # 1. The old machine's credential as it is: sealed with another host key, it does not decrypt here.
        new.write(st.ENCRYPTED_KEY, credential, mode=0o600)
        attempt = new.run("systemd-creds", "decrypt", "--name=secrets-key", st.ENCRYPTED_KEY, "-", check=False)
        check(attempt.returncode != 0 and key not in attempt.stdout,
              f"the old machine's credential decrypted on the new one: exit {attempt.returncode}")
        new.write(DROP_IN, f"[Service]\nLoadCredentialEncrypted=secrets-key:{st.ENCRYPTED_KEY}\n")
        new.systemctl("daemon-reload")
        started = new.systemctl("start", st.UNIT, check=False)
        check(started.returncode != 0 and new.show(st.UNIT, "ActiveState")["ActiveState"] != "active",
              "the service started with a credential sealed on another machine")
        new.systemctl("reset-failed", st.UNIT, check=False)
        check(new.path(f"{st.STATE_DIR}/secrets.json.enc").read_bytes() == moved["secrets.json.enc"],
              "the failed start changed the store")

        # 2. The key decrypted on the old machine, encrypted again with this machine's host key.
        use_credential(new, decrypted)
        new.systemctl("start", st.UNIT)
        secrets, again = enabled_from_credential(new, "after encrypting the key again on the new machine")
        check(again == installation, f"the move changed the installation: {installation} → {again}")
        check(secrets.get("keyId") == key_id, f"the key id changed without a rekey: {key_id} → {secrets}")
        token_reads(new, token, "after the move")

        # 3. A new key: `workspaced secrets rekey --key OLD --new-key NEW` offline, NEW as the credential.
        new.systemctl("stop", st.UNIT, "workspaced.socket")
        new.write(PLAIN_OLD, decrypted, mode=0o600)
        new_key = base64.b64encode(os.urandom(32)).decode()
        new.write(NEW_KEY, new_key + "\n", mode=0o600)
        rekey = new.run(WORKSPACED, "secrets", "rekey", "--key", PLAIN_OLD, "--new-key", NEW_KEY, check=False)
        check(rekey.returncode == 0 and "re-encrypted" in rekey.stdout + rekey.stderr,
              f"secrets rekey exited {rekey.returncode}: {rekey.stdout}{rekey.stderr}")
        check(new.run(WORKSPACED, "secrets", "check", "--key", PLAIN_OLD, check=False).returncode == 65,
              "after the rekey the old key still opens the store")
        use_credential(new, new_key)
        new.path(PLAIN_OLD).unlink()
        new.systemctl("start", st.UNIT)
        secrets, rekeyed = enabled_from_credential(new, "after the rekey with the new key as the credential")
        check(rekeyed == installation, f"the rekey changed the installation: {installation} → {rekeyed}")
        check(re.fullmatch(r"[0-9a-f]{16}", secrets.get("keyId") or "") and secrets["keyId"] != key_id,
              f"the key id after the rekey: {secrets}")
        token_reads(new, token, "after the rekey")
        installation_file = new.path(f"{st.STATE_DIR}/installation.json").read_text()
        check(f'"{secrets["keyId"]}"' in installation_file, "installation.json does not name the new key")
        return (f"installation {installation['id'][:8]} moved: the old credential does not decrypt on the new "
                f"machine; decrypted and encrypted again it opens the store (key {key_id}, token works); after "
                f"secrets rekey the store is under key {secrets['keyId']}, same installation, token works")


SCENARIOS = [(22, "moving the state directory to another machine with a host-bound key", scenario_22_moving)]
