#!/usr/bin/env bash
# Where a load's instructions go, by phase (callgrind, so the counts do not move with other load on the machine):
# the in-process load of a workspace file (WorkspaceBench peer-measure json load, as the daemon loads at start) and,
# for comparison, a plain JSONDecoder decode of the same bytes into a synthesized-Codable copy of the model
# (WorkspaceBench baseline). docs/benchmarks.md says how to read it.
# Usage: Scripts/profile-load-phases.sh FILE   (needs valgrind and `swift build -c release --package-path Benchmarks`)
set -euo pipefail
cd "$(dirname "$0")/.."
file="$1"
source Scripts/callgrind-binary.sh
callgrind_binary WorkspaceBench
valgrind --tool=callgrind --callgrind-out-file="$out/load.out" "$binary" peer-measure json load "$file" x \
  >/dev/null 2>"$out/load.log"
valgrind --tool=callgrind --callgrind-out-file="$out/plain.out" "$binary" baseline "$file" 1 >/dev/null 2>"$out/plain.log"
callgrind_annotate --inclusive=yes "$out/load.out" | swift demangle --simplified >"$out/load.txt"
callgrind_annotate --inclusive=yes "$out/plain.out" | swift demangle --simplified >"$out/plain.txt"
python3 - "$out/load.txt" "$out/plain.txt" <<'PY'
import re, sys

def counts(path):
    table = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        match = re.match(r"\s*([\d,]+) \([\d. ]+%\)\s+(.*)", line)
        if match:
            name = re.sub(r"^\?\?\?:", "", match.group(2)).rsplit(" [", 1)[0]
            table[name] = max(table.get(name, 0), int(match.group(1).replace(",", "")))
    return table

load, plain = counts(sys.argv[1]), counts(sys.argv[2])
def inclusive(table, *patterns):
    return sum(value for name, value in table.items() if any(re.fullmatch(p, name) for p in patterns))

total = load.get("PROGRAM TOTALS", 0)
read = inclusive(load, r"StateCodec\.readDirectly\(_:\)")
codable = inclusive(load, r"StateCodec\.readThroughCodable\(_:context:\)")
keys = inclusive(load, r"StateDirectReader\.nextKey\(\)")
strings = inclusive(load, r"JSONPullReader\.readString\(\)")
ids = inclusive(load, r"StateDirectReader\.readString<A>\(utf8:\)")
numbers = inclusive(load, r"JSONPullReader\.readInteger<A>\(_:\)")
migrations = inclusive(load, r"closure #4 in MigrationStep\.init<A, B>\(from:_:to:convert:\)")
repairs = inclusive(load, r"static WorkspaceRepair\.repair\(_:makeID:\)")
rows = [
    ("whole process", total),
    ("read into the stored version's model (direct)", read),
    ("  keys (read, checked, compared)", keys),
    ("  strings (checked, made)", strings),
    ("  ids (parsed in place)", ids),
    ("  integers", numbers),
    ("  records and arrays built (the rest of the read)", read - keys - strings - ids - numbers),
    ("read through Codable (a fallback)", codable),
    ("migrations", migrations),
    ("repairs", repairs),
    ("plain JSONDecoder decode, whole process", plain.get("PROGRAM TOTALS", 0)),
]
for name, value in rows:
    print(f"{name:55} {value / 1e6:10.1f} M")
if plain.get("PROGRAM TOTALS"):
    print(f"load ÷ plain decode: {total / plain['PROGRAM TOTALS']:.3f}")
PY
