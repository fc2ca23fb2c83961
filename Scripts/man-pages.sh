#!/usr/bin/env bash
# Writes the manual pages of the built binaries in BIN_DIR into MAN_DIR/man1, man5 and man8 (mode 0644):
#
#   workspaced(8), workspacectl(1)  swift-argument-parser's generate-manual (the tool behind its GenerateManual
#                                   plugin) on each binary's own `--experimental-dump-help`, hidden commands and
#                                   options left out;
#   workspaced.json(5)              `workspaced configuration-manual` (hidden): every key of ConfigurationKey.all
#                                   with its environment variable and flag.
#
# The pages follow the code: nothing here names a subcommand, an option or a key.
#
#   Scripts/man-pages.sh BIN_DIR MAN_DIR
#
# The plugin itself (`swift package plugin generate-manual`) would rebuild every executable of the package in
# release with its own flags and give every tool the same section; instead the generator is built once (debug,
# about a minute, into .build/generate-manual) from the swift-argument-parser checkout the package resolved, and run
# on the release binaries `make release` already built.
# Environment: SWIFT (default swift), SCRATCH (the package's build directory, default the one BIN_DIR is in),
# MAN_DATE (the pages' date, default the last commit's date, else today).
set -euo pipefail

bin_dir=$1
man_dir=$2
root=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
# BIN_DIR is SCRATCH/<triple>/<configuration>.
scratch=${SCRATCH:-$(cd -P "$bin_dir/../.." && pwd)}
parser="$scratch/checkouts/swift-argument-parser"
tool_scratch="$scratch/generate-manual"

[ -x "$bin_dir/workspaced" ] && [ -x "$bin_dir/workspacectl" ] ||
    { echo "man-pages: no workspaced and workspacectl in $bin_dir" >&2; exit 1; }
[ -f "$parser/Package.swift" ] ||
    { echo "man-pages: no swift-argument-parser checkout at $parser (build the package first)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "man-pages: python3 is missing (make deps installs it)" >&2; exit 1; }

date=${MAN_DATE:-$(git -C "$root" log -1 --format=%cs 2>/dev/null || true)}
date=${date:-$(date -u +%F)}

log=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$work" "$log"' EXIT
build=(env SWIFT="$swift" "$root/Scripts/swift-build.sh" --package-path "$parser" --scratch-path "$tool_scratch")
if ! "${build[@]}" --product generate-manual >"$log" 2>&1; then
    cat "$log" >&2
    echo "man-pages: building swift-argument-parser's generate-manual failed" >&2
    exit 1
fi
generator="$("${build[@]}" --show-bin-path)/generate-manual"

mkdir -p "$man_dir/man1" "$man_dir/man5" "$man_dir/man8"
for page in workspaced:8 workspacectl:1; do
    name=${page%%:*}
    section=${page##*:}
    # generate-manual runs its argument with --experimental-dump-help; this stand-in answers with the binary's own
    # description, prepared for generate-manual (hidden commands left out, ASCII text, paragraphs as .Pp).
    "$bin_dir/$name" --experimental-dump-help | python3 "$root/Scripts/dump-help-for-manual.py" >"$work/$name.json"
    printf '#!/bin/sh\nexec cat "%s"\n' "$work/$name.json" >"$work/$name"
    chmod +x "$work/$name"
    "$generator" "$work/$name" --section "$section" --date "$date" --output-directory "$man_dir/man$section"
    chmod 0644 "$man_dir/man$section/$name.$section"
done
"$bin_dir/workspaced" configuration-manual --date "$date" >"$man_dir/man5/workspaced.json.5"
chmod 0644 "$man_dir/man5/workspaced.json.5"
