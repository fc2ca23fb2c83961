#!/usr/bin/env python3
"""Prints the reliability summary table that `make test` and `make soak` end with.

The reliability tests (fault matrix, SIGKILL and SIGTERM torture, corrupt corpus) append one tab-separated row each
to the file named by WSD_RELIABILITY_SUMMARY: test, rounds, failures, duration in seconds. This prints them as a
table and exits 1 when any row has failures or the file has no rows (the tests did not run)."""
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: reliability-summary.py ROWS.tsv", file=sys.stderr)
        return 2
    path = Path(argv[1])
    rows = [line.split("\t") for line in path.read_text().splitlines() if line.strip()] if path.exists() else []
    if not rows:
        print(f"reliability summary: no rows in {path} (the reliability tests did not run)", file=sys.stderr)
        return 1
    header = ["test", "rounds", "failures", "duration"]
    table = [header] + [[test, rounds, failures, f"{float(seconds):.1f} s"] for test, rounds, failures, seconds in rows]
    widths = [max(len(row[column]) for row in table) for column in range(len(header))]
    print("\nreliability summary")
    for index, row in enumerate(table):
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]
        print("  " + "  ".join(cells))
        if index == 0:
            print("  " + "  ".join("-" * width for width in widths))
    failed = sum(int(row[2]) for row in rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
