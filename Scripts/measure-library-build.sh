#!/usr/bin/env bash
# What a package that uses only StateStore resolves and compiles, against BASE (a commit before package traits and
# StateStore's own SHA-256; 888a3ae by default) and against the working tree's HEAD with `traits: []`, measured one
# after the other in the same run, ROUNDS times each (2 by default):
#
#   Scripts/measure-library-build.sh [BASE] [ROUNDS]
#
# The package is a settings service with a hand-written decoder (no @StateModel, so no swift-syntax is compiled).
# Each round is a clean `swift package resolve` and `swift build` in a new .build. Prints one line per build:
# resolve and build seconds, compile steps, packages resolved and the size of their checkouts.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-888a3ae}
rounds=${2:-2}
swift=${SWIFT:-swift}
work=$(mktemp -d /tmp/library-build-XXXXXX)
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/base" && git -C "$work/base" checkout -q "$base"
git clone -q "$repo" "$work/head"

for variant in base head; do
    mkdir -p "$work/$variant-user/Sources/Settings"
    traits=$([ "$variant" = head ] && echo ', traits: []' || true)
    cat >"$work/$variant-user/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "settings", platforms: [.macOS(.v15)],
    dependencies: [.package(name: "workspaced", path: "$work/$variant"$traits)],
    targets: [.executableTarget(name: "Settings", dependencies: [.product(name: "StateStore", package: "workspaced")])])
MANIFEST
    cat >"$work/$variant-user/Sources/Settings/main.swift" <<'SOURCE'
import Foundation
import StateStore

struct Settings: Codable, Sendable {
    var theme: String
    var fontSize: Int

    init(theme: String, fontSize: Int = 12) {
        self.theme = theme
        self.fontSize = fontSize
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        theme = try container.decode(String.self, forKey: .theme)
        fontSize = try container.decodeIfPresent(Int.self, forKey: .fontSize) ?? 12
    }
}

let file = StateFile(path: "settings.json", schema: try StateSchema(currentVersion: 1, initial: { Settings(theme: "light") }))
let state = PersistentState(file: file, loaded: try file.load())
print(try state.apply { $0.fontSize += 1 }.revision)
try state.close()
SOURCE
done

for _ in $(seq "$rounds"); do
    for variant in base head; do
        cd "$work/$variant-user"
        rm -rf .build Package.resolved
        started=$(date +%s.%N)
        $swift package resolve >/dev/null 2>&1
        resolved=$(date +%s.%N)
        $swift build >"$work/build.log" 2>&1
        built=$(date +%s.%N)
        steps=$(grep -cE '^\[[0-9]+/[0-9]+\] Compiling' "$work/build.log" || true)
        awk -v v="$variant" -v s="$started" -v r="$resolved" -v b="$built" -v n="$steps" \
            -v p="$(ls .build/checkouts | wc -l)" -v d="$(du -sh .build/checkouts | cut -f1)" \
            'BEGIN { printf "%s: resolve %.1f s, build %.1f s, %d compile steps, %d packages (%s)\n", v, r - s, b - r, n, p, d }'
    done
done
