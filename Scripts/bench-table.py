#!/usr/bin/env python3
"""Prints the table of docs/benchmarks.md from docs/benchmarks/results.json: every figure of `make bench`, its goal
and the measured value per workspace size, a missed goal in bold.

Usage: Scripts/bench-table.py [RESULTS_JSON]   (default docs/benchmarks/results.json)
"""
import json
import sys


def ms(seconds):
    # Below 10 ms (a durable change through the journal is a few tenths of one), two decimals.
    if seconds < 0.01:
        return f"{seconds * 1000:.2f} ms"
    return f"{seconds * 1000:,.1f} ms" if seconds < 10 else f"{seconds:,.1f} s"


def cell(value, goal, text, at_most=True):
    """`text`, in bold when `value` misses `goal`."""
    if value is None:
        return "–"
    met = value <= goal if at_most else value >= goal
    return text if met else f"**{text}**"


def history_rows(history, row, columns):
    """The rows of the `history` section (issue 42): the persistence workloads with the history on ÷ off, the read
    of a past state ÷ a load, and what renames at 10/s take in the history (a size that is no column of the table
    gets a row of its own, its figure in the first column)."""
    def short(seconds):
        return f"{seconds * 1e6:.1f} µs" if seconds < 1e-4 else ms(seconds)

    overhead = {r["megabytes"]: r for r in history.get("overhead", [])}
    for key, name, goal in (("durableChange", "one durable change", True), ("plainChange", "one plain change", True),
                            ("save", "a save, timer → reported", True),
                            ("firstSave", "the save that keeps a snapshot", False)):
        row(f"history on ÷ off: {name}", "≤ 1.05" if goal else "(a figure)",
            {s: (cell(r["figures"][key]["ratio"], r["goal"], text) if goal else text)
             for s, r in overhead.items()
             for text in [f'{r["figures"][key]["ratio"]:.2f} ({short(r["figures"][key]["on"])} ÷ '
                          f'{short(r["figures"][key]["off"])})']})
    read = history.get("read")
    if read:
        figures = read["figures"]
        row(f'history: model(atRevision:) replaying {figures["replayedBytes"] / 1048576:.0f} MiB ÷ StateFile.load',
            f'≤ {figures["goal"]:g}',
            {read["megabytes"]: cell(figures["ratio"], figures["goal"],
                                     f'{figures["ratio"]:.2f} ({ms(figures["readSeconds"])} ÷ '
                                     f'{ms(figures["loadSeconds"])}; {figures["replayedChanges"]:,} changes)')})
    for footprint in history.get("footprint", []):
        megabytes = footprint["megabytes"]
        text = (f'{footprint["bytesPerChange"]:.0f} B a rename; 64 MiB holds {footprint["defaultLeastHours"]:.1f}–'
                f'{footprint["defaultMostHours"]:.1f} h; a week needs {footprint["weekMebibytes"]:,.0f} MiB')
        if megabytes == int(megabytes) and megabytes >= 1:
            row("history: renames at 10/s (snapshot = the state file)", "(a figure)", {int(megabytes): text})
        else:
            print(f"| history: renames at 10/s, a {megabytes:g} MB state | (a figure) | {text} |"
                  + " – |" * (columns - 1))


def replica_rows(replica, row):
    """The rows of the `replica` section (issue 43), figures of a 10 MB workspace."""
    figures = replica.get("figures") or replica
    if not figures:
        return
    lines = [
        ("replica on ÷ off: one durable change", "≤ 1.1",
         cell(figures["durableRatio"], 1.1, f'{figures["durableRatio"]:.2f} ({ms(figures["durableOnSeconds"])} ÷ '
                                             f'{ms(figures["durableOffSeconds"])})')),
        (f'restore + ready ÷ ready after a crash, {figures["journalBytes"] / 1048576:.0f} MiB of journal', "≤ 2",
         cell(figures["restoreRatio"], 2, f'{figures["restoreRatio"]:.2f} ({ms(figures["restoreAndReadySeconds"])} ÷ '
                                          f'{ms(figures["readyAfterCrashSeconds"])})')),
        (f'replica lag after {figures["lagSeconds"]} s at {figures["lagChangesPerSecond"]:,} changes/s', "≤ 2 s",
         cell(figures["catchUpSeconds"], 2, f'{figures["catchUpSeconds"]:.2f} s')),
    ]
    if figures.get("controlRatio") is not None:
        lines.append(("replica on ÷ off: control API changes/s", "≥ 0.9",
                      cell(figures["controlRatio"], 0.9, f'{figures["controlRatio"]:.2f} '
                           f'({figures["controlOnPerSecond"]:.0f} ÷ {figures["controlOffPerSecond"]:.0f})',
                           at_most=False)))
    for name, goal, text in lines:
        row(name, goal, {10: text})


def metrics_rows(metrics, row):
    """The rows of the `metrics` section (issue 44): metrics on ÷ off on a 10 MB workspace, and the scrub's cost."""
    figures = metrics.get("figures") or metrics
    if not figures:
        return
    lines = [
        ("metrics on ÷ off: one durable change", "≤ 1.03",
         cell(figures["durableRatio"], 1.03, f'{figures["durableRatio"]:.3f} ({ms(figures["durableOnSeconds"])} ÷ '
                                              f'{ms(figures["durableOffSeconds"])})')),
        ("metrics on ÷ off: control API changes/s", "≥ 0.97",
         cell(figures["controlRatio"], 0.97, f'{figures["controlRatio"]:.3f} '
              f'({figures["controlOnPerSecond"]:.0f} ÷ {figures["controlOffPerSecond"]:.0f})', at_most=False)),
        ("metrics on ÷ off: save everything (POST /v1/flush)", "≤ 1.03",
         cell(figures["saveRatio"], 1.03, f'{figures["saveRatio"]:.3f} ({ms(figures["saveOnSeconds"])} ÷ '
                                           f'{ms(figures["saveOffSeconds"])})')),
        (f'control API p99 during ÷ without a scrub ({figures["scrubStateBytes"] / 1e6:.0f} MB, '
         f'{figures["scrubBackups"]} backups, {figures["scrubHistoryBytes"] / 1048576:.0f} MiB of history)', "≤ 1.2",
         cell(figures["scrubP99Ratio"], 1.2, f'{figures["scrubP99Ratio"]:.2f} ({ms(figures["p99DuringScrubSeconds"])} '
                                              f'÷ {ms(figures["p99WithoutScrubSeconds"])})')),
    ]
    for name, goal, text in lines:
        row(name, goal, {10: text})


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "docs/benchmarks/results.json"
    with open(path) as file:
        results = json.load(file)
    ready = results.get("ready", [])
    history = results.get("history") or {}
    sizes = sorted({row["megabytes"] for row in ready} | {row["megabytes"] for row in results.get("persistence", [])}
                   | {row["megabytes"] for row in history.get("overhead", [])})
    head = "| figure | goal | " + " | ".join(f"{size} MB" for size in sizes) + " |"
    print(head)
    print("| --- | --- | " + " | ".join("---" for _ in sizes) + " |")

    def row(name, goal, values):
        print(f"| {name} | {goal} | " + " | ".join(values.get(size, "–") for size in sizes) + " |")

    for version, goal in ((4, 0.5), (1, 1.0)):
        rows = {r["megabytes"]: r for r in ready if r["version"] == version}
        row(f"ready ÷ plain decode, v{version} file" + (" (migration included)" if version == 1 else ""), f"≤ {goal}",
            {s: cell(r["readyRatio"], goal, f'{r["readyRatio"]:.2f} ({ms(r["readySeconds"])} ÷ {ms(r["baselineSeconds"])})')
             for s, r in rows.items()})
    for version in (4, 1):
        rows = {r["megabytes"]: r for r in ready if r["version"] == version}
        row(f"peak RSS ÷ plain decode's, v{version}", "≤ 1.2",
            {s: cell(r["peakRatio"], 1.2, f'{r["peakRatio"]:.2f} ({r["peakBytes"] / 1e6:.0f} ÷ {r["baselinePeakBytes"] / 1e6:.0f} MB)')
             for s, r in rows.items()})
    peer_by_size = {r["megabytes"]: r for r in results.get("peer", [])}
    rows = {r["megabytes"]: r for r in ready if r["version"] == 4 and r["megabytes"] in peer_by_size}
    row("ready, v4 file ÷ GRDB's load of the same workspace", "≤ 1.0 (10, 50 MB)",
        {s: cell(r["readySeconds"] / peer_by_size[s]["sqlite"]["loadSeconds"], 1.0 if s >= 10 else 99,
                 f'{r["readySeconds"] / peer_by_size[s]["sqlite"]["loadSeconds"]:.2f} '
                 f'({ms(r["readySeconds"])} ÷ {ms(peer_by_size[s]["sqlite"]["loadSeconds"])})')
         for s, r in rows.items()})
    for version in (4, 1):
        rows = {r["megabytes"]: r for r in ready if r["version"] == version and r.get("peakPerFileAndIdle")}
        if rows:
            row(f"peak RSS of the load (at READY) ÷ (file + idle daemon's), v{version}", "≤ 1.5",
                {s: cell(r["peakPerFileAndIdle"], 1.5, f'{r["peakPerFileAndIdle"]:.2f} ({r["loadPeakBytes"] / 1e6:.0f} '
                         f'÷ ({r["fileBytes"] / 1e6:.0f} + {r["idlePeakBytes"] / 1e6:.0f}) MB)')
                 for s, r in rows.items()})
    for version in (4, 1):
        rows = {r["megabytes"]: r for r in ready if r["version"] == version}
        row(f"RSS after the first save ÷ file, v{version}", "≤ 4",
            {s: cell(r["residentPerFileByte"], 4, f'{r["residentPerFileByte"]:.1f} ({r["residentAfterSaveBytes"] / 1e6:.0f} MB)')
             for s, r in rows.items()})
    for version in (4, 1):
        rows = {r["megabytes"]: r for r in ready if r["version"] == version and r.get("anonymousAfterSaveBytes")}
        if rows:
            row(f"of which anonymous (heap), ÷ file, v{version}", "(where it goes)",
                {s: f'{r["anonymousPerFileByte"]:.1f} ({r["anonymousAfterSaveBytes"] / 1e6:.0f} MB)'
                 for s, r in rows.items()})
    persistence = {r["megabytes"]: r for r in results.get("persistence", [])}
    row("save ÷ (encode + durable write)", "≤ 1.10",
        {s: cell(r["saveRatio"], r["saveGoal"], f'{r["saveRatio"]:.2f} ({ms(r["saveSeconds"])})') for s, r in persistence.items()})
    row("owner blocked per save", "≤ 1 ms",
        {s: cell(r["ownerBlockedSeconds"], r["ownerBlockedGoal"], f'{r["ownerBlockedSeconds"] * 1000:.3f} ms')
         for s, r in persistence.items()})
    row("file writes, 10,000 changes/s for 10 s", "≤ 3",
        {s: cell(r["fileWrites"], r["fileWritesGoal"], str(r["fileWrites"])) for s, r in persistence.items()
         if r.get("fileWrites") is not None})
    row("SIGTERM → exit, dirty ÷ (encode + durable write)", "≤ 1.2",
        {s: cell(r["sigtermDirtyRatio"], r["sigtermDirtyGoal"], f'{r["sigtermDirtyRatio"]:.2f} ({ms(r["sigtermDirtySeconds"])})')
         for s, r in persistence.items()})
    row("SIGTERM → exit, clean", "≤ 20 ms",
        {s: cell(r["sigtermCleanSeconds"], r["sigtermCleanGoal"], ms(r["sigtermCleanSeconds"])) for s, r in persistence.items()})
    control = results.get("control")
    if control:
        size = control["megabytes"]
        row(f"control API, {control['clients']} clients: changes/s ÷ no-op/s", f"≥ {control['goal']}",
            {size: cell(control["ratio"], control["goal"],
                        f'{control["ratio"]:.2f} ({control["changesPerSecond"]:,.0f} ÷ {control["noopPerSecond"]:,.0f}/s; '
                        f'change p50 {ms(control["changeP50Seconds"])}, p99 {ms(control["changeP99Seconds"])}; '
                        f'CPU {control["changeCPUSecondsPerRequest"] * 1e6:.0f} µs a change, '
                        f'{control["noopCPUSecondsPerRequest"] * 1e6:.0f} µs a no-op)', at_most=False)})
    peer = {r["megabytes"]: r for r in results.get("peer", [])}
    for key, name in (("loadSeconds", "load everything"), ("saveSeconds", "save everything"),
                      ("changeSeconds", "one durable single-record change")):
        row(f"peer: {name}, JSON file ÷ SQLite (GRDB)", "(a comparison)",
            {s: f'{r["json"][key] / r["sqlite"][key]:.2f} ({ms(r["json"][key])} ÷ {ms(r["sqlite"][key])})'
             for s, r in peer.items()})
    journaled = {s: r for s, r in peer.items() if r["json"].get("journaledChangeSeconds")}
    row("peer: one durable change through the change journal, JSON file ÷ SQLite", "≤ 2",
        {s: cell(r["json"]["journaledChangeSeconds"] / r["sqlite"]["journaledChangeSeconds"], 2,
                 f'{r["json"]["journaledChangeSeconds"] / r["sqlite"]["journaledChangeSeconds"]:.2f} '
                 f'({ms(r["json"]["journaledChangeSeconds"])} ÷ {ms(r["sqlite"]["journaledChangeSeconds"])})')
         for s, r in journaled.items()})
    concurrent = {s: r for s, r in peer.items() if r["json"].get("concurrentChangesSeconds")}
    row("peer: 16 clients' durable changes/s, JSON file (journal) ÷ SQLite", "≥ 0.5",
        {s: cell(r["sqlite"]["concurrentChangesSeconds"] / r["json"]["concurrentChangesSeconds"], 0.5,
                 f'{r["sqlite"]["concurrentChangesSeconds"] / r["json"]["concurrentChangesSeconds"]:.2f} '
                 f'({320 / r["json"]["concurrentChangesSeconds"]:,.0f} ÷ '
                 f'{320 / r["sqlite"]["concurrentChangesSeconds"]:,.0f}/s)', at_most=False)
         for s, r in concurrent.items()})
    crashed = {s: r for s, r in peer.items() if r["json"].get("readyAfterCrashSeconds")}
    row("ready after a crash with a full journal (16 MiB replayed), JSON file; load alone", "(a figure)",
        {s: f'{ms(r["json"]["readyAfterCrashSeconds"])}; {ms(r["json"]["loadSeconds"])}' for s, r in crashed.items()})
    row("peer: peak RSS, JSON file ÷ SQLite", "(a comparison)",
        {s: f'{r["json"]["peakBytes"] / r["sqlite"]["peakBytes"]:.2f} ({r["json"]["peakBytes"] / 1e6:.0f} ÷ '
            f'{r["sqlite"]["peakBytes"] / 1e6:.0f} MB)' for s, r in peer.items()})
    history_rows(history, row, len(sizes))
    replica_rows(results.get("replica") or {}, row)
    metrics_rows(results.get("metrics") or {}, row)
    print()
    print(f'Commit {results.get("commit")}, {results.get("date")}, {results["machine"]["cpu"]} '
          f'({results["machine"]["cores"]} cores); rounds: '
          + ", ".join(f"{name} {count}" for name, count in sorted((results.get("rounds") or {}).items())) + ".")


if __name__ == "__main__":
    main()
