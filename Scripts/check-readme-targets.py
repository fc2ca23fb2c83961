#!/usr/bin/env python3
"""Checks that every `make X` a document names is a rule of the Makefile (make test runs it on README.md).

    Scripts/check-readme-targets.py [DOCUMENT ...]      (default README.md; run from anywhere)

It reads `make <target>` from inline code spans and from lines of fenced code blocks, asks make itself for its rules
(`make -pRrq`: the database, without running anything), and fails when a target is not a rule, or when a file or
directory of the same name exists and the target is not declared .PHONY (make would then find the file up to date
and do nothing, as `make docs` once did with the docs/ directory).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = re.compile(r"^make\s+([A-Za-z0-9][A-Za-z0-9_.-]*)")


def named_targets(text):
    """Every (target, line number) the document names in `make X` code, inline spans broken over lines included."""
    found = []
    fenced = False
    prose = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            prose.append("")
            continue
        if fenced:
            match = TARGET.match(line.strip())
            if match:
                found.append((match.group(1), number))
            prose.append("")
        else:
            prose.append(line)
    joined = "\n".join(prose)
    for span in re.finditer(r"`([^`]+)`", joined):
        match = TARGET.match(" ".join(span.group(1).split()))
        if match:
            found.append((match.group(1), joined.count("\n", 0, span.start()) + 1))
    return sorted(found, key=lambda item: item[1])


def makefile_rules():
    """The Makefile's targets and its .PHONY ones, from make's own database."""
    result = subprocess.run(
        ["make", "-pRrq", "-f", "Makefile", ":"], cwd=ROOT, capture_output=True, text=True)
    if "Makefile" not in result.stdout:
        sys.exit(f"check-readme-targets: make printed no database: {result.stderr.strip()}")
    rules, phony = set(), set()
    not_a_target = False
    for line in result.stdout.splitlines():
        if line.startswith("# Not a target:"):
            not_a_target = True
            continue
        match = re.match(r"^([A-Za-z0-9_.-][^:=#\s]*)\s*::?(?!=)(.*)$", line)
        if match and not not_a_target:
            if match.group(1) == ".PHONY":
                phony.update(match.group(2).split())
            else:
                rules.add(match.group(1))
        not_a_target = False
    return rules, phony


def main():
    documents = sys.argv[1:] or [os.path.join(ROOT, "README.md")]
    rules, phony = makefile_rules()
    problems, checked = [], set()
    for document in documents:
        with open(document, encoding="utf-8") as handle:
            text = handle.read()
        for target, line in named_targets(text):
            checked.add(target)
            where = f"{document}:{line}: `make {target}`"
            if target not in rules:
                problems.append(f"{where}: the Makefile has no rule {target}")
            elif os.path.exists(os.path.join(ROOT, target)) and target not in phony:
                problems.append(
                    f"{where}: {target} exists in the repository and is not .PHONY, so make finds it up to date")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(f"check-readme-targets: {len(problems)} problem(s)")
    print(f"check-readme-targets: every `make X` named is a rule: {' '.join(sorted(checked))}")


if __name__ == "__main__":
    main()
