#!/usr/bin/env python3
"""Fails when the test targets of Package.swift and the groups `make unit-tests` runs differ: a test target in no
group would never run, since each group is chosen by target name (`swift test --filter '^(A|B)\\.'`).

Usage: Scripts/check-test-targets.py TARGET...   (every target of IN_PROCESS_TARGETS, CLIENT_TARGETS,
PROCESS_TARGETS and RELIABILITY_TARGETS; `make lint` passes them)
"""
import re
import sys

declared = set(re.findall(r'\.testTarget\(\s*name:\s*"([^"]+)"', open("Package.swift").read()))
grouped = sys.argv[1:]
repeated = sorted({name for name in grouped if grouped.count(name) > 1})
missing, unknown = sorted(declared - set(grouped)), sorted(set(grouped) - declared)
for problem, names in (("in no group of `make unit-tests`", missing), ("not a test target of Package.swift", unknown),
                       ("in more than one group", repeated)):
    if names:
        print(f"check-test-targets: {', '.join(names)}: {problem} (Makefile: IN_PROCESS_TARGETS, CLIENT_TARGETS, "
              f"PROCESS_TARGETS, RELIABILITY_TARGETS)", file=sys.stderr)
if missing or unknown or repeated:
    sys.exit(1)
