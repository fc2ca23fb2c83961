"""System scenario 29: going back in time (issue 42).

In a booted machine with the installed daemon (history on by default): a project with two panes and a tab is
created, then deleted by mistake; after `systemctl restart`, `workspacectl history --project ID` lists its
creation and deletion with their revisions, `workspacectl restore --project ID --at REV` (REV: the revision before
the deletion) puts it back with its panes and tab as a new revision, a `workspacectl watch` started after the
restart sees the `project.restore` event naming it, `workspacectl undo` takes the restore back (the project is
gone again), and `/v1/status` and `workspaced check` show the history kept, with no damaged file.
"""

from __future__ import annotations

import json

import systemtest as st
from harness import check
from scenario_events import Watcher


def project_or_none(machine, project_id: str):
    response = machine.http("GET", f"/v1/projects/{project_id}")
    return response.json if response.status == 200 else None


def scenario_29_history(suite: st.Suite) -> str:
    """A project deleted by mistake comes back after a restart, with its panes and tabs, as an undoable change."""
    with suite.installed() as machine:
        machine.systemctl("start", st.UNIT)
        created = st.expect_ok(
            machine.http("POST", "/v1/projects?durable=true", {"name": "doomed", "layout": "split"}), 201).json
        project_id = created["value"]["id"] if "value" in created else created["id"]
        panes = []
        for folder in ("/srv/left", "/srv/right"):
            body = st.expect_ok(machine.http(
                "POST", f"/v1/projects/{project_id}/panes?durable=true", {"folder": folder, "viewMode": "list"}),
                201).json
            panes.append(body["value"]["id"] if "value" in body else body["id"])
        st.expect_ok(machine.http("POST", f"/v1/panes/{panes[0]}/tabs?durable=true", {"folder": "/srv/left/a"}), 201)
        before = st.expect_ok(machine.http("GET", f"/v1/projects/{project_id}")).json
        deleted = st.expect_ok(machine.http("DELETE", f"/v1/projects/{project_id}?durable=true"))
        deleted_revision = deleted.json["revision"]
        check(project_or_none(machine, project_id) is None, "the project is still there after its deletion")

        machine.systemctl("restart", st.UNIT)
        history = st.expect_ctl(machine, "history", "--project", project_id)
        operations = [(entry["revision"], entry["operation"]) for entry in history["entries"]]
        check(("project.create" in [op for _, op in operations])
              and (deleted_revision, "project.delete") in operations,
              f"workspacectl history --project does not list the creation and the deletion: {operations}")
        check(all(entry.get("peer") for entry in history["entries"]),
              f"an entry does not name the peer that made it: {history['entries']}")

        watcher = Watcher(machine)
        try:
            watcher.until("the subscription", lambda event: event.get("type") == "subscribed")
            restored = st.expect_ctl(machine, "restore", "--project", project_id, "--at", str(deleted_revision - 1))
            after = project_or_none(machine, project_id)
            check(after is not None, f"workspacectl restore did not bring the project back: {restored}")
            check(after == before, f"the restored project differs from the deleted one:\n{after}\n{before}")
            _, event = watcher.until(
                "the project.restore event",
                lambda event: event.get("type") == "change" and event.get("operation") == "project.restore")
            check(event.get("id") == project_id, f"the project.restore event names another record: {event}")
        finally:
            watcher.close()

        st.expect_ctl(machine, "undo")
        check(project_or_none(machine, project_id) is None, "workspacectl undo did not take the restore back")

        status = st.expect_ok(machine.http("GET", "/v1/status")).json
        kept = status.get("history") or {}
        check(kept.get("oldestRevision") is not None and not kept.get("damaged"),
              f"/v1/status does not show the history kept: {kept}")
        machine.systemctl("stop", st.UNIT)
        checked = machine.run("/usr/local/bin/workspaced", "check", "--json", check=False)
        report = json.loads(checked.stdout)
        check(checked.returncode == 0 and report.get("history") and not report["history"]["damaged"],
              f"workspaced check does not show a sound history: {checked.stdout}{checked.stderr}")
        return (f"deleted at revision {deleted_revision}, restored after a restart with {len(after['panes'])} "
                f"panes; history lists {len(operations)} entries; undo took it back; check: "
                f"{report['history']['files']} history files, none damaged")


SCENARIOS = [
    (29, "a project deleted by mistake comes back after a restart, undoably", scenario_29_history),
]
