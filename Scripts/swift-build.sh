#!/usr/bin/env bash
# Runs `swift build ARGS` in an environment that is the same on every call, so that SwiftPM 6.3 neither plans the
# build again nor compiles this package's modules again when nothing they are made of changed:
#
# - SwiftPM hands each enabled package trait to the compiler as a -D flag in the order of a Swift Set, and a Set's
#   order follows the process's random hash seed. Each new build plan drew a new order of this package's four
#   traits (-DDaemon -DSystemd -DReplica -DMetrics), and llbuild, which keys a compile on its whole command line,
#   compiled every module of the package again: 104 to 110 s of release build for an unchanged tree
#   (swiftlang/swift-package-manager#10525, fixed after 6.3). SWIFT_DETERMINISTIC_HASHING=1 fixes the seed, so the
#   order is the same in every plan.
# - SwiftPM evaluates the manifest again, and plans the build again, whenever the environment differs from the last
#   build's (12–13 s of a release build that compiles nothing), and make puts its own variables (MAKEFLAGS,
#   MAKELEVEL) and those given on its command line (DEB_VERSION, DESTDIR, …) in the environment of every recipe.
#   The build therefore sees only the variables below.
#
# Kept when set: what finding the toolchain, the package mirror and a proxy needs (PATH, HOME, TMPDIR, TERM, the
# XDG directories, PKG_CONFIG_PATH, the proxy and certificate variables) and the two variables Package.swift reads
# (WSD_FUZZ, WSD_MACRO_PLUGIN). SWIFT names the swift executable (default: swift).
set -euo pipefail

keep=(PATH HOME TMPDIR TERM XDG_CACHE_HOME XDG_CONFIG_HOME PKG_CONFIG_PATH
      http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY SSL_CERT_FILE SSL_CERT_DIR
      WSD_FUZZ WSD_MACRO_PLUGIN)
environment=(SWIFT_DETERMINISTIC_HASHING=1)
for name in "${keep[@]}"; do
    if [ -n "${!name+set}" ]; then environment+=("$name=${!name}"); fi
done

exec env -i "${environment[@]}" "${SWIFT:-swift}" build "$@"
