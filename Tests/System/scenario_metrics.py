"""System scenario 31: Debian's Prometheus scrapes the daemon's metrics listener (issue 44).

A booted machine with the installed daemon serves `GET /metrics` on `metrics.listen` (a free port of the host's
loopback, which the machine shares) with the network drop-in docs/operations.md shows under "Scraping over TCP",
taken from the document itself. Four changes go through the control API (three favorites, one project). Debian's
Prometheus (`/usr/bin/prometheus`, `make deps`) then runs on the host with a one-second scrape interval and the
shipped rules (`packaging/prometheus/workspaced-rules.yml`, which `promtool check rules` must pass): the target
must come up healthy, `sum(workspaced_changes_total)` must count the four changes, and the rule group must load
and evaluate with health "ok". Prometheus asks for OpenMetrics, so a healthy target means that output parses; a
direct fetch with the same Accept header must end with `# EOF`.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import urllib.parse
import urllib.request

import systemtest as st
from harness import check, wait_for

RULES = st.REPO / "packaging/prometheus/workspaced-rules.yml"
OPENMETRICS = "application/openmetrics-text;version=1.0.0"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def network_drop_in() -> str:
    """The `[Service]` block of docs/operations.md's "Scraping over TCP", as an operator would paste it."""
    section = (st.REPO / "docs/operations.md").read_text().split("### Scraping over TCP", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```ini\n(.*?)```", section, re.S)
    check(block, "docs/operations.md shows no network drop-in under \"Scraping over TCP\"")
    return block.group(1)


def get(url: str, headers: dict[str, str] | None = None) -> tuple[str, str]:
    """The body and Content-Type of GET `url`."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=5) as response:
        return response.read().decode(), response.headers.get("Content-Type", "")


def api(port: int, path: str, **query: str):
    """The `data` of one answer of Prometheus's HTTP API."""
    answer = json.loads(get(f"http://127.0.0.1:{port}/api/v1/{path}?{urllib.parse.urlencode(query)}")[0])
    check(answer.get("status") == "success", f"Prometheus's /api/v1/{path} answered {answer}")
    return answer["data"]


def value(port: int, expression: str) -> float | None:
    """The one value of an instant query, or None when it has no result."""
    result = api(port, "query", query=expression)["result"]
    return float(result[0]["value"][1]) if result else None


def start_prometheus(work, target: int) -> tuple[subprocess.Popen, int]:
    """Prometheus on a free loopback port, scraping `127.0.0.1:target` every second with the shipped rules."""
    port = free_port()
    config = work / "prometheus.yml"
    config.write_text(json.dumps({  # JSON is YAML
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(RULES)],
        "scrape_configs": [{"job_name": "workspaced", "static_configs": [{"targets": [f"127.0.0.1:{target}"]}]}],
    }, indent=2))
    log = open(work / "prometheus.log", "wb")
    server = subprocess.Popen(["/usr/bin/prometheus", f"--config.file={config}",
                               f"--storage.tsdb.path={work / 'prometheus-data'}",
                               f"--web.listen-address=127.0.0.1:{port}"], stdout=log, stderr=subprocess.STDOUT)
    wait_for("Prometheus to be ready", lambda: server.poll() is None and get(f"http://127.0.0.1:{port}/-/ready"),
             timeout=30)
    return server, port


def scenario_31_metrics(suite: st.Suite) -> str:
    """Prometheus scrapes metrics.listen over the documented drop-in, counts the changes and loads the rules."""
    checked = subprocess.run(["promtool", "check", "rules", str(RULES)], capture_output=True, text=True)
    check(checked.returncode == 0,
          f"promtool check rules exited {checked.returncode}:\n{checked.stdout}{checked.stderr}")
    listen = free_port()
    config = st.default_config()
    config["metrics"] = {"listen": f"127.0.0.1:{listen}"}
    with suite.installed(config) as machine:
        machine.write(f"{st.DROP_INS}/metrics-network.conf", network_drop_in())
        machine.systemctl("daemon-reload")
        machine.systemctl("start", st.UNIT)
        for name in ("docs", "src", "notes"):
            st.expect_ok(machine.http("POST", "/v1/favorites", {"name": name, "path": f"/srv/{name}"}), 201)
        st.expect_ok(machine.http("POST", "/v1/projects", {"name": "scraped", "layout": "split"}), 201)
        changes = 4
        body, kind = get(f"http://127.0.0.1:{listen}/metrics", {"Accept": OPENMETRICS})
        check(kind.startswith("application/openmetrics-text") and body.endswith("\n# EOF\n"),
              f"the listener's OpenMetrics answer ({kind!r}) does not end with # EOF:\n{body[-300:]}")
        server, port = start_prometheus(suite.work, listen)
        try:
            wait_for("Prometheus to scrape the daemon (up == 1)",
                     lambda: value(port, 'up{job="workspaced"}') == 1, timeout=60, interval=0.5)
            # A few scrapes in a row, each parsed: OpenMetrics that parses once parses every time.
            wait_for("three scrapes", lambda: (value(port, 'sum_over_time(up{job="workspaced"}[10m])') or 0) >= 3,
                     timeout=30, interval=0.5)
            targets = api(port, "targets")["activeTargets"]
            check(len(targets) == 1 and targets[0]["health"] == "up" and not targets[0]["lastError"],
                  f"the target is not healthy: {targets}")
            counted = value(port, "sum(workspaced_changes_total)")
            check(counted == changes, f"Prometheus counts {counted} changes, not {changes}")
            # An OpenMetrics scrape names a counter's family without _total (a text-format one keeps it).
            families = api(port, "targets/metadata", match_target='{job="workspaced"}', metric="workspaced_changes")
            check(families and families[0]["type"] == "counter",
                  f"Prometheus has no counter family workspaced_changes: was OpenMetrics negotiated? {families}")

            def evaluated():
                groups = [g for g in api(port, "rules")["groups"] if g["name"] == "workspaced"]
                rules = groups[0]["rules"] if groups else []
                return rules if rules and all(rule["health"] == "ok" for rule in rules) else None

            rules = wait_for("the workspaced rule group to evaluate with health ok", evaluated, timeout=30,
                             interval=0.5)
            scrapes, good = (value(port, f'{f}_over_time(up{{job="workspaced"}}[10m])') for f in ("count", "sum"))
            check(scrapes == good, f"{scrapes - good:g} of {scrapes:g} scrapes failed")
            samples = value(port, 'scrape_samples_scraped{job="workspaced"}')
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        return (f"Prometheus {int(scrapes)} OpenMetrics scrapes of 127.0.0.1:{listen} ({int(samples)} samples "
                f"each) counted {int(counted)} changes; {len(rules)} shipped rules evaluate ok; the listener's "
                f"OpenMetrics ends with # EOF")


SCENARIOS = [(31, "Prometheus scrapes the metrics listener", scenario_31_metrics)]
