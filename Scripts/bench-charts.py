#!/usr/bin/env python3
"""Draws the charts of the workspace benchmarks (issue 16) from docs/benchmarks/results.json.

usage: bench-charts.py [RESULTS_JSON] [OUT_DIR] [--markdown FILE] [--relative-to DIR]

RESULTS_JSON defaults to docs/benchmarks/results.json and OUT_DIR to docs/benchmarks. Each chart is drawn only
when the sections it needs are there (`make bench` writes `ready`, `peer`, `persistence` and `control`, one
benchmark at a time; any may be missing):

  ratios.png       every ratio per size against its goal (ready, peak RSS, RSS after save, save, SIGTERM, control)
  ready-time.png   ready / load time against the workspace size: the daemon, the plain decode, the peers
  peer.png         the JSON file store against SQLite (GRDB): load, save everything, one durable change (file
                   rewritten, then through the change journal), 16 clients' durable changes, ready after a crash
  memory.png       peak and resident memory against the workspace size
  persistence.png  the persistence figures with goals in seconds or counts (owner blocked, file writes, SIGTERM)

A chart whose sections are all missing is not written (an old PNG of it is removed, so that the docs never show
figures of another run). The markdown that embeds the charts written goes to stdout (and to FILE with
--markdown), with paths relative to DIR (default: OUT_DIR's parent, where docs/benchmarks.md lives).

matplotlib is drawn with the Agg backend: no display is needed. `make bench-charts` installs it when missing.
Scripts/testdata/bench-results-sample.json has every section filled with made-up but plausible figures (its
machine says so) for checking the charts: `Scripts/bench-charts.py Scripts/testdata/bench-results-sample.json
/tmp/charts`. Never draw it into docs/."""
import argparse
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

CHARTS = ["ratios.png", "ready-time.png", "peer.png", "memory.png", "persistence.png"]
DPI = 110
MIB = 1024 * 1024

# One colour per series, the same in every chart.
COLOURS = {
    "daemon v4": "#1f77b4",
    "daemon v1": "#6baed6",
    "plain v4": "#2ca02c",
    "plain v1": "#98df8a",
    "json": "#ff7f0e",
    "sqlite": "#9467bd",
    "after save v4": "#d62728",
    "after save v1": "#ff9896",
    "anonymous v4": "#8c564b",
    "anonymous v1": "#c49c94",
    "goal": "#222222",
}
SIZE_COLOURS = ["#4c72b0", "#55a868", "#c44e52", "#8172b2", "#ccb974", "#64b5cd", "#8c8c8c"]


def number(value):
    """value as a float when it is a finite number, else None (null, missing, a string, NaN)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def rows_of(results, section):
    """The section's rows (a list of dicts), [] when missing or not a list; a lone object becomes one row."""
    value = results.get(section)
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list):
        return [row for row in value if isinstance(row, dict)]
    return []


def sizes_of(rows):
    return sorted({number(row.get("megabytes")) for row in rows if number(row.get("megabytes")) is not None})


def size_label(megabytes):
    return f"{megabytes:g} MB"


def subtitle(results):
    machine = results.get("machine") if isinstance(results.get("machine"), dict) else {}
    first = [f"commit {results.get('commit', 'unknown')}", str(results.get("date", "date unknown"))]
    second = []
    if machine:
        second.append(f"{machine.get('cores', '?')}-core {machine.get('cpu', '?')}, kernel {machine.get('kernel', '?')}")
    rounds = results.get("rounds") if isinstance(results.get("rounds"), dict) else {}
    if rounds:
        second.append("rounds: " + ", ".join(f"{name} {count}" for name, count in sorted(rounds.items())))
    return " · ".join(first) + ("\n" + " · ".join(second) if second else "")


def finish(figure, path, title, results):
    figure.suptitle(f"{title}\n{subtitle(results)}", fontsize=11)
    figure.savefig(path, dpi=DPI)
    plt.close(figure)


def wants_log(values, spread=12.0):
    values = [value for value in values if value is not None and value > 0]
    return len(values) > 1 and max(values) / min(values) > spread


def format_value(value):
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def format_seconds(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


def seconds_axis(axis):
    if axis.get_yscale() == "log":
        axis.yaxis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        axis.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axis.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: format_seconds(value)))


def format_bytes(value):
    if value >= 1024 * MIB:
        return f"{value / (1024 * MIB):g} GiB"
    if value >= MIB:
        return f"{value / MIB:g} MiB"
    return f"{value / 1024:g} KiB"


def bytes_axis(axis):
    """A log y axis of bytes with ticks at powers of two (8 MiB, 16 MiB, ...)."""
    axis.set_yscale("log", base=2)
    axis.yaxis.set_major_locator(matplotlib.ticker.LogLocator(base=2))
    axis.yaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    axis.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: format_bytes(value)))


def megabytes_axis(axis, sizes):
    """A log x axis of workspace sizes (MB) with a tick at each measured size."""
    axis.set_xscale("log")
    axis.set_xticks(sizes)
    axis.set_xticklabels([size_label(size) for size in sizes])
    axis.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axis.set_xlabel("workspace size (as generated: the v4 file; v1 holds the same projects in about 40% of it)")
    axis.grid(True, which="major", alpha=0.3)


# ratios.png ----------------------------------------------------------------------------------------------------------

def ratio_groups(results):
    """[(label, [(megabytes or None, value, goal, higher_is_better)])] for every ratio with at least one value."""
    ready = rows_of(results, "ready")
    persistence = rows_of(results, "persistence")
    control = results.get("control") if isinstance(results.get("control"), dict) else None

    def from_rows(rows, key, goal_key, default_goal, version=None, higher=False):
        points = []
        for row in rows:
            if version is not None and row.get("version") != version:
                continue
            value = number(row.get(key))
            if value is None:
                continue
            goal = number(row.get(goal_key)) if goal_key else None
            points.append((number(row.get("megabytes")), value, goal if goal is not None else default_goal, higher))
        return sorted(points, key=lambda point: point[0] or 0)

    groups = [
        ("ready v4\n÷ plain decode", from_rows(ready, "readyRatio", "readyGoal", 1.5, version=4)),
        ("ready v1 (+ migration)\n÷ plain decode v1", from_rows(ready, "readyRatio", "readyGoal", 1.7, version=1)),
        ("peak RSS v4\n÷ plain peak", from_rows(ready, "peakRatio", "peakGoal", 1.2, version=4)),
        ("peak RSS v1\n÷ plain peak", from_rows(ready, "peakRatio", "peakGoal", 1.2, version=1)),
        ("RSS after save v4\n÷ file", from_rows(ready, "residentPerFileByte", "residentPerFileGoal", 4, version=4)),
        ("RSS after save v1\n÷ file", from_rows(ready, "residentPerFileByte", "residentPerFileGoal", 4, version=1)),
        ("save ÷ (encode\n+ durable write)", from_rows(persistence, "saveRatio", "saveGoal", 1.1)),
        ("SIGTERM dirty ÷\n(encode + write)", from_rows(persistence, "sigtermDirtyRatio", "sigtermDirtyGoal", 1.2)),
    ]
    if control is not None and number(control.get("ratio")) is not None:
        goal = number(control.get("goal"))
        clients = control.get("clients")
        label = "control API\nchanges/s ÷ no-op/s" + (f"\n({clients} clients)" if clients is not None else "")
        groups.append((label, [(number(control.get("megabytes")), number(control.get("ratio")),
                                goal if goal is not None else 0.75, True)]))
    return [(label, points) for label, points in groups if points]


def draw_ratios(results, path):
    groups = ratio_groups(results)
    if not groups:
        return False
    sizes = sorted({megabytes for _, points in groups for megabytes, *_ in points if megabytes is not None})
    colour_of = {size: SIZE_COLOURS[index % len(SIZE_COLOURS)] for index, size in enumerate(sizes)}
    values = [value for _, points in groups for _, value, goal, _ in points] + \
             [goal for _, points in groups for _, _, goal, _ in points if goal is not None]
    log = wants_log(values)

    figure, axis = plt.subplots(figsize=(max(8, 1.55 * len(groups) + 2), 6.2), layout="constrained")
    slots = max(len(sizes), 1)
    width = min(0.8 / slots, 0.3)
    for index, (label, points) in enumerate(groups):
        for megabytes, value, goal, higher in points:
            slot = sizes.index(megabytes) if megabytes in sizes else 0
            # A group with fewer sizes (the control API's one bar) is centred.
            if len(points) < slots:
                slot = points.index((megabytes, value, goal, higher)) + (slots - len(points)) / 2
            x = index - width * slots / 2 + width * (slot + 0.5)
            met = goal is None or (value >= goal if higher else value <= goal)
            axis.bar(x, value, width * 0.92, color=colour_of.get(megabytes, "#8c8c8c"),
                     edgecolor="black" if met else "#b00000", linewidth=0.6 if met else 1.6)
            # Above the goal's line too when that is higher, so that the two never overlap.
            axis.annotate(format_value(value), (x, max(value, goal or 0)), xytext=(0, 3), textcoords="offset points",
                          ha="center", va="bottom", fontsize=7, color="black" if met else "#b00000")
            if goal is not None:
                axis.hlines(goal, x - width / 2, x + width / 2, colors=COLOURS["goal"], linewidth=2.4)
    labels = []
    for label, points in groups:
        goals = sorted({goal for _, _, goal, _ in points if goal is not None})
        if goals:
            label += ("\ngoal ≥ " if points[0][3] else "\ngoal ≤ ") + " / ".join(f"{goal:g}" for goal in goals)
        labels.append(label)
    axis.set_xticks(range(len(groups)))
    axis.set_xticklabels(labels, fontsize=8.5)
    axis.set_xlim(-0.6, len(groups) - 0.4)
    for index in range(1, len(groups)):
        axis.axvline(index - 0.5, color="#dddddd", linewidth=0.8)
    if log:
        axis.set_yscale("log")
        axis.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}"))
        bottom = min(value for value in values if value > 0) / 2.5
        axis.set_ylim(bottom=bottom, top=max(values) * 1.6)
    else:
        axis.set_ylim(0, max(values) * 1.15)
    axis.set_ylabel("ratio" + (" (log scale)" if log else ""))
    axis.grid(True, axis="y", which="major", alpha=0.3)
    handles = [Patch(facecolor=colour_of[size], edgecolor="black", label=size_label(size)) for size in sizes]
    handles.append(Line2D([0], [0], color=COLOURS["goal"], linewidth=2.4, label="goal (per bar)"))
    handles.append(Patch(facecolor="white", edgecolor="#b00000", linewidth=1.6, label="goal missed"))
    axis.legend(handles=handles, fontsize=8, loc="upper left", ncols=len(handles))
    finish(figure, path, "Workspace benchmarks: each ratio against its goal (bars outlined red miss it)", results)
    return True


# ready-time.png and peer.png -----------------------------------------------------------------------------------------

def series(rows, key, version=None, nested=None):
    """[(megabytes, value)] sorted by size, skipping rows without the figure."""
    points = []
    for row in rows:
        if version is not None and row.get("version") != version:
            continue
        source = row.get(nested) if nested else row
        if not isinstance(source, dict):
            continue
        megabytes, value = number(row.get("megabytes")), number(source.get(key))
        if megabytes is not None and value is not None and value > 0:
            points.append((megabytes, value))
    return sorted(points)


def plot_lines(axis, lines):
    """lines: [(label, colour, style, marker, points)]; returns whether anything was drawn."""
    drawn = False
    for label, colour, style, marker, points in lines:
        if not points:
            continue
        axis.plot([x for x, _ in points], [y for _, y in points], linestyle=style, marker=marker, color=colour,
                  label=label, linewidth=1.8, markersize=6)
        drawn = True
    return drawn


def draw_ready_time(results, path):
    ready, peer = rows_of(results, "ready"), rows_of(results, "peer")
    lines = [
        ("daemon v4: start → READY=1", COLOURS["daemon v4"], "-", "o", series(ready, "readySeconds", 4)),
        ("daemon v1: start → READY=1 (migrates, saves)", COLOURS["daemon v1"], "-", "s",
         series(ready, "readySeconds", 1)),
        ("plain Codable decode v4 (own process)", COLOURS["plain v4"], "--", "o", series(ready, "baselineSeconds", 4)),
        ("plain Codable decode v1 (own process)", COLOURS["plain v1"], "--", "s", series(ready, "baselineSeconds", 1)),
        ("peer: JSON file store load (in process)", COLOURS["json"], ":", "D", series(peer, "loadSeconds", None, "json")),
        ("peer: SQLite (GRDB) load", COLOURS["sqlite"], ":", "^", series(peer, "loadSeconds", None, "sqlite")),
    ]
    if not any(points for *_, points in lines):
        return False
    figure, axis = plt.subplots(figsize=(9, 6), layout="constrained")
    plot_lines(axis, lines)
    sizes = sorted({x for *_, points in lines for x, _ in points})
    megabytes_axis(axis, sizes)
    axis.set_yscale("log")
    seconds_axis(axis)
    axis.set_ylabel("seconds, median of the rounds (log scale)")
    axis.legend(fontsize=8.5, loc="lower right")
    finish(figure, path, "Ready / load time against workspace size", results)
    return True


def draw_peer(results, path):
    peer = [row for row in rows_of(results, "peer") if number(row.get("megabytes")) is not None]
    operations = [("loadSeconds", "load everything"), ("saveSeconds", "save everything"),
                  ("changeSeconds", "one durable change, file rewritten"),
                  ("journaledChangeSeconds", "one durable change, JSON through its journal"),
                  ("concurrentChangesSeconds", "16 clients × 20 durable changes"),
                  ("readyAfterCrashSeconds", "ready after a crash (16 MiB journal;\nSQLite: its load)")]
    operations = [(key, title) for key, title in operations
                  if series(peer, key, None, "json") or series(peer, key, None, "sqlite")]
    if not operations:
        return False
    sizes = sizes_of(peer)
    # At most three operations a row, so that six stay readable.
    columns = min(3, len(operations))
    rows = (len(operations) + columns - 1) // columns
    figure, grid = plt.subplots(rows, columns, figsize=(4.3 * columns + 0.6, 5.6 * rows), layout="constrained",
                                squeeze=False)
    axes = [axis for row in grid for axis in row]
    for axis in axes[len(operations):]:
        axis.set_visible(False)
    by_size = {number(row.get("megabytes")): row for row in peer}
    for axis, (key, title) in zip(axes, operations):
        drawn = []
        for offset, store, label in [(-0.2, "json", "JSON file (StateStore)"), (0.2, "sqlite", "SQLite (GRDB)")]:
            for index, size in enumerate(sizes):
                part = by_size[size].get(store)
                value = number(part.get(key)) if isinstance(part, dict) else None
                if value is None or value <= 0:
                    continue
                axis.bar(index + offset, value, 0.38, color=COLOURS[store], edgecolor="black", linewidth=0.5,
                         label=label if label not in axis.get_legend_handles_labels()[1] else None)
                drawn.append(value)
                axis.annotate(format_seconds(value), (index + offset, value), xytext=(0, 2),
                              textcoords="offset points", ha="center", va="bottom", fontsize=7)
        axis.set_yscale("log")
        seconds_axis(axis)
        axis.set_xticks(range(len(sizes)))
        labels = []
        for size in sizes:
            row = by_size[size]
            extra = []
            if number(row.get("records")) is not None:
                extra.append(f"{int(row['records']):,} records")
            labels.append("\n".join([size_label(size)] + extra))
        axis.set_xticklabels(labels, fontsize=8)
        axis.set_title(title, fontsize=10)
        axis.grid(True, axis="y", which="major", alpha=0.3)
        # A log axis's bottom set well below the smallest bar, so that bar heights stay comparable.
        axis.set_ylim(min(drawn) / 4, max(drawn) * 3)
    for row in grid:
        row[0].set_ylabel("seconds (log scale)")
    handles, labels = axes[0].get_legend_handles_labels()
    for axis in axes[1:len(operations)]:
        more_handles, more_labels = axis.get_legend_handles_labels()
        for handle, label in zip(more_handles, more_labels):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    axes[0].legend(handles, labels, fontsize=8, loc="upper left")
    finish(figure, path, "The same workspace in one JSON file vs in SQLite", results)
    return True


# memory.png ----------------------------------------------------------------------------------------------------------

def draw_memory(results, path):
    ready, peer = rows_of(results, "ready"), rows_of(results, "peer")
    lines = [
        ("daemon v4: peak (VmHWM, load + first save)", COLOURS["daemon v4"], "-", "o", series(ready, "peakBytes", 4)),
        ("daemon v1: peak", COLOURS["daemon v1"], "-", "s", series(ready, "peakBytes", 1)),
        ("daemon v4: resident after save (VmRSS)", COLOURS["after save v4"], "-.", "o",
         series(ready, "residentAfterSaveBytes", 4)),
        ("daemon v1: resident after save", COLOURS["after save v1"], "-.", "s",
         series(ready, "residentAfterSaveBytes", 1)),
        ("daemon v4: of which anonymous (RssAnon: heap, no binary pages)", COLOURS["anonymous v4"], (0, (3, 1, 1, 1)),
         "o", series(ready, "anonymousAfterSaveBytes", 4)),
        ("daemon v1: of which anonymous", COLOURS["anonymous v1"], (0, (3, 1, 1, 1)), "s",
         series(ready, "anonymousAfterSaveBytes", 1)),
        ("plain Codable decode v4: peak", COLOURS["plain v4"], "--", "o", series(ready, "baselinePeakBytes", 4)),
        ("plain Codable decode v1: peak", COLOURS["plain v1"], "--", "s", series(ready, "baselinePeakBytes", 1)),
        ("peer: JSON file store peak", COLOURS["json"], ":", "D", series(peer, "peakBytes", None, "json")),
        ("peer: SQLite (GRDB) peak", COLOURS["sqlite"], ":", "^", series(peer, "peakBytes", None, "sqlite")),
    ]
    if not any(points for *_, points in lines):
        return False
    # The goal of RSS after save: 4 × the v4 file.
    goal_points = []
    for row in ready:
        if row.get("version") == 4 and number(row.get("fileBytes")) and number(row.get("megabytes")):
            goal = number(row.get("residentPerFileGoal")) or 4
            goal_points.append((number(row["megabytes"]), goal * number(row["fileBytes"])))
    figure, axis = plt.subplots(figsize=(9, 6.2), layout="constrained")
    plot_lines(axis, lines)
    if goal_points:
        goal_points.sort()
        axis.plot([x for x, _ in goal_points], [y for _, y in goal_points], color=COLOURS["goal"], linestyle=(0, (1, 3)),
                  linewidth=1.4, label="goal for resident after save v4: 4 × the file")
    sizes = sorted({x for *_, points in lines for x, _ in points})
    megabytes_axis(axis, sizes)
    bytes_axis(axis)
    axis.set_ylabel("bytes (log scale)")
    axis.legend(fontsize=8, loc="lower right")
    finish(figure, path, "Memory against workspace size", results)
    return True


# persistence.png -----------------------------------------------------------------------------------------------------

def draw_persistence(results, path):
    rows = [row for row in rows_of(results, "persistence") if number(row.get("megabytes")) is not None]
    panels = [
        ("owner blocked per save", "ownerBlockedSeconds", "ownerBlockedGoal", True),
        ("file writes at a high change rate", "fileWrites", "fileWritesGoal", False),
        ("SIGTERM → exit, clean state", "sigtermCleanSeconds", "sigtermCleanGoal", True),
        ("save and SIGTERM (dirty) against\nencode + durable write", None, None, True),
    ]
    panels = [panel for panel in panels
              if (panel[1] is None and (series(rows, "saveSeconds") or series(rows, "encodeAndWriteSeconds")))
              or (panel[1] is not None and series(rows, panel[1]))]
    if not panels:
        return False
    sizes = sizes_of(rows)
    by_size = {number(row["megabytes"]): row for row in rows}
    figure, axes = plt.subplots(1, len(panels), figsize=(3.9 * len(panels) + 0.6, 5.2), layout="constrained",
                                squeeze=False)
    for axis, (title, key, goal_key, in_seconds) in zip(axes[0], panels):
        fmt = format_seconds if in_seconds else (lambda value: f"{value:g}")
        if key is None:
            bars = [("saveSeconds", "save", COLOURS["daemon v4"]),
                    ("sigtermDirtySeconds", "SIGTERM, dirty", COLOURS["after save v4"]),
                    ("encodeAndWriteSeconds", "encode + durable write", COLOURS["plain v4"])]
            width = 0.8 / len(bars)
            drawn = []
            for number_of, (bar_key, label, colour) in enumerate(bars):
                for index, size in enumerate(sizes):
                    value = number(by_size[size].get(bar_key))
                    if value is None or value <= 0:
                        continue
                    x = index - 0.4 + width * (number_of + 0.5)
                    axis.bar(x, value, width * 0.92, color=colour, edgecolor="black", linewidth=0.5,
                             label=label if label not in axis.get_legend_handles_labels()[1] else None)
                    drawn.append(value)
            axis.set_yscale("log")
            seconds_axis(axis)
            axis.set_ylim(min(drawn) / 4, max(drawn) * 4)
            axis.legend(fontsize=7.5, loc="upper left")
        else:
            values = []
            for index, size in enumerate(sizes):
                row = by_size[size]
                value, goal = number(row.get(key)), number(row.get(goal_key))
                if goal is not None:
                    axis.hlines(goal, index - 0.3, index + 0.3, colors=COLOURS["goal"], linewidth=2.4)
                    values.append(goal)
                if value is None:
                    axis.annotate("not measured", (index, 0), xycoords=("data", "axes fraction"), xytext=(0, 6),
                                  textcoords="offset points", ha="center", fontsize=7.5, color="#777777",
                                  rotation=90, va="bottom")
                    continue
                met = goal is None or value <= goal
                axis.bar(index, value, 0.5, color=SIZE_COLOURS[index % len(SIZE_COLOURS)],
                         edgecolor="black" if met else "#b00000", linewidth=0.6 if met else 1.6)
                axis.annotate(fmt(value), (index, value), xytext=(0, 2), textcoords="offset points",
                              ha="center", va="bottom", fontsize=7.5, color="black" if met else "#b00000")
                values.append(value)
            goals = sorted({number(row.get(goal_key)) for row in rows if number(row.get(goal_key)) is not None})
            if goals:
                title += "\ngoal ≤ " + " / ".join(fmt(goal) for goal in goals) + " (black line)"
            if in_seconds and wants_log(values, spread=30):
                axis.set_yscale("log")
                axis.set_ylim(top=max(values) * 3)
            else:
                axis.set_ylim(0, max(values) * 1.2 if values else 1)
            if in_seconds:
                seconds_axis(axis)
            else:
                axis.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        axis.set_title(title, fontsize=9.5)
        axis.set_xticks(range(len(sizes)))
        axis.set_xticklabels([size_label(size) for size in sizes], fontsize=8.5)
        axis.grid(True, axis="y", which="major", alpha=0.3)
    finish(figure, path, "Persistence on the workspace model: the figures with absolute goals", results)
    return True


# main ----------------------------------------------------------------------------------------------------------------

DRAWERS = {
    "ratios.png": (draw_ratios, "every ratio per size against its goal"),
    "ready-time.png": (draw_ready_time, "ready and load time against workspace size"),
    "peer.png": (draw_peer, "one JSON file against SQLite: load, save, durable changes, ready after a crash"),
    "memory.png": (draw_memory, "peak and resident memory against workspace size"),
    "persistence.png": (draw_persistence, "owner blocked, file writes, SIGTERM and save times against their goals"),
}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="?", default="docs/benchmarks/results.json")
    parser.add_argument("out_dir", nargs="?", default="docs/benchmarks")
    parser.add_argument("--markdown", metavar="FILE", help="also write the markdown snippet to FILE")
    parser.add_argument("--relative-to", metavar="DIR",
                        help="the markdown's image paths are relative to DIR (default: OUT_DIR's parent)")
    arguments = parser.parse_args(argv[1:])

    try:
        with open(arguments.results, encoding="utf-8") as file:
            results = json.load(file)
    except (OSError, json.JSONDecodeError) as error:
        print(f"bench-charts: cannot read {arguments.results}: {error}", file=sys.stderr)
        return 1
    if not isinstance(results, dict):
        print(f"bench-charts: {arguments.results} is not a JSON object", file=sys.stderr)
        return 1
    os.makedirs(arguments.out_dir, exist_ok=True)
    relative_to = arguments.relative_to or os.path.dirname(os.path.abspath(arguments.out_dir))

    written = []
    for name in CHARTS:
        draw, description = DRAWERS[name]
        path = os.path.join(arguments.out_dir, name)
        if draw(results, path):
            written.append((name, path, description))
            print(f"bench-charts: wrote {path}", file=sys.stderr)
        else:
            print(f"bench-charts: {name} skipped (its sections are missing)", file=sys.stderr)
            if os.path.exists(path):
                os.remove(path)
    if not written:
        print(f"bench-charts: nothing to draw in {arguments.results}", file=sys.stderr)
        return 1

    lines = [f"Charts of [{os.path.basename(arguments.results)}]"
             f"({os.path.relpath(os.path.abspath(arguments.results), relative_to)}) "
             f"(commit {results.get('commit', 'unknown')}, {results.get('date', 'date unknown')}; "
             f"`make bench-charts` redraws them):", ""]
    for name, path, description in written:
        lines.append(f"![{description}]({os.path.relpath(os.path.abspath(path), relative_to)})")
        lines.append("")
    snippet = "\n".join(lines)
    sys.stdout.write(snippet)
    if arguments.markdown:
        with open(arguments.markdown, "w", encoding="utf-8") as file:
            file.write(snippet)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
