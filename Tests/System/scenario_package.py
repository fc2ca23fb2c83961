"""System scenarios of the Debian package and the man pages (issue 14).

16: `make deb` twice (two versions); in a fresh machine: install, start through the socket, change the workspace
    and the config, create an API token, upgrade under a looping client (nothing refused, the service restarted,
    both kept), remove (state, config and secret store kept, units gone, no stale /run/workspaced/control.sock),
    install again (same state, same installation id, the token still accepted, the socket enabled again), purge
    with the debconf answer workspaced/purge-state true preseeded (state gone), install again (a new installation
    id, the old token refused): `dpkg -P`, told to delete the state, is the one way to reset the installation and
    the tokens. (Scenario 27, scenario_purge.py, checks what a purge with no answer keeps.)
17: every page `make install` installs renders with `man --warnings -l` without a warning, is found by name, and
    names what it must (the subcommands of each binary, every configuration key with its variable and flag);
    `make uninstall` removes what `make install` put in the staged tree.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import systemtest as st
from harness import Failure, Machine, check, wait_for

DEB_SERVICE = "/lib/systemd/system/workspaced.service"
DEB_SOCKET = "/lib/systemd/system/workspaced.socket"
SOCKET_LINK = "/etc/systemd/system/sockets.target.wants/workspaced.socket"
RUN_DIR = "/run/workspaced"
RUN_SOCKET = "/run/workspaced/control.sock"
PURGE_QUESTION = "workspaced/purge-state"
PAGES = {
    "workspaced": "/usr/local/share/man/man8/workspaced.8",
    "workspacectl": "/usr/local/share/man/man1/workspacectl.1",
    "workspaced.json": "/usr/local/share/man/man5/workspaced.json.5",
}


def release_version() -> str:
    text = (st.REPO / "Sources/WorkspaceAPI/Release.swift").read_text()
    return re.search(r'static let version = "([^"]+)"', text).group(1)


def build_deb(work: Path, version: str) -> Path:
    """`make deb` for this version into WORK/deb (the release build is the suite's; only packaging runs here, and
    it must compile nothing), or the package an earlier scenario of this run built for it."""
    built = sorted((work / "deb").glob(f"workspaced_{version}_*.deb"))
    if len(built) == 1:
        return built[0]
    started = time.monotonic()
    result = subprocess.run(
        ["make", "-s", "-C", str(st.REPO), "deb", f"DEB_VERSION={version}", f"DEB_DIR={work / 'deb'}",
         "DEB_COMPRESSION=gzip"],
        capture_output=True, text=True, check=False,
    )
    check(result.returncode == 0, f"make deb DEB_VERSION={version} failed: {result.stdout}{result.stderr}")
    # The suite's `make install` built the release: packaging it must compile nothing again, whatever make's
    # command line puts in the environment (Scripts/swift-build.sh).
    compiled = [line for line in result.stdout.splitlines() if "Compiling " in line]
    check(not compiled, f"make deb DEB_VERSION={version} compiled the release again: {compiled[:3]}")
    found = sorted((work / "deb").glob(f"workspaced_{version}_*.deb"))
    check(len(found) == 1, f"make deb DEB_VERSION={version} made {[p.name for p in found]}")
    print(f"system tests: make deb DEB_VERSION={version} … ({time.monotonic() - started:.1f} s, "
          f"{found[0].stat().st_size // 1024} KiB)", flush=True)
    return found[0]


def dpkg(machine: Machine, *args: str, frontend: str = "noninteractive", answers: str = ""):
    """`dpkg ARGS` inside the machine with no terminal (a conffile question would fail, not hang) and debconf's
    DEBIAN_FRONTEND `frontend` (noninteractive: every question gets its default or preseeded answer; teletype
    reads `answers` from stdin); must exit 0."""
    result = machine.run("env", f"DEBIAN_FRONTEND={frontend}", "dpkg", *args, check=False, input=answers,
                         timeout=300)
    check(result.returncode == 0, f"dpkg {' '.join(args)} exited {result.returncode}: {result.stdout}{result.stderr}")
    return result


def preseed_purge(machine: Machine, delete: bool) -> None:
    """Answers postrm purge's debconf question ahead, as an administrator would with debconf-set-selections."""
    answer = f"workspaced {PURGE_QUESTION} boolean {'true' if delete else 'false'}\n"
    machine.run("debconf-set-selections", input=answer)


def no_stale_socket(machine: Machine, what: str) -> None:
    for path in (RUN_SOCKET, RUN_DIR):
        check(not machine.path(path).exists() and not machine.path(path).is_symlink(), f"{what} left {path}")


def unit_state(machine: Machine) -> dict[str, str]:
    service = machine.show(st.UNIT, "LoadState", "ActiveState", "MainPID")
    socket = machine.show("workspaced.socket", "LoadState", "ActiveState")
    return {"service": service["ActiveState"], "service_load": service["LoadState"], "pid": service["MainPID"],
            "socket": socket["ActiveState"], "socket_load": socket["LoadState"]}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def favorites(machine: Machine) -> list[str]:
    return st.names(st.expect_ok(machine.http("GET", "/v1/favorites", timeout=30)).json)


SECRET_FILES = ("secrets.json.enc", "installation.json", "secrets.key")


def token_status(machine: Machine, token: str) -> int:
    """The status of `GET /v1/workspace` with `token` (root's request: only the token can make it fail)."""
    return machine.http("GET", "/v1/workspace", headers=st.bearer(token), timeout=30).status


def installation_after(machine: Machine, what: str, expected_tokens: int) -> dict:
    """The installation in /v1/status, checked for an open store (key file) holding `expected_tokens` tokens."""
    secrets, installation = st.secrets_status(machine)
    check(secrets.get("state") == "enabled" and secrets.get("activeTokens") == expected_tokens,
          f"{what}: the secret store is {secrets}, expected enabled with {expected_tokens} token(s)")
    check(re.fullmatch(r"[0-9a-f-]{36}", installation.get("id") or "") and installation.get("firstStartedAt"),
          f"{what}: the installation in /v1/status is {installation}")
    return installation


def scenario_16_package(suite: st.Suite) -> str:
    """Install, upgrade under load, remove, install again and purge the .deb in a fresh machine."""
    base = release_version()
    first_version, second_version = base, f"{base}+2"
    first = build_deb(suite.work, first_version)
    second = build_deb(suite.work, second_version)
    with suite.machine() as machine:
        for deb in (first, second):
            machine.write(f"/root/{deb.name}", deb.read_bytes())

        # Install: the socket is enabled and listening, the service waits for the first connection.
        dpkg(machine, "-i", f"/root/{first.name}")
        for path in ("/usr/bin/workspaced", "/usr/bin/workspacectl", DEB_SERVICE, DEB_SOCKET, st.CONFIG,
                     "/usr/lib/systemd/catalog/workspaced.catalog", "/usr/share/man/man8/workspaced.8",
                     "/usr/share/man/man5/workspaced.json.5", "/usr/share/man/man1/workspacectl.1",
                     "/usr/share/doc/workspaced/README.md"):
            check(machine.path(path).exists(), f"the package did not install {path}")
        verify = machine.run("systemd-analyze", "verify", DEB_SERVICE, DEB_SOCKET, check=False)
        check(verify.returncode == 0 and not (verify.stdout + verify.stderr).strip(),
              f"systemd-analyze verify of the packaged units is not silent: {verify.stdout}{verify.stderr}")
        state = unit_state(machine)
        check(state["socket"] == "active" and state["service"] == "inactive",
              f"after dpkg -i: expected the socket listening and the service waiting, got {state}")
        check(machine.path(SOCKET_LINK).is_symlink(), "dpkg -i did not enable workspaced.socket")

        # Start through the socket, change the workspace and the configuration.
        status = st.expect_ok(machine.http("GET", "/v1/status", timeout=30)).json
        check(status["daemonVersion"] == base, f"unexpected status {status}")
        check(unit_state(machine)["service"] == "active", "the first request did not start the service")
        st.expect_ok(machine.http("POST", "/v1/favorites?durable=true", {"name": "before upgrade", "path": "/srv/a"}),
                     201)
        installation = installation_after(machine, "after the first start", 0)
        created = machine.run("/usr/bin/workspacectl", "token", "create", "survives dpkg -r", "--scope", "read",
                              "--json", check=False)
        check(created.returncode == 0, f"the packaged workspacectl token create exited {created.returncode}: "
                                       f"{created.stdout}{created.stderr}")
        token = json.loads(created.stdout)["token"]
        check(st.TOKEN_SHAPE.match(token), f"token create printed {created.stdout}")
        forged = token[:-43] + "A" * 43
        check(token_status(machine, token) == 200 and token_status(machine, forged) == 401,
              "the new token is not checked: the token or a forged secret for its id got the wrong answer")
        settings = json.loads(machine.path(st.CONFIG).read_text())
        settings["logLevel"] = "debug"
        edited = json.dumps(settings, indent=2) + "\n"
        machine.path(st.CONFIG).write_text(edited)
        old_pid = machine.main_pid()

        # Upgrade while a client keeps asking: nothing refused, the service restarted, state and config kept.
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
                    problems.append(f"{error!r} at {time.time():.6f}")

        thread = threading.Thread(target=client, daemon=True)
        thread.start()
        try:
            wait_for("the client loop to get answers", lambda: counts["ok"] > 5)
            dpkg(machine, "-i", f"/root/{second.name}")
            new_pid = machine.main_pid()
            served = counts["ok"]
            wait_for("answers from the upgraded service", lambda: counts["ok"] > served + 5)
        finally:
            stop.set()
            thread.join(timeout=40)
        during = counts["ok"]
        check(counts["refused"] == 0, f"{counts['refused']} connections refused during the upgrade: {problems[:5]}")
        check(counts["other"] == 0, f"{counts['other']} failed requests during the upgrade: {problems[:5]}; "
                                    f"{st.lifecycle_timeline(machine)}")
        check(new_pid not in (0, old_pid), f"the upgrade did not restart the service: MainPID {old_pid} → {new_pid}")
        installed = machine.run("dpkg-query", "-W", "-f=${Version}", "workspaced").stdout
        check(installed == second_version, f"dpkg-query says {installed!r} after the upgrade to {second_version}")
        check(machine.path(st.CONFIG).read_text() == edited, "the upgrade replaced the edited config.json")
        check("before upgrade" in favorites(machine), "the change made before the upgrade is gone")

        # Remove: service and socket stopped, units and binaries gone; state and config kept.
        dpkg(machine, "-r", "workspaced")
        state = unit_state(machine)
        check(state["service"] == "inactive" and state["socket"] == "inactive",
              f"after dpkg -r the units still run: {state}")
        check(state["service_load"] == "not-found" and state["socket_load"] == "not-found",
              f"after dpkg -r the units are still loaded: {state}")
        for path in ("/usr/bin/workspaced", DEB_SERVICE, DEB_SOCKET, "/usr/share/man/man8/workspaced.8"):
            check(not machine.path(path).exists(), f"dpkg -r left {path}")
        check(not machine.path(SOCKET_LINK).is_symlink(), "dpkg -r left workspaced.socket enabled")
        no_stale_socket(machine, "dpkg -r")
        check(machine.path(st.STATE).exists(), "dpkg -r deleted the state")
        check(machine.path("/var/lib/workspaced").is_symlink(), "dpkg -r removed the /var/lib/workspaced link")
        check(machine.path(st.CONFIG).read_text() == edited, "dpkg -r removed or changed the edited config.json")
        kept = sha256(machine.path(st.STATE))
        secrets_kept = {}
        for name in SECRET_FILES:
            path = machine.path(f"{st.STATE_DIR}/{name}")
            check(path.exists(), f"dpkg -r deleted {st.STATE_DIR}/{name}")
            secrets_kept[name] = sha256(path)

        # Install again: the same state, served again through the socket.
        dpkg(machine, "-i", f"/root/{second.name}")
        check(sha256(machine.path(st.STATE)) == kept, "installing again changed the state file")
        state = unit_state(machine)
        check(state["socket"] == "active", f"installing again did not start the socket: {state}")
        check(machine.path(SOCKET_LINK).is_symlink(), "installing again after dpkg -r did not enable the socket again")
        check("before upgrade" in favorites(machine), "the state is not served after installing again")
        check(sha256(machine.path(st.STATE)) == kept, "serving the state after installing again changed it")
        for name in SECRET_FILES:
            check(sha256(machine.path(f"{st.STATE_DIR}/{name}")) == secrets_kept[name],
                  f"installing again replaced {name}")
        again = installation_after(machine, "after dpkg -r and installing again", 1)
        check(again == installation, f"dpkg -r and installing again changed the installation: {installation} → {again}")
        check(token_status(machine, token) == 200, "the token made before dpkg -r is refused after installing again")
        check(token_status(machine, forged) == 401, "a forged secret for the kept token's id is accepted")

        # Purge, told to delete the state: the state, its link and the config are gone.
        preseed_purge(machine, True)
        purged = dpkg(machine, "-P", "workspaced")
        check("deleted the state" in purged.stdout + purged.stderr,
              f"dpkg -P with {PURGE_QUESTION} true did not say it deleted the state: {purged.stdout}{purged.stderr}")
        state = unit_state(machine)
        check(state["service"] == "inactive" and state["service_load"] == "not-found",
              f"after dpkg -P: {state}")
        for path in (st.STATE_DIR, "/var/lib/workspaced", st.CONFIG):
            check(not machine.path(path).exists() and not machine.path(path).is_symlink(), f"dpkg -P left {path}")

        # Install after the purge: a new installation with no tokens; the old token is refused.
        dpkg(machine, "-i", f"/root/{second.name}")
        check("before upgrade" not in favorites(machine), "the state came back after dpkg -P")
        fresh = installation_after(machine, "after dpkg -P and installing again", 0)
        check(fresh["id"] != installation["id"],
              f"dpkg -P and installing again kept the installation id {installation['id']}")
        check(token_status(machine, token) == 401, "the token made before dpkg -P is still accepted")
        preseed_purge(machine, True)
        dpkg(machine, "-P", "workspaced")
        return (f"{first.name} and {second.name} ({second.stat().st_size // 1024} KiB); installed, activated by "
                f"the socket, upgraded under {during} requests (0 refused, MainPID {old_pid} → {new_pid}, config "
                f"and state kept); removed (state, installation {installation['id'][:8]} and token kept), installed "
                f"again (same state, id and token, the socket enabled again, no stale socket after dpkg -r), "
                f"purged with {PURGE_QUESTION} true (state gone), installed again (new id {fresh['id'][:8]}, old "
                f"token 401)")


def rendered(text: str) -> str:
    """man's output as plain text: no overstriking, no SGR sequences, ASCII hyphens."""
    text = re.sub(r".\x08", "", text)
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    return text.replace("\u2212", "-").replace("\u2010", "-")


def visible_subcommands(machine: Machine, binary: str) -> tuple[list[str], list[str]]:
    """The subcommands `binary --help` shows and those it hides, from its own --experimental-dump-help."""
    info = json.loads(machine.run(binary, "--experimental-dump-help").stdout)
    subcommands = [sub for sub in info["command"].get("subcommands") or [] if sub["commandName"] != "help"]
    shown = [sub["commandName"] for sub in subcommands if sub.get("shouldDisplay", True)]
    hidden = [sub["commandName"] for sub in subcommands if not sub.get("shouldDisplay", True)]
    return shown, hidden


def config_keys(value: dict, prefix: str = "") -> list[str]:
    """The dotted keys of the shipped config/workspaced.json (it holds every key)."""
    keys = []
    for key, item in value.items():
        name = f"{prefix}{key}"
        keys += config_keys(item, name + ".") if isinstance(item, dict) else [name]
    return keys


def variable(key: str) -> str:
    """WORKSPACED_ and the key in upper snake case (save.debounceMilliseconds → WORKSPACED_SAVE_DEBOUNCE_...)."""
    return "WORKSPACED_" + "_".join(re.sub(r"(?<=[a-z])(?=[A-Z])", "_", part).upper() for part in key.split("."))


def uninstall_check(suite: st.Suite) -> str:
    """`make uninstall` on a copy of the staged tree leaves no file; an edited config is kept and said so."""
    staged = sorted(p.relative_to(suite.stage) for p in suite.stage.rglob("*") if p.is_file() or p.is_symlink())
    for edit in (False, True):
        copy = suite.work / f"uninstall-{int(edit)}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(suite.stage, copy, symlinks=True)
        config = copy / st.CONFIG.lstrip("/")
        if edit:
            config.write_text(config.read_text().replace('"info"', '"debug"'))
        result = subprocess.run(["make", "-s", "-C", str(st.REPO), "uninstall", f"DESTDIR={copy}",
                                 "PREFIX=/usr/local"], capture_output=True, text=True, check=False)
        check(result.returncode == 0, f"make uninstall failed: {result.stdout}{result.stderr}")
        left = sorted(str(p.relative_to(copy)) for p in copy.rglob("*") if p.is_file() or p.is_symlink())
        expected = [st.CONFIG.lstrip("/")] if edit else []
        check(left == expected, f"make uninstall (config {'edited' if edit else 'as shipped'}) left {left}")
        if edit:
            check("keeping the edited" in result.stdout,
                  f"make uninstall did not say it kept the config: {result.stdout}")
        shutil.rmtree(copy, ignore_errors=True)
    return f"make uninstall removed all {len(staged)} staged files (an edited config.json kept)"


def scenario_17_man_pages(suite: st.Suite) -> str:
    """The installed man pages render without warnings and say what they must."""
    with suite.installed() as machine:
        texts = {}
        for name, path in PAGES.items():
            check(machine.path(path).exists(), f"make install did not install {path}")
            result = machine.run("env", "MANWIDTH=80", "LC_ALL=C.UTF-8", "man", "--warnings=w", "--no-hyphenation",
                                 "-l", path, check=False)
            check(result.returncode == 0 and not result.stderr.strip(),
                  f"man --warnings -l {path} exited {result.returncode} with: {result.stderr.strip()}")
            texts[name] = rendered(result.stdout)
            check(len(texts[name].splitlines()) > 20, f"{path} renders as almost nothing:\n{texts[name]}")
        for section, name in (("8", "workspaced"), ("1", "workspacectl"), ("5", "workspaced.json")):
            # /usr/local/man is a link to /usr/local/share/man on Debian: compare where the paths lead.
            found = machine.run("man", "-w", section, name, check=False).stdout.strip()
            real = machine.run("readlink", "-f", found or "/nonexistent", PAGES[name], check=False).stdout.split()
            check(found and len(real) == 2 and real[0] == real[1],
                  f"man -w {section} {name} found {found!r}, not {PAGES[name]}")

        for binary in ("workspaced", "workspacectl"):
            shown, hidden = visible_subcommands(machine, f"/usr/local/bin/{binary}")
            check(len(shown) >= 5, f"{binary} shows only the subcommands {shown}")
            for subcommand in shown:
                check(re.search(rf"\b{re.escape(subcommand)}\b", texts[binary]),
                      f"{binary}'s page does not mention its subcommand {subcommand}")
            for subcommand in hidden:
                check(subcommand not in texts[binary], f"{binary}'s page lists the hidden subcommand {subcommand}")

        keys = config_keys(json.loads((st.REPO / "config/workspaced.json").read_text()))
        run_help = json.loads(machine.run("/usr/local/bin/workspaced", "run", "--experimental-dump-help").stdout)
        flags = [f"--{name['name']}" for argument in run_help["command"].get("arguments") or []
                 if argument["kind"] == "option" for name in argument.get("names") or [] if name["kind"] == "long"]
        page = texts["workspaced.json"]
        for word in keys + [variable(key) for key in keys] + flags:
            check(word in page, f"workspaced.json(5) does not mention {word}")
        uninstalled = uninstall_check(suite)
        return (f"3 pages render without warnings and are found by name; {len(keys)} keys with their variables, "
                f"{len(flags)} flags and every visible subcommand named; {uninstalled}")


SCENARIOS = [
    (16, "Debian package lifecycle", scenario_16_package),
    (17, "man pages render", scenario_17_man_pages),
]
