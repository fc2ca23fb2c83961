#!/usr/bin/env bash
# Counts the instructions of a plain JSONDecoder decode and of StateStore's loads (callgrind), and prints their
# ratios: unlike wall time, the counts do not change with other load on the machine.
# The plain decode is the same model type decoded by JSONDecoder directly.
# Usage: Scripts/count-load-instructions.sh [records]   (default 5000; needs valgrind and a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
records="${1:-5000}"
# --toggle-collect finds measuredOperation in the copy's symbol table.
source Scripts/callgrind-binary.sh
callgrind_binary StateStoreBenchmarks
count() {
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measuredOperation*' \
    --callgrind-out-file="$out/$1.out" "$binary" count "$1" "$records" >/dev/null 2>"$out/$1.log"
  grep -E '^summary:|^totals:' "$out/$1.out" | head -1 | awk '{print $2}'
}
plain=$(count plain)
current=$(count load-current)
oldest=$(count load-oldest)
synthesized=$(count synthesized)
printf 'instructions, %s records: plain decode %s, load v4 %s, load+migrate v1 %s\n' "$records" "$plain" "$current" "$oldest"
awk -v p="$plain" -v c="$current" -v o="$oldest" -v s="$synthesized" 'BEGIN {
  printf "model decode with unknown-field capture ÷ synthesized Codable without it: %.3f (goal ≤ 1.2)\n", p / s
  printf "load of the current version ÷ plain decode: %.3f (goal ≤ 0.4, issue 29)\n", c / p
  printf "load + migration of the oldest ÷ plain decode: %.3f (goal ≤ 1.10)\n", o / p }'
